import Foundation
import Testing

/// `length --scheme F` and `plan`'s format rows: whether a fixed format is within budget, and the
/// fewest bits that would be, against `format_fit` in Tests/Oracles/planning_ref.py (mpmath bisection
/// over the bits, through Tests/IDBudgetTests/Reference/planning.json). Exit status 1 when the format
/// is over budget, so a CI job can act on it.
@Suite struct FormatFitCLITests {
    static func reference(_ label: String) -> [String: Any] {
        (PlanningCLITests.reference["format_fits"] as? [[String: Any]] ?? []).first { $0["label"] as? String == label } ?? [:]
    }

    @Test(arguments: [
        ("uuid7 1e6/s 10y 1e-11 (the seed)", ["--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"]),
        ("uuid7 500/s 10y 1e-9", ["--scheme", "uuid7", "--rate", "500/s", "--lifetime", "10y", "--max-probability", "1e-9"]),
        ("ksuid 1e9/s 30d 1e-12", ["--scheme", "ksuid", "--rate", "1e9/s", "--lifetime", "30d", "--max-probability", "1e-12"]),
        ("uuid4 1e12 ids 1e-9", ["--scheme", "uuid4", "--count", "1e12", "--max-probability", "1e-9"]),
        ("nanoid 1e9 ids 1e-12", ["--scheme", "nanoid", "--count", "1e9", "--max-probability", "1e-12"]),
        ("snowflake 50 random nodes 1e-6", ["--scheme", "snowflake", "--nodes", "50", "--max-probability", "1e-6"]),
        // Half a million bits: the certified comparison goes on raising its precision (an outside tester's case).
        (
            "uuid7 1e78878/s 1y 0.5 (half a million bits)",
            ["--scheme", "uuid7", "--rate", "1e78878/s", "--lifetime", "1y", "--max-probability", "0.5"]
        ),
        ("uuid4 1 id", ["--scheme", "uuid4", "--count", "1", "--max-probability", "1e-6"]),
    ])
    func lengthOfAFormat(label: String, arguments: [String]) throws {
        let ref = Self.reference(label)
        #expect(!ref.isEmpty, "no reference for \(label)")
        let r = try CLI.run(["length"] + arguments + ["--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let needed = try #require(CLI.at(json, "format.bits_needed") as? Int)
        let bits = try #require(CLI.at(json, "format.bits") as? Int)
        #expect(needed == ref["bits_needed"] as? Int, "\(label)")
        #expect(CLI.at(json, "format.collision.probability") as? String == ref["probability"] as? String, "\(label)")
        #expect(CLI.at(json, "format.within_budget") as? Bool == (bits >= needed))
        #expect(r.status == (bits >= needed ? 0 : 1), "\(label): exit \(r.status)")
        if let shortest = ref["shortest_length"] as? Int { #expect(CLI.at(json, "format.shortest_length") as? Int == shortest) }
        // The text form says the same, in one line a figure.
        let text = try CLI.run(["length"] + arguments)
        #expect(text.status == r.status)
        #expect(text.stdout.contains("bits needed") && text.stdout.contains(String(needed)))
    }

    /// The seed article's question: uuid7 is over budget (74 bits a millisecond, 94 needed), and exit 1 says so.
    @Test func seedQuestionFailsItsCheck() throws {
        let r = try CLI.run(["length", "--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"])
        #expect(r.status == 1)
        #expect(r.stdout.contains("NO: 20 bits short"), "\(r.stdout)")
        #expect(r.stderr.isEmpty)
        // uuid4 collides per id: 3.15e14 ids need 132 bits, between base62×22 (131.0) and ×23 (136.9),
        // so the 23 characters of the seed's answer; its 122 are 10 short.
        let v4 = try CLI.json(["length", "--scheme", "uuid4", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"])
        #expect(CLI.at(v4, "format.bits_needed") as? Int == 132)
        #expect(CLI.at(v4, "format.within_budget") as? Bool == false)
        let ksuid = try CLI.run(["length", "--scheme", "ksuid", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"])
        #expect(ksuid.status == 0, "\(ksuid.stdout)")
    }

    /// Assigned node ids need ⌈log2 nodes⌉ bits and collide never; more nodes than values share one.
    @Test func assignedNodes() throws {
        let json = try CLI.json(["length", "--scheme", "tsid", "--nodes", "1000", "--node-ids", "assigned", "--max-probability", "1e-9"])
        #expect(CLI.at(json, "format.bits_needed") as? Int == 10)
        #expect(CLI.at(json, "format.collision.probability") as? String == "0")
        #expect(CLI.at(json, "format.within_budget") as? Bool == true)
        // More nodes than values: two share one (p = 1 exactly), over budget — an answer, exit 1.
        let r = try CLI.run(["length", "--scheme", "snowflake", "--nodes", "1025", "--node-ids", "assigned", "--max-probability", "1e-9"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("bits needed               11") && r.stdout.contains("NO: 1 bit short"), "\(r.stdout)")
        let one = try CLI.json(["length", "--scheme", "snowflake", "--nodes", "1", "--max-probability", "1e-9"])
        #expect(CLI.at(one, "format.within_budget") as? Bool == true)
        #expect(CLI.at(one, "format.bits_needed") as? Int == 0)
    }

    @Test(arguments: [
        (["length", "--scheme", "uuid7", "--alphabet", "base62", "--count", "5", "--max-probability", "1e-9"], "--scheme"),
        (["length", "--scheme", "bogus", "--count", "5", "--max-probability", "1e-9"], "--scheme"),
        (["length", "--scheme", "snowflake", "--count", "5", "--max-probability", "1e-9"], "--nodes"),
        (["length", "--scheme", "uuid4", "--count", "5", "--node-ids", "assigned", "--max-probability", "1e-9"], "--node-ids"),
        (["length", "--alphabet", "hex", "--count", "5", "--node-ids", "assigned", "--max-probability", "1e-9"], "--node-ids"),
        (["length", "--scheme", "uuid7", "--count", "5", "--existing", "9", "--max-probability", "1e-9"], "--existing"),
        (["length", "--scheme", "snowflake", "--nodes", "5", "--arrivals", "even", "--max-probability", "1e-9"], "--arrivals"),
        (["length", "--scheme", "snowflake", "--nodes", "-5", "--max-probability", "1e-9"], "--nodes"),
        (["length", "--scheme", "uuid4", "--count", "5", "--max-probability", "1"], "--max-probability"),
        (["length", "--scheme", "uuid4", "--count", "5", "--max-probability", "1e-9", "--max-bytes", "0"], "--max-bytes"),
    ])
    func refused(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }

    /// `plan` adds a row per random format, each with its own model: the seed's uuid7 row agrees with
    /// `length --scheme uuid7`, and time-ordered formats are left out (with a note) when ids are stored.
    @Test func planListsTheFormats() throws {
        let json = try CLI.json(["plan", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"])
        let formats = try #require(json["formats"] as? [[String: Any]])
        let names = formats.compactMap { $0["scheme"] as? String }
        #expect(names == ["uuid4", "uuid7", "ulid", "ksuid", "nanoid", "typeid", "cuid2", "firebase", "uuid8"])
        let uuid7 = try #require(formats.first { $0["scheme"] as? String == "uuid7" })
        let ref = Self.reference("uuid7 1e6/s 10y 1e-11 (the seed)")
        #expect(uuid7["bits_needed"] as? Int == ref["bits_needed"] as? Int)
        #expect((uuid7["collision"] as? [String: Any])?["probability"] as? String == ref["probability"] as? String)
        #expect(uuid7["within_budget"] as? Bool == false)
        let stored = try CLI.json(["plan", "--count", "1e6", "--existing", "1e9", "--max-probability", "1e-9"])
        let kept = (stored["formats"] as? [[String: Any]] ?? []).compactMap { $0["scheme"] as? String }
        #expect(kept == ["uuid4", "nanoid", "cuid2", "uuid8"])
        #expect((stored["notes"] as? [String])?.contains { $0.hasPrefix("formats: uuid7 left out") } == true)
        let text = try CLI.run(["plan", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"])
        #expect(text.stdout.contains("formats: each with its own collision model"))
        // A growth too steep to evaluate for the time-ordered formats leaves them out, not the plan.
        let steep = try CLI.json(["plan", "--rate", "1e26/s", "--lifetime", "1y", "--growth", "2x/y", "--max-probability", "1e-11"])
        #expect((steep["rows"] as? [Any])?.count == 7)
        #expect((steep["notes"] as? [String])?.contains { $0.hasPrefix("formats: uuid7 left out") } == true)
        #expect((steep["formats"] as? [[String: Any]])?.contains { $0["scheme"] as? String == "uuid4" } == true)
    }
}
