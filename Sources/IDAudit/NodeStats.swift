import Foundation
import IDBudget
import IDFormats

/// What an audit keeps of the ids that read as one node-id format (xid, ObjectId, TSID, and the
/// Snowflake family's layouts): their span of time, their node values, the largest sequence in one
/// tick, and clock regressions. Sums, unions and extremes, so shards merge; regressions (an id earlier
/// than the one before it from the same node) are counted in input order whatever the threads: each
/// worker counts within its parts of the blocks, and the auditor the steps between parts.
public struct NodeStats: Sendable, Equatable {
    /// Ids that read as the format (every one, or the format is not the stream's).
    public var ids = 0
    /// Earliest and latest timestamp, in Unix milliseconds (meaningful when `ids` > 0).
    public var firstMillis = Int.max
    public var lastMillis = 0
    /// Distinct node values, up to ``nodeLimit``; past it, `nodesTruncated`.
    public var nodes: Set<UInt64> = []
    public var nodesTruncated = false
    /// The largest sequence (counter within a tick) seen; nil for xid, ObjectId and TSID, whose
    /// counters start at random.
    public var maxSequence: Int?
    /// Ids whose sequence is 0: the ticks a node opened (Snowflake family only). A log of a node's
    /// every id has one a tick; random numbers read in the layout have one in `perTick`.
    public var tickStarts: Int?
    /// Ids earlier than the id before them from the same node.
    public var regressions = 0

    public static let nodeLimit = 1 << 16
    /// The formats an audit reads this way.
    public static let formats: [IDFormat] = [.snowflake, .discord, .instagram, .sonyflake, .tsid, .xid, .objectid]

    public init() {}

    mutating func add(_ other: NodeStats, _ what: String) throws(InputError) {
        ids = try AuditSummary.sum(ids, other.ids, "\(what).ids")
        regressions = try AuditSummary.sum(regressions, other.regressions, "\(what).regressions")
        firstMillis = Swift.min(firstMillis, other.firstMillis)
        lastMillis = Swift.max(lastMillis, other.lastMillis)
        if let s = other.maxSequence { maxSequence = Swift.max(maxSequence ?? 0, s) }
        if let t = other.tickStarts { tickStarts = try AuditSummary.sum(tickStarts ?? 0, t, "\(what).tick_starts") }
        nodesTruncated = nodesTruncated || other.nodesTruncated
        if !nodesTruncated { nodes.formUnion(other.nodes) }
        if nodes.count > Self.nodeLimit || nodesTruncated {
            nodes = []
            nodesTruncated = true
        }
    }

    /// The earliest time an id of the format is taken to be: 2005, or a day after a Snowflake
    /// family's epoch (small numbers — 4-digit codes — read as ids of its first seconds).
    static func earliest(_ format: IDFormat) -> Int {
        Swift.max(format.defaultEpoch.map { Int($0) + 86_400_000 } ?? 0, 1_104_537_600_000)
    }

    /// Whether these look like ids the format's minters made by `now` (Unix ms): times from
    /// ``earliest(_:)`` to a day past `now`; most ids share their node with others (a node mints
    /// many; random numbers read in a layout scatter over its node values); and, for the decimal
    /// layouts and TSID, each node's ids come in order, oldest or newest first, at most a tenth of the
    /// steps the other way (random numbers go back half the time; the order is what tells the
    /// Snowflake family's layouts apart). xid and ObjectId need no order — their length and alphabet
    /// are their own, and random text of their shape puts nearly every id out of time — so a
    /// shuffled or merged log of them is still read as what it is. `ordered: false` leaves the order
    /// out (a shuffled log of a decimal layout, when no layout reads the ids in order); `repeats`, the
    /// extra occurrences among the ids, tells a full node's shuffled log (``fillsTicks(_:repeats:)``).
    func plausible(_ format: IDFormat, now: Int, ordered inOrder: Bool = true, repeats: Int = Int.max) -> Bool {
        let steps = ids - (nodesTruncated ? ids : nodes.count)
        let ordered =
            (!inOrder && (opensTicks(format) || fillsTicks(format, repeats: repeats))) || regressions <= steps / 10 || isNewestFirst
            || format == .xid || format == .objectid
        return ids > 0 && firstMillis >= Self.earliest(format) && lastMillis <= now + 86_400_000 && 2 * steps >= ids && ordered
    }

    /// Whether, out of order, the ids still look minted: in the Snowflake family, a tick's sequence
    /// starts at 0, so a log of a node's ids has a sequence 0 in every tick it used — at least one id
    /// in perTick/16 here (at most 256 ids a tick on average, for Twitter's 4,096) — where random
    /// numbers read in the layout have one in perTick (Binomial(n, 1/perTick) reaching 16 times its
    /// mean is past any chance for the n a layout needs to fit). TSID's counter starts at random: its
    /// 42-bit time (139 years) is what keeps random text out of its window.
    ///
    /// A busier node (600 ids a millisecond opens a tick once in 600) is told by its sequences: they
    /// count up from 0 and stay below half the tick's room, where random numbers read in the layout
    /// reach past it all but 2^−ids of the time (ids ≥ 32: below 10^−9).
    func opensTicks(_ format: IDFormat) -> Bool {
        guard format.isDecimal else { return true }
        guard let perTick = format.node?.perTick else { return false }
        if let starts = tickStarts, starts.multipliedReportingOverflow(by: Swift.max(1, perTick / 16)).partialValue >= ids {
            return true
        }
        guard let top = maxSequence, ids >= 32 else { return false }
        return top < perTick / 2
    }

    /// Whether, out of order, the ids fill their ticks as no random numbers could without repeating: a
    /// node minting past half its tick's room (4,096 a millisecond, as `generate` mints) opens a tick
    /// once in thousands of ids and reaches every sequence, so the tick rules above can not tell it.
    /// Its ids are dense instead: at least a quarter of the box of values they span — ticks from the
    /// first to the last, times the nodes seen, times perTick — with hardly a repeat. n numbers drawn
    /// at random from B values at n ≥ B/4 leave n − B(1 − e^(−n/B)) ≥ 0.115n extra occurrences on
    /// average, and the distinct count moves by at most 1 a draw, so by McDiarmid's inequality
    /// P(extra ≤ n/20) ≤ exp(−2(0.065n)²/n) = exp(−0.0085n) < 10⁻⁷ from n = 2,000 on.
    func fillsTicks(_ format: IDFormat, repeats: Int) -> Bool {
        guard format.isDecimal, let node = format.node, ids >= 2000, !nodesTruncated, !nodes.isEmpty, lastMillis >= firstMillis,
            repeats <= ids / 20
        else { return false }
        let tickMillis = Swift.max(1, 1000 * node.tick.numerator / Swift.max(1, node.tick.denominator))
        let ticks = (lastMillis - firstMillis) / tickMillis + 1
        let (span, o1) = ticks.multipliedReportingOverflow(by: nodes.count)
        let (box, o2) = span.multipliedReportingOverflow(by: node.perTick)
        guard !o1, !o2 else { return false }
        return ids.multipliedReportingOverflow(by: 4).partialValue >= box
    }

    /// Whether each node's ids come out of order more than a tenth of the time, neither oldest nor
    /// newest first: a shuffled or merged log (or clocks set back again and again).
    public var isUnordered: Bool {
        let steps = ids - (nodesTruncated ? ids : nodes.count)
        return regressions > steps / 10 && !isNewestFirst
    }

    /// Whether nearly every id is earlier than the one before it from its node: a log sorted newest
    /// first (`ORDER BY id DESC`), whose regressions are its order, not clocks set back.
    public var isNewestFirst: Bool {
        let steps = ids - (nodesTruncated ? 0 : nodes.count)
        return steps > 0 && regressions >= steps - steps / 10
    }
}

/// One worker's reading of the ids as each node-id format. An id that does not parse, or lies outside
/// the format's time, is a miss (a CSV header, a stray test id): the format keeps reading past it and
/// counts only the ids it reads (``NodeStats/ids``), so the analysis can set the misses aside while
/// they are at most one in a thousand (``AuditAnalysis/strayTolerance(_:)``). A format stops reading —
/// and is not the stream's — once its misses pass 1,000 and the ids it read; the
/// auditor decides that between blocks on every worker's counts together (``Auditor``), so the
/// answer is the same for any number of threads.
final class NodeTally {
    typealias Key = (millis: Int, sequence: Int)
    struct Reader {
        var stats = NodeStats()
        var alive = true
        var misses = 0
        /// Each node's latest key in the current part, and its first.
        var last: [UInt64: Key] = [:]
        var first: [UInt64: Key] = [:]
        var lastNode: UInt64 = .max
    }

    /// One part's ends, per format: each node's first and last key in it.
    struct Edges {
        var first: [[UInt64: Key]]
        var last: [[UInt64: Key]]
    }
    var readers = [Reader](repeating: Reader(), count: NodeStats.formats.count)
    /// A day past the time the ids are read at (``Auditor/now``): later ids are no format's.
    let horizon: Int

    init(now: Int) { horizon = now + 86_400_000 }
    static let index: [IDFormat: Int] = Dictionary(uniqueKeysWithValues: NodeStats.formats.enumerated().map { ($1, $0) })

    /// Whether some format still reads the stream (changed only by ``stop(_:)``).
    private(set) var anyAlive = true
    static let decimals: [IDFormat] = [.snowflake, .discord, .instagram, .sonyflake]

    /// An ASCII id: each format still reading takes it, or stops at it. A line of another length
    /// than a format's ids is no miss for it: another service's ids beside node ids (5,000 UUIDs
    /// beside 3,000 xids) are a group of their own, not evidence against the layout.
    @inline(__always)
    func read(_ b: UnsafeRawBufferPointer) {
        let n = b.count
        // 21–23 or past 24 characters: no format's length (base62×22 tokens, UUIDs), nothing to do —
        // said first, it spares such streams 6% of their audit.
        guard n <= 20 || n == 24, anyAlive else { return }
        let v = n <= 19 ? Self.decimal(b) : nil
        for f in Self.decimals {
            if let v { note(f, Self.layout(f, v)) } else if n <= 19 { kill(f) }
        }
        if n == 13 { if let t = Self.tsid(b) { note(.tsid, Self.layout(.tsid, t)) } else { kill(.tsid) } }
        if n == 20 { if let x = Self.xid(b) { note(.xid, x) } else { kill(.xid) } }
        // A 24-character line that is not hex (`objectid` reads every hex line) is another service's
        // id, no miss: cuid2s beside ObjectIds (a migration's log, the new ids soon the most) are a
        // mix the analysis splits (``AuditAnalysis/objectIDMix(_:)``) only when this reader has read
        // every ObjectId among them. A hex line out of ObjectId's time is a miss (``note(_:_:)``).
        if n == 24, let o = Self.objectid(b) { note(.objectid, o) }
    }

    /// A line no node-id format reads (longer than any, or not ASCII) of `length` characters: a miss
    /// for the formats whose ids have that length (1–19 the Snowflake family's, 13 TSID's, 20 xid's),
    /// nothing for the others — ObjectId's included, whose misses are hex lines only (``read(_:)``).
    func other(length: Int) {
        guard anyAlive else { return }
        if (1...19).contains(length) { for f in Self.decimals { kill(f) } }
        if length == 13 { kill(.tsid) }
        if length == 20 { kill(.xid) }
    }

    /// A miss for `f` (the auditor stops a format with too many: ``stop(_:)``).
    @inline(__always)
    private func kill(_ f: IDFormat) {
        guard let i = Self.index[f], readers[i].alive else { return }
        readers[i].misses += 1
    }

    /// Stops reading format `i` (its misses, over every worker, passed the limit).
    func stop(_ i: Int) {
        readers[i].alive = false
        readers[i].last = [:]
        readers[i].first = [:]
        anyAlive = readers.contains { $0.alive }
    }

    /// Starts a part of the input: keys compared within it only.
    func beginPart() {
        for i in readers.indices {
            readers[i].last = [:]
            readers[i].first = [:]
        }
    }

    /// The part's first and last key of each node, per format (empty for a format not reading).
    func endPart() -> Edges {
        var e = Edges(first: [], last: [])
        for i in readers.indices {
            e.first.append(readers[i].first)
            e.last.append(readers[i].last)
            readers[i].first = [:]
            readers[i].last = [:]
        }
        return e
    }

    @inline(__always)
    private func note(_ f: IDFormat, _ fields: (millis: Int, node: UInt64, sequence: Int)) {
        guard let i = Self.index[f], readers[i].alive else { return }
        guard fields.millis >= NodeStats.earliest(f), fields.millis <= horizon else {
            kill(f)
            return
        }
        var r = readers[i]
        readers[i] = Reader()  // no copy-on-write of the tables while updating
        r.stats.ids += 1
        r.stats.firstMillis = Swift.min(r.stats.firstMillis, fields.millis)
        r.stats.lastMillis = Swift.max(r.stats.lastMillis, fields.millis)
        // A sequence from 0 each tick counts the tick's ids; xid's, ObjectId's and TSID's counters start at random.
        let counted = f != .xid && f != .objectid && f != .tsid
        if counted {
            r.stats.maxSequence = Swift.max(r.stats.maxSequence ?? 0, fields.sequence)
            r.stats.tickStarts = (r.stats.tickStarts ?? 0) + (fields.sequence == 0 ? 1 : 0)
        }
        if fields.node != r.lastNode && !r.stats.nodesTruncated {
            r.stats.nodes.insert(fields.node)
            if r.stats.nodes.count > NodeStats.nodeLimit {
                r.stats.nodes = []
                r.stats.nodesTruncated = true
            }
        }
        r.lastNode = fields.node
        // In order by time, then counter (xid's and ObjectId's counters, which wrap at 2^24, too).
        let key = (fields.millis, fields.sequence)
        if let previous = r.last[fields.node] {
            if key < previous { r.stats.regressions += 1 }
            r.last[fields.node] = key
        } else if r.last.count < NodeStats.nodeLimit {
            r.last[fields.node] = key
            r.first[fields.node] = key
        }
        readers[i] = r
    }

    func stats() -> [IDFormat: NodeStats] {
        var out: [IDFormat: NodeStats] = [:]
        for (i, f) in NodeStats.formats.enumerated() where readers[i].alive && readers[i].stats.ids > 0 { out[f] = readers[i].stats }
        return out
    }

    /// The workers' readings merged, in input order: a format is the stream's when no worker stopped
    /// it, its regressions those within parts plus `between` (the steps from one part to the next).
    static func merged(_ tallies: [NodeTally], between: [Int]) throws(InputError) -> [IDFormat: NodeStats] {
        var out: [IDFormat: NodeStats] = [:]
        for (i, f) in NodeStats.formats.enumerated() where tallies.allSatisfy({ $0.readers[i].alive }) {
            var total = NodeStats()
            for t in tallies { try total.add(t.readers[i].stats, "node_formats.\(f.rawValue)") }
            total.regressions = try AuditSummary.sum(total.regressions, between[i], "node_formats.\(f.rawValue).regressions")
            if total.ids > 0 { out[f] = total }
        }
        return out
    }

    /// A decimal number below 2^63 without a leading zero.
    @inline(__always)
    static func decimal(_ b: UnsafeRawBufferPointer) -> UInt64? {
        guard b.count > 0, b[0] != 0x30 || b.count == 1 else { return nil }
        var v: UInt64 = 0
        for c in b {
            guard c >= 0x30 && c <= 0x39 else { return nil }
            v = v &* 10 &+ UInt64(c - 0x30)
        }
        return b.count == 19 && v >> 63 != 0 ? nil : v  // 19 digits fit 64 bits; below 2^63 only
    }

    /// The published layouts (see `IDFormat`): time, node, sequence.
    static func layout(_ f: IDFormat, _ v: UInt64) -> (millis: Int, node: UInt64, sequence: Int) {
        let epoch = Int(f.defaultEpoch ?? 0)
        return switch f {
        case .instagram: (Int(v >> 23) + epoch, v >> 10 & 0x1FFF, Int(v & 0x3FF))
        case .sonyflake: (Int(v >> 24) * 10 + epoch, v & 0xFFFF, Int(v >> 16 & 0xFF))
        default: (Int(v >> 22) + epoch, v >> 12 & 0x3FF, Int(v & 0xFFF))  // snowflake, discord, tsid
        }
    }

    static let crockford: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in "0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8.enumerated() {
            t[Int(c)] = Int8(i)
            if c >= 65 { t[Int(c | 0x20)] = Int8(i) }
        }
        // Crockford's aliases, as TSID's libraries decode them: O is 0, I and L are 1.
        for (c, d) in [("O", 0), ("I", 1), ("L", 1)] as [(Character, Int8)] {
            let b = c.asciiValue ?? 0
            t[Int(b)] = d
            t[Int(b | 0x20)] = d
        }
        return t
    }()

    static func tsid(_ b: UnsafeRawBufferPointer) -> UInt64? {
        var v: UInt64 = 0
        for (i, c) in b.enumerated() {
            let d = crockford[Int(c)]
            guard d >= 0, i > 0 || d < 16 else { return nil }
            v = v << 5 | UInt64(d)
        }
        return v
    }

    static let base32hex: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in "0123456789abcdefghijklmnopqrstuv".utf8.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    /// xid: seconds, machine id and pid (the node), counter.
    static func xid(_ b: UnsafeRawBufferPointer) -> (millis: Int, node: UInt64, sequence: Int)? {
        var hi: UInt64 = 0  // the first 12 characters: 60 bits
        var lo: UInt64 = 0  // the last 8: 40 bits, the last 4 of them zero
        for (i, c) in b.enumerated() {
            let d = base32hex[Int(c)]
            guard d >= 0 else { return nil }
            if i < 12 { hi = hi << 5 | UInt64(d) } else { lo = lo << 5 | UInt64(d) }
        }
        guard lo & 0xF == 0 else { return nil }
        // 96 bits = hi (60) · lo (36): seconds are the top 32, node the next 40, counter the last 24.
        let seconds = hi >> 28
        let node = (hi & 0xFFF_FFFF) << 12 | lo >> 28
        let counter = lo >> 4 & 0xFF_FFFF
        return (Int(seconds) * 1000, node, Int(counter))
    }

    static func objectid(_ b: UnsafeRawBufferPointer) -> (millis: Int, node: UInt64, sequence: Int)? {
        var hi: UInt64 = 0  // 8 hex: seconds
        var mid: UInt64 = 0  // 10 hex: the process value
        var lo: UInt64 = 0  // 6 hex: counter
        for (i, c) in b.enumerated() {
            let d: UInt64
            switch c {
            case 0x30...0x39: d = UInt64(c - 0x30)
            case 0x61...0x66: d = UInt64(c - 0x57)
            case 0x41...0x46: d = UInt64(c - 0x37)
            default: return nil
            }
            if i < 8 { hi = hi << 4 | d } else if i < 18 { mid = mid << 4 | d } else { lo = lo << 4 | d }
        }
        return (Int(hi) * 1000, mid, Int(lo))
    }
}

extension SummaryParser {
    /// One format's ``NodeStats``: counts as strings, `nodes` a list of at most ``NodeStats/nodeLimit``.
    mutating func nodeStats(_ place: String) throws(InputError) -> NodeStats {
        var n = NodeStats()
        let known = ["ids", "first_ms", "last_ms", "max_sequence", "nodes", "nodes_truncated", "regressions", "tick_starts"]
        let required = ["ids", "first_ms", "last_ms", "nodes", "nodes_truncated", "regressions"]
        try members(place, known: known, required: required) { p, name throws(InputError) in
            switch name {
            case "ids": n.ids = try p.count("\(place).ids")
            case "first_ms": n.firstMillis = try p.count("\(place).first_ms")
            case "last_ms": n.lastMillis = try p.count("\(place).last_ms")
            case "max_sequence": n.maxSequence = try p.count("\(place).max_sequence")
            case "regressions": n.regressions = try p.count("\(place).regressions")
            case "tick_starts": n.tickStarts = try p.count("\(place).tick_starts")
            case "nodes_truncated": n.nodesTruncated = try p.bool("\(place).nodes_truncated")
            default:
                try p.open(.array, "\(place).nodes")
                var g = true
                while try p.next(UInt8(ascii: "]"), &g) {
                    guard n.nodes.count < NodeStats.nodeLimit else {
                        throw p.fail("\(place).nodes has more than \(NodeStats.nodeLimit) entries")
                    }
                    guard n.nodes.insert(UInt64(try p.count("\(place).nodes"))).inserted else {
                        throw p.fail("\(place).nodes has a node twice")
                    }
                }
            }
        }
        return n
    }
}
