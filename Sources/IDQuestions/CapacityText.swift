import Foundation
import IDBudget

/// `capacity`'s options beyond the space, as text — the CLI's options and the server's query
/// parameters alike — read in the order the CLI reads them, so the first refusal names the same
/// argument.
public struct CapacityText: Sendable {
    public var maxProbability: String
    public var rate, scopes, growth, existing, arrivals, from: String?

    public init(
        maxProbability: String, rate: String? = nil, scopes: String? = nil, growth: String? = nil, existing: String? = nil,
        arrivals: String? = nil, from: String? = nil
    ) {
        (self.maxProbability, self.rate, self.scopes, self.growth) = (maxProbability, rate, scopes, growth)
        (self.existing, self.arrivals, self.from) = (existing, arrivals, from)
    }

    /// The question for `space` (named by `scheme`, if it was), or the refusal the CLI gives.
    public func question(space: Space, scheme: Scheme?) throws(ArgumentError) -> CapacityQuestion {
        let budget = try ArgumentText.budget(maxProbability)
        let rate = try self.rate.map { (t: String) throws(ArgumentError) -> Rate in try ArgumentText.rate(t) }
        let scopes =
            try self.scopes.map { (t: String) throws(ArgumentError) -> BigInt in
                try ArgumentText.integer(t, argument: "--scopes", example: "100000000")
            } ?? BigInt(1)
        var growth: Growth?
        if let text = self.growth {
            growth = try ArgumentText.growth(text)
            if rate == nil { throw ArgumentError("--growth", "a growth needs a rate; add e.g. \(arg: "rate", "1e6/s")") }
        }
        var start: Date? = rate == nil ? nil : Planner.today
        if let text = from {
            if rate == nil { throw ArgumentError("--from", "a start date needs a rate; add e.g. \(arg: "rate", "1e6/s")") }
            do { start = try Planner.startDate(parsing: text) } catch { throw ArgumentError("--from", error.message) }
        }
        let existing =
            try self.existing.map { (t: String) throws(ArgumentError) -> BigInt in
                try ArgumentText.integer(t, argument: "--existing", example: "1000000", allowingZero: true)
            } ?? BigInt(0)
        var model = Arrivals.poisson
        if let text = arrivals {
            model = try ArgumentText.arrivals(text)
            guard scheme?.bucket != nil, rate != nil else {
                throw ArgumentError(
                    "--arrivals",
                    "arrivals matter only for time-bucketed schemes (uuid7, ulid, ksuid, typeid, firebase) with \(arg: "rate")")
            }
        }
        // None stored (0) is no question of the past, as probability and length take it.
        if existing.signum > 0, let scheme, let bucket = scheme.bucket {
            throw ArgumentError(
                "--existing",
                "\(scheme.name) ids collide only within one \(bucket.rawValue), so ids stored earlier cannot collide with new ones; leave them out"
            )
        }
        if growth != nil, model == .even, scheme?.bucket != nil {
            throw ArgumentError(
                "--growth", "with even arrivals every bucket would hold a different whole count; use poisson arrivals with growth")
        }
        return CapacityQuestion(
            space: space, budget: budget, scopes: scopes, rate: rate, scheme: scheme, arrivals: model, growth: growth,
            existing: existing, from: start)
    }
}

/// A `capacity` question, read and checked (``CapacityText``); ``answer()`` is the computation.
public struct CapacityQuestion: Sendable {
    public let space: Space
    public let budget: Budget
    public let scopes: BigInt
    public let rate: Rate?
    public let scheme: Scheme?
    public let arrivals: Arrivals
    public let growth: Growth?
    public let existing: BigInt
    public let from: Date?

    /// The CLI's answer; a refusal found only in the computing names `--growth` when a growth was given,
    /// else `--max-probability`, as the CLI does.
    public func answer() throws(ArgumentError) -> CapacityAnswer {
        do {
            return try Planner.capacity(
                space: space, budget: budget, scopes: scopes, rate: rate, scheme: scheme, arrivals: arrivals, growth: growth,
                existing: existing, from: from)
        } catch let error as InputError {
            throw ArgumentError(blaming: error, else: growth != nil ? "growth" : "max-probability")
        } catch {
            throw ArgumentError("--max-probability", "\(error)")
        }
    }
}
