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
            With --scheme, a format's length is fixed: the answer is whether it is within budget, the fewest
            random bits (node bits, for a node-id format with --nodes) that would be, and exit status 1 when
            it is not.
              idbudget length --scheme uuid7 --rate 1e6/s --lifetime 10y --max-probability 1e-11
              idbudget length --scheme snowflake --nodes 50 --max-probability 1e-6
            """
    )

    @OptionGroup var symbols: AlphabetOptions

    @Option(
        help: ArgumentHelp(
            "A known format instead of an alphabet (see `idbudget schemes`): is it within budget?", valueName: "name"),
        completion: .list(Scheme.all.map(\.name)))
    var scheme: String?

    @OptionGroup var volume: VolumeOptions
    @OptionGroup var arrivals: ArrivalsOptions
    @OptionGroup var nodeIDs: NodeIDsOptions

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

    /// The named scheme, if one was given (and no alphabet with it).
    func resolveScheme() throws -> Scheme? {
        guard let scheme else { return nil }
        if symbols.given {
            throw UsageError(
                argument: "--scheme", message: "give --scheme or an alphabet (--alphabet, --symbols, --alphabet-size), not both")
        }
        return try Scheme.named(scheme).orUsage(
            "--scheme", "unknown scheme '\(scheme.prefix(40))'; use one of \(Scheme.all.map(\.name).joined(separator: ", "))")
    }

    /// The start, and the volume with `--until` turned into a lifetime.
    func resolved(scheme: Scheme? = nil) throws -> (volume: Volume, from: Date) {
        let dates = DatesText(until: until, from: from)
        let (text, start) = try usage { () throws(ArgumentError) in try dates.resolve(volume.text) }
        return (try VolumeOptions.resolve(text, scheme: scheme, arrivals: arrivals.arrivals), start)
    }

    /// `--until` as the node question's lifetime is not used either.
    func nodeQuestion(_ scheme: Scheme) throws -> (nodes: BigInt, rate: Rate?, ignored: [String]) {
        let refused = [("--arrivals", arrivals.arrivals)]
        var q = try nodeIDs.question(scheme, volume: volume, refused: refused)
        try usage { () throws(ArgumentError) in try DatesText(until: until, from: from).read() }
        q.ignored += [("--until", until), ("--from", from)].filter { $0.1 != nil }.map(\.0)
        return q
    }

    func validate() throws {
        _ = try parseBudget(maxProbability)
        if let scheme = try resolveScheme() {
            _ = try parseMaxBytes(maxBytes)
            if scheme.node != nil {
                _ = try nodeQuestion(scheme)
            } else {
                try nodeIDs.refuse()
                _ = try resolved(scheme: scheme)
            }
            return
        }
        try nodeIDs.refuse()
        let alphabet = try symbols.resolve()
        _ = try resolved()
        if try parseMaxBytes(maxBytes) != nil, case .size(let n) = alphabet, n > Planner.printableASCIICount {
            throw UsageError(
                argument: "--max-bytes",
                message:
                    "the bytes of \(n) symbols are unknown (printable ASCII holds \(Planner.printableASCIICount)); give --symbols to check a byte limit"
            )
        }
    }

    func run() throws {
        let budget = try parseBudget(maxProbability)
        let limit = try parseMaxBytes(maxBytes)
        if let scheme = try resolveScheme() { return try run(scheme: scheme, budget: budget, limit: limit) }
        let (volume, from) = try resolved()
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

    /// `--scheme`: the format's fit; exit status 1 when it is over budget or over `--max-bytes`.
    func run(scheme: Scheme, budget: Budget, limit: Int?) throws {
        var answer: FormatLengthAnswer
        if scheme.node != nil {
            let (nodes, rate, ignored) = try nodeQuestion(scheme)
            do {
                answer = try Planner.length(
                    scheme: scheme, nodes: nodes, assigned: try nodeIDs.assigned(), ratePerNode: rate, budget: budget, maxBytes: limit)
            } catch let error as InputError {
                throw UsageError(argument: "--nodes", message: error.message)
            }
            if !ignored.isEmpty {
                answer.notes.append("\(ignored.joined(separator: ", ")): not used; for a node-id format p depends on the nodes alone.")
            }
        } else {
            let (volume, _) = try resolved(scheme: scheme)
            do { answer = try Planner.length(scheme: scheme, volume: volume, budget: budget, maxBytes: limit) } catch let error
                as InputError
            {
                // A growth too steep to evaluate is the growth's to change.
                throw UsageError(argument: volume.growth != nil ? "--growth" : "--max-probability", message: error.message)
            }
        }
        try Text.emit(answer, output.format, text: Text.render)
        if !answer.format.withinBudget || answer.format.fitsMaxBytes == false { Output.status = ExitStatus.fails.rawValue }
    }
}

func parseMaxBytes(_ text: String?) throws -> Int? {
    guard let text else { return nil }
    guard let n = wholeNumber(text), n >= 1 else {
        throw UsageError(argument: "--max-bytes", message: "'\(text)' is not a whole number of bytes ≥ 1; e.g. --max-bytes 64")
    }
    return n
}
