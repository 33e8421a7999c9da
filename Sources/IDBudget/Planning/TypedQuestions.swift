import Foundation
import IDFormats
import Precise

// The planner's questions with typed arguments, as a Swift developer asks them:
//
//     try Planner.length(for: .base62, rate: .perSecond(1e6), lifetime: .years(10), budget: 1e-11)
//
// Each builds the same workload and space as the CLI's options do and returns the CLI's answer (the
// JSON of `--format json`, digit for digit). Nothing here reads the clock: an answer that can carry
// dates (a length schedule, the day a capacity's budget breaks) carries them only when given `from`,
// the day minting starts, so the same question gets the same answer on any day. Counts (`count`,
// `nodes`, `scopes`, `existing`) are `BigInt`, exact at any size: an integer literal is one
// (`count: 1_000_000_000`), and `BigInt(_:)` takes any Swift integer (`UInt64`, `Int`).

extension Planner {
    /// The shortest length of `alphabet` that keeps p ≤ `budget` at `rate` for `lifetime`.
    public static func length(
        for alphabet: Alphabet, rate: Rate, lifetime: Lifetime, budget: Budget, nodes: BigInt = 1, scopes: BigInt = 1,
        maxBytes: Int? = nil, from: Date? = nil
    ) throws -> LengthAnswer {
        let workload = try Workload(rate: rate, lifetime: lifetime, nodes: positive(nodes, "nodes"), scopes: positive(scopes, "scopes"))
        return try length(alphabet: alphabet, volume: try workload.volume(), budget: budget, maxBytes: maxBytes, from: from)
    }

    /// The shortest length of `alphabet` that keeps p ≤ `budget` for `count` ids (in each scope).
    public static func length(for alphabet: Alphabet, count: BigInt, budget: Budget, scopes: BigInt = 1, maxBytes: Int? = nil)
        throws -> LengthAnswer
    {
        let workload = Workload(count: try positive(count, "count"), scopes: try positive(scopes, "scopes"))
        return try length(alphabet: alphabet, volume: try workload.volume(), budget: budget, maxBytes: maxBytes)
    }

    /// p for a scheme's ids minted at `rate` for `lifetime` (time-bucketed schemes: per bucket, over all
    /// buckets, with `arrivals` Poisson by default; `peakRate` for bursts; `growth` compounding the rate).
    /// A node-id scheme's ids are kept apart by their node field: p is that two of the `nodes` share
    /// one (``nodeProbability(scheme:nodes:assigned:ratePerNode:)``, `rate` per node), whatever the lifetime.
    public static func probability(
        for scheme: Scheme, rate: Rate, lifetime: Lifetime, nodes: BigInt = 1, scopes: BigInt = 1, peakRate: Rate? = nil,
        growth: Growth? = nil, arrivals: Arrivals = .poisson, existing: BigInt = 0
    ) throws -> ProbabilityAnswer {
        if scheme.node != nil { return try nodeProbability(scheme: scheme, nodes: positive(nodes, "nodes"), ratePerNode: rate) }
        let workload = try Workload(
            rate: rate, lifetime: lifetime, nodes: positive(nodes, "nodes"), peakRate: peakRate,
            scopes: positive(scopes, "scopes"), growth: growth, arrivals: arrivals, existing: nonNegative(existing, "existing"))
        return try probability(space: try Space(scheme: scheme), volume: try workload.volume(scheme: scheme), scheme: scheme)
    }

    /// p for `count` of a scheme's ids (in each scope).
    public static func probability(for scheme: Scheme, count: BigInt, scopes: BigInt = 1) throws -> ProbabilityAnswer {
        let workload = Workload(count: try positive(count, "count"), scopes: try positive(scopes, "scopes"))
        return try probability(space: try Space(scheme: scheme), volume: try workload.volume(scheme: scheme), scheme: scheme)
    }

    /// p for ids of `length` symbols of `alphabet` minted at `rate` for `lifetime`.
    public static func probability(
        for alphabet: Alphabet, length: Int, rate: Rate, lifetime: Lifetime, nodes: BigInt = 1, scopes: BigInt = 1,
        growth: Growth? = nil, existing: BigInt = 0
    ) throws -> ProbabilityAnswer {
        let workload = try Workload(
            rate: rate, lifetime: lifetime, nodes: positive(nodes, "nodes"), scopes: positive(scopes, "scopes"), growth: growth,
            existing: nonNegative(existing, "existing"))
        return try probability(space: try Space(alphabet: alphabet, length: length), volume: try workload.volume())
    }

    /// p for `count` ids of `length` symbols of `alphabet` (in each scope).
    public static func probability(for alphabet: Alphabet, length: Int, count: BigInt, scopes: BigInt = 1) throws
        -> ProbabilityAnswer
    {
        let workload = Workload(count: try positive(count, "count"), scopes: try positive(scopes, "scopes"))
        return try probability(space: try Space(alphabet: alphabet, length: length), volume: try workload.volume())
    }

    /// The most ids of `length` symbols of `alphabet` within `budget`, and with a rate how long they last.
    public static func capacity(
        for alphabet: Alphabet, length: Int, budget: Budget, rate: Rate? = nil, scopes: BigInt = 1, growth: Growth? = nil,
        existing: BigInt = 0, from: Date? = nil
    ) throws -> CapacityAnswer {
        try capacity(
            space: try Space(alphabet: alphabet, length: length), budget: budget, scopes: try positive(scopes, "scopes"),
            rate: rate, growth: growth, existing: try nonNegative(existing, "existing"), from: from)
    }

    /// The most of a scheme's ids within `budget` (time-bucketed: per bucket), and with a rate how long
    /// the budget lasts.
    public static func capacity(
        for scheme: Scheme, budget: Budget, rate: Rate? = nil, scopes: BigInt = 1, growth: Growth? = nil,
        arrivals: Arrivals = .poisson, from: Date? = nil
    ) throws -> CapacityAnswer {
        try capacity(
            space: try Space(scheme: scheme), budget: budget, scopes: try positive(scopes, "scopes"), rate: rate,
            scheme: scheme, arrivals: arrivals, growth: growth, from: from)
    }

    /// The minimum length in every built-in alphabet at `rate` for `lifetime`, and whether it fits; and
    /// whether each random format is within budget.
    public static func plan(
        rate: Rate, lifetime: Lifetime, budget: Budget, nodes: BigInt = 1, scopes: BigInt = 1, maxBytes: Int = 64
    ) throws -> PlanAnswer {
        let workload = try Workload(rate: rate, lifetime: lifetime, nodes: positive(nodes, "nodes"), scopes: positive(scopes, "scopes"))
        return try plan(workload: workload, budget: budget, maxBytes: maxBytes)
    }

    /// The minimum length in every built-in alphabet for `count` ids, and whether it fits; and whether
    /// each random format is within budget.
    public static func plan(count: BigInt, budget: Budget, scopes: BigInt = 1, maxBytes: Int = 64) throws -> PlanAnswer {
        let workload = Workload(count: try positive(count, "count"), scopes: try positive(scopes, "scopes"))
        return try plan(workload: workload, budget: budget, maxBytes: maxBytes)
    }

    private static func nonNegative(_ n: BigInt, _ name: String) throws(InputError) -> BigInt {
        guard n >= BigInt(0) else { throw InputError("\(name) cannot be negative, got \(n)", argument: name) }
        return n
    }

    private static func positive(_ n: BigInt, _ name: String) throws(InputError) -> BigInt {
        guard n >= BigInt(1) else { throw InputError("\(name) must be at least 1, got \(n)", argument: name) }
        return n
    }
}
