import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// What an HTTP/1 request head says that the version-free HTTP types drop on their way to the router:
///
/// - **The version.** An HTTP/1.0 request without `Connection: keep-alive` ends its connection after
///   its response (RFC 9112 §9.3): it is handed on saying `Connection: close`, which Hummingbird honours.
///   Without that a 1.0 client waits for the idle timeout to learn its response has ended.
/// - **`Expect: 100-continue`** (RFC 9110 §10.1.1): the client waits for a `100 Continue` before it
///   sends the body. It is sent at once unless the declared body is over the server's limit (then the
///   413 comes instead, unread) or the request will be refused before its body is read (``admits``:
///   every audit slot taken, then the 503); curl otherwise waits a second for it on every upload.
/// - **`Host`**: an HTTP/1.1 request carries exactly one (RFC 9112 §3.2). One with none or several is
///   handed on marked (``hostCount``), and ``TransferCodingMiddleware`` refuses it as JSON (400).
///
/// It sits between NIO's HTTP/1 codec and the conversion to HTTP types (``ServerChannel`` puts it there).
final class HTTP1Semantics: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let maxBodyBytes: Int
    /// Per request read and not yet answered, in order: whether it is HTTP/1.0 asking to keep the
    /// connection, which its response must then say (`Connection: keep-alive`), or a 1.0 client
    /// takes the connection as ending with it.
    private var keepAlive10: [Bool] = []

    /// Whether a request's body is wanted: false when its answer is known before the body (a full
    /// audit lane's 503), so no `100 Continue` invites a body that would not be read.
    private let admits: @Sendable (HTTPRequestHead) -> Bool

    init(maxBodyBytes: Int, admits: @escaping @Sendable (HTTPRequestHead) -> Bool = { _ in true }) {
        self.maxBodyBytes = maxBodyBytes
        self.admits = admits
    }

    /// The mark of an HTTP/1.1 request without exactly one `Host`: their number (a client's own is
    /// dropped).
    static let hostCount = "X-IDBudget-Host-Count"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.remove(name: Self.hostCount)
        if head.version.major == 1, head.version.minor >= 1, head.headers["host"].count != 1 {
            head.headers.add(name: Self.hostCount, value: String(head.headers["host"].count))
        }
        if head.version.major == 1, head.version.minor == 0, !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        keepAlive10.append(head.version.major == 1 && head.version.minor == 0 && head.isKeepAlive)
        let expectations = head.headers["expect"].map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        if expectations.contains("100-continue") {
            head.headers.remove(name: "expect")
            let declared = head.headers["content-length"].first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            if head.version.minor >= 1, declared <= maxBodyBytes, admits(head) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
            }
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // A final response (not the 100 Continue written above) answers the oldest request read.
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 else {
            context.write(data, promise: promise)
            return
        }
        let announce = keepAlive10.isEmpty ? false : keepAlive10.removeFirst()
        if announce, !head.headers.contains(name: "connection") {
            head.headers.add(name: "connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }
}

/// Hummingbird's HTTP/1 channel with ``HTTP1Semantics`` in front of its conversion to HTTP types.
struct ServerChannel: ServerChildChannel {
    let http1: HTTP1Channel
    let maxBodyBytes: Int
    let admits: @Sendable (HTTPRequestHead) -> Bool

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let conversion = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
            try operations.addHandler(HTTP1Semantics(maxBodyBytes: maxBodyBytes, admits: admits), position: .before(conversion))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
