import ArgumentParser
import IDBudget
import Precise

struct LengthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "length",
        abstract: "The shortest identifier that keeps the collision probability within budget.",
        discussion: """
            Exit status 1 when --max-bytes is given and the minimum length does not fit it.
            Example:
              idbudget length --alphabet base62 --count 3.1536e14 --max-probability 1e-11
              idbudget length --alphabet hex --count 1e9 --max-probability 1e-12 --max-bytes 16 || echo "too long"
            """
    )

    @OptionGroup var symbols: AlphabetOptions
    @OptionGroup var volume: VolumeOptions

    @Option(
        name: .customLong("max-probability"), help: ArgumentHelp("The collision budget, strictly between 0 and 1: 1e-11.", valueName: "p"))
    var maxProbability: String

    @Option(
        name: .customLong("max-bytes"), help: ArgumentHelp("A byte limit to check, e.g. 64 for an apns-collapse-id.", valueName: "bytes"))
    var maxBytes: String?

    @OptionGroup var output: FormatOptions

    func validate() throws {
        let alphabet = try symbols.resolve()
        _ = try volume.resolve()
        _ = try parseBudget(maxProbability)
        if try parseMaxBytes(maxBytes) != nil, case .size(let n) = alphabet, n > Planner.printableASCIICount {
            throw UsageError(
                argument: "--max-bytes",
                message:
                    "the bytes of \(n) symbols are unknown (printable ASCII holds \(Planner.printableASCIICount)); give --symbols to check a byte limit"
            )
        }
    }

    func run() throws {
        let volume = try volume.resolve()
        let budget = try parseBudget(maxProbability)
        let limit = try parseMaxBytes(maxBytes)
        let answer: LengthAnswer
        do {
            switch try symbols.resolve() {
            case .alphabet(let a): answer = try Planner.length(alphabet: a, volume: volume, budget: budget, maxBytes: limit)
            case .size(let n): answer = try Planner.length(alphabetSize: n, volume: volume, budget: budget, maxBytes: limit)
            }
        } catch let error as InputError {
            throw UsageError(argument: "--max-probability", message: error.message)
        }
        try Text.emit(answer, output.format, text: Text.render)
        if answer.fitsMaxBytes == false { Output.status = ExitStatus.fails.rawValue }
    }
}

func parseMaxBytes(_ text: String?) throws -> Int? {
    guard let text else { return nil }
    guard let n = wholeNumber(text), n >= 1 else {
        throw UsageError(argument: "--max-bytes", message: "'\(text)' is not a whole number of bytes ≥ 1; e.g. --max-bytes 64")
    }
    return n
}
