import ArgumentParser
import IDBudget
import IDTokens
import Precise

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "The minimum length in every named alphabet for a volume and a budget.",
        discussion: """
            Each row: the shortest length that keeps p within budget, its bytes and bits, the p it \
            achieves, and whether it fits an apns-collapse-id (at most 64 bytes).
            Example:
              idbudget plan --rate 1e6/s --lifetime 10y --max-probability 1e-11
            """
    )

    static let apnsCollapseIDBytes = 64

    @OptionGroup var volume: VolumeOptions

    @Option(name: .customLong("max-probability"), help: ArgumentHelp("The collision budget, strictly between 0 and 1: 1e-11.", valueName: "p"))
    var maxProbability: String

    @OptionGroup var output: FormatOptions

    func validate() throws {
        _ = try volume.resolve()
        _ = try parseBudget(maxProbability)
    }

    func run() throws {
        let volume = try volume.resolve(), budget = try parseBudget(maxProbability)
        let answer: PlanAnswer
        do { answer = try Planner.plan(volume: volume, budget: budget, maxBytes: Self.apnsCollapseIDBytes) } catch let error as InputError {
            throw UsageError(argument: "--max-probability", message: error.message)
        }
        try Text.emit(answer, output.format, text: Text.render)
    }
}
