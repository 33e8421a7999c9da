import Foundation
import TestSupport
import Testing

/// `idbudget audit` on node-id streams: ids that the formats' own libraries mint (epyxid, bson,
/// tsidpy; Tests/Oracles/inspect_ref.py) and ids `generate` mints are read by their fields, in the
/// schema; a repeat exits 1; `--scheme` chooses among the decimal layouts; bad usage exits 64.
@Suite(.oracles) struct AuditNodeIDsCLITests {
    static func audit(_ ids: String, _ arguments: [String] = []) throws -> (CLI.Result, [String: Any]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nodes-\(UUID().uuidString)")
        try Data(ids.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["audit", file.path, "--format", "json"] + arguments)
        let json = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
        return (r, json)
    }

    @Test(arguments: [("xid", 1), ("objectid", 1), ("tsid", -1)])
    func idsTheirLibrariesMintAreReadByTheirFields(format: String, nodes: Int) throws {
        let minted = try Oracle.run("inspect_ref.py", ["mint-many", format, "3000"], mergeErrors: false)
        try #require(minted.status == 0, "\(minted.output)")
        let (r, json) = try Self.audit(minted.output)
        #expect(r.status == 0, "\(r.stdout)")
        let n = try #require(json["nodes"] as? [String: Any], "\(json["findings"] ?? "")")
        #expect(n["scheme"] as? String == format)
        // One process: one machine id and pid (xid), one process value (ObjectId).
        if nodes > 0 { #expect(n["distinct"] as? String == String(nodes)) }
        #expect(n["regressions"] as? String == "0")
        let v = try SchemaTests.validate(r.stdout)
        #expect(v.status == 0, "\(v.output)")
    }

    /// A log as exported: a CSV header line, or a few UUIDv4 test ids, beside 20,000 node ids. They are
    /// set aside and named (up to one line in a thousand), and the stream is still its format; a
    /// repeated id among them is still caught.
    @Test(arguments: ["snowflake", "xid", "objectid", "tsid"])
    func strayLinesAreSetAside(format: String) throws {
        let ids = try CLI.run(["generate", "--scheme", format, "--count", "20000"]).stdout
        let uuids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "10"]).stdout
        for stream in ["id\n" + ids, ids + uuids] {
            let (r, json) = try Self.audit(stream)
            #expect(r.status == 0, "\(json["findings"] ?? r.stderr)")
            let n = try #require(json["nodes"] as? [String: Any], "\(json["findings"] ?? "")")
            #expect(n["scheme"] as? String == format)
            let findings = (json["findings"] as? [String] ?? []).joined(separator: " | ")
            #expect(findings.contains("set aside"), "\(findings)")
        }
        let repeated = "id\n" + ids + ids.split(separator: "\n")[7] + "\n"
        let (r, json) = try Self.audit(repeated)
        #expect(r.status == 1 && json["verdict_code"] as? String == "too-many-duplicates", "\(json["findings"] ?? "")")
        // A small export: its header line alone is tolerated.
        let few = try CLI.run(["generate", "--scheme", format, "--count", "50"]).stdout
        let (small, smallJSON) = try Self.audit("id\n" + few)
        #expect(
            small.status == 0 && (smallJSON["nodes"] as? [String: Any])?["scheme"] as? String == format, "\(smallJSON["findings"] ?? "")")
        // More UUIDs than one in a thousand (40, 5,000, or 30,000: more than the node ids, a second
        // service's): a group of their own, and the node ids still read by their layout beside them
        // (a line of another length is no miss for a layout); a repeat among either still fails.
        for count in ["40", "5000", "30000"] {
            let many = try CLI.run(["generate", "--scheme", "uuid4", "--count", count]).stdout
            let (mixed, mixedJSON) = try Self.audit("id\n" + ids + many)
            let groups = (mixedJSON["groups"] as? [[String: Any]] ?? []).compactMap { $0["format"] as? String }
            #expect(mixed.status == 0 && groups.count == 2 && groups.contains("UUIDv4"), "\(mixedJSON["findings"] ?? mixed.stderr)")
            // The node group is read in its layout (not as tokens); it decides the report's top figures
            // while it is the larger group.
            #expect(groups.contains { $0 != "UUIDv4" && !$0.hasPrefix("tokens") }, "\(groups)")
            if count != "30000" {
                #expect((mixedJSON["nodes"] as? [String: Any])?["scheme"] as? String == format, "\(mixedJSON["findings"] ?? "")")
            }
            #expect(try SchemaTests.validate(mixed.stdout).status == 0)
            let uuid = many.split(separator: "\n")[3] + "\n"
            for copy in [String(ids.split(separator: "\n")[9]) + "\n", String(uuid)] {
                let (again, j) = try Self.audit(ids + many + copy)
                #expect(again.status == 1 && j["verdict_code"] as? String == "too-many-duplicates", "\(j["findings"] ?? again.stderr)")
            }
        }
    }

    /// Snowflakes whose clock crossed a power of ten (18 digits, then 19) beside UUIDv4s of another
    /// service: the decimal lengths are one group, read in the layout.
    @Test func snowflakesOfTwoLengthsBesideUUIDs() throws {
        let epoch: UInt64 = 1_288_834_974_657
        var ids: [String] = []
        for (start, count) in [(UInt64(200_000_000_000), 3000), (UInt64(300_000_000_000), 3000)] {
            for i in 0..<UInt64(count) { ids.append(String((start + i / 4) << 22 | 3 << 12 | i % 4)) }
        }
        #expect(ids.first?.count == 18 && ids.last?.count == 19 && epoch > 0)
        let uuids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "2000"]).stdout
        let (r, json) = try Self.audit(ids.joined(separator: "\n") + "\n" + uuids)
        #expect(r.status == 0 && json["nodes"] != nil, "\(json["findings"] ?? r.stderr)")
        #expect((json["findings"] as? [String])?.first?.hasPrefix("2 groups") == true, "\(json["findings"] ?? "")")
        let (again, j) = try Self.audit(ids.joined(separator: "\n") + "\n" + uuids + ids[4000] + "\n")
        #expect(again.status == 1 && j["verdict_code"] as? String == "too-many-duplicates", "\(j["findings"] ?? again.stderr)")
    }

    /// A decimal node-id log beside more TypeIDs than the strays (25 or 5,000 `user_…`): the TypeIDs
    /// one group, the node ids read in their layout in theirs (they were decimal tokens, biased); a
    /// node id copied among them still fails.
    @Test(arguments: [("snowflake", 25), ("discord", 5000), ("instagram", 25), ("sonyflake", 5000)])
    func decimalNodeIDsBesideTypeIDs(format: String, typeIDs: Int) throws {
        let nodes = try CLI.run(["generate", "--scheme", format, "--count", "20000"]).stdout
        let others = try CLI.run(["generate", "--scheme", "typeid", "--prefix", "user", "--count", "\(typeIDs)"]).stdout
        let (r, json) = try Self.audit(nodes + others)
        #expect(r.status == 0 && json["passes"] as? Bool == true, "\(json["findings"] ?? r.stderr)")
        #expect(
            (json["findings"] as? [String])?.first?.contains("(TypeID, n = \(typeIDs)): consistent") == true, "\(json["findings"] ?? "")")
        let copied = nodes + others + nodes.split(separator: "\n").prefix(1).joined() + "\n"
        #expect(try Self.audit(copied).0.status == 1)
    }

    @Test(arguments: ["snowflake", "discord", "instagram", "sonyflake", "tsid", "xid", "objectid"])
    func generatedStreamsAuditAsTheirFormat(format: String) throws {
        let ids = try CLI.run(["generate", "--scheme", format, "--node", "7", "--count", "20000"]).stdout
        let (r, json) = try Self.audit(ids, ["--scheme", format])
        #expect(r.status == 0, "\(r.stdout)")
        let n = try #require(json["nodes"] as? [String: Any])
        // xid's and ObjectId's 24-bit counters start at random: 20,000 ids wrap one past 2^24 about once
        // in 840 runs (20,000/2^24), and that wrap is one regression, as their specs have it.
        let wraps = format == "xid" || format == "objectid" ? ["0", "1"] : ["0"]
        #expect(n["scheme"] as? String == format && n["distinct"] as? String == "1" && wraps.contains(n["regressions"] as? String ?? ""))
        #expect(json["passes"] as? Bool == true && json["format"] as? String != nil)
        #expect(try SchemaTests.validate(r.stdout).status == 0)
        // Without --scheme the reading is still one that fits, and says so.
        let (_, guess) = try Self.audit(ids)
        let fits = (guess["nodes"] as? [String: Any])?["fits"] as? [String] ?? []
        #expect(fits.contains(format), "\(fits)")
    }

    /// Two processes that took the same worker id: their ids repeat; exit 1 and the finding says why.
    @Test func twoNodesWithOneWorkerIDFail() throws {
        let env = ["IDBUDGET_TEST_CLOCK_MS": "1795650000000"]
        let a = try CLI.run(["generate", "--scheme", "snowflake", "--node", "9", "--count", "500"], environment: env).stdout
        let b = try CLI.run(["generate", "--scheme", "snowflake", "--node", "9", "--count", "500"], environment: env).stdout
        let (r, json) = try Self.audit(a + b)
        #expect(r.status == 1)
        #expect(json["verdict_code"] as? String == "too-many-duplicates" && json["extra_occurrences"] as? String == "500")
        #expect((json["verdict"] as? String ?? "").contains("two live nodes share"))
        // Text too: the nodes and the regressions are rows of their own.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nodes-text-\(UUID().uuidString)")
        try Data((a + b).utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try CLI.run(["audit", file.path])
        #expect(text.status == 1 && text.stdout.contains("clock regressions") && text.stdout.contains("1 distinct (worker id)"))
    }

    /// The summary's `node_formats` equals the Python reference's (Tests/Oracles/audit_summary_ref.py,
    /// written from docs/audit-summary.md): a Snowflake stream with a repeat and a clock set back, an
    /// xid stream, a shuffled xid stream (regressions everywhere, across every thread's part), a
    /// stream that is no node-id format's (6,000 ObjectIds of 1970 before 5,000 of now: the layout
    /// stops), and 1,100 of 1970 before 60,000 (two blocks: it reads on, its misses fewer than its
    /// ids) — at 1, 3 and 8 threads, the same summary.
    @Test(arguments: ["snowflake", "xid", "shuffled", "mixed", "front"])
    func summaryEqualsThePythonReference(kind: String) throws {
        let scheme = kind == "mixed" || kind == "front" ? "objectid" : kind == "shuffled" ? "xid" : kind
        let count = kind == "shuffled" || kind == "front" ? "60000" : "5000"
        var ids = try CLI.run(["generate", "--scheme", scheme, "--count", count]).stdout
        if kind == "shuffled" {
            var lines = ids.split(separator: "\n")
            var random = SplitMix(state: 35)
            for i in stride(from: lines.count - 1, to: 0, by: -1) { lines.swapAt(i, Int(random.next() % UInt64(i + 1))) }
            ids = lines.joined(separator: "\n") + "\n"
        }
        let lines = ids.split(separator: "\n")
        ids += lines.prefix(3).joined(separator: "\n") + "\n"  // a repeat, from earlier: a regression
        // 1970: no ObjectId of this century. Past 1,000 such lines, and the ids read, the layout stops.
        let old = { (n: Int) in (0..<n).map { String(format: "0123456789abcdef%08x", $0) }.joined(separator: "\n") + "\n" }
        if kind == "mixed" { ids = old(6000) + ids }
        if kind == "front" { ids = old(1100) + ids }
        let dir = FileManager.default.temporaryDirectory
        let (file, ours, theirs) = (
            dir.appendingPathComponent("n-\(UUID().uuidString)"), dir.appendingPathComponent("o-\(UUID().uuidString)"),
            dir.appendingPathComponent("t-\(UUID().uuidString)")
        )
        defer { for u in [file, ours, theirs] { try? FileManager.default.removeItem(at: u) } }
        try Data(ids.utf8).write(to: file)
        let ref = try CLI.python("audit_summary_ref.py", ["summarise", file.path, "-o", theirs.path])
        #expect(ref.status == 0, "\(ref.output)")
        for threads in ["1", "3", "8"] {
            let r = try CLI.run(["audit", file.path, "--threads", threads, "--emit-summary", ours.path, "--format", "json"])
            #expect(r.status == 1, "\(threads): \(r.stderr)")  // a repeat either way
            let diff = try CLI.python("audit_summary_ref.py", ["compare", ours.path, theirs.path])
            #expect(diff.status == 0, "\(threads) threads: \(diff.output)")
        }
        let summary = try String(contentsOf: ours, encoding: .utf8)
        #expect(summary.contains("\"node_formats\"") == (kind != "mixed"))
    }

    /// Node-id logs in any order (shuffled, merged from many processes, several workers) are read by
    /// their fields, pass, and say they are out of order; a shuffled Snowflake log too, when no layout
    /// reads it in order (its times, nodes and ticks fit, as random numbers' do not). The Snowflakes
    /// are a service's: 5 workers, 10 ids a millisecond each for 400 ms.
    /// A busy service's too ("busy": 600 ids a millisecond a worker, a tick opened once in 600 ids,
    /// told by sequences that stay below 2,048), and full workers' ("full": `generate` mints 4,096 a
    /// millisecond, every tick full, told by their density: random numbers that dense would repeat).
    @Test(arguments: ["xid", "objectid", "snowflake", "discord", "tsid", "busy", "full"])
    func shuffledLogsAreRead(kind: String) throws {
        var ids: [String] = []
        let scheme = kind == "busy" || kind == "full" ? "snowflake" : kind
        let epochs: [String: UInt64] = ["snowflake": 1_288_834_974_657, "discord": 1_420_070_400_000]
        let (ticks, perTick): (UInt64, UInt64) = kind == "busy" ? (20, 600) : (400, 10)
        if let epoch = epochs[scheme], kind != "full" {
            let start = UInt64(Date().timeIntervalSince1970 * 1000) - epoch - 86_400_000
            for node: UInt64 in 1...5 {
                for tick: UInt64 in 0..<ticks {
                    for sequence: UInt64 in 0..<perTick {
                        let id: UInt64 = (start + tick) << 22 | node << 12 | sequence
                        ids.append(String(id))
                    }
                }
            }
        } else {
            // Full workers mint at once: one clock for all five (4,000 ids each, within one tick).
            let clock = kind == "full" ? ["IDBUDGET_TEST_CLOCK_MS": String(Int(Date().timeIntervalSince1970 * 1000) - 3_600_000)] : [:]
            for node in 1...5 {
                ids += try CLI.run(["generate", "--scheme", scheme, "--node", String(node), "--count", "4000"], environment: clock).stdout
                    .split(separator: "\n").map(String.init)
            }
        }
        var random = SplitMix(state: 12)
        for i in stride(from: ids.count - 1, to: 0, by: -1) { ids.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        let (r, json) = try Self.audit(ids.joined(separator: "\n") + "\n")
        let findings = json["findings"] as? [String] ?? []
        #expect(r.status == 0 && (json["nodes"] as? [String: Any])?["scheme"] as? String == scheme, "\(findings)")
        #expect(findings.contains { $0.contains("not in time order") }, "\(findings)")
    }

    /// ObjectIds beside cuid2s (both 24 characters): split by the first character and judged apart,
    /// a header set aside; a repeated id of either fails, and so does a stuck or narrowed cuid2.
    @Test func objectIDsBesideCuid2sAreTwoFormats() throws {
        let objectIDs = try CLI.run(["generate", "--scheme", "objectid", "--count", "3000"]).stdout
        let cuid2s = try CLI.run(["generate", "--scheme", "cuid2", "--count", "500"]).stdout
        let (r, json) = try Self.audit("id\n" + objectIDs + cuid2s)
        let findings = (json["findings"] as? [String] ?? []).joined(separator: " | ")
        #expect(r.status == 0 && findings.contains("3000 ObjectIds read by their fields, 500 cuid2s"), "\(findings)")
        for again in [objectIDs.split(separator: "\n")[9], cuid2s.split(separator: "\n")[9]] {
            let (d, dj) = try Self.audit("id\n" + objectIDs + cuid2s + again + "\n")
            #expect(d.status == 1 && dj["verdict_code"] as? String == "too-many-duplicates", "\(dj["findings"] ?? d.stderr)")
        }
        // A cuid2 generator stuck past its twelfth character, or narrowed to hex after its letter:
        // seen through the letters g–z only cuid2s write, it fails; its duplicates alone would not show it.
        let lines = cuid2s.split(separator: "\n").map(String.init)
        var random = SplitMix(state: 41)
        let hex = Array("0123456789abcdef")
        for broken in [
            lines.map { $0.prefix(12) + "zzzzzzzzzzzz" },
            lines.map { String($0.prefix(1)) + String((0..<23).map { _ in hex[Int(random.next() % 16)] }) },
        ] {
            let (b, bj) = try Self.audit("id\n" + objectIDs + broken.joined(separator: "\n") + "\n")
            #expect(b.status == 1 && bj["verdict_code"] as? String == "non-uniform-positions", "\(bj["findings"] ?? b.stderr)")
        }
    }

    /// A migration's log, ObjectIds first and then many more cuid2s (or the two shuffled): the
    /// cuid2s are no misses for the ObjectId layout, which reads on through them (it stopped once
    /// more than 1,000 of them outnumbered the ObjectIds, and the mix was judged as one biased stream).
    @Test func cuid2sOutnumberingObjectIDsAreStillTwoFormats() throws {
        let objectIDs = try CLI.run(["generate", "--scheme", "objectid", "--count", "500"]).stdout
        let cuid2s = try CLI.run(["generate", "--scheme", "cuid2", "--count", "6000"]).stdout
        var lines = (objectIDs + cuid2s).split(separator: "\n").map(String.init)
        let (r, json) = try Self.audit(lines.joined(separator: "\n") + "\n")
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? "")")
        var random = SplitMix(state: 7)
        for i in stride(from: lines.count - 1, to: 0, by: -1) { lines.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        let (m, mj) = try Self.audit(lines.joined(separator: "\n") + "\n")
        let findings = (mj["findings"] as? [String] ?? []).joined(separator: " | ")
        #expect(m.status == 0 && findings.contains("500 ObjectIds read by their fields, 6000 cuid2s"), "\(findings)")
        let (d, dj) = try Self.audit(lines.joined(separator: "\n") + "\n" + lines[4321] + "\n")
        #expect(d.status == 1 && dj["verdict_code"] as? String == "too-many-duplicates", "\(dj["findings"] ?? d.stderr)")
    }

    /// A cuid2 log holding a few ObjectIds (fewer than 8: a test's, left behind) is the mix too, not one
    /// stream whose letter-only first position looks biased. A cuid2 whose first letter is stuck, or
    /// which writes `0` for every symbol an ObjectId writes too (its letters g–z as they should be),
    /// fails beside ObjectIds: the first letters and a floor under each shared symbol are tested.
    @Test func aFewObjectIDsAmongCuid2sAndCuid2sNarrowedWhereObjectIDsWrite() throws {
        let objectIDs = try CLI.run(["generate", "--scheme", "objectid", "--count", "250"]).stdout.split(separator: "\n")
        let cuid2s = try CLI.run(["generate", "--scheme", "cuid2", "--count", "5000"]).stdout.split(separator: "\n")
        var random = SplitMix(state: 11)
        for k in [1, 3, 7] {
            var lines = (objectIDs.prefix(k) + cuid2s).map(String.init)
            for i in stride(from: lines.count - 1, to: 0, by: -1) { lines.swapAt(i, Int(random.next() % UInt64(i + 1))) }
            let (r, json) = try Self.audit("id\n" + lines.joined(separator: "\n") + "\n")
            let findings = (json["findings"] as? [String] ?? []).joined(separator: " | ")
            let read = k == 1 ? "1 ObjectId read" : "\(k) ObjectIds read"
            #expect(r.status == 0 && findings.contains("\(read) by their fields, 5000 cuid2s"), "\(k): \(findings)")
        }
        let shared = Set("0123456789abcdef")
        for broken in [
            cuid2s.map { "a" + $0.dropFirst() },
            cuid2s.map { String($0.prefix(1)) + String($0.dropFirst().map { shared.contains($0) ? "0" : $0 }) },
        ] {
            let (b, bj) = try Self.audit((objectIDs.map(String.init) + broken).joined(separator: "\n") + "\n")
            let findings = (bj["findings"] as? [String] ?? []).joined(separator: " | ")
            #expect(b.status == 1 && bj["verdict_code"] as? String == "non-uniform-positions", "\(findings)")
            #expect(findings.contains("ObjectIds read by their fields"), "\(findings)")
        }
    }

    /// A log sorted newest first is still read by its fields, and says so; a declared `--scheme` the
    /// ids are not fails as invalid ids.
    @Test func newestFirstAndSchemesThatDoNotFit() throws {
        let ids = try CLI.run(["generate", "--scheme", "snowflake", "--count", "5000"]).stdout.split(separator: "\n")
        let (r, json) = try Self.audit(ids.reversed().joined(separator: "\n") + "\n")
        #expect(r.status == 0 && (json["nodes"] as? [String: Any])?["scheme"] as? String != nil, "\(json["findings"] ?? "")")
        #expect((json["findings"] as? [String] ?? []).contains { $0.contains("newest first") })
        let tsids = try CLI.run(["generate", "--scheme", "tsid", "--count", "2000"]).stdout
        let (w, wrong) = try Self.audit(tsids, ["--scheme", "snowflake"])
        #expect(w.status == 1 && wrong["verdict_code"] as? String == "invalid-ids", "\(wrong["findings"] ?? "")")
        #expect((wrong["findings"] as? [String])?.contains { $0.contains("is read as snowflake") } == true)
    }

    /// Two 18-digit numbers on one of Discord's nodes, in order, are too few to read a layout from
    /// unasked (random pairs land so once in 1,024); eight Snowflakes are read as one.
    @Test func aLayoutNeedsEightIds() throws {
        let (two, tj) = try Self.audit("412345678901234567\n412345678922206090\n")
        #expect(two.status == 0 && tj["nodes"] == nil && tj["format"] as? String == "tokens over decimal", "\(tj["findings"] ?? "")")
        let ids = try CLI.run(["generate", "--scheme", "snowflake", "--count", "8"]).stdout
        let (eight, ej) = try Self.audit(ids)
        #expect(eight.status == 0 && (ej["nodes"] as? [String: Any])?["scheme"] as? String != nil, "\(ej["findings"] ?? "")")
    }

    @Test(arguments: [
        (["audit", "--scheme", "apns-collapse-id", "-"], "--scheme"),
        (["audit", "--scheme", "nope", "-"], "--scheme"),
        (["audit", "--scheme", "snowflake", "--bits", "64", "-"], "--bits"),
    ])
    func badUsageNamesTheArgument(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }
}
