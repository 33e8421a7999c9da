import ArgumentParser
import Foundation
import IDBudget
import IDQuestions
import Precise

struct CapacityCommand: ParsableCommand, LayerCommand {
    static let question = Question.Command.capacity

    static let configuration = CommandConfiguration(
        commandName: "capacity",
        abstract: "The most identifiers a space holds within a collision budget, and how long that lasts.",
        discussion: "Example:\n  idbudget capacity --bits 122 --max-probability 1e-18 --rate 1e6/s"
    )

    @OptionGroup var space: SpaceOptions

    @Option(
        name: .customLong("max-probability"), help: ArgumentHelp("The collision budget, strictly between 0 and 1: 1e-11.", valueName: "p"))
    var maxProbability: String

    @Option(help: ArgumentHelp("Identifiers per unit of time, to say how long the capacity lasts: 1e6/s.", valueName: "rate"))
    var rate: String?

    @Option(
        help: ArgumentHelp(
            "Independent scopes (devices, tenants) that each hold the capacity; the budget is for all of them.", valueName: "n"))
    var scopes: String?

    @Option(
        help: ArgumentHelp(
            "The rate grows, compounding continuously: 40%/y, 3%/mo, or 2x/y (doubling a year). Needs --rate.", valueName: "growth"))
    var growth: String?

    @Option(help: ArgumentHelp("Ids already stored (in each scope): capacity is then how many more fit the budget.", valueName: "n"))
    var existing: String?

    @OptionGroup var arrivals: ArrivalsOptions

    @Option(
        help: ArgumentHelp(
            "With --rate: the day minting starts, YYYY-MM-DD (UTC), for the date the budget breaks; default today.", valueName: "date"))
    var from: String?

    @OptionGroup var output: FormatOptions

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] {
        space.named + arrivals.named
            + [
                ("max-probability", maxProbability), ("rate", rate), ("scopes", scopes), ("growth", growth), ("existing", existing),
                ("from", from),
            ]
    }

    func run() throws {
        guard let answer = try ask(Self.question, named) as? CapacityAnswer else { return }
        try Text.emit(answer, output.format, text: Text.render)
    }
}
