import ArgumentParser
import Foundation
import IDBudget
import Precise

struct CapacityCommand: ParsableCommand {
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

    @OptionGroup var output: FormatOptions

    func validate() throws {
        _ = try space.resolve()
        _ = try parseBudget(maxProbability)
        if let rate { _ = try parseRate(rate) }
        if let scopes { _ = try parseInteger(scopes, argument: "--scopes", example: "100000000") }
    }

    func run() throws {
        let scheme = try space.resolveScheme()
        let scopes = try scopes.map { try parseInteger($0, argument: "--scopes", example: "100000000") } ?? BigInt(1)
        let space = try space.resolve()
        let budget = try parseBudget(maxProbability)
        let rate = try rate.map(parseRate)
        let answer: CapacityAnswer
        do { answer = try Planner.capacity(space: space, budget: budget, scopes: scopes, rate: rate, scheme: scheme) } catch let error
            as InputError
        {
            throw UsageError(argument: "--max-probability", message: error.message)
        }
        try Text.emit(answer, output.format, text: Text.render)
    }
}
