import HTTPTypes
import IDQuestions
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request NIO's parser refuses — a head over its limits (80 KiB), a method HTTP/1.1 does not know,
/// a malformed header line — gets the JSON refusal every other bad request gets, with the security
/// headers, where Hummingbird would write a bare `400` with no body.
///
/// It sits after the HTTP/1 codec. A parse error between requests is answered at once, or — when
/// pipelined requests before it still await their responses — right after the last of them. A parse
/// error inside a request's body (a bad chunk size) is left to reach that request's handler, which
/// answers it as JSON like any other error.
final class ParseErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Heads read whose responses have not ended (pipelined requests can be more than one).
    private var open = 0
    /// A head read whose request has not ended (its body is still coming).
    private var midRequest = false
    /// A refusal waiting for the responses before it.
    private var pending: Refusal?
    /// A CONNECT was read, or a response closes the connection: nothing after it is handed on.
    private var refusing = false
    /// A refused CONNECT's path, where it gave one: its 405's `Allow` is that path's methods.
    private var connectPath: String?
    /// The response being written says `Connection: close`.
    private var closing = false
    /// Where each refusal gets its line, as every request the router answers does.
    private let logger: Logger

    init(logger: Logger) { self.logger = logger }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        switch unwrapInboundIn(data) {
        case .head(let head) where head.method == .connect:
            // The parser reads nothing after a CONNECT (it would be a tunnel's bytes), so the request
            // never ends and a refusal from the router would leave the client waiting for the idle
            // timeout: refuse it here and close.
            refusing = true
            connectPath = head.path
            let refusal = Refusal(
                .methodNotAllowed, argument: "method", "CONNECT is not served: this server tunnels nothing; use GET (or POST for /audit)")
            if open == 0 {
                refuse(context: context, refusal, method: "CONNECT", path: head.authority ?? head.path ?? "")
            } else {
                pending = refusal
            }
            return
        case .head:
            open += 1
            midRequest = true
        case .end: midRequest = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            // A response that says `Connection: close` (a refused method's, an upload refused part
            // way) ends the connection: Hummingbird closes only when the request said so, and would
            // go on to answer requests pipelined behind it.
            if head.headerFields[.connection]?.lowercased() == "close" { closing = true }
            context.write(data, promise: promise)
            return
        case .body:
            context.write(data, promise: promise)
            return
        case .end:
            break
        }
        open = max(0, open - 1)
        if closing {
            refusing = true
            let channel = context.channel
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in Self.closeLingering(channel) }
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            return
        }
        context.write(data, promise: promise)
        if open == 0, let refusal = pending {
            pending = nil
            refuse(context: context, refusal)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After a refusal the parser may go on failing on the rest of what was sent: it is discarded.
        if refusing, error is HTTPParserError { return }
        guard let parse = error as? HTTPParserError, !midRequest else {
            context.fireErrorCaught(error)
            return
        }
        // The connection ended inside a head (closed by the client, or by the idle timeout): no one
        // is left to answer. Its line says so, not "400".
        if parse == .invalidEOFState {
            logger.info(
                "request",
                metadata: [
                    "method": "-", "path": "-", "status": "none", "refused_by": "parser",
                    "reason": "\(LogField.text("the connection ended inside a request head (the client closed it, or the idle timeout)"))",
                ])
            context.close(promise: nil)
            return
        }
        let refusal = Refusal(.badRequest, argument: "request", Self.message(parse))
        refusing = true
        if open == 0 { refuse(context: context, refusal) } else { pending = refusal }
    }

    /// `t` (Unix seconds) as an HTTP date, RFC 9110's IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ t: time_t) -> String {
        var t = t
        var tm = tm()
        gmtime_r(&t, &tm)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(tm.tm_wday) % 7]), \(two(tm.tm_mday)) \(months[Int(tm.tm_mon) % 12]) \(tm.tm_year + 1900) "
            + "\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec)) GMT"
    }

    /// The JSON refusal, then the connection closed: after a parse error (or a CONNECT) nothing more
    /// can be read from it. The close lingers: the sending side first, then the whole after the client
    /// closes or ``linger``, what it still sends read and dropped meanwhile. Closed at once with unread
    /// bytes (the rest of 3,000 headers), the kernel would reset the connection, and a reset can reach
    /// the client before the refusal does, which it then never reads.
    private func refuse(context: ChannelHandlerContext, _ refusal: Refusal, method: String = "-", path: String = "-") {
        logger.info(
            "request",
            metadata: [
                "method": "\(LogField.text(method))", "path": "\(LogField.text(path.prefix(200)))",
                "status": "\(refusal.status.code)", "refused_by": "parser", "reason": "\(LogField.text(refusal.message.prefix(120)))",
            ])
        let body = ByteBuffer(string: refusal.jsonText + "\n")
        var fields = SecurityHeaders.fields
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        fields[.connection] = "close"
        fields[.contentLength] = String(body.readableBytes)
        // RFC 9110 §6.6.1: a server with a clock sends `Date` in every 4xx, as Hummingbird does in its own.
        fields[.date] = Self.httpDate(time(nil))
        if refusal.status == .methodNotAllowed {
            // What the target allows, where it is one of the server's paths (HEAD wherever GET).
            let target = connectPath.flatMap { $0.split(separator: "?", maxSplits: 1).first }.map(String.init) ?? ""
            var methods = declaredRoutes[target] ?? [.get, .post]
            if methods.contains(.get) { methods.insert(.head, at: 1) }
            fields[.allow] = methods.map(\.rawValue).joined(separator: ", ")
        }
        let channel = context.channel
        // NIO's encoder writes no body (and no length) in a response to CONNECT, as if a tunnel
        // followed: the refusal goes out as bytes below it, framed, then the connection closes.
        if method == "CONNECT", let encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self) {
            var head = "HTTP/1.1 \(refusal.status.code) \(refusal.status.reasonPhrase)\r\n"
            for field in fields { head += "\(field.name.rawName): \(field.value)\r\n" }
            var bytes = ByteBuffer(string: head + "\r\n")
            var rest = body
            bytes.writeBuffer(&rest)
            encoder.writeAndFlush(NIOAny(bytes)).whenComplete { _ in Self.closeLingering(channel) }
            return
        }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: refusal.status, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in Self.closeLingering(channel) }
    }

    /// How long a refused connection is read (and dropped) before it is closed whole.
    static let linger: TimeAmount = .seconds(2)

    private static func closeLingering(_ channel: any Channel) {
        channel.close(mode: .output, promise: nil)
        channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
    }

    static func message(_ error: HTTPParserError) -> String {
        switch error {
        case .headerOverflow: "the request head is over the server's limits (80 KiB of headers, 1,000 header lines); send a smaller one"
        case .invalidMethod: "not an HTTP/1.1 method; use GET (or POST for /api/v1/audit and /audit)"
        // A line ended by LF alone (`printf 'GET / HTTP/1.1\n…'`) fails here or below, not at the version.
        case .invalidVersion: "not HTTP/1.0 or HTTP/1.1, or a line not ended by CRLF"
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
            "the request target is not a valid URL; percent-encode what is not ASCII"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected, .invalidConstant:
            "a header line is malformed (each is `Name: value`, ending CRLF)"
        case .invalidContentLength, .unexpectedContentLength: "the Content-Length header is not valid"
        case .invalidChunkSize: "a chunk size of the chunked body is not valid"
        case .strictModeAssertion:
            "the request does not match HTTP/1.1's framing: lines end with CRLF, and a chunk's size and its data agree"
        case .invalidEOFState: "the request ended before its body did"
        case .unknown:
            "the request is not valid HTTP/1.1: its lines, a chunked body's too, end with CRLF; no Transfer-Encoding but chunked is served"
        // `PRI * HTTP/2.0` (HTTP/2 without upgrade) pauses the parser; the parser's own words for it
        // and the rest say nothing to a client.
        case .paused: "not HTTP/1.0 or HTTP/1.1 (HTTP/2 is not served here)"
        default: "the request is not valid HTTP/1.1"
        }
    }
}
