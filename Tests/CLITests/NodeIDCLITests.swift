import Foundation
import TestSupport
import Testing

/// Node-id formats (the Snowflake family, xid, ObjectId, TSID, UUIDv1/v6): p is that two live nodes
/// share a node value, the birthday bound over the node field, checked against exact fractions
/// (Python, Tests/Oracles/reference.py's formatter); 0 with assigned ids; the per-node ceiling noted.
@Suite struct NodeIDCLITests {
    /// p(2^bits, nodes) = 1 − ∏_{i<nodes}(1 − i/2^bits), exactly, to 30 digits.
    static func exact(bits: Int, nodes: Int) throws -> String {
        let script = """
            import sys; sys.path.insert(0, 'Tests/Oracles')
            from fractions import Fraction
            from reference import fmt_fraction
            d, n, q = 2**\(bits), \(nodes), Fraction(1)
            for i in range(n): q *= Fraction(d - i, d)
            print(fmt_fraction(1 - q))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        process.currentDirectoryURL = Repository.root
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [
        ("snowflake", 10, 50), ("discord", 10, 12), ("instagram", 13, 200), ("sonyflake", 16, 300), ("xid", 40, 1000), ("tsid", 10, 2),
        ("uuid1", 47 + 14, 1000), ("uuid6", 47 + 14, 3),
    ])
    func randomNodeIdsCollideByTheBirthdayBound(scheme: String, bits: Int, nodes: Int) throws {
        let json = try CLI.json(["probability", "--scheme", scheme, "--nodes", String(nodes)])
        #expect(CLI.at(json, "collision.probability") as? String == (try Self.exact(bits: bits, nodes: nodes)))
        #expect(CLI.at(json, "space.size") as? String == String(1 << bits))
    }

    /// The sentence: 50 Snowflake workers with random worker ids, p = 0.70; assigned, 0.
    @Test func fiftyWorkers() throws {
        let random = try CLI.json(["probability", "--scheme", "snowflake", "--nodes", "50"])
        #expect((CLI.at(random, "collision.probability") as? String)?.hasPrefix("7.03599891829") == true)
        let assigned = try CLI.json(["probability", "--scheme", "snowflake", "--nodes", "50", "--node-ids", "assigned"])
        #expect(CLI.at(assigned, "collision.probability") as? String == "0")
        #expect((assigned["notes"] as? [String])?.contains { $0.hasPrefix("node ids assigned") } == true)
        #expect(CLI.at(random, "volume.nodes") as? String == "50")
        // UUIDv1 as idbudget mints it (a random node and clock sequence) by default; MAC addresses assigned: 0.
        let mac = try CLI.json(["probability", "--scheme", "uuid1", "--nodes", "1000", "--node-ids", "assigned"])
        #expect(CLI.at(mac, "collision.probability") as? String == "0")
        // The case: 10^6 random-node generators, over 2^61 (2.168e−7), not the node's 2^47 (3.546e−3).
        let v1 = try CLI.json(["probability", "--scheme", "uuid1", "--nodes", "1e6"])
        #expect((CLI.at(v1, "collision.probability") as? String)?.hasPrefix("2.168") == true, "\(v1)")
    }

    @Test func theCeilingIsChecked() throws {
        let within = try CLI.json(["probability", "--scheme", "snowflake", "--nodes", "4", "--rate", "1e6/s"])
        #expect((within["notes"] as? [String])?.contains { $0.contains("1e6/s a node uses 24.4141% of it") } == true, "\(within)")
        let just = try CLI.json(["probability", "--scheme", "snowflake", "--nodes", "5", "--rate", "4097/ms"])
        #expect((just["notes"] as? [String])?.contains { $0.contains("(100.024% of its ceiling)") } == true, "\(just)")
        let over = try CLI.json(["probability", "--scheme", "sonyflake", "--nodes", "4", "--rate", "30000/s"])
        #expect((over["notes"] as? [String])?.contains { $0.contains("must wait for the next tick") } == true)
    }

    @Test(arguments: [
        (["capacity", "--scheme", "snowflake", "--max-probability", "1e-9"], "--scheme"),
        (["probability", "--scheme", "uuid4", "--count", "5", "--node-ids", "random"], "--node-ids"),
        (["probability", "--scheme", "snowflake", "--nodes", "2000", "--node-ids", "assigned"], "--nodes"),
        (["probability", "--scheme", "snowflake", "--nodes", "0"], "--nodes"),
        (["probability", "--scheme", "snowflake", "--nodes", "5", "--arrivals", "even"], "--arrivals"),
        (["probability", "--scheme", "snowflake", "--nodes", "5", "--node-ids", "sometimes"], "--node-ids"),
        (["probability", "--scheme", "snowflake", "--count", "1000"], "--nodes"),
    ])
    func refusedWithOneLine(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }

    @Test func schemesListsEveryFormatWithItsSource() throws {
        let json = try CLI.json(["schemes"])
        let names = Set((json["rows"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        for name in [
            "typeid", "cuid2", "xid", "objectid", "snowflake", "discord", "instagram", "sonyflake", "tsid", "uuid1", "uuid6", "uuid8",
            "firebase",
        ] {
            #expect(names.contains(name), "\(name) missing from schemes")
        }
        let v = try SchemaTests.validate(try CLI.run(["schemes", "--format", "json"]).stdout)
        #expect(v.status == 0, "\(v.output)")
    }
}
