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

    @Option(name: .customLong("max-probability"), help: "The collision budget, strictly between 0 and 1: 1e-11.")
    var maxProbability: String

    @Option(help: "Identifiers per unit of time, to say how long the capacity lasts: 1e6/s.")
    var rate: String?

    @Option(help: "Independent scopes (devices, tenants) that each hold the capacity; the budget is for all of them.")
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
        let space = try space.resolve()
        let budget = try parseBudget(maxProbability)
        let scopes = try scopes.map { try parseInteger($0, argument: "--scopes", example: "100000000") } ?? BigInt(1)
        let capacity = try Birthday.capacity(space: space.size, scopes: scopes, budget: budget)

        var report = Report()
        Render.spaceFields(&report, space)
        report.add("budget", "budget", .string(budget.text), text: "p ≤ \(budget.text)")
        if scopes > BigInt(1) { report.add("scopes", "scopes", .string(scopes.description)) }
        report.add("capacity", scopes > BigInt(1) ? "capacity per scope" : "capacity", .string(capacity.description), text: Render.abbreviated(capacity))
        try Render.probabilityFields(&report, space: space, count: capacity, scopes: scopes)
        // The proof of maximality: one more identifier breaks the budget.
        let (next, _) = try Birthday.probability(space: space.size, count: capacity + BigInt(1), scopes: scopes)
        report.add("next_probability", "with one more", .string(next.description), text: "\(next)  (over budget)")
        if let rateText = rate {
            let rate = try parseRate(rateText)
            let (num, den) = rate.seconds(toReach: capacity)
            let seconds = ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: Birthday.significantDigits)
            report.add("rate", "rate", .string(rate.text), text: rate.text)
            report.add("seconds", "lasts (seconds)", .string(seconds.description), text: seconds.short(6))
            report.add("duration", "lasts", .string(Render.duration(seconds: seconds.doubleValue)),
                       text: Render.duration(seconds: seconds.doubleValue))
        }
        if let scheme, let bucket = scheme.bucket {
            report.notes.append("\(scheme.name) ids collide only within one \(bucket.rawValue): this is the capacity of a single \(bucket.rawValue) (--scopes N for N of them); for a rate over a lifetime use `idbudget probability --scheme \(scheme.name) --rate R --lifetime T`.")
        }
        Output.print(report.render(output.format))
    }
}
