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
    fileprivate let head: [UInt8]

    let keystream: Keystream
    private let tokens: TokenGenerator<SecureRandom>?
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
    fileprivate func nextTimed(bits: Int, randomStep: Bool, checked: Bool, now clockNow: UInt64) -> (millis: UInt64, random: UInt128)? {
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
    fileprivate func store(millis: UInt64, random: UInt128) {
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

    /// `count` ids, in minting order.
    public func next(_ count: Int) -> [String] {
        (0..<Swift.max(0, count)).map { _ in next() }
    }

    /// Writes as many whole ids as fit into `buffer`, each followed by `separator` when given, and
    /// returns how many it wrote. Nothing is allocated. Every format but the decimal Snowflake family
    /// (`IDFormat.isDecimal`) writes ``length`` bytes an id; for those, whose ids vary in length, use
    /// ``write(into:separator:limit:)``, which also says how many bytes it wrote.
    @discardableResult
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) -> Int {
        fill(buffer, separator: separator, checked: false).ids
    }

    /// As ``fill(_:separator:)``, but stops at the end of the format's time: returns fewer ids than fit
    /// when it came part way through (the ids before it are written), and throws
    /// ``IDGeneratorError/endOfTime(_:)`` when not even one id could be minted.
    @discardableResult
    public func fillChecked(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) throws(IDGeneratorError) -> Int {
        try write(into: buffer, separator: separator).ids
    }

    /// As ``fillChecked(_:separator:)``, for every format: the ids written (at most `limit`) and the
    /// bytes they take (separators included), which a decimal format's varying lengths make worth
    /// knowing.
    public func write(
        into buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A, limit: Int = .max
    ) throws(IDGeneratorError) -> (ids: Int, bytes: Int) {
        let stride = length + (separator == nil ? 0 : 1)
        let written = fill(buffer, separator: separator, checked: true, limit: limit)
        if written.ids == 0 && buffer.count >= stride { throw .endOfTime(format) }
        return written
    }

    /// Inlined into its callers, each with `checked` a constant.
    @inline(__always)
    private func fill(
        _ buffer: UnsafeMutableRawBufferPointer, separator: UInt8?, checked: Bool, limit: Int = .max
    ) -> (ids: Int, bytes: Int) {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, 0) }
        dropBatch()
        let stride = length + (separator == nil ? 0 : 1)
        let count = Swift.min(buffer.count / stride, Swift.max(0, limit))
        if format == .nanoid, let tokens {
            let n = tokens.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[..<(count * stride)]), separator: separator)
            return (n, n * stride)
        }
        if format == .cuid2, let engine = tokens?.engine {
            // 23 base36 symbols after each id's first character, then the letters.
            engine.fill(base + 1, count: count, stride: stride, separator: separator)
            letters(base, count: count, stride: stride)
            return (count, count * stride)
        }
        if format == .uuid4 || format == .uuid8 || (format == .ulid && !monotonic) {
            let n = fillFresh(base, count: count, stride: stride, separator: separator, checked: checked)
            return (n, n * stride)
        }
        if format == .ksuid {
            let n = fillKSUID(base, count: count, stride: stride, separator: separator, checked: checked)
            return (n, n * stride)
        }
        if format.hasMonotonicMode && monotonic {
            let n = fillMonotonic(base, count: count, stride: stride, separator: separator, checked: checked)
            return (n, n * stride)
        }
        if format == .uuid1 || format == .uuid6 || format == .xid || format == .objectid {
            let n = fillNodeWide(base, count: count, stride: stride, separator: separator, checked: checked)
            idt_scrub_stack()
            return (n, n * stride)
        }
        if format.isDecimal || format == .tsid {
            let done = fillSnowflakes(
                base, end: base + buffer.count, stride: stride, separator: separator, checked: checked, limit: Swift.max(0, limit))
            idt_scrub_stack()
            return done
        }
        var out = base
        let end = base + buffer.count
        var written = 0
        var now = clock()
        // A decimal id may be shorter than `length`: go on while a longest one still fits.
        while end - out >= stride && written < limit {
            // The clock once per 256 ids (well under a millisecond of minting): a monotonic generator orders ids
            // within one millisecond by itself.
            if written & 255 == 255 { now = clock() }
            let n = write(out, checked: checked, now: now)
            guard n > 0 else { break }
            out += n
            if let separator {
                out[0] = separator
                out += 1
            }
            written += 1
        }
        idt_scrub_stack()
        return (written, out - base)
    }

    /// Writes as many whole ids as fit into `buffer` in their binary form (`IDFormat.binaryLength`
    /// bytes each, big-endian, no separator) and returns how many; throws
    /// ``IDGeneratorError/noBinaryForm(_:)`` for text-only formats (nanoid, cuid2, firebase; TypeID's
    /// binary form is its UUID, without the prefix) and ``IDGeneratorError/endOfTime(_:)`` as
    /// ``fillChecked(_:separator:)`` does.
    public func fillBinary(_ buffer: UnsafeMutableRawBufferPointer) throws(IDGeneratorError) -> Int {
        guard let size = format.binaryLength else { throw .noBinaryForm(format) }
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        dropBatch()
        let count = buffer.count / size
        var written = 0
        var now = clock()
        while written < count {
            if written & 255 == 255 { now = clock() }
            guard writeBinary(base + written * size, checked: true, now: now) else { break }
            written += 1
        }
        idt_scrub_stack()
        if written == 0 && count > 0 { throw .endOfTime(format) }
        return written
    }

    /// One id's binary form at `out` (`IDFormat.binaryLength` bytes); false (nothing written) past the
    /// end of time when `checked`, or for a text-only format.
    @inline(__always)
    func writeBinary(_ out: UnsafeMutablePointer<UInt8>, checked: Bool, now: UInt64?) -> Bool {
        if format == .ksuid {
            // The 20 bytes the text form encodes: the stamp, then 16 random bytes.
            let seconds = (now ?? clock()) / 1000
            let inRange = seconds >= Self.ksuidEpoch && seconds - Self.ksuidEpoch <= UInt64(UInt32.max)
            if _slowPath(!inRange && checked) { return false }
            let stamp = seconds < Self.ksuidEpoch ? 0 : UInt32(clamping: seconds - Self.ksuidEpoch)
            let raw = UnsafeMutableRawPointer(out)
            raw.storeBytes(of: stamp.bigEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: keystream.next(), toByteOffset: 4, as: UInt64.self)
            raw.storeBytes(of: keystream.next(), toByteOffset: 12, as: UInt64.self)
            return true
        }
        guard let size = format.binaryLength, let v = value(checked: checked, now: now) else { return false }
        for i in 0..<size { out[i] = UInt8(truncatingIfNeeded: v >> UInt128(8 * (size - 1 - i))) }
        return true
    }
}

extension IDGenerator {
    /// cuid2 in bulk: the first character of each of `count` ids, a uniform letter,
    /// from keystream bytes below 234 (= 9·26) reduced mod 26, sampled 512 bytes at a time by the
    /// whole-byte sampler; the letters left over are erased.
    fileprivate func letters(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
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
    fileprivate func fillFresh(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
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
    fileprivate func fillKSUID(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
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
    fileprivate func fillMonotonic(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?, checked: Bool) -> Int {
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

/// Why an ``IDGenerator`` could not mint an id.
public enum IDGeneratorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id's time does not fit the format's timestamp: the clock is past its last value (uuid7 and
    /// ulid: 2^48 − 1 ms, 10889-08-02T05:31:50.655Z; ksuid: 2^32 − 1 s after 1400000000, in 2150, or
    /// before its start in 2014), or a monotonic generator has used up the last millisecond.
    case endOfTime(IDFormat)
    /// The prefix cannot be used with this format: why.
    case prefix(IDFormat, String)
    /// The node cannot be used with this format: why.
    case node(IDFormat, String)
    /// The epoch cannot be used with this format: why.
    case epoch(IDFormat, String)
    /// The format exists only as text (nanoid, cuid2, firebase), or is not the kind of value asked for.
    case noBinaryForm(IDFormat)

    public var description: String {
        switch self {
        case .endOfTime(.ksuid):
            "ksuid ids span 2014-05-13T16:53:20Z to 2150-06-19T23:21:35Z, the range of their 32-bit seconds timestamp: the clock is outside it"
        case .prefix(let format, let why):
            "prefix for \(format.rawValue): \(why)"
        case .node(let format, let why):
            "node for \(format.rawValue): \(why)"
        case .epoch(let format, let why):
            "epoch for \(format.rawValue): \(why)"
        case .noBinaryForm(let format):
            "\(format.rawValue) ids have no binary form of that kind\(format.binaryLength.map { "; theirs is \($0) bytes" } ?? ": they exist only as text")"
        case .endOfTime(let format) where format.node != nil:
            "\(format.rawValue) ids cover \(IDGenerator.timeRange(format)), the range of their timestamp from its epoch: the clock is outside it, or the last tick's counter is used up"
        case .endOfTime(let format):
            "\(format.rawValue) ids end at 10889-08-02T05:31:50.655Z, the last value of their 48-bit millisecond timestamp: the clock is past it or that millisecond is used up; a further id would wrap to timestamp 0"
        }
    }
}
