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
/// - **A body's pace**, whatever the request: past the grace period, a body still coming must have
///   averaged the minimum upload rate, or the connection is closed (logged). The audit routes answer
///   a slow upload 408 themselves (``APIRoutes/checkPace``); this holds every other request, whose
///   body the router drains after answering — a GET trickling a body would otherwise keep its
///   connection for ever, and enough of them every new client out.
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

    /// The pace a body must keep (``ServerSettings/uploadGrace``, ``ServerSettings/minimumUploadRate``);
    /// this layer checks it two seconds after the routes would, so an audit gets its 408 first.
    private let grace: TimeAmount
    private let minimumRate: Double
    private let logger: Logger?
    /// The body being read: when its head came, its bytes so far, the next look at its pace.
    private var bodyStart: NIODeadline?
    private var bodyBytes = 0
    private var paceCheck: Scheduled<Void>?

    init(
        maxBodyBytes: Int, admits: @escaping @Sendable (HTTPRequestHead) -> Bool = { _ in true }, grace: Duration = .seconds(5),
        minimumRate: Double = 16_384, logger: Logger? = nil
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.admits = admits
        // Held within a day first (``ServerSettings/heldWithin(_:)``): the nanoseconds of an absurd
        // Duration would overflow.
        let held = ServerSettings.heldWithin(grace)
        self.grace = .nanoseconds(held.components.seconds * 1_000_000_000 + held.components.attoseconds / 1_000_000_000) + .seconds(2)
        self.minimumRate = minimumRate
        self.logger = logger
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        paceCheck?.cancel()
        paceCheck = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        paceCheck?.cancel()
        paceCheck = nil
        context.fireChannelInactive()
    }

    /// A body that has a length or a transfer coding is watched until its end.
    private func watchBody(of head: HTTPRequestHead, context: ChannelHandlerContext) {
        let length = head.headers["content-length"].first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        guard length > 0 || head.headers.contains(name: "transfer-encoding") else { return }
        bodyStart = .now()
        bodyBytes = 0
        schedulePaceCheck(in: grace, context: context)
    }

    private func schedulePaceCheck(in delay: TimeAmount, context: ChannelHandlerContext) {
        paceCheck?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        paceCheck = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = loopBound.value
            handler.checkPace(context: context)
        }
    }

    private func checkPace(context: ChannelHandlerContext) {
        paceCheck = nil
        guard let start = bodyStart else { return }
        let seconds = Double((NIODeadline.now() - start).nanoseconds) / 1e9
        if Double(bodyBytes) < minimumRate * seconds {
            logger?.info(
                "connection closed: a request body under the minimum rate",
                metadata: [
                    "received": "\(bodyBytes)", "seconds": "\(Int(seconds))",
                ])
            bodyStart = nil
            context.close(promise: nil)
            return
        }
        schedulePaceCheck(in: .seconds(1), context: context)
    }

    /// The mark of an HTTP/1.1 request without exactly one `Host`: their number (a client's own is
    /// dropped).
    static let hostCount = "X-IDBudget-Host-Count"
    /// Marks a request that asked for `100 Continue` and was not sent it (its answer is known from
    /// its head): its client waits before sending the body, so nothing may wait for that body.
    static let continueWithheld = "X-IDBudget-Continue-Withheld"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard case .head(var head) = part else {
            switch part {
            case .body(let bytes): bodyBytes += bytes.readableBytes
            case .end:
                bodyStart = nil
                paceCheck?.cancel()
                paceCheck = nil
            case .head: break
            }
            context.fireChannelRead(data)
            return
        }
        watchBody(of: head, context: context)
        head.headers.remove(name: Self.hostCount)
        if head.version.major == 1, head.version.minor >= 1, head.headers["host"].count != 1 {
            head.headers.add(name: Self.hostCount, value: String(head.headers["host"].count))
        }
        if head.version.major == 1, head.version.minor == 0, !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        keepAlive10.append(head.version.major == 1 && head.version.minor == 0 && head.isKeepAlive)
        let expectations = head.headers["expect"].map { $0.lowercased().trimmingCharacters(in: .whitespaces) }
        head.headers.remove(name: Self.continueWithheld)
        if expectations.contains("100-continue") {
            head.headers.remove(name: "expect")
            let declared = head.headers["content-length"].first.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            if head.version.minor >= 1, declared <= maxBodyBytes, admits(head) {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
            } else {
                head.headers.add(name: Self.continueWithheld, value: "1")
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
    var grace: Duration = .seconds(5)
    var minimumRate: Double = 16_384

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let conversion = try operations.handler(type: HTTP1ToHTTPServerCodec.self)
            try operations.addHandler(
                HTTP1Semantics(maxBodyBytes: maxBodyBytes, admits: admits, grace: grace, minimumRate: minimumRate, logger: logger),
                position: .before(conversion))
            return value
        }
    }

    func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
