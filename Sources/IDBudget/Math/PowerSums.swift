import Foundation
import Precise

// Power sums S_m(N) = Σ_{i<N} i^m, certified, for the exhaustion probability's series (see `Retries`).

extension Retries {
    /// Bounds on S_m(N) = Σ_{i<N} i^m (m ≥ 2) at precision p by Euler–Maclaurin over [0, x], x = N − 1:
    ///
    ///     S = x^{m+1}/(m+1) + x^m/2 + Σ_{j=1}^{J−1} B_{2j}/(2j)!·m(m−1)⋯(m−2j+2)·x^{m−2j+1} + R_J,
    ///
    /// and with P_{2J} the periodic Bernoulli function (|P_{2J}| ≤ |B_{2J}|), |R_J| ≤ |B_{2J}|/(2J)!·∫₀ˣ f^{(2J)}
    /// = |B_{2J}|/(2J)!·f^{(2J−1)}(x): the J-th term itself, as f(t) = t^m has f^{(2J)} ≥ 0 and
    /// f^{(2J−1)}(0) = 0 while 2J ≤ m (DLMF 2.10.1, 24.12.1). Term j is about 2(m/(2πx))^{2j} of the
    /// first, so where m ≤ x/8 each gains over 5 bits and a few dozen terms reach any precision used
    /// here — where Faulhaber's recurrence would build every S_{m'} for m' ≤ m, numbers of m'·log2(N)
    /// bits, quadratically (2^18 values and 100 attempts: 1.3 s, now a fraction of it). Carried to the
    /// end (every 2j ≤ m) it is exact: R vanishes once 2J > m. Nil where m > x/8.
    static func powerSumBounds(_ n: BigInt, _ m: Int, _ p: Int, _ bernoulli: inout BernoulliNumbers) -> (lo: BigFloat, hi: BigFloat)? {
        let x = n - BigInt(1)
        guard m >= 2, x >= BigInt(8 * m) else { return nil }
        let q = p + 32
        let xLo = BigFloat(x, precision: q, rounding: .down)
        let xHi = BigFloat(x, precision: q, rounding: .up)
        let bigLo = xLo.power(m + 1, precision: q, rounding: .down)  // x^{m+1}
        let bigHi = xHi.power(m + 1, precision: q, rounding: .up)
        var lo = bigLo.divided(by: BigInt(m + 1), precision: q, rounding: .down)
            .adding(bigLo.divided(by: x.shifted(1), precision: q, rounding: .down), precision: q, rounding: .down)
        var hi = bigHi.divided(by: BigInt(m + 1), precision: q, rounding: .up)
            .adding(bigHi.divided(by: x.shifted(1), precision: q, rounding: .up), precision: q, rounding: .up)
        var falling = BigInt(m)  // m(m−1)⋯(m−2j+2)
        var factorial = BigInt(2)  // (2j)!
        var x2j = x * x  // x^{2j}
        let epsilon = BigInt.power(2, p + 2)
        var j = 1
        while 2 * j <= m {
            let (bn, bd) = bernoulli.even(j)
            // T_j = (B_{2j}·falling / ((2j)!)) · x^{m+1} / x^{2j}.
            let (cLo, cHi) = BigFloat.bounds(numerator: bn * falling, denominator: bd * factorial, precision: q)
            let tLo =
                (cLo.signum >= 0
                ? cLo.multiplied(by: bigLo, precision: q, rounding: .down) : cLo.multiplied(by: bigHi, precision: q, rounding: .down))
                .divided(by: x2j, precision: q, rounding: .down)
            let tHi =
                (cHi.signum >= 0
                ? cHi.multiplied(by: bigHi, precision: q, rounding: .up) : cHi.multiplied(by: bigLo, precision: q, rounding: .up))
                .divided(by: x2j, precision: q, rounding: .up)
            let size = tLo.signum >= 0 ? tHi : tLo.negated
            if lo.signum > 0, size.multiplied(by: epsilon, precision: q, rounding: .up) <= lo {
                // Stop before T_j: the remainder is at most |T_j|.
                return (lo.subtracting(size, precision: p, rounding: .down), hi.adding(size, precision: p, rounding: .up))
            }
            lo = lo.adding(tLo, precision: q, rounding: .down)
            hi = hi.adding(tHi, precision: q, rounding: .up)
            falling = falling * BigInt(m - 2 * j + 1) * BigInt(m - 2 * j)
            factorial = factorial * BigInt(2 * j + 1) * BigInt(2 * j + 2)
            x2j = x2j * x * x
            j += 1
        }
        // Every term with 2j ≤ m taken: R vanishes (f^{(2J)} = 0 once 2J > m), the sum is exact.
        return (lo.multiplied(by: BigInt(1), precision: p, rounding: .down), hi.multiplied(by: BigInt(1), precision: p, rounding: .up))
    }
}

/// The Bernoulli numbers B_2, B_4, … as exact fractions, from Σ_{j=0}^{m} C(m+1, j)·B_j = 0.
struct BernoulliNumbers {
    private var values: [(BigInt, BigInt)] = [(BigInt(1), BigInt(1))]  // B_0

    /// B_{2j} as (numerator, denominator), denominator > 0.
    mutating func even(_ j: Int) -> (BigInt, BigInt) {
        while values.count <= 2 * j {
            let m = values.count
            var num = BigInt(0)
            var den = BigInt(1)
            for (i, (bn, bd)) in values.enumerated() where !bn.isZero {
                // num/den += C(m+1, i)·bn/bd
                let c = BigInt.binomial(m + 1, i)
                num = num * bd + c * bn * den
                den = den * bd
                let g = BigInt.gcd(num.magnitude, den)
                if g > BigInt(1) {
                    num = num / g
                    den = den / g
                }
            }
            // B_m = −num/(den·(m+1))
            var rn = -num
            var rd = den * BigInt(m + 1)
            let g = BigInt.gcd(rn.magnitude, rd)
            if g > BigInt(1) {
                rn = rn / g
                rd = rd / g
            }
            values.append((rn, rd))
        }
        return values[2 * j]
    }
}
