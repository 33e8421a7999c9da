import Precise

/// Rigorous bounds on log(D/N) for whole numbers D, N ≥ 1 of modest size, by binary splitting.
///
/// MPFR's log takes its AGM path at high precision: about 1.8 s at 10⁶ bits here, which is the
/// precision `capacity` needs near 2^(2^21) values (neighbouring counts differ in L by a factor of
/// 1 + 2/n). With D/N = 2^k·5^f·r, r = A/M ∈ [1/√2, √2]:
///
///     log(D/N) = k·ln 2 + f·ln 5 + 2·atanh(y),   y = (A − M)/(A + M) = u/v,   |y| ≤ 0.172,
///
/// and atanh(y) = Σ_{j≥0} t_j with t_0 = y, t_j/t_{j−1} = y²(2j−1)/(2j+1): ≥ 5 bits a term. The first
/// K terms are summed as one exact fraction by binary splitting (products of balanced size, which GMP
/// multiplies fast); the rest is at most 2·|y|^(2K+1), added to the upper bound. ln 2 is MPFR's
/// (binary splitting too); ln 5 = 2·ln 2 + 2·atanh(1/9). Factors of 5 are split off when that makes
/// the series cheaper (1 − 10^−6 gives D/N = 10^6 = 2^6·5^6, r = 1; a budget near 0 leaves D/N
/// within 10^−12 of 1, where the plain series is fastest). The bounds hold at any precision; the
/// precision sets their width.
enum LogOfRatio {
    /// nil when D or N is too large for the series to beat MPFR (the fraction's size grows with them).
    static func bounds(_ d: BigInt, _ n: BigInt, precision p: Int) -> (lo: BigFloat, hi: BigFloat)? {
        guard n.signum > 0, d.signum > 0 else { return nil }
        // Big numbers only in a ratio within 2^−64 of 1 (a budget of 10^−3000): few terms then;
        // otherwise the fraction's size grows past what MPFR's log costs.
        guard (d.bitWidth <= 1024 && n.bitWidth <= 1024) || (n <= d && (d - n).shifted(64) <= d) else { return nil }
        let plain = Reduction(d, n, fives: 0)
        var d5 = d, n5 = n, fives = 0
        let five = BigInt(5)
        while (d5 % five).isZero { d5 = BigInt.exactQuotient(d5, five); fives += 1 }
        while (n5 % five).isZero { n5 = BigInt.exactQuotient(n5, five); fives -= 1 }
        let split = Reduction(d5, n5, fives: fives)
        let ln5Cost = fives == 0 ? 0 : Reduction(five, BigInt(1), fives: 0).cost
        let r = fives != 0 && split.cost + ln5Cost < plain.cost ? split : plain
        var (lo, hi) = atanhBounds(r.u, r.v, p)
        lo = lo.multiplied(by: BigInt(2), precision: p, rounding: .down)
        hi = hi.multiplied(by: BigInt(2), precision: p, rounding: .up)
        if r.twos != 0 {
            let ln2 = (BigFloat.ln2(precision: p, rounding: .down), BigFloat.ln2(precision: p, rounding: .up))
            (lo, hi) = add((lo, hi), times(ln2, r.twos, p), p)
        }
        if r.fives != 0, let ln5 = bounds(five, BigInt(1), precision: p) {
            (lo, hi) = add((lo, hi), times(ln5, r.fives, p), p)
        }
        return (lo, hi)
    }

    /// D/N = 2^twos·5^fives·(A/M) with A/M ∈ [1/√2, √2]; y = u/v = (A − M)/(A + M) in lowest terms.
    private struct Reduction {
        let twos: Int, fives: Int
        let u: BigInt, v: BigInt
        /// Relative work: terms × bits a term adds.
        let cost: Double

        init(_ d: BigInt, _ n: BigInt, fives: Int) {
            var k = d.bitWidth - n.bitWidth
            func scaled(_ k: Int) -> (a: BigInt, m: BigInt) { (d.shifted(Swift.max(0, -k)), n.shifted(Swift.max(0, k))) }
            // A/M ≤ √2 ⇔ A² ≤ 2M²; A/M ≥ 1/√2 ⇔ 2A² ≥ M².
            while true {
                let (a, m) = scaled(k)
                if a * a > m * m * BigInt(2) { k += 1 } else if a * a * BigInt(2) < m * m { k -= 1 } else { break }
            }
            let (a, m) = scaled(k)
            twos = k
            self.fives = fives
            var u = a - m, v = a + m
            let g = gcd(u.magnitude, v)
            if g > BigInt(1) { u = BigInt.exactQuotient(u, g); v = BigInt.exactQuotient(v, g) }
            self.u = u
            self.v = v
            let log2InvY = u.isZero ? Double.infinity : v.log2Magnitude - u.magnitude.log2Magnitude
            cost = u.isZero ? 0 : (2 * v.log2Magnitude + 18) / (2 * log2InvY)
        }
    }

    /// Bounds on atanh(u/v) for |u| < v.
    private static func atanhBounds(_ u: BigInt, _ v: BigInt, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let zero = BigFloat(0, precision: p)
        if u.isZero { return (zero, zero) }
        let absU = u.magnitude
        // Terms needed: |y|^(2K) ≤ 2^−(p+8), |y| ≤ 2^−2.5.
        let log2InvY = Swift.max(2.5, v.log2Magnitude - absU.log2Magnitude)
        let terms = Swift.max(1, Int((Double(p + 8) / (2 * log2InvY)).rounded(.up)))
        let s = series(0, terms, absU * absU, v * v, absU, v)
        // Quotients of directed roundings, not exact fractions: reducing a fraction of millions of
        // bits (a gcd) would cost more than the series.
        func quotient(_ a: BigInt, _ b: BigInt, _ r: Rounding) -> BigFloat {
            let inverse: Rounding = r == .down ? .up : .down
            return BigFloat(a, precision: p, rounding: r).divided(by: BigFloat(b, precision: p, rounding: inverse), precision: p, rounding: r)
        }
        let sumLo = quotient(s.t, s.q, .down)
        // Tail ≤ 2·|y|^(2K+1), bounded at 64 bits (rounded up throughout).
        let y = BigFloat(numerator: absU, denominator: v, precision: 64, rounding: .up)
        let tail = y.power(2 * terms + 1, precision: 64, rounding: .up).multiplied(by: BigInt(2), precision: 64, rounding: .up)
        let sumHi = quotient(s.t, s.q, .up).adding(tail, precision: p, rounding: .up)
        return u.signum > 0 ? (sumLo, sumHi) : (sumHi.negated, sumLo.negated)
    }

    private static func times(_ x: (BigFloat, BigFloat), _ m: Int, _ p: Int) -> (BigFloat, BigFloat) {
        m >= 0
            ? (x.0.multiplied(by: BigInt(m), precision: p, rounding: .down), x.1.multiplied(by: BigInt(m), precision: p, rounding: .up))
            : (x.1.multiplied(by: BigInt(m), precision: p, rounding: .down), x.0.multiplied(by: BigInt(m), precision: p, rounding: .up))
    }

    private static func add(_ a: (BigFloat, BigFloat), _ b: (BigFloat, BigFloat), _ p: Int) -> (BigFloat, BigFloat) {
        (a.0.adding(b.0, precision: p, rounding: .down), a.1.adding(b.1, precision: p, rounding: .up))
    }

    /// Σ_{j=a}^{b−1} t_j/t_{a−1}… as T/Q, with p(j) = u²(2j−1), q(j) = v²(2j+1) (p(0) = u, q(0) = v):
    /// P = P₁P₂, Q = Q₁Q₂, T = T₁Q₂ + P₁T₂, so Σ_{j<K} t_j = T(0, K)/Q(0, K).
    private static func series(_ a: Int, _ b: Int, _ u2: BigInt, _ v2: BigInt, _ u: BigInt, _ v: BigInt) -> (p: BigInt, q: BigInt, t: BigInt) {
        if b - a == 1 {
            let p = a == 0 ? u : u2 * BigInt(2 * a - 1)
            let q = a == 0 ? v : v2 * BigInt(2 * a + 1)
            return (p, q, p)
        }
        let mid = (a + b) / 2
        let l = series(a, mid, u2, v2, u, v), r = series(mid, b, u2, v2, u, v)
        return (l.p * r.p, l.q * r.q, l.t * r.q + l.p * r.t)
    }

    private static func gcd(_ a: BigInt, _ b: BigInt) -> BigInt {
        var (x, y) = (a, b)
        while !y.isZero { (x, y) = (y, x % y) }
        return x
    }
}

private extension BigInt {
    var magnitude: BigInt { signum < 0 ? BigInt(0) - self : self }
}
