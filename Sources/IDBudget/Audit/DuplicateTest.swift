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
        case exact
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
            let k = Double(howMany), nd = Double(n)
            let (m, v): (Double, Double)
            if log2d > 2 * log2(Swift.max(nd, 2)) + 300 {
                // d beyond n² by 2^300: the mean C(n,2)/d and the variance agree to 2^−300 and are
                // far below a double's resolution next to any count; the exact moments would need
                // 3·log2(d) bits.
                m = n >= 2 ? exp2(log2(nd) + log2(nd - 1) - 1 - log2d) : 0
                v = m
            } else {
                (m, v) = Birthday.duplicateStatistics(space: d, count: BigInt(n))
            }
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
        } else if groups.count == 1, let (n, howMany) = groups.first, howMany == 1,
                  Double(n) * (Double(observed) + 2) <= 2e8, let (high, low) = Self.exactTails(n: n, space: d, observed: observed) {
            // n not small against d, but small enough to follow the occupancy chain itself.
            method = .exact
            errorBound = 0
            pValueHigh = high
            pValueLow = low
        } else {
            method = .normal
            errorBound = nil
            pValueHigh = sd > 0 ? 0.5 * erfc(z / 2.0.squareRoot()) : (diff > 0 ? 0 : 1)
            pValueLow = sd > 0 ? 0.5 * erfc(-z / 2.0.squareRoot()) : (diff < 0 ? 0 : 1)
        }
        if pValueHigh < Self.threshold { verdict = .tooMany } else if pValueLow < Self.threshold { verdict = .tooFew } else { verdict = .consistent }
    }

    /// P(D ≥ x) and P(D ≤ x) for the extra occurrences D among n uniform draws from d values, from
    /// the occupancy chain: after i draws with j extras (i − j distinct values), the next draw is an
    /// extra with probability (i − j)/d. States above x are lumped into one, so the cost is n·(x + 2)
    /// steps in doubles (relative error about n·2^−52; tails below 10^−300 read as 0).
    static func exactTails(n: Int, space d: BigInt, observed x: Int) -> (high: Double, low: Double)? {
        guard x >= 0, n >= 0 else { return nil }
        let dd = d.doubleValue
        guard dd.isFinite, dd >= 1 else { return nil }
        var p = [Double](repeating: 0, count: x + 2)  // p[x + 1]: more than x
        p[0] = 1
        p.withUnsafeMutableBufferPointer { p in
            for i in 0..<n {
                let top = Swift.min(i, x)
                // The lumped state stays lumped; state x moves up into it.
                let upFromX = Double(i - x) / dd
                if i >= x { p[x + 1] += p[x] * Swift.max(0, upFromX) }
                var j = top
                while j >= 0 {
                    let q = Double(i - j) / dd  // chance this draw repeats a value
                    if j < x { p[j + 1] += p[j] * q }
                    if j < x || i >= x { p[j] *= (1 - q) }
                    j -= 1
                }
            }
        }
        let more = p[x + 1]
        let low = Swift.min(1, Swift.max(0, 1 - more))
        let high = Swift.min(1, Swift.max(0, p[x] + more))
        return (high, low)
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
            if t <= sum * 1e-17 || j - k > 100_000_000 || j == Int.max { return Swift.min(1, sum) }
            j += 1
        }
    }

    /// P(X ≤ k): summed from k downward where the terms fall (k ≤ λ), else 1 − P(X ≥ k + 1).
    static func poissonLower(_ k: Int, _ lambda: Double) -> Double {
        if k < 0 { return 0 }
        if lambda <= 0 { return 1 }
        if Double(k) > lambda { return k == Int.max ? 1 : Swift.max(0, 1 - poissonUpper(k + 1, lambda)) }
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
