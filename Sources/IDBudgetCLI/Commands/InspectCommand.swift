import ArgumentParser
import Foundation
import IDBudget

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "What an id is: the formats it is valid in, and its timestamp, version, node, counter and random bits.",
        discussion: """
            With no id, or -, reads ids from standard input, one per line. Exit status 1 when some id is
            valid in no format (with --scheme, not valid in that one).
            Examples:
              idbudget inspect user_01h455vb4pex5vsknk084sn02q 175928847299117063
              idbudget generate --scheme uuid7 --count 3 | idbudget inspect --scheme uuid7 --format json
            """
    )

    @Argument(help: ArgumentHelp("Ids to inspect; none or - reads lines from standard input.", valueName: "id"))
    var ids: [String] = []

    @Option(
        help: ArgumentHelp(
            "Read as this format only: \(InspectableFormat.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "format"),
        completion: .list(InspectableFormat.allCases.map(\.rawValue)))
    var scheme: String?

    @OptionGroup var output: FormatOptions

    func validate() throws {
        if let scheme, InspectableFormat(rawValue: scheme) == nil {
            throw UsageError(
                argument: "--scheme",
                message:
                    "'\(scheme)' is not a format inspect reads; use one of \(InspectableFormat.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if ids.filter({ $0 == "-" }).count > 1 { throw UsageError(argument: "id", message: "- (standard input) is given more than once") }
    }

    func run() throws {
        let formats = scheme.flatMap(InspectableFormat.init(rawValue:)).map { [$0] } ?? InspectableFormat.allCases
        var count = 0
        func inspect(_ id: String) throws {
            let answer = InspectAnswer(inspecting: id, as: formats)
            if !answer.valid { Output.status = ExitStatus.fails.rawValue }
            switch output.format {
            case .json: Output.print(try answer.jsonLine())
            case .text: Output.print(Text.render(answer, asked: formats.count))
            }
            count += 1
            if count % 1024 == 0 { try Output.flush() }
        }
        let arguments = ids.isEmpty ? ["-"] : ids
        for id in arguments {
            if id == "-" {
                try Lines.read(from: 0, limit: IDFormat.maxInspectedBytes) { line in try inspect(line) }
            } else {
                try inspect(id)
            }
        }
        if count == 0 {
            Output.diagnostic("idbudget: inspect: no id given (standard input was empty)")
            Output.status = ExitStatus.fails.rawValue
        }
    }
}

/// Lines from a file descriptor, read in blocks: a line over `limit` bytes is passed on cut to
/// `limit + 1` bytes (so it is refused for its length) and the rest of it skipped, never held.
enum Lines {
    static func read(from fd: Int32, limit: Int, _ body: (String) throws -> Void) throws {
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var line: [UInt8] = []
        var overlong = false
        func emit() throws {
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if !line.isEmpty || overlong { try body(String(decoding: line, as: UTF8.self)) }
            line.removeAll(keepingCapacity: true)
            overlong = false
        }
        while true {
            let n = block.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(status: .ioError, argument: "standard input", message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            for byte in block[0..<n] {
                if byte == UInt8(ascii: "\n") {
                    try emit()
                } else if line.count <= limit {
                    line.append(byte)
                } else {
                    overlong = true
                }
            }
        }
        try emit()
    }
}
