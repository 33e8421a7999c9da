#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Minting the node-id family: UUIDv1 and v6, xid, ObjectId, the Snowflake family and TSID. Their ids
/// are a tick, a node and a counter; uniqueness rests on no two live nodes sharing a node value and on
/// one node minting at most `NodeField.perTick` ids a tick.
///
/// **Faster than the format allows.** A format's counter caps one node's rate (Snowflake: 4,096 ids
/// a millisecond; Sonyflake: 256 per 10 ms; a UUIDv1: one per 100 ns tick). Where reference minters
/// sleep until the next tick, idbudget's take the next tick at once (as tsid-creator does): the ids
/// stay unique and ordered, and their timestamps run ahead of the clock by as many ticks as were
/// borrowed; the clock catches up once minting slows. The clock goes backwards, the ids do not.
/// UUIDv1 and v6 read the clock in milliseconds and give the ids of one millisecond successive 100 ns
/// ticks.
///
/// **After a fork** the child draws its own node (when none was assigned), never its parent's, and
/// its own counter start and clock sequence, as the state they live in is wiped; xid takes the child's
/// pid. An assigned node belongs to one process: a child minting with it mints its parent's ids.
extension IDGenerator {
    /// The id as a number (a UUID's 128 bits, an xid's or ObjectId's 96, a Snowflake's 64); nil when
    /// `checked` and the clock is outside the format's time, or the last tick is used up.
    @inline(__always)
    func nodeValue(checked: Bool, now millis: UInt64) -> UInt128? {
        checkFork()
        if _slowPath(state[4] == 0) { drawNode() }
        switch format {
        case .uuid1, .uuid6:
            let last: UInt64 = (1 << 60) - 1
            var ticks = millis &* 10_000 &+ Self.gregorianOffset
            if _slowPath(millis > Self.lastMillisecond || ticks > last) {
                if checked { return nil }
                ticks = last
            }
            if state[0] != 0 && ticks < state[0] {
                ticks = state[0]
                if _slowPath(ticks > last) {
                    if checked { return nil }
                    ticks = last
                }
            }
            state[0] = ticks + 1
            let sequence = UInt128(0x8000 | state[2] & 0x3FFF) << 48 | UInt128(state[3])
            if format == .uuid1 {
                // time_low (32) | time_mid (16) | version 1, time_hi (12) | variant, clock sequence | node
                return UInt128(ticks & 0xFFFF_FFFF) << 96 | UInt128(ticks >> 32 & 0xFFFF) << 80
                    | UInt128(0x1000 | ticks >> 48 & 0xFFF) << 64 | sequence
            }
            // time_high (32) | time_mid (16) | version 6, time_low (12) | variant, clock sequence | node
            return UInt128(ticks >> 28) << 96 | UInt128(ticks >> 12 & 0xFFFF) << 80 | UInt128(0x6000 | ticks & 0xFFF) << 64 | sequence
        case .xid, .objectid:
            let last = UInt64(UInt32.max)
            var seconds = millis / 1000
            if _slowPath(seconds > last) {
                if checked { return nil }
                seconds = last
            }
            guard let (tick, _) = advance(to: seconds, last: last, perTick: 1 << 24, checked: checked, start: 0) else { return nil }
            let counter = (state[2] &+ 1) & 0xFF_FFFF
            state[2] = counter
            return UInt128(tick) << 64 | UInt128(state[3]) << 24 | UInt128(counter)
        default:
            let unit: UInt64 = format == .sonyflake ? 10 : 1
            // Instagram's ids are signed 64-bit integers: of its 41 time bits the top one stays 0.
            let timeBits: UInt64 = format == .sonyflake ? 39 : format == .tsid ? 42 : format == .instagram ? 40 : 41
            let last: UInt64 = (1 << timeBits) - 1
            var tick: UInt64
            if _slowPath(millis < epoch) {
                if checked { return nil }
                tick = 0
            } else {
                tick = (millis - epoch) / unit
            }
            if _slowPath(tick > last) {
                if checked { return nil }
                tick = last
            }
            let perTick = UInt64(format.node?.perTick ?? 1)
            // TSID's counter starts each millisecond at a random value (tsid-creator); the others at 0.
            let start = format == .tsid ? keystream.next() & 0xFFF : 0
            guard let (t, sequence) = advance(to: tick, last: last, perTick: perTick, checked: checked, start: start) else { return nil }
            let node = state[3]
            let v: UInt64 =
                switch format {
                case .instagram: t << 23 | node << 10 | sequence
                case .sonyflake: t << 24 | sequence << 16 | node
                default: t << 22 | node << 12 | sequence  // snowflake, discord, tsid
                }
            return UInt128(v)
        }
    }

    /// The Snowflake family and TSID in bulk, into `base` up to `end` while a longest id still fits
    /// (and at most `limit`): the fork check, the node and the clock once per chunk of 256, the last
    /// tick and sequence kept in registers. Every id that is not the next sequence of the last id's
    /// tick — a new tick, a full tick, the end of time — goes through `advance`, as `nodeValue` mints
    /// it, so the ids are those `next()` would mint. A fork cannot land inside a chunk: only the thread
    /// that forks runs in the child, and this one is busy here. Returns the ids and bytes written.
    @inline(__always)
    func fillSnowflakes(
        _ base: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>, stride: Int, separator: UInt8?, checked: Bool,
        limit: Int
    ) -> (ids: Int, bytes: Int) {
        let unit: UInt64 = format == .sonyflake ? 10 : 1
        let timeBits: UInt64 = format == .sonyflake ? 39 : format == .tsid ? 42 : format == .instagram ? 40 : 41
        let lastTick: UInt64 = (1 << timeBits) - 1
        let perTick = UInt64(format.node?.perTick ?? 1)
        var out = base
        var written = 0
        chunks: while end - out >= stride && written < limit {
            checkFork()
            if _slowPath(state[4] == 0) { drawNode() }
            let millis = clock()
            var tick: UInt64
            if _slowPath(millis < epoch) {
                if checked { break }
                tick = 0
            } else {
                tick = (millis - epoch) / unit
            }
            if _slowPath(tick > lastTick) {
                if checked { break }
                tick = lastTick
            }
            let node = state[3]
            var next = state[0]  // the last id's tick + 1; 0 before the first id
            var sequence = state[1]
            var k = 0
            while k < 256 && end - out >= stride && written < limit {
                var t: UInt64
                if _fastPath(next != 0 && tick < next && sequence + 1 < perTick) {
                    t = next - 1
                    sequence += 1
                } else {
                    (state[0], state[1]) = (next, sequence)
                    let start = format == .tsid ? keystream.next() & 0xFFF : 0
                    guard let (at, s) = advance(to: tick, last: lastTick, perTick: perTick, checked: checked, start: start) else {
                        break chunks
                    }
                    (t, sequence, next) = (at, s, state[0])
                }
                let v: UInt64 =
                    switch format {
                    case .instagram: t << 23 | node << 10 | sequence
                    case .sonyflake: t << 24 | sequence << 16 | node
                    default: t << 22 | node << 12 | sequence  // snowflake, discord, tsid
                    }
                let n = format == .tsid ? FormatEncoding.text(UInt128(v), .tsid, into: out) : FormatEncoding.decimal(v, into: out)
                out += n
                if let separator {
                    out[0] = separator
                    out += 1
                }
                written += 1
                k += 1
            }
            (state[0], state[1]) = (next, sequence)
        }
        return (written, out - base)
    }

    /// UUIDv1 and v6, xid and ObjectId in bulk, in chunks of 256 with the clock read once a chunk:
    /// the first id of a chunk is minted by `nodeValue` (the fork check, the node, the end of time),
    /// the rest, while they are the next tick (UUIDs) or the next sequence of the same second (xid,
    /// ObjectId), from the tick, sequence and counter kept in registers; any other goes through
    /// `nodeValue` again. So the ids are those `next()` would mint. A fork cannot land inside a chunk:
    /// only the thread that forks runs in the child, and this one is busy here.
    @inline(__always)
    func fillNodeWide(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
        var out = base
        var written = 0
        let pairs = format == .xid ? FormatEncoding.base32hexPairs : FormatEncoding.hexPairs
        let lastTicks: UInt64 = (1 << 60) - 1
        let perTick: UInt64 = 1 << 24
        @inline(__always) func put(_ v: UInt128) {
            switch format {
            case .xid: FormatEncoding.xid(v, into: out, pairs: pairs)
            case .objectid: FormatEncoding.objectid(v, into: out, pairs: pairs)
            default: FormatEncoding.uuid(v, into: out, pairs: pairs)
            }
            if let separator { out[length] = separator }
            out += stride
        }
        while written < count {
            let k = Swift.min(256, count - written)
            let millis = clock()
            guard let first = nodeValue(checked: checked, now: millis) else { break }
            put(first)
            var j = 1
            let seconds = Swift.min(millis / 1000, UInt64(UInt32.max))
            // state: [0] the next tick (UUIDs) or the last tick + 1, [1] its sequence, [2] the clock
            // sequence (UUIDs) or the counter, [3] the node.
            var next = state[0]
            var sequence = state[1]
            var counter = state[2]
            let node = state[3]
            let clockSequence = UInt128(0x8000 | state[2] & 0x3FFF) << 48 | UInt128(node)
            while j < k {
                let v: UInt128
                if format == .uuid1 || format == .uuid6 {
                    guard _fastPath(next <= lastTicks) else {
                        state[0] = next
                        guard let slow = nodeValue(checked: checked, now: millis) else { break }
                        (v, next) = (slow, state[0])
                        put(v)
                        j += 1
                        continue
                    }
                    let ticks = next
                    next += 1
                    v =
                        format == .uuid1
                        ? UInt128(ticks & 0xFFFF_FFFF) << 96 | UInt128(ticks >> 32 & 0xFFFF) << 80 | UInt128(0x1000 | ticks >> 48 & 0xFFF)
                            << 64
                            | clockSequence
                        : UInt128(ticks >> 28) << 96 | UInt128(ticks >> 12 & 0xFFFF) << 80 | UInt128(0x6000 | ticks & 0xFFF) << 64
                            | clockSequence
                } else {
                    guard _fastPath(next != 0 && seconds < next && sequence + 1 < perTick) else {
                        (state[0], state[1], state[2]) = (next, sequence, counter)
                        guard let slow = nodeValue(checked: checked, now: millis) else { break }
                        (v, next, sequence, counter) = (slow, state[0], state[1], state[2])
                        put(v)
                        j += 1
                        continue
                    }
                    sequence += 1
                    counter = (counter &+ 1) & 0xFF_FFFF
                    v = UInt128(next - 1) << 64 | UInt128(node) << 24 | UInt128(counter)
                }
                put(v)
                j += 1
            }
            if format == .uuid1 || format == .uuid6 {
                state[0] = next
            } else {
                (state[0], state[1], state[2]) = (next, sequence, counter)
            }
            written += j
            if j < k { break }
        }
        return written
    }

    /// Moves the tick to `tick` (never backwards) and returns it with the id's sequence in it: from
    /// `start` in a new tick, one more in the same; past `perTick` − 1, the next tick (ahead of the
    /// clock). At the `last` tick used up: nil when `checked`, else its greatest sequence again.
    @inline(__always)
    private func advance(to now: UInt64, last: UInt64, perTick: UInt64, checked: Bool, start: UInt64) -> (UInt64, UInt64)? {
        var tick = now
        var sequence = start
        if state[0] != 0 && tick < state[0] {  // the same tick as the last id (or the clock went back)
            tick = state[0] - 1
            sequence = state[1] + 1
            if sequence >= perTick {
                if _slowPath(tick == last) {
                    if checked { return nil }
                    sequence = perTick - 1
                } else {
                    tick += 1
                    sequence = start
                }
            }
        }
        state[0] = tick + 1
        state[1] = sequence
        return (tick, sequence)
    }

    /// The node and counter start, in a new generator and in a forked child. A drawn node is never
    /// the one drawn before it (``lastNode``, kept in ordinary memory a fork copies): a child's node
    /// differs from its parent's, so the two never mint the same id.
    @inline(never)
    private func drawNode() {
        func fresh(_ draw: () -> UInt64) -> UInt64 {
            if let assignedNode { return assignedNode }
            var node = draw()
            while node == lastNode { node = draw() }
            return node
        }
        switch format {
        case .uuid1, .uuid6:
            // RFC 9562 §6.10: a random node has the multicast bit (the first octet's lowest) set.
            state[3] = fresh { keystream.next() & 0xFFFF_FFFF_FFFF | 1 << 40 }
            state[2] = keystream.next() & 0x3FFF  // the clock sequence
        case .xid:
            state[3] = assignedNode ?? (machineID << 16 | UInt64(UInt32(bitPattern: getpid())) & 0xFFFF)
            state[2] = keystream.next() & 0xFF_FFFF
        case .objectid:
            state[3] = fresh { keystream.next() & 0xFF_FFFF_FFFF }
            state[2] = keystream.next() & 0xFF_FFFF
        default:
            let bits = UInt64(format.nodeBits ?? 0)
            state[3] = fresh { keystream.next() & ((1 << bits) - 1) }
        }
        lastNode = state[3]
        state[0] = 0
        state[1] = 0
        state[4] = 1
    }

    /// How far, in milliseconds, the last id's tick runs ahead of the clock (0 when it does not, or no
    /// id has been minted): what minting faster than the format's ceiling borrowed. Random formats: 0.
    public var clockLead: UInt64 {
        guard format.node != nil, state[4] != 0, state[0] != 0 else { return 0 }
        let end: UInt64  // the Unix millisecond at which the last tick used is over
        switch format {
        case .uuid1, .uuid6:
            end = state[0] > Self.gregorianOffset ? (state[0] - Self.gregorianOffset + 9_999) / 10_000 : 0
        case .xid, .objectid:
            end = state[0] &* 1000
        default:
            end = epoch &+ state[0] &* (format == .sonyflake ? 10 : 1)
        }
        let now = clock()
        return end > now ? end - now : 0
    }

    /// Sleeps until the clock has passed every tick this generator used, so that another generator
    /// with the same node (a process started after this one exits) cannot mint its ids again. Only
    /// needed after minting faster than the format's ceiling; returns at once otherwise, and with the
    /// tests' fixed clock.
    public func waitForClock() {
        guard testClock == nil else { return }
        while case let lead = clockLead, lead > 0 {
            var pause = timespec(tv_sec: Int(lead / 1000), tv_nsec: Int(lead % 1000) * 1_000_000 + 100_000)
            var left = timespec()
            while nanosleep(&pause, &left) != 0 && errno == EINTR { pause = left }
        }
    }

    /// 100 ns ticks from 1582-10-15T00:00:00Z (the Gregorian reform, a UUIDv1's epoch) to 1970.
    static let gregorianOffset: UInt64 = 0x01B2_1DD2_1381_4000

    /// FNV-1a of `/etc/machine-id` (else the host name): xid's machine id is its low 3 bytes, as
    /// rs/xid takes 3 bytes of a hash of the host's id.
    static func hostHash() -> UInt64 {
        var bytes: [UInt8] = []
        if let file = fopen("/etc/machine-id", "r") {
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = fread(&buffer, 1, 64, file)
            fclose(file)
            bytes = Array(buffer[0..<n])
        }
        if bytes.isEmpty {
            var name = [CChar](repeating: 0, count: 256)
            if gethostname(&name, 255) == 0 { bytes = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) } }
        }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes where b != 0x0A {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        return h
    }

    /// The Unix milliseconds a Snowflake-family format's ids can carry with `epoch` (default: the
    /// format's own): from the epoch to its last tick. Nil for other formats.
    public static func timeSpan(of format: IDFormat, epoch: UInt64? = nil) -> ClosedRange<UInt64>? {
        guard let first = epoch ?? format.defaultEpoch else { return nil }
        let span: UInt64 =
            format == .sonyflake
            ? ((1 << 39) - 1) * 10 : format == .tsid ? (1 << 42) - 1 : format == .instagram ? (1 << 40) - 1 : (1 << 41) - 1
        return first...(first + span)
    }

    /// The span of time a node-id format's timestamp covers from its default epoch, as text.
    static func timeRange(_ format: IDFormat) -> String {
        func iso(_ millis: UInt64) -> String { UTCTime.iso(millis: Int64(millis)) }
        switch format {
        case .uuid1, .uuid6:
            return "1582-10-15T00:00:00Z to 5236-03-31T21:21:00Z"
        case .xid, .objectid:
            return "1970-01-01T00:00:00Z to \(iso(UInt64(UInt32.max) * 1000))"
        default:
            guard let span = timeSpan(of: format) else { return "" }
            return "\(iso(span.lowerBound)) to \(iso(span.upperBound)) (with the default epoch)"
        }
    }
}
