import Foundation
import HTTPTypes
import Hummingbird
import IDQuestions
import Logging
import NIOCore
import NIOHTTP1

/// The security headers, on every response (errors included): no framing, no sniffing, no referrer,
/// nothing loaded from anywhere but this server.
enum SecurityHeaders {
    static var fields: HTTPFields {
        [
            .contentSecurityPolicy: "default-src 'self'; frame-ancestors 'none'",
            .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer",
        ]
    }
}

/// Puts ``SecurityHeaders`` on every response the router makes.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var headers: HTTPFields { SecurityHeaders.fields }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for field in Self.headers { response.headers[field.name] = field.value }
        return response
    }
}

/// The method a request came with, where ``MethodResponder`` hands it on as another (HEAD as GET),
/// so that its log line names what the client sent.
enum RequestMethod {
    @TaskLocal static var original: String?
}

/// A client's text as a log field: control characters escaped, and the space, `=` and `%` percent-encoded,
/// so that a field can not end early or forge another (`Host: evil status=200` stays one field).
enum LogField {
    static func text(_ raw: some StringProtocol) -> String {
        var out = ""
        for c in Shown.escaped(raw).unicodeScalars {
            switch c {
            case " ": out += "%20"
            case "=": out += "%3D"
            case "%": out += "%25"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}

/// One structured line per request: method, path, status, duration.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var status = 500
        defer {
            let elapsed = ContinuousClock.now - start
            // Milliseconds to three places, without String(format:) (Foundation's formatter on every request).
            let us = Int(elapsed.components.seconds) * 1_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000_000)
            let ms = "\(us / 1000)." + String(String(1000 + us % 1000).dropFirst())
            logger.info(
                "request",
                metadata: [
                    "method": "\(LogField.text(RequestMethod.original ?? request.method.rawValue))",
                    "path": "\(LogField.text(request.uri.path.prefix(200)))",
                    "status": "\(status)",
                    "duration_ms": "\(ms)",
                ])
        }
        let response = try await next(request, context)
        status = response.status.code
        return response
    }
}

/// Every error as JSON `{"error": …, "argument": …}`: refusals with their status, an unknown path 404,
/// a known path with a method it does not declare 405 (with `Allow`), anything else 400 — a client
/// never gets a 5xx but 503.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The declared paths and their methods.
    let routes: [String: [HTTPRequest.Method]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let refusal as Refusal {
            var response = Self.response(refusal)
            // A refused upload's body is not read (a busy 503 comes before it): the connection closes,
            // or the client could trickle the rest for as long as it likes past every body deadline.
            if request.method == .post { response.headers[.connection] = "close" }
            return response
        } catch let error as any HTTPResponseError {
            if error.status == .notFound {
                if var methods = routes[request.uri.path] {
                    if methods.contains(.get) { methods.append(.head) }
                    var response = Self.response(
                        Refusal(
                            .methodNotAllowed, argument: "method",
                            "\(request.method.rawValue.prefix(20)) is not allowed here; use \(methods.map(\.rawValue).joined(separator: " or "))"
                        ))
                    response.headers[.allow] = methods.map(\.rawValue).joined(separator: ", ")
                    // A refused method's body (a PUT's upload) is not read: the connection carries nothing more.
                    response.headers[.connection] = "close"
                    return response
                }
                return Self.response(Refusal(.notFound, argument: "path", "no such page: \(request.uri.path.prefix(100))"))
            }
            // Hummingbird's own refusals (a malformed request, a body too large): their status, if a 4xx.
            let status: HTTPResponse.Status = error.status.kind == .clientError ? error.status : .badRequest
            return Self.response(Refusal(status, argument: nil, status.reasonPhrase))
        } catch let parse as HTTPParserError {
            // A body the parser refuses mid-way (a bad chunk size): the request's fault, named as such.
            var response = Self.response(Refusal(.badRequest, argument: "request", ParseErrorHandler.message(parse)))
            response.headers[.connection] = "close"
            return response
        } catch {
            var response = Self.response(Refusal(.badRequest, argument: "request", "the request could not be read whole: \(error)"))
            response.headers[.connection] = "close"
            return response
        }
    }

    static func response(_ refusal: Refusal) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if refusal.status == .serviceUnavailable { headers[.retryAfter] = "1" }
        // An upload refused part way (too slow, too large): the rest of its body is not read, so the
        // connection can carry nothing more.
        if refusal.status == .requestTimeout || refusal.status == .contentTooLarge { headers[.connection] = "close" }
        return Response(
            status: refusal.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: refusal.jsonText + "\n")))
    }
}

/// Refuses a body in a transfer coding other than chunked alone (`gzip, chunked`): the parser takes
/// the chunking off and would hand an audit the compressed bytes as ids. RFC 9112 §6.1 lets a server
/// refuse a coding it does not know; 400, not 501 — a client never gets a 5xx. A body in a content
/// coding (`Content-Encoding: gzip`) is 415 (RFC 9110 §8.4.1), an `Expect` the server can not meet
/// 417 (§10.1.1). The body is not read, so the connection closes. The page's own `POST /audit` is
/// refused as the page (``PageRoutes/refused(_:_:)``), the API's as JSON.
struct TransferCodingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let refusal = Self.refusal(of: request) else { return try await next(request, context) }
        if request.method == .post, request.uri.path == "/audit" { return PageRoutes.refused(request, refusal) }
        var response = ErrorMiddleware<Context>.response(refusal)
        response.headers[.connection] = "close"
        return response
    }

    /// What refuses the request before its body is read, if anything: the body's rules
    /// (``BodyRules``), then the head's own (one Host, no expectation but 100-continue).
    static func refusal(of request: Request) -> Refusal? {
        let rules = BodyRules.refusal(method: request.method.rawValue, path: Substring(request.uri.path)) { name in
            guard let field = HTTPField.Name(name) else { return [] }
            return request.headers[values: field].flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
        }
        if let rules { return rules }
        // An HTTP/1.1 request without exactly one Host (marked by HTTP1Semantics): 400.
        if let hosts = request.headers[HTTPField.Name(HTTP1Semantics.hostCount)!] {
            return Refusal(
                .badRequest, argument: "request",
                "an HTTP/1.1 request carries exactly one Host header; this one has \(Shown.escaped(hosts.prefix(8)))")
        }
        // An expectation other than 100-continue (which HTTP1Semantics answers) can not be met: 417.
        if let expect = request.headers[.expect] {
            return Refusal(
                .expectationFailed, argument: "request",
                "Expect '\(Shown.escaped(expect.prefix(80)))' can not be met; send the request without it (or Expect: 100-continue)")
        }
        return nil
    }
}

extension HTTPField.Name {
    static let referrerPolicy = Self("Referrer-Policy")!
}

/// HEAD wherever GET works (RFC 9110 §9.3.2), around the router (whose routes are chosen by method
/// before any middleware runs): answered as GET, with its status and headers (its Content-Length too)
/// and no body. (CONNECT never gets this far: `ParseErrorHandler` refuses it.)
struct MethodResponder<Inner: HTTPResponder>: HTTPResponder {
    let inner: Inner

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        switch request.method {
        case .head:
            var head = request.head
            head.method = .get
            var response = try await RequestMethod.$original.withValue("HEAD") {
                try await inner.respond(to: Request(head: head, body: request.body), context: context)
            }
            let length = response.body.contentLength
            response.body = ResponseBody(contentLength: length) { writer in try await writer.finish(nil) }
            return response
        default:
            return try await inner.respond(to: request, context: context)
        }
    }
}

/// A router with ``MethodResponder`` around it.
struct WithMethods<Router: HTTPResponderBuilder>: HTTPResponderBuilder {
    let router: Router

    func buildResponder() -> MethodResponder<Router.Responder> { MethodResponder(inner: router.buildResponder()) }
}
