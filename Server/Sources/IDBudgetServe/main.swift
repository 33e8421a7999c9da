import Foundation
import Hummingbird
import IDBudgetServer
import Logging

// idbudget-serve [--host H] [--port P]: the calculator page and the JSON API (docs/server.md).
let usage = """
    USAGE: idbudget-serve [--host <host>] [--port <port>] [--audits <n>]

    Serves idbudget's calculator page at / and its JSON API at /api/v1 (described at /openapi.json).
      --host <host>   address to bind (default 127.0.0.1: loopback only)
      --port <port>   port (default 8080)
      --audits <n>    audit uploads at once, 1 to 64 (default: one core fewer than the machine has, at least 1)
      -h, --help      this help
    SIGTERM or SIGINT: in-flight requests finish (uploads still coming are refused), then the server
    exits 0; within 10 s whatever clients do.

    """

var host = "127.0.0.1"
var port = 8080
var settings = ServerSettings()
var arguments = CommandLine.arguments.dropFirst()
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("idbudget-serve: error: \(message)\n".utf8))
    exit(64)
}
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    case "--host":
        guard let value = arguments.popFirst(), !value.isEmpty else { fail("--host needs a value, e.g. --host 127.0.0.1") }
        host = value
    case "--port":
        guard let value = arguments.popFirst(), let p = Int(value), (0...65535).contains(p) else {
            fail("--port needs a port from 0 to 65535, e.g. --port 8080")
        }
        port = p
    case "--audits":
        guard let value = arguments.popFirst(), let n = Int(value), (1...64).contains(n) else {
            fail("--audits needs a whole number from 1 to 64, e.g. --audits 2")
        }
        settings.audits = n
    default:
        fail("unknown argument '\(argument.prefix(40))'; see --help")
    }
}

// One structured line per request (logfmt on stdout).
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardOutput(label: label)
    handler.logLevel = .info
    return handler
}
let logger = Logger(label: "idbudget-serve")
// SIGTERM/SIGINT: uploads still coming are refused, and the process ends within Shutdown.grace
// whatever clients do (the graceful shutdown below lets every other request finish first).
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
