internal import CTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Mints identifiers of the 18 standard formats of `IDFormat` (UUIDv1–v8, ULID, KSUID, Nano ID, TypeID, cuid2,
/// Firebase, xid, ObjectId, the Snowflake family, TSID) from the same
/// CSPRNG as ``TokenGenerator``, with the same fork safety.
///
/// ```swift
/// let ids = IDGenerator(.uuid7)          // monotonic within a millisecond
/// let id = ids.next()                     // "019ab2c4-5e6f-7a81-9b2c-3d4e5f607182"
/// ```
///
/// Time-ordered formats (`IDFormat.uuid7`, `IDFormat.ulid`) can be monotonic: within one
/// millisecond each id is the previous one's random field plus a step, so one generator's ids sort in
/// minting order; if the field would overflow, the timestamp advances by 1 ms (ids never go backwards,
/// even when the clock does). Monotonic generators keep the last id's random field — they must, to
/// increment it — so the "nothing handed out stays in memory" guarantee of ``TokenGenerator`` holds for
/// the other formats and for non-monotonic ones.
///
/// **The end of time.** The 48-bit millisecond timestamp of uuid7 and ulid ends at
/// 10889-08-02T05:31:50.655Z (``lastMillisecond``); KSUID's 32-bit seconds end in 2150. `next()`
/// never traps and never returns an id below an earlier one: with the clock past the end it stamps ids
/// with the last value, and a monotonic generator that has used up the last millisecond's random field
/// (and so has no greater id left) returns the format's greatest id from then on, again and again.
/// Only a clock set thousands of years ahead (or one injected by the tests) gets there. To be told
/// instead, use `nextChecked()` or ``fillChecked(_:separator:)``, which throw
/// ``IDGeneratorError/endOfTime(_:)``; `idbudget generate` does, and exits with status 70.
///
/// Not `Sendable`: one per thread or task, or ``SharedIDGenerator``.
public final class IDGenerator {
    public let format: IDFormat
    /// Whether ids within one time bucket are ordered (time-ordered formats only).
    public let monotonic: Bool
    /// TypeID's type prefix (empty for the other formats).
    public let prefix: String
    /// Bytes per id in text form (TypeID: the prefix and its `_` included).
    public let length: Int
    /// The bytes written before a TypeID's suffix: the prefix and `_`, or nothing.
    let head: [UInt8]

    let keystream: Keystream
    let tokens: TokenGenerator<SecureRandom>?
    /// The node given to ``init(_:node:epoch:)``; nil, drawn at random (per process).
    let assignedNode: UInt64?
    /// The Snowflake family's epoch, in Unix milliseconds.
    let epoch: UInt64
    /// xid: 3 bytes of a hash of this host's machine id.
    let machineID: UInt64
    /// The node drawn last, in ordinary memory (a fork copies it, the wiped state does not keep it):
    /// the next draw, a forked child's, is another. Not secret: every id carries it.
    var lastNode: UInt64?
    /// [0] the last id's timestamp (ms, or the node-id format's tick), [1] and [2] its random field
    /// (high, low), or the ids minted in that tick and the counter; [3] the node, [4] 1 once the node
    /// and counter are drawn; [5] and [6] where the batch's next id starts and where the batch ends
    /// (bytes into `batch`), [7] its time bucket plus 1. All zero after a fork. Then the batch.
    let region: StateRegion
    @usableFromInline let state: UnsafeMutablePointer<UInt64>
    /// Ids minted ahead for `next()`, newline-separated (see `refill`): in the region, so a fork
    /// wipes them, and each is erased as it is handed out.
    @usableFromInline let batch: UnsafeMutablePointer<UInt8>
    /// The most ids a batch holds (two pages' worth, at most 256).
    let batchCapacity: Int
    /// `GeneratedID.masks`, read once.
    @usableFromInline let masks = GeneratedID.masks
    /// `format.isDecimal`, read once: the ids vary in length.
    @usableFromInline let decimal: Bool
    /// The format's ids carry no time (uuid4, uuid8, nanoid, cuid2): a batch lasts until used up.
    @usableFromInline let timeless: Bool
    /// `next()` takes the out-of-line path every time: the state is claimed before each use (no
    /// wipe-on-fork), or the format has a node field and mints each id alone (`mintsAhead`).
    @usableFromInline let outOfLine: Bool
    /// Whether `next()` mints ahead: not for the node-id formats, whose ticks hold a fixed number of
    /// ids (a Sonyflake's 256 in 10 ms, a UUIDv1's one a 100 ns), so that ids minted ahead and then
    /// erased unused would spend them and run the generator ahead of the clock.
    let mintsAhead: Bool
    /// How many ids the next batch mints: 1 at the start of each time bucket, doubled while the
    /// bucket lasts (so a generator called once a millisecond mints no ids it throws away, and one
    /// called a million times a second mints in batches). Not secret; a fork may copy it.
    var batchSize = 1
    /// Tests only: where "now" comes from, in milliseconds since the Unix epoch, instead of the
    /// real-time clock. Internal, so that the optimizer sees every access (a `package` var costs in
    /// exclusivity checks and reference counting); nil, the clock is read directly, not through a
    /// closure.
    var testClock: (() -> UInt64)? {
        didSet {
            // A test's clock must not move the process's node slot: draw a private one.
            if testClock != nil, nodeSlot?.shared == true {
                nodeSlot = nil
                state[4] = 0
            }
        }
    }
    /// The node-id formats' identity and counters, shared by the process (``NodeSlot``); nil until
    /// the first id, and for UUIDs.
    var nodeSlot: NodeSlot?
    /// KSUID's blocks for the stamp of the last ids minted in bulk (not secret: they follow from the
    /// stamp).
    var ksuidBlocks: KSUIDBlocks?

    /// Tests only (the CLI's): a fixed clock, in milliseconds since the Unix epoch.
    package func fixClock(at millis: UInt64) {
        dropBatch()
        testClock = { millis }
    }

    /// The real-time clock's last read and how long it stays current (`idt_clock`): not secret, so in
    /// ordinary memory; a forked child's copy is as good as the parent's.
    private let clockState: UnsafeMutablePointer<idt_clock>

    /// Now, in milliseconds since the Unix epoch: the real-time clock, read at most once a millisecond
    /// (`idt_clock_ms`: the CPU's counter says when the millisecond it read is over).
    @inline(__always)
    func clock() -> UInt64 {
        if _slowPath(testClock != nil), let testClock { return testClock() }
        return idt_clock_ms(clockState)
    }

    /// The last millisecond the 48-bit timestamp of uuid7 and ulid can hold, 2^48 − 1
    /// (10889-08-02T05:31:50.655Z).
    public static let lastMillisecond: UInt64 = (1 << 48) - 1
    /// KSUID's timestamp: 32-bit seconds from this Unix second.
    static let ksuidEpoch: UInt64 = 1_400_000_000

    /// A generator of `format`; `monotonic` defaults to `IDFormat.isMonotonicByDefault` and is
    /// ignored by formats without a monotonic mode. Node-id formats draw their node at random (see
    /// ``init(_:node:epoch:)``).
    public convenience init(_ format: IDFormat, monotonic: Bool? = nil) {
        self.init(format, monotonic: monotonic, forkProtection: .automatic)
    }

    /// A generator of a node-id format (`IDFormat.node`) with this node and epoch.
    ///
    /// `node` sets every node bit of the layout together (`IDFormat.nodeBits`: a Snowflake's 10-bit
    /// worker id, Discord's worker and process as `worker << 5 | process`, xid's 3-byte machine id and
    /// 2-byte pid, ObjectId's 5-byte process value, a UUIDv1's 48-bit node); nil draws it at random,
    /// again in a forked child (xid: a hash of the host's machine id and the pid; not rs/xid's hash, see `hostHash()`).
    /// An assigned node belongs to one process: two processes, or a parent and its forked child, that
    /// mint with the same node in the same tick mint the same ids.
    /// `epoch` (milliseconds since the Unix epoch) moves the Snowflake family's epoch
    /// (`IDFormat.defaultEpoch`). Throws ``IDGeneratorError/node(_:_:)`` and
    /// ``IDGeneratorError/epoch(_:_:)`` for values the format cannot hold.
    public convenience init(_ format: IDFormat, node: UInt64?, epoch: UInt64? = nil) throws(IDGeneratorError) {
        if let node {
            guard let bits = format.nodeBits else { throw .node(format, "\(format.rawValue) ids have no node field") }
            guard node >> UInt64(bits) == 0 else {
                throw .node(format, "\(format.rawValue) has \(bits) node bits: give 0 to \((UInt64(1) << UInt64(bits)) - 1)")
            }
        }
        if let epoch {
            guard format.defaultEpoch != nil else {
                throw .epoch(format, "only snowflake, discord, instagram, sonyflake and tsid ids count from an epoch of their own")
            }
            guard epoch <= Self.lastMillisecond else {
                throw .epoch(format, "the epoch is past 10889-08-02, the last millisecond idbudget reads")
            }
        }
        self.init(format, monotonic: nil, forkProtection: .automatic, node: node, epoch: epoch)
    }

    /// A generator of TypeIDs with this type prefix (`try IDGenerator(.typeid, prefix: "user")` mints
    /// `user_01h455vb4pex5vsknk084sn02q`-shaped ids; an empty prefix mints the suffix alone). Throws
    /// ``IDGeneratorError/prefix(_:_:)`` when the prefix breaks TypeID's rules (up to 63 of `a`–`z`
    /// and `_`, not at either end) or `format` is not `.typeid` and the prefix is not empty.
    public convenience init(_ format: IDFormat, prefix: String, monotonic: Bool? = nil) throws(IDGeneratorError) {
        if format != .typeid && !prefix.isEmpty {
            throw .prefix(format, "only typeid ids have a type prefix")
        }
        do {
            try TypeID.validatePrefix(prefix)
        } catch {
            throw .prefix(format, error.description)
        }
        self.init(format, monotonic: monotonic, forkProtection: .automatic, prefix: prefix)
    }

    init(
        _ format: IDFormat, monotonic: Bool?, forkProtection: ForkProtection, prefix: String = "", node: UInt64? = nil,
        epoch: UInt64? = nil
    ) {
        self.format = format
        self.prefix = prefix
        decimal = format.isDecimal
        timeless = format == .uuid4 || format == .uuid8 || format == .nanoid || format == .cuid2
        head = prefix.isEmpty ? [] : Array(prefix.utf8) + [UInt8(ascii: "_")]
        length = head.count + format.length
        self.monotonic = format.hasMonotonicMode && (monotonic ?? format.isMonotonicByDefault)
        assignedNode = node
        self.epoch = epoch ?? format.defaultEpoch ?? 0
        machineID = format == .xid ? Self.hostHash() & 0xFF_FFFF : 0
        let random = SecureRandom(forkProtection: forkProtection)
        keystream = random.stream
        if format == .nanoid || format == .cuid2 || format == .ksuid {
            // cuid2: the 23 characters after the letter; KSUID: the low 20 characters of ids minted
            // in bulk (see `KSUIDBlocks`).
            tokens = try? TokenGenerator(
                bytes: format == .nanoid ? FormatEncoding.nanoid : format == .cuid2 ? FormatEncoding.base36 : KSUIDBlocks.symbols,
                length: format == .ksuid ? 20 : format == .cuid2 ? 23 : format.length, source: random,
                options: TokenEngine.Options(forkProtection: forkProtection))
        } else {
            tokens = nil
        }
        // Two pages: the header, the state, the batch, and the capacity of a GeneratedID past its end
        // (an id is taken by whole-vector loads, which may read past it). A node-id format: one page.
        mintsAhead = format.node == nil
        let room = (2 * StateRegion.pageBytes - StateRegion.headerBytes - 64 - GeneratedID.capacity) / (length + 1)
        batchCapacity = mintsAhead ? Swift.min(256, room) : 0
        region = StateRegion(bytes: 64 + batchCapacity * (length + 1) + GeneratedID.capacity, protection: forkProtection)
        state = region.body.assumingMemoryBound(to: UInt64.self)
        batch = (region.body + 64).assumingMemoryBound(to: UInt8.self)
        outOfLine = region.claimsEachUse || !mintsAhead
        clockState = .allocate(capacity: 1)
        clockState.initialize(to: idt_clock())
    }

    deinit { clockState.deallocate() }

    /// Forgets state inherited through a fork (fallback mode: claims the state before each use; wiped
    /// pages read as "no last id").
    @inline(__always)
    func checkFork() {
        if _slowPath(region.inherited) {
            region.erase(offset: 0, count: 64 + batchCapacity * (length + 1))
            region.stamp()
        }
    }

    /// The time bucket whose ids a batch may hand out, plus 1: the millisecond (the second for KSUID,
    /// whose stamps count seconds); 1 for the formats that carry no time.
    @inline(__always)
    private func bucket() -> UInt64 {
        if timeless { return 1 }
        return format == .ksuid ? clock() / 1000 &+ 1 : clock() &+ 1
    }

    /// Erases the ids minted ahead and not handed out: before anything else mints (their place in a
    /// monotonic sequence is passed), and when their bucket is over.
    @inline(__always)
    func dropBatch() {
        if _slowPath(state[5] < state[6]) { dropBatchNow() }
    }

    @inline(never)
    private func dropBatchNow() {
        let from = Int(state[5])
        region.erase(offset: 64 + from, count: Int(state[6]) - from)
        state[5] = 0
        state[6] = 0
    }

    /// The timestamp and random field for the next time-ordered id: `bits` random bits (74 or 80).
    /// `nil` only when `checked` and the id would need a timestamp past ``lastMillisecond``; unchecked,
    /// such ids are held at the last millisecond (see "The end of time" above).
    @inline(__always)
    func nextTimed(bits: Int, randomStep: Bool, checked: Bool, now clockNow: UInt64) -> (millis: UInt64, random: UInt128)? {
        checkFork()
        var now = clockNow
        if _slowPath(now > Self.lastMillisecond) {
            if checked { return nil }
            now = Self.lastMillisecond
        }
        let limit = UInt128(1) << UInt128(bits)
        let last = state[0]
        if monotonic && last != 0 && now <= last {
            let previous = UInt128(state[1]) << 64 | UInt128(state[2])
            // uuid7: 1 plus a 31-bit random step (RFC 9562 §6.2 method 2); ulid: 1, as its spec says.
            let step = randomStep ? 1 + (keystream.next() & 0x7FFF_FFFF) : 1
            let (sum, _) = previous.addingReportingOverflow(UInt128(step))
            if sum < limit {
                store(millis: last, random: sum)
                return (last, sum)
            }
            if _fastPath(last < Self.lastMillisecond) {
                return fresh(millis: last + 1, bits: bits)  // overflow: run ahead of the clock by 1 ms
            }
            // The last millisecond is used up: no greater id exists. Checked, say so; unchecked, stay
            // at the greatest id (never wrap to timestamp 0, never go backwards).
            return checked ? nil : greatest(limit: limit)
        }
        return fresh(millis: monotonic ? max(now, last) : now, bits: bits)
    }

    @inline(never)
    private func greatest(limit: UInt128) -> (millis: UInt64, random: UInt128) {
        store(millis: Self.lastMillisecond, random: limit - 1)
        return (Self.lastMillisecond, limit - 1)
    }

    @inline(__always)
    private func fresh(millis: UInt64, bits: Int) -> (millis: UInt64, random: UInt128) {
        let random = (UInt128(keystream.next()) << 64 | UInt128(keystream.next())) & ((UInt128(1) << UInt128(bits)) - 1)
        if monotonic { store(millis: millis, random: random) }
        return (millis, random)
    }

    @inline(__always)
    func store(millis: UInt64, random: UInt128) {
        state[0] = millis
        state[1] = UInt64(truncatingIfNeeded: random >> 64)
        state[2] = UInt64(truncatingIfNeeded: random)
    }

    /// Tests only: pretend the last id had this timestamp and random field.
    func setLast(millis: UInt64, random: UInt128) {
        dropBatch()
        store(millis: millis, random: random)
    }

    /// Writes one id at `out` (at most ``length`` bytes) and returns its bytes; 0 (nothing written)
    /// only when `checked` and the id's time does not fit the format's timestamp. `now`: the clock,
    /// when the caller has read it (a batch reads it once per 256 ids).
    @inline(__always)
    func write(_ out: UnsafeMutablePointer<UInt8>, checked: Bool = false, now: UInt64? = nil) -> Int {
        switch format {
        case .ksuid:
            let seconds = (now ?? clock()) / 1000
            let inRange = seconds >= Self.ksuidEpoch && seconds - Self.ksuidEpoch <= UInt64(UInt32.max)
            if _slowPath(!inRange && checked) { return 0 }
            // Unchecked, a clock outside KSUID's range is held at its nearest end instead of wrapping.
            let stamp = seconds < Self.ksuidEpoch ? 0 : UInt32(clamping: seconds - Self.ksuidEpoch)
            // The portable kernel for one id (the SIMD ones work in blocks of 32); it erases its copy.
            var random = (keystream.next(), keystream.next())
            withUnsafeMutableBytes(of: &random) { raw in
                idt_ksuid_text_scalar(stamp, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1, out, length)
                idt_erase(raw.baseAddress, raw.count)
            }
            return length
        case .nanoid:
            tokens?.engine.writeToken(out)
            return length
        case .cuid2:
            // A uniform letter (a byte below 234 = 9·26, reduced mod 26), then 23 uniform base36 symbols.
            tokens?.engine.writeToken(out + 1)
            var word = keystream.next()
            while word & 0xFF >= 234 { word = word >> 8 == 0 ? keystream.next() : word >> 8 }
            out[0] = UInt8(ascii: "a") + UInt8(truncatingIfNeeded: word & 0xFF) % 26
            return length
        case .firebase:
            guard let (millis, r) = nextTimed(bits: 72, randomStep: false, checked: checked, now: now ?? clock()) else { return 0 }
            FormatEncoding.firebase(millis: millis, random: r, into: out)
            return length
        case .typeid:
            guard let v = value(checked: checked, now: now) else { return 0 }
            let n = head.count
            if n > 0 { head.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: n) } }
            FormatEncoding.crockford(v, into: out + n, lower: true)
            return length
        default:
            guard let v = value(checked: checked, now: now) else { return 0 }
            return FormatEncoding.text(v, format, into: out)
        }
    }

    /// The next id as a number, for the formats whose ids are at most 128 bits (all but ksuid, nanoid,
    /// cuid2 and firebase): a UUID's 128 bits, a ULID's, an xid's or ObjectId's 96, a Snowflake's 64.
    /// Nil only when `checked` and the id's time does not fit the format's timestamp.
    @inline(__always)
    func value(checked: Bool, now: UInt64?) -> UInt128? {
        switch format {
        case .uuid4, .uuid8:
            var v = UInt128(keystream.next()) << 64 | UInt128(keystream.next())
            let version = UInt128(format == .uuid4 ? 0x4000 : 0x8000) << 64
            v = v & ~(UInt128(0xF000) << 64 | UInt128(0xC000) << 48) | (version | UInt128(0x8000) << 48)
            return v
        case .uuid7, .typeid:
            guard let (millis, r) = nextTimed(bits: 74, randomStep: true, checked: checked, now: now ?? clock()) else { return nil }
            // unix_ts_ms (48) | ver 0111 | rand_a (12) | var 10 | rand_b (62)
            let randA = r >> 62
            let randB = r & ((UInt128(1) << 62) - 1)
            return UInt128(millis & 0xFFFF_FFFF_FFFF) << 80 | UInt128(7) << 76 | randA << 64 | UInt128(2) << 62 | randB
        case .ulid:
            guard let (millis, r) = nextTimed(bits: 80, randomStep: false, checked: checked, now: now ?? clock()) else { return nil }
            return UInt128(millis & 0xFFFF_FFFF_FFFF) << 80 | r
        case .uuid1, .uuid6, .xid, .objectid, .snowflake, .discord, .instagram, .sonyflake, .tsid:
            return nodeValue(checked: checked, now: now ?? clock())
        case .ksuid, .nanoid, .cuid2, .firebase:
            return nil
        }
    }

    /// One id. Never traps; past the end of the format's time (year 10889 for uuid7 and ulid) it does
    /// what "The end of time" above says: use `nextChecked()` to be told instead.
    ///
    /// A generator called often mints ahead, with `fill`'s bulk path, the ids of the current time
    /// bucket (the millisecond; the second for KSUID) and hands them out one by one, each erased from
    /// its memory as it goes; what a bucket leaves over is erased unused by the first call after it.
    /// So an id's time is the clock's when it is handed out, as if minted then, and a monotonic
    /// generator's ids still come out in order. Every other way of minting (`fill`, `nextChecked()`,
    /// `nextBytes()`, …) first erases what was minted ahead. The node-id formats (`IDFormat.node`)
    /// mint each id alone: their ticks hold a fixed number of ids, which ids thrown away would spend.
    public func next() -> String {
        (next() as GeneratedID).description
    }

    /// One id, held inline: as `next() -> String` without the String's allocation, which costs more
    /// than minting the id does. Chosen where the context asks for it:
    /// `let id: GeneratedID = ids.next()`.
    ///
    /// Inlined into the caller: taking the next id of a batch is a few loads and stores, less than a
    /// call and its returned value's copy cost.
    @_disfavoredOverload @inlinable @inline(__always)
    public func next() -> GeneratedID {
        if _slowPath(outOfLine) { return nextOutOfLine() }
        let key = timeless ? 1 : bucketKey()
        let from = Int(truncatingIfNeeded: state[5])
        guard _fastPath(from < Int(truncatingIfNeeded: state[6]) && state[7] == key) else { return nextOutOfLine() }
        return take(from)
    }

    /// `next()` where the inlined path does not serve: a state to claim (no wipe-on-fork), a node-id
    /// format, a batch used up or from a bucket that is over.
    @usableFromInline @inline(never)
    func nextOutOfLine() -> GeneratedID {
        checkFork()
        if !mintsAhead { return alone() }
        let key = bucket()
        let from = Int(truncatingIfNeeded: state[5])
        if from < Int(truncatingIfNeeded: state[6]) && state[7] == key { return take(from) }
        return refill(key)
    }

    /// `bucket()` for the inlined path (which cannot read the C clock itself).
    @usableFromInline
    func bucketKey() -> UInt64 { bucket() }

    /// The id at `from` in the batch, erased there.
    @inlinable @inline(__always)
    func take(_ from: Int) -> GeneratedID {
        let slot = batch + from
        var n = length
        if _slowPath(decimal) {
            n = 0
            while slot[n] != 0x0A { n &+= 1 }
        }
        let id = GeneratedID(loading: UnsafeRawPointer(slot), count: n, masks: masks)
        GeneratedID.erase(UnsafeMutableRawPointer(slot), count: n &+ 1)
        state[5] = UInt64(truncatingIfNeeded: from &+ n &+ 1)
        return id
    }

    /// Mints the next batch (see `next()`), or one id alone at the start of a bucket.
    @inline(never)
    private func refill(_ key: UInt64) -> GeneratedID {
        dropBatch()
        batchSize = state[7] == key ? Swift.min(batchSize * 2, batchCapacity) : 1
        state[7] = key
        if batchSize == 1 { return alone() }
        let room = UnsafeMutableRawBufferPointer(start: batch, count: batchSize * (length + 1))
        state[6] = UInt64(fill(room, separator: 0x0A, checked: false, limit: batchSize).bytes)
        return state[6] > 0 ? take(0) : alone()
    }

    /// One id by the single-id path (`write`), which `fill`'s bulk paths must match id for id
    /// (BulkEquivalenceTests); nothing minted ahead is pending when it is called.
    func alone() -> GeneratedID { GeneratedID { write($0) } }

    /// One id, or ``IDGeneratorError/endOfTime(_:)`` when its time does not fit the format's timestamp:
    /// the clock is past the last value, or a monotonic generator has used up the last millisecond (no
    /// id greater than the last one exists). Nothing is consumed when it throws. Mints each id alone,
    /// never ahead.
    public func nextChecked() throws(IDGeneratorError) -> String {
        try (nextChecked() as GeneratedID).description
    }

    /// As `nextChecked() -> String`, held inline (`let id: GeneratedID = try ids.nextChecked()`).
    @_disfavoredOverload
    public func nextChecked() throws(IDGeneratorError) -> GeneratedID {
        dropBatch()
        let id = GeneratedID { write($0, checked: true) }
        guard id.count > 0 else { throw .endOfTime(format) }
        return id
    }
}
