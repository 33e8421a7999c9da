import Foundation
import TestSupport
import Testing

/// README is the front door, and what it shows must be what users get: every shown `$ idbudget …`
/// session in README.md and docs/ (cli, math, formats, audit, generator) is run, and each line it shows (all but `…`) must come out,
/// in order (a `console` block shows a session whose output varies — a local file, the clock — and is
/// not run). README also stays within its 200 lines.
@Suite struct ReadmeExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let file: String
        let command: String
        let shown: [String]
        var testDescription: String { "\(file): \(command.prefix(70))" }
    }

    static func examples(in file: String) -> [Example] {
        guard let text = try? String(contentsOf: Repository.file(file), encoding: .utf8) else { return [] }
        var out: [Example] = []
        var block: [String]? = nil
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if fenced, let lines = block, let first = lines.first, first.hasPrefix("$ idbudget") {
                    out.append(Example(file: file, command: String(first.dropFirst(2)), shown: Array(lines.dropFirst())))
                }
                // Plain and `text` blocks show sessions; `sh`, `swift` and the rest do not.
                block = !fenced && (line == "```" || line == "```text") ? [] : nil
                fenced.toggle()
                continue
            }
            block?.append(line)
        }
        return out
    }

    static let all = ["README.md", "docs/cli.md", "docs/math.md", "docs/formats.md", "docs/audit.md", "docs/generator.md"].flatMap(examples)

    @Test func thereAreExamples() {
        #expect(Self.examples(in: "README.md").count >= 5)
    }

    @Test(arguments: all)
    func shownLinesComeOut(example: Example) throws {
        // A session may hold several commands: run each `$ ` line, and match what follows it.
        var sessions: [(String, [String])] = [(example.command, [])]
        for line in example.shown {
            if line.hasPrefix("$ ") {
                sessions.append((String(line.dropFirst(2)), []))
            } else {
                sessions[sessions.count - 1].1.append(line)
            }
        }
        for (command, shown) in sessions {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", command]
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = CLI.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            var lines = text.components(separatedBy: "\n").map(Self.spacing)[...]
            for want in shown where want != "…" && !want.isEmpty {
                let trimmed = Self.spacing(want)
                guard let at = lines.firstIndex(of: trimmed) else {
                    Issue.record("\(example.file): `\(command)` does not print, in order: \(trimmed)")
                    break
                }
                lines = lines[(at + 1)...]
            }
        }
    }

    /// Columns line up by the longest label of each answer: compare words, not the spaces between.
    static func spacing(_ line: String) -> String {
        line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func readmeIsAFrontDoor() throws {
        let text = try String(contentsOf: Repository.file("README.md"), encoding: .utf8)
        #expect(text.components(separatedBy: "\n").dropLast().count <= 200)
    }
}
