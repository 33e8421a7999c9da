import ArgumentParser
import IDBudget
import IDQuestions

struct ProbabilityCommand: ParsableCommand, LayerCommand {
    static let question = Question.Command.probability

    static let configuration = CommandConfiguration(
        commandName: "probability",
        abstract: "The exact chance that some two of N identifiers collide.",
        discussion: """
            Examples:
              idbudget probability --alphabet base62 --length 22 --rate 1e6/s --lifetime 10y
              idbudget probability --scheme snowflake --nodes 50 --rate 1000/s
            For a node-id scheme (\(Scheme.all.filter { $0.node != nil }.map(\.name).joined(separator: ", "))), p is
            that two of --nodes live nodes share a node value; --rate is per node, checked against its ceiling.
            """
    )

    @OptionGroup var space: SpaceOptions
    @OptionGroup var volume: VolumeOptions
    @OptionGroup var peak: PeakRateOptions
    @OptionGroup var arrivals: ArrivalsOptions
    @OptionGroup var nodeIDs: NodeIDsOptions

    @OptionGroup var output: FormatOptions

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] {
        space.named + volume.named + peak.named + arrivals.named + nodeIDs.named
    }

    func run() throws {
        guard let answer = try ask(Self.question, named) as? ProbabilityAnswer else { return }
        try Text.emit(answer, output.format, text: Text.render)
    }
}
