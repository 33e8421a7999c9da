import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import IDQuestions
import Logging
import NIOHTTP1

/// What the server is allowed to spend on a request.
public struct ServerSettings: Sendable {
    /// Bodies over this are refused with 413 before they are read whole (declared or streamed).
    public var maxBodyBytes: Int
    /// Questions still computing after this are answered 503.
    public var deadline: Duration { didSet { deadline = Self.heldWithin(deadline) } }
    /// Heavy computations at once (huge spaces, counts or budgets: `Arguments.isHeavy`); past it, 503. One
    /// core fewer than the machine has, so light questions always find one.
    public var slots: Int
    /// Light computations at once: one a core (they are CPU-bound).
    public var lightSlots: Int
    /// Light questions that may wait for a worker; past it, 503 at once.
    public var lightQueue: Int
    /// Memory for one audit's fingerprint tables; past it they spill to temporary files.
    public var auditMemory: Int
    /// A connection silent this long is closed (a stalled upload, a half-sent head). Held within
    /// 0…1 day (``ServerSettings/heldWithin(_:)``), as are the other durations.
    public var idleTimeout: Duration { didSet { idleTimeout = Self.heldWithin(idleTimeout) } }
    /// Audit uploads at once (admitted before their body is read); past it, 503.
    public var audits: Int
    /// An upload still coming after this must have averaged ``minimumUploadRate`` (bytes a second), or
    /// it is refused (408): a trickle can hold neither an audit's place nor the server's shutdown.
    public var uploadGrace: Duration { didSet { uploadGrace = Self.heldWithin(uploadGrace) } }
    public var minimumUploadRate: Double
    /// Light answers kept for a question asked again the same day (``AnswerCache``); 0: none.
    public var answerCache: Int
    /// Connections open at once; past it new ones wait in the listen backlog until one closes.
    /// Below the descriptor limit (``ServerSettings/descriptorLimit``), so an accept never fails for want of one.
    public var maxConnections: Int

    public init(
        maxBodyBytes: Int = 64 << 20, deadline: Duration = .seconds(2),
        slots: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
        lightSlots: Int = ProcessInfo.processInfo.activeProcessorCount, lightQueue: Int = 8 * ProcessInfo.processInfo.activeProcessorCount,
        auditMemory: Int = 256 << 20, idleTimeout: Duration = .seconds(10),
        audits: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), uploadGrace: Duration = .seconds(5),
        minimumUploadRate: Double = 16_384, answerCache: Int = 512,
        maxConnections: Int = min(4096, ServerSettings.descriptorLimit - 64)
    ) {
        self.maxConnections = max(1, maxConnections)
        self.answerCache = answerCache
        self.audits = audits
        self.uploadGrace = Self.heldWithin(uploadGrace)
        self.minimumUploadRate = minimumUploadRate
        self.lightQueue = lightQueue
        self.maxBodyBytes = maxBodyBytes
        self.deadline = Self.heldWithin(deadline)
        self.slots = slots
        self.lightSlots = lightSlots
        self.auditMemory = auditMemory
        self.idleTimeout = Self.heldWithin(idleTimeout)
    }

    /// `d` within 0…1 day: the durations become nanosecond counts and clock instants, which a
    /// library caller's `.seconds(Int64.max)` would overflow (a trap); past a day none is meaningful.
    public static func heldWithin(_ d: Duration) -> Duration { min(max(d, .zero), .seconds(86_400)) }
}

extension ServerSettings {
    /// The process's limit on open descriptors, raised to its hard limit first (Linux starts a process
    /// at 1024): connections, audits' spill files and the listening socket all take one.
    public static let descriptorLimit: Int = {
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(limit.rlim_max, 1 << 20)
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }()
}

/// The router: the JSON API, the page and its assets, the OpenAPI document, health; wrapped in the
/// error, security-header and logging middleware.
public func buildRouter(settings: ServerSettings = ServerSettings(), logger: Logger) -> Router<BasicRequestContext> {
    buildRouter(settings: settings, logger: logger, compute: Compute(settings))
}

extension Compute {
    /// The lanes and limits `settings` asks for.
    convenience init(_ settings: ServerSettings) {
        self.init(
            deadline: settings.deadline, slots: settings.slots, lightSlots: settings.lightSlots, lightQueue: settings.lightQueue,
            audits: settings.audits)
    }

    /// Whether a request head's body is wanted (see ``HTTP1Semantics``): not when its refusal is known
    /// from the head — by the body's rules (``BodyRules``: a compressed body, a transfer coding other
    /// than chunked, an upload in a type that is not read), or an audit while every audit slot is
    /// taken (503).
    func admits(_ head: HTTPRequestHead) -> Bool {
        let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let refusal = BodyRules.refusal(method: head.method.rawValue, path: path) { name in
            head.headers[name].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard refusal == nil else { return false }
        return !(head.method == .POST && (path == "/api/v1/audit" || path == "/audit") && auditsFull)
    }
}

func buildRouter(settings: ServerSettings, logger: Logger, compute: Compute) -> Router<BasicRequestContext> {
    let router = Router()
    // Outermost first: the log line sees the final status, and every response — errors too — gets the headers.
    router.add(middleware: RequestLogMiddleware(logger: logger))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorMiddleware(routes: declaredRoutes))
    router.add(middleware: TransferCodingMiddleware())
    let cache = AnswerCache(capacity: settings.answerCache)
    APIRoutes(compute: compute, settings: settings, cache: cache).add(to: router.group("api/v1"))
    PageRoutes(compute: compute, settings: settings).add(to: router)
    router.get("healthz") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: .init(string: "{\"status\":\"ok\"}\n")))
    }
    router.get("openapi.json") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: .init(string: OpenAPIDocument.json)))
    }
    return router
}

/// Every path the server answers, with its methods: a declared path asked with another method is a 405.
let declaredRoutes: [String: [HTTPRequest.Method]] = {
    var routes: [String: [HTTPRequest.Method]] = [:]
    for command in Question.Command.allCases { routes["/api/v1/\(command.rawValue)"] = [.get] }
    routes["/api/v1/audit"] = [.post]
    routes["/audit"] = [.get, .post]
    for path in ["/", "/healthz", "/openapi.json", "/favicon.ico", "/favicon.svg", "/style.css", "/app.js"] { routes[path] = [.get] }
    return routes
}()

/// The application, bound to `host:port`.
public func buildApplication(
    host: String = "127.0.0.1", port: Int = 8080, settings: ServerSettings = ServerSettings(), logger: Logger
) -> some ApplicationProtocol {
    let compute = Compute(settings)
    return Application(
        // HEAD is GET without the body, after every layer (errors included): `MethodResponder`.
        router: WithMethods(router: buildRouter(settings: settings, logger: logger, compute: compute)),
        // A connection that sends nothing for this long is closed: a client stalled mid-request can
        // neither hold a connection for ever nor keep a SIGTERM from ending the server.
        // A request NIO cannot parse gets the JSON refusal too (ParseErrorHandler), not a bare 400.
        // HTTP/1.0 closes, `Expect: 100-continue` is answered: HTTP1Semantics, in front of the router.
        server: HTTPServerBuilder { responder in
            ServerChannel(
                http1: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [ParseErrorHandler(logger: logger)],
                        idleTimeout: .milliseconds(Int64(settings.idleTimeout.components.seconds * 1000)))),
                maxBodyBytes: settings.maxBodyBytes, admits: { compute.admits($0) }, grace: settings.uploadGrace,
                minimumRate: settings.minimumUploadRate)
        },
        // Past `maxConnections` the server stops accepting (the rest wait in the listen backlog) rather
        // than run out of descriptors and spin on a failing accept.
        configuration: .init(
            address: .hostname(host, port: port), serverName: "idbudget-serve",
            availableConnectionsDelegate: .maximum(settings.maxConnections, logger: logger)),
        logger: logger)
}
