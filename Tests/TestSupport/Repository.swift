import Foundation

/// Files of this repository, found from this source file's place in it (Tests/TestSupport/).
public enum Repository {
    /// The repository's root folder.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The file at `path`, relative to the root.
    public static func file(_ path: String) -> URL { root.appendingPathComponent(path) }
}

/// The independent references in Tests/Oracles (Python: mpmath, exact fractions, peers' decoders).
public enum Oracle {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `Tests/Oracles/<script>` (or a path from the root, when it has a `/`) with python3 and `input` on its stdin: its exit status and its
    /// output (stdout, then stderr when `mergeErrors`).
    public static func run(_ script: String, _ arguments: [String] = [], input: String = "", mergeErrors: Bool = true)
        throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.file(script.contains("/") ? script : "Tests/Oracles/\(script)").path] + arguments
        let stdin = Pipe()
        let output = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        if mergeErrors { process.standardError = output }
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

/// A fixed pseudo-random stream (SplitMix64): tests of honest streams that cannot flake.
public struct SplitMix: Sendable {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `n` symbols drawn from `symbols` (with the modulo's tiny bias: fine for a fixed stream).
    public mutating func token(_ symbols: [Character], _ n: Int) -> String {
        String((0..<n).map { _ in symbols[Int(next() % UInt64(symbols.count))] })
    }
}

extension Oracle {
    /// Runs `python3 -c code` in the repository's root (Tests/Oracles importable): its stdout, trimmed.
    public static func python(_ code: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import sys; sys.path.insert(0, 'Tests/Oracles')\n" + code]
        process.currentDirectoryURL = Repository.root
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Decimal text as the references write it (mpmath's 40 digits) against idbudget's shorter prints.
public enum DecimalText {
    /// `text` rounded half-up to `n` significant digits: the digits and the power of ten of the first.
    public static func rounded(_ text: String, to n: Int) -> (String, Int) {
        let parts = text.lowercased().split(separator: "e")
        var exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let mantissa = String(parts[0])
        let point = mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count
        var digits = mantissa.replacingOccurrences(of: ".", with: "").map { Int(String($0)) ?? 0 }
        exponent += point - 1
        while digits.first == 0 && digits.count > 1 {
            digits.removeFirst()
            exponent -= 1
        }
        var head = Array(digits.prefix(n))
        if digits.count > n && digits[n] >= 5 {
            var i = n - 1
            while i >= 0 {
                head[i] += 1
                if head[i] < 10 { break }
                head[i] = 0
                i -= 1
            }
            if i < 0 {
                head.insert(1, at: 0)
                head.removeLast()
                exponent += 1
            }
        }
        return (head.map(String.init).joined(), exponent)
    }
}
