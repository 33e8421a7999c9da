internal import CTokens

// Monotonic time-ordered ids in bulk: the fork check, the clock and the random steps once a chunk.

extension IDGenerator {
    /// Monotonic uuid7, TypeID, ULID and Firebase ids in chunks of 256: the fork check and the clock
    /// once per chunk, uuid7's and TypeID's 31-bit random steps of the whole chunk in one draw (then
    /// erased; ULID and Firebase step by 1), the last id's timestamp and random field kept in
    /// registers and stored once a chunk, the encoding tables looked up once. Every id that is not a
    /// step within the last id's millisecond — the first of a new millisecond, an overflow of the
    /// random field, the end of time — goes through `nextTimed`, so they are minted exactly as
    /// `next()` mints them. A fork cannot land inside a chunk: only the thread that forks runs in the
    /// child, and this one is busy here.
    @inline(__always)
    func fillMonotonic(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
        let chunk = 256
        var out = base
        var written = 0
        let randomStep = format == .uuid7 || format == .typeid
        let bits = randomStep ? 74 : format == .firebase ? 72 : 80
        let steps = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 * chunk, alignment: 16)
        steps.initializeMemory(as: UInt8.self, repeating: 0)
        defer {
            idt_erase(steps.baseAddress, steps.count)
            steps.deallocate()
        }
        let limit = UInt128(1) << UInt128(bits)
        let n = head.count
        let pairs =
            switch format {
            case .uuid7: FormatEncoding.hexPairs
            case .typeid: FormatEncoding.lowerCrockfordPairs
            case .firebase: FormatEncoding.firebasePairs
            default: FormatEncoding.crockfordPairs
            }
        head.withUnsafeBufferPointer { prefix in
            while written < count {
                let k = Swift.min(chunk, count - written)
                checkFork()
                let now = clock()
                if randomStep { keystream.fill(UnsafeMutableRawBufferPointer(rebasing: steps[0..<(4 * k)])) }
                var last = state[0]
                var previous = UInt128(state[1]) << 64 | UInt128(state[2])
                var j = 0
                while j < k {
                    var millis = last
                    var r: UInt128
                    let step = randomStep ? 1 + UInt128(steps.loadUnaligned(fromByteOffset: 4 * j, as: UInt32.self) & 0x7FFF_FFFF) : 1
                    let (sum, _) = previous.addingReportingOverflow(step)
                    if _fastPath(last != 0 && now <= last && sum < limit) {
                        r = sum
                    } else {
                        store(millis: last, random: previous)
                        guard let next = nextTimed(bits: bits, randomStep: randomStep, checked: checked, now: now) else { break }
                        (millis, r) = next
                    }
                    (last, previous) = (millis, r)
                    switch format {
                    case .firebase:
                        FormatEncoding.firebase(millis: millis, random: r, into: out, pairs: pairs)
                    case .ulid:
                        FormatEncoding.crockford(UInt128(millis & 0xFFFF_FFFF_FFFF) << 80 | r, into: out, pairs: pairs)
                    default:
                        // unix_ts_ms (48) | ver 0111 | rand_a (12) | var 10 | rand_b (62)
                        let v =
                            UInt128(millis & 0xFFFF_FFFF_FFFF) << 80 | UInt128(7) << 76 | (r >> 62) << 64 | UInt128(2) << 62
                            | (r & ((UInt128(1) << 62) - 1))
                        if n == 0 && format == .uuid7 {
                            FormatEncoding.uuid(v, into: out, pairs: pairs)
                        } else {
                            if n > 0, let p = prefix.baseAddress { out.update(from: p, count: n) }
                            FormatEncoding.crockford(v, into: out + n, pairs: pairs)
                        }
                    }
                    if let separator { out[length] = separator }
                    out += stride
                    j += 1
                }
                store(millis: last, random: previous)
                if randomStep { idt_erase(steps.baseAddress, 4 * k) }
                written += j
                if j < k { break }
            }
        }
        idt_scrub_stack()
        return written
    }
}
