import Foundation
import HummingbirdTesting
import Testing

@testable import IDBudgetServer

/// The real `idbudget` beside the server: the same answer byte for byte, and the same refusal (the
/// argument and the message) for the same question. Both ask the one layer (`IDQuestions`), so this
/// holds the two mappings to it end to end: the query string's (here) and the options' (OneDoorTests
/// checks those in process). The CLI binary: $IDBUDGET_CLI, or the root package's build
/// (`swift build --product idbudget` at the root); CI sets IDBUDGET_CLI, and then a missing binary fails.
/// Serialized: each case waits on a CLI process synchronously, holding one of the few threads async
/// code shares; two at once could starve the deadline timer another suite's 503 test relies on.
@Suite(.serialized, .enabled(if: idbudgetCLI != nil, "no idbudget binary: build it at the root, or set IDBUDGET_CLI"))
struct CLIAgreementTests {
    static var cli: String? { idbudgetCLI }
}

/// The CLI binary the agreement tests run, if there is one.
let idbudgetCLI: String? = {
    if let path = ProcessInfo.processInfo.environment["IDBUDGET_CLI"] { return path }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return ["debug", "release"].map { root.appendingPathComponent(".build/\($0)/idbudget").path }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}()

extension CLIAgreementTests {

    /// Runs the CLI; its stdout, stderr and exit status.
    static func run(_ arguments: [String]) throws -> (out: String, err: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(cli))
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), process.terminationStatus)
    }

    /// The CLI's arguments for a query: `command?a=1&b=2` → `command --a 1 --b 2 --format json`.
    /// `inspect`'s id is the CLI's argument, not an option: `inspect?id=X` → `inspect X`.
    static func arguments(_ path: String) -> [String] {
        let parts = path.split(separator: "?", maxSplits: 1)
        var arguments = [String(parts[0])]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = (kv.count == 2 ? String(kv[1]) : "").removingPercentEncoding ?? ""
                arguments.append(kv[0] == "id" ? value : "--\(kv[0])=\(value)")
            }
        }
        return arguments + ["--format", "json"]
    }

    static let questions = [
        "length?alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11",
        "length?alphabet-size=36&count=3.1536e14&max-probability=1e-12",
        "length?alphabet=hex&count=1e9&max-probability=1e-12&max-bytes=16",
        "probability?alphabet=base62&length=22&rate=1e6/s&lifetime=10y",
        "probability?scheme=uuid7&rate=1e6/s&lifetime=10y",
        "probability?scheme=ulid&rate=2000/min&lifetime=6M&nodes=12",
        "probability?space-size=2^64&count=2^32&scopes=1000",
        "probability?bits=122&count-per-scope=1e9&scopes=1e8",
        "capacity?bits=122&max-probability=1e-18&rate=1e6/s",
        "capacity?scheme=uuid4&max-probability=1e-9&scopes=100",
        "plan?rate=1e6/s&lifetime=10y&max-probability=1e-11",
        "plan?count=1e9&max-probability=1e-12&max-bytes=16",
        "schemes",
        "inspect?id=user_01h455vb4pex5vsknk084sn02q",
        "inspect?id=175928847299117063&scheme=discord",
        "inspect?id=8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
        "inspect?id=a%01b%C3%A9%F0%9F%98%80",
        "length?alphabet=base62&rate=1e4/s&lifetime=10y&max-probability=1e-9",
        // Node-id schemes: p over the node field (the README's 50 Snowflake workers), assigned, per-node rate.
        "probability?scheme=snowflake&nodes=50",
        "probability?scheme=snowflake&nodes=50&node-ids=assigned&rate=5000/ms",
        "probability?scheme=snowflake&nodes=2000&node-ids=assigned",
        "probability?scheme=xid&nodes=1e4&rate=1e6/s&count=5",
        "probability?scheme=uuid1&nodes=1e6",
        // Growth, ids already stored, arrivals: read by the same library code as the CLI's options.
        "probability?alphabet=base62&length=16&rate=1000/s&growth=40%25/y&lifetime=5y&existing=1e9",
        "probability?scheme=uuid7&rate=1e3/s&lifetime=1y&arrivals=even",
        "length?alphabet=base62&rate=1e5/s&lifetime=3y&growth=2x/y&max-probability=1e-9",
        "plan?count=1e6&existing=1e9&max-probability=1e-12",
        // A format's fit: over budget (the CLI exits 1 and prints the same answer), node fields, Nano ID's shortest.
        "length?scheme=uuid7&rate=1e6/s&lifetime=10y&max-probability=1e-11",
        "length?scheme=snowflake&nodes=50&count=5&max-probability=1e-6",
        "length?scheme=tsid&nodes=1000&node-ids=assigned&rate=100/ms&max-probability=1e-9",
        "length?scheme=nanoid&count=1e9&max-probability=1e-12&max-bytes=16",
        // capacity with growth, stored ids, arrivals and a start day: the CLI's options, read by the same code.
        "capacity?bits=64&max-probability=1e-9&rate=1000/s&growth=40%25/y&existing=1e3&from=2026-01-01",
        "capacity?scheme=ksuid&max-probability=1e-12&rate=1e9/s&growth=2x/y&from=2026-01-01",
        "capacity?scheme=uuid7&max-probability=1e-9&rate=500/s&arrivals=even",
        "capacity?bits=16&max-probability=1e-3&existing=2",
        // length's dates: a schedule dated from a start day, a lifetime ending on a day.
        "length?alphabet=base62&rate=1000/s&growth=40%25/y&from=2026-01-01&until=2031-01-01&max-probability=1e-9",
        "length?alphabet=hex&rate=1e4/s&from=2026-01-01&until=2036-01-01&max-probability=1e-9",
        "length?scheme=uuid7&rate=1e6/s&from=2026-01-01&until=2036-01-01&max-probability=1e-11",
        "length?scheme=xid&nodes=30&rate=1/s&until=2030-01-01&max-probability=1e-9",
        "length?scheme=snowflake&nodes=3&count=100&from=2027-01-01&max-probability=1e-9",
        // retries: the README's store, and a budget for running out of attempts.
        "retries?alphabet=base62&length=8&count=1e6&max-attempts=3",
        "retries?alphabet=base62&length=8&count=1e6&max-attempts=3&max-probability=1e-9",
        "retries?bits=40&rate=1000/s&lifetime=30d",
        // A full store (infinite attempts, null), and a capacity past 2^4096 (at least 2^4096).
        "retries?bits=8&count=256&max-attempts=2",
        "retries?bits=8&count=300&max-attempts=2&max-probability=1e-3",
        "retries?alphabet=base36&length=55508&rate=3/h&lifetime=74y&max-attempts=90&max-probability=0.39",
        // None stored is taken beside a time-bucketed format by capacity too, as by probability and length.
        "capacity?scheme=ulid&max-probability=1e-9&existing=0",
        "probability?scheme=ulid&rate=5/s&lifetime=1y&existing=0",
    ]

    @Test(arguments: questions)
    func sameAnswer(_ path: String) async throws {
        let cli = try Self.run(Self.arguments(path))
        try await withServer { client in
            let r = try await client.get("/api/v1/\(path)")
            #expect(r.status == .ok)
            #expect(r.body == cli.out, "\(path)")
        }
    }

    /// `audit?scheme=…` declares the format, as `idbudget audit --scheme` does (the ids read in that
    /// layout), and refuses what the CLI refuses. The ids are Discord Snowflakes minted by the CLI (they fit both layouts).
    @Test func auditTakesAScheme() async throws {
        let minted = try Self.run(["generate", "--scheme", "discord", "--count", "3000"])
        #expect(minted.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-discord-\(UUID().uuidString).txt")
        try minted.out.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        for (scheme, format) in [("", "Discord"), ("snowflake", "Snowflake"), ("discord", "Discord")] {
            let cli = try Self.run(["audit", file.path, "--format", "json"] + (scheme.isEmpty ? [] : ["--scheme", scheme]))
            let cliFormat = try #require(try JSONSerialization.jsonObject(with: Data(cli.out.utf8)) as? [String: Any])["format"] as? String
            #expect(cliFormat == format)
            try await withServer { client in
                let r = try await client.executeRequest(
                    uri: "/api/v1/audit" + (scheme.isEmpty ? "" : "?scheme=\(scheme)"), method: .post, headers: [:],
                    body: .init(string: minted.out))
                #expect(r.status == .ok)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: r.body).utf8)) as? [String: Any])
                #expect(json["format"] as? String == format, "\(scheme)")
            }
        }
        for (query, cliArguments) in [
            ("scheme=apns-collapse-id", ["--scheme", "apns-collapse-id"]),
            ("scheme=snowflake&bits=64", ["--bits", "64", "--scheme", "snowflake"]),
        ] {
            let cli = try Self.run(["audit", file.path] + cliArguments)
            #expect(cli.status == 64)
            try await withServer { client in
                let r = try await client.executeRequest(
                    uri: "/api/v1/audit?\(query)", method: .post, headers: [:], body: .init(string: "1\n"))
                #expect(r.status == .badRequest)
                let error = try decodeError(String(buffer: r.body))
                #expect("idbudget: error: \(error.argument ?? ""): \(error.error)\n" == cli.err, "\(query)")
            }
        }
    }

    /// Refusals the server's port resolves: the CLI says `idbudget: error: ARGUMENT: MESSAGE`.
    static let refusals = RefusalTests.badQuestions.map(\.0).filter {
        // The API's own refusals (no --format, one value a name, a parameter it does not know) and
        // ArgumentParser's (a missing option) are worded differently by design.
        !$0.contains("format=") && !$0.contains("count=5&count=") && !$0.hasPrefix("schemes?")
            && $0 != "length?alphabet=base62&rate=1e6/s&lifetime=10y" && !$0.contains("count=-5")
            // With no id the CLI reads ids from standard input: nothing to refuse.
            && $0 != "inspect?scheme=uuid7"
            // `retries` on the CLI has no --scopes or --existing at all (ArgumentParser's "Unknown option",
            // exit 64); the API says why it refuses them.
            && !($0.hasPrefix("retries?") && ($0.contains("existing=") || $0.contains("scopes=")))
    }

    @Test(arguments: refusals)
    func sameRefusal(_ path: String) async throws {
        let cli = try Self.run(Self.arguments(path))
        #expect(cli.status == 64, "\(path): \(cli.err)")
        try await withServer { client in
            let r = try await client.get("/api/v1/\(path)")
            let error = try decodeError(r.body)
            #expect("idbudget: error: \(error.argument ?? ""): \(error.error)\n" == cli.err, "\(path)")
        }
    }
}
