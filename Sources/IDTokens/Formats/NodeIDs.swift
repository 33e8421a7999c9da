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
            guard let slot = nodeSlot,
                let r = slot.reserve(now: seconds, count: 1, last: last, checked: checked, start: 0, keystream: keystream)
            else { return nil }
            return UInt128(r.tick) << 64 | UInt128(r.node) << 24 | UInt128((r.counterStart &+ r.sequence) & 0xFF_FFFF)
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
            // TSID's counter starts each millisecond at a random value (tsid-creator); the others at 0.
            let start = format == .tsid ? keystream.next() & 0xFFF : 0
            guard let slot = nodeSlot,
                let r = slot.reserve(now: tick, count: 1, last: last, checked: checked, start: start, keystream: keystream)
            else { return nil }
            let (t, sequence, node) = (r.tick, r.sequence, r.node)
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
    /// (and at most `limit`): the fork check and the clock once per chunk of 256, whose ids are
    /// reserved from the process's node slot in one step per tick they fall in (see ``NodeSlot``), so
    /// the ids are those `next()` would mint. Returns the ids and bytes written.
    @inline(__always)
    func fillSnowflakes(
        _ base: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>, stride: Int, separator: UInt8?, checked: Bool,
        limit: Int
    ) -> (ids: Int, bytes: Int) {
        let unit: UInt64 = format == .sonyflake ? 10 : 1
        let timeBits: UInt64 = format == .sonyflake ? 39 : format == .tsid ? 42 : format == .instagram ? 40 : 41
        let lastTick: UInt64 = (1 << timeBits) - 1
        var out = base
        var written = 0
        chunks: while end - out >= stride && written < limit {
            checkFork()
            if _slowPath(state[4] == 0) { drawNode() }
            guard let slot = nodeSlot else { break }
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
            // Ids that fit, at most 256 a chunk: the longest a format writes (20 digits, 13 for TSID).
            let room = Swift.min(256, limit - written, (end - out) / stride)
            var k = 0
            while k < room {
                let start = format == .tsid ? keystream.next() & 0xFFF : 0
                guard
                    let r = slot.reserve(
                        now: tick, count: UInt64(room - k), last: lastTick, checked: checked, start: start, keystream: keystream)
                else { break chunks }
                let t = r.tick
                let node = r.node
                for sequence in r.sequence..<(r.sequence + r.count) {
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
                }
                written += Int(r.count)
                k += Int(r.count)
            }
        }
        return (written, out - base)
    }

    /// UUIDv1 and v6, xid and ObjectId in bulk, in chunks of 256 with the clock read once a chunk.
    /// xid and ObjectId reserve a chunk's counters from the process's node slot in one step per second
    /// they fall in. For the UUIDs, the first id of a chunk is minted by `nodeValue` (the fork check,
    /// the node, the end of time), the rest, while they are the next tick, from the tick kept in a
    /// register; any other goes through `nodeValue` again. So the ids are those `next()` would mint. A
    /// fork cannot land inside a chunk: only the thread that forks runs in the child, and this one is
    /// busy here.
    @inline(__always)
    func fillNodeWide(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
        var out = base
        var written = 0
        let pairs = format == .xid ? FormatEncoding.base32hexPairs : FormatEncoding.hexPairs
        let lastTicks: UInt64 = (1 << 60) - 1
        @inline(__always) func put(_ v: UInt128) {
            switch format {
            case .xid: FormatEncoding.xid(v, into: out, pairs: pairs)
            case .objectid: FormatEncoding.objectid(v, into: out, pairs: pairs)
            default: FormatEncoding.uuid(v, into: out, pairs: pairs)
            }
            if let separator { out[length] = separator }
            out += stride
        }
        if format == .xid || format == .objectid {
            while written < count {
                checkFork()
                if _slowPath(state[4] == 0) { drawNode() }
                guard let slot = nodeSlot else { break }
                let last = UInt64(UInt32.max)
                var seconds = clock() / 1000
                if _slowPath(seconds > last) {
                    if checked { break }
                    seconds = last
                }
                let k = Swift.min(256, count - written)
                var j = 0
                while j < k {
                    guard
                        let r = slot.reserve(
                            now: seconds, count: UInt64(k - j), last: last, checked: checked, start: 0, keystream: keystream)
                    else { return written + j }
                    let head = UInt128(r.tick) << 64 | UInt128(r.node) << 24
                    for sequence in r.sequence..<(r.sequence + r.count) {
                        put(head | UInt128((r.counterStart &+ sequence) & 0xFF_FFFF))
                    }
                    j += Int(r.count)
                }
                written += j
            }
            return written
        }
        while written < count {
            let k = Swift.min(256, count - written)
            let millis = clock()
            guard let first = nodeValue(checked: checked, now: millis) else { break }
            put(first)
            var j = 1
            // state: [0] the next tick, [2] the clock sequence, [3] the node.
            var next = state[0]
            let clockSequence = UInt128(0x8000 | state[2] & 0x3FFF) << 48 | UInt128(state[3])
            while j < k {
                guard _fastPath(next <= lastTicks) else {
                    state[0] = next
                    guard let slow = nodeValue(checked: checked, now: millis) else { break }
                    next = state[0]
                    put(slow)
                    j += 1
                    continue
                }
                let ticks = next
                next += 1
                let time: UInt128
                if format == .uuid1 {
                    time =
                        UInt128(ticks & 0xFFFF_FFFF) << 96 | UInt128(ticks >> 32 & 0xFFFF) << 80 | UInt128(0x1000 | ticks >> 48 & 0xFFF)
                        << 64
                } else {
                    time = UInt128(ticks >> 28) << 96 | UInt128(ticks >> 12 & 0xFFFF) << 80 | UInt128(0x6000 | ticks & 0xFFF) << 64
                }
                put(time | clockSequence)
                j += 1
            }
            state[0] = next
            written += j
            if j < k { break }
        }
        return written
    }

    /// The node, in a new generator and in a forked child: a UUID's node and clock sequence, drawn per
    /// generator, never the node drawn before it (``lastNode``, kept in ordinary memory a fork copies:
    /// a child's node differs from its parent's, so the two never mint the same id); for the other
    /// formats, the process's ``NodeSlot``, which draws its node once a process.
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
            lastNode = state[3]
        default:
            // One identity a process (``NodeSlot``); a generator on a test's clock keeps its own, so
            // its fixed times do not move every other generator's ticks.
            if nodeSlot == nil {
                nodeSlot =
                    testClock == nil
                    ? ProcessNodes.slot(format, epoch: epoch, node: assignedNode, machineID: machineID)
                    : NodeSlot(format: format, assignedNode: assignedNode, machineID: machineID, shared: false)
            }
        }
        state[0] = 0
        state[1] = 0
        state[4] = 1
    }

    /// How far, in milliseconds, the last id's tick runs ahead of the clock (0 when it does not, or no
    /// id has been minted): what minting faster than the format's ceiling borrowed. Random formats: 0.
    public var clockLead: UInt64 {
        guard format.node != nil, state[4] != 0 else { return 0 }
        let end: UInt64  // the Unix millisecond at which the last tick used is over
        switch format {
        case .uuid1, .uuid6:
            guard state[0] != 0 else { return 0 }
            end = state[0] > Self.gregorianOffset ? (state[0] - Self.gregorianOffset + 9_999) / 10_000 : 0
        case .xid, .objectid:
            guard let next = nodeSlot?.nextTick, next != 0 else { return 0 }
            end = next &* 1000
        default:
            guard let next = nodeSlot?.nextTick, next != 0 else { return 0 }
            end = epoch &+ next &* (format == .sonyflake ? 10 : 1)
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

    /// FNV-1a of `/etc/machine-id` (else the host name): xid's machine id is its low 3 bytes. Not
    /// rs/xid's: rs/xid takes the first 3 bytes of a SHA-256 (MD5 before v1.5) of the host's id and, in
    /// a container, XORs the pid with a CRC-32 of `/proc/self/cpuset`; a hash without a crypto library
    /// here. Uniqueness does not need rs/xid's bytes: one process mints through one slot (the pid's
    /// low 16 bits tell live processes apart as they do for rs/xid; docs/formats.md).
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
