import Foundation
import TestSupport
import Testing

/// Every subcommand's JSON against the one schema document, with a real validator (Python jsonschema,
/// Draft 2020-12: Tests/Oracles/validate_json.py), in the shapes users hit: scopes, buckets, huge spaces,
/// rates, byte limits.
@Suite(.oracles) struct SchemaTests {
    static func validate(_ json: String) throws -> (status: Int32, output: String) {
        try CLI.python("validate_json.py", input: json)
    }

    @Test(arguments: [
        ["probability", "--alphabet", "base62", "--length", "22", "--rate", "1e6/s", "--lifetime", "10y"],
        ["probability", "--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "10y", "--nodes", "3"],
        ["probability", "--bits", "4096", "--count", "2^64", "--scopes", "1e6"],
        ["probability", "--bits", "2097152", "--count", "2^2097152-5"],
        ["probability", "--space-size", "2^2097152", "--count", "2^1048576"],
        ["probability", "--bits", "64", "--count-per-scope", "2", "--scopes", "1e600000"],
        ["length", "--symbols", "🍎🍌🍒🍇", "--count", "1000", "--max-probability", "1e-6", "--max-bytes", "64"],
        ["length", "--alphabet-size", "62", "--count", "1"],
        ["length", "--alphabet-size", "300", "--count", "1"],  // bytes unknown: null
        ["capacity", "--bits", "122", "--max-probability", "1e-18", "--rate", "1e6/s"],
        ["capacity", "--scheme", "uuid7", "--max-probability", "1e-9", "--rate", "1e6/s"],
        ["capacity", "--scheme", "uuid7", "--max-probability", "1e-30", "--rate", "1e9/s"],
        ["capacity", "--bits", "3000", "--max-probability", "1e-9", "--rate", "1e6/s", "--scopes", "10"],
        ["plan", "--count", "1e9", "--max-probability", "1e-9"],
        ["schemes"],
        ["probability", "--scheme", "uuid7", "--rate", "500/s", "--lifetime", "10y", "--arrivals", "even"],
        ["probability", "--scheme", "ulid", "--rate", "500/s", "--lifetime", "10y", "--growth", "2x/y", "--nodes", "4"],
        ["probability", "--bits", "64", "--rate", "1000/s", "--lifetime", "10y", "--growth", "40%/y", "--existing", "1e9"],
        [
            "length", "--alphabet", "base62", "--rate", "1000/s", "--lifetime", "10y", "--growth", "3%/mo", "--existing", "1e6",
            "--max-probability", "1e-9",
        ],
        ["length", "--alphabet", "hex", "--rate", "1e4/s", "--from", "2026-01-01", "--until", "2036-01-01", "--max-probability", "1e-9"],
        ["plan", "--count", "1e6", "--existing", "1e9", "--max-probability", "1e-9"],
        ["capacity", "--bits", "64", "--max-probability", "1e-9", "--rate", "1000/s", "--growth", "40%/y", "--existing", "1e3"],
        ["capacity", "--bits", "16", "--max-probability", "1e-3", "--rate", "1/s", "--existing", "1e6"],
        ["capacity", "--scheme", "ksuid", "--max-probability", "1e-12", "--rate", "1e9/s", "--growth", "2x/y", "--from", "2026-01-01"],
        ["length", "--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11", "--max-bytes", "64"],
        ["length", "--scheme", "nanoid", "--count", "1e9", "--max-probability", "1e-12"],
        ["length", "--scheme", "snowflake", "--nodes", "50", "--rate", "5000/ms", "--max-probability", "1e-6"],
        ["plan", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11", "--max-bytes", "16"],
    ])
    func outputMatchesTheSchema(arguments: [String]) throws {
        var args = arguments
        if arguments[0] == "length" && arguments.count == 5 { args += ["--max-probability", "1e-9"] }
        let r = try CLI.run(args + ["--format", "json"])
        let checks = args.contains("--max-bytes") || args.contains("--scheme") && args[0] == "length"
        #expect(r.status == 0 || (r.status == 1 && checks), "\(r.stderr)")
        let v = try Self.validate(r.stdout)
        #expect(v.status == 0, "\(arguments): \(v.output)")
    }

    @Test func auditMatchesTheSchema() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-schema-\(UUID().uuidString).txt")
        try Data("a1\nb2\na1\n\nzz\r\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["audit", file.path, "--format", "json"])
        let v = try Self.validate(r.stdout)
        #expect(v.status == 0, "\(v.output)")
    }

    /// The validator is real: a document with a drifted key fails.
    @Test func driftIsCaught() throws {
        let r = try CLI.run(["schemes", "--format", "json"])
        let drifted = r.stdout.replacingOccurrences(of: "\"bits\"", with: "\"random_bits\"")
        #expect(try Self.validate(drifted).status != 0)
        #expect(try Self.validate(r.stdout.replacingOccurrences(of: "\"schema_version\" : 1", with: "\"schema_version\" : 2")).status != 0)
    }
}

/// Answers that used to mislead, and inputs that used to slip through.
@Suite(.oracles) struct AnswerContractTests {
    @Test func peakBelowTheRateIsRefused() throws {
        let r = try CLI.run(["probability", "--scheme", "uuid7", "--rate", "1e6/s", "--peak-rate", "1e3/s", "--lifetime", "10y"])
        #expect(r.status == 64 && r.stdout.isEmpty && r.stderr.contains("--peak-rate"))
    }

    /// A bucketed capacity with a rate says how long until p over all buckets reaches the budget.
    /// uuid7 at 1e6/s: 1000 ids per ms, p per ms = C(1000,2)/2^74 ≈ 2.6443e-17, so 1e-9 lasts about
    /// 1e-9 / 2.6443e-17 ms ≈ 37,817 s (independently: the pairs count, exact to the digits compared).
    @Test func bucketedCapacityLastsAcrossBuckets() throws {
        let json = try CLI.json(["capacity", "--scheme", "uuid7", "--max-probability", "1e-9", "--rate", "1e6/s", "--arrivals", "even"])
        let seconds = Double(CLI.at(json, "lasts.seconds") as? String ?? "") ?? 0
        let pairs: Double = 1000.0 * 999.0 / 2.0 / 18_889_465_931_478_580_854_784.0
        #expect(abs(seconds - 1e-9 / pairs / 1000) < 2, "\(seconds)")
        #expect((CLI.at(json, "lasts.meaning") as? String)?.contains("milliseconds") == true)
    }

    /// The same under Poisson arrivals (the default): λ = 1000 per ms, ℓ ≈ λ²/2d, so about
    /// 1e-9 / (1e6/2d) ms ≈ 37,779 s.
    @Test func poissonCapacityLastsAcrossBuckets() throws {
        let json = try CLI.json(["capacity", "--scheme", "uuid7", "--max-probability", "1e-9", "--rate", "1e6/s"])
        let seconds = Double(CLI.at(json, "lasts.seconds") as? String ?? "") ?? 0
        let perBucket: Double = 1e6 / 2.0 / 18_889_465_931_478_580_854_784.0
        #expect(abs(seconds - 1e-9 / perBucket / 1000) < 2, "\(seconds)")
        #expect(CLI.at(json, "arrivals") as? String == "poisson")
    }

    @Test func hugeDurationsAreNotInfinite() throws {
        let r = try CLI.run(["capacity", "--bits", "262144", "--max-probability", "1e-9", "--rate", "1e6/s"])
        #expect(r.status == 0)
        let lasts = r.stdout.split(separator: "\n").filter { $0.hasPrefix("lasts") }
        #expect(lasts.count == 2 && lasts.allSatisfy { !$0.contains("inf") && !$0.contains("nan") }, "\(lasts)")
        #expect(lasts.first?.contains("years") == true)
    }

    @Test func doubleColumnBeyondRangeSaysSo() throws {
        let r = try CLI.run(["probability", "--bits", "2048", "--count", "1e9"])
        #expect(!r.stdout.lowercased().contains("nan  (what") && r.stdout.contains("beyond a double"))
        let json = try CLI.json(["probability", "--bits", "2048", "--count", "1e9"])
        #expect(CLI.at(json, "collision.double_approximation") == nil)
    }

    @Test func nodesMultiplyACountTooAndSaySo() throws {
        let json = try CLI.json(["probability", "--bits", "64", "--count", "1e9", "--nodes", "10"])
        #expect(CLI.at(json, "volume.count") as? String == "10000000000")
        #expect((json["notes"] as? [String])?.contains { $0.contains("10 nodes") } == true)
    }

    @Test func firstCollisionIsLabelledPerGroup() throws {
        let r = try CLI.run(["probability", "--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "1d"])
        #expect(r.stdout.contains("expected ids to first collision (per scope/bucket)"))
    }

    @Test(arguments: [
        (["probability", "--bits", "64", "--count", "5_"], "--count"),
        (["probability", "--bits", "64", "--count", "_5"], "--count"),
        (["probability", "--bits", "64", "--count", "5", "--count", "6"], "--count"),
        (["help", "nonsense"], "help"),
        (["probability", "--bits", "64", "--count", "12\r\n3"], "--count"),
        (["probability", "--bits", "64", "--rate", "1e6/s", "--lifetime", "1y\u{1b}[31m"], "--lifetime"),
        // The range ends at 2^2097152 itself, however the space is written.
        (["probability", "--space-size", "2^2097152+1", "--count", "2"], "--space-size"),
        (["probability", "--bits", "2097153", "--count", "2"], "--bits"),
        // An exponent of Int.min has no magnitude as an Int (an outside tester's trap).
        (["probability", "--bits", "64", "--count", "1e-9223372036854775808"], "--count"),
        (["capacity", "--bits", "64", "--max-probability", "1e-9223372036854775808"], "--max-probability"),
        (["probability", "--bits", "64", "--rate", "1e-9223372036854775808/s", "--lifetime", "1y"], "--rate"),
        (["probability", "--bits", "64", "--rate", "1/s", "--lifetime", "1e-9223372036854775808y"], "--lifetime"),
        (
            ["length", "--alphabet", "hex", "--count", "5", "--max-probability", "1e-11", "--max-bytes", "1e-9223372036854775808"],
            "--max-bytes"
        ),
        // An exponent too long for an Int is still a number: said to be out of range, not malformed.
        (["capacity", "--bits", "64", "--max-probability", "1e-99999999999999999999999"], "is below the 1e-100000"),
        (["capacity", "--bits", "64", "--max-probability", "2^-99999999999999999999"], "is below the 1e-100000"),
        (["capacity", "--bits", "64", "--max-probability", "1e99999999999999999999"], "is not strictly between 0 and 1"),
        (["probability", "--space-size", "1e99999999999999999999999", "--count", "2"], "is absurdly large"),
        (["probability", "--bits", "64", "--count", "1e-99999999999999999999999"], "is not a whole number"),
        // A negative number is named as such, not as a missing value.
        (["probability", "--bits", "64", "--count", "-5"], "--count: '-5' is negative"),
        (["capacity", "--bits", "64", "--max-probability", "-.5"], "--max-probability: '-.5' is negative"),
        (["generate", "--seed", "-1", "--count", "1"], "--seed: '-1' is negative"),
    ])
    func refusedInOneLine(arguments: [String], argument: String) throws {
        let r = try CLI.expectUsageError(arguments, naming: argument)
        #expect(!r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "raw control bytes in \(r.stderr)")
    }

    @Test func powersAreCounts() throws {
        let json = try CLI.json(["probability", "--bits", "200", "--count", "2^64"])
        #expect(CLI.at(json, "volume.count") as? String == "18446744073709551616")
    }

    /// Help examples fit 80 columns, so copying a line copies a whole command.
    @Test func helpExamplesFit80Columns() throws {
        for command in [[], ["probability"], ["length"], ["capacity"], ["plan"], ["schemes"], ["generate"], ["audit"]] {
            let r = try CLI.run(command + ["--help"], environment: ["COLUMNS": "80"])
            for line in r.stdout.split(separator: "\n") where line.contains("idbudget ") && line.hasPrefix("  idbudget") {
                #expect(line.count <= 80, "\(line)")
            }
        }
    }
}

/// Audits of streams whose right answer is known.
@Suite(.oracles) struct AuditVerdictTests {
    static func audit(_ lines: [String]) throws -> [String: Any] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-verdict-\(UUID().uuidString).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["audit", file.path, "--format", "json"])
        guard r.status == 0 || r.status == 1 else { throw CLI.CLIFailure(message: r.stderr) }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    }

    static func ids(_ arguments: [String]) throws -> [String] {
        try CLI.run(["generate"] + arguments).stdout.split(separator: "\n").map(String.init)
    }

    /// 300,000 hex×10 ids with 2 planted duplicates: P(D ≥ 2) = 1 − e^−λ(1 + λ) with λ = C(n,2)/16^10
    /// is 8.15e-4 (the closed form, not the tool's sum), so this is no alarm.
    @Test func twoDuplicatesAmongManyHexIdsAreNoAlarm() throws {
        var lines = try Self.ids(["--alphabet", "hex", "--length", "10", "--count", "300000", "--seed", "3"])
        lines[1] = lines[0]
        lines[3] = lines[2]
        let json = try Self.audit(lines)
        let lambda: Double = 300_000.0 * 299_999.0 / 2.0 / 1_099_511_627_776.0  // 16^10
        let exact: Double = 1.0 - Foundation.exp(-lambda) * (1.0 + lambda)
        let p = json["p_value_high"] as! Double
        // A certified upper bound on the exact tail, which the Poisson closed form approximates to ~λ/n.
        #expect(abs(p - exact) < 1e-6, "\(p) vs \(exact)")
        #expect(json["verdict_code"] as? String == "consistent")
    }

    @Test func sequentialIdsHaveTooFewDuplicates() throws {
        let json = try Self.audit((0..<100_000).map { String(format: "%05d", $0) })
        #expect(json["verdict_code"] as? String == "too-few-duplicates")
        #expect((json["effective_bits"] as! Double) <= (CLI.at(json, "space.bits") as! Double) + 1e-9)
    }

    @Test func upperCaseHexIsHexNotBase32() throws {
        let lines = try Self.ids(["--symbols", "0123456789ABCDEF", "--length", "8", "--count", "200000", "--seed", "9"])
        let json = try Self.audit(lines)
        #expect(json["alphabet"] as? String == "HEX")
        #expect(json["verdict_code"] as? String == "consistent")
    }

    /// A generator that only ever uses 2^20 of base62^6's values is caught by its duplicates.
    @Test func aWeakGeneratorHasTooManyDuplicates() throws {
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        let weak = try Self.ids(["--alphabet", "hex", "--length", "5", "--count", "100000", "--seed", "4"]).map { hex in
            var v = Int(hex, radix: 16)!
            return String(
                (0..<6).map { _ in
                    defer { v /= 62 }
                    return digits[v % 62]
                })
        }
        let json = try Self.audit(weak)
        #expect(json["verdict_code"] as? String == "too-many-duplicates")
    }
}

/// The library answers the CLI's questions with the same JSON.
@Suite(.oracles) struct LibraryParityTests {
    @Test func readmeQuestionsAgreeWithTheCLI() throws {
        // The CLI side of README's "From Swift" block; the library side runs in scripts/readme-snippets.sh.
        let json = try CLI.json(["probability", "--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "10y"])
        #expect(CLI.at(json, "space.summary") as? String == "uuid7: 2^74 per millisecond")
        #expect((json["notes"] as? [String])?.contains { $0.hasPrefix("uuid7:") } == true)
    }

    @Test(arguments: [
        (["length", "--alphabet", "hex", "--count", "1e400000", "--max-probability", "1e-100000"], "--count"),
        (["plan", "--count", "1e400000", "--max-probability", "1e-100000"], "--count"),
        (["generate", "--symbols", "ab", "--alphabet", "hex"], "--alphabet"),
        (["probability", "--bits", "1\n2", "--count", "5"], "--bits"),
        (["probability", "--bits", "122", "--count", "5", "--format", "js\non"], "--format"),
    ])
    func errorsNameTheArgumentInOneLine(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }

    @Test func trivialQuestionsAreQuick() throws {
        let r = try CLI.run(["plan", "--count", "1", "--max-probability", "1e-100000"])
        #expect(r.status == 0 && r.seconds < 2, "\(r.seconds) s")
    }

    /// 99 ids of 99 different lengths: no two can collide (each length is its own cell), so the
    /// variance is exactly 0 — never negative or NaN — and the answer stays in the schema.
    @Test func auditOfTinyVarianceStaysInTheSchema() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-tiny-\(UUID().uuidString).txt")
        try Data((1..<100).map { String(repeating: "x", count: $0) + "\n" }.joined().utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["audit", file.path, "--format", "json"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect((json["sd"] as? Double) == 0 && json["verdict_code"] as? String == "consistent", "\(json["sd"] ?? "-")")
        #expect(try SchemaTests.validate(r.stdout).status == 0)
    }
}

/// Budgets written to agree with p(d, n) to thousands of digits (an outside tester's slow case): each
/// side of p must still give its own answer, up to `Limits.tieDigits` (10,000) digits of agreement;
/// beyond that, a clean refusal. Budgets from the one Python reference's L (Tests/Oracles/near_tie.py), never idbudget.
@Suite(.oracles) struct NearTieTests {
    static func budgets(_ space: String, _ count: String, _ digits: Int) throws -> [String] {
        let r = try CLI.python("near_tie.py", [space, count, String(digits)])
        #expect(r.status == 0, "\(r.output.prefix(300))")
        let budgets = r.output.split(separator: "\n").map(String.init)
        try #require(budgets.count == 2)
        return budgets
    }

    /// 2^26 and 2^36 values with millions of ids take the falling product (p near 1: 1 − p ≈ 10^−3558
    /// and 10^−890, so 12,500 and 10,500 digits of p are ~9,000 and ~9,600 of 1 − p).
    @Test(arguments: [
        (64, "5000000000", "4999999999", 9_900), (40, "1060921", "1060920", 3_000),
        (128, "18446744073709563961", "18446744073709563960", 2_000),
        (26, "1048576", "1048575", 12_500), (36, "16777216", "16777215", 10_500),
        // At 10,000 digits the series (n/d = 2^−300) gives way to log-gamma, which cancels ~600 bits
        // more: the limit still holds (an outside tester's case, refused at 9,867 digits before).
        (400, "1000000000000000000000000000000", "999999999999999999999999999999", 10_000),
    ])
    func budgetsMatchingPToManyDigitsAreDecided(bits: Int, count: String, fewer: String, digits: Int) throws {
        let budgets = try Self.budgets(BigIntText.power2(bits), count, digits)
        // Below p(d, n): n is one too many; at or above it, n fits.
        let below = try CLI.json(["capacity", "--bits", String(bits), "--max-probability", budgets[0]])
        let above = try CLI.json(["capacity", "--bits", String(bits), "--max-probability", budgets[1]])
        #expect(below["capacity"] as? String == fewer)
        #expect(above["capacity"] as? String == count)
    }

    /// Where log-gamma takes over only at the limit's own precision (2^21280 values, 10^3000 + 7 ids:
    /// ~22,000 bits cancel), 10,000 digits are still decided (an outside tester's case, refused from
    /// ~6,200 digits before).
    @Test func theLimitHoldsWhereLogGammaCancelsThousandsOfBits() throws {
        let budgets = try Self.budgets("2^21280", "10^3000+7", 10_000)
        let leading = "1" + String(repeating: "0", count: 2_999)
        for (budget, last) in zip(budgets, ["6", "7"]) {
            let json = try CLI.json(["capacity", "--bits", "21280", "--max-probability", budget])
            #expect(json["capacity"] as? String == leading + last, "expected 10^3000 + \(last)")
        }
    }

    /// Past 10,000 digits of agreement: exit 64, one line naming the budget and saying what to do.
    @Test func budgetsMatchingPBeyondTheLimitAreRefused() throws {
        for budget in try Self.budgets(BigIntText.power2(64), "5000000000", 10_300) {
            let r = try CLI.run(["capacity", "--bits", "64", "--max-probability", budget])
            #expect(r.status == 64 && r.stdout.isEmpty, "\(r.status) \(r.stdout.prefix(100))")
            #expect(r.stderr.hasPrefix("idbudget: error: --max-probability:") && r.stderr.contains("round the budget"))
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
    }

    /// `length` compares p(62^L, n) with the budget for neighbouring L: the same decision, the same limit.
    @Test func lengthDecidesAndRefusesNearTiesAlike() throws {
        let space = "11361668153983839080134359106715648"  // 62^19
        let close = try Self.budgets(space, "1000000000000", 10_000)
        let below = try CLI.json(["length", "--alphabet", "base62", "--count", "1e12", "--max-probability", close[0]])
        let above = try CLI.json(["length", "--alphabet", "base62", "--count", "1e12", "--max-probability", close[1]])
        #expect(below["length"] as? Int == 20, "\(below["length"] ?? "none")")
        #expect(above["length"] as? Int == 19, "\(above["length"] ?? "none")")
        let closer = try Self.budgets(space, "1000000000000", 10_400)
        let r = try CLI.run(["length", "--alphabet", "base62", "--count", "1e12", "--max-probability", closer[1]])
        #expect(r.status == 64 && r.stderr.contains("--max-probability") && r.stderr.contains("round the budget"))
    }
}

private enum BigIntText {
    /// 2^k in decimal, for k ≤ 128, without the library under test.
    static func power2(_ k: Int) -> String {
        var digits = [1]
        for _ in 0..<k {
            var carry = 0
            for i in digits.indices {
                let v = digits[i] * 2 + carry
                digits[i] = v % 10
                carry = v / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        return digits.reversed().map(String.init).joined()
    }
}
