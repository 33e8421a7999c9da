import Foundation
import IDBudget
import Precise

/// Is a duplicate count what n uniform draws from d values make? Two-sided: too many duplicates (a weak
/// or broken generator) and too few (structured, sequential or counter-based ids) are both verdicts.
///
/// **The law.** Let K be the number of distinct values among n uniform draws from d, and D = n − K the
/// extra occurrences. K is a sum of min(n, d) *independent* Bernoulli variables: its generating
/// function Σ_k (d)_k S(n, k) x^k has only real roots, because Σ_k S(n, k) x^k does (Harper 1967) and
/// (d)_k is a multiplier sequence (Σ_k (d)_k x^k/k! = (1 + x)^d; Pólya–Schur). Independent groups
/// (time buckets, each with its own d values) add more Bernoulli terms. Two classical inequalities
/// for such sums then bound both tails of D **rigorously**, for every n and d, from the exact mean and
/// variance alone:
///
/// * Hoeffding (1956): with m terms and mean μ, the binomial Bin(m, μ/m) has the heavier tails:
///   P(S ≥ c) ≤ P(Bin ≥ c) for c ≥ μ + 1 and P(S ≤ b) ≤ P(Bin ≤ b) for b ≤ μ − 1 (applied to the
///   failed terms F = min(n, d) − K). Nearly exact when n ≪ d (then D is nearly Poisson) and when
///   n ≫ d (then the empty cells are).
/// * Bennett (1962): P(±(K − μ) ≥ t) ≤ exp(−σ²·h(t/σ²)), h(u) = (1 + u)·ln(1 + u) − u, with σ² the
///   exact variance: the sharper one when n is near d.
///
/// Each p-value reported is the smaller of the two bounds (an *upper bound* on the true tail), or the
/// tail itself where the occupancy chain is followed exactly: P(next draw is new | k distinct) =
/// (d − k)/d, in doubles, with the mass it drops at the window's edges (< 10⁻⁴⁰ each) and its rounding
/// (≤ n·2⁻⁵¹ relative) added. The chain runs where the bounds leave a tail undecided (the estimate says
/// p < threshold but no bound proves it) or where it is cheap, within ``exactBudget`` steps.
///
/// **The verdict.** A tail is a verdict only when its certified bound is below ``threshold``, so an
/// honest stream is called suspicious with probability at most 2 × ``threshold`` whatever n and d —
/// no approximation enters that guarantee. Where the *estimate* (moment-matched binomial, or the exact
/// tail) is below the threshold but no bound proves it within the budget, the verdict is
/// ``Verdict/inconclusive``, never consistent: honest streams land there about as often as the
/// estimate is below the threshold (≈ 10⁻⁶).
public struct DuplicateTest: Sendable {
    public enum Verdict: String, Sendable {
        case consistent
        case tooMany = "too-many-duplicates"
        case tooFew = "too-few-duplicates"
        case inconclusive
    }

    /// Where the decisive p-values come from.
    public enum Method: String, Sendable, Codable {
        /// The occupancy chain followed exactly (in doubles, errors added).
        case exact
        /// Hoeffding's binomial bound and Bennett's inequality (rigorous upper bounds).
        case bounds
    }

    /// The exact mean and standard deviation of the extra occurrences.
    public let mean: Double
    public let sd: Double
    /// (observed − mean)/sd; ±infinity when sd is 0 and they differ.
    public let z: Double
    /// Certified upper bounds on P(D ≥ observed) and P(D ≤ observed) under uniform draws.
    public let pValueHigh: Double
    public let pValueLow: Double
    /// Best estimates of the same tails (the exact tail where computed, else a binomial with the
    /// exact mean and variance); for display, not for the verdict.
    public let estimateHigh: Double
    public let estimateLow: Double
    public let method: Method
    /// With ``Method/exact``: the error added to the chain's tails (dropped mass and rounding).
    public let errorBound: Double?
    /// The threshold each tail was judged at (``threshold`` divided among `tests`).
    public let tailThreshold: Double
    public let verdict: Verdict

    /// The false-alarm budget of one audit: each tail is judged at half of it.
    public static let threshold = 1e-6
    /// Occupancy-chain steps (draws × window) one test may spend: a fraction of a second, so that an
    /// undecided tail costs no more than reading a few million ids.
    public static let exactBudget = 300_000_000

    public init(space d: BigInt, count n: Int, observed: Int, tests: Int = 1, exactBudget: Int = DuplicateTest.exactBudget) {
        self.init(space: d, groups: [n: 1], observed: observed, tests: tests, exactBudget: exactBudget)
    }

    /// Duplicates within independent groups (time buckets): `groups[n]` groups of n ids each, every
    /// group drawn from its own d values. `tests`: how many such tests share the audit's false-alarm
    /// budget (one per group of a mixed stream; Bonferroni). `exactBudget`: chain steps allowed (0:
    /// bounds only).
    public init(space d: BigInt, groups: [Int: Int], observed: Int, tests: Int = 1, exactBudget: Int = DuplicateTest.exactBudget) {
        self.init(
            cells: groups.map { Cell(space: d, ids: $0.key, groups: $0.value) }, observed: observed, tests: tests, exactBudget: exactBudget)
    }

    /// Independent groups of ids, `groups` of them with `ids` ids each, drawn from `space` values.
    public struct Cell: Sendable {
        public let space: BigInt
        public let ids: Int
        public let groups: Int
        public init(space: BigInt, ids: Int, groups: Int = 1) {
            self.space = space
            self.ids = ids
            self.groups = groups
        }
    }

    /// Duplicates within independent groups that may each draw from a space of its own (ids of
    /// several lengths): the law of the distinct values is still a sum of independent Bernoulli terms,
    /// so the same bounds hold with the summed means, variances and terms.
    /// `judgeFewer`: whether too few duplicates can be a verdict — not when the space was read off
    /// the ids themselves (an alphabet that is just the symbols seen makes every id look distinct).
    public init(cells: [Cell], observed: Int, tests: Int = 1, exactBudget: Int = DuplicateTest.exactBudget, judgeFewer: Bool = true) {
        var mean = 0.0
        var variance = 0.0
        var total = 0.0  // ids
        var terms = 0.0  // Bernoulli terms of K: Σ min(n, d)
        // One order whatever order the cells came in (a dictionary's differs from run to run), so the
        // same summary gives the same digits from a file, a summary or a merge.
        let cells = cells.sorted { a, b in
            a.ids != b.ids ? a.ids < b.ids : a.groups != b.groups ? a.groups < b.groups : a.space < b.space
        }
        for cell in cells where cell.ids >= 1 && cell.groups > 0 {
            // A space of one value (a tiny space's share in a shard): every id after the first repeats.
            let d = cell.space < BigInt(1) ? BigInt(1) : cell.space
            let n = cell.ids
            let log2d = d.log2Magnitude
            let dd = d.doubleValue  // +inf past 2^1024
            let k = Double(cell.groups)
            let nd = Double(n)
            let (m, v): (Double, Double)
            if n < 2 {
                (m, v) = (0, 0)
            } else if d < BigInt(2) {
                (m, v) = (nd - 1, 0)
            } else if log2d > 2 * log2(nd) + 300 {
                // d beyond n² by 2^300: mean and variance are C(n,2)/d to 2^−300 (in logs: d may be
                // far beyond a double).
                m = exp2(log2(nd) + log2(nd - 1) - 1 - log2d)
                v = m
            } else {
                (m, v) = Birthday.duplicateStatistics(space: d, count: BigInt(n))
            }
            mean += k * m
            variance += k * Swift.max(0, v)
            total += k * nd
            terms += k * Swift.min(nd, dd)
        }
        self.mean = mean
        let sd = variance.squareRoot()
        self.sd = sd
        let x = Double(Swift.max(0, observed))
        let diff = x - mean
        z = sd > 0 ? diff / sd : (diff == 0 ? 0 : (diff > 0 ? .infinity : -.infinity))
        tailThreshold = Self.threshold / 2 / Double(Swift.max(1, tests))

        // F = terms − K counts the Bernoulli terms that failed; D = F + (total − terms).
        let forced = total - terms
        let f = x - forced
        let meanF = Swift.max(0, mean - forced)
        var high = Self.upperBoundHigh(f: f, meanF: meanF, terms: terms, variance: variance, diff: diff)
        var low = Self.upperBoundLow(f: f, meanF: meanF, terms: terms, variance: variance, diff: diff)
        var estHigh = Swift.min(high, Self.estimate(f: f, meanF: meanF, variance: variance, upper: true))
        var estLow = Swift.min(low, Self.estimate(f: f, meanF: meanF, variance: variance, upper: false))
        var method = Method.bounds
        var errorBound: Double? = nil

        // Follow the chain where a tail is undecided, or where it is cheap.
        let undecided = (high >= tailThreshold && estHigh < 100 * tailThreshold) || (low >= tailThreshold && estLow < 100 * tailThreshold)
        let populated = cells.filter { $0.ids >= 1 && $0.groups > 0 }
        if exactBudget > 0, populated.count == 1, let only = populated.first, only.groups == 1, only.space.doubleValue.isFinite,
            undecided || Double(only.ids) * (24 * sd + 64) <= 2e7,
            let exact = Self.exactTails(
                n: only.ids, space: only.space.doubleValue, observed: Int(Swift.min(x, Double(only.ids) + 1)), budget: exactBudget)
        {
            method = .exact
            errorBound = exact.error
            high = Swift.min(1, exact.high + exact.error)
            low = Swift.min(1, exact.low + exact.error)
            estHigh = Swift.min(1, exact.high)
            estLow = Swift.min(1, exact.low)
        }
        if total < 2 || observed < 0 {
            high = observed <= 0 ? 1 : 0
            low = 1
            estHigh = high
            estLow = low
        }
        // A tail below a double's range is reported as its floor, not as 0 (which would claim it impossible).
        if high == 0 && f <= terms && total >= 2 { high = Double.leastNonzeroMagnitude }
        if low == 0 && f >= 0 { low = Double.leastNonzeroMagnitude }
        pValueHigh = high
        pValueLow = low
        estimateHigh = estHigh
        estimateLow = estLow
        self.method = method
        self.errorBound = errorBound
        if high < tailThreshold {
            verdict = .tooMany
        } else if judgeFewer && low < tailThreshold {
            verdict = .tooFew
        } else if estHigh < tailThreshold || (judgeFewer && estLow < tailThreshold) {
            verdict = .inconclusive
        } else {
            verdict = .consistent
        }
    }

    /// When the space is known only within a range (a shard's share of a small space, ids longer than
    /// the 64 positions recorded, lengths without positions of their own): too many duplicates are
    /// judged against the smallest space the ids could come from, too few against the largest. Each
    /// tail stays an upper bound whatever the true space in that range.
    public static func conservative(
        forMore small: [Cell], forFewer large: [Cell], observed: Int, tests: Int = 1,
        judgeFewer: Bool = true
    ) -> DuplicateTest {
        let more = DuplicateTest(cells: small, observed: observed, tests: tests, judgeFewer: false)
        let fewer = DuplicateTest(cells: large, observed: observed, tests: tests, judgeFewer: judgeFewer)
        let verdict: Verdict
        if more.pValueHigh < more.tailThreshold {
            verdict = .tooMany
        } else if judgeFewer && fewer.pValueLow < fewer.tailThreshold {
            verdict = .tooFew
        } else if more.estimateHigh < more.tailThreshold || (judgeFewer && fewer.estimateLow < fewer.tailThreshold) {
            verdict = .inconclusive
        } else {
            verdict = .consistent
        }
        return DuplicateTest(
            mean: fewer.mean, sd: fewer.sd, z: fewer.z, pValueHigh: more.pValueHigh, pValueLow: fewer.pValueLow,
            estimateHigh: more.estimateHigh, estimateLow: fewer.estimateLow,
            method: more.method == .exact && fewer.method == .exact ? .exact : .bounds,
            errorBound: more.method == .exact && fewer.method == .exact ? Swift.max(more.errorBound ?? 0, fewer.errorBound ?? 0) : nil,
            tailThreshold: more.tailThreshold, verdict: verdict)
    }

    private init(
        mean: Double, sd: Double, z: Double, pValueHigh: Double, pValueLow: Double, estimateHigh: Double, estimateLow: Double,
        method: Method, errorBound: Double?, tailThreshold: Double, verdict: Verdict
    ) {
        self.mean = mean
        self.sd = sd
        self.z = z
        self.pValueHigh = pValueHigh
        self.pValueLow = pValueLow
        self.estimateHigh = estimateHigh
        self.estimateLow = estimateLow
        self.method = method
        self.errorBound = errorBound
        self.tailThreshold = tailThreshold
        self.verdict = verdict
    }

    // MARK: Bounds

    /// An upper bound on P(D ≥ x) = P(F ≥ f).
    static func upperBoundHigh(f: Double, meanF: Double, terms: Double, variance: Double, diff: Double) -> Double {
        if f <= 0 { return 1 }
        if f > terms { return 0 }  // more failures than terms: impossible
        var bound = 1.0
        if f >= meanF + 1 { bound = Swift.min(bound, binomialTail(terms: terms, mean: meanF, from: f, upper: true)) }
        if diff > 0 { bound = Swift.min(bound, bennett(variance: variance, deviation: diff)) }
        return bound
    }

    /// An upper bound on P(D ≤ x) = P(F ≤ f).
    static func upperBoundLow(f: Double, meanF: Double, terms: Double, variance: Double, diff: Double) -> Double {
        if f < 0 { return 0 }  // fewer extras than the draws past d force
        if f >= terms { return 1 }
        var bound = 1.0
        if f <= meanF - 1 { bound = Swift.min(bound, binomialTail(terms: terms, mean: meanF, from: f, upper: false)) }
        if diff < 0 { bound = Swift.min(bound, bennett(variance: variance, deviation: -diff)) }
        return bound
    }

    /// exp(−σ²·h(t/σ²)), h(u) = (1 + u)·ln(1 + u) − u: Bennett's bound on a one-sided deviation of t
    /// from the mean of a sum of independent terms within 1 of their means, with variance σ².
    static func bennett(variance v: Double, deviation t: Double) -> Double {
        guard t > 0 else { return 1 }
        guard v > 0 else { return 0 }
        let exponent = (v + t) * log1p(t / v) - t
        // Rounding of the exponent (a few ulps of its terms) is paid by loosening it.
        return Swift.min(1, exp(-exponent * (1 - 1e-12) + 1e-9))
    }

    /// P(Bin(m, q) ≥ f) (upper) or P(Bin(m, q) ≤ f) (lower), q = mean/m, summed term by term from f
    /// with the geometric bound on what is left, in logs (q may be far below a double), and loosened
    /// by the rounding of the first term's logarithm; so it is never below the true tail.
    static func binomialTail(terms m: Double, mean: Double, from f: Double, upper: Bool) -> Double {
        guard m >= 1, mean > 0 else { return upper ? (f <= 0 ? 1 : 0) : 1 }
        let logQ = log(mean) - log(m)
        let q = exp(logQ)
        let log1mQ = q < 1e-8 ? -q - q * q / 2 - q * q * q / 3 : log1p(-q)
        // log C(m, f): directly for small f (exact to a few ulps), else by log-gamma.
        let logChoose: Double
        if f <= 64 {
            var s = 0.0
            var i = 0.0
            while i < f {
                s += log((m - i) / (i + 1))
                i += 1
            }
            logChoose = s
        } else {
            logChoose = lgamma(m + 1) - lgamma(f + 1) - lgamma(m - f + 1)
        }
        let logFirst = logChoose + f * logQ + (m - f) * log1mQ
        // Rounding error of that logarithm: a few ulps of its largest parts.
        let slack = 8 * Double.ulpOfOne * (abs(lgamma(m + 1)) + abs(f * logQ) + abs((m - f) * log1mQ) + 1)
        if logFirst - slack < -745 - 200 { return 0 }
        let odds = q / (1 - q)  // ratio factor: t(j+1)/t(j) = (m − j)/(j + 1)·odds
        var t = 1.0
        var sum = 0.0
        var j = f
        var steps = 0
        while true {
            sum += t
            let ratio = upper ? (m - j) / (j + 1) * odds : j / (m - j + 1) / odds
            if ratio <= 0 || (upper && j >= m) || (!upper && j <= 0) { break }
            let next = t * ratio
            // The ratios fall from here on, so the rest is at most next/(1 − ratio).
            if ratio < 1, next / (1 - ratio) <= sum * 1e-17 {
                sum += next / (1 - ratio)
                break
            }
            t = next
            j += upper ? 1 : -1
            steps += 1
            if steps > 50_000_000 { return 1 }  // too long to sum: no bound
        }
        let value = exp(logFirst + slack + log(sum) + 1e-12 * Double(steps + 1))
        return Swift.min(1, value)
    }

    /// An estimate of P(F ≥ f) or P(F ≤ f): a binomial with F's exact mean and variance (Poisson
    /// where the variance equals the mean).
    static func estimate(f: Double, meanF: Double, variance: Double, upper: Bool) -> Double {
        if upper && f <= 0 { return 1 }
        if !upper && f < 0 { return 0 }
        guard meanF > 0 else { return upper ? 0 : 1 }
        let q = Swift.max(0, 1 - variance / meanF)
        if q < 1e-9 {
            let k = Int(Swift.min(f, 1e18))  // past 10^18 both tails are decided long before
            return upper ? poissonUpper(k, meanF) : poissonLower(k, meanF)
        }
        let m = (meanF / q).rounded()
        if upper && f > m { return 0 }
        if !upper && f >= m { return 1 }
        // The tail on the side away from the mean is summed; the other is 1 minus it.
        if upper {
            if f >= meanF { return binomialTail(terms: m, mean: meanF, from: f, upper: true) }
            return Swift.max(0, 1 - binomialTail(terms: m, mean: meanF, from: f - 1, upper: false))
        } else {
            if f <= meanF { return binomialTail(terms: m, mean: meanF, from: f, upper: false) }
            return Swift.max(0, 1 - binomialTail(terms: m, mean: meanF, from: f + 1, upper: true))
        }
    }

    // MARK: The exact chain

    /// P(D ≥ x) and P(D ≤ x) for the extra occurrences among n uniform draws from d values, by the
    /// occupancy chain over the number of distinct values k: the next draw is new with probability
    /// (d − k)/d. Only a window of k is kept: states whose mass falls below 10⁻⁴⁰ at its edges are
    /// dropped and their mass added to `error` (a dropped path could end in either tail), together with
    /// the rounding of n steps in doubles. nil when it would take more than `budget` state updates.
    static func exactTails(n: Int, space d: Double, observed x: Int, budget: Int) -> (high: Double, low: Double, error: Double)? {
        guard n >= 0, x >= 0, d >= 1, d.isFinite else { return nil }
        let cells = Int(Swift.min(d, Double(n)))
        var p = [Double](repeating: 0, count: cells + 2)
        var q = [Double](repeating: 0, count: cells + 2)
        p[0] = 1
        var lo = 0
        var hi = 0  // the window of k with mass
        var dropped = 0.0
        var work = 0
        let cut = 1e-40
        let inv = 1 / d
        p.withUnsafeMutableBufferPointer { pb in
            q.withUnsafeMutableBufferPointer { qb in
                var a = pb.baseAddress!
                var b = qb.baseAddress!
                for _ in 0..<n {
                    let top = Swift.min(hi + 1, cells)
                    // b[k] = a[k]·k/d + a[k − 1]·(d − k + 1)/d
                    b[lo] = a[lo] * (Double(lo) * inv)
                    var k = lo + 1
                    while k <= top {
                        b[k] = a[k] * (Double(k) * inv) + a[k - 1] * ((d - Double(k - 1)) * inv)
                        k += 1
                    }
                    work += top - lo + 1
                    // Clear a for reuse and swap.
                    for k in lo...top { a[k] = 0 }
                    swap(&a, &b)
                    hi = top
                    while lo < hi && a[lo] < cut {
                        dropped += a[lo]
                        a[lo] = 0
                        lo += 1
                    }
                    while hi > lo && a[hi] < cut {
                        dropped += a[hi]
                        a[hi] = 0
                        hi -= 1
                    }
                    if work > budget { break }
                }
                if a != pb.baseAddress! {
                    // The latest row lives in q: copy it back.
                    for k in lo...hi { pb[k] = a[k] }
                }
            }
        }
        if work > budget { return nil }
        // D = n − k: D ≥ x ⇔ k ≤ n − x.
        var high = 0.0
        var low = 0.0
        for k in lo...hi {
            let dups = n - k
            if dups >= x { high += p[k] }
            if dups <= x { low += p[k] }
        }
        let rounding = Double(n + 4) * 2.3e-16 * 1.01
        let error = dropped + rounding * Swift.max(high, low) + 1e-300
        return (Swift.min(1, high), Swift.min(1, low), error)
    }

    // MARK: Poisson tails (estimates and the effective-entropy interval)

    /// log P(X = j) for X ~ Poisson(λ).
    private static func logTerm(_ j: Int, _ lambda: Double) -> Double {
        -lambda + Double(j) * log(lambda) - lgamma(Double(j) + 1)
    }

    /// P(X ≥ k): summed from k upward where the terms fall (k ≥ λ), else 1 − P(X ≤ k − 1).
    static func poissonUpper(_ k: Int, _ lambda: Double) -> Double {
        if k <= 0 { return 1 }
        if lambda <= 0 { return 0 }
        if Double(k) < lambda { return Swift.max(0, 1 - poissonLower(k - 1, lambda)) }
        var sum = 0.0
        var j = k
        while true {
            let t = exp(logTerm(j, lambda))
            sum += t
            if t <= sum * 1e-17 || j - k > 100_000_000 { return Swift.min(1, sum) }
            j += 1
        }
    }

    /// P(X ≤ k): summed from k downward where the terms fall (k ≤ λ), else 1 − P(X ≥ k + 1).
    static func poissonLower(_ k: Int, _ lambda: Double) -> Double {
        if k < 0 { return 0 }
        if lambda <= 0 { return 1 }
        if Double(k) > lambda { return Swift.max(0, 1 - poissonUpper(k + 1, lambda)) }
        var sum = 0.0
        var j = k
        while j >= 0 {
            let t = exp(logTerm(j, lambda))
            sum += t
            if t <= sum * 1e-17 { break }
            j -= 1
        }
        return Swift.min(1, sum)
    }
}
