import ArgumentParser
import Foundation
import IDBudget
import IDQuestions

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
        if ids.filter({ $0 == "-" }).count > 1 { throw UsageError(argument: "id", message: "- (standard input) is given more than once") }
    }

    func run() throws {
        let formats = try usage { () throws(ArgumentError) in try Question.inspectFormats(scheme) }
        // `| head`: a closed pipe ends the run quietly, as `generate`'s does, never a death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        var count = 0
        func inspect(_ id: String, bytes: Int? = nil, raw: [UInt8]? = nil) throws {
            var answer: InspectAnswer
            if let raw, let notUTF8 = InspectedID.notUTF8(raw, as: formats) {
                answer = InspectAnswer(notUTF8)
            } else {
                answer = InspectAnswer(inspecting: id, as: formats)
            }
            if let bytes, bytes > IDFormat.maxInspectedBytes {
                // A line past the limit was not kept whole: say so, with its real size.
                let reason = "\(bytes) bytes, longer than \(IDFormat.maxInspectedBytes); no id format is"
                answer = InspectAnswer(
                    InspectedID(
                        id: "\(id.prefix(64))… (\(bytes) bytes)", readings: [],
                        rejections: formats.map { IDRejection(format: $0.rawValue, reason: reason, byLength: true) }))
            }
            if !answer.valid { Output.status = ExitStatus.fails.rawValue }
            switch output.format {
            case .json: Output.print(try answer.jsonLine())
            case .text: Output.print(Text.render(answer, asked: formats.count))
            }
            count += 1
            if count % 1024 == 0 { try Output.flush() }
        }
        let arguments = ids.isEmpty ? ["-"] : ids
        var bytesRead = 0
        do {
            for id in arguments {
                if id == "-" {
                    bytesRead += try Lines.read(from: 0, limit: IDFormat.maxInspectedBytes) { line, bytes in
                        try inspect(String(decoding: line, as: UTF8.self), bytes: bytes, raw: line)
                    }
                } else {
                    try inspect(id)
                }
            }
            try Output.flush()
        } catch let error as WriteError where error.isClosedPipe {
            Output.buffer = ""
            return
        }
        if count == 0 {
            let why = bytesRead == 0 ? "standard input was empty" : "standard input held only blank lines"
            Output.diagnostic("idbudget: inspect: no id given (\(why))")
            Output.status = ExitStatus.fails.rawValue
        }
    }
}

/// Lines from a file descriptor, read in blocks, as their bytes: a line over `limit` bytes is passed on
/// cut to `limit + 1` bytes, with its real size, and the rest of it skipped, never held. Returns the
/// number of bytes read (so that a caller can tell an empty input from one of blank lines).
enum Lines {
    @discardableResult
    static func read(from fd: Int32, limit: Int, _ body: ([UInt8], Int) throws -> Void) throws -> Int {
        var total = 0
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var line: [UInt8] = []
        var size = 0
        func emit() throws {
            if line.last == UInt8(ascii: "\r") && size == line.count {
                line.removeLast()
                size -= 1
            }
            if size > 0 { try body(line, size) }
            line.removeAll(keepingCapacity: true)
            size = 0
        }
        while true {
            let n = block.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(status: .ioError, argument: "standard input", message: "cannot read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            total += n
            for byte in block[0..<n] {
                if byte == UInt8(ascii: "\n") {
                    try emit()
                } else {
                    size += 1
                    if line.count <= limit { line.append(byte) }
                }
            }
        }
        try emit()
        return total
    }
}
