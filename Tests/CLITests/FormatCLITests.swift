import Foundation
import TestSupport
import Testing

/// `idbudget generate --scheme …`, checked by independent decoders (Python's uuid, python-ulid,
/// cyksuid, typeid-python; Tests/Oracles/check_formats.py, which first proves it catches broken streams).
@Suite(.oracles) struct FormatCLITests {
    static func check(_ arguments: [String], _ checks: [String]) throws -> (status: Int32, output: String) {
        let ids = try CLI.run(["generate"] + arguments)
        guard ids.status == 0 else { return (ids.status, ids.stderr) }
        return try CLI.python("check_formats.py", checks, input: ids.stdout)
    }

    @Test func checkerCatchesBrokenStreams() throws {
        #expect(try CLI.python("check_formats.py", ["--selftest"]).status == 0)
    }

    @Test(arguments: [
        (["--scheme", "uuid4"], ["uuid4", "--random"]),
        (["--scheme", "uuid7"], ["uuid7", "--sorted"]),
        (["--scheme", "uuid7", "--no-monotonic"], ["uuid7", "--random"]),
        (["--scheme", "ulid"], ["ulid", "--random"]),
        (["--scheme", "ulid", "--monotonic"], ["ulid", "--sorted"]),
        (["--scheme", "ksuid"], ["ksuid", "--random"]),
        (["--scheme", "nanoid"], ["nanoid", "--random"]),
        (["--scheme", "typeid", "--prefix", "user"], ["typeid", "--prefix", "user", "--sorted"]),
        (["--scheme", "typeid", "--prefix", "pre_fix"], ["typeid", "--prefix", "pre_fix"]),
        (["--scheme", "typeid", "--no-monotonic"], ["typeid", "--random"]),
        (["--scheme", "uuid4", "--prefix", "req-"], ["uuid4", "--prefix", "req-", "--random"]),
        (["--scheme", "ulid", "--prefix", "o:"], ["ulid", "--prefix", "o:", "--random"]),
    ])
    func decodersAcceptEveryId(arguments: [String], checks: [String]) throws {
        let r = try Self.check(arguments + ["--count", "20000"], checks)
        #expect(r.status == 0, "\(r.output)")
    }

    @Test(arguments: [
        (["--scheme", "uuid9"], "--scheme"),
        (["--scheme", "uuid4", "--length", "10"], "--length"),
        (["--scheme", "uuid4", "--seed", "1"], "--seed"),
        (["--scheme", "ksuid", "--monotonic"], "--monotonic"),
        (["--alphabet", "hex", "--no-monotonic"], "--monotonic"),
        (["--scheme", "typeid", "--prefix", "User"], "--prefix"),
        (["--scheme", "typeid", "--prefix", "user_"], "--prefix"),
        (["--scheme", "typeid", "--prefix", String(repeating: "a", count: 64)], "--prefix"),
        (["--prefix", "sk live"], "--prefix"),
        (["--prefix", "sk\u{7}"], "--prefix"),
        (["--prefix", "é_"], "--prefix"),
        (["--scheme", "uuid4", "--prefix", String(repeating: "x", count: 65)], "--prefix"),
    ])
    func badCombinationsAreRefused(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(["generate"] + arguments, naming: argument)
    }
}

extension FormatCLITests {
    /// `--prefix` on tokens: every line is the prefix, verbatim, then a token of the asked length and
    /// alphabet; the tokens are as many and as distinct as without it.
    @Test func prefixedTokens() throws {
        let r = try CLI.run(["generate", "--alphabet", "base62", "--length", "24", "--prefix", "sk_live_", "--count", "5000"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        let base62 = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        #expect(lines.count == 5000 && Set(lines).count == 5000)
        #expect(lines.allSatisfy { $0.hasPrefix("sk_live_") && $0.count == 32 && $0.dropFirst(8).allSatisfy(base62.contains) })
        // Seeded, the tokens after the prefix are the unprefixed tokens.
        let plain = try CLI.run(["generate", "--length", "10", "--seed", "7", "--count", "3"]).stdout.split(separator: "\n")
        let prefixed = try CLI.run(["generate", "--length", "10", "--seed", "7", "--count", "3", "--prefix", "k-"]).stdout
            .split(separator: "\n")
        #expect(prefixed.map { String($0.dropFirst(2)) } == plain.map(String.init) && prefixed.allSatisfy { $0.hasPrefix("k-") })
    }
}
