import Foundation
import IDBudget
import IDFormats
import Precise

/// What `idbudget audit --format json` prints, as a value: the counts of an ``AuditSummary``, the
/// judgement of its ``AuditAnalysis``, in words and in codes. `Codable`; its JSON (`schema_version` 1,
/// snake_case keys, counts as decimal strings) is the CLI's, field for field.
///
/// ```swift
/// let report = try Auditor().audit(ids)          // any Sequence of String or of bytes
/// if !report.passes { print(report.verdict) }    // "SUSPICIOUS: more duplicates than …"
/// ```
public struct AuditReport: Answer, Equatable {
    public var schemaVersion = outputSchemaVersion
    public var command = "audit"
    public let lines: Int
    public let ids: Int
    public let distinct: Int
    public let duplicateIDs: Int
    public let extraOccurrences: Int
    public let emptyLines: Int
    public let crlfLines: Int
    public let invalidUTF8Lines: Int
    public let overlongLines: Int
    /// Nil and max UUIDs, set aside as placeholders (``AuditSummary/placeholderLines``).
    public let placeholderLines: Int
    /// Lines read as the JSON string they were (`jq` without -r), without their quotes
    /// (``AuditSummary/quotedLines``).
    public let quotedLines: Int
    /// The longest line counted (longer ones are overlong and skipped).
    public let maxLineBytes: Int
    /// Every symbol seen, in code point order.
    public let observedSymbols: String
    public let alphabet: String
    public let alphabetSize: Int
    /// "UUIDv4", "UUIDv7", "tokens", …
    public let format: String
    /// The time-ordered format, when the ids are one (`uuid7`, `ulid`, `ksuid`, `uuid1`, `uuid6`, `typeid`).
    public let timeFormat: TimeFormat?
    /// Ids by length in characters.
    public let lengths: [Int: Int]
    public let space: SpaceFigures
    /// Random bits drawn fresh for each id (per bucket for time-ordered formats), in the one definition
    /// `schemes` and `inspect` print: the catalogue's for a format the audit recognised, else what the
    /// positions show (approximate).
    public let randomBits: Double
    /// Random bits a minting process draws once and shares with its ids (a random node, a clock
    /// sequence, a counter's start), for a recognised format; nil for tokens.
    public let processRandomBits: Int?
    /// The bits per bucket the duplicate test judged over: ``randomBits`` but for UUIDv1/v6 (the 14-bit
    /// clock sequence per 100 ns tick) and the node-id formats (0: no id may repeat).
    public let judgedBits: Double
    public let findings: [String]
    public let expectedDuplicates: Double
    public let sd: Double
    /// nil when infinite (the spread is all but 0).
    public let z: Double?
    /// Certified upper bounds on the two tails; the verdict uses them.
    public let pValueHigh: Double
    public let pValueLow: Double
    public let pValueHighEstimate: Double
    public let pValueLowEstimate: Double
    public let tailThreshold: Double
    /// The stream passes the audit: ids, and nothing against them (what a CI gate asks).
    public let passes: Bool
    public let testMethod: DuplicateTest.Method
    public let errorBound: Double?
    public let verdictCode: AuditAnalysis.Verdict
    public let effectiveBits: Double
    public let effectiveBitsLowerBound: Bool
    public let effectiveBits95Lower: Double
    public let suspicious: Bool
    /// The verdict in words.
    public let verdict: String
    public let shards: Shards
    public let buckets: Buckets?
    /// A mixed stream's groups (by id length), each judged in its own space.
    public let groups: [Group]?
    /// What the run cost, when the caller measured it (the CLI does).
    public let resources: Resources?
    /// Where the ids came from, when they were taken out of records (a CSV column, a JSON-lines field).
    public var records: Records?

    /// The records the ids were taken from (``RecordReader``): how many, and how many had no id or
    /// could not be read (not audited).
    public struct Records: Codable, Sendable, Equatable {
        /// `csv column 'id'`, `json-lines field 'req.id'`.
        public let source: String
        public let read: Int
        public let withoutID: Int
        public let unreadable: Int
        /// Records equal to the CSV header line, set aside (a merged export repeats it).
        public let repeatedHeaders: Int

        public init(source: String, read: Int, withoutID: Int, unreadable: Int, repeatedHeaders: Int = 0) {
            self.source = source
            self.read = read
            self.withoutID = withoutID
            self.unreadable = unreadable
            self.repeatedHeaders = repeatedHeaders
        }

        enum CodingKeys: String, CodingKey {
            case source, read
            case withoutID = "without_id"
            case unreadable
            case repeatedHeaders = "repeated_headers"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(source, forKey: .source)
            try c.encode(String(read), forKey: .read)
            try c.encode(String(withoutID), forKey: .withoutID)
            try c.encode(String(unreadable), forKey: .unreadable)
            try c.encode(String(repeatedHeaders), forKey: .repeatedHeaders)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            source = try c.decode(String.self, forKey: .source)
            read = try AuditReport.count(c, .read)
            withoutID = try AuditReport.count(c, .withoutID)
            unreadable = try AuditReport.count(c, .unreadable)
            repeatedHeaders = c.contains(.repeatedHeaders) ? try AuditReport.count(c, .repeatedHeaders) : 0
        }
    }

    /// A count written as a decimal string (counts can pass 2^53, where JSON numbers lose digits).
    static func count<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K) throws -> Int {
        let text = try c.decode(String.self, forKey: key)
        guard let n = Int(text), n >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not a count")
        }
        return n
    }

    /// For a node-id stream (xid, ObjectId, TSID, the Snowflake family): its nodes, sequence use and
    /// clock regressions.
    public let nodes: Nodes?
    public let notes: [String]

    public struct Nodes: Codable, Sendable, Equatable {
        /// The layout the ids were read in, and every layout that fits them.
        public let scheme: String
        public let fits: [String]
        /// What the node field is called ("worker id").
        public let field: String
        /// Distinct node values; nil when more than `NodeStats.nodeLimit`.
        public let distinct: Int?
        public let first: String
        public let last: String
        /// The most ids one node minted in one tick (nil for xid and ObjectId), and the layout's ceiling.
        public let maxPerTick: Int?
        public let perTick: Int
        public let regressions: Int

        enum CodingKeys: String, CodingKey {
            case scheme, fits, field, distinct, first, last, regressions
            case maxPerTick = "max_per_tick"
            case perTick = "per_tick"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(scheme, forKey: .scheme)
            try c.encode(fits, forKey: .fits)
            try c.encode(field, forKey: .field)
            try c.encode(distinct.map(String.init), forKey: .distinct)
            try c.encode(first, forKey: .first)
            try c.encode(last, forKey: .last)
            try c.encode(maxPerTick.map(String.init), forKey: .maxPerTick)
            try c.encode(String(perTick), forKey: .perTick)
            try c.encode(String(regressions), forKey: .regressions)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func count(_ key: CodingKeys) throws -> Int? {
                guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
                guard let n = Int(text), n >= 0 else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not a count")
                }
                return n
            }
            scheme = try c.decode(String.self, forKey: .scheme)
            fits = try c.decode([String].self, forKey: .fits)
            field = try c.decode(String.self, forKey: .field)
            distinct = try count(.distinct)
            first = try c.decode(String.self, forKey: .first)
            last = try c.decode(String.self, forKey: .last)
            maxPerTick = try count(.maxPerTick)
            perTick = try count(.perTick) ?? 0
            regressions = try count(.regressions) ?? 0
        }

        init(_ r: AuditAnalysis) {
            let format = r.nodeFormat ?? .snowflake
            let n = r.nodeStats ?? NodeStats()
            scheme = format.rawValue
            fits = r.nodeFits.map(\.rawValue)
            field = format.node?.name ?? "node"
            distinct = n.nodesTruncated ? nil : n.nodes.count
            first = AuditAnalysis.iso(n.firstMillis)
            last = AuditAnalysis.iso(n.lastMillis)
            maxPerTick = n.maxSequence.map { $0 + 1 }
            perTick = format.node?.perTick ?? 0
            regressions = n.regressions
        }
    }

    public struct Shards: Codable, Sendable, Equatable {
        public let count: Int
        /// 0-based.
        public let indexes: [Int]
    }

    public struct Buckets: Codable, Sendable, Equatable {
        public let count: Int
        public let largest: Int
    }

    public struct Group: Codable, Sendable, Equatable {
        public let length: Int?
        public let ids: Int
        public let format: String
        public let alphabet: String
        public let space: SpaceFigures
        public let extraOccurrences: Int
        public let expectedDuplicates: Double
        public let pValueHigh: Double
        public let pValueLow: Double
        public let testMethod: DuplicateTest.Method
        public let verdictCode: AuditAnalysis.Verdict

        enum CodingKeys: String, CodingKey {
            case length, ids, format, alphabet, space
            case extraOccurrences = "extra_occurrences"
            case expectedDuplicates = "expected_duplicates"
            case pValueHigh = "p_value_high"
            case pValueLow = "p_value_low"
            case testMethod = "test_method"
            case verdictCode = "verdict_code"
        }

        init(
            length: Int?, ids: Int, format: String, alphabet: String, space: SpaceFigures, extraOccurrences: Int,
            expectedDuplicates: Double, pValueHigh: Double, pValueLow: Double, testMethod: DuplicateTest.Method,
            verdictCode: AuditAnalysis.Verdict
        ) {
            self.length = length
            self.ids = ids
            self.format = format
            self.alphabet = alphabet
            self.space = space
            self.extraOccurrences = extraOccurrences
            self.expectedDuplicates = expectedDuplicates
            self.pValueHigh = pValueHigh
            self.pValueLow = pValueLow
            self.testMethod = testMethod
            self.verdictCode = verdictCode
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(length, forKey: .length)
            try c.encode(String(ids), forKey: .ids)
            try c.encode(format, forKey: .format)
            try c.encode(alphabet, forKey: .alphabet)
            try c.encode(space, forKey: .space)
            try c.encode(String(extraOccurrences), forKey: .extraOccurrences)
            try c.encode(expectedDuplicates, forKey: .expectedDuplicates)
            try c.encode(pValueHigh, forKey: .pValueHigh)
            try c.encode(pValueLow, forKey: .pValueLow)
            try c.encode(testMethod, forKey: .testMethod)
            try c.encode(verdictCode, forKey: .verdictCode)
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            func count(_ key: CodingKeys) throws -> Int {
                let text = try c.decode(String.self, forKey: key)
                guard let n = Int(text), n >= 0 else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not a count")
                }
                return n
            }
            length = try c.decodeIfPresent(Int.self, forKey: .length)
            ids = try count(.ids)
            format = try c.decode(String.self, forKey: .format)
            alphabet = try c.decode(String.self, forKey: .alphabet)
            space = try c.decode(SpaceFigures.self, forKey: .space)
            extraOccurrences = try count(.extraOccurrences)
            expectedDuplicates = try c.decode(Double.self, forKey: .expectedDuplicates)
            pValueHigh = try c.decode(Double.self, forKey: .pValueHigh)
            pValueLow = try c.decode(Double.self, forKey: .pValueLow)
            testMethod = try c.decode(DuplicateTest.Method.self, forKey: .testMethod)
            verdictCode = try c.decode(AuditAnalysis.Verdict.self, forKey: .verdictCode)
        }
    }

    /// Memory the run took.
    public struct Resources: Codable, Sendable, Equatable {
        public let fingerprintTableBytes: Int
        public let spilled: Bool
        public let peakRSSBytes: Int
        public let memoryLimitBytes: Int
        /// The worker threads the ids were read on (``Auditor/threads``).
        public let threads: Int

        public init(fingerprintTableBytes: Int, spilled: Bool, peakRSSBytes: Int, memoryLimitBytes: Int, threads: Int = 1) {
            self.fingerprintTableBytes = fingerprintTableBytes
            self.spilled = spilled
            self.peakRSSBytes = peakRSSBytes
            self.memoryLimitBytes = memoryLimitBytes
            self.threads = threads
        }
    }

    /// Its keys are spelled out (`effective_bits_95_lower`), not converted.
    public static var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy { .useDefaultKeys }

    /// Judges `summary` (see ``AuditAnalysis``) at `now` and reports it.
    /// Throws when `claimedBits` is outside 1…`Limits.maxSpaceBits`.
    public init(
        summary: AuditSummary, claimedBits: Int? = nil, scheme: IDFormat? = nil, declared: DeclaredShape? = nil,
        resources: Resources? = nil, now: Date = Date()
    ) throws(InputError) {
        self.init(
            summary: summary,
            analysis: try AuditAnalysis(summary: summary, claimedBits: claimedBits, scheme: scheme, declared: declared, now: now),
            resources: resources)
    }

    public init(summary s: AuditSummary, analysis r: AuditAnalysis, resources: Resources? = nil) {
        lines = s.lines
        ids = s.ids
        distinct = r.distinct
        duplicateIDs = r.duplicateIDs
        extraOccurrences = r.extraOccurrences
        emptyLines = s.emptyLines
        crlfLines = s.crlfLines
        invalidUTF8Lines = s.invalidUTF8Lines
        overlongLines = s.overlongLines
        placeholderLines = s.placeholderLines
        quotedLines = s.quotedLines
        maxLineBytes = s.maxLineBytes
        observedSymbols = String(String.UnicodeScalarView(s.symbols.sorted { $0.value < $1.value }))
        alphabet = r.alphabet
        alphabetSize = r.alphabetSize
        format = r.formatName
        timeFormat = r.format
        lengths = s.lengths
        space = SpaceFigures(size: r.space, summary: r.spaceDescription)
        let catalogued = r.nodeFormat ?? r.format?.minted
        randomBits = catalogued.map { Double($0.randomBits) } ?? Self.rounded(r.randomBits)
        processRandomBits = catalogued?.processRandomBits
        judgedBits = Self.rounded(r.randomBits)
        findings = r.findings
        expectedDuplicates = r.expectedDuplicates
        sd = r.sd
        z = r.z.isFinite ? r.z : nil
        pValueHigh = r.test.pValueHigh
        pValueLow = r.test.pValueLow
        pValueHighEstimate = r.test.estimateHigh
        pValueLowEstimate = r.test.estimateLow
        tailThreshold = r.test.tailThreshold
        passes = r.passes
        testMethod = r.test.method
        errorBound = r.test.errorBound
        verdictCode = r.verdict
        effectiveBits = Self.rounded(r.effectiveBits)
        effectiveBitsLowerBound = r.effectiveBitsIsLowerBound
        effectiveBits95Lower = Self.rounded(r.effectiveBitsLower95)
        suspicious = r.suspicious
        verdict = Self.words(r)
        shards = Shards(count: s.shardCount, indexes: s.shardIndexes)
        buckets = r.buckets.map { Buckets(count: $0.count, largest: $0.largest) }
        groups =
            r.groups.isEmpty
            ? nil
            : r.groups.map { g in
                let t = g.report
                return Group(
                    length: g.length, ids: g.ids, format: t.formatName, alphabet: t.alphabet,
                    space: SpaceFigures(size: t.space, summary: t.spaceDescription), extraOccurrences: t.extraOccurrences,
                    expectedDuplicates: t.expectedDuplicates, pValueHigh: t.test.pValueHigh, pValueLow: t.test.pValueLow,
                    testMethod: t.test.method, verdictCode: t.verdict)
            }
        self.resources = resources
        nodes = r.nodeFormat == nil ? nil : Nodes(r)
        notes = [
            "p_value_high/low are certified upper bounds on the tails (the verdict uses them); the *_estimate fields, expected_duplicates, sd, z, random_bits and effective_bits are approximate (doubles); z is null when infinite. Test: \(Self.method(r.test))."
        ]
    }

    /// The verdict in words.
    static func words(_ r: AuditAnalysis) -> String {
        switch r.verdict {
        case .consistent where r.nodeFormat != nil: "consistent: no id repeats, as a node-id format's never should"
        case .tooMany where r.nodeFormat != nil:
            "SUSPICIOUS: ids repeat; a node-id format repeats an id only when two live nodes share a node value or a clock went back"
        case .tooMany where r.format == .uuid1 || r.format == .uuid6:
            "SUSPICIOUS: ids repeat; a \(r.format?.displayName ?? "UUID") never repeats from a generator that follows RFC 9562"
        case .tooMany where r.test.verdict != .tooMany:
            "SUSPICIOUS: one value repeats where ids belong: nil or max UUIDs past the tolerance (see findings)"
        case .tooMany:
            "SUSPICIOUS: more duplicates than a uniform generator over this space makes (p ≤ \(String(format: "%.3g", r.test.pValueHigh)))"
        case .tooFew:
            "SUSPICIOUS: fewer duplicates than uniform random ids over this space would show (p ≤ \(String(format: "%.3g", r.test.pValueLow))): structured, sequential or counter-based ids?"
        case .nonUniform: "SUSPICIOUS: positions that should be random are not (see findings)"
        case .invalid: "INVALID: more lines than allowed are not of the declared shape (see findings)"
        case .inconclusive: "INCONCLUSIVE: the duplicates look off, but no bound proves it within the cost limit"
        case .empty: "NO IDS: nothing to judge"
        case .consistent: "consistent with uniform random ids over this space"
        }
    }

    /// How the tails were bounded, in words.
    public var methodDescription: String { Self.method(testMethod, errorBound: errorBound, threshold: tailThreshold) }

    static func method(_ t: DuplicateTest) -> String { method(t.method, errorBound: t.errorBound, threshold: t.tailThreshold) }

    static func method(_ m: DuplicateTest.Method, errorBound: Double?, threshold: Double) -> String {
        switch m {
        case .exact:
            "exact occupancy law, error ≤ \(String(format: "%.2g", errorBound ?? 0)); each tail judged at p < \(String(format: "%.2g", threshold))"
        case .bounds:
            "certified upper bounds on both tails (Hoeffding's binomial, Bennett); each tail judged at p < \(String(format: "%.2g", threshold))"
        }
    }

    static func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }

    // MARK: - Coding: the CLI's keys, counts as decimal strings

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version"
        case command, lines, ids, distinct
        case duplicateIDs = "duplicate_ids"
        case extraOccurrences = "extra_occurrences"
        case emptyLines = "empty_lines"
        case crlfLines = "crlf_lines"
        case invalidUTF8Lines = "invalid_utf8_lines"
        case overlongLines = "overlong_lines"
        case placeholderLines = "placeholder_lines"
        case quotedLines = "quoted_lines"
        case maxLineBytes = "max_line_bytes"
        case observedSymbols = "observed_symbols"
        case alphabet
        case alphabetSize = "alphabet_size"
        case format
        case timeFormat = "time_format"
        case lengths, space
        case randomBits = "random_bits"
        case processRandomBits = "process_random_bits"
        case judgedBits = "judged_bits"
        case findings
        case expectedDuplicates = "expected_duplicates"
        case sd, z
        case pValueHigh = "p_value_high"
        case pValueLow = "p_value_low"
        case pValueHighEstimate = "p_value_high_estimate"
        case pValueLowEstimate = "p_value_low_estimate"
        case tailThreshold = "tail_threshold"
        case passes
        case testMethod = "test_method"
        case errorBound = "error_bound"
        case verdictCode = "verdict_code"
        case effectiveBits = "effective_bits"
        case effectiveBitsLowerBound = "effective_bits_lower_bound"
        case effectiveBits95Lower = "effective_bits_95_lower"
        case suspicious, verdict, shards, buckets, groups, nodes, notes, records
        case fingerprintTableBytes = "fingerprint_table_bytes"
        case spilled
        case peakRSSBytes = "peak_rss_bytes"
        case memoryLimitBytes = "memory_limit_bytes"
        case threads
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(command, forKey: .command)
        for (key, n) in [
            (CodingKeys.lines, lines), (.ids, ids), (.distinct, distinct), (.duplicateIDs, duplicateIDs),
            (.extraOccurrences, extraOccurrences), (.emptyLines, emptyLines), (.crlfLines, crlfLines),
            (.invalidUTF8Lines, invalidUTF8Lines), (.overlongLines, overlongLines), (.placeholderLines, placeholderLines),
            (.quotedLines, quotedLines),
        ] {
            try c.encode(String(n), forKey: key)
        }
        try c.encode(maxLineBytes, forKey: .maxLineBytes)
        try c.encode(observedSymbols, forKey: .observedSymbols)
        try c.encode(alphabet, forKey: .alphabet)
        try c.encode(alphabetSize, forKey: .alphabetSize)
        try c.encode(format, forKey: .format)
        try c.encode(timeFormat?.rawValue, forKey: .timeFormat)
        try c.encode(Dictionary(uniqueKeysWithValues: lengths.map { (String($0.key), String($0.value)) }), forKey: .lengths)
        try c.encode(space, forKey: .space)
        try c.encode(randomBits, forKey: .randomBits)
        try c.encode(processRandomBits, forKey: .processRandomBits)
        try c.encode(judgedBits, forKey: .judgedBits)
        try c.encode(findings, forKey: .findings)
        try c.encode(expectedDuplicates, forKey: .expectedDuplicates)
        try c.encode(sd, forKey: .sd)
        try c.encode(z, forKey: .z)
        try c.encode(pValueHigh, forKey: .pValueHigh)
        try c.encode(pValueLow, forKey: .pValueLow)
        try c.encode(pValueHighEstimate, forKey: .pValueHighEstimate)
        try c.encode(pValueLowEstimate, forKey: .pValueLowEstimate)
        try c.encode(tailThreshold, forKey: .tailThreshold)
        try c.encode(passes, forKey: .passes)
        try c.encode(testMethod, forKey: .testMethod)
        try c.encode(errorBound, forKey: .errorBound)
        try c.encode(verdictCode, forKey: .verdictCode)
        try c.encode(effectiveBits, forKey: .effectiveBits)
        try c.encode(effectiveBitsLowerBound, forKey: .effectiveBitsLowerBound)
        try c.encode(effectiveBits95Lower, forKey: .effectiveBits95Lower)
        try c.encode(suspicious, forKey: .suspicious)
        try c.encode(verdict, forKey: .verdict)
        try c.encode(shards, forKey: .shards)
        try c.encodeIfPresent(buckets.map { ["count": String($0.count), "largest": String($0.largest)] }, forKey: .buckets)
        try c.encodeIfPresent(groups, forKey: .groups)
        try c.encodeIfPresent(nodes, forKey: .nodes)
        try c.encodeIfPresent(records, forKey: .records)
        if let resources {
            try c.encode(String(resources.fingerprintTableBytes), forKey: .fingerprintTableBytes)
            try c.encode(resources.spilled, forKey: .spilled)
            try c.encode(String(resources.peakRSSBytes), forKey: .peakRSSBytes)
            try c.encode(String(resources.memoryLimitBytes), forKey: .memoryLimitBytes)
            try c.encode(resources.threads, forKey: .threads)
        }
        try c.encode(notes, forKey: .notes)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int { try Self.count(c, key) }
        schemaVersion = try c.decode(Int.self, forKey: .schemaVersion)
        command = try c.decode(String.self, forKey: .command)
        lines = try count(.lines)
        ids = try count(.ids)
        distinct = try count(.distinct)
        duplicateIDs = try count(.duplicateIDs)
        extraOccurrences = try count(.extraOccurrences)
        emptyLines = try count(.emptyLines)
        crlfLines = try count(.crlfLines)
        invalidUTF8Lines = try count(.invalidUTF8Lines)
        overlongLines = try count(.overlongLines)
        placeholderLines = c.contains(.placeholderLines) ? try count(.placeholderLines) : 0
        quotedLines = c.contains(.quotedLines) ? try count(.quotedLines) : 0
        maxLineBytes = try c.decode(Int.self, forKey: .maxLineBytes)
        observedSymbols = try c.decode(String.self, forKey: .observedSymbols)
        alphabet = try c.decode(String.self, forKey: .alphabet)
        alphabetSize = try c.decode(Int.self, forKey: .alphabetSize)
        format = try c.decode(String.self, forKey: .format)
        timeFormat = try c.decodeIfPresent(String.self, forKey: .timeFormat).flatMap(TimeFormat.init(rawValue:))
        var lengths: [Int: Int] = [:]
        for (k, v) in try c.decode([String: String].self, forKey: .lengths) {
            guard let length = Int(k), let n = Int(v) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .lengths, in: c, debugDescription: "'\(k)': '\(v)' is not a length and a count")
            }
            lengths[length] = n
        }
        self.lengths = lengths
        space = try c.decode(SpaceFigures.self, forKey: .space)
        randomBits = try c.decode(Double.self, forKey: .randomBits)
        processRandomBits = try c.decodeIfPresent(Int.self, forKey: .processRandomBits)
        judgedBits = try c.decodeIfPresent(Double.self, forKey: .judgedBits) ?? randomBits
        findings = try c.decode([String].self, forKey: .findings)
        expectedDuplicates = try c.decode(Double.self, forKey: .expectedDuplicates)
        sd = try c.decode(Double.self, forKey: .sd)
        z = try c.decodeIfPresent(Double.self, forKey: .z)
        pValueHigh = try c.decode(Double.self, forKey: .pValueHigh)
        pValueLow = try c.decode(Double.self, forKey: .pValueLow)
        pValueHighEstimate = try c.decode(Double.self, forKey: .pValueHighEstimate)
        pValueLowEstimate = try c.decode(Double.self, forKey: .pValueLowEstimate)
        tailThreshold = try c.decode(Double.self, forKey: .tailThreshold)
        passes = try c.decode(Bool.self, forKey: .passes)
        testMethod = try c.decode(DuplicateTest.Method.self, forKey: .testMethod)
        errorBound = try c.decodeIfPresent(Double.self, forKey: .errorBound)
        verdictCode = try c.decode(AuditAnalysis.Verdict.self, forKey: .verdictCode)
        effectiveBits = try c.decode(Double.self, forKey: .effectiveBits)
        effectiveBitsLowerBound = try c.decode(Bool.self, forKey: .effectiveBitsLowerBound)
        effectiveBits95Lower = try c.decode(Double.self, forKey: .effectiveBits95Lower)
        suspicious = try c.decode(Bool.self, forKey: .suspicious)
        verdict = try c.decode(String.self, forKey: .verdict)
        shards = try c.decode(Shards.self, forKey: .shards)
        buckets = try c.decodeIfPresent([String: String].self, forKey: .buckets).flatMap { b in
            guard let count = b["count"].flatMap({ Int($0) }), let largest = b["largest"].flatMap({ Int($0) }) else { return nil }
            return Buckets(count: count, largest: largest)
        }
        groups = try c.decodeIfPresent([Group].self, forKey: .groups)
        nodes = try c.decodeIfPresent(Nodes.self, forKey: .nodes)
        records = try c.decodeIfPresent(Records.self, forKey: .records)
        if c.contains(.fingerprintTableBytes) {
            resources = Resources(
                fingerprintTableBytes: try count(.fingerprintTableBytes), spilled: try c.decode(Bool.self, forKey: .spilled),
                peakRSSBytes: try count(.peakRSSBytes), memoryLimitBytes: try count(.memoryLimitBytes),
                threads: try c.decodeIfPresent(Int.self, forKey: .threads) ?? 1)
        } else {
            resources = nil
        }
        notes = try c.decode([String].self, forKey: .notes)
    }
}
