import Foundation
import IDAudit
import IDBudget
import IDTokens
import TestSupport
import Testing

/// The library answers what the CLI answers: the typed API's JSON is the CLI's JSON for the same
/// question, byte for byte, and the audit's report decodes from the CLI's output.
@Suite struct LibraryContractTests {
    static func cli(_ arguments: [String]) throws -> String {
        let r = try CLI.run(arguments + ["--format", "json"])
        #expect(r.status == 0, "\(arguments): \(r.stderr)")
        return r.stdout.trimmingCharacters(in: .newlines)
    }

    static func same(_ answer: some Answer, _ arguments: [String]) throws {
        let library = try answer.jsonText()
        let cli = try cli(arguments)
        #expect(library == cli, "\(arguments)")
        if library != cli {
            let a = library.split(separator: "\n")
            let b = cli.split(separator: "\n")
            for (x, y) in zip(a, b) where x != y { Issue.record("library: \(x)\ncli:     \(y)") }
        }
    }

    @Test func planningAnswersAreTheCLIs() throws {
        // Dates are passed in (the CLI's --from), never read from the clock by the library.
        let day = try Planner.startDate(parsing: "2026-01-01")
        let length = try Planner.length(
            for: .base62, rate: .perSecond(1e6), lifetime: .years(10), budget: Budget(1e-11), from: day)
        #expect(length.length == 23)
        try Self.same(
            length,
            [
                "length", "--alphabet", "base62", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11", "--from",
                "2026-01-01",
            ])
        let undated = try Planner.length(for: .base62, rate: .perSecond(1e6), lifetime: .years(10), budget: 1e-11)
        #expect(undated.schedule?.from == nil && undated.schedule?.rows.allSatisfy { $0.fromDate == nil && $0.toDate == nil } != false)

        let uuid7 = try Planner.probability(for: .uuid7, rate: .perSecond(1e6), lifetime: .years(10))
        try Self.same(uuid7, ["probability", "--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "10y"])

        let tokens = try Planner.probability(for: .base62, length: 22, count: 1_000_000_000, scopes: 7)
        try Self.same(tokens, ["probability", "--alphabet", "base62", "--length", "22", "--count", "1000000000", "--scopes", "7"])

        let capacity = try Planner.capacity(for: .hex, length: 16, budget: Budget(1e-9), rate: .perMinute(2000), from: day)
        try Self.same(
            capacity,
            ["capacity", "--alphabet", "hex", "--length", "16", "--max-probability", "1e-9", "--rate", "2000/min", "--from", "2026-01-01"])

        let schemeCapacity = try Planner.capacity(for: .ulid, budget: Budget(1e-6), rate: .perSecond(5e5), from: day)
        try Self.same(
            schemeCapacity, ["capacity", "--scheme", "ulid", "--max-probability", "1e-6", "--rate", "500000/s", "--from", "2026-01-01"])

        let plan = try Planner.plan(rate: .perHour(3.5e7), lifetime: .days(30), budget: Budget(0.001), nodes: 4)
        try Self.same(plan, ["plan", "--rate", "35e6/h", "--lifetime", "30d", "--max-probability", "0.001", "--nodes", "4"])
    }

    @Test func typedInputsSayWhatWasMeant() throws {
        #expect(try Rate.perSecond(1e6).text == "1e6/s")
        #expect(try Rate.perSecond(2000).text == "2000/s")
        #expect(try Rate(perSecond: 0.1).perSecond == (BigInt(1), BigInt(10)))
        #expect(try Lifetime.years(10).text == "10y")
        #expect(
            try Lifetime(.milliseconds(1500)).seconds.numerator * BigInt(2) == (try Lifetime(.milliseconds(1500)).seconds.denominator)
                * BigInt(3))
        #expect(try Budget(1e-11).text == "1e-11")
        #expect(try Budget(1e-9).text == "1e-9")
        #expect(try Rate.perSecond(1e20).text == "1e20/s")
        #expect(try Rate.perSecond(2.5e-7).text == "2.5e-7/s")
        // What the CLI refuses, the typed API refuses: an error, never a trap.
        #expect(throws: InputError.self) { try Rate.perSecond(-1) }
        #expect(throws: InputError.self) { try Rate.perSecond(.nan) }
        #expect(throws: InputError.self) { try Lifetime.years(.infinity) }
        #expect(throws: InputError.self) { try Lifetime(.seconds(0)) }
        #expect(throws: InputError.self) { try Lifetime(.seconds(-3)) }
        #expect(throws: InputError.self) { try Budget(1) }
        #expect(throws: InputError.self) { try Budget(0) }
        // A value read at run time (a literal in source is a constant: `Budget(-1e-3)` is refused at once).
        let negative = -1e-3
        #expect(throws: InputError("'-0.001' is negative; give a probability strictly between 0 and 1, such as 1e-11")) {
            try Budget(negative)
        }
        #expect(throws: InputError.self) { try Planner.length(for: .base62, count: 0, budget: Budget(1e-6)) }
        #expect(throws: InputError.self) { try Planner.plan(count: 10, budget: Budget(1e-6), scopes: -1) }
    }

    /// What a consumer writes: literals for the inputs, a decimal answer that converts with `Double(_:)`.
    /// The digits are mpmath's (Tests/IDBudgetTests/Reference/reference.json, the article's base62^23).
    @Test func literalsInDecimalsOut() throws {
        let answer = try Planner.length(for: .base62, rate: .perSecond(1e6), lifetime: .years(10), budget: 1e-11)
        #expect(answer.length == 23)
        #expect(answer.collision.probability.description == "2.96192706207961307114354150383e-13")
        #expect(Double(answer.collision.probability) == 2.96192706207961307114354150383e-13)
        #expect(Double(answer.collision.complement) == 9.99999999999703807293792038693e-1)
        let typed = try Planner.length(for: .base62, rate: "1e6/s", lifetime: "10y", budget: "1e-11")
        #expect(try typed.jsonText() == answer.jsonText())
        // Equal as numbers, encoded as written.
        #expect(Budget(floatLiteral: 1e-3) == Budget(stringLiteral: "0.001"))
        #expect(Rate(stringLiteral: "60/min") == Rate(stringLiteral: "1/s"))
        #expect(Lifetime(stringLiteral: "1d") == Lifetime(stringLiteral: "24h"))
        #expect(Lifetime(stringLiteral: "1d") != Lifetime(stringLiteral: "25h"))
        struct Inputs: Codable, Equatable {
            let budget: Budget
            let rate: Rate
            let lifetime: Lifetime
        }
        let inputs = Inputs(budget: 1e-11, rate: "2000/min", lifetime: "1.5y")
        let json = String(decoding: try JSONEncoder().encode(inputs), as: UTF8.self)
        #expect(json.contains(#""budget":"1e-11""#) && json.contains(#""rate":"2000\/min""#) && json.contains(#""lifetime":"1.5y""#))
        let back = try JSONDecoder().decode(Inputs.self, from: Data(json.utf8))
        #expect(back == inputs && back.rate.text == "2000/min")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Inputs.self, from: Data(#"{"budget":"2","rate":"1/s","lifetime":"1y"}"#.utf8))
        }
        // A decimal answer keeps every digit it was printed with, trailing zeros too.
        let digits = try JSONDecoder().decode([ScientificDecimal].self, from: Data(#"["1.000e-3","0","10^-4.34e+19728"]"#.utf8))
        #expect(String(decoding: try JSONEncoder().encode(digits), as: UTF8.self) == #"["1.000e-3","0","10^-4.34e+19728"]"#)
        #expect(Double(digits[0]) == 0.001 && Double(digits[1]) == 0 && Double(digits[2]) == 0)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ScientificDecimal].self, from: Data(#"["0.5"]"#.utf8)) }
    }

    @Test func auditReportIsTheCLIsJSON() throws {
        let minted = IDGenerator(.uuid7)
        var ids = (0..<20_000).map { _ in minted.next() }
        ids += ["not-an-id", ids[7]]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("library-contract-\(getpid()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data((ids.joined(separator: "\n") + "\n").utf8).write(to: file)
        let r = try CLI.run(["audit", file.path, "--format", "json"])
        let fromCLI = try JSONDecoder().decode(AuditReport.self, from: Data(r.stdout.utf8))
        #expect(fromCLI.resources != nil)

        let report = try Auditor().audit(ids)
        #expect(report.resources == nil)
        #expect(Int32(report.passes ? 0 : 1) == r.status)
        // The same report but for what only a run measures (memory, the threads it ran on).
        let cliWithout = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? NSDictionary
        let mutable = cliWithout?.mutableCopy() as? NSMutableDictionary
        mutable?.removeObjects(forKeys: ["fingerprint_table_bytes", "spilled", "peak_rss_bytes", "memory_limit_bytes", "threads"])
        let library = try JSONSerialization.jsonObject(with: Data(try report.jsonText().utf8)) as? NSDictionary
        #expect(mutable == library)
        // Bytes audit as their text does, and the report survives a round trip through its JSON.
        #expect(try Auditor().audit(ids.map { Array($0.utf8) }) == report)
        #expect(try JSONDecoder().decode(AuditReport.self, from: Data(report.jsonText().utf8)) == report)
        // With the records a CSV column was read from, too.
        var fromRecords = report
        fromRecords.records = AuditReport.Records(source: "CSV column 'id'", read: 20_003, withoutID: 1, unreadable: 2)
        let back = try JSONDecoder().decode(AuditReport.self, from: Data(fromRecords.jsonText().utf8))
        #expect(back == fromRecords && back.records?.unreadable == 2)
    }
}

/// The version is written once: the CLI prints it and the changelog has its section.
/// A node-id scheme asked as a typed question: the chance two nodes share a node value, as the layer
/// answers it; asked for its space, a refusal that names no CLI syntax.
@Suite struct LibraryNodeSchemeTests {
    @Test func aNodeSchemeIsAskedItsNodes() throws {
        let snowflake = try #require(Scheme.named("snowflake"))
        let typed = try Planner.probability(for: snowflake, rate: .perSecond(1e3), lifetime: .years(10), nodes: 50)
        let direct = try Planner.nodeProbability(scheme: snowflake, nodes: 50, ratePerNode: .perSecond(1e3))
        #expect(typed.collision.probability == direct.collision.probability)
        #expect(typed.collision.probability.description != "0")
        do {
            _ = try Planner.probability(for: snowflake, count: 1000)
            Issue.record("a node-id scheme's space was given")
        } catch let error as InputError {
            #expect(error.argument == "scheme" && !error.message.contains("--"), "\(error.message)")
        }
    }
}

/// Counts beyond `Int` in the typed questions, exact: UInt64.max and 10^30 ids, against mpmath
/// (Tests/Oracles/reference.py), and the same count however it is built.
@Suite(.oracles) struct LibraryLargeCountTests {
    @Test func countsBeyondIntAreExact() throws {
        #expect(BigInt(UInt64.max).description == "18446744073709551615")
        #expect(BigInt(Int64.min).description == "-9223372036854775808")
        #expect(BigInt(UInt8(200)).description == "200")
        let huge = try #require(BigInt(decimal: "1" + String(repeating: "0", count: 30)))
        for (count, text) in [(BigInt(UInt64.max), "18446744073709551615"), (huge, huge.description)] {
            let answer = try Planner.probability(for: .base62, length: 40, count: count)
            let reference = try Oracle.python("import reference; print(reference.probability(62**40, \(text))[0])")
            #expect(answer.collision.probability.description == reference, "count \(text)")
        }
        let big = try Planner.probability(for: .uuid4, count: BigInt(UInt64.max), scopes: BigInt(UInt64.max))
        #expect(Double(big.collision.probability) == 1)
        #expect(throws: InputError.self) { try Planner.probability(for: .uuid4, count: BigInt(Int64.min)) }
    }
}

@Suite struct VersionTests {
    @Test func oneVersionEverywhere() throws {
        let r = try CLI.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix(IDBudgetVersion.current + " "), "\(r.stdout)")
        let changelog = try String(contentsOf: Repository.file("CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("## [\(IDBudgetVersion.current)] - "))
    }

    /// `--version` names the SIMD kernels the process runs (the benchmark report quotes them), and
    /// IDTOKENS_SAMPLER=scalar narrows every one of them.
    @Test func versionNamesTheKernels() throws {
        let r = try CLI.run(["--version"])
        #expect(r.stdout.contains("(kernels: keystream "), "\(r.stdout)")
        let narrow = try CLI.run(["--version"], environment: ["IDTOKENS_SAMPLER": "scalar"])
        #expect(narrow.stdout.contains("sampler scalar, base62 scalar, clock "), "\(narrow.stdout)")
        #expect(!narrow.stdout.contains("keystream avx512"), "\(narrow.stdout)")
        let realtime = try CLI.run(["--version"], environment: ["IDTOKENS_CLOCK": "realtime"])
        #expect(realtime.stdout.contains(", clock realtime)"), "\(realtime.stdout)")
    }
}

/// The library refuses what the CLI refuses, by throwing, never by trapping or answering something else.
@Suite struct LibraryRefusalTests {
    @Test func auditorSettingsAreChecked() {
        #expect(throws: InputError.self) { try Auditor(maxLineBytes: 0) }
        #expect(throws: InputError.self) { try Auditor(maxLineBytes: -5) }
        #expect(throws: InputError.self) { try Auditor(maxLineBytes: Int.max) }
        #expect(throws: InputError.self) { try Auditor(shard: (3, 2)) }
        #expect(throws: InputError.self) { try Auditor(shard: (-1, 2)) }
        #expect(throws: InputError.self) { try Auditor(shard: (0, 0)) }
        #expect(throws: InputError.self) { try Auditor(memoryLimit: -1) }
        #expect(throws: InputError.self) { try Auditor(threads: 0) }
        #expect(throws: InputError.self) { try Auditor(threads: Auditor.maxThreads + 1) }
        #expect(throws: InputError.self) { try Auditor().audit(["a", "b"], claimedBits: -1) }
        #expect(throws: InputError.self) { try Auditor().audit(["a", "b"], claimedBits: 0) }
        #expect(throws: InputError.self) { try Auditor().audit(["a", "b"], claimedBits: Int.max) }
    }

    @Test func anAuditorAuditsOnce() throws {
        let auditor = try Auditor()
        #expect(try auditor.audit(["a", "b"]).ids == 2)
        #expect(throws: InputError.self) { try auditor.audit(["c"]) }
    }

    @Test func answersReadBackFromTheirJSON() throws {
        let length = try Planner.length(for: .base62, count: 1_000_000, budget: Budget(1e-9))
        let back = try LengthAnswer(jsonText: length.jsonText())
        #expect(try back.jsonText() == length.jsonText())
        let report = try Auditor().audit(["x1", "x2", "x1"])
        #expect(try AuditReport(jsonText: report.jsonText()) == report)
        #expect(try Lifetime(.seconds(3600)).text == "3600s")
        #expect(try Lifetime(.milliseconds(1500)).text == "1.5s")
    }
}
