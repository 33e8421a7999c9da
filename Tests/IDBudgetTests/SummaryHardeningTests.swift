import Foundation
import IDAudit
import IDBudget
import Testing

/// Summaries that cannot hurt: every malformed, oversized or overflowing summary is an InputError
/// (never a trap), the loader caps the file before reading it, and ids are told apart by bytes.
@Suite struct SummaryHardeningTests {
    /// A valid summary of `abc`, `xxx`, an empty line, `abc` (the example in docs/audit-summary.md).
    static func example() throws -> [String: Any] {
        let text = """
            {"kind": "idbudget-audit-summary", "schema_version": 1, "max_line_bytes": 4096,
             "shards": {"count": 1, "indexes": [0]},
             "lines": "4", "ids": "3", "empty_lines": "1", "crlf_lines": "0", "invalid_utf8_lines": "0",
             "overlong_lines": "0", "multiplicities": {"1": "1", "2": "1"}, "lengths": {"3": "3"},
             "symbols": "abcx",
             "positions": [{"a": "2", "x": "1"}, {"b": "2", "x": "1"}, {"c": "2", "x": "1"}],
             "time_formats": {
               "uuid7": {"ids": "0", "buckets": {}, "truncated": false},
               "ulid": {"ids": "0", "buckets": {}, "truncated": false},
               "ksuid": {"ids": "0", "buckets": {}, "truncated": false},
               "uuid1": {"ids": "0", "buckets": {}, "truncated": false}},
             "sample": ["abc", "xxx"]}
            """
        return try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    static func data(_ o: Any) throws -> Data { try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]) }

    static func rejects(_ data: Data, _ fragment: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try AuditSummary(jsonText: data)
            Issue.record("accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
            if let fragment { #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation) }
        }
    }

    @Test func theExampleLoads() throws {
        let s = try AuditSummary(jsonText: try Self.data(try Self.example()))
        #expect(s.ids == 3 && s.distinct == 2 && s.duplicateIDs == 1 && s.extraOccurrences == 1)
        #expect(s.sample == ["abc", "xxx"])
    }

    /// Counts at and past Int.max, negative, as numbers, empty, in exponent notation: an InputError each.
    @Test func overflowingAndMalformedCountsAreRefused() throws {
        let bad: [Any] = [
            "9223372036854775807", "9223372036854775808", "99999999999999999999999999", "-1", "1e999", "", " 1", "0x10",
            3, -1, 1e300, NSNull(), true, ["1"], ["a": "1"],
        ]
        for field in ["lines", "ids", "empty_lines", "crlf_lines", "invalid_utf8_lines", "overlong_lines"] {
            for v in bad {
                var o = try Self.example()
                o[field] = v
                Self.rejects(try Self.data(o))
            }
        }
        for v in bad {
            var o = try Self.example()
            o["multiplicities"] = ["1": v, "2": "1"]
            Self.rejects(try Self.data(o))
            o = try Self.example()
            o["positions"] = [["a": v, "x": "1"], ["b": "2", "x": "1"], ["c": "2", "x": "1"]]
            Self.rejects(try Self.data(o))
        }
        // 2^63 as a string is past Int.max: named, not wrapped.
        var o = try Self.example()
        o["lines"] = "9223372036854775808"
        Self.rejects(try Self.data(o), "lines is larger than 9223372036854775807")
    }

    /// A time format of one length with more ids than ids of that length (ULIDs where every id is 3
    /// characters) is impossible: refused, not judged.
    @Test func timeFormatsBeyondTheirLengthAreRefused() throws {
        var o = try Self.example()
        var formats = o["time_formats"] as? [String: Any] ?? [:]
        formats["ulid"] = ["ids": "2", "buckets": ["0": "2"], "truncated": false]
        o["time_formats"] = formats
        Self.rejects(try Self.data(o), "time_formats.ulid has more ids than ids of 26 characters")
    }

    /// Counts that each fit but whose products or sums overflow: the consistency checks are checked arithmetic.
    @Test func sumsAndProductsThatOverflowAreRefused() throws {
        var o = try Self.example()
        o["multiplicities"] = ["4611686018427387904": "2", "1": "3"]  // 2^62 · 2 overflows
        Self.rejects(try Self.data(o), "multiplicities")
        o = try Self.example()
        o["multiplicities"] = ["9223372036854775807": "1", "1": "3"]  // Int.max + 3
        Self.rejects(try Self.data(o), "multiplicities")
        o = try Self.example()
        o["lengths"] = ["3": "9223372036854775807", "4": "9223372036854775807"]
        Self.rejects(try Self.data(o), "lengths")
        o = try Self.example()
        o["empty_lines"] = "9223372036854775807"
        Self.rejects(try Self.data(o), "lines")
        o = try Self.example()
        o["positions"] = [["a": "9223372036854775807", "x": "9223372036854775807"], ["b": "2", "x": "1"], ["c": "2", "x": "1"]]
        Self.rejects(try Self.data(o), "positions[0]")
        o = try Self.example()
        var formats = o["time_formats"] as! [String: Any]
        formats["uuid7"] = ["ids": "3", "buckets": ["1": "9223372036854775807", "2": "9223372036854775807"], "truncated": false]
        o["time_formats"] = formats
        Self.rejects(try Self.data(o), "time_formats.uuid7")
    }

    /// Consistent summaries whose counts are near Int.max load, report and judge without trapping.
    @Test func hugeConsistentCountsDoNotTrap() throws {
        var o = try Self.example()
        let big = Int.max - 1
        o["lines"] = String(big)
        o["ids"] = String(big)
        o["empty_lines"] = "0"
        o["multiplicities"] = [String(big): "1"]
        o["lengths"] = ["1": String(big)]
        o["positions"] = [["a": String(big)]]
        o["sample"] = ["a"]
        let s = try AuditSummary(jsonText: try Self.data(o))
        #expect(s.distinct == 1 && s.extraOccurrences == big - 1)
        _ = try AuditAnalysis(summary: s)
        // Merging it with itself (as another shard) overflows: an error, not a trap.
        var other = s
        other.shardCount = 2
        other.shardIndexes = [1]
        var mine = s
        mine.shardCount = 2
        #expect(throws: InputError.self) { try mine.merged(with: other) }
    }

    @Test func mergeOverflowIsAnError() throws {
        var a = AuditSummary(maxLineBytes: 4096)
        a.shardCount = 2
        a.shardIndexes = [0]
        a.lines = Int.max
        a.ids = Int.max
        var b = a
        b.shardIndexes = [1]
        b.lines = 1
        b.ids = 1
        #expect(throws: InputError.self) { try a.merged(with: b) }
        a.lines = 1
        a.ids = 1
        a.multiplicities = [1: Int.max]
        b.multiplicities = [1: 1]
        #expect(throws: InputError.self) { try a.merged(with: b) }
        a.multiplicities = [:]
        b.multiplicities = [:]
        a.timeFormats[.uuid7] = .init(ids: Int.max, buckets: [5: Int.max])
        b.timeFormats[.uuid7] = .init(ids: 1, buckets: [5: 1])
        #expect(throws: InputError.self) { try a.merged(with: b) }
        a.timeFormats[.uuid7] = .init(ids: 1, buckets: [5: Int.max])
        #expect(throws: InputError.self) { try a.merged(with: b) }
        // Computed counts saturate rather than trap on summaries that were never validated.
        a.multiplicities = [1: Int.max, 2: Int.max]
        #expect(a.distinct == Int.max && a.duplicateIDs == Int.max)
        a.ids = Int.min
        _ = a.extraOccurrences
    }

    /// Wrong types, deleted keys, duplicated shard indexes, deep nesting, truncation: an InputError each.
    @Test func wrongShapesAreRefused() throws {
        let base = try Self.example()
        for key in base.keys {
            var o = base
            o.removeValue(forKey: key)
            Self.rejects(try Self.data(o), key)
            for v: Any in [NSNull(), 1, "x", [Any](), [String: Any](), true] {
                o = base
                o[key] = v
                // Values that are valid there: a symbol string, no sample, no positions, version and line limit 1.
                if (key == "symbols" && v is String) || (["sample", "positions"].contains(key) && (v as? [Any])?.isEmpty == true)
                    || (["schema_version", "max_line_bytes"].contains(key) && (v as? Int) == 1 && !(v is Bool))
                {
                    continue
                }
                Self.rejects(try Self.data(o))
            }
        }
        var o = base
        o["shards"] = ["count": 2, "indexes": [1, 1]]
        Self.rejects(try Self.data(o), "shard index twice")
        o["shards"] = ["count": 2, "indexes": [2]]
        Self.rejects(try Self.data(o))
        o["shards"] = ["count": 1e300, "indexes": [0]]
        Self.rejects(try Self.data(o))
        o["shards"] = ["count": -1, "indexes": [0]]
        Self.rejects(try Self.data(o))
        // Rows past the longest id (even with zero counts), symbols missing from `symbols`.
        o = base
        o["positions"] = [["a": "2", "x": "1"], ["b": "2", "x": "1"], ["c": "2", "x": "1"], ["a": "0"]]
        Self.rejects(try Self.data(o), "past the longest id")
        o = base
        o["symbols"] = "abc"
        Self.rejects(try Self.data(o), "not in symbols")
        // Deep nesting in a field idbudget skips.
        o = base
        var deep: Any = "x"
        for _ in 0..<200 { deep = [deep] }
        o["extra"] = deep
        Self.rejects(try Self.data(o), "nested")
        // Unknown fields at a sane depth are skipped (forward compatibility).
        o = base
        o["extra"] = ["a": [1, 2.5, true, NSNull(), "s"]]
        _ = try AuditSummary(jsonText: try Self.data(o))
        // Every truncation of a valid summary is an error, never a crash.
        let full = try Self.data(base)
        for n in 0..<full.count { Self.rejects(full.prefix(n)) }
        // Raw deep nesting (past what JSONSerialization would write), garbage, lone surrogates, duplicate keys.
        Self.rejects(Data((String(repeating: "[", count: 100_000)).utf8))
        Self.rejects(Data(("{\"x\":" + String(repeating: "[", count: 100_000)).utf8), "nested")
        Self.rejects(Data([0xff, 0xfe, 0x00]))
        let text = String(decoding: full, as: UTF8.self)
        Self.rejects(Data(text.replacingOccurrences(of: "\"abcx\"", with: "\"ab\\ud800cx\"").utf8))
        Self.rejects(Data(text.replacingOccurrences(of: "\"lines\":\"4\"", with: "\"lines\":\"4\",\"lines\":\"4\"").utf8), "twice")
        Self.rejects(Data(text.replacingOccurrences(of: "\"1\":\"1\"", with: "\"1\":\"1\",\"01\":\"1\"").utf8), "twice")
        Self.rejects(Data((text + "x").utf8), "after")
    }

    /// A `sample` entry is one of the ids counted: of a length `lengths` has, spelled in `symbols`, no
    /// more entries than distinct ids.
    @Test(arguments: [["abcde"], ["abz"], ["abc", "abx", "xxx"], ["ab"]])
    func sampleEntriesNoIDHasAreRefused(sample: [String]) throws {
        var o = try Self.example()
        o["sample"] = sample
        Self.rejects(try Self.data(o), "sample")
    }

    /// `quoted_lines` is optional (absent: none), a count, and no more than the lines.
    @Test func quotedLinesAreCountedAndChecked() throws {
        var o = try Self.example()
        o["quoted_lines"] = "4"
        let s = try AuditSummary(jsonText: try Self.data(o))
        #expect(s.quotedLines == 4)
        #expect(try AuditSummary(jsonText: Data(try s.jsonText().utf8)).quotedLines == 4)
        #expect(try AuditSummary(jsonText: try Self.data(try Self.example())).quotedLines == 0)
        o["quoted_lines"] = "5"
        Self.rejects(try Self.data(o), "quoted_lines")
        o["quoted_lines"] = "-1"
        Self.rejects(try Self.data(o))
    }

    /// Collections past their caps are refused by name before they are built whole.
    @Test func oversizeFieldsAreRefused() throws {
        var o = try Self.example()
        o["positions"] = Array(repeating: ["a": "0"], count: AuditSummary.positionLimit + 1)
        Self.rejects(try Self.data(o), "positions has more than 64 rows")
        o = try Self.example()
        o["sample"] = (0..<(AuditSummary.sampleEntryLimit + 1)).map { "id\($0)" }
        Self.rejects(try Self.data(o), "sample has more than")
        // Maps with a key past the limit (written as text: building them as objects is slow in debug builds).
        let text = String(decoding: try Self.data(try Self.example()), as: UTF8.self)
        func entries(_ n: Int, from: Int) -> String {
            var out = ""
            out.reserveCapacity(n * 16)
            for k in from..<(from + n) { out += ",\"\(k)\":\"0\"" }
            return out
        }
        let m = text.replacingOccurrences(
            of: "\"multiplicities\":{\"1\":\"1\"",
            with: "\"multiplicities\":{\"1\":\"1\"" + entries(AuditSummary.multiplicityKeyLimit, from: 3))
        Self.rejects(Data(m.utf8), "multiplicities has more than")
        let u = text.replacingOccurrences(
            of: "\"ulid\":{\"buckets\":{}", with: "\"ulid\":{\"buckets\":{\"0\":\"0\"" + entries(AuditSummary.bucketLimit, from: 1) + "}")
        #expect(u != text)
        Self.rejects(Data(u.utf8), "time_formats.ulid.buckets has more than")
    }

    @Test func loaderCapsTheFileBeforeReadingIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("summary-hardening-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("s.json")
        let bytes = try Self.data(try Self.example())
        try bytes.write(to: good)
        #expect(try AuditSummary.load(path: good.path, maxBytes: bytes.count).ids == 3)
        do {
            _ = try AuditSummary.load(path: good.path, maxBytes: bytes.count - 1)
            Issue.record("a file over the cap loaded")
        } catch let e as InputError {
            #expect(e.message.contains("larger than \(bytes.count - 1) bytes"))
        }
        // A sparse 4 GiB file is refused from its size, without reading it.
        let huge = dir.appendingPathComponent("huge.json")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let h = try FileHandle(forWritingTo: huge)
        try h.truncate(atOffset: 4 << 30)
        try h.close()
        #expect(throws: InputError.self) { try AuditSummary.load(path: huge.path, maxBytes: 1 << 20) }
        // A device with no end is cut at the cap.
        #expect(throws: InputError.self) { try AuditSummary.load(path: "/dev/zero", maxBytes: 1 << 16) }
        // Missing files and directories cannot be opened: a different error.
        #expect(throws: SummaryFileError.self) { try AuditSummary.load(path: dir.appendingPathComponent("missing.json").path) }
        #expect(throws: SummaryFileError.self) { try AuditSummary.load(path: dir.path) }
        #expect(throws: InputError.self) { try AuditSummary.load(path: "/dev/null") }
        #expect(AuditSummary.maxFileBytes(memory: 1 << 30) == AuditSummary.defaultMaxFileBytes)
    }

    /// NFC "é" and NFD "e\u{301}" are different ids (different bytes): both stay in the sample, in
    /// UTF-8 byte order, through the audit, JSON, and a merge.
    @Test func sampleKeepsCanonicallyEquivalentIDsApart() throws {
        let nfc = "\u{E9}"
        let nfd = "e\u{301}"
        #expect(nfc == nfd)  // what String equality would have merged
        let s = try AuditTests.summarise(AuditTests.lines([nfc, nfd, nfc]))
        #expect(s.sample.map { Array($0.utf8) } == [Array(nfd.utf8), Array(nfc.utf8)])
        #expect(s.multiplicities == [1: 1, 2: 1])
        let back = try AuditSummary(jsonText: Data(try s.jsonText().utf8))
        #expect(back.sample.map { Array($0.utf8) } == [Array(nfd.utf8), Array(nfc.utf8)])
        // Shards that each hold one spelling merge to both.
        var a = AuditSummary(maxLineBytes: 4096)
        var b = AuditSummary(maxLineBytes: 4096)
        a.shardCount = 2
        b.shardCount = 2
        b.shardIndexes = [1]
        a.sample = [nfc]
        b.sample = [nfd]
        let merged = try a.merged(with: b)
        #expect(merged.sample.map { Array($0.utf8) } == [Array(nfd.utf8), Array(nfc.utf8)])
    }

    /// The streaming writer writes what the reader reads back, escapes every non-ASCII scalar, and
    /// is fast for bucket-heavy summaries.
    @Test func writerRoundTripsAndStaysASCII() throws {
        var s = AuditSummary(maxLineBytes: 4096)
        let ids = ["a\u{2028}b", "tab\there", "\"quote\\", "\u{FEFF}bom", "\u{1F34E}", "ctl\u{1}", "e\u{301}", "\u{E9}"]
        s = try AuditTests.summarise(AuditTests.lines(ids))
        let text = try s.jsonText()
        #expect(text.utf8.allSatisfy { $0 < 0x80 })
        let back = try AuditSummary(jsonText: Data(text.utf8))
        #expect(back == s)
        #expect(back.sample.map { Array($0.utf8) } == s.sample.map { Array($0.utf8) })
        // Foundation reads it the same (the Spark job and other tools read with their own parsers).
        let o = try JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        #expect(o["ids"] as? String == String(s.ids))
        #expect((o["sample"] as? [String])?.count == s.sample.count)
    }

    @Test func aMillionBucketsEmitAndLoadQuickly() throws {
        var s = AuditSummary(maxLineBytes: 4096)
        let n = 1 << 20
        s.ids = n
        s.lines = n
        s.multiplicities = [1: n]
        s.lengths = [36: n]
        // Possible counts: 16 symbols, each position holding each of them evenly (a summary with more
        // distinct ids than its symbols spell is refused).
        let hex = "0123456789abcdef".unicodeScalars
        s.symbols = Set(hex)
        s.positions = Array(repeating: Dictionary(uniqueKeysWithValues: hex.map { ($0, n / 16) }), count: 36)
        var t = AuditSummary.TimeBuckets(ids: n)
        t.buckets.reserveCapacity(n)
        for k in 0..<n { t.buckets[1_700_000_000_000 + UInt64(k)] = 1 }
        s.timeFormats[.uuid7] = t
        let clock = ContinuousClock()
        var text: [UInt8] = []
        let emit = clock.measure { text = s.jsonBytes() }
        var back: AuditSummary?
        let load = try clock.measure { back = try AuditSummary(jsonText: Data(text)) }
        #expect(back == s)
        // Debug builds are several times slower than release; the release figures are in the commit log.
        #expect(emit < .seconds(30) && load < .seconds(30), "emit \(emit), load \(load)")
    }
}
