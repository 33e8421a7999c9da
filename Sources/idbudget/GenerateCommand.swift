import ArgumentParser
import Foundation
import IDTokens

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Stream random tokens to stdout, one per line (ChaCha20 CSPRNG seeded by the kernel).",
        discussion: "Example: idbudget generate --alphabet base62 --length 22 --count 1000000 > ids.txt"
    )

    @Option(help: "A named alphabet: \(Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")).")
    var alphabet: String?

    @Option(help: "Custom single-byte symbols, e.g. 'ACGT'.")
    var symbols: String?

    @Option(help: "Symbols per token.")
    var length: String = "22"

    @Option(help: "How many tokens.")
    var count: String = "1"

    @Option(help: "NOT SECURE: a 64-bit seed for reproducible output (tests and demos only).")
    var seed: String?

    func validate() throws { _ = try settings() }

    private func settings() throws -> (alphabet: Alphabet, length: Int, count: Int, seed: UInt64?) {
        let chosen = try resolveSymbols(alphabet: alphabet ?? (symbols == nil ? "base62" : nil), symbols: symbols, alphabetSize: nil)
        guard case .alphabet(let a) = chosen else { throw UsageError(argument: "--alphabet", message: "give --alphabet or --symbols") }
        guard a.isSingleByte else {
            throw UsageError(argument: "--symbols", message: "the generator needs single-byte (ASCII) symbols; e.g. --symbols ACGT")
        }
        let length = try parseLength(length)
        guard length <= 1 << 20 else { throw UsageError(argument: "--length", message: "'\(length)' is absurdly long; give at most 1048576") }
        let n = try parseInteger(count, argument: "--count", example: "1000000")
        guard let count = n.intValue else { throw UsageError(argument: "--count", message: "'\(count)' is absurdly many; give at most \(Int.max)") }
        var seed: UInt64?
        if let text = self.seed {
            seed = try UInt64(text).orUsage("--seed", "'\(text)' is not a whole number from 0 to \(UInt64.max); e.g. --seed 42")
        }
        return (a, length, count, seed)
    }

    func run() throws {
        let (alphabet, length, count, seed) = try settings()
        if let seed {
            Output.diagnostic("idbudget: warning: --seed \(seed) makes the output predictable; NOT SECURE, do not use these tokens as identifiers")
            try stream(TokenGenerator(alphabet: alphabet, length: length, source: SeededRandom(seed: seed)), count: count)
        } else {
            try stream(TokenGenerator(alphabet: alphabet, length: length), count: count)
        }
    }

    /// Fills a large buffer at a time and writes it whole; a closed pipe (`| head`) ends quietly, any
    /// other write error with exit status 74.
    private func stream<S>(_ generator: TokenGenerator<S>, count: Int) throws {
        signal(SIGPIPE, SIG_IGN)
        let stride = generator.length + 1
        let capacity = Swift.max(stride, (1 << 16) / stride * stride)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
        defer { buffer.deallocate() }
        var remaining = count
        while remaining > 0 {
            let tokens = Swift.min(remaining, capacity / stride)
            let written = generator.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[..<(tokens * stride)]))
            remaining -= written
            do {
                try Output.write(UnsafeRawBufferPointer(rebasing: buffer[..<(written * stride)]))
            } catch let error as WriteError where error.isClosedPipe {
                return  // `| head`: the reader has what it wanted
            }
            // The tokens are out; keep no copy of them in this process.
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }
    }
}

