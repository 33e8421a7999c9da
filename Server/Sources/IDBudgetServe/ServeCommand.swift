import ArgumentParser
import Foundation
import Hummingbird
import IDBudgetServer
import Logging

/// `idbudget-serve`: the calculator page and the JSON API (docs/server.md). Every setting is an option,
/// or else an environment variable (`IDBUDGET_SERVE_` and the option's name in capitals, `-` as `_`:
/// `IDBUDGET_SERVE_PORT=9000`), or else its default; an option wins over the environment.
@main
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idbudget-serve",
        abstract: "Serves idbudget's calculator page at / and its JSON API at /api/v1 (described at /openapi.json).",
        discussion: """
            Each option may instead be set in the environment: IDBUDGET_SERVE_HOST, IDBUDGET_SERVE_PORT, \
            IDBUDGET_SERVE_AUDITS, … (the option's name in capitals, - as _). SIGTERM or SIGINT: in-flight \
            requests finish (uploads still coming are refused), then the server exits 0, a 10 s grace at most \
            whatever clients do (and the moments the exit takes).
            """)

    @Option(parsing: .unconditional, help: "Address to bind (default 127.0.0.1: loopback only).") var host: String?
    @Option(parsing: .unconditional, help: "Port, 0 to 65535 (default 8080).") var port: Int?
    @Option(parsing: .unconditional, help: "Audit uploads at once, 1 to 64 (default: one core fewer than the machine has, at least 1).")
    var audits: Int?
    @Option(
        parsing: .unconditional, help: "Heavy computations at once, 1 to 256 (default: one core fewer than the machine has, at least 1).")
    var slots: Int?
    @Option(parsing: .unconditional, help: "Light computations at once, 1 to 256 (default: one a core).") var lightSlots: Int?
    @Option(parsing: .unconditional, help: "Light questions that may wait for a worker, 0 to 4096 (default: 8 a core).") var lightQueue:
        Int?
    @Option(parsing: .unconditional, help: "Seconds a question may compute before it is answered 503, 0.1 to 600 (default 2).")
    var deadline: Double?
    @Option(parsing: .unconditional, help: "The largest body taken, in bytes, 1024 to 2^31 (default 64 MiB).") var maxBodyBytes: Int?
    @Option(
        parsing: .unconditional, help: "Memory for one audit's tables in bytes before they spill to disk, 2^20 to 2^40 (default 256 MiB).")
    var auditMemory: Int?
    @Option(parsing: .unconditional, help: "Seconds a silent connection is kept, 1 to 3600 (default 10).") var idleTimeout: Double?
    @Option(parsing: .unconditional, help: "Seconds an upload may take before it must keep the minimum rate, 1 to 3600 (default 5).")
    var uploadGrace: Double?
    @Option(parsing: .unconditional, help: "Bytes a second an upload must average after the grace, 1 to 2^30 (default 16384).")
    var minimumUploadRate: Double?
    @Option(parsing: .unconditional, help: "Answers kept for questions asked again the same day, 0 to 65536 (default 512).")
    var answerCache: Int?
    @Option(
        parsing: .unconditional,
        help: "Connections at once, past which new ones wait to be accepted; 1 to the descriptor limit less 64 (default 4096, or that).")
    var maxConnections: Int?

    /// The options resolved against the environment and the defaults, each checked against its range.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (
        host: String, port: Int, settings: ServerSettings
    ) {
        func value<T: LosslessStringConvertible & Comparable>(
            _ option: T?, _ name: String, _ range: ClosedRange<T>, default fallback: T
        ) throws -> T {
            let key = "IDBUDGET_SERVE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            let v: T
            if let option {
                v = option
            } else if let text = environment[key] {
                guard let parsed = T(text.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError("\(key): '\(text.prefix(40))' is not a number from \(range.lowerBound) to \(range.upperBound)")
                }
                v = parsed
            } else {
                return fallback
            }
            guard range.contains(v) else {
                throw ValidationError(
                    "\(option != nil ? "--" + name : key): \(v) is out of range; give \(range.lowerBound) to \(range.upperBound)")
            }
            return v
        }
        let d = ServerSettings()
        var s = d
        s.audits = try value(audits, "audits", 1...64, default: d.audits)
        s.slots = try value(slots, "slots", 1...256, default: d.slots)
        s.lightSlots = try value(lightSlots, "light-slots", 1...256, default: d.lightSlots)
        s.lightQueue = try value(lightQueue, "light-queue", 0...4096, default: d.lightQueue)
        s.deadline = .milliseconds(Int(try value(deadline, "deadline", 0.1...600, default: d.deadline.inSeconds) * 1000))
        s.maxBodyBytes = try value(maxBodyBytes, "max-body-bytes", 1024...(1 << 31), default: d.maxBodyBytes)
        s.auditMemory = try value(auditMemory, "audit-memory", (1 << 20)...(1 << 40), default: d.auditMemory)
        s.idleTimeout = .milliseconds(Int(try value(idleTimeout, "idle-timeout", 1...3600, default: d.idleTimeout.inSeconds) * 1000))
        s.uploadGrace = .milliseconds(Int(try value(uploadGrace, "upload-grace", 1...3600, default: d.uploadGrace.inSeconds) * 1000))
        s.minimumUploadRate = try value(minimumUploadRate, "minimum-upload-rate", 1...Double(1 << 30), default: d.minimumUploadRate)
        s.answerCache = try value(answerCache, "answer-cache", 0...65536, default: d.answerCache)
        s.maxConnections = try value(
            maxConnections, "max-connections", 1...max(1, ServerSettings.descriptorLimit - 64), default: d.maxConnections)
        let host = host ?? environment["IDBUDGET_SERVE_HOST"] ?? "127.0.0.1"
        guard !host.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("\(self.host != nil ? "--host" : "IDBUDGET_SERVE_HOST"): give an address, e.g. 127.0.0.1")
        }
        return (host, try value(port, "port", 0...65535, default: 8080), s)
    }

    func validate() throws { _ = try resolved() }

    /// Help on stdout (0); a bad option or variable as one line on stderr naming it (64); a server that
    /// can not start (the port taken) one line too (69, EX_UNAVAILABLE).
    static func main() async {
        let command: ServeCommand
        do {
            // An option given twice is a mistake, not a choice of the last (the CLI's rule too).
            var seen = Set<String>()
            for argument in CommandLine.arguments.dropFirst() where argument.hasPrefix("--") {
                let name = String(argument.prefix { $0 != "=" })
                if !seen.insert(name).inserted { throw ValidationError("\(name): given more than once; give it once") }
            }
            command = try parse()
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }
            let message = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("idbudget-serve: error: \(message)\n".utf8))
            Foundation.exit(code.rawValue)
        }
        do {
            try await command.run()
        } catch {
            FileHandle.standardError.write(Data("idbudget-serve: error: \(String(describing: error).prefix(300))\n".utf8))
            Foundation.exit(69)
        }
    }

    func run() async throws {
        let (host, port, settings) = try resolved()
        // One structured line per request (logfmt on stdout).
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "idbudget-serve")
        // SIGTERM/SIGINT: uploads still coming are refused, and the process ends within Shutdown.grace
        // whatever clients do (the graceful shutdown lets every other request finish first).
        var stopSignals: [DispatchSourceSignal] = []
        for signo in [SIGTERM, SIGINT] {
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                logger.info("stopping", metadata: ["signal": "\(signo)", "grace_s": "\(Shutdown.grace.components.seconds)"])
                Shutdown.begin()
            }
            source.resume()
            stopSignals.append(source)
        }
        let app = buildApplication(host: host, port: port, settings: settings, logger: logger)
        try await app.runService()
        withExtendedLifetime(stopSignals) {}
    }
}

extension Duration {
    /// Whole and fractional seconds, for a default shown beside an option given in seconds.
    fileprivate var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
