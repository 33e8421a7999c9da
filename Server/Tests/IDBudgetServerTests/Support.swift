import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import IDBudget
import Logging
import NIOCore
import Testing

@testable import IDBudgetServer

/// The application as the server builds it, driven in memory (or on a loopback port with `.live`).
func withServer<Value: Sendable>(
    _ setup: TestingSetup = .router, settings: ServerSettings = ServerSettings(),
    _ test: @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    var logger = Logger(label: "idbudget-serve-tests")
    logger.logLevel = .warning
    let app = buildApplication(host: "127.0.0.1", port: 0, settings: settings, logger: logger)
    return try await app.test(setup, test)
}

extension TestClientProtocol {
    /// GET `uri`, the response's status, headers and body as text.
    func get(_ uri: String) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        let r = try await executeRequest(uri: uri, method: .get, headers: [:], body: nil)
        return (r.status, r.headers, String(buffer: r.body))
    }
}

/// A refusal's JSON.
struct ErrorBody: Decodable, Equatable {
    let error: String
    let argument: String?
}

func decodeError(_ body: String) throws -> ErrorBody {
    try JSONDecoder().decode(ErrorBody.self, from: Data(body.utf8))
}

/// What `idbudget … --format json` prints: the answer's JSON and a newline.
func cliText(_ answer: some Answer) throws -> String { try answer.jsonText() + "\n" }

/// A query string from pairs, percent-encoded as a browser would.
func query(_ pairs: [(String, String)]) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~/^")
    return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
}
