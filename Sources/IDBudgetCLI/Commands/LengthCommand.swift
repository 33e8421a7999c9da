import ArgumentParser
import Foundation
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
            With --rate and --lifetime (or --until), the answer adds a length-upgrade schedule when a shorter
            length would serve for a day or more: each length until the id that takes it over budget.
              idbudget length --alphabet base62 --rate 1e4/s --growth 2x/y --until 2036-01-01 --max-probability 1e-9
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

    @Option(
        help: ArgumentHelp(
            "With --rate: the day the lifetime ends, YYYY-MM-DD (at 00:00 UTC); it runs from --from to then.",
            valueName: "date"))
    var until: String?

    @Option(
        help: ArgumentHelp(
            "With --rate: the day minting starts, YYYY-MM-DD (UTC), for the schedule's dates; default today.", valueName: "date"))
    var from: String?

    @OptionGroup var output: FormatOptions

    /// The start, and the volume with `--until` turned into a lifetime.
    func resolved() throws -> (volume: Volume, from: Date) {
        var from = Planner.today
        if let text = self.from {
            if volume.rate == nil { throw UsageError(argument: "--from", message: "a start date needs a rate; add e.g. --rate 1e6/s") }
            do { from = try Planner.startDate(parsing: text) } catch { throw UsageError(argument: "--from", message: error.message) }
        }
        var options = volume
        if let text = until {
            guard options.rate != nil else {
                throw UsageError(argument: "--until", message: "an end date needs a rate; add e.g. --rate 1e6/s")
            }
            guard options.lifetime == nil else {
                throw UsageError(argument: "--until", message: "give --until or --lifetime, not both")
            }
            let end: Date
            do { end = try Planner.startDate(parsing: text) } catch { throw UsageError(argument: "--until", message: error.message) }
            let seconds = Int(end.timeIntervalSince(from).rounded())
            guard seconds > 0 else {
                throw UsageError(argument: "--until", message: "'\(text)' is not after the start day (--from, or today); give a later day")
            }
            options.lifetime = "\(seconds)s"
        }
        return (try options.resolve(), from)
    }

    func validate() throws {
        let alphabet = try symbols.resolve()
        _ = try resolved()
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
        let (volume, from) = try resolved()
        let budget = try parseBudget(maxProbability)
        let limit = try parseMaxBytes(maxBytes)
        let answer: LengthAnswer
        do {
            switch try symbols.resolve() {
            case .alphabet(let a): answer = try Planner.length(alphabet: a, volume: volume, budget: budget, maxBytes: limit, from: from)
            case .size(let n): answer = try Planner.length(alphabetSize: n, volume: volume, budget: budget, maxBytes: limit, from: from)
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
