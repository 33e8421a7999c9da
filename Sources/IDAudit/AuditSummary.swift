import Foundation
import IDBudget

/// What an audit keeps of a stream of ids: the contract between summarising and judging
/// (docs/audit-summary.md). Every field is a sum, a union or a bottom-k, so summaries of parts that
/// share no id — shards by fingerprint, or machines — merge exactly with ``merged(with:)``; any tool
/// that writes the same JSON (the Spark job in examples/spark) gets the same verdict.
public struct AuditSummary: Sendable, Equatable {
    public static let kind = "idbudget-audit-summary"
    public static let schemaVersion = 1
    /// Character positions with symbol counts.
    public static let positionLimit = 64
    /// Smallest distinct ids kept, by their UTF-8 bytes, among ids of at most `sampleMaxBytes`.
    public static let sampleSize = 32
    public static let sampleMaxBytes = 256
    /// Time buckets kept per format; past it the buckets are dropped and `truncated` set. A summary
    /// file with more buckets for one format is refused.
    public static let bucketLimit = 1 << 20
    /// Most keys a summary file's `multiplicities` may have (k keys need at least k(k+1)/2 ids).
    public static let multiplicityKeyLimit = 1 << 20
    /// Most keys a summary file's `lengths` may have.
    public static let lengthKeyLimit = 1 << 20
    /// Most entries a summary file's `sample` may have.
    public static let sampleEntryLimit = sampleSize
    /// Most shards (`--shard k/K` takes K up to this).
    public static let shardLimit = 1 << 20

    public var maxLineBytes: Int
    public var shardCount = 1
    public var shardIndexes = [0]
    public var lines = 0, ids = 0, emptyLines = 0, crlfLines = 0, invalidUTF8Lines = 0, overlongLines = 0
    /// m → how many distinct ids occur exactly m times.
    public var multiplicities: [Int: Int] = [:]
    /// Length in characters (Unicode scalars) → ids.
    public var lengths: [Int: Int] = [:]
    /// Every distinct scalar seen in an id.
    public var symbols: Set<Unicode.Scalar> = []
    /// positions[i][c]: ids whose character i is c (i < 64).
    public var positions: [[Unicode.Scalar: Int]] = []
    public var timeFormats: [TimeFormat: TimeBuckets] = Dictionary(uniqueKeysWithValues: TimeFormat.allCases.map { ($0, TimeBuckets()) })
    /// The node-id formats every id read as so far (``NodeStats``); absent, the ids are not that format's.
    public var nodeFormats: [IDFormat: NodeStats] = [:]
    /// The smallest distinct ids by UTF-8 bytes, in that order (ids that differ in their bytes are
    /// different ids, even when Unicode calls them equivalent: NFC and NFD spellings stay apart).
    public var sample: [String] = []
    /// Per id length (in symbols), the ids' own multiplicities and positions, for the lengths whose
    /// every id was tracked (ASCII, at most 4096 symbols); a mixed stream is judged group by group.
    public var groups: [Int: Group] = [:]
    /// The lines of a declared shape, when the summary was made under one (``DeclaredLines``).
    public var declared: DeclaredLines?
    /// Lines that are the nil or the max UUID (RFC 9562 §5.9, §5.10; either case, with or without
    /// hyphens): what a log writes where it has no id. Set aside before they are ids — 36 characters
    /// like the UUIDv7s beside them, they would otherwise be judged as repeats of an id.
    public var placeholderLines = 0
    /// Lines that were a JSON string as `jq` prints one without `-r` (`"01J…"`: a double quote at
    /// each end, none and no backslash between): read as the bytes between the quotes. Counted with
    /// the line's fate, as ``crlfLines`` is (an id's by its shard).
    public var quotedLines = 0
    /// Of the ids read as KSUIDs, how many have each bit of the 128-bit payload set, from the top
    /// (index 0 is bit 127): the payload is random bits written in base62 with the timestamp, so no
    /// character position shows it, only its bits do. Empty when no id is a KSUID (or the tool that
    /// wrote the summary does not count them).
    public var ksuidPayloadBits: [Int] = []
    /// Bits in a KSUID's payload.
    public static let ksuidPayloadBitCount = 128

    /// Lines set aside under a declaration other than `key` (any, when nil): not ids, and not known
    /// to be of that shape.
    func setAside(notUnder key: String?) -> (lines: Int, shape: String)? {
        guard let d = declared, d.setAside > 0, d.shape != key else { return nil }
        return (d.setAside, d.shape)
    }

    /// Streams with more lengths than this keep no groups (judged as one stream).
    public static let groupLengthLimit = 64

    /// The ids of one length.
    public struct Group: Sendable, Equatable {
        public var multiplicities: [Int: Int]
        public var positions: [[Unicode.Scalar: Int]]
        public init(multiplicities: [Int: Int], positions: [[Unicode.Scalar: Int]]) {
            self.multiplicities = multiplicities
            self.positions = positions
        }
    }

    public struct TimeBuckets: Sendable, Equatable {
        /// Ids that parse as the format.
        public var ids = 0
        /// Bucket → ids in it (empty once truncated).
        public var buckets: [UInt64: Int] = [:]
        public var truncated = false

        public init(ids: Int = 0, buckets: [UInt64: Int] = [:], truncated: Bool = false) {
            self.ids = ids
            self.buckets = buckets
            self.truncated = truncated
        }

        mutating func add(_ other: TimeBuckets, format: String = "time_formats") throws(InputError) {
            ids = try AuditSummary.sum(ids, other.ids, "\(format).ids")
            truncated = truncated || other.truncated
            if truncated {
                buckets = [:]
                return
            }
            for (k, n) in other.buckets {
                let old = buckets[k] ?? 0
                buckets[k] = try AuditSummary.sum(old, n, "\(format).buckets")
            }
            if buckets.count > AuditSummary.bucketLimit {
                buckets = [:]
                truncated = true
            }
        }
    }

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// `a + b`, or an InputError naming the field when it would overflow an Int.
    @inline(__always)
    static func sum(_ a: Int, _ b: Int, _ what: @autoclosure () -> String) throws(InputError) -> Int {
        let (r, o) = a.addingReportingOverflow(b)
        if o { throw InputError("\(what()) overflows: the counts add up to more than \(Int.max)") }
        return r
    }

    /// `a · b`, or an InputError naming the field when it would overflow an Int.
    @inline(__always)
    static func product(_ a: Int, _ b: Int, _ what: @autoclosure () -> String) throws(InputError) -> Int {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        if o { throw InputError("\(what()) overflows: the counts multiply to more than \(Int.max)") }
        return r
    }

    /// Σ of the values, checked.
    static func total<C: Collection>(_ values: C, _ what: @autoclosure () -> String) throws(InputError) -> Int where C.Element == Int {
        var t = 0
        for v in values { t = try sum(t, v, what()) }
        return t
    }

    /// `a` with `b` added key by key, checked.
    static func merging<K: Hashable>(_ a: [K: Int], _ b: [K: Int], _ what: String) throws(InputError) -> [K: Int] {
        var m = a
        for (k, n) in b {
            if let old = m[k] { m[k] = try sum(old, n, what) } else { m[k] = n }
        }
        return m
    }

    /// Distinct ids (Σ of `multiplicities`). Exact for any summary that passed ``validate()`` (all
    /// loaded and merged ones); saturates at Int.max instead of trapping otherwise.
    public var distinct: Int { (try? Self.total(multiplicities.values, "")) ?? Int.max }
    /// Occurrences beyond the first: ids − distinct (saturating, as ``distinct``).
    public var extraOccurrences: Int {
        let (r, o) = ids.subtractingReportingOverflow(distinct)
        return o ? (ids < 0 ? Int.min : Int.max) : r
    }
    /// Distinct ids seen more than once (saturating, as ``distinct``).
    public var duplicateIDs: Int { (try? Self.total(multiplicities.lazy.filter { $0.key >= 2 }.map(\.value), "")) ?? Int.max }

    /// Both summaries together. Exact when no id is in both (shards by fingerprint); refuses
    /// summaries made with different rules or overlapping shards, and sums that would overflow.
    public func merged(with other: AuditSummary) throws(InputError) -> AuditSummary {
        guard maxLineBytes == other.maxLineBytes else {
            throw InputError(
                "summaries made with different line limits (max-line-bytes \(maxLineBytes) and \(other.maxLineBytes)) do not merge",
                argument: "max-line-bytes")
        }
        guard shardCount == other.shardCount else {
            throw InputError(
                "summaries of \(shardCount) and \(other.shardCount) shards do not merge; give every shard the same K (shard k/K)",
                argument: "shard")
        }
        let overlap = Set(shardIndexes).intersection(other.shardIndexes)
        guard overlap.isEmpty else {
            let list =
                overlap.sorted().prefix(8).map { "\($0 + 1)/\(shardCount)" }.joined(separator: ", ") + (overlap.count > 8 ? ", …" : "")
            throw InputError("shard \(list) is in two summaries; give each shard once")
        }
        var m = self
        m.shardIndexes = (shardIndexes + other.shardIndexes).sorted()
        m.lines = try Self.sum(lines, other.lines, "merged lines")
        m.ids = try Self.sum(ids, other.ids, "merged ids")
        m.emptyLines = try Self.sum(emptyLines, other.emptyLines, "merged empty_lines")
        m.crlfLines = try Self.sum(crlfLines, other.crlfLines, "merged crlf_lines")
        m.invalidUTF8Lines = try Self.sum(invalidUTF8Lines, other.invalidUTF8Lines, "merged invalid_utf8_lines")
        m.overlongLines = try Self.sum(overlongLines, other.overlongLines, "merged overlong_lines")
        m.placeholderLines = try Self.sum(placeholderLines, other.placeholderLines, "merged placeholder_lines")
        m.quotedLines = try Self.sum(quotedLines, other.quotedLines, "merged quoted_lines")
        // Counted only if both parts counted them (a part without KSUIDs counts none).
        let ksuids = (timeFormats[.ksuid]?.ids ?? 0, other.timeFormats[.ksuid]?.ids ?? 0)
        if ksuids.0 > 0 && ksuids.1 > 0 && (ksuidPayloadBits.isEmpty || other.ksuidPayloadBits.isEmpty) {
            m.ksuidPayloadBits = []
        } else if ksuidPayloadBits.isEmpty || other.ksuidPayloadBits.isEmpty {
            m.ksuidPayloadBits = ksuidPayloadBits.isEmpty ? other.ksuidPayloadBits : ksuidPayloadBits
        } else {
            for i in m.ksuidPayloadBits.indices {
                m.ksuidPayloadBits[i] = try Self.sum(ksuidPayloadBits[i], other.ksuidPayloadBits[i], "merged ksuid_payload_bits")
            }
        }
        m.multiplicities = try Self.merging(multiplicities, other.multiplicities, "merged multiplicities")
        m.lengths = try Self.merging(lengths, other.lengths, "merged lengths")
        m.symbols.formUnion(other.symbols)
        for (i, p) in other.positions.enumerated() {
            if i == m.positions.count { m.positions.append([:]) }
            m.positions[i] = try Self.merging(m.positions[i], p, "merged positions[\(i)]")
        }
        for (f, t) in other.timeFormats { try m.timeFormats[f, default: TimeBuckets()].add(t, format: "merged time_formats.\(f.rawValue)") }
        // A format is the merged stream's only if every part read all its ids as it.
        m.nodeFormats = ids == 0 ? other.nodeFormats : other.ids == 0 ? nodeFormats : [:]
        for (f, a) in nodeFormats where ids > 0 && other.ids > 0 {
            guard let b = other.nodeFormats[f] else { continue }
            var n = a
            try n.add(b, "merged node_formats.\(f.rawValue)")
            m.nodeFormats[f] = n
        }
        m.sample = Self.smallest(sample + other.sample)
        // A length keeps its group only if neither part has ids of it without a group (untracked).
        m.groups = [:]
        for length in Set(groups.keys).union(other.groups.keys) {
            switch (groups[length], other.groups[length]) {
            case (let a?, let b?):
                var g = a
                g.multiplicities = try Self.merging(a.multiplicities, b.multiplicities, "merged groups.\(length).multiplicities")
                for (i, p) in b.positions.enumerated() {
                    if i == g.positions.count { g.positions.append([:]) }
                    g.positions[i] = try Self.merging(g.positions[i], p, "merged groups.\(length).positions[\(i)]")
                }
                m.groups[length] = g
            case (let a?, nil): if (other.lengths[length] ?? 0) == 0 { m.groups[length] = a }
            case (nil, let b?): if (lengths[length] ?? 0) == 0 { m.groups[length] = b }
            case (nil, nil): break
            }
        }
        if m.lengths.count > Self.groupLengthLimit { m.groups = [:] }
        // Either order: a part that set lines aside merges only with one made under its declaration.
        if let mine = declared {
            m.declared = try mine.merged(with: other.declared)
        } else {
            m.declared = try other.declared?.merged(with: nil)
        }
        return m
    }

    /// The smallest distinct ids of at most `sampleMaxBytes` bytes, by their UTF-8 bytes. Ids are
    /// told apart by their bytes, never by String equality (which is canonical equivalence: it would
    /// merge the NFC and NFD spellings of one id, which the byte path and the Spark job keep apart).
    static func smallest(_ ids: [String]) -> [String] {
        let byBytes = ids.lazy.map { Array($0.utf8) }.filter { $0.count <= sampleMaxBytes }.sorted { $0.lexicographicallyPrecedes($1) }
        var out: [String] = []
        var last: [UInt8]?
        for b in byBytes {
            if out.count == sampleSize { break }
            if b == last { continue }
            out.append(String(decoding: b, as: UTF8.self))
            last = b
        }
        return out
    }

    /// How many different ids of `length` symbols `symbols` symbols spell (as a Double, +∞ past its
    /// range), with `positions` (per position, the symbols seen there) limiting the first 64. Exact
    /// below 2^53, where a count could be compared with it.
    static func spellable(length: Int, symbols: Int, positions: [[Unicode.Scalar: Int]] = []) -> Double {
        let counted = Swift.min(length, positionLimit, positions.count)
        let head = positions.prefix(counted).reduce(1.0) { $0 * Double($1.count) }
        return head * pow(Double(symbols), Double(length - counted))
    }

    /// Checks that the counts agree with each other and are within the caps, with checked
    /// arithmetic (a summary that passes cannot make ``distinct`` and the others overflow).
    public func validate() throws(InputError) {
        func fail(_ what: String) -> InputError { Self.malformed(what) }
        guard maxLineBytes >= 1 else { throw fail("max_line_bytes") }
        guard shardCount >= 1, shardCount <= Self.shardLimit, !shardIndexes.isEmpty,
            shardIndexes.allSatisfy({ $0 >= 0 && $0 < shardCount })
        else { throw fail("shards") }
        guard Set(shardIndexes).count == shardIndexes.count else { throw fail("a shard index twice") }
        for (name, n) in [
            ("lines", lines), ("ids", ids), ("empty_lines", emptyLines), ("crlf_lines", crlfLines),
            ("invalid_utf8_lines", invalidUTF8Lines), ("overlong_lines", overlongLines), ("placeholder_lines", placeholderLines),
            ("quoted_lines", quotedLines),
        ] where n < 0 {
            throw fail("\(name) is negative")
        }
        guard multiplicities.count <= Self.multiplicityKeyLimit else {
            throw fail("multiplicities has more than \(Self.multiplicityKeyLimit) keys")
        }
        guard lengths.count <= Self.lengthKeyLimit else { throw fail("lengths has more than \(Self.lengthKeyLimit) keys") }
        guard positions.count <= Self.positionLimit else { throw fail("positions has more than \(Self.positionLimit) rows") }
        guard multiplicities.keys.allSatisfy({ $0 >= 1 }), lengths.keys.allSatisfy({ $0 >= 1 }) else {
            throw fail("a multiplicity or length below 1")
        }
        guard multiplicities.values.allSatisfy({ $0 >= 0 }), lengths.values.allSatisfy({ $0 >= 0 }) else { throw fail("a negative count") }
        // The counts must agree with each other, or the verdict would be nonsense.
        var occurrences = 0
        for (m, n) in multiplicities {
            occurrences = try Self.sum(occurrences, try Self.product(m, n, "multiplicities (m × count)"), "multiplicities (Σ m × count)")
        }
        guard occurrences == ids else { throw fail("multiplicities do not add up to ids") }
        guard try Self.total(lengths.values, "lengths") == ids else { throw fail("lengths do not add up to ids") }
        if let d = declared {
            guard d.lines >= 0, d.linesOtherCase >= 0, d.otherLength >= 0, d.otherSymbols >= 0, d.lines <= ids, d.linesOtherCase <= ids
            else { throw fail("declared does not add up") }
        }
        let setAside = try Self.sum(declared?.otherLength ?? 0, declared?.otherSymbols ?? 0, "declared")
        let nonIDs = try Self.total([emptyLines, invalidUTF8Lines, overlongLines, placeholderLines, setAside], "lines")
        guard quotedLines <= lines else { throw fail("quoted_lines is more than lines") }
        guard lines == (try Self.sum(ids, nonIDs, "lines")), crlfLines <= lines else {
            throw fail("lines are not ids + empty + invalid UTF-8 + overlong + placeholder lines + lines set aside")
        }
        let ksuids = timeFormats[.ksuid]?.ids ?? 0
        guard
            ksuidPayloadBits.isEmpty
                || (ksuids > 0 && ksuidPayloadBits.count == Self.ksuidPayloadBitCount
                    && ksuidPayloadBits.allSatisfy { (0...ksuids).contains($0) })
        else { throw fail("ksuid_payload_bits is not \(Self.ksuidPayloadBitCount) counts of at most the KSUIDs' \(ksuids)") }
        // Ids that reach position i: ids − those of length ≤ i (partial sums of lengths, all ≤ ids).
        // A position no id reaches is absent, and every symbol at a position is one of `symbols`.
        // One row per position the longest id reaches (up to 64).
        let reach = Swift.min(lengths.keys.max() ?? 0, Self.positionLimit)
        guard positions.count >= reach else { throw fail("positions has \(positions.count) rows where the longest id reaches \(reach)") }
        var shorter = 0
        let distinctIDs = distinct
        for (i, p) in positions.enumerated() {
            shorter += lengths[i] ?? 0
            guard ids - shorter > 0 else { throw fail("positions has \(positions.count) rows, past the longest id") }
            guard p.values.allSatisfy({ $0 >= 0 }), try Self.total(p.values, "positions[\(i)]") == ids - shorter else {
                throw fail("positions[\(i)] does not count the ids that reach it")
            }
            guard p.keys.allSatisfy({ symbols.contains($0) }) else { throw fail("positions[\(i)] has a symbol that is not in symbols") }
            // Each distinct id writes one symbol there: more symbols than distinct ids is no log's.
            guard p.values.filter({ $0 > 0 }).count <= distinctIDs else {
                throw fail("positions[\(i)] shows more symbols than the summary has distinct ids")
            }
        }
        for f in TimeFormat.allCases {
            let t = timeFormats[f] ?? TimeBuckets()
            guard t.buckets.count <= Self.bucketLimit else {
                throw fail("time_formats.\(f.rawValue).buckets has more than \(Self.bucketLimit) keys")
            }
            // A format of one length has no more ids than the ids of that length (a TypeID's varies).
            if let length = f.length, t.ids > (lengths[length] ?? 0) {
                throw fail("time_formats.\(f.rawValue) has more ids than ids of \(length) characters")
            }
            let inBuckets = t.truncated ? t.ids : try Self.total(t.buckets.values, "time_formats.\(f.rawValue).buckets")
            guard t.ids >= 0, t.ids <= ids, t.buckets.values.allSatisfy({ $0 >= 0 }), inBuckets == t.ids else {
                throw fail("time_formats.\(f.rawValue) does not add up")
            }
        }
        for (f, n) in nodeFormats {
            guard n.ids >= 1, n.ids <= ids, n.regressions >= 0, n.regressions < n.ids, n.firstMillis <= n.lastMillis,
                n.nodes.count <= NodeStats.nodeLimit, !n.nodesTruncated || n.nodes.isEmpty, n.nodesTruncated || !n.nodes.isEmpty,
                (n.maxSequence ?? 0) >= 0, (n.tickStarts ?? 0) >= 0, (n.tickStarts ?? 0) <= n.ids
            else { throw fail("node_formats.\(f.rawValue) does not add up") }
            // A sequence is a field of the layout: it holds at most perTick values (4,096 a
            // Snowflake millisecond), so a larger one was never read from an id.
            if let top = n.maxSequence, let perTick = f.node?.perTick, top >= perTick {
                throw fail("node_formats.\(f.rawValue).max_sequence \(top) is past the \(perTick) values its layout's sequence holds")
            }
            // Node values within the layout's node bits; no more of its ids than ids of its lengths.
            let bits = UInt64(f.nodeBits ?? 0)
            let fitting = lengths.reduce(0) { $0 + ((f.isDecimal ? (1...19).contains($1.key) : $1.key == f.length) ? $1.value : 0) }
            guard n.nodes.allSatisfy({ $0 >> bits == 0 }), n.ids <= fitting else {
                throw fail("node_formats.\(f.rawValue) has nodes or ids that layout can not have")
            }
        }
        guard sample.count <= Self.sampleEntryLimit else { throw fail("sample has more than \(Self.sampleEntryLimit) entries") }
        // Each entry is one of the ids counted: a length `lengths` has, symbols from `symbols`, no more
        // entries than distinct ids.
        guard sample.count <= distinct else { throw fail("sample has more entries than the summary has distinct ids") }
        for (i, id) in sample.enumerated() {
            guard (lengths[id.unicodeScalars.count] ?? 0) > 0, id.unicodeScalars.allSatisfy({ symbols.contains($0) }) else {
                throw fail("sample[\(i)] is not an id the summary counts (its length or a symbol is not in lengths or symbols)")
            }
        }
        // No more distinct ids than their symbols can spell: at most |symbols|^L of length L, and for one
        // length at most the product of the symbols each position shows.
        let spellable = lengths.reduce(0.0) { $0 + Swift.min(Double($1.value), Self.spellable(length: $1.key, symbols: symbols.count)) }
        guard Double(distinct) <= spellable else {
            throw fail("multiplicities count \(distinct) distinct ids, more than \(symbols.count) symbols spell at the lengths given")
        }
        if lengths.count == 1, let length = lengths.keys.first,
            Double(distinct) > Self.spellable(length: length, symbols: symbols.count, positions: positions)
        {
            throw fail("multiplicities count \(distinct) distinct ids, more than the symbols at each position spell")
        }
        // Each group is the ids of one length: its multiplicities add up to them, every position
        // below min(length, 64) counts each of them, with symbols from `symbols`.
        guard groups.isEmpty || lengths.count <= Self.groupLengthLimit else {
            throw fail("groups are kept only for streams of at most \(Self.groupLengthLimit) lengths")
        }
        for (length, g) in groups {
            guard let n = lengths[length], n > 0 else { throw fail("groups.\(length) is a length no id has") }
            guard g.multiplicities.count <= Self.multiplicityKeyLimit,
                g.multiplicities.allSatisfy({ $0.key >= 1 && $0.value >= 0 && (multiplicities[$0.key] ?? 0) >= $0.value })
            else {
                throw fail("groups.\(length).multiplicities is not part of multiplicities")
            }
            var occurrences = 0
            for (m, k) in g.multiplicities {
                occurrences = try Self.sum(occurrences, try Self.product(m, k, "groups (m × count)"), "groups (Σ m × count)")
            }
            guard occurrences == n else { throw fail("groups.\(length).multiplicities do not add up to the ids of length \(length)") }
            guard g.positions.count == Swift.min(length, Self.positionLimit) else {
                throw fail("groups.\(length).positions has \(g.positions.count) rows, not \(Swift.min(length, Self.positionLimit))")
            }
            for (i, p) in g.positions.enumerated() {
                guard p.values.allSatisfy({ $0 >= 0 }), try Self.total(p.values, "groups.\(length).positions[\(i)]") == n,
                    p.keys.allSatisfy({ symbols.contains($0) })
                else {
                    throw fail("groups.\(length).positions[\(i)] does not count the ids of length \(length)")
                }
            }
            let distinctInGroup = g.multiplicities.values.reduce(0.0) { $0 + Double($1) }
            guard distinctInGroup <= Self.spellable(length: length, symbols: symbols.count, positions: g.positions) else {
                throw fail("groups.\(length) counts more distinct ids than the symbols at each position spell")
            }
        }
    }
}

// MARK: - JSON

extension AuditSummary {
    /// The summary as JSON text (keys sorted, counts as decimal strings, ASCII only; see ``jsonBytes()``).
    public func jsonText() throws -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// Reads a summary written by any tool that follows docs/audit-summary.md, and checks it
    /// (``validate()``): a malformed, oversized, inconsistent or overflowing one is an InputError.
    public init(jsonText data: Data) throws(InputError) {
        let parsed: Result<AuditSummary, InputError> = data.withUnsafeBytes { raw in
            do throws(InputError) { return .success(try Self.parse(raw)) } catch { return .failure(error) }
        }
        self = try parsed.get()
        try validate()
    }
}
