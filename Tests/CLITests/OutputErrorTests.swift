import Foundation
import Testing

/// A write error is one line on stderr and exit status 74 (EX_IOERR), for every subcommand: a full
/// disk (/dev/full), and a closed pipe when SIGPIPE is ignored (as under many supervisors).
@Suite struct OutputErrorTests {
    static let commands: [[String]] = [
        ["schemes"],
        ["probability", "--alphabet", "base62", "--length", "22", "--rate", "1e6/s", "--lifetime", "10y"],
        ["length", "--alphabet", "base62", "--count", "1e9", "--max-probability", "1e-9"],
        ["capacity", "--bits", "122", "--max-probability", "1e-9"],
        ["plan", "--count", "1e9", "--max-probability", "1e-9"],
        ["generate", "--count", "100000"],
        ["schemes", "--format", "json"],
        ["--help"],
    ]

    @Test(arguments: commands)
    func fullDiskIsExit74(arguments: [String]) throws {
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let r = try CLI.run(arguments, output: full)
        #expect(r.status == 74, "\(arguments): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("No space left"), "\(r.stderr)")
    }

    @Test func auditToAFullDiskIsExit74() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-full-disk-\(UUID().uuidString).txt")
        try Data("a1\nb2\nc3\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["audit", file.path], output: try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full")))
        #expect(r.status == 74)
    }

    /// With SIGPIPE ignored, writing to a closed pipe fails with EPIPE: one line, exit 74. (`generate`
    /// alone ends quietly with 0 there, as `| head` users expect.)
    @Test func closedPipeWithSigpipeIgnored() throws {
        let script =
            "trap '' PIPE; \"$0\" schemes | true; echo \"s=${PIPESTATUS[0]}\"; \"$0\" generate --count 1e9 | head -c 1 > /dev/null; echo \"g=${PIPESTATUS[0]}\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, CLI.executable.path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("s=74") && text.contains("g=0"), "\(text)")
        #expect(errors.split(separator: "\n").count == 1 && errors.contains("Broken pipe"), "\(errors)")
    }
}

/// The generator at the shell: alphabets the SIMD kernels used to get wrong, control characters, and
/// a seed that gives the same tokens with the SIMD kernels switched off.
@Suite struct GenerateSurfaceTests {
    @Test(arguments: ["abcde", "0123456789a", "0123456789abcde", "0123456789abcdef", "ACGT"])
    func everyByteIsInTheAlphabet(symbols: String) throws {
        let r = try CLI.run(["generate", "--symbols", symbols, "--length", "50", "--count", "4000"])
        #expect(r.status == 0)
        let allowed = Set(symbols.utf8).union([10])
        #expect(r.stdout.utf8.allSatisfy(allowed.contains))
        #expect(r.stdout.split(separator: "\n").count == 4000)
    }

    @Test(arguments: ["ab\ncd", "ab\rcd", "abc\u{1b}", "ab\tc"])
    func controlCharactersAreRefused(symbols: String) throws {
        let r = try CLI.run(["generate", "--symbols", symbols, "--count", "3"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("--symbols"))
        #expect(!r.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "raw control bytes echoed")
    }

    @Test(arguments: ["base62", "base64url", "hex", "base36", "base58"])
    func seedGivesTheSameTokensWithoutSIMD(alphabet: String) throws {
        let args = ["generate", "--alphabet", alphabet, "--count", "2000", "--seed", "11"]
        let simd = try CLI.run(args)
        let scalar = try CLI.run(args, environment: ["IDTOKENS_NO_SIMD": "1"])
        #expect(simd.status == 0 && scalar.status == 0)
        #expect(simd.stdout == scalar.stdout)
    }

    /// Every kernel IDTOKENS_SAMPLER can force (one the CPU lacks falls back to the best) gives the
    /// same seeded tokens as the scalar path, hex (the 16-symbol kernel) included.
    @Test(arguments: ["base62", "base64url", "hex"], ["avx512", "avx2", "ssse3", "scalar"])
    func seedGivesTheSameTokensOnEveryForcedKernel(alphabet: String, kernel: String) throws {
        let args = ["generate", "--alphabet", alphabet, "--count", "3000", "--seed", "12"]
        let forced = try CLI.run(args, environment: ["IDTOKENS_SAMPLER": kernel])
        let scalar = try CLI.run(args, environment: ["IDTOKENS_NO_SIMD": "1"])
        #expect(forced.status == 0 && scalar.status == 0)
        #expect(forced.stdout == scalar.stdout)
    }
}
