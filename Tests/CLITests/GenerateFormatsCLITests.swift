import Foundation
import TestSupport
import Testing

/// `idbudget generate` for the node-id family and the other formats beyond the first eight: the node
/// and time the reference libraries read back (Tests/Oracles/inspect_ref.py: Python's uuid, uuid6,
/// epyxid, bson, tsidpy, and the Snowflakes' published layouts), raw output, and the bad inputs.
@Suite(.oracles) struct GenerateFormatsCLITests {
    /// `--node` and a fixed clock: the reference reads that node and that time in every id.
    @Test(arguments: [
        ("snowflake", "777", ["node": "777", "timestamp": "2026-11-25T23:40:00.123Z"]),
        ("discord", "34", ["node": "1", "pid": "2", "timestamp": "2026-11-25T23:40:00.123Z"]),
        ("instagram", "4321", ["node": "4321", "timestamp": "2026-11-25T23:40:00.123Z"]),
        ("sonyflake", "65535", ["node": "65535", "timestamp": "2026-11-25T23:40:00.12Z"]),
        ("tsid", "5", ["timestamp": "2026-11-25T23:40:00.123Z"]),
        ("xid", "1099511627775", ["node": "ffffff", "pid": "65535", "timestamp": "2026-11-25T23:40:00Z"]),
        ("objectid", "78187493530", ["node": "123456789a", "timestamp": "2026-11-25T23:40:00Z"]),
        ("uuid1", "2485377892354", ["node": "0242ac110002", "timestamp": "2026-11-25T23:40:00.1230000Z"]),
        ("uuid6", "2485377892354", ["node": "0242ac110002", "timestamp": "2026-11-25T23:40:00.1230000Z"]),
    ])
    func theReferenceReadsTheNodeAndTheTime(format: String, node: String, want: [String: String]) throws {
        let r = try CLI.run(
            ["generate", "--scheme", format, "--node", node, "--count", "50"], environment: ["IDBUDGET_TEST_CLOCK_MS": "1795650000123"])
        #expect(r.status == 0, "\(r.stderr)")
        let ids = r.stdout.split(separator: "\n").map(String.init)
        #expect(ids.count == 50 && Set(ids).count == 50)
        let read = try Oracle.run(
            "inspect_ref.py", ["read"], input: ids.map { "\(format) \($0)" }.joined(separator: "\n") + "\n", mergeErrors: false)
        let references = InspectCLITests.lines(read.output)
        try #require(references.count == 50, "\(read.output)")
        for ref in references {
            #expect(ref["error"] == nil, "\(ref)")
            // A TSID's counter starts each millisecond at a random value: 50 ids carry into the next
            // millisecond about once in 84 runs (as tsid-creator's do), so only the first id's time is fixed.
            for (key, value) in want where !((format.hasPrefix("uuid") || format == "tsid") && key == "timestamp") {
                #expect("\(ref[key] ?? "-")" == value, "\(format) \(key): \(ref)")
            }
        }
        // UUIDv1 and v6: one millisecond's ids take successive 100 ns ticks from its start.
        if format.hasPrefix("uuid") || format == "tsid" { #expect(references.first?["timestamp"] as? String == want["timestamp"]) }
    }

    /// `--output raw`: back-to-back binary ids that decode (Python's uuid, the layouts) to the same
    /// formats; 1,000,000 of them in the expected bytes.
    @Test(arguments: [("uuid7", 16), ("snowflake", 8), ("xid", 12), ("ksuid", 20), ("typeid", 16)])
    func rawOutputIsTheBinaryForm(format: String, size: Int) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let out = try FileHandle(
            forWritingTo: {
                FileManager.default.createFile(atPath: file.path, contents: nil)
                return file
            }())
        let r = try CLI.run(["generate", "--scheme", format, "--output", "raw", "--count", "1000"], output: out)
        try out.close()
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = Array(try Data(contentsOf: file))
        #expect(bytes.count == 1000 * size)
        let chunks = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<$0 + size]) }
        #expect(Set(chunks).count == 1000)
        let check = try CLI.python("check_raw.py", [String(size), format, file.path])
        #expect(check.output.hasPrefix("ok"), "\(check.output)")
    }

    /// uuid7's stamps are the real-time clock's while the CLI runs, whether the CPU counter stands in
    /// between reads of it (the default where the CPU has one) or every read is of the clock itself.
    @Test(arguments: [[:], ["IDTOKENS_CLOCK": "realtime"]])
    func stampsAreTheRealTimeClocks(environment: [String: String]) throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        let r = try CLI.run(["generate", "--scheme", "uuid7", "--count", "200000"], environment: environment)
        let after = UInt64(Date().timeIntervalSince1970 * 1000) + 1
        #expect(r.status == 0, "\(r.stderr)")
        let stamps = r.stdout.split(separator: "\n").compactMap { UInt64($0.prefix(8) + $0.dropFirst(9).prefix(4), radix: 16) }
        #expect(stamps.count == 200_000)
        #expect(stamps.allSatisfy { $0 >= before && $0 <= after }, "\(stamps.min() ?? 0)…\(stamps.max() ?? 0) outside \(before)…\(after)")
    }

    @Test func manyIdsPastTheCeilingStayUnique() throws {
        // Sonyflake: 256 ids per 10 ms a machine; 300,000 in well under a second borrow ticks ahead.
        let r = try CLI.run(["generate", "--scheme", "sonyflake", "--node", "1", "--count", "300000"])
        let ids = r.stdout.split(separator: "\n")
        #expect(ids.count == 300_000 && Set(ids).count == 300_000)
        let numbers = ids.compactMap { UInt64($0) }
        #expect(numbers == numbers.sorted())
    }

    @Test(arguments: [
        (["--scheme", "uuid4", "--node", "1"], "--node"),
        (["--scheme", "snowflake", "--node", "1024"], "--node"),
        (["--scheme", "discord", "--node", "-1"], "--node"),
        (["--scheme", "sonyflake", "--node", "x"], "--node"),
        (["--alphabet", "hex", "--node", "1"], "--node"),
        (["--scheme", "xid", "--epoch", "0"], "--epoch"),
        (["--scheme", "snowflake", "--epoch", "99999999999999999999"], "--epoch"),
        (["--alphabet", "hex", "--epoch", "1"], "--epoch"),
        (["--scheme", "nanoid", "--output", "raw"], "--output"),
        (["--scheme", "cuid2", "--output", "raw"], "--output"),
        (["--scheme", "uuid4", "--output", "hex"], "--output"),
        (["--alphabet", "hex", "--output", "raw"], "--output"),
        (["--scheme", "uuid4", "--output", "raw", "--prefix", "x_"], "--prefix"),
        (["--scheme", "snowflake", "--monotonic"], "--monotonic"),
        (["--scheme", "instagram", "--epoch", "0"], "--epoch"),  // from 1970 its 40 time bits end in 2004
        (["--scheme", "snowflake", "--epoch", "4102444800000"], "--epoch"),  // 2100: after the clock
        (["--scheme", "typeid", "--prefix", "user", "--output", "raw"], "--prefix"),
    ])
    func badCombinationsAreRefused(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(["generate"] + arguments, naming: argument)
    }

    /// A run that outpaced its node's ceiling waits for the clock before it exits: the next run on the
    /// same node (the outside tester's case) mints none of its ids.
    @Test func runsInARowOnOneNodeShareNoId() throws {
        let first = try CLI.run(["generate", "--scheme", "sonyflake", "--node", "3", "--count", "30000"])
        let second = try CLI.run(["generate", "--scheme", "sonyflake", "--node", "3", "--count", "30000"])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.seconds > 1.0, "30,000 Sonyflakes are 1.2 s of one node's ticks")
        #expect(first.stderr.contains("waiting") && first.stderr.split(separator: "\n").count == 1)
        let a = Set(first.stdout.split(separator: "\n"))
        let b = Set(second.stdout.split(separator: "\n"))
        #expect(a.count == 30_000 && b.count == 30_000 && a.isDisjoint(with: b))
    }

    @Test func rawOutputToAFullDiskIsAnIOError() throws {
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let r = try CLI.run(["generate", "--scheme", "snowflake", "--output", "raw", "--count", "100000"], output: full)
        #expect(r.status == 74 && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
