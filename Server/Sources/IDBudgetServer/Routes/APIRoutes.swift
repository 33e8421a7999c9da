import Foundation
import HTTPTypes
import Hummingbird
import IDAudit
import IDBudget
import IDQuestions
import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `GET /api/v1/{probability,length,capacity,plan,schemes,inspect}` and `POST /api/v1/audit`: the CLI's JSON for
/// the same question, byte for byte (`idbudget … --format json`).
struct APIRoutes {
    let compute: Compute
    let settings: ServerSettings
    let cache: AnswerCache

    func add(to group: RouterGroup<BasicRequestContext>) {
        for command in Question.Command.allCases {
            group.get(RouterPath(command.rawValue)) { request, _ in
                let query = try Query.arguments(request.uri.query, allowed: Set(command.parameters))
                let key = cache.key(command, query)
                if let key, let text = cache.answer(key) { return Self.json(text) }
                // Reading the question (numbers of 600,000 digits) is math too: on the computation's own
                // thread, never on the few threads every request shares.
                let text = try await compute.run(heavy: query.isHeavy, estimate: query.estimatedSeconds(for: command)) {
                    () throws(Refusal) -> String in
                    try refusing { () throws(ArgumentError) in try Question(command, query).answer() }.cliJSON()
                }
                if let key { cache.keep(text, for: key) }
                return Self.json(text)
            }
        }
        group.post("audit") { request, _ in try await audit(request) }
    }

    /// A byte limit in words: `67108864 (64 MiB)`, `200 bytes`.
    static func bytesText(_ n: Int) -> String {
        n >= 1 << 20 && n % (1 << 20) == 0 ? "\(n) (\(n >> 20) MiB)" : "\(n) bytes"
    }

    static func json(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Ids, one per line, streamed into an `Auditor` chunk by chunk: memory stays bounded whatever the
    /// upload's size, and an upload past the limit is refused as soon as it is declared or reached.
    func audit(_ request: Request) async throws -> Response {
        let query = try Query.arguments(
            request.uri.query, allowed: ["max-line-bytes", "bits", "scheme", "alphabet", "length", "max-invalid"])
        let audit = try refusing { () throws(ArgumentError) in try AuditSettings(query) }
        let report = try await compute.auditing { try await Self.audit(request, settings: audit, limits: settings, compute: compute) }
        return Self.json(try report.cliJSON())
    }

    /// The audit of a request's body (after `prefix`, when the body starts with it: the page's form
    /// sends `ids=` first; a body that does not start so is audited whole), bounded as the API's.
    static func audit(
        _ request: Request, settings: AuditSettings, limits: ServerSettings, compute: Compute, skipping prefix: [UInt8] = [],
        echo: Echo? = nil
    ) async throws -> AuditReport {
        let limit = limits.maxBodyBytes
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw Refusal(.contentTooLarge, argument: "body", "\(declared) bytes; send at most \(Self.bytesText(limit))")
        }
        let auditor = AuditorBox(
            try Auditor(maxLineBytes: settings.maxLineBytes, memoryLimit: limits.auditMemory, threads: 1, declared: settings.declared))
        @Sendable func consume(_ bytes: UnsafeRawBufferPointer) throws(Refusal) {
            echo?.keep(bytes)
            do { try auditor.value.consume(bytes) } catch {
                throw Refusal(.serviceUnavailable, argument: nil, "the audit could not go on: \(error)")
            }
        }
        // The body is read by one task while another watches its pace: a trickle is refused as its
        // bytes come; an upload that sends nothing — from the start, or for the grace period after a
        // fast beginning — is caught by the watcher, once a second past the grace period (the reader,
        // waiting for bytes that do not come, can not tell). All get a 408
        // and the connection closed, not the idle timeout's close without an answer.
        let progress = UploadProgress()
        let start = ContinuousClock.now
        let body = request.body
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // The first bytes are held until there are enough of them to tell whether they are
                // `prefix` (it may come split over several buffers).
                var head: [UInt8] = []
                var deciding = !prefix.isEmpty
                var received = 0
                for try await buffer in body {
                    received += buffer.readableBytes
                    progress.received.store(received, ordering: .relaxed)
                    let since = (ContinuousClock.now - start).components
                    progress.latest.store(since.seconds * 1_000_000_000 + since.attoseconds / 1_000_000_000, ordering: .relaxed)
                    guard received <= limit else {
                        throw Refusal(
                            .contentTooLarge, argument: "body", "more than \(limit) bytes; send at most \(Self.bytesText(limit))")
                    }
                    // Stopping: an upload still coming would hold the shutdown open.
                    if Shutdown.isStopping {
                        throw Refusal(.serviceUnavailable, argument: nil, "the server is stopping; send the upload again shortly")
                    }
                    try Self.checkPace(received: received, since: start, limits: limits)
                    try buffer.withUnsafeReadableBytes { bytes in
                        var start = 0
                        if deciding {
                            start = Swift.min(bytes.count, prefix.count - head.count)
                            head += bytes[..<start]
                            guard head.count == prefix.count else { return }
                            deciding = false
                            if head != prefix { try head.withUnsafeBytes { try consume($0) } }
                        }
                        try consume(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                    }
                }
                // A body shorter than the prefix: its bytes as they are.
                if deciding { try head.withUnsafeBytes { try consume($0) } }
            }
            group.addTask {
                try await Task.sleep(until: start + limits.uploadGrace, clock: .continuous)
                while true {
                    try Self.checkPace(received: progress.received.load(ordering: .relaxed), since: start, limits: limits)
                    // Stalled: fast at first, then nothing for the grace period. Its average would
                    // fall below the rate only after the idle timeout had closed it without an answer.
                    let latest = start + .nanoseconds(progress.latest.load(ordering: .relaxed))
                    if ContinuousClock.now - latest > limits.uploadGrace {
                        throw Refusal(
                            .requestTimeout, argument: "body",
                            "nothing sent for \(limits.uploadGrace.components.seconds) s after \(progress.received.load(ordering: .relaxed)) bytes; send the upload without stalling"
                        )
                    }
                    try await Task.sleep(for: .seconds(1))
                }
            }
            // The reader's end (or the first refusal) ends the watch.
            try await group.next()
            group.cancelAll()
        }
        let (claimed, declared) = (settings.claimedBits, settings.declared)
        // Once this audit's tables are freed (the route has returned), the allocator hands the pages
        // back: otherwise it keeps a large upload's peak for the next, and RSS stays ~170 MiB up.
        defer { Self.returnFreedMemory() }
        return try await compute.run(audit: true) { () throws(Refusal) -> AuditReport in
            do {
                return try AuditReport(summary: try auditor.value.finish(), claimedBits: claimed, declared: declared, resources: nil)
            } catch let refusal as Refusal {
                throw refusal
            } catch {
                throw Refusal(.serviceUnavailable, argument: nil, "the audit could not finish: \(error)")
            }
        }
    }
}

extension APIRoutes {
    /// Asks the C allocator, a second from now, to return the free pages of its arenas to the system
    /// (glibc's `malloc_trim`; a no-op elsewhere).
    static func returnFreedMemory() {
        #if canImport(Glibc)
            guard let trim = mallocTrim else { return }
            Task.detached {
                try? await Task.sleep(for: .seconds(1))
                _ = trim(0)
            }
        #endif
    }

    #if canImport(Glibc)
        /// glibc's `malloc_trim`, looked up by name (its header is not in Swift's Glibc module).
        nonisolated(unsafe) static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(nil, "malloc_trim").map {
            unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
        }
    #endif

    /// A trickle holds an audit's place and keeps the server from stopping: past the grace period an
    /// upload must have come at the minimum rate on average, or it is refused (408).
    static func checkPace(received: Int, since start: ContinuousClock.Instant, limits: ServerSettings) throws(Refusal) {
        let elapsed = ContinuousClock.now - start
        guard elapsed > limits.uploadGrace else { return }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        if Double(received) < limits.minimumUploadRate * seconds {
            throw Refusal(
                .requestTimeout, argument: "body",
                "\(received) bytes in \(Int(seconds)) s; send the upload at \(Int(limits.minimumUploadRate) >> 10) KiB/s or more")
        }
    }
}

/// How many bytes of an upload have come, for the task that watches its pace.
final class UploadProgress: Sendable {
    let received = Atomic<Int>(0)
    /// Nanoseconds from the upload's start to its latest bytes.
    let latest = Atomic<Int64>(0)
}

/// The first bytes of an upload, kept to show them again (the page's audit form): at most `limit`.
final class Echo: @unchecked Sendable {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    /// Whether more came than was kept.
    private(set) var cut = false

    init(limit: Int) { self.limit = limit }

    func keep(_ chunk: UnsafeRawBufferPointer) {
        let room = limit - bytes.count
        if chunk.count > room { cut = true }
        if room > 0 { bytes += chunk.prefix(room) }
    }

    /// The bytes kept, as a textarea holds them (a browser sends CRLF, and one more after the last
    /// field: kept, it would add an empty line at each round trip), cut at a line's end; with a note
    /// when more came than is shown (`judged`: beside a verdict, which covers them all), never a
    /// silent cut, and when bytes that are not UTF-8 are shown as U+FFFD (sent again, they would
    /// be other ids).
    func pasted(judged: Bool) -> (text: String, note: String?) {
        var kept = bytes
        if cut, let lastLine = kept.lastIndex(of: 0x0A) {
            kept.removeSubrange(kept.index(after: lastLine)...)
        } else if !cut, kept.suffix(2) == [0x0D, 0x0A] {
            kept.removeLast(2)
        }
        let text = String(decoding: kept, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        var notes: [String] = []
        if cut {
            notes.append(
                "the first \(limit >> 10) KiB of the ids\(judged ? "" : " sent") are shown again here"
                    + (judged ? "; the verdict covers all of them" : ""))
        }
        if String(validating: kept, as: UTF8.self) == nil {
            notes.append("bytes that are not UTF-8 are shown as \u{FFFD}" + (judged ? "; the verdict read them as sent" : ""))
        }
        return (text, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}

/// An auditor handed from the request's task to the computation's thread, never used by both at once.
final class AuditorBox: @unchecked Sendable {
    let value: Auditor
    init(_ value: Auditor) { self.value = value }
}

extension AuditReport {
    /// What `idbudget audit --format json` prints.
    func cliJSON() throws(Refusal) -> String {
        do { return try jsonText() + "\n" } catch {
            throw Refusal(.serviceUnavailable, argument: nil, "the answer could not be encoded: \(error)")
        }
    }
}

extension Answer {
    /// What `idbudget … --format json` prints: the answer's JSON and a newline.
    func cliJSON() throws(Refusal) -> String {
        // `idbudget inspect --format json` writes one line an id; every other command, pretty JSON.
        do { return try (self is InspectAnswer ? jsonLine() : jsonText()) + "\n" } catch {
            throw Refusal(.serviceUnavailable, argument: nil, "the answer could not be encoded: \(error)")
        }
    }
}
