import Precise

extension Birthday {
    /// Certified bounds on S·L(d, n) for counts n near a base b, from one evaluation at b.
    ///
    /// L(d, n) − L(d, b) = Σ_{i=b}^{n−1} −log(1 − i/d) for n > b, and x ≤ −log(1 − x) ≤ x/(1 − x), so
    /// the increment lies in [A/d, A/(d − i_max)] with A = Σ i, an exact integer (likewise below b).
    /// The interval is about k·n²/d² wide for k = |n − b|: far narrower than the n/d one more id adds,
    /// while n ≪ d, which is where n has thousands of bits and L at full precision is costly.
    struct Neighbourhood {
        static let minimumBits = 2048
        let d: BigInt, scopes: BigInt, base: BigInt
        let precision: Int
        let lo: BigFloat, hi: BigFloat

        init(space d: BigInt, scopes: BigInt, base: BigInt) {
            self.d = d
            self.scopes = scopes
            self.base = base
            precision = Swift.max(base.bitWidth + 64, LogComplement.startPrecision(space: d, count: base, scopes: scopes, digits: 20))
            (lo, hi) = LogComplement.bounds(space: d, count: base, scopes: scopes, precision: precision)
        }

        /// Bounds on S·L(d, n) for 2 ≤ n ≤ d, or nil when n is too far from the base.
        func bounds(_ n: BigInt) -> (lo: BigFloat, hi: BigFloat)? {
            let k = n - base
            guard k.bitWidth <= 40 else { return nil }
            if k.isZero { return (lo, hi) }
            let p = precision
            let up = k.signum > 0
            let (first, m) = up ? (base, k) : (n, k.magnitude)  // the m indices first, first + 1, …
            let sum = (m * first + BigInt.exactQuotient(m * (m - BigInt(1)), BigInt(2))) * scopes
            let top = first + m - BigInt(1)
            // The increment sits ~n/d below L: it needs only the bits that reach L's last one (two
            // 64-bit divisions instead of two at a million bits, for a step of a few ids).
            let below = Double(lo.binaryExponent) - (sum.log2Magnitude - d.log2Magnitude)
            let r = below.isFinite ? Swift.min(p, Swift.max(64, p - Int(Swift.max(0, Swift.min(below, Double(p)))) + 16)) : p
            func quotient(_ a: BigInt, _ b: BigInt, _ mode: Rounding) -> BigFloat {
                BigFloat(a, precision: r, rounding: mode).divided(
                    by: BigFloat(b, precision: r, rounding: mode == .down ? .up : .down), precision: r, rounding: mode)
            }
            let incLo = quotient(sum, d, .down)
            let incHi = quotient(sum, d - top, .up)
            return up
                ? (lo.adding(incLo, precision: p, rounding: .down), hi.adding(incHi, precision: p, rounding: .up))
                : (lo.subtracting(incHi, precision: p, rounding: .down), hi.subtracting(incLo, precision: p, rounding: .up))
        }

        /// Whether S·L(d, n) ≤ λ, when these bounds settle it.
        func decide(_ n: BigInt, budget: Budget) -> Bool? {
            guard let (l, h) = bounds(n) else { return nil }
            let (bLo, bHi) = budget.logComplementBounds(precision: precision)
            if h <= bLo { return true }
            if l > bHi { return false }
            return nil
        }
    }
}
