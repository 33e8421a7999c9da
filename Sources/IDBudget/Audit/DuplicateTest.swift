import Foundation
import Precise

/// Is a duplicate count what n uniform draws from d values make? Two-sided: too many duplicates (a weak
/// or broken generator) and too few (structured, sequential or counter-based ids) are both verdicts.
///
/// While n is small against d, the number of colliding pairs W is close to Poisson(λ = C(n,2)/d): by
/// the Chen–Stein method (Arratia, Goldstein and Gordon 1989) the total-variation distance is at most
/// min(1, 1/λ)·C(n,2)(4n−7)/d², and the extra occurrences D differ from W only when some value comes
/// three times, with probability at most C(n,3)/d². So both tails of D are Poisson tails to within
/// ε = that sum, which every answer states. Where ε > 10⁻³ (n not small against d), the tails come from
/// a normal approximation with the exact occupancy mean and variance, and the answer says so.
public struct DuplicateTest: Sendable {
    public enum Verdict: String, Sendable {
        case consistent
        case tooMany = "too-many-duplicates"
        case tooFew = "too-few-duplicates"
    }

    public enum Method: String, Sendable {
        case poisson
        case normal
    }

    /// The exact occupancy mean and standard deviation of the extra occurrences.
    public let mean: Double
    public let sd: Double
    /// (observed − mean)/sd; ±infinity when sd is 0 and they differ.
    public let z: Double
    /// P(D ≥ observed) and P(D ≤ observed) under uniform draws.
    public let pValueHigh: Double
    public let pValueLow: Double
    public let method: Method
    /// A bound on the error of both p-values (Poisson method); nil for the normal approximation.
    public let errorBound: Double?
    public let verdict: Verdict

    /// The p-value below which a tail is a verdict (with about 10⁻⁶ false alarms per audit).
    public static let threshold = 1e-6

    public init(space d: BigInt, count n: Int, observed: Int) {
        self.init(space: d, groups: [n: 1], observed: observed)
    }

    /// Duplicates within independent groups (time buckets): `groups[n]` groups of n ids each, every
    /// group drawn from its own d values. Means, variances, λ and the Chen–Stein bounds add up.
    public init(space d: BigInt, groups: [Int: Int], observed: Int) {
        var mean = 0.0, variance = 0.0, lambda = 0.0, csSum = 0.0, triples = 0.0
        let log2d = d.log2Magnitude
        for (n, howMany) in groups where n >= 1 && howMany > 0 {
            let (m, v) = Birthday.duplicateStatistics(space: d, count: BigInt(n))
            let k = Double(howMany), nd = Double(n)
            mean += k * m
            variance += k * v
            // λ and ε in logs: d can be far beyond a double.
            let log2Pairs = n >= 2 ? log2(nd) + log2(nd - 1) - 1 : -.infinity
            lambda += k * exp2(log2Pairs - log2d)
            csSum += k * exp2(log2Pairs + log2(Swift.max(1, 4 * nd - 7)) - 2 * log2d)
            if n >= 3 { triples += k * exp2(log2(nd) + log2(nd - 1) + log2(nd - 2) - log2(6) - 2 * log2d) }
        }
        self.mean = mean
        sd = Swift.max(0, variance).squareRoot()
        let diff = Double(observed) - mean
        z = sd > 0 ? diff / sd : (diff == 0 ? 0 : (diff > 0 ? .infinity : -.infinity))
        let epsilon = Swift.min(1, 1 / lambda) * csSum + triples
        let pairsPossible = groups.contains { $0.key >= 2 && $0.value > 0 }
        if !pairsPossible || (epsilon.isFinite && epsilon <= 1e-3) {
            method = .poisson
            errorBound = pairsPossible ? epsilon : 0
            pValueHigh = Swift.min(1, Self.poissonUpper(observed, lambda) + (errorBound ?? 0))
            pValueLow = Swift.min(1, Self.poissonLower(observed, lambda) + (errorBound ?? 0))
        } else {
            method = .normal
            errorBound = nil
            pValueHigh = sd > 0 ? 0.5 * erfc(z / 2.0.squareRoot()) : (diff > 0 ? 0 : 1)
            pValueLow = sd > 0 ? 0.5 * erfc(-z / 2.0.squareRoot()) : (diff < 0 ? 0 : 1)
        }
        if pValueHigh < Self.threshold { verdict = .tooMany } else if pValueLow < Self.threshold { verdict = .tooFew } else { verdict = .consistent }
    }

    /// log P(X = j) for X ~ Poisson(λ).
    private static func logTerm(_ j: Int, _ lambda: Double) -> Double {
        -lambda + Double(j) * log(lambda) - lgamma(Double(j) + 1)
    }

    /// P(X ≥ k): summed from k upward where the terms fall (k ≥ λ), else 1 − P(X ≤ k − 1).
    static func poissonUpper(_ k: Int, _ lambda: Double) -> Double {
        if k <= 0 { return 1 }
        if lambda <= 0 { return 0 }
        if Double(k) < lambda { return Swift.max(0, 1 - poissonLower(k - 1, lambda)) }
        var sum = 0.0, j = k
        while true {
            let t = exp(logTerm(j, lambda))
            sum += t
            if t <= sum * 1e-17 || j > k + 100_000_000 { return Swift.min(1, sum) }
            j += 1
        }
    }

    /// P(X ≤ k): summed from k downward where the terms fall (k ≤ λ), else 1 − P(X ≥ k + 1).
    static func poissonLower(_ k: Int, _ lambda: Double) -> Double {
        if k < 0 { return 0 }
        if lambda <= 0 { return 1 }
        if Double(k) > lambda { return Swift.max(0, 1 - poissonUpper(k + 1, lambda)) }
        var sum = 0.0, j = k
        while j >= 0 {
            let t = exp(logTerm(j, lambda))
            sum += t
            if t <= sum * 1e-17 { break }
            j -= 1
        }
        return Swift.min(1, sum)
    }
}
