import Foundation
import IDAudit
import IDBudget
import Precise
import Testing

/// The duplicate test against the exact law of the duplicate count, made independently by
/// Tests/Oracles/duplicate_tails_ref.py (Stirling numbers in exact fractions; inclusion–exclusion over the
/// empty cells in mpmath): the certified p-values are never below the exact tails, the exact chain
/// matches them, and the verdicts follow.
@Suite struct DuplicateTestTests {
    struct Case: Decodable {
        let n: Int
        let d: Int
        let x: Int
        let high: String
        let low: String
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference/duplicate_tails.json")
        guard let data = try? Data(contentsOf: url), let cases = try? JSONDecoder().decode([Case].self, from: data) else { return [] }
        return cases
    }()

    @Test func referenceIsThere() { #expect(Self.cases.count >= 40) }

    /// Hoeffding's and Bennett's bounds alone (no chain) are upper bounds on every exact tail.
    @Test func boundsAreNeverBelowTheExactTails() {
        for c in Self.cases {
            let t = DuplicateTest(space: BigInt(c.d), count: c.n, observed: c.x, exactBudget: 0)
            let high = Double(c.high)!
            let low = Double(c.low)!
            #expect(t.method == .bounds)
            #expect(t.pValueHigh >= high * (1 - 1e-12), "n=\(c.n) d=\(c.d) x=\(c.x): high bound \(t.pValueHigh) < exact \(high)")
            #expect(t.pValueLow >= low * (1 - 1e-12), "n=\(c.n) d=\(c.d) x=\(c.x): low bound \(t.pValueLow) < exact \(low)")
        }
    }

    /// Where the tails are far out, the bounds are close: within a factor 4 of the exact tail when
    /// n ≪ d or n ≫ d (Hoeffding's binomial is then nearly the law itself).
    @Test func boundsAreTightAwayFromNEqualsD() {
        for c in Self.cases where (c.n * 20 < c.d || c.n > 5 * c.d) {
            let t = DuplicateTest(space: BigInt(c.d), count: c.n, observed: c.x, exactBudget: 0)
            let high = Double(c.high)!
            let low = Double(c.low)!
            if high < 1e-2 { #expect(t.pValueHigh <= 4 * high, "n=\(c.n) d=\(c.d) x=\(c.x): \(t.pValueHigh) vs \(high)") }
            if low < 1e-2 { #expect(t.pValueLow <= 4 * low, "n=\(c.n) d=\(c.d) x=\(c.x): \(t.pValueLow) vs \(low)") }
        }
    }

    /// The chain, where it runs, gives the exact tails to 1e-10 (relative) and its stated error covers them.
    @Test func exactChainMatches() {
        for c in Self.cases {
            let t = DuplicateTest(space: BigInt(c.d), count: c.n, observed: c.x)
            guard t.method == .exact else { continue }
            let high = Double(c.high)!
            let low = Double(c.low)!
            #expect(abs(t.estimateHigh - high) <= 1e-10 * high + 1e-30, "n=\(c.n) d=\(c.d) x=\(c.x): \(t.estimateHigh) vs \(high)")
            #expect(abs(t.estimateLow - low) <= 1e-10 * low + 1e-30, "n=\(c.n) d=\(c.d) x=\(c.x): \(t.estimateLow) vs \(low)")
            #expect(t.pValueHigh >= high && t.pValueLow >= low)
        }
    }

    /// A verdict exactly when the exact tail is below the threshold, wherever the bounds are tight
    /// enough to tell (here: all cases but those within a factor 4 of the threshold).
    @Test func verdictsFollowTheExactTails() {
        for c in Self.cases {
            let t = DuplicateTest(space: BigInt(c.d), count: c.n, observed: c.x)
            let high = Double(c.high)!
            let low = Double(c.low)!
            let tau = t.tailThreshold
            if high < tau / 4 { #expect(t.verdict == .tooMany, "n=\(c.n) d=\(c.d) x=\(c.x)") }
            if low < tau / 4 { #expect(t.verdict == .tooFew, "n=\(c.n) d=\(c.d) x=\(c.x)") }
            if high >= tau && low >= tau { #expect(t.verdict == .consistent, "n=\(c.n) d=\(c.d) x=\(c.x): \(t.verdict)") }
        }
    }

    /// The case: 10^6 base62×6 ids and 100,000 repeats: 100,006 extra occurrences where 10.65
    /// are expected. Chen–Stein's error (1.5e−4) made the old test give up; the bounds do not.
    @Test func plantedRepeatsAreFound() {
        let d = BigInt.power(62, 6)
        let t = DuplicateTest(space: d, count: 1_100_000, observed: 100_006)
        #expect(t.verdict == .tooMany)
        #expect(t.pValueHigh < 1e-300)
        // 10^6 ids, 8.80 expected: 25 (Poisson tail 6.0e−6, mpmath) is no verdict; 30 (1.7e−8) is.
        #expect(DuplicateTest(space: d, count: 1_000_000, observed: 25).verdict == .consistent)
        #expect(DuplicateTest(space: d, count: 1_000_000, observed: 30).verdict == .tooMany)
    }

    /// n ≫ d: the honest 4-digit codes the normal approximation flagged, from the exact law: at most 3
    /// empty cells is consistent, 4 are (p = 1.06e−8) a verdict.
    @Test func smallSpacesRaiseNoFalseAlarms() {
        let d = BigInt(10_000)
        for empty in 0...3 {
            #expect(DuplicateTest(space: d, count: 130_000, observed: 120_000 + empty).verdict == .consistent)
        }
        #expect(DuplicateTest(space: d, count: 130_000, observed: 120_004).verdict == .tooMany)
    }

    /// Huge spaces (2^4096) and time buckets: any duplicate is a verdict; none is consistent.
    @Test func hugeSpacesAndBuckets() {
        let d = BigInt.power(2, 4096)
        #expect(DuplicateTest(space: d, count: 1_000_000, observed: 0).verdict == .consistent)
        #expect(DuplicateTest(space: d, count: 1_000_000, observed: 1).verdict == .tooMany)
        let bucket = BigInt.power(2, 74)
        #expect(DuplicateTest(space: bucket, groups: [1000: 50_000, 3: 7], observed: 0).verdict == .consistent)
        #expect(DuplicateTest(space: bucket, groups: [1000: 50_000, 3: 7], observed: 2).verdict == .tooMany)
        // Tiny buckets with many ids: 2^8 values, 100 buckets of 300 ids (12,312.3 extras expected,
        // mpmath): judged by the bounds.
        let small = DuplicateTest(space: BigInt(256), groups: [300: 100], observed: 12_312)
        #expect(small.method == .bounds)
        #expect(small.verdict == .consistent)
    }

    /// n = d = 10^8 (mean 36,787,943.9, sd 3,117.8, mpmath): the chain is out of budget. At z = 5.2
    /// the estimate (≈ 1e−7) is below the threshold but Bennett's bound is not: inconclusive, never
    /// consistent. At z = 6 the bound decides; at z = 2 nothing is off.
    @Test func undecidedTailsAreInconclusive() {
        let d = BigInt(100_000_000)
        let close = DuplicateTest(space: d, count: 100_000_000, observed: 36_804_156)
        #expect(close.method == .bounds)
        #expect(close.verdict == .inconclusive, "\(close.pValueHigh) \(close.estimateHigh)")
        #expect(close.estimateHigh < close.tailThreshold && close.pValueHigh >= close.tailThreshold)
        #expect(DuplicateTest(space: d, count: 100_000_000, observed: 36_806_650).verdict == .tooMany)
        #expect(DuplicateTest(space: d, count: 100_000_000, observed: 36_794_180).verdict == .consistent)
    }

    /// A space of one value (a tiny space's share of a shard): every id after the first repeats — no
    /// trap, and that is what it expects; fewer repeats than that are impossible, so too few.
    @Test func aSpaceOfOneValue() {
        #expect(DuplicateTest(space: BigInt(1), count: 5, observed: 4).verdict == .consistent)
        #expect(
            DuplicateTest(cells: [.init(space: BigInt(1), ids: 5), .init(space: BigInt(0), ids: 3)], observed: 6).verdict == .consistent)
        let impossible = DuplicateTest(space: BigInt(1), count: 5, observed: 2)
        #expect(impossible.pValueLow < 1e-12 && impossible.verdict == .tooFew)
    }

    /// Several groups share the false-alarm budget.
    @Test func groupsShareTheThreshold() {
        let t = DuplicateTest(space: BigInt(1000), count: 40, observed: 0, tests: 4)
        #expect(t.tailThreshold == DuplicateTest.threshold / 8)
    }
}
