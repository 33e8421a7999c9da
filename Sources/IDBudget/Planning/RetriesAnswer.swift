import Foundation
import IDFormats
import Precise

/// What a store that checks uniqueness and redraws on collision can expect (`idbudget retries`).
public struct RetriesFigures: Codable, Sendable, Equatable {
    /// f = N/d, 30 significant digits.
    public let fill: String
    /// d/(d − N): expected attempts of the next insert, which sees the N stored; nil when infinite
    /// (N ≥ d: the store is full, and an insert that finds every value taken never succeeds).
    public let expectedAttemptsNext: String?
    /// Σ_{i<N} d/(d − i): expected attempts to store the N ids from empty; nil when infinite (N > d:
    /// insert d never succeeds). At N = d it is d·H_d.
    public let expectedAttemptsTotal: String?
    /// Attempts each insert may take before it fails (`--max-attempts`), if given.
    public let maxAttempts: Int?
    /// 1 − ∏_{i<N} (1 − (i/d)^k): the chance that some insert among the N exhausts its k attempts;
    /// nil without `maxAttempts`.
    public let exhaustionProbability: String?
    /// The budget for ``exhaustionProbability`` (`--max-probability`), if given.
    public let budget: String?
    /// The largest N whose exhaustion probability stays within the budget; nil without one, or when
    /// it lies past the searched range (see ``capacityAtLeast``).
    public let capacity: String?
    /// When the capacity lies past 2^4096 ids (k ≥ 2; not searched further): 2^4096, a count whose
    /// exhaustion probability is proven within the budget. Nil otherwise.
    public let capacityAtLeast: String?

    private enum CodingKeys: String, CodingKey {
        case fill, expectedAttemptsNext, expectedAttemptsTotal, maxAttempts, exhaustionProbability, budget, capacity
        case capacityAtLeast
    }

    /// As synthesized, except that absent values are written as `null` (the schema requires the keys).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(fill, forKey: .fill)
        try c.encode(expectedAttemptsNext, forKey: .expectedAttemptsNext)
        try c.encode(expectedAttemptsTotal, forKey: .expectedAttemptsTotal)
        try c.encode(maxAttempts, forKey: .maxAttempts)
        try c.encode(exhaustionProbability, forKey: .exhaustionProbability)
        try c.encode(budget, forKey: .budget)
        try c.encode(capacity, forKey: .capacity)
        try c.encode(capacityAtLeast, forKey: .capacityAtLeast)
    }
}

/// `idbudget retries`: fill, expected attempts and the chance of running out of attempts, for a store
/// that redraws an id on collision.
public struct RetriesAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "retries"
    public let space: SpaceFigures
    public let volume: VolumeFigures
    public let retries: RetriesFigures
    public let notes: [String]
}

extension Planner {
    /// Fill, expected attempts and, with `maxAttempts` k, the chance that some insert among the
    /// `volume.count` stored ids exhausts its k attempts; with a `budget` too, the most ids that keep
    /// that chance within it. The store is one flat space, no scopes. At N ≥ d the store is full: the
    /// next insert's expected attempts are infinite (nil), and past d so is the total.
    public static func retries(space: Space, volume: Volume, maxAttempts: Int? = nil, budget: Budget? = nil) throws -> RetriesAnswer {
        try check(volume)
        guard volume.groups == BigInt(1) else {
            throw InputError("retries model one store in one flat space: give its count, without scopes or time buckets")
        }
        if budget != nil && maxAttempts == nil {
            throw InputError("a budget for running out of attempts needs the attempts per insert (maxAttempts)")
        }
        let d = space.size
        let n = volume.count
        let fill = try Retries.fill(space: d, count: n)
        let next = n < d ? try Retries.expectedAttemptsNext(space: d, count: n) : nil
        let total = n <= d ? try Retries.expectedAttemptsTotal(space: d, count: n) : nil
        let exhaustion = try maxAttempts.map { try Retries.exhaustionProbability(space: d, count: n, maxAttempts: $0) }
        let capacity = try maxAttempts.flatMap { k in try budget.map { try Retries.capacitySearch(space: d, maxAttempts: k, budget: $0) } }
        var notes = volume.notes
        notes.append("fill f = N/d; next insert: d/(d − N) attempts on average; storing all N from empty: Σ_{i<N} d/(d − i).")
        if n >= d {
            notes.append(
                n == d
                    ? "the store is full (N = d): the next insert finds every value taken and never succeeds, so its expected attempts are infinite."
                    : "N > d: a store of d values cannot hold N ids; the insert that finds all d taken never succeeds, so the expected attempts are infinite."
            )
        }
        if let k = maxAttempts {
            notes.append(
                "exhaustion: insert i (i stored) fails after \(k) draw\(k == 1 ? "" : "s") with probability (i/d)^\(k); P = 1 − ∏_{i<N} (1 − (i/d)^\(k))\(k == 1 ? ", the birthday bound (idbudget probability)" : "")."
            )
        }
        if let budget, let capacity {
            switch capacity {
            case .exactly:
                notes.append("capacity: the most ids whose exhaustion probability stays ≤ \(budget.text) (one more exceeds it).")
            case .atLeast:
                notes.append(
                    "capacity: at least 2^\(Retries.capacityBitsLimit) ids (their exhaustion probability is proven ≤ \(budget.text)); idbudget searches capacities up to 2^\(Retries.capacityBitsLimit), no further."
                )
            }
        }
        var exact: String? = nil
        var atLeast: String? = nil
        switch capacity {
        case .exactly(let c): exact = c.description
        case .atLeast(let c): atLeast = c.description
        case nil: break
        }
        return RetriesAnswer(
            space: SpaceFigures(space), volume: VolumeFigures(volume),
            retries: RetriesFigures(
                fill: fill.description, expectedAttemptsNext: next?.description, expectedAttemptsTotal: total?.description,
                maxAttempts: maxAttempts, exhaustionProbability: exhaustion?.description, budget: budget?.text,
                capacity: exact, capacityAtLeast: atLeast),
            notes: notes)
    }

    /// Retries for `count` ids of `length` symbols of `alphabet` stored in one table:
    ///
    ///     try Planner.retries(for: .base62, length: 8, count: 1_000_000, maxAttempts: 3, budget: Budget(1e-9))
    public static func retries(
        for alphabet: Alphabet, length: Int, count: Int, maxAttempts: Int? = nil, budget: Budget? = nil
    ) throws -> RetriesAnswer {
        guard count >= 0 else { throw InputError("count cannot be negative, got \(count)") }
        let volume = try Workload(count: BigInt(count)).volume()
        return try retries(space: try Space(alphabet: alphabet, length: length), volume: volume, maxAttempts: maxAttempts, budget: budget)
    }

    /// Retries for ids of `length` symbols of `alphabet` minted at `rate` for `lifetime` into one table.
    public static func retries(
        for alphabet: Alphabet, length: Int, rate: Rate, lifetime: Lifetime, maxAttempts: Int? = nil, budget: Budget? = nil
    ) throws -> RetriesAnswer {
        let volume = try Workload(rate: rate, lifetime: lifetime).volume()
        return try retries(space: try Space(alphabet: alphabet, length: length), volume: volume, maxAttempts: maxAttempts, budget: budget)
    }
}
