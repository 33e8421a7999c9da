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

    func validate() throws {
        _ = try space.resolve()
        _ = try parseBudget(maxProbability)
        if let rate { _ = try parseRate(rate) }
        if let scopes { _ = try parseInteger(scopes, argument: "--scopes", example: "100000000") }
        if let growth {
            _ = try parseGrowth(growth)
            if rate == nil { throw UsageError(argument: "--growth", message: "a growth needs a rate; add e.g. --rate 1e6/s") }
        }
        if let from {
            if rate == nil { throw UsageError(argument: "--from", message: "a start date needs a rate; add e.g. --rate 1e6/s") }
            do { _ = try Planner.startDate(parsing: from) } catch { throw UsageError(argument: "--from", message: error.message) }
        }
        if let existing { _ = try parseInteger(existing, argument: "--existing", example: "1000000", allowingZero: true) }
        if let a = arrivals.arrivals {
            _ = try parseArrivals(a)
            guard try space.resolveScheme()?.bucket != nil, rate != nil else {
                throw UsageError(
                    argument: "--arrivals",
                    message: "arrivals matter only for time-bucketed schemes (uuid7, ulid, ksuid, typeid) with --rate")
            }
        }
        if existing != nil, let scheme = try space.resolveScheme(), let bucket = scheme.bucket {
            throw UsageError(
                argument: "--existing",
                message:
                    "\(scheme.name) ids collide only within one \(bucket.rawValue), so ids stored earlier cannot collide with new ones; leave --existing out"
            )
        }
        if growth != nil, arrivals.arrivals == "even", try space.resolveScheme()?.bucket != nil {
            throw UsageError(
                argument: "--growth",
                message: "with --arrivals even every bucket would hold a different whole count; use --arrivals poisson with growth")
        }
    }

    func run() throws {
        let scheme = try space.resolveScheme()
        let scopes = try scopes.map { try parseInteger($0, argument: "--scopes", example: "100000000") } ?? BigInt(1)
        let space = try space.resolve()
        let budget = try parseBudget(maxProbability)
        let rate = try rate.map(parseRate)
        let growth = try growth.map(parseGrowth)
        let existing =
            try existing.map { try parseInteger($0, argument: "--existing", example: "1000000", allowingZero: true) } ?? BigInt(0)
        let model = try arrivals.arrivals.map(parseArrivals) ?? .poisson
        let answer: CapacityAnswer
        do {
            answer = try Planner.capacity(
                space: space, budget: budget, scopes: scopes, rate: rate, scheme: scheme, arrivals: model, growth: growth,
                existing: existing, from: rate == nil ? nil : try from.map { try Planner.startDate(parsing: $0) } ?? Planner.today)
        } catch let error as InputError {
            throw UsageError(argument: growth != nil ? "--growth" : "--max-probability", message: error.message)
        }
        try Text.emit(answer, output.format, text: Text.render)
    }
}
