import Precise

extension Birthday {
    /// Mean and variance of the number of duplicates, n − (distinct values), among n uniform draws
    /// from d ≥ 2 values — what an empirical collision count is compared against.
    ///
    /// With q₁ = 1 − 1/d and q₂ = 1 − 2/d (classical occupancy):
    /// E = n − d + d·q₁ⁿ and Var = d·q₁ⁿ + d(d−1)·q₂ⁿ − d²·q₁²ⁿ.
    /// Both cancel heavily (the variance's terms are ~d² while it can be as small as ~n²/2d), so they are
    /// evaluated at 3·log2(d) + log2(n) + 96 bits and only then rounded to `Double`.
    public static func duplicateStatistics(space d: BigInt, count n: BigInt) -> (mean: Double, variance: Double) {
        precondition(d >= BigInt(2) && n.signum >= 0)
        let p = 3 * d.bitWidth + n.bitWidth + 96
        func f(_ z: BigInt) -> BigFloat { BigFloat(z, precision: p, rounding: .nearest) }
        let one = BigInt(1)
        let two = BigInt(2)
        let dd = f(d)
        let nn = f(n)
        let a = BigFloat(numerator: -one, denominator: d, precision: p, rounding: .nearest)
            .log1p(precision: p, rounding: .nearest).multiplied(by: nn, precision: p, rounding: .nearest)
        let b = BigFloat(numerator: -two, denominator: d, precision: p, rounding: .nearest)
            .log1p(precision: p, rounding: .nearest).multiplied(by: nn, precision: p, rounding: .nearest)
        let q1n = a.exp(precision: p, rounding: .nearest)
        let q2n = d == two ? (n.isZero ? f(one) : f(BigInt(0))) : b.exp(precision: p, rounding: .nearest)
        let q1n2 = q1n.multiplied(by: q1n, precision: p, rounding: .nearest)
        let dq1n = dd.multiplied(by: q1n, precision: p, rounding: .nearest)
        let mean = nn.subtracting(dd, precision: p, rounding: .nearest).adding(dq1n, precision: p, rounding: .nearest)
        let variance =
            dq1n
            .adding(f(d * (d - one)).multiplied(by: q2n, precision: p, rounding: .nearest), precision: p, rounding: .nearest)
            .subtracting(f(d * d).multiplied(by: q1n2, precision: p, rounding: .nearest), precision: p, rounding: .nearest)
        return (mean.doubleValue, variance.doubleValue)
    }
}
