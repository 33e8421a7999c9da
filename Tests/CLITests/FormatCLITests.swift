import Foundation
import Testing

/// `idbudget generate --scheme …`, checked by independent decoders (Python's uuid, python-ulid,
/// cyksuid; Tests/Oracles/check_formats.py, which first proves it catches broken streams).
@Suite struct FormatCLITests {
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
    ])
    func badCombinationsAreRefused(arguments: [String], argument: String) throws {
        let r = try CLI.run(["generate"] + arguments)
        #expect(r.status == 64 && r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(argument), "\(r.stderr)")
    }
}
