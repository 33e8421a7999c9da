import IDQuestions

/// What refuses a request's body from its head alone. One rule for both askers: NIO's head, before
/// `100 Continue` is sent (``Compute/admits(_:)``), and Hummingbird's request, before the body is read
/// (``TransferCodingMiddleware``), so a body is never asked for and then refused for its head.
enum BodyRules {
    /// The media types an upload of ids may be sent as: the ids are read as the bytes sent, one per
    /// line (or as CSV or JSON lines with `column`/`field`). `application/x-www-form-urlencoded` is
    /// what `curl --data-binary` sends unless told otherwise; its body is taken as sent, not decoded.
    static let auditTypes: Set<String> = [
        "text/plain", "text/csv", "text/tab-separated-values", "application/octet-stream", "application/x-www-form-urlencoded",
        "application/json", "application/x-ndjson", "application/jsonl",
    ]

    /// The refusal of a request by its method, path and headers (`header(name)`: the values of a
    /// header, comma lists split, trimmed, lower-cased), or nil.
    static func refusal(method: String, path: Substring, header: (String) -> [String]) -> Refusal? {
        // A body compressed (`Content-Encoding: gzip`) would be audited as its compressed bytes: 415.
        let encodings = header("content-encoding")
        if encodings.contains(where: { $0 != "identity" }) {
            return Refusal(
                .unsupportedMediaType, argument: "body",
                "Content-Encoding '\(Shown.escaped(encodings.joined(separator: ", ").prefix(80)))' is not served: send the body uncompressed"
            )
        }
        // The parser takes a chunking off, and would hand an audit any other coding's bytes as ids.
        let codings = header("transfer-encoding")
        guard codings.isEmpty || codings == ["chunked"] else {
            return Refusal(
                .badRequest, argument: "request",
                "Transfer-Encoding '\(Shown.escaped(codings.joined(separator: ", ").prefix(80)))' is not served: send the body as it is, chunked or with a Content-Length"
            )
        }
        guard method == "POST", path == "/audit" || path == "/api/v1/audit" else { return nil }
        // The media type without its parameters (`text/plain; charset=utf-8`); nil when none is sent.
        let type = header("content-type").first?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
        if path == "/audit" {
            guard type == "text/plain" else {
                return Refusal(
                    .unsupportedMediaType, argument: "body", "send the form as text/plain (ids=…); or POST the ids to /api/v1/audit")
            }
        } else if let type, !auditTypes.contains(type) {
            // A multipart upload (`curl -F`) would be audited with its boundaries and part headers as ids.
            return Refusal(
                .unsupportedMediaType, argument: "body",
                "Content-Type '\(Shown.escaped(type.prefix(80)))' is not read: send the ids as the body itself, one per line (text/plain, e.g. curl --data-binary @ids.txt), not as a form upload"
            )
        }
        return nil
    }
}
