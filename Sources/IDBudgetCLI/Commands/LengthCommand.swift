import ArgumentParser
import Foundation
import IDBudget
import IDQuestions
import Precise

struct LengthCommand: ParsableCommand, LayerCommand {
    static let question = Question.Command.length

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

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] {
        symbols.named + [("scheme", scheme)] + volume.named + arrivals.named + nodeIDs.named
            + [("max-probability", maxProbability), ("max-bytes", maxBytes), ("until", until), ("from", from)]
    }

    func run() throws {
        switch try ask(Self.question, named) {
        case let answer as LengthAnswer:
            try Text.emit(answer, output.format, text: Text.render)
            if answer.fitsMaxBytes == false { Output.status = ExitStatus.fails.rawValue }
        case let answer as FormatLengthAnswer:
            // --scheme: the format's fit; exit status 1 when it is over budget or over --max-bytes.
            try Text.emit(answer, output.format, text: Text.render)
            if !answer.format.withinBudget || answer.format.fitsMaxBytes == false { Output.status = ExitStatus.fails.rawValue }
        default:
            break
        }
    }
}
