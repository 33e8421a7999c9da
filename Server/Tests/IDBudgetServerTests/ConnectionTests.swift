import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import IDBudgetServer

#if canImport(Glibc)
    import Glibc
#endif

/// A connection as HTTP/1 clients expect it to behave, on a loopback port: how it ends, what it is
/// told before a body is sent, and how many the server keeps at once.
@Suite struct ConnectionTests {
    /// Sends `request` on `fd` and reads for at most `seconds`: what came back, and whether the server
    /// closed the connection.
    static func read(_ fd: Int32, sending request: String, for seconds: Double) -> (reply: String, closed: Bool) {
        _ = Array(request.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (String(decoding: reply, as: UTF8.self), true) }
            if n < 0 { break }
            reply += buffer[0..<n]
        }
        return (String(decoding: reply, as: UTF8.self), false)
    }

    /// An HTTP/1.0 request without keep-alive ends its connection with its response (RFC 9112 §9.3),
    /// not at the idle timeout; with keep-alive, or in HTTP/1.1, the connection stays.
    @Test func http10ClosesAfterItsResponse() async throws {
        try await withServer(.live, settings: ServerSettings(idleTimeout: .seconds(30))) { client in
            let port = try #require(client.port)
            let cases: [(String, Bool)] = [
                ("GET /healthz HTTP/1.0\r\n\r\n", true),
                ("GET /api/v1/schemes HTTP/1.0\r\nHost: x\r\n\r\n", true),
                ("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", false),
                ("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", false),
            ]
            for (request, closes) in cases {
                let (reply, closed) = try await RawHTTP.offPool {
                    let fd = try RawHTTP.socketTo(port: port)
                    defer { close(fd) }
                    return Self.read(fd, sending: request, for: 1.5)
                }
                #expect(reply.contains(" 200 OK"), "\(request): \(reply.prefix(200))")
                #expect(closed == closes, "\(request): closed \(closed)")
                // A 1.0 client keeps the connection only when the response says so.
                let announced = reply.lowercased().contains("connection: keep-alive")
                #expect(announced == request.contains("HTTP/1.0\r\nConnection: keep-alive"), "\(request): \(reply.prefix(300))")
            }
        }
    }

    /// An HTTP/1.1 request carries exactly one Host (RFC 9112 §3.2): none, or two, is a JSON 400; an
    /// HTTP/1.0 request needs none.
    @Test func http11NeedsOneHost() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            for (request, status) in [
                ("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", "400"),
                ("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n", "400"),
                ("GET /healthz HTTP/1.1\r\nHost: a\r\nX-IDBudget-Host-Count: 0\r\nConnection: close\r\n\r\n", "200"),
                ("GET /healthz HTTP/1.0\r\n\r\n", "200"),
            ] {
                let reply = try await RawHTTP.offPool { try RawHTTP.exchange(port: port, Array(request.utf8)) }
                #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(request): \(reply.prefix(200))")
                if status == "400" { #expect(reply.contains("exactly one Host"), "\(reply)") }
            }
        }
    }

    /// `Expect: 100-continue` is answered `100 Continue` at once, then the answer to the body; a body
    /// declared over the limit gets its 413 instead, and no 100.
    @Test func expectContinueIsAnswered() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            let (first, waiting) = try await RawHTTP.offPool {
                let fd = try RawHTTP.socketTo(port: port)
                defer { close(fd) }
                let head =
                    "POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"
                let first = Self.read(fd, sending: head, for: 0.8).reply
                let rest = Self.read(fd, sending: "abc\n", for: 3).reply
                return (first, rest)
            }
            #expect(first == "HTTP/1.1 100 Continue\r\n\r\n", "\(first.prefix(200))")
            #expect(waiting.hasPrefix("HTTP/1.1 200 OK"), "\(waiting.prefix(200))")
            let big = try await RawHTTP.offPool {
                let fd = try RawHTTP.socketTo(port: port)
                defer { close(fd) }
                return Self.read(
                    fd,
                    sending: "POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999\r\nExpect: 100-continue\r\n\r\n",
                    for: 1.5
                ).reply
            }
            #expect(big.hasPrefix("HTTP/1.1 413"), "\(big.prefix(200))")
        }
    }

    /// While every audit slot is taken, an upload asking to continue is not invited to send a body the
    /// server would not read: its 503 comes at once, with no `100 Continue` before it.
    @Test func aFullAuditLaneSendsNoContinue() async throws {
        try await withServer(.live, settings: ServerSettings(audits: 1)) { client in
            let port = try #require(client.port)
            let (held, refused, after, page) = try await RawHTTP.offPool {
                // One upload holds the only audit slot: its head and half its body sent.
                let holder = try RawHTTP.socketTo(port: port)
                defer { close(holder) }
                let held = Self.read(
                    holder,
                    sending: "POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\nabc\n",
                    for: 0.5
                ).reply
                let head =
                    "POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n"
                let fd = try RawHTTP.socketTo(port: port)
                defer { close(fd) }
                let refused = Self.read(fd, sending: head, for: 0.8).reply
                // The page's form the same: its 503 page at once, not a wait for a body never sent.
                let pageSocket = try RawHTTP.socketTo(port: port)
                defer { close(pageSocket) }
                let page = Self.read(
                    pageSocket,
                    sending:
                        "POST /audit HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n",
                    for: 0.8
                ).reply
                // The slot freed (the holder's body ends), the next upload is invited again.
                _ = Self.read(holder, sending: "def\n", for: 1)
                let again = try RawHTTP.socketTo(port: port)
                defer { close(again) }
                return (held, refused, Self.read(again, sending: head, for: 0.8).reply, page)
            }
            #expect(held.isEmpty, "\(held.prefix(200))")
            #expect(page.hasPrefix("HTTP/1.1 503") && page.contains("Retry-After") && !page.contains("100 Continue"), "\(page.prefix(300))")
            #expect(refused.hasPrefix("HTTP/1.1 503") && !refused.contains("100 Continue"), "\(refused.prefix(300))")
            #expect(refused.contains("Retry-After"), "\(refused.prefix(300))")
            #expect(after == "HTTP/1.1 100 Continue\r\n\r\n", "\(after.prefix(200))")
            // A refusal the head already tells (a compressed body, the page's form in another type, a
            // coding other than chunked): its answer at once, no invitation to send a body first.
            for extra in [
                "POST /api/v1/audit HTTP/1.1\r\nContent-Encoding: gzip\r\n", "POST /audit HTTP/1.1\r\nContent-Type: application/json\r\n",
                "POST /api/v1/audit HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n",
                "POST /api/v1/audit HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=x\r\n",
            ] {
                let reply = try await RawHTTP.offPool {
                    let fd = try RawHTTP.socketTo(port: port)
                    defer { close(fd) }
                    let head =
                        extra + "Host: x\r\n" + (extra.contains("Transfer") ? "" : "Content-Length: 4\r\n") + "Expect: 100-continue\r\n\r\n"
                    return Self.read(fd, sending: head, for: 0.8).reply
                }
                #expect(reply.hasPrefix("HTTP/1.1 4") && !reply.contains("100 Continue"), "\(extra): \(reply.prefix(300))")
            }
        }
    }

    /// A chunked upload to the page's audit form: its head and `first` as one chunk, then, half a
    /// second later, `then` as it is (the rest of the body); the reply read for 2 s.
    static func pageAudit(port: Int, query: String, first: String, then rest: String) async throws -> String {
        try await RawHTTP.offPool {
            let fd = try RawHTTP.socketTo(port: port)
            defer { close(fd) }
            let head = "POST /audit?\(query) HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
            _ = Self.read(fd, sending: head + String(first.utf8.count, radix: 16) + "\r\n" + first + "\r\n", for: 0.5)
            return Self.read(fd, sending: rest, for: 2).reply
        }
    }

    /// The page's audit refused part way (the upload grew past the limit) shows the ids it read again
    /// in the form, with the refusal: what was pasted is not lost.
    @Test func aRefusedPageAuditKeepsItsIds() async throws {
        try await withServer(.live, settings: ServerSettings(maxBodyBytes: 200)) { client in
            let port = try #require(client.port)
            let more = String(repeating: "x", count: 300)
            let reply = try await Self.pageAudit(
                port: port, query: "ask=length", first: "ids=first-id\r\nsecond-id\r\n", then: "12c\r\n\(more)\r\n0\r\n\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 413") && reply.contains("text/html"), "\(reply.prefix(300))")
            #expect(reply.contains("spellcheck=\"false\" autocomplete=\"off\">first-id\nsecond-id</textarea>"), "\(reply.suffix(2000))")
            // A body whose framing breaks part way (a chunk size that is no number): the page too.
            let broken = try await Self.pageAudit(
                port: port, query: "lifetime=3&unit=d", first: "ids=first-id\r\n", then: "zz\r\nmore\r\n0\r\n\r\n")
            #expect(broken.hasPrefix("HTTP/1.1 400") && broken.contains("text/html"), "\(broken.prefix(300))")
            #expect(broken.contains(">first-id</textarea>") && broken.contains("value=\"3\""), "\(broken.suffix(2000))")
        }
    }

    /// The page's audit refused busy (every audit slot taken) before its body was read, with
    /// JavaScript off: the page reads the pasted ids anyway and shows them again with the refusal
    /// (503, Retry-After), so nothing pasted is lost.
    @Test func aBusyPageAuditKeepsItsIds() async throws {
        try await withServer(.live, settings: ServerSettings(audits: 1)) { client in
            let port = try #require(client.port)
            let reply = try await RawHTTP.offPool {
                let holder = try RawHTTP.socketTo(port: port)
                defer { close(holder) }
                _ = Self.read(
                    holder, sending: "POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 8\r\n\r\nabc\n",
                    for: 0.5)
                let body = "ids=first-id\r\nsecond-id\r\n"
                let fd = try RawHTTP.socketTo(port: port)
                defer { close(fd) }
                let reply = Self.read(
                    fd,
                    sending:
                        "POST /audit?ask=length&lifetime=3 HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
                    for: 1.5
                ).reply
                _ = Self.read(holder, sending: "def\n", for: 0.5)
                return reply
            }
            #expect(reply.hasPrefix("HTTP/1.1 503") && reply.contains("Retry-After") && reply.contains("text/html"), "\(reply.prefix(300))")
            #expect(reply.contains(">first-id\nsecond-id</textarea>") && reply.contains("value=\"3\""), "\(reply.suffix(2000))")
        }
    }

    /// A request whose lines end in LF alone is refused saying so (400), not as another version.
    @Test func bareLineFeedsAreNamed() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            for request in ["GET /healthz HTTP/1.1\nHost: x\n\n", "GET /healthz HTTP/1.1\r\nHost: x\n\r\n"] {
                let reply = try await RawHTTP.offPool { try RawHTTP.exchange(port: port, Array(request.utf8)) }
                #expect(reply.hasPrefix("HTTP/1.1 400") && reply.contains("CRLF"), "\(reply.prefix(300))")
            }
        }
    }

    /// Past the connection cap the server stops accepting: a new client waits in the backlog (its
    /// request unanswered) until a connection closes, then it is served; nothing is refused or reset.
    /// The application runs as `idbudget-serve` runs it (the test framework's copy of the configuration
    /// drops the cap).
    @Test func pastTheCapConnectionsWait() async throws {
        let port = try Self.freePort()
        var logger = Logger(label: "idbudget-serve-tests")
        logger.logLevel = .warning
        let app = buildApplication(host: "127.0.0.1", port: port, settings: ServerSettings(maxConnections: 2), logger: logger)
        let server = Task { try await app.run() }
        defer { server.cancel() }
        let (early, late) = try await RawHTTP.offPool {
            var held: [Int32] = []
            // Both held connections are accepted (a request on each is answered), once the server is up.
            for _ in 0..<200 where held.isEmpty {
                if let fd = try? RawHTTP.socketTo(port: port) { held.append(fd) } else { usleep(20_000) }
            }
            held.append(try RawHTTP.socketTo(port: port))
            for fd in held { _ = Self.read(fd, sending: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", for: 0.5) }
            let third = try RawHTTP.socketTo(port: port)
            defer { close(third) }
            let early = Self.read(third, sending: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", for: 1).reply
            close(held[0])
            let late = Self.read(third, sending: "", for: 3).reply
            close(held[1])
            return (early, late)
        }
        #expect(early.isEmpty, "served past the cap: \(early.prefix(100))")
        #expect(late.hasPrefix("HTTP/1.1 200"), "not served once a connection closed: \(late.prefix(100))")
    }

    /// A port free on loopback now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw RawHTTP.Failure(what: "bind") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The connection cap sits below the descriptor limit (raised to its hard limit at start).
    @Test func theCapFitsTheDescriptorLimit() {
        #expect(ServerSettings.descriptorLimit >= 64)
        #expect(ServerSettings().maxConnections <= ServerSettings.descriptorLimit - 64)
        var limit = rlimit()
        _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #expect(Int(limit.rlim_cur) == ServerSettings.descriptorLimit)
    }

    /// 3,000 header lines (over the 1,000 the parser takes), sent while the server already refuses:
    /// the client reads the JSON 400 whole — the close lingers, so no reset overtakes it.
    @Test func aHeadOfThousandsOfLinesIsRefusedReadably() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            for (count, size) in [(3000, 8), (30000, 40)] {
                let lines = (0..<count).map { "X-H\($0): " + String(repeating: "a", count: size) + "\r\n" }.joined()
                let reply = try await RawHTTP.offPool {
                    try RawHTTP.exchange(port: port, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\(lines)\r\n".utf8))
                }
                #expect(reply.hasPrefix("HTTP/1.1 400"), "\(count) lines: \(reply.prefix(200))")
                #expect(reply.contains("1,000 header lines") && reply.hasSuffix("}\n"), "\(count) lines: \(reply.suffix(200))")
            }
        }
    }

    /// A question that would run past the deadline (a count of 640,000 digits compounded under
    /// growth, about 8 s) is answered 503 at once, and the heavy worker is not held by it: a heavy
    /// question right after is answered.
    @Test func aQuestionPastTheDeadlineIsRefusedAtOnce() async throws {
        try await withServer(settings: ServerSettings(slots: 1)) { client in
            let start = ContinuousClock.now
            let r = try await client.get(
                "/api/v1/probability?alphabet=decimal&length=600000&rate=1e590000/s&growth=1000x/y&lifetime=1e4y")
            #expect(r.status == .serviceUnavailable && r.headers[.retryAfter] == "1", "\(r.status) \(r.body.prefix(200))")
            #expect(try decodeError(r.body).error.contains("compute deadline"), "\(r.body)")
            // At once: not after the ~8 s it would compute (the bound leaves room for a loaded CI machine).
            #expect(ContinuousClock.now - start < .seconds(4))
            let page = try await client.get(
                "/?ask=probability&alphabet=decimal&length=600000&rate=1e590000&per=s&lifetime=1e4&unit=y&growth=1000x/y")
            #expect(page.status == .serviceUnavailable, "\(page.status)")
            // A plan (every alphabet's length) or a length from a count under growth costs more than
            // the probability: judged by its command (the tester's: 7.5 s for this plan).
            for question in [
                "plan?rate=1e120000/s&growth=1000x/y&lifetime=1e4y&max-probability=1e-100000",
                "length?alphabet=base62&rate=1e100000/s&growth=1000x/y&lifetime=5000y&max-probability=1e-100000",
            ] {
                let begun = ContinuousClock.now
                let refused = try await client.get("/api/v1/" + question)
                #expect(refused.status == .serviceUnavailable && refused.body.contains("would take about"), "\(question): \(refused.body)")
                #expect(ContinuousClock.now - begun < .seconds(4), "\(question)")  // not the seconds it would compute
            }
            // A growth the layer refuses (the rate multiplied past 2^100000) is bad input, 400, not 503.
            let absurd = try await client.get("/api/v1/probability?alphabet=decimal&length=600000&rate=1/s&growth=1000x/d&lifetime=1e4y")
            let absurdError = try decodeError(absurd.body)
            #expect(absurd.status == .badRequest && absurdError.argument == "growth", "\(absurd.body)")
            let heavy = try await client.get("/api/v1/probability?bits=8192&count=5")
            #expect(heavy.status == .ok, "\(heavy.status) \(heavy.body.prefix(200))")
        }
    }
}
