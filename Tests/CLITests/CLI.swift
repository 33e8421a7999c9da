import Foundation
import TestSupport
import Testing

/// Runs the built `idbudget` executable.
enum CLI {
    static let executable: URL = {
        // SwiftPM puts test bundles and executables side by side in the build products folder.
        var dir = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = dir.appendingPathComponent("idbudget")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        for b in Bundle.allBundles {
            let candidate = b.bundleURL.deletingLastPathComponent().appendingPathComponent("idbudget")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        fatalError("idbudget executable not found near \(Bundle.main.bundleURL.path)")
    }()

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        let seconds: Double
    }

    /// Runs with `environment` added to this process's, and stdout to `output` (a pipe when nil), in
    /// `directory` (this process's when nil).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], output: FileHandle? = nil, input: FileHandle? = nil,
        directory: URL? = nil
    ) throws
        -> Result
    {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        if let input { process.standardInput = input }
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = output ?? out
        process.standardError = err
        let start = Date()
        try process.run()
        // Read before waiting so a large output cannot fill the pipe and stall the child.
        if output != nil { try out.fileHandleForWriting.close() }
        let outData = output == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self),
            seconds: Date().timeIntervalSince(start))
    }

    /// Bad usage as the CLI promises it: exit 64, nothing on stdout, one line on stderr naming `argument`.
    @discardableResult
    static func expectUsageError(
        _ arguments: [String], naming argument: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Result {
        let r = try run(arguments)
        #expect(r.status == 64, "\(arguments): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(argument), "\(r.stderr)", sourceLocation: sourceLocation)
        return r
    }

    static func json(_ arguments: [String]) throws -> [String: Any] {
        let r = try run(arguments + ["--format", "json"])
        // 1: the answer fails its check (it is printed all the same).
        guard r.status == 0 || r.status == 1 else { throw CLIFailure(message: r.stderr) }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    }

    struct CLIFailure: Error { let message: String }

    /// Runs an oracle from Tests/Oracles with python3, `input` on its stdin; its exit status and output.
    static func python(_ script: String, _ arguments: [String] = [], input: String = "") throws -> (status: Int32, output: String) {
        try Oracle.run(script, arguments, input: input)
    }

    /// The value at a dotted path, e.g. `collision.probability`.
    static func at(_ json: [String: Any], _ path: String) -> Any? {
        var node: Any? = json
        for key in path.split(separator: ".") { node = (node as? [String: Any])?[String(key)] }
        return node
    }

    /// The mpmath reference values (shared with the library tests).
    nonisolated(unsafe) static let reference: [String: Any] = {
        let url = Repository.file("Tests/IDBudgetTests/Reference/reference.json")
        return try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }()

    static func referenceProbability(_ label: String) -> [String: String] {
        let rows = reference["probability"] as! [[String: String]]
        return rows.first { $0["label"] == label }!
    }
}
