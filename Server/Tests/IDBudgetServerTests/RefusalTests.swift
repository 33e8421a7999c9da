import Foundation
import HTTPTypes
import HummingbirdTesting
import IDBudget
import NIOCore
import Testing

@testable import IDBudgetServer

/// Bad and hostile requests: the right status, the argument named, JSON that parses, the security
/// headers on every response, and never a 5xx but 503.
@Suite struct RefusalTests {
    /// (query, the parameter it blames, by its name: the CLI adds the dashes)
    static let badQuestions: [(String, String)] = [
        ("length?alphabet=base62&rate=1e6/x&lifetime=10y&max-probability=1e-11", "rate"),
        ("length?alphabet=base62&rate=1e6/s&lifetime=10q&max-probability=1e-11", "lifetime"),
        ("length?alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=2", "max-probability"),
        ("length?alphabet=base62&rate=1e6/s&lifetime=10y", "max-probability"),
        ("length?alphabet=nope&count=5&max-probability=1e-3", "alphabet"),
        ("length?alphabet=base62&symbols=ab&count=5&max-probability=1e-3", "alphabet"),
        ("length?alphabet-size=1&count=5&max-probability=1e-3", "alphabet-size"),
        ("length?alphabet-size=200&count=5&max-probability=1e-3&max-bytes=9", "max-bytes"),
        ("length?symbols=aa&count=5&max-probability=1e-3", "symbols"),
        ("probability?alphabet=hex&count=5", "length"),
        // A node-id format does not use the growth or the lifetime, but reads them (schemathesis found the server skipped it).
        ("probability?scheme=instagram&nodes=960&rate=1e6/s&lifetime=10y&growth=5C", "growth"),
        ("length?scheme=xid&nodes=9&rate=1/s&lifetime=10q&max-probability=1e-9", "lifetime"),
        ("probability?scheme=snowflake&nodes=9&count=-4", "count"),
        ("probability?scheme=xid&nodes=10&arrivals=bogus", "arrivals"),
        ("capacity?scheme=ulid&max-probability=1e-9&existing=3", "existing"),
        ("length?scheme=snowflake&nodes=9&count=4&until=2030-02-30&max-probability=1e-9", "until"),
        ("probability?alphabet=hex&length=0&count=5", "length"),
        ("probability?alphabet=hex&length=99999999999999999999999999&count=5", "length"),
        ("probability?bits=12", "count"),
        ("probability?bits=12&rate=1e6/s", "lifetime"),
        ("probability?bits=12&count=5&rate=1e6/s", "count"),
        ("probability?bits=12&count=-5", "count"),
        ("probability?bits=12&count=1.5", "count"),
        ("probability?bits=12&count=1e99999999999999999999", "count"),
        ("probability?bits=12&count=1e700000", "count"),
        ("probability?bits=12&count=2^99999999", "count"),
        ("probability?bits=0&count=5", "bits"),
        ("probability?bits=99999999&count=5", "bits"),
        ("probability?bits=12&space-size=5&count=5", "space-size"),
        ("probability?count=5", "bits"),
        ("probability?space-size=0&count=5", "space-size"),
        ("probability?scheme=nope&count=5", "scheme"),
        ("probability?bits=12&count=5&scopes=0", "scopes"),
        ("probability?bits=12&count=5&nodes=x", "nodes"),
        ("probability?bits=12&count=5&peak-rate=1/s", "peak-rate"),
        ("probability?bits=12&count=5&count-per-scope=5", "count-per-scope"),
        ("probability?bits=12&count=5&lifetime=10y", "lifetime"),
        ("capacity?bits=12&max-probability=1e-3&rate=fast", "rate"),
        ("capacity?bits=12&max-probability=1e-999999", "max-probability"),
        ("plan?count=5&max-probability=1e-3&max-bytes=0", "max-bytes"),
        ("plan?count=5&max-probability=0.5&format=text", "format"),
        ("plan?count=5&count=6&max-probability=0.5", "count"),
        ("schemes?x=1", "x"),
        ("inspect?id=x&scheme=nope", "scheme"),
        ("probability?scheme=snowflake", "nodes"),
        ("probability?bits=64&count=5&growth=10%25/y", "growth"),
        ("probability?bits=64&rate=1/s&lifetime=1y&growth=fast", "growth"),
        ("probability?bits=64&count=5&existing=-1", "existing"),
        ("probability?bits=64&rate=1/s&lifetime=1y&arrivals=even", "arrivals"),
        ("probability?scheme=uuid7&rate=1/s&lifetime=1y&arrivals=bursty", "arrivals"),
        ("probability?scheme=snowflake&nodes=0", "nodes"),
        ("probability?scheme=snowflake&nodes=0&node-ids=assigned", "nodes"),
        ("capacity?bits=64&max-probability=1e-9&growth=2x/y", "growth"),
        ("capacity?bits=64&max-probability=1e-9&rate=1/s&from=2026-13-01", "from"),
        ("capacity?bits=64&max-probability=1e-9&from=2026-01-01", "from"),
        ("capacity?scheme=uuid7&max-probability=1e-9&rate=1/s&existing=5", "existing"),
        ("capacity?bits=64&max-probability=1e-9&rate=1/s&arrivals=even", "arrivals"),
        ("capacity?scheme=uuid7&max-probability=1e-9&rate=1/s&growth=2x/y&arrivals=even", "growth"),
        ("length?scheme=uuid7&alphabet=hex&count=5&max-probability=1e-9", "scheme"),
        ("length?scheme=snowflake&count=5&max-probability=1e-9", "nodes"),
        ("length?scheme=uuid4&count=5&node-ids=assigned&max-probability=1e-9", "node-ids"),
        ("retries?bits=64&count=1e6&existing=5", "existing"),
        ("length?alphabet=hex&count=5&until=2030-01-01&max-probability=1e-9", "until"),
        ("length?alphabet=hex&rate=1/s&lifetime=1y&until=2030-01-01&max-probability=1e-9", "until"),
        ("length?alphabet=hex&rate=1/s&from=2030-01-01&until=2029-01-01&max-probability=1e-9", "until"),
        ("length?alphabet=hex&rate=1/s&lifetime=1y&from=yesterday&max-probability=1e-9", "from"),
        ("retries?bits=64&count=1e6&scopes=5", "scopes"),
        ("retries?scheme=uuid7&count=1e6", "scheme"),
        ("retries?bits=8&count=-300", "count"),
        ("retries?bits=64&count=1e6&max-attempts=0", "max-attempts"),
        ("retries?bits=64&count=1e6&max-probability=1e-9", "max-probability"),
        ("probability?scheme=snowflake&nodes=5&node-ids=maybe", "node-ids"),
        ("probability?scheme=snowflake&nodes=5&peak-rate=1/s", "peak-rate"),
        ("probability?scheme=uuid7&rate=1/s&lifetime=1y&node-ids=random", "node-ids"),
        ("inspect?scheme=uuid7", "id"),
    ]

    @Test(arguments: badQuestions)
    func badInputNamesTheArgument(_ path: String, _ argument: String) async throws {
        try await withServer { client in
            let r = try await client.get("/api/v1/\(path)")
            #expect(r.status == .badRequest, "\(path): \(r.body)")
            #expect(r.headers[.contentType] == "application/json; charset=utf-8")
            let error = try decodeError(r.body)
            #expect(error.argument == argument, "\(path): \(r.body)")
            #expect(!error.error.isEmpty)
            #expect(r.headers[.contentSecurityPolicy] == "default-src 'self'; frame-ancestors 'none'")
        }
    }

    @Test func hostileValuesComeBackEscaped() async throws {
        try await withServer { client in
            // Control characters, a NUL, a terminal escape, invalid percent-encoding, an enormous value.
            for value in ["%00%0a%1b[2J", "%ff%fe", "%E2%80%A8", String(repeating: "9", count: 5000), "%", "%zz"] {
                let r = try await client.get("/api/v1/probability?bits=12&count=\(value)")
                #expect(r.status == .badRequest, "\(value.prefix(20)): \(r.body.prefix(200))")
                let error = try decodeError(r.body)
                #expect(error.argument == "count")
                #expect(!error.error.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" })
            }
            let many = (0..<40).map { "p\($0)=1" }.joined(separator: "&")
            let r1 = try await client.get("/api/v1/schemes?\(many)")
            #expect(r1.status == .badRequest)
        }
    }

    @Test func undeclaredMethodsAre405() async throws {
        try await withServer { client in
            for (uri, method, allow) in [
                ("/api/v1/length", HTTPRequest.Method.post, "GET, HEAD"), ("/api/v1/audit", .get, "POST"),
                ("/healthz", .delete, "GET, HEAD"),
                ("/app.js", .post, "GET, HEAD"),
                ("/", .put, "GET, HEAD"), ("/api/v1/plan", .patch, "GET, HEAD"),
            ] {
                let r = try await client.executeRequest(uri: uri, method: method, headers: [:], body: nil)
                #expect(r.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(r.headers[.allow] == allow)
                #expect(r.headers[.connection] == "close", "\(method) \(uri)")
                let error = try decodeError(String(buffer: r.body))
                #expect(error.error.contains("not allowed") && error.argument == "method")
                #expect(r.headers[.xContentTypeOptions] == "nosniff")
                #expect(r.headers[.referrerPolicy] == "no-referrer")
            }
            let missing = try await client.get("/api/v2/length")
            #expect(missing.status == .notFound)
            #expect(try decodeError(missing.body).argument == "path")
            #expect(missing.headers[.contentSecurityPolicy] != nil)
        }
    }

    @Test func declaredBodyOverTheLimitIs413() async throws {
        // A small limit, so the test sends little; the check is the same one the 64 MiB default uses.
        try await withServer(settings: ServerSettings(maxBodyBytes: 1 << 16)) { client in
            let body = ByteBuffer(repeating: UInt8(ascii: "a"), count: (1 << 16) + 1)
            let r = try await client.executeRequest(uri: "/api/v1/audit", method: .post, headers: [:], body: body)
            #expect(r.status == .contentTooLarge)
            #expect(try decodeError(String(buffer: r.body)).argument == "body")
            let fits = ByteBuffer(repeating: UInt8(ascii: "\n"), count: 1 << 16)
            let r2 = try await client.executeRequest(uri: "/api/v1/audit", method: .post, headers: [:], body: fits)
            #expect(r2.status == .ok)
        }
    }

    @Test func theDefaultLimitIs64MiB() {
        #expect(ServerSettings().maxBodyBytes == 64 << 20)
        #expect(ServerSettings().deadline == .seconds(2))
    }

    @Test func chunkedBodyOverTheLimitIs413BeforeItEnds() async throws {
        try await withServer(.live, settings: ServerSettings(maxBodyBytes: 1 << 20)) { client in
            let port = try #require(client.port)
            // A chunked upload that would go on for 64 MiB: the answer comes once 1 MiB is passed.
            let reply = try await RawHTTP.offPool {
                try RawHTTP.chunkedPost(port: port, path: "/api/v1/audit", chunk: 64 << 10, chunks: 1024)
            }
            #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(200))")
            #expect(reply.contains("\"argument\":\"body\""))
        }
    }

    /// What NIO's parser refuses gets the JSON refusal and the security headers, not a bare 400; after
    /// good pipelined requests too; and the server goes on answering.
    @Test func unparsableRequestsGetJSON() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            let cases: [(String, [UInt8])] = [
                ("unknown method", Array("FOO / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
                (
                    "head over 80 KiB",
                    Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: ".utf8) + Array(repeating: 0x61, count: 100_000) + Array("\r\n\r\n".utf8)
                ),
                ("header without a colon", Array("GET / HTTP/1.1\r\nHost x\r\n\r\n".utf8)),
                ("garbage", Array("\u{01}\u{02}GARBAGE\r\n\r\n".utf8)),
                ("HTTP/2's preface", Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)),
                ("control character in the target", Array("GET /\u{7f}\u{01} HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
                (
                    "a bad chunk size",
                    Array(
                        "POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"
                            .utf8)
                ),
                ("after a good pipelined request", Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nFOO / HTTP/1.1\r\n\r\n".utf8)),
            ]
            for (what, bytes) in cases {
                let reply = try await RawHTTP.offPool { try RawHTTP.exchange(port: port, bytes) }
                // The last response: after the last status line that starts a line.
                let start = reply.range(of: "\nHTTP/1.1 ", options: .backwards).map { reply.index(after: $0.lowerBound) }
                let last = String(reply[(start ?? reply.startIndex)...].dropFirst("HTTP/1.1 ".count))
                #expect(last.hasPrefix("400"), "\(what): \(reply.prefix(300))")
                #expect(last.contains("X-Content-Type-Options: nosniff") && last.contains("Content-Security-Policy"), "\(what)")
                // A `Date`, as every 4xx from a server with a clock has (RFC 9110 §6.6.1), within a minute of now.
                let date = last.split(separator: "\r\n").first { $0.lowercased().hasPrefix("date: ") }.map { String($0.dropFirst(6)) }
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = TimeZone(identifier: "GMT")
                formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                let sent = date.flatMap { formatter.date(from: $0) }
                #expect(sent.map { abs($0.timeIntervalSinceNow) < 60 } == true, "\(what): Date \(date ?? "missing")")
                let body = String(last.split(separator: "\r\n\r\n", maxSplits: 1).last ?? "")
                let error = try decodeError(body)
                #expect(error.argument == "request" && !error.error.isEmpty, "\(what): \(body)")
                // The parser's own words (`paused`, `swift-http-parser error`) say nothing to a client.
                #expect(!error.error.contains("parser") && !error.error.contains("paused"), "\(what): \(body)")
                if what.hasPrefix("after") { #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(100))") }
            }
            #expect(try await client.get("/healthz").status == .ok)
        }
    }

    /// HEAD wherever GET works: GET's status and Content-Length, no body, so a pipelined request after
    /// it is framed right; a HEAD of a missing page is a bodiless 404. CONNECT is refused and the
    /// connection closed at once, not left to the idle timeout.
    @Test func headIsGetWithoutABodyAndConnectIsClosed() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            let get = try await client.get("/api/v1/length?alphabet=base62&count=1e9&max-probability=1e-9")
            let request =
                "HEAD /api/v1/length?alphabet=base62&count=1e9&max-probability=1e-9 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "HEAD /nowhere HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let reply = try await RawHTTP.offPool { try RawHTTP.exchange(port: port, Array(request.utf8)) }
            let parts = reply.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0) }
            #expect(parts.count == 3, "\(reply.prefix(600))")
            #expect(parts.first?.hasPrefix("200") == true)
            #expect(parts.first?.contains("Content-Length: \(get.body.utf8.count)") == true, "\(parts.first ?? "")")
            #expect(parts.first?.hasSuffix("\r\n\r\n") == true, "a HEAD answer with a body: \(parts.first ?? "")")
            #expect(parts.dropFirst().first?.hasPrefix("404") == true && parts.dropFirst().first?.hasSuffix("\r\n\r\n") == true)
            #expect(parts.last?.hasPrefix("200") == true && parts.last?.hasSuffix("{\"status\":\"ok\"}\n") == true, "\(reply)")
            let start = ContinuousClock.now
            let connect = try await RawHTTP.offPool {
                try RawHTTP.exchange(port: port, Array("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n".utf8))
            }
            #expect(connect.hasPrefix("HTTP/1.1 405"), "\(connect.prefix(200))")
            // Framed as every refusal is (NIO's encoder would write no body after a CONNECT): a length,
            // the JSON naming the argument, the security headers, then the close.
            #expect(connect.contains("Allow: GET, HEAD, POST") && connect.contains("X-Content-Type-Options: nosniff"), "\(connect)")
            // Aimed at one of the server's paths, its Allow is that path's methods.
            let aimed = try await RawHTTP.offPool {
                try RawHTTP.exchange(port: port, Array("CONNECT /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            }
            #expect(aimed.hasPrefix("HTTP/1.1 405") && aimed.contains("Allow: GET, HEAD\r\n"), "\(aimed.prefix(400))")
            #expect(connect.contains("\"argument\":\"method\"") && connect.contains("Connection: close"), "\(connect)")
            if let split = connect.range(of: "\r\n\r\n") {
                let body = connect[split.upperBound...]
                #expect(connect.contains("Content-Length: \(body.utf8.count)"), "\(connect)")
            }
            #expect(ContinuousClock.now - start < .seconds(5), "CONNECT held the connection open")
            // Any refused method: its 405 says `Connection: close`, and the connection closes at once;
            // a request pipelined behind it is not answered.
            for method in ["DELETE", "PUT", "TRACE"] {
                let begun = ContinuousClock.now
                let refused = try await RawHTTP.offPool {
                    try RawHTTP.exchange(
                        port: port, Array("\(method) /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
                }
                #expect(refused.hasPrefix("HTTP/1.1 405") && refused.contains("Connection: close"), "\(method): \(refused.prefix(200))")
                #expect(refused.components(separatedBy: "HTTP/1.1 ").count == 2, "\(method): answered past its close: \(refused)")
                #expect(ContinuousClock.now - begun < .seconds(5), "\(method) held the connection open")
            }
            #expect(try await client.get("/healthz").status == .ok)
        }
    }

    /// A refused upload (its body unread) closes the connection, so the client can not go on sending
    /// it at any pace: the refusal says `Connection: close` and the connection ends at once.
    @Test func aRefusedUploadClosesTheConnection() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            for path in ["/api/v1/audit?bits=0", "/audit"] {
                let start = ContinuousClock.now
                let reply = try await RawHTTP.offPool {
                    try RawHTTP.exchange(
                        port: port, Array("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nids=abc".utf8))
                }
                #expect(reply.hasPrefix("HTTP/1.1 4") && reply.contains("Connection: close"), "\(path): \(reply.prefix(300))")
                #expect(ContinuousClock.now - start < .seconds(5), "\(path): the connection was held open")
            }
        }
    }

    /// A body in a transfer coding the server does not take off (`gzip, chunked`) is refused with a
    /// framed JSON 400 and the connection closed — not handed to the audit as compressed bytes; plain
    /// chunked is audited.
    @Test func aTransferCodingOtherThanChunkedIsRefused() async throws {
        try await withServer(.live) { client in
            let port = try #require(client.port)
            let body = "5\r\nabcd\n\r\n0\r\n\r\n"
            for coding in ["gzip, chunked", "deflate,chunked", "GZIP , Chunked"] {
                let reply = try await RawHTTP.offPool {
                    try RawHTTP.exchange(
                        port: port, Array("POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n\(body)".utf8))
                }
                #expect(reply.hasPrefix("HTTP/1.1 400") && reply.contains("Connection: close"), "\(coding): \(reply.prefix(300))")
                #expect(reply.contains("\"argument\":\"request\"") && reply.contains("is not served"), "\(coding): \(reply)")
            }
            let plain = try await RawHTTP.offPool {
                try RawHTTP.exchange(
                    port: port,
                    Array("POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\(body)".utf8))
            }
            #expect(plain.hasPrefix("HTTP/1.1 200"), "\(plain.prefix(300))")
        }
    }

    /// A compressed body (`Content-Encoding: gzip`) is 415, not audited as its bytes; an expectation
    /// the server can not meet is 417 (100-continue is answered: ConnectionTests).
    @Test func contentCodingsAndExpectationsAreRefused() async throws {
        try await withServer { client in
            let gzip = try await client.executeRequest(
                uri: "/api/v1/audit", method: .post, headers: [.contentEncoding: "gzip", .contentType: "text/plain"],
                body: .init(string: "\u{1f}\u{8b}\u{08}"))
            #expect(gzip.status == .unsupportedMediaType && String(buffer: gzip.body).contains("uncompressed"), "\(gzip.status)")
            // The page's own audit form is refused as the page, its calculator kept.
            let page = try await client.executeRequest(
                uri: "/audit?ask=length&rate=5e5&per=s", method: .post, headers: [.contentEncoding: "gzip", .contentType: "text/plain"],
                body: .init(string: "\u{1f}\u{8b}\u{08}"))
            let pageText = String(buffer: page.body)
            #expect(page.status == .unsupportedMediaType && page.headers[.contentType]?.hasPrefix("text/html") == true, "\(page.headers)")
            #expect(pageText.contains("uncompressed") && pageText.contains("value=\"5e5\""), "\(pageText.prefix(300))")
            let identity = try await client.executeRequest(
                uri: "/api/v1/audit", method: .post, headers: [.contentEncoding: "identity"], body: .init(string: "abc\n"))
            #expect(identity.status == .ok)
            let expect = try await client.executeRequest(uri: "/healthz", method: .get, headers: [.expect: "foo"], body: nil)
            let expectError = try decodeError(String(buffer: expect.body))
            #expect(expect.status == .expectationFailed && expectError.argument == "request")
        }
    }

    /// The ids go as the body itself, in any type they are read from as sent — curl's default
    /// form type included (`curl --data-binary`) — or none; a multipart upload (`curl -F`), whose
    /// boundaries and part headers would be audited as ids, is 415 and not read.
    @Test func anUploadIsReadAsSentOrRefused() async throws {
        try await withServer { client in
            for type in ["text/plain; charset=utf-8", "application/x-www-form-urlencoded", "application/json", "text/csv", nil] {
                let r = try await client.executeRequest(
                    uri: "/api/v1/audit", method: .post, headers: type.map { [.contentType: $0] } ?? [:],
                    body: .init(string: "abc\nabc\nxyz\n"))
                #expect(r.status == .ok, "\(type ?? "none"): \(String(buffer: r.body).prefix(200))")
                // Read as sent: the duplicate is seen (a form-decoded body would not split the same way).
                #expect(String(buffer: r.body).contains("\"distinct\" : \"2\""), "\(type ?? "none")")
            }
            let upload = "--x\r\nContent-Disposition: form-data; name=\"f\"; filename=\"ids.txt\"\r\n\r\nabc\nabc\n\r\n--x--\r\n"
            for type in ["multipart/form-data; boundary=x", "image/png"] {
                let r = try await client.executeRequest(
                    uri: "/api/v1/audit", method: .post, headers: [.contentType: type], body: .init(string: upload))
                let error = try decodeError(String(buffer: r.body))
                #expect(
                    r.status == .unsupportedMediaType && error.argument == "body" && error.error.contains("as the body itself"), "\(type)")
            }
        }
    }

    /// The API's refusals name parameters as the API takes them (`nodes=50`), not as CLI options
    /// (`--nodes 50`); a value sent that starts with dashes is quoted as it was sent.
    @Test func refusalsSpeakTheAPIsWords() async throws {
        try await withServer { client in
            for (path, words) in [
                ("probability?scheme=snowflake&rate=1e9/s&lifetime=1d", "nodes=50"),
                ("retries?bits=10&count=500&max-probability=1e-11", "max-attempts=3"),
                ("plan?rate=1e3/s&max-probability=1e-11", "lifetime=10y"),
                ("probability", "alphabet=base62 length=22"),
            ] {
                let r = try await client.get("/api/v1/\(path)")
                let error = try decodeError(r.body)
                #expect(r.status == .badRequest && error.error.contains(words), "\(path): \(error.error)")
                #expect(!error.error.contains(" --"), "\(path): \(error.error)")
            }
        }
    }

    @Test func pastTheDeadlineIs503() async throws {
        try await withServer(settings: ServerSettings(deadline: .milliseconds(1))) { client in
            let r = try await client.get("/api/v1/probability?bits=2097152&count=1e600000")
            #expect(r.status == .serviceUnavailable)
            #expect(r.headers[.retryAfter] == "1")
            #expect(try decodeError(r.body).error.contains("past the 0.001 s compute deadline"), "\(r.body)")
            // Every error body names its argument, null when it concerns none.
            #expect(r.body.contains("\"argument\":null"), "\(r.body)")
            // The page's 503 too says when to come back (a question it answers, 200, without the deadline).
            let page = try await client.get("/?ask=probability&alphabet=hex&length=500000&rate=1e99&per=s&lifetime=1e30&unit=y")
            #expect(page.status == .serviceUnavailable && page.headers[.retryAfter] == "1", "\(page.status) \(page.body.suffix(300))")
        }
    }

    /// The API takes what the CLI takes: `1/µs` (micro sign) and `1/μs` (Greek mu).
    @Test func microsecondsAsTheCLIWritesThem() async throws {
        try await withServer { client in
            for unit in ["%C2%B5s", "%CE%BCs", "us"] {
                let r = try await client.get("/api/v1/probability?bits=64&rate=1%2F\(unit)&lifetime=1s")
                #expect(r.status == .ok, "\(unit): \(r.body)")
                #expect(r.body.contains("\"count\" : \"1000000\""), "\(unit): \(r.body.prefix(400))")
            }
        }
    }

    @Test func busyIs503() async throws {
        let compute = Compute(deadline: .seconds(5), slots: 1)
        let hold = Hold()
        async let slow: String = compute.run { () throws(Refusal) -> String in
            hold.occupy()
            return "done"
        }
        await hold.started()
        await #expect(throws: Refusal.self) { try await compute.run { () throws(Refusal) -> Int in 1 } }
        hold.release()
        let first = try await slow
        #expect(first == "done")
        let next = try await compute.run { () throws(Refusal) -> Int in 2 }
        #expect(next == 2)
    }

    /// What a computation holds is let go once it is done: an audit's closure keeps its fingerprint
    /// tables (64 MiB for 2.7 million ids), and a lane that kept its finished jobs until it compacted
    /// them grew by that much with each upload.
    @Test func aFinishedComputationHoldsNothing() async throws {
        final class Held: Sendable {}
        let compute = Compute(deadline: .seconds(5), slots: 1)
        weak var held: Held?
        for _ in 0..<3 {
            let h = Held()
            held = h
            let n = try await compute.run { () throws(Refusal) -> Int in withExtendedLifetime(h) { 1 } }
            #expect(n == 1)
        }
        // The worker lets go of its job as its turn ends, just after the answer is delivered.
        let start = ContinuousClock.now
        while held != nil, ContinuousClock.now - start < .seconds(2) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(held == nil)
    }

    /// A question refused for a full lane waits `busyPause` for its 503 (a flooding client is slowed,
    /// and no worker is held meanwhile); with no pause it is refused at once.
    @Test(arguments: [Duration.milliseconds(300), .zero])
    func aBusyRefusalIsPaced(pause: Duration) async throws {
        let compute = Compute(deadline: .seconds(5), slots: 1, busyPause: pause)
        let hold = Hold(limit: 3)
        async let slow: String = compute.run { () throws(Refusal) -> String in
            hold.occupy()
            return "done"
        }
        await hold.started()
        let start = ContinuousClock.now
        await #expect(throws: Refusal.self) { try await compute.run { () throws(Refusal) -> Int in 1 } }
        let took = ContinuousClock.now - start
        hold.release()
        // Waiting for the slot would take the 3 s the slow one holds it: the bounds leave a loaded
        // machine room and still tell the two apart.
        if pause > .zero {
            #expect(took >= pause && took < .seconds(2.4), "\(took)")
        } else {
            #expect(took < .seconds(1.5), "\(took)")
        }
        #expect(try await slow == "done")
    }

    /// Audits are admitted before their upload is read: past `audits` at once, 503 at once.
    @Test func auditsAreAdmittedBeforeTheirUpload() async throws {
        let compute = Compute(deadline: .seconds(5), slots: 1, audits: 1)
        let hold = Hold()
        async let first: String = compute.auditing {
            await hold.occupyAsync()
            return "read"
        }
        await hold.started()
        await #expect(throws: Refusal.self) { try await compute.auditing { 1 } }
        hold.release()
        #expect(try await first == "read")
        #expect(try await compute.auditing { 2 } == 2)
    }

    /// An upload trickled below the minimum rate is refused (408, connection closed) once past the
    /// grace period, however long its declared body.
    @Test func aTrickledUploadIsRefused() async throws {
        let settings = ServerSettings(uploadGrace: .seconds(1), minimumUploadRate: 16_384)
        try await withServer(.live, settings: settings) { client in
            let port = try #require(client.port)
            let start = ContinuousClock.now
            let reply = try await RawHTTP.offPool { try RawHTTP.trickle(port: port, every: 0.3, for: 8) }
            #expect(reply.hasPrefix("HTTP/1.1 408"), "\(reply.prefix(300))")
            #expect(reply.contains("\"argument\":\"body\"") && reply.contains("Connection: close"), "\(reply)")
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    /// An upload that declares a body and sends none of it is refused the same way (408, connection
    /// closed) soon after the grace period, not left to the idle timeout (which closes without a word).
    @Test func aSilentUploadIsRefused() async throws {
        let settings = ServerSettings(idleTimeout: .seconds(10), uploadGrace: .seconds(1), minimumUploadRate: 16_384)
        try await withServer(.live, settings: settings) { client in
            let port = try #require(client.port)
            let start = ContinuousClock.now
            let head = "POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n"
            let reply = try await RawHTTP.offPool { try RawHTTP.exchange(port: port, Array(head.utf8)) }
            #expect(reply.hasPrefix("HTTP/1.1 408"), "\(reply.prefix(300))")
            #expect(reply.contains("\"argument\":\"body\"") && reply.contains("Connection: close"), "\(reply)")
            #expect(ContinuousClock.now - start < .seconds(5))
            // The page's form upload too.
            let form = "POST /audit HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n"
            let page = try await RawHTTP.offPool { try RawHTTP.exchange(port: port, Array(form.utf8)) }
            #expect(page.hasPrefix("HTTP/1.1 408"), "\(page.prefix(300))")
            // Fast at first (200 KB, well over the rate), then nothing: refused within the grace after
            // the stall (and a second's watch), not closed unanswered by the idle timeout.
            let began = ContinuousClock.now
            let ids = String(repeating: "0123456789abcdefghij\n", count: 10_000)
            let stalled = try await RawHTTP.offPool { try RawHTTP.exchange(port: port, Array((head + ids).utf8)) }
            #expect(stalled.hasPrefix("HTTP/1.1 408") && stalled.contains("nothing sent for 1 s"), "\(stalled.prefix(300))")
            #expect(ContinuousClock.now - began < .seconds(5))
        }
    }

    /// Any request's body keeps the pace, not only an upload's: a GET answered at once whose body
    /// trickles on (chunked, or short of its declared length) has its connection closed soon after
    /// the grace period — a few thousand of them would otherwise keep every new client out for ever.
    @Test func aTrickledBodyOnAnyRequestIsCut() async throws {
        let settings = ServerSettings(idleTimeout: .seconds(10), uploadGrace: .seconds(1), minimumUploadRate: 16_384)
        try await withServer(.live, settings: settings) { client in
            let port = try #require(client.port)
            for head in [
                "GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
                "GET /api/v1/schemes HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n",
            ] {
                let piece = head.contains("chunked") ? "1\r\na\r\n" : "abcdefghij"
                let (reply, closed) = try await RawHTTP.offPool {
                    try RawHTTP.trickleBody(port: port, head: head, piece: piece, every: 0.3, for: 9)
                }
                #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(300))")
                let after = try #require(closed, "still open after 9 s: \(head)")
                #expect(after < 6, "closed after \(after) s: \(head)")
            }
        }
    }

    /// Heavy questions can not starve light ones: with the heavy lane full, a heavy question is 503 and
    /// a light one is answered.
    @Test func lightQuestionsPassHeavyOnes() async throws {
        let compute = Compute(deadline: .seconds(5), slots: 1, lightSlots: 2)
        let hold = Hold()
        async let slow: String = compute.run(heavy: true) { () throws(Refusal) -> String in
            hold.occupy()
            return "done"
        }
        await hold.started()
        await #expect(throws: Refusal.self) { try await compute.run(heavy: true) { () throws(Refusal) -> Int in 1 } }
        let light = try await compute.run(heavy: false) { () throws(Refusal) -> Int in 3 }
        hold.release()
        #expect(light == 3)
        #expect(try await slow == "done")
    }

    /// The page's form is judged as the question it asks: its rate and unit, lifetime and unit, one
    /// rate and one lifetime; 1/s growing 1000x a year for 10,000 years is heavy there too.
    @Test func aPageQuestionIsHeavyByItsVolume() throws {
        let grown = "ask=length&alphabet=decimal&rate=1&per=s&lifetime=10000&unit=y&growth=1000x/y&max-probability=1e-11"
        let seed = "ask=length&alphabet=base62&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11"
        for (query, heavy) in [(grown, true), (seed, false)] {
            let form = try Page.Form(try Query.arguments(query, allowed: Page.Form.names, ignoringUnknown: true))
            #expect(form.arguments.isHeavy == heavy, "\(query)")
        }
    }

    @Test(arguments: [
        ("alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11", false),
        ("bits=122&count=1e9", false),
        ("bits=2097152&count=1e600000", true),
        ("bits=8192&count=5", true),
        ("bits=64&count=1e1000", true),
        ("bits=64&count=2%5E1200", true),
        ("alphabet=hex&count=1e9&max-probability=1e-100000", true),
        ("alphabet=hex&count=1e9&max-probability=1e-999", false),
        ("alphabet=hex&length=1000&count=5", true),
        // Judged on the values, however written.
        ("bits=2%5E21&max-probability=1e-999&rate=1e999/s", true),
        ("bits=2.097152e6&count=5", true),
        ("bits=2%5E13&count=5", true),
        ("bits=2%5E12&count=5", false),
        // The edge the documentation states: 8192 bits or more.
        ("bits=8192&count=5", true),
        ("bits=8191&count=5", false),
        ("alphabet=hex&length=1e3&count=5", true),
        ("alphabet=hex&length=999&count=5", false),
        // A space written as an alphabet's size or its symbols and a length: length × log2(size).
        ("alphabet-size=1048576&length=410&count=5", true),
        ("alphabet-size=1048576&length=409&count=5", false),
        ("alphabet-size=2%5E20&length=410&count=5", true),
        ("symbols=\(cjkSymbols)&length=820&count=5", true),
        ("symbols=\(cjkSymbols)&length=819&count=5", false),
        ("symbols=ab&length=999&count=5", false),
        ("bits=64&count=10%5E300", true),
        ("bits=64&count=2%5E64-1", false),
        ("bits=122&rate=1e6/s&lifetime=10y", false),
        // A value of 0 is small (or refused), never heavy.
        ("bits=122&count=1e9&existing=0", false),
        ("alphabet=hex&count=0&length=1", false),
        ("alphabet=hex&count=1&max-probability=0", false),
        // A volume past 10^300 ids though no value is: growth compounded, or values multiplied.
        ("alphabet=decimal&rate=1/s&growth=1000x/y&lifetime=1e4y&max-probability=1.2e-999", true),
        ("rate=1/s&growth=1000x/y&lifetime=1e4y&max-probability=1.2e-999", true),
        ("alphabet=decimal&rate=1/s&growth=1000x/y&lifetime=50y&max-probability=1e-11", false),
        ("bits=64&rate=1e290/s&lifetime=1e20y", true),
        ("bits=64&count=1e200&nodes=1e200", true),
        ("bits=64&rate=1e6/s&lifetime=10y&nodes=50&growth=40%25/y", false),
    ])
    func heavyQuestionsAreTold(query: String, heavy: Bool) throws {
        let q = try Query.arguments(
            query,
            allowed: [
                "alphabet", "alphabet-size", "symbols", "rate", "lifetime", "max-probability", "bits", "count", "length", "existing",
                "growth", "nodes",
            ])
        #expect(q.isHeavy == heavy, "\(query)")
    }
}

/// 1024 distinct symbols (CJK ideographs from U+4E00), percent-encoded for a query: 10 bits each.
private let cjkSymbols =
    String(String.UnicodeScalarView((0..<1024).compactMap { Unicode.Scalar(0x4E00 + $0) }))
    .addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
