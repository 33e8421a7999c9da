import Precise

/// Rigorous bounds on log(D/N) for whole numbers D ≥ N ≥ 1 of modest size, by binary splitting.
///
/// MPFR's log takes its AGM path at high precision: about 1.8 s at 10⁶ bits here, which is the
/// precision `capacity` needs near 2^(2^21) values (neighbouring counts differ in L by a factor of
/// 1 + 2/n). With D/N = 2^k·r, r ∈ [1/√2, √2]:
///
///     log(D/N) = k·ln 2 + 2·atanh(y),   y = (D − N·2^k)/(D + N·2^k),   |y| ≤ 0.172,
///
/// and atanh(y) = Σ_{j≥0} y^(2j+1)/(2j+1) gains ≥ 5 bits a term. The first K terms are summed as one
/// exact fraction by binary splitting (products of balanced size, which GMP multiplies fast); the
/// rest is at most |y|^(2K+1)/((2K+1)(1 − y²)) ≤ 2·|y|^(2K+1), added to the upper bound. ln 2 comes
/// from MPFR's own binary splitting. The bounds hold at any precision; the precision sets their width.
enum LogOfRatio {
    /// nil when D or N is too large for the series to beat MPFR (the fraction's size grows with them).
    static func bounds(_ d: BigInt, _ n: BigInt, precision p: Int) -> (lo: BigFloat, hi: BigFloat)? {
        guard n.signum > 0, n <= d, d.bitWidth <= 1024 else { return nil }
        // k = round(log2(D/N)): r = D/(N·2^k) within [1/√2, √2] ⇔ D² ≤ 2(N·2^k)² and 2D² ≥ (N·2^k)².
        var k = Swift.max(0, d.bitWidth - n.bitWidth)
        func scaled(_ k: Int) -> BigInt { n.shifted(k) }
        while k > 0 && d * d * BigInt(2) < scaled(k) * scaled(k) { k -= 1 }
        while d * d > scaled(k) * scaled(k) * BigInt(2) { k += 1 }
        let m = scaled(k)
        let u = d - m, v = d + m  // y = u/v
        let zero = BigFloat(0, precision: p)
        var aLo = zero, aHi = zero  // bounds on atanh(y)
        if !u.isZero {
            let absU = u.signum < 0 ? BigInt(0) - u : u
            // Terms needed: |y|^(2K) ≤ 2^−(p+8), |y| ≤ 2^−2.5.
            let log2InvY = Swift.max(2.5, v.log2Magnitude - absU.log2Magnitude)
            let terms = Swift.max(1, Int((Double(p + 8) / (2 * log2InvY)).rounded(.up)))
            let s = split(0, terms, absU, v)
            // Quotients of directed roundings, not exact fractions: reducing a fraction of millions of
            // bits (a gcd) would cost more than the series.
            func quotient(_ a: BigInt, _ b: BigInt, _ r: Rounding) -> BigFloat {
                let inverse: Rounding = r == .down ? .up : .down
                return BigFloat(a, precision: p, rounding: r).divided(by: BigFloat(b, precision: p, rounding: inverse), precision: p, rounding: r)
            }
            let denominator = s.b * s.q
            let sumLo = quotient(s.t, denominator, .down)
            let sumHi = quotient(s.t, denominator, .up)
            // Tail ≤ 2·|y|^(2K+1) = 2·(P/Q)·(u²/v²), P/Q = |y|^(2K−1).
            let tail = quotient(s.p * absU * absU * BigInt(2), s.q * v * v, .up)
            let sumHiTail = sumHi.adding(tail, precision: p, rounding: .up)
            if u.signum > 0 { (aLo, aHi) = (sumLo, sumHiTail) } else { (aLo, aHi) = (sumHiTail.negated, sumLo.negated) }
        }
        let twoALo = aLo.multiplied(by: BigInt(2), precision: p, rounding: .down)
        let twoAHi = aHi.multiplied(by: BigInt(2), precision: p, rounding: .up)
        if k == 0 { return (twoALo, twoAHi) }
        let kLn2Lo = BigFloat.ln2(precision: p, rounding: .down).multiplied(by: BigInt(k), precision: p, rounding: .down)
        let kLn2Hi = BigFloat.ln2(precision: p, rounding: .up).multiplied(by: BigInt(k), precision: p, rounding: .up)
        return (kLn2Lo.adding(twoALo, precision: p, rounding: .down), kLn2Hi.adding(twoAHi, precision: p, rounding: .up))
    }

    /// Σ_{j=a}^{b−1} y^(2j+1)/(2j+1), y = u/v, as T/(B·Q) with P = the product of the terms' ratios'
    /// numerators (u for j = 0, u² after) and Q of their denominators: the standard recurrences
    /// P = P₁P₂, Q = Q₁Q₂, B = B₁B₂, T = B₂Q₂T₁ + B₁P₁T₂.
    private static func split(_ a: Int, _ b: Int, _ u: BigInt, _ v: BigInt) -> (p: BigInt, q: BigInt, b: BigInt, t: BigInt) {
        if b - a == 1 {
            let p = a == 0 ? u : u * u
            let q = a == 0 ? v : v * v
            return (p, q, BigInt(2 * a + 1), p)
        }
        let mid = (a + b) / 2
        let l = split(a, mid, u, v), r = split(mid, b, u, v)
        return (l.p * r.p, l.q * r.q, l.b * r.b, r.b * r.q * l.t + l.b * l.p * r.t)
    }
}
