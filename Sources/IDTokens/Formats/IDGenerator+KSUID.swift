internal import CTokens

// KSUIDs in bulk: one clock read and one draw a chunk.

extension IDGenerator {
    /// KSUIDs minted in bulk share their stamp in chunks of this many (the clock is read once a chunk).
    static let ksuidChunk = Keystream.usableBytes / 16

    /// KSUIDs in chunks of 254: the clock once per chunk (the stamp and its end-of-time handling as
    /// ``write(_:checked:now:)`` has them), the low 20 characters of every id sampled as a base62×20
    /// token, then each id's block drawn and its top 7 characters written, an id that falls outside
    /// its stamp's range drawn again (see `KSUIDBlocks`). The sampler erases the symbols it hands out;
    /// the draws' words are scrubbed from the stack. Checked, a clock outside KSUID's range stops the
    /// fill before that chunk.
    @inline(__always)
    func fillKSUID(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
        guard let engine = tokens?.engine else { return 0 }
        let chunk = Self.ksuidChunk
        var out = base
        var written = 0
        while written < count {
            let k = Swift.min(chunk, count - written)
            let seconds = clock() / 1000
            let inRange = seconds >= Self.ksuidEpoch && seconds - Self.ksuidEpoch <= UInt64(UInt32.max)
            if _slowPath(!inRange && checked) { break }
            // Unchecked, a clock outside KSUID's range is held at its nearest end instead of wrapping.
            let stamp = seconds < Self.ksuidEpoch ? 0 : UInt32(clamping: seconds - Self.ksuidEpoch)
            if _slowPath(ksuidBlocks?.stamp != stamp) { ksuidBlocks = KSUIDBlocks(stamp: stamp) }
            guard let blocks = ksuidBlocks else { break }
            let blockCount = blocks.count
            let threshold = blocks.threshold
            let lowA = blocks.lowA
            let lowB = blocks.lowB
            var word: UInt64 = 0
            var left = 0
            let last = Int(blockCount) - 1
            blocks.tops.withUnsafeBufferPointer { tops in
                withUnsafeTemporaryAllocation(of: UInt16.self, capacity: chunk) { ends in
                    guard let ends = ends.baseAddress else { return }
                    // The block of an id: 16 random bits times the count, the high half, unless the low
                    // half is below 2^16 mod count (Lemire).
                    @inline(__always) func block() -> Int {
                        while true {
                            if left == 0 {
                                word = keystream.next()
                                left = 4
                            }
                            let p = UInt32(truncatingIfNeeded: word & 0xFFFF) &* blockCount
                            word &>>= 16
                            left -= 1
                            if _fastPath(p & 0xFFFF >= threshold) { return Int(p >> 16) }
                        }
                    }
                    // Each id's top 7 characters as 8 bytes (the eighth is overwritten below); the ids
                    // in an end block noted (index, and which end).
                    var found = 0
                    for i in 0..<k {
                        let j = block()
                        UnsafeMutableRawPointer(out + i * stride).storeBytes(of: tops[j], as: UInt64.self)
                        if _slowPath(j == 0 || j == last) {
                            ends[found] = UInt16(truncatingIfNeeded: i << 1 | (j == 0 ? 0 : 1))
                            found += 1
                        }
                    }
                    // The low 20 characters.
                    engine.fill(out + 7, count: k, stride: stride, separator: separator)
                    // An id of an end block below A or above B is drawn again, block and characters.
                    for e in 0..<found {
                        let slot = out + Int(ends[e] >> 1) * stride
                        var j = ends[e] & 1 == 0 ? 0 : last
                        while true {
                            let low = KSUIDBlocks.key(UnsafeRawPointer(slot + 7))
                            if j == 0 ? low >= lowA : j == last ? low <= lowB : true { break }
                            j = block()
                            let top = tops[j]
                            UnsafeMutableRawPointer(slot).storeBytes(of: UInt32(truncatingIfNeeded: top), as: UInt32.self)
                            UnsafeMutableRawPointer(slot).storeBytes(
                                of: UInt32(truncatingIfNeeded: top >> 24), toByteOffset: 3, as: UInt32.self)
                            engine.writeToken(slot + 7)
                        }
                    }
                    idt_erase(ends, 2 * chunk)
                }
            }
            word = 0
            out += k * stride
            written += k
        }
        idt_scrub_stack_deep()
        return written
    }
}
