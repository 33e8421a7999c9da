import Foundation
import Precise
import TestSupport
import Testing

@testable import IDBudget

/// λ = −log(1 − P) at the precisions `capacity` works at near 2^(2^21) values (tens of thousands to a
/// million bits): binary splitting through convergents on two threads, the AGM (π and ln 2 from their
/// table) for ratios with too many digits, MPFR's log with a derivative bound below 65,536 bits. Every
/// bound is checked against mpmath (scripts/lambda_ref.py, from the exact fraction); the neighbours of
/// a huge count against full evaluations.
@Suite(.oracles) struct LambdaTests {
    static let budgets = [
        "0.3", "0.5", "0.1", "0.9", "0.99", "0.75", "0.999999", "0.9999999999999999999999", "0.123456789",
        "0.31415926535897932384626433",
        "0.2718281828459045235360287471352662497757247093699959574966967627724076630353547594571382178525166427",
        "1e-12", "2^-40", "7e-3", "1e-700", "0." + String(repeating: "9", count: 3000),
        "0." + String(repeating: "73", count: 200),
        // 1,300 digits: past binary splitting's reach (4,096-bit ratios), so the AGM at high precision.
        "0." + String(repeating: "1234567890987", count: 100) + "1",
    ]

    /// ⌊λ·2^e⌋ for each budget, from mpmath.
    static func reference(_ budgets: [String], bits e: Int) throws -> [BigInt] {
        let (status, text) = try Oracle.run("lambda_ref.py", [String(e)], input: budgets.joined(separator: "\n"), mergeErrors: false)
        let values = text.split(separator: "\n").compactMap { BigInt(decimal: $0) }
        guard status == 0, values.count == budgets.count else {
            throw ReferenceFailure(message: "lambda_ref.py failed: \(text.prefix(300))")
        }
        return values
    }

    struct ReferenceFailure: Error { let message: String }

    /// lo ≤ λ ≤ hi with λ ∈ [(m − 1)/2^e, (m + 1)/2^e], and hi − lo within 2^−(p − 24) of λ.
    func check(_ b: (lo: BigFloat, hi: BigFloat), _ m: BigInt, _ e: Int, _ p: Int, _ label: String) {
        let scale = BigInt.power(2, e)
        let refLo = BigFloat(numerator: m - BigInt(1), denominator: scale, precision: e + 64, rounding: .down)
        let refHi = BigFloat(numerator: m + BigInt(1), denominator: scale, precision: e + 64, rounding: .up)
        #expect(b.lo <= refHi, "\(label): lower bound above λ at \(p) bits")
        #expect(refLo <= b.hi, "\(label): upper bound below λ at \(p) bits")
        let width = b.hi.subtracting(b.lo, precision: 64, rounding: .up)
        let allowed = refLo.multiplied(
            by: BigFloat(numerator: BigInt(1), denominator: BigInt.power(2, p - 24), precision: 64, rounding: .down),
            precision: 64, rounding: .down)
        #expect(width <= allowed, "\(label): bounds wider than the precision at \(p) bits")
    }

    @Test func lambdaBoundsHoldAgainstMpmath() throws {
        let e = 300_000
        let reference = try Self.reference(Self.budgets, bits: e)
        for (text, m) in zip(Self.budgets, reference) {
            let budget = try Budget(parsing: text)
            let (num, den) = budget.fraction
            // 30,000 bits runs on one thread, 70,000 and 200,000 on two; the cache rounds up to 2^16 multiples.
            for p in [30_000, 70_000, 200_000] {
                check(budget.logComplementBounds(precision: p), m, e, p, text)
                if let direct = LogOfRatio.bounds(den, den - num, precision: p) { check(direct, m, e, p, "\(text) (series)") }
                check(LogByAGM.negatedLogBounds(den - num, over: den, precision: p), m, e, p, "\(text) (AGM)")
            }
        }
    }

    @Test func theCheapestWalkIsChosen() throws {
        func plan(_ text: String, precision: Int = 1 << 20) throws -> LogOfRatio.Plan {
            let (num, den) = try Budget(parsing: text).fraction
            return LogOfRatio.cheapest(den, den - num, precision: precision, search: true)
        }
        // ln 2 is tabulated: 10/7 = 2·(5/7) = ln 2 + 2·atanh(−1/6). Beyond the table, where ln 2 costs
        // more than the longer series, 10/7 = 2·atanh(3/17).
        let seven = try plan("0.3")
        #expect(seven.twos == 1 && seven.steps.map(\.v) == [BigInt(6)])
        let sevenBeyond = try plan("0.3", precision: BigFloat.tabulatedPrecision + 1)
        #expect(sevenBeyond.twos == 0 && sevenBeyond.steps.map(\.v) == [BigInt(17)])
        // A 26-digit budget walks through convergents: several short steps, under MPFR's cost.
        let long = try plan("0.31415926535897932384626433")
        #expect(long.steps.count >= 2 && long.cost / 2 < LogOfRatio.mpfrLogCost)
        // 10^22 = 2^22·5^22: ln 2 and atanh(1/9), nothing else.
        let nines = try plan("0.9999999999999999999999")
        #expect(nines.twos == 22 + 2 * 22 && nines.steps.map(\.v) == [BigInt(9)])
    }

    @Test func neighboursOfAHugeCountAgreeWithFullEvaluations() throws {
        let d = BigInt.power(2, 8192)
        for text in ["0.3", "0.999999", "1e-12", "0.9999999999999999999999", "0.31415926535897932384626433"] {
            let budget = try Budget(parsing: text)
            for scopes in [BigInt(1), BigInt(7)] {
                let capacity = try Birthday.capacity(space: d, scopes: scopes, budget: budget)
                // isWithin evaluates L in full each time: capacity's shortcut must agree with it.
                #expect(try Birthday.isWithin(space: d, count: capacity, scopes: scopes, budget: budget), "\(text)")
                #expect(try !Birthday.isWithin(space: d, count: capacity + BigInt(1), scopes: scopes, budget: budget), "\(text)")
                let near = Birthday.Neighbourhood(space: d, scopes: scopes, base: capacity)
                for k in [-100_000, -37, -1, 0, 1, 2, 999, 1 << 39] {
                    let n = capacity + BigInt(k)
                    guard let (lo, hi) = near.bounds(n) else {
                        Issue.record("no bounds at \(k)")
                        continue
                    }
                    let (fLo, fHi) = LogComplement.bounds(space: d, count: n, scopes: scopes, precision: near.precision)
                    #expect(lo <= fHi && fLo <= hi, "\(text) k = \(k)")
                    // Narrow enough to tell n from n + 1 (they differ by S·n/d).
                    let step = BigFloat(numerator: scopes * n, denominator: d, precision: 64, rounding: .down)
                    #expect(
                        hi.subtracting(lo, precision: 64, rounding: .up).multiplied(by: BigInt(1 << 20), precision: 64, rounding: .up)
                            < step)
                }
                #expect(near.bounds(capacity + BigInt.power(2, 41)) == nil)
            }
        }
    }
}
