import Foundation
import HTTPTypes
import HummingbirdTesting
import IDAudit
import IDBudget
import Testing

@testable import IDBudgetServer

/// Every endpoint's answer is the library's `jsonText()` for the same question (which LibraryContractTests,
/// in the root package, hold equal to the CLI's `--format json`), built here straight from the library's
/// parsers and Planner — not through the server's own option handling.
@Suite struct APITests {
    @Test func seedArticleLength() async throws {
        let expected = try cliText(
            Planner.length(
                alphabet: .base62, volume: Workload(rate: Rate(parsing: "1e6/s"), lifetime: Lifetime(parsing: "10y")).volume(),
                budget: Budget(parsing: "1e-11"), from: Planner.today))
        try await withServer { client in
            let r = try await client.get("/api/v1/length?alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11")
            #expect(r.status == .ok)
            #expect(r.body == expected)
            #expect(r.headers[.contentType] == "application/json; charset=utf-8")
            let answer = try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any]
            #expect(answer?["length"] as? Int == 23)
        }
    }

    @Test func probabilityOfAnAlphabetAndLength() async throws {
        let expected = try cliText(
            Planner.probability(space: Space(alphabet: .hex, length: 32), volume: Workload(count: BigInt(1_000_000_000)).volume()))
        try await withServer { client in
            let r = try await client.get("/api/v1/probability?alphabet=hex&length=32&count=1e9")
            #expect(r.status == .ok)
            #expect(r.body == expected)
        }
    }

    @Test func probabilityOfATimeBucketedScheme() async throws {
        let scheme = try #require(Scheme.named("uuid7"))
        let volume = try Workload(rate: Rate(parsing: "1e6/s"), lifetime: Lifetime(parsing: "10y"), peakRate: Rate(parsing: "5e6/s"))
            .volume(scheme: scheme)
        let expected = try cliText(Planner.probability(space: Space(scheme: scheme), volume: volume, scheme: scheme))
        try await withServer { client in
            let r = try await client.get("/api/v1/probability?scheme=uuid7&rate=1e6/s&lifetime=10y&peak-rate=5e6/s")
            #expect(r.status == .ok)
            #expect(r.body == expected)
        }
    }

    @Test func probabilityWithScopesAndNodes() async throws {
        let volume = try Workload(count: BigInt(1_000_000), nodes: BigInt(12), scopes: BigInt(100)).volume()
        let expected = try cliText(Planner.probability(space: Space(bits: 64), volume: volume))
        try await withServer { client in
            let r = try await client.get("/api/v1/probability?bits=64&count=1000000&nodes=12&scopes=100")
            #expect(r.body == expected)
        }
    }

    @Test func capacity() async throws {
        let expected = try cliText(
            Planner.capacity(
                space: Space(bits: 122), budget: Budget(parsing: "1e-18"), scopes: BigInt(1), rate: Rate(parsing: "1e6/s"),
                from: Planner.today))
        try await withServer { client in
            let r = try await client.get("/api/v1/capacity?bits=122&max-probability=1e-18&rate=1e6/s")
            #expect(r.status == .ok)
            #expect(r.body == expected)
        }
    }

    @Test func plan() async throws {
        let workload = try Workload(rate: Rate(parsing: "1e6/s"), lifetime: Lifetime(parsing: "10y"))
        let expected = try cliText(Planner.plan(workload: workload, budget: Budget(parsing: "1e-11")))
        let sixteen = try cliText(Planner.plan(workload: workload, budget: Budget(parsing: "1e-11"), maxBytes: 16))
        try await withServer { client in
            let r1 = try await client.get("/api/v1/plan?rate=1e6/s&lifetime=10y&max-probability=1e-11")
            #expect(r1.body == expected)
            let r2 = try await client.get("/api/v1/plan?rate=1e6/s&lifetime=10y&max-probability=1e-11&max-bytes=16")
            #expect(r2.body == sixteen)
        }
    }

    @Test func lengthWithCustomSymbolsAndByteLimit() async throws {
        let volume = try Workload(count: BigInt(500)).volume()
        let expected = try cliText(
            Planner.length(alphabet: Alphabet(symbols: "ACGT"), volume: volume, budget: Budget(parsing: "1e-12"), maxBytes: 8))
        try await withServer { client in
            let r = try await client.get("/api/v1/length?symbols=ACGT&count=500&max-probability=1e-12&max-bytes=8")
            #expect(r.status == .ok)
            #expect(r.body == expected)
        }
    }

    /// A value echoed in a refusal is escaped as the CLI escapes it: control characters, and format
    /// characters too (U+202E would turn the rest of a log line around).
    @Test func echoedValuesAreEscapedAsTheCLIEscapesThem() async throws {
        try await withServer { client in
            let r = try await client.get("/api/v1/length?alphabet=base62%E2%80%AE%1B&count=5&max-probability=1e-9")
            #expect(r.status == .badRequest)
            let error = try decodeError(r.body).error
            #expect(error.contains("base62\\u{202e}\\u{1b}") && !error.contains("\u{202E}"), "\(error)")
        }
    }

    @Test func schemes() async throws {
        let expected = try cliText(SchemesAnswer())
        try await withServer { client in
            let r3 = try await client.get("/api/v1/schemes")
            #expect(r3.body == expected)
        }
    }

    @Test func auditStreamsTheBody() async throws {
        // 40,000 ids over many chunks (the test client sends 32 KiB at a time), one planted duplicate.
        var ids = (0..<40_000).map { String(format: "%016llx", UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }
        ids.append(ids[17])
        let text = ids.joined(separator: "\n") + "\n"
        let auditor = try Auditor(threads: 1)
        try Array(text.utf8).withUnsafeBytes { try auditor.consume($0) }
        let expected = try cliText(AuditReport(summary: auditor.finish(), claimedBits: 64, resources: nil))
        try await withServer { client in
            let r = try await client.executeRequest(uri: "/api/v1/audit?bits=64", method: .post, headers: [:], body: .init(string: text))
            #expect(r.status == .ok)
            #expect(String(buffer: r.body) == expected)
            #expect(String(buffer: r.body).contains("\"duplicate_ids\" : \"1\""))
        }
    }

    /// A declared shape, as `idbudget audit --alphabet A --length L --max-invalid N` takes it: every
    /// line of it passes, a line of another shape past the allowance fails (invalid-ids), and a
    /// half-declared shape is refused naming what to add.
    @Test func auditTakesADeclaredShape() async throws {
        let ids = (0..<2000).map { String(format: "%016llx", UInt64($0 + 1) &* 0x9E37_79B9_7F4A_7C15) }
        let text = ids.joined(separator: "\n") + "\n"
        try await withServer { client in
            func audit(_ query: String, _ body: String) async throws -> (HTTPResponse.Status, [String: Any]) {
                let r = try await client.executeRequest(
                    uri: "/api/v1/audit?" + query, method: .post, headers: [:], body: .init(string: body))
                return (r.status, (try? JSONSerialization.jsonObject(with: Data(String(buffer: r.body).utf8)) as? [String: Any]) ?? [:])
            }
            let (ok, good) = try await audit("alphabet=hex&length=16", text)
            #expect(ok == .ok && good["verdict_code"] as? String == "consistent", "\(good)")
            let (_, bad) = try await audit("alphabet=hex&length=16", text + "not-an-id\n")
            #expect(bad["verdict_code"] as? String == "invalid-ids", "\(bad)")
            let (_, allowed) = try await audit("alphabet=hex&length=16&max-invalid=1", text + "not-an-id\n")
            #expect(allowed["verdict_code"] as? String == "consistent", "\(allowed)")
            let (half, refusal) = try await audit("alphabet=hex", text)
            #expect(half == .badRequest && refusal["argument"] as? String == "alphabet", "\(refusal)")
            let (signed, _) = try await audit("alphabet=hex&length=16&max-invalid=%2B1", text)
            #expect(signed == .badRequest)
            let (padded, _) = try await audit("alphabet=hex&length=16&max-invalid=05", text)
            #expect(padded == .badRequest)
        }
    }

    @Test func healthOpenAPIAndFavicon() async throws {
        try await withServer { client in
            let health = try await client.get("/healthz")
            #expect(health.status == .ok)
            #expect(health.body == "{\"status\":\"ok\"}\n")
            let openapi = try await client.get("/openapi.json")
            let document = try JSONSerialization.jsonObject(with: Data(openapi.body.utf8)) as? [String: Any]
            #expect(document?["openapi"] as? String == "3.1.0")
            let paths = try #require(document?["paths"] as? [String: Any])
            // The document declares every route the server answers, and no other (the page and what it
            // loads and posts to are not the API).
            #expect(
                Set(paths.keys).subtracting(["/"])
                    == Set(declaredRoutes.keys).subtracting(["/", "/favicon.ico", "/favicon.svg", "/style.css", "/app.js", "/audit"]))
            let icon = try await client.get("/favicon.ico")
            #expect(icon.status == .ok)
            #expect(icon.headers[.contentType] == "image/svg+xml")
        }
    }
}
