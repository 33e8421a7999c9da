import Foundation
import HummingbirdTesting
import IDBudget
import IDQuestions
import Testing

@testable import IDBudgetServer

/// The API answers what the one layer (`IDQuestions`) answers, in process: for every question of the
/// table, the body is byte for byte what `Question(command, arguments).answer()` prints as JSON (the
/// CLI's `--format json`), and every refusal is the layer's (the argument, the message shortened as
/// the CLI shortens it). The query is read here by a parser of the test's own, not the server's
/// `Query`. The CLI's half is OneDoorTests at the root: each command passes its options to the same
/// `Question` unchanged, so the CLI and the API agree by construction, both held in process.
/// CLIEndToEndTests runs the real binary for the seed question and the audit.
@Suite struct CLIAgreementTests {
    /// `command?a=1&b=2`: the command and its named arguments, percent-decoded.
    static func asked(_ path: String) throws -> (Question.Command, Arguments) {
        let parts = path.split(separator: "?", maxSplits: 1)
        let command = try #require(Question.Command(rawValue: String(parts[0])))
        var arguments = Arguments()
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                arguments[String(kv[0])] = (kv.count == 2 ? String(kv[1]) : "").removingPercentEncoding ?? ""
            }
        }
        return (command, arguments)
    }

    /// What the layer answers for `path`: the CLI's JSON text, or its refusal.
    static func layer(_ path: String) throws -> Result<String, ArgumentError> {
        let (command, arguments) = try asked(path)
        do {
            let answer = try Question(command, arguments).answer()
            return .success(try (answer is InspectAnswer ? answer.jsonLine() : answer.jsonText()) + "\n")
        } catch let error as ArgumentError {
            return .failure(error)
        }
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
        guard case .success(let text) = try Self.layer(path) else {
            Issue.record("the layer refused \(path)")
            return
        }
        try await withServer { client in
            let r = try await client.get("/api/v1/\(path)")
            #expect(r.status == .ok)
            #expect(r.body == text, "\(path)")
        }
    }

    /// Refusals the layer makes (the API's own — a format, a value given twice, a parameter it does
    /// not know, a negative written before the layer sees it — are RefusalTests').
    static let refusals = RefusalTests.badQuestions.map(\.0).filter {
        // The API's own refusals (no --format, one value a name, a parameter it does not know) and
        // ArgumentParser's (a missing option) are worded differently by design.
        !$0.contains("format=") && !$0.contains("count=5&count=") && !$0.hasPrefix("schemes?")
            && $0 != "length?alphabet=base62&rate=1e6/s&lifetime=10y" && !$0.contains("count=-5")
            // With no id the CLI reads ids from standard input: nothing to refuse.
            && $0 != "inspect?scheme=uuid7"
    }

    @Test(arguments: refusals)
    func sameRefusal(_ path: String) async throws {
        guard case .failure(let refused) = try Self.layer(path) else {
            Issue.record("the layer answered \(path)")
            return
        }
        try await withServer { client in
            let r = try await client.get("/api/v1/\(path)")
            #expect(r.status == .badRequest)
            let error = try decodeError(r.body)
            #expect(
                error.argument == refused.argument
                    && error.error == refused.shortMessage(.query),
                "\(path)")
            // The API's words: no CLI option syntax for any argument the words name.
            #expect(!refused.words.arguments.contains { error.error.contains("--\($0)") }, "\(path): \(error.error)")
        }
    }
}
