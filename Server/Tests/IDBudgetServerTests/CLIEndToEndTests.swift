import Foundation
import HummingbirdTesting
import IDQuestions
import Testing

@testable import IDBudgetServer

/// The real `idbudget` beside the server, end to end: the seed question and a refusal byte for byte,
/// and the audit's declared scheme (its report is the CLI's but for the memory figures). The table of
/// questions is held in process by CLIAgreementTests; this holds the binary that users run. The CLI
/// binary: $IDBUDGET_CLI, or the root package's build (`swift build --product idbudget` at the root);
/// CI sets IDBUDGET_CLI. Serialized: each case waits on a CLI process synchronously, holding one of
/// the few threads async code shares.
@Suite(.serialized, .enabled(if: idbudgetCLI != nil, "no idbudget binary: build it at the root, or set IDBUDGET_CLI"))
struct CLIEndToEndTests {
    static var cli: String? { idbudgetCLI }
}

/// The CLI binary the end-to-end tests run, if there is one.
let idbudgetCLI: String? = {
    if let path = ProcessInfo.processInfo.environment["IDBUDGET_CLI"] { return path }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    return ["debug", "release"].map { root.appendingPathComponent(".build/\($0)/idbudget").path }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}()

extension CLIEndToEndTests {
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

    @Test func theSeedQuestionAndARefusal() async throws {
        let seed = try Self.run([
            "length", "--alphabet", "base62", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11", "--format", "json",
        ])
        let refused = try Self.run(["length", "--alphabet", "base62", "--rate", "1e6/x", "--lifetime", "10y", "--max-probability", "1e-11"])
        #expect(seed.status == 0 && refused.status == 64)
        try await withServer { client in
            let r = try await client.get("/api/v1/length?alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11")
            #expect(r.status == .ok && r.body == seed.out)
            let bad = try await client.get("/api/v1/length?alphabet=base62&rate=1e6/x&lifetime=10y&max-probability=1e-11")
            let error = try decodeError(bad.body)
            #expect(refused.err == "idbudget: error: --\(error.argument ?? ""): \(error.error)\n")
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
        // One refusal of the one layer, in each front end's words: the CLI's `--alphabet`, the API's `alphabet`.
        for (query, arguments, cliArguments) in [
            ("scheme=apns-collapse-id", ["scheme": "apns-collapse-id"] as Arguments, ["--scheme", "apns-collapse-id"]),
            ("scheme=snowflake&bits=64", ["scheme": "snowflake", "bits": "64"], ["--bits", "64", "--scheme", "snowflake"]),
        ] {
            let refused = #expect(throws: ArgumentError.self) { try AuditSettings(arguments) }
            let words = try #require(refused).words
            let cli = try Self.run(["audit", file.path] + cliArguments)
            #expect(cli.status == 64)
            #expect(cli.err == "idbudget: error: --\(try #require(refused).argument): \(words.written(.commandLine))\n", "\(query)")
            try await withServer { client in
                let r = try await client.executeRequest(
                    uri: "/api/v1/audit?\(query)", method: .post, headers: [:], body: .init(string: "1\n"))
                #expect(r.status == .badRequest)
                let error = try decodeError(String(buffer: r.body))
                #expect(error.argument == refused?.argument && error.error == words.written(.query), "\(query)")
                #expect(!words.arguments.isEmpty && !words.arguments.contains { error.error.contains("--\($0)") }, "\(error.error)")
            }
        }
    }

}
