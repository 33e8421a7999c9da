import Foundation

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
    /// Time buckets kept per format; past it the buckets are dropped and `truncated` set.
    public static let bucketLimit = 1 << 20

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
    /// The smallest distinct ids by UTF-8 bytes, in that order.
    public var sample: [String] = []
    /// Per id length (in symbols), the ids' own multiplicities and positions, for the lengths whose
    /// every id was tracked (ASCII, at most 4096 symbols); a mixed stream is judged group by group.
    public var groups: [Int: Group] = [:]

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

        mutating func add(_ other: TimeBuckets) {
            ids += other.ids
            truncated = truncated || other.truncated
            if truncated { buckets = [:]; return }
            buckets.merge(other.buckets, uniquingKeysWith: +)
            if buckets.count > AuditSummary.bucketLimit { buckets = [:]; truncated = true }
        }
    }

    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    public var distinct: Int { multiplicities.values.reduce(0, +) }
    /// Occurrences beyond the first: ids − distinct.
    public var extraOccurrences: Int { ids - distinct }
    /// Distinct ids seen more than once.
    public var duplicateIDs: Int { multiplicities.filter { $0.key >= 2 }.values.reduce(0, +) }

    /// Both summaries together. Exact when no id is in both (shards by fingerprint); refuses
    /// summaries made with different rules or overlapping shards.
    public func merged(with other: AuditSummary) throws(InputError) -> AuditSummary {
        guard maxLineBytes == other.maxLineBytes else {
            throw InputError("summaries made with different --max-line-bytes (\(maxLineBytes) and \(other.maxLineBytes)) do not merge")
        }
        guard shardCount == other.shardCount else {
            throw InputError("summaries of \(shardCount) and \(other.shardCount) shards do not merge; use one --shard k/K for all")
        }
        let overlap = Set(shardIndexes).intersection(other.shardIndexes)
        guard overlap.isEmpty else {
            throw InputError("shard \(overlap.sorted().map { "\($0 + 1)/\(shardCount)" }.joined(separator: ", ")) is in two summaries; give each shard once")
        }
        var m = self
        m.shardIndexes = (shardIndexes + other.shardIndexes).sorted()
        m.lines += other.lines; m.ids += other.ids; m.emptyLines += other.emptyLines
        m.crlfLines += other.crlfLines; m.invalidUTF8Lines += other.invalidUTF8Lines; m.overlongLines += other.overlongLines
        m.multiplicities.merge(other.multiplicities, uniquingKeysWith: +)
        m.lengths.merge(other.lengths, uniquingKeysWith: +)
        m.symbols.formUnion(other.symbols)
        for (i, p) in other.positions.enumerated() {
            if i == m.positions.count { m.positions.append([:]) }
            m.positions[i].merge(p, uniquingKeysWith: +)
        }
        for (f, t) in other.timeFormats { m.timeFormats[f, default: TimeBuckets()].add(t) }
        m.sample = Self.smallest(sample + other.sample)
        return m
    }

    static func smallest(_ ids: [String]) -> [String] {
        Array(Set(ids.filter { $0.utf8.count <= sampleMaxBytes }).sorted { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }.prefix(sampleSize))
    }
}

// MARK: - JSON

extension AuditSummary {
    /// The summary as JSON text (keys sorted, counts as decimal strings).
    public func jsonText() throws -> String {
        func counts<K: BinaryInteger>(_ m: [K: Int]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: m.map { (String($0.key), String($0.value)) })
        }
        var formats: [String: Any] = [:]
        for f in TimeFormat.allCases {
            let t = timeFormats[f] ?? TimeBuckets()
            formats[f.rawValue] = ["ids": String(t.ids), "buckets": counts(t.buckets), "truncated": t.truncated] as [String: Any]
        }
        let object: [String: Any] = [
            "kind": Self.kind, "schema_version": Self.schemaVersion, "max_line_bytes": maxLineBytes,
            "shards": ["count": shardCount, "indexes": shardIndexes] as [String: Any],
            "lines": String(lines), "ids": String(ids), "empty_lines": String(emptyLines), "crlf_lines": String(crlfLines),
            "invalid_utf8_lines": String(invalidUTF8Lines), "overlong_lines": String(overlongLines),
            "multiplicities": counts(multiplicities), "lengths": counts(lengths),
            "symbols": String(String.UnicodeScalarView(symbols.sorted { $0.value < $1.value })),
            "positions": positions.map { p in Dictionary(uniqueKeysWithValues: p.map { (String($0.key), String($0.value)) }) },
            "time_formats": formats, "sample": sample,
        ]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        // Every non-ASCII scalar as \uXXXX: ASCII-only JSON survives any tool, and a raw U+FEFF
        // inside a string is dropped by some parsers (Foundation's among them).
        var out = ""
        for u in String(decoding: data, as: UTF8.self).unicodeScalars {
            if u.isASCII { out.unicodeScalars.append(u); continue }
            for unit in String(u).utf16 { out += String(format: "\\u%04x", unit) }
        }
        return out
    }

    /// Reads a summary written by any tool that follows docs/audit-summary.md.
    public init(jsonText data: Data) throws(InputError) {
        func fail(_ what: String) -> InputError { InputError("not an idbudget audit summary (\(what)); make one with idbudget audit FILE --emit-summary S.json") }
        // A raw U+FEFF inside a string would be dropped by the parser: escape it (and drop a leading BOM).
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var cleaned: [UInt8] = []
        cleaned.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if i + 2 < bytes.count, bytes[i] == 0xEF, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF {
                cleaned += Array("\\ufeff".utf8)
                i += 3
            } else {
                cleaned.append(bytes[i])
                i += 1
            }
        }
        guard let root = try? JSONSerialization.jsonObject(with: Data(cleaned)) as? [String: Any] else { throw fail("not a JSON object") }
        guard root["kind"] as? String == Self.kind else { throw fail("kind is not \(Self.kind)") }
        guard (root["schema_version"] as? Int) == Self.schemaVersion else { throw fail("schema_version is not \(Self.schemaVersion)") }
        guard let maxLine = root["max_line_bytes"] as? Int, maxLine >= 1 else { throw fail("max_line_bytes") }
        func count(_ v: Any?, _ name: String) throws(InputError) -> Int {
            guard let s = v as? String, !s.isEmpty, s.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(s) else { throw fail("\(name) is not a count written as a string of digits") }
            return n
        }
        func countMap<K: FixedWidthInteger>(_ v: Any?, _ name: String, _: K.Type) throws(InputError) -> [K: Int] {
            guard let m = v as? [String: Any] else { throw fail("\(name) is not an object") }
            var out: [K: Int] = [:]
            for (k, c) in m {
                guard let key = K(k) else { throw fail("\(name) has the key '\(k.prefix(40))'") }
                out[key] = try count(c, name)
            }
            return out
        }
        self.init(maxLineBytes: maxLine)
        guard let shards = root["shards"] as? [String: Any], let k = shards["count"] as? Int, k >= 1,
              let indexes = shards["indexes"] as? [Int], !indexes.isEmpty, indexes.allSatisfy({ $0 >= 0 && $0 < k })
        else { throw fail("shards") }
        shardCount = k
        shardIndexes = indexes.sorted()
        lines = try count(root["lines"], "lines"); ids = try count(root["ids"], "ids")
        emptyLines = try count(root["empty_lines"], "empty_lines"); crlfLines = try count(root["crlf_lines"], "crlf_lines")
        invalidUTF8Lines = try count(root["invalid_utf8_lines"], "invalid_utf8_lines")
        overlongLines = try count(root["overlong_lines"], "overlong_lines")
        multiplicities = try countMap(root["multiplicities"], "multiplicities", Int.self)
        lengths = try countMap(root["lengths"], "lengths", Int.self)
        guard let s = root["symbols"] as? String else { throw fail("symbols") }
        symbols = Set(s.unicodeScalars)
        guard let ps = root["positions"] as? [[String: Any]] else { throw fail("positions") }
        for p in ps {
            var row: [Unicode.Scalar: Int] = [:]
            for (c, n) in p {
                guard c.unicodeScalars.count == 1, let scalar = c.unicodeScalars.first else { throw fail("positions has the key '\(c.prefix(40))'") }
                row[scalar] = try count(n, "positions")
            }
            positions.append(row)
        }
        guard let formats = root["time_formats"] as? [String: Any] else { throw fail("time_formats") }
        for f in TimeFormat.allCases {
            guard let t = formats[f.rawValue] as? [String: Any], let truncated = t["truncated"] as? Bool else { throw fail("time_formats.\(f.rawValue)") }
            timeFormats[f] = TimeBuckets(ids: try count(t["ids"], "time_formats"), buckets: try countMap(t["buckets"], "time_formats buckets", UInt64.self), truncated: truncated)
        }
        guard let sample = root["sample"] as? [String] else { throw fail("sample") }
        self.sample = Self.smallest(sample)
        // The counts must agree with each other, or the verdict would be nonsense.
        guard multiplicities.keys.allSatisfy({ $0 >= 1 }), lengths.keys.allSatisfy({ $0 >= 1 }) else {
            throw fail("a multiplicity or length below 1")
        }
        guard multiplicities.reduce(0, { $0 + $1.key * $1.value }) == ids else {
            throw fail("multiplicities do not add up to ids")
        }
        guard lengths.values.reduce(0, +) == ids else { throw fail("lengths do not add up to ids") }
        guard lines == ids + emptyLines + invalidUTF8Lines + overlongLines, crlfLines <= lines else {
            throw fail("lines are not ids + empty + invalid UTF-8 + overlong lines")
        }
        guard Set(shardIndexes).count == shardIndexes.count else { throw fail("a shard index twice") }
        for (i, p) in positions.enumerated() {
            let reach = lengths.filter { $0.key > i }.values.reduce(0, +)
            guard p.values.reduce(0, +) == reach else { throw fail("positions[\(i)] does not count the ids that reach it") }
        }
        for (f, t) in timeFormats {
            guard t.ids <= ids, t.truncated || t.buckets.values.reduce(0, +) == t.ids else {
                throw fail("time_formats.\(f.rawValue) does not add up")
            }
        }
    }
}
