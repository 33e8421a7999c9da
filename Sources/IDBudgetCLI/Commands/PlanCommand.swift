import ArgumentParser
import IDBudget
import IDQuestions
import IDTokens
import Precise

struct PlanCommand: ParsableCommand, LayerCommand {
    static let question = Question.Command.plan

    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "The minimum length in every named alphabet for a volume and a budget.",
        discussion: """
            Each row: the shortest length that keeps p within budget, its bytes and bits, the p it \
            achieves, and whether it fits --max-bytes (default 64, an apns-collapse-id). Then each random \
            format idbudget mints, with its own collision model (per id, per millisecond, per second): its \
            bits, the bits the budget needs, and whether it is within budget. Exit status 1 when \
            --max-bytes is given and no alphabet fits it.
            Example:
              idbudget plan --rate 1e6/s --lifetime 10y --max-probability 1e-11
              idbudget plan --count 1e9 --max-probability 1e-12 --max-bytes 16 || echo "none fits"
            """
    )

    @OptionGroup var volume: VolumeOptions

    @Option(
        name: .customLong("max-probability"), help: ArgumentHelp("The collision budget, strictly between 0 and 1: 1e-11.", valueName: "p"))
    var maxProbability: String

    @Option(
        name: .customLong("max-bytes"),
        help: ArgumentHelp(
            "The byte limit each row is checked against (default 64, an apns-collapse-id); exit status 1 when no alphabet fits it.",
            valueName: "bytes"))
    var maxBytes: String?

    @OptionGroup var output: FormatOptions

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] { volume.named + [("max-probability", maxProbability), ("max-bytes", maxBytes)] }

    func run() throws {
        guard let answer = try ask(Self.question, named) as? PlanAnswer else { return }
        try Text.emit(answer, output.format, text: Text.render)
        if maxBytes != nil && !answer.rows.contains(where: \.fitsMaxBytes) { Output.status = ExitStatus.fails.rawValue }
    }
}
