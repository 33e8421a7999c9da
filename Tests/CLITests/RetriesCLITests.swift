import Foundation
import TestSupport
import Testing

/// `idbudget retries`: its output, its JSON against the schema and the reference, its errors.
@Suite(.oracles) struct RetriesCLITests {
    nonisolated(unsafe) static let reference: [[String: Any]] = {
        let url = Repository.file("Tests/IDBudgetTests/Reference/retries.json")
        let json = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return json["cases"] as! [[String: Any]]
    }()

    static func referenceCase(_ prefix: String) -> [String: Any] {
        reference.first { ($0["label"] as! String).hasPrefix(prefix) }!
    }

    @Test func jsonHasTheKeysAndTheReferenceDigits() throws {
        let r = Self.referenceCase("README")
        let json = try CLI.json([
            "retries", "--alphabet", "base62", "--length", "8", "--count", "1e6", "--max-attempts", "3", "--max-probability", "1e-9",
        ])
        #expect(json["command"] as? String == "retries")
        for key in ["fill", "expected_attempts_next", "expected_attempts_total", "exhaustion_probability", "capacity"] {
            #expect(CLI.at(json, "retries.\(key)") as? String == r[key] as? String, "\(key)")
        }
        #expect(CLI.at(json, "retries.max_attempts") as? Int == 3)
        #expect(CLI.at(json, "volume.count") as? String == "1000000")
    }

    /// Without --max-attempts and --max-probability the last two are null, not left out.
    @Test func absentFiguresAreNull() throws {
        let r = try CLI.run(["retries", "--bits", "64", "--count", "1e9", "--format", "json"])
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let retries = json["retries"] as! [String: Any]
        #expect(retries["exhaustion_probability"] is NSNull && retries["capacity"] is NSNull)
    }

    @Test(arguments: [
        ["retries", "--alphabet", "base62", "--length", "8", "--count", "1e6", "--max-attempts", "3", "--max-probability", "1e-9"],
        ["retries", "--bits", "64", "--count", "1e9"],
        ["retries", "--bits", "122", "--rate", "1e6/s", "--lifetime", "10y", "--max-attempts", "2"],
        ["retries", "--space-size", "2^2097152", "--count", "2^1048576", "--max-attempts", "2"],
        ["retries", "--scheme", "uuid4", "--count", "2^100", "--max-attempts", "10", "--max-probability", "1e-9"],
    ])
    func outputMatchesTheSchema(arguments: [String]) throws {
        let r = try CLI.run(arguments + ["--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let v = try CLI.python("validate_json.py", input: r.stdout)
        #expect(v.status == 0, "\(arguments): \(v.output)")
    }

    /// The validator is real for this command too: a renamed key fails.
    @Test func driftIsCaught() throws {
        let r = try CLI.run(["retries", "--bits", "64", "--count", "1e9", "--format", "json"])
        let drifted = r.stdout.replacingOccurrences(of: "\"expected_attempts_next\"", with: "\"expected_attempts\"")
        #expect(try CLI.python("validate_json.py", input: drifted).status != 0)
    }

    @Test func textNamesEveryFigure() throws {
        let r = try CLI.run(["retries", "--space-size", "1000", "--count", "150", "--max-attempts", "2", "--max-probability", "0.5"])
        #expect(r.status == 0 && r.stderr.isEmpty)
        let c = Self.referenceCase("d = 1000, N = 150")
        for label in ["fill f = N/d", "attempts, next insert", "attempts to store all N", "P(some insert fails)", "capacity"] {
            #expect(r.stdout.contains(label), "\(label)")
        }
        #expect(r.stdout.contains(c["exhaustion_probability"] as! String))
        #expect(r.stdout.contains(c["expected_attempts_total"] as! String))
    }

    /// k = 1 is the birthday bound: the same digits as `probability`.
    @Test func oneAttemptMatchesProbability() throws {
        let a = try CLI.json(["retries", "--alphabet", "base62", "--length", "8", "--count", "1e6", "--max-attempts", "1"])
        let b = try CLI.json(["probability", "--alphabet", "base62", "--length", "8", "--count", "1e6"])
        #expect(CLI.at(a, "retries.exhaustion_probability") as? String == CLI.at(b, "collision.probability") as? String)
        #expect(CLI.at(a, "retries.exhaustion_probability") != nil)
    }

    @Test(arguments: [
        (["retries", "--space-size", "1000", "--count", "10", "--max-attempts", "0"], "--max-attempts"),
        (["retries", "--space-size", "1000", "--count", "10", "--max-attempts", "-2"], "--max-attempts"),
        (["retries", "--space-size", "1000", "--count", "10", "--max-attempts", "1e9"], "--max-attempts"),
        (["retries", "--space-size", "1000", "--count", "10", "--max-attempts", "two"], "--max-attempts"),
        (["retries", "--space-size", "1000", "--count", "-10"], "--count"),
        (["retries", "--space-size", "1000", "--count", "1e999999999"], "--count"),
        (["retries", "--space-size", "1000", "--count", "10", "--max-probability", "1e-9"], "--max-probability"),
        (["retries", "--space-size", "1000", "--count", "10", "--max-attempts", "2", "--max-probability", "2"], "--max-probability"),
        (["retries", "--space-size", "2^2097152", "--count", "10", "--max-attempts", "1000"], "--max-attempts"),
        (["retries", "--bits", "64", "--count", "10", "--scopes", "3"], "--scopes"),
        (["retries", "--scheme", "uuid7", "--count", "10"], "--scheme"),
        (["retries", "--bits", "64"], "--count"),
    ])
    func badInputIsOneLineAndExit64(arguments: [String], argument: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(arguments): \(r.status) \(r.stderr)")
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.contains(argument), "\(arguments): \(r.stderr)")
    }

    /// A full store is an answer, not a usage error: the next insert's attempts print as infinite, and
    /// past the space so does the total.
    @Test func aFullSpaceSaysTheAttemptsAreInfinite() throws {
        let r = try CLI.run(["retries", "--space-size", "1000", "--count", "1000"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("infinite  (N ≥ d: the store is full)"), "\(r.stdout)")
        #expect(r.stdout.contains("7.48547086055034491265651820433e+3"), "\(r.stdout)")
        let past = try CLI.run(["retries", "--space-size", "1000", "--count", "1001", "--format", "json"])
        #expect(past.status == 0, "\(past.stderr)")
        #expect(past.stdout.contains("\"expected_attempts_total\" : null"), "\(past.stdout)")
    }

    /// A capacity past 2^4096 ids answers "at least 2^4096" (it was a usage error).
    @Test func aCapacityPastTheSearchIsAtLeast() throws {
        let r = try CLI.run([
            "retries", "--alphabet", "base36", "--length", "55508", "--rate", "3/h", "--lifetime", "74y", "--max-attempts", "90",
            "--max-probability", "0.39",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("at least 2^4096  (not searched further)"), "\(r.stdout)")
    }

    @Test func listedInHelp() throws {
        let r = try CLI.run(["--help"])
        #expect(r.stdout.contains("retries"))
    }
}
