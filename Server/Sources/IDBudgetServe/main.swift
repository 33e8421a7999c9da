import Foundation
import Hummingbird
import IDBudgetServer
import Logging

// idbudget-serve [--host H] [--port P]: the calculator page and the JSON API (docs/server.md).
let usage = """
    USAGE: idbudget-serve [--host <host>] [--port <port>]

    Serves idbudget's calculator page at / and its JSON API at /api/v1 (described at /openapi.json).
      --host <host>   address to bind (default 127.0.0.1: loopback only)
      --port <port>   port (default 8080)
      -h, --help      this help
    SIGTERM or SIGINT: in-flight requests finish, then the server exits 0.

    """

var host = "127.0.0.1"
var port = 8080
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
let app = buildApplication(host: host, port: port, logger: logger)
try await app.runService()
