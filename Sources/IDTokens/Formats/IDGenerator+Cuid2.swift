internal import CTokens

// cuid2 in bulk: the letters that start each id, sampled a round at a time.

extension IDGenerator {
    /// cuid2 in bulk: the first character of each of `count` ids, a uniform letter,
    /// from keystream bytes below 234 (= 9·26) reduced mod 26, sampled 512 bytes at a time by the
    /// whole-byte sampler; the letters left over are erased.
    func letters(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        let round = 512
        let found = UnsafeMutablePointer<UInt8>.allocate(capacity: round + 64)
        defer {
            idt_erase(found, round + 64)
            found.deallocate()
        }
        var j = 0
        Self.letterTable.withUnsafeBufferPointer { table in
            while j < count {
                let n = keystream.withNextBytes(round) { idt_sample8($0, round, table.baseAddress, 234, 26, found) }
                for i in 0..<Swift.min(n, count - j) { base[(j + i) * stride] = found[i] }
                j += n
            }
        }
    }

    /// Byte b < 234 → the letter b mod 26 (the sampler ignores the rest).
    static let letterTable: [UInt8] = (0..<256).map { UInt8(ascii: "a") + UInt8($0 % 26) }

    /// Formats whose ids are all fresh random bits (uuid4, uuid8, non-monotonic ulid): the random bytes of
    /// up to 254 ids (one keystream refill) encoded straight from the keystream's buffer, which erases
    /// them after — no id's bits outlive its encoding.
    @inline(__always)
    func fillFresh(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
        let chunk = Keystream.usableBytes / 16
        var out = base
        var written = 0
        let pairs = format == .ulid ? FormatEncoding.crockfordPairs : FormatEncoding.hexPairs
        while written < count {
            let k = Swift.min(chunk, count - written)
            var now = clock()
            if _slowPath(now > Self.lastMillisecond) {
                if checked && format == .ulid { break }
                now = Self.lastMillisecond
            }
            keystream.withNextBytes(16 * k) { bytes in
                let random = UnsafeRawPointer(bytes)
                for j in 0..<k {
                    let hi = random.loadUnaligned(fromByteOffset: 16 * j, as: UInt64.self)
                    let lo = random.loadUnaligned(fromByteOffset: 16 * j + 8, as: UInt64.self)
                    var v = UInt128(hi) << 64 | UInt128(lo)
                    if format == .uuid4 || format == .uuid8 {
                        // Version 4 or 8, variant 10: the other 122 bits as drawn (`value` sets the same).
                        let version = UInt128(format == .uuid4 ? 0x4000 : 0x8000) << 64
                        v = v & ~(UInt128(0xF000) << 64 | UInt128(0xC000) << 48) | (version | UInt128(0x8000) << 48)
                        FormatEncoding.uuid(v, into: out, pairs: pairs)
                    } else {
                        // 48-bit milliseconds, then 80 random bits.
                        FormatEncoding.crockford(
                            UInt128(now & 0xFFFF_FFFF_FFFF) << 80 | (v & ((UInt128(1) << 80) - 1)), into: out, pairs: pairs)
                    }
                    if let separator { out[length] = separator }
                    out += stride
                }
            }
            written += k
        }
        idt_scrub_stack()
        return written
    }
}
