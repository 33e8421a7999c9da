import Foundation
import TestSupport
import Testing

/// Node-id formats (the Snowflake family, xid, ObjectId, TSID, UUIDv1/v6): p is that two live nodes
/// share a node value, the birthday bound over the node field, checked against exact fractions
/// (Python, Tests/Oracles/reference.py's formatter); 0 with assigned ids; the per-node ceiling noted.
@Suite(.oracles) struct NodeIDCLITests {
    /// p(2^bits, nodes) = 1 − ∏_{i<nodes}(1 − i/2^bits), exactly, to 30 digits.
    static func exact(bits: Int, nodes: Int) throws -> String {
        try Oracle.python(
            """
            from fractions import Fraction
            from reference import fmt_fraction
            d, n, q = 2**\(bits), \(nodes), Fraction(1)
            for i in range(n): q *= Fraction(d - i, d)
            print(fmt_fraction(1 - q))
            """)
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
        // More assigned nodes than values: two share one however assigned (p = 1, an answer as `length`
        // gives it); spread evenly, 976 of the 1,024 values hold two of the 2,000 nodes.
        let overfull = try CLI.json(["probability", "--scheme", "snowflake", "--nodes", "2000", "--node-ids", "assigned"])
        #expect(CLI.at(overfull, "collision.probability") as? String == "1.00000000000000000000000000000e+0")
        #expect(CLI.at(overfull, "collision.complement") as? String == "0")
        #expect(CLI.at(overfull, "collision.expected_collisions") as? String == "9.76000000000000000000000000000e+2")
        let fit = try CLI.json([
            "length", "--scheme", "snowflake", "--nodes", "2000", "--node-ids", "assigned", "--max-probability", "1e-9",
        ])
        #expect(CLI.at(fit, "format.collision.expected_collisions") as? String == "9.76000000000000000000000000000e+2")
        // UUIDv1 as idbudget mints it (a random node and clock sequence) by default; MAC addresses assigned: 0.
        let mac = try CLI.json(["probability", "--scheme", "uuid1", "--nodes", "1000", "--node-ids", "assigned"])
        #expect(CLI.at(mac, "collision.probability") as? String == "0")
        // The case: 10^6 random-node generators, over 2^61 (2.168e−7), not the node's 2^47 (3.546e−3).
        let v1 = try CLI.json(["probability", "--scheme", "uuid1", "--nodes", "1e6"])
        #expect((CLI.at(v1, "collision.probability") as? String)?.hasPrefix("2.168") == true, "\(v1)")
    }

    /// xid and ObjectId start each process's 24-bit counter at random and let it run on: two processes
    /// with one node value mint a common id only where their counters come within m − 1 of each other
    /// (m ids a second each). p over K nodes is 1 − ∏_{i=1}^{K−1}(1 − (K(m − 1) + i)/2^64) (docs/math.md;
    /// CounterOverlapTests checks the identity by brute force on small fields), here as an exact
    /// fraction in Python; without a rate, and at the ceiling, it is the birthday over node values.
    @Test(arguments: [("xid", 50, 1000), ("objectid", 2000, 1), ("xid", 3, 8_000_000)])
    func countersStartedAtRandomMeetRarely(scheme: String, nodes: Int, perSecond: Int) throws {
        let json = try CLI.json(["probability", "--scheme", scheme, "--nodes", String(nodes), "--rate", "\(perSecond)/s"])
        let want = try Oracle.python(
            """
            from fractions import Fraction
            from reference import fmt_fraction
            N, K, m, q = 2**64, \(nodes), \(perSecond), Fraction(1)
            for i in range(1, K): q *= Fraction(N - K * (m - 1) - i, N)
            print(fmt_fraction(1 - q))
            """)
        // Past K(m − 1) < 2^24 (3 nodes at 8·10^6/s) the one-ring product is a bound's centre: fewer digits,
        // each of them the product's.
        let printed = CLI.at(json, "collision.probability") as? String ?? ""
        if nodes * (perSecond - 1) < 1 << 24 {
            #expect(printed == want, "\(scheme) \(nodes) at \(perSecond)/s")
        } else {
            let parts = printed.split(separator: "e")
            let digits = parts[0].replacingOccurrences(of: ".", with: "")
            #expect(digits.count >= 8 && digits.count < 30, "\(printed)")
            #expect(
                DecimalText.rounded(want, to: digits.count) == (digits, Int(parts.last ?? "") ?? 0), "\(printed) against \(want)")
        }
        #expect((json["notes"] as? [String])?.first?.contains("counters started at random") == true)
        // The birthday over node values is what it was without a rate: an upper bound.
        let plain = try CLI.json(["probability", "--scheme", scheme, "--nodes", String(nodes)])
        #expect(CLI.at(plain, "collision.probability") as? String == (try Self.exact(bits: 40, nodes: nodes)))
    }

    /// Far past K(m − 1) ≥ 2^24 (1.79·10^9 xid processes at 1,000/s) the one-ring product still holds
    /// to 30 digits (its error bound is e^−383000): p, 1 − p and C(K, 2)(2m − 1)/2^64 expected pairs
    /// against mpmath's log-gamma of the product. Further on (10^12 processes) the bound no longer
    /// separates 1 − p from 0: a one-line refusal naming --nodes with the range the exclusion arcs
    /// give, never the node-value birthday (which would put 1 − p near 10^−635000).
    @Test func farPastTheRing() throws {
        let json = try CLI.json(["probability", "--scheme", "xid", "--nodes", "1790000000", "--rate", "1000/s"])
        let want = try Oracle.python(
            """
            from fractions import Fraction
            from mpmath import mp, loggamma, log, exp, expm1
            from reference import fmt_mpf, fmt_fraction
            mp.dps = 90
            N, K, m = 2**64, 1790000000, 1000
            a = K * (m - 1)
            L = -(loggamma(N - a) - loggamma(N - a - K + 1) - (K - 1) * log(N))
            print(fmt_mpf(-expm1(-L)), fmt_mpf(exp(-L)), fmt_fraction(Fraction(K * (K - 1) // 2 * (2 * m - 1), N)))
            """
        ).split(separator: " ").map(String.init)
        #expect(CLI.at(json, "collision.probability") as? String == want[0])
        #expect(CLI.at(json, "collision.complement") as? String == want[1])
        #expect(CLI.at(json, "collision.expected_collisions") as? String == want[2])
        let far = try CLI.expectUsageError(["probability", "--scheme", "xid", "--nodes", "1e12", "--rate", "1000/s"], naming: "--nodes")
        #expect(far.stderr.contains("lies between about"), "\(far.stderr)")
    }

    /// At the ceiling (2^24 ids a second) any two processes with one value meet: the birthday over 2^40.
    /// TSID draws its counter's start each millisecond: p stays the birthday, with how soon two nodes
    /// with one value meet at the rate given.
    @Test func ceilingAndTSID() throws {
        let full = try CLI.json(["probability", "--scheme", "xid", "--nodes", "1000", "--rate", "16777216/s"])
        #expect(CLI.at(full, "collision.probability") as? String == (try Self.exact(bits: 40, nodes: 1000)))
        let tsid = try CLI.json(["probability", "--scheme", "tsid", "--nodes", "50", "--rate", "100/s"])
        #expect(CLI.at(tsid, "collision.probability") as? String == (try Self.exact(bits: 10, nodes: 50)))
        #expect((tsid["notes"] as? [String])?.first?.contains("about every 410 s") == true, "\(tsid)")
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
        (["probability", "--scheme", "snowflake", "--nodes", "0"], "--nodes"),
        (["probability", "--scheme", "snowflake", "--nodes", "5", "--arrivals", "even"], "--arrivals"),
        (["probability", "--scheme", "snowflake", "--nodes", "5", "--node-ids", "sometimes"], "--node-ids"),
        (["probability", "--scheme", "snowflake", "--count", "1000"], "--nodes"),
        // Options a node-id question does not use are still read: a value that is none is refused.
        (["probability", "--scheme", "xid", "--nodes", "5", "--count", "abc"], "--count"),
        (["probability", "--scheme", "xid", "--nodes", "5", "--lifetime", "garbage"], "--lifetime"),
        (["probability", "--scheme", "xid", "--nodes", "5", "--growth", "zzz"], "--growth"),
        (["probability", "--scheme", "xid", "--nodes", "5", "--scopes", "abc"], "--scopes"),
        (["probability", "--scheme", "xid", "--nodes", "5", "--existing", "abc"], "--existing"),
        // Two spaces: the second one given is named.
        (["probability", "--scheme", "uuid4", "--space-size", "1e6", "--count", "1000"], "--space-size"),
        (["probability", "--scheme", "cuid2", "--length", "10", "--count", "5"], "--length"),
        (["probability", "--bits", "64", "--alphabet", "hex", "--length", "8", "--count", "5"], "--length"),
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
