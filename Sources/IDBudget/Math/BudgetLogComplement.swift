import Foundation
import Precise

// The math a budget is checked with: λ = −log(1 − P) bounded at any precision. The value type and its
// parsing are in Values/Budget.swift, below the math.
extension Budget {
    /// Bounds on λ = −log(1 − P): p(d, n) ≤ P exactly when L(d, n) ≤ λ.
    ///
    /// Below ½, from P with log1p; from ½ on, from the complement 1 − P = (den − num)/den held exactly,
    /// so a budget within 10^−3000 of 1 costs no more precision than one near 0.
    func logComplementBounds(precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        if p < 4096 { return computeLogComplementBounds(precision: p) }
        // Rounded up to a multiple of 2^(⌊log2 p⌋ − 4) bits (at least 2^12), so nearby precisions share
        // one entry at a cost of at most 1/16 more bits (more precise bounds are still bounds).
        let grain = 1 << Swift.max(12, Int.bitWidth - p.leadingZeroBitCount - 5)
        let q = (p + grain - 1) & ~(grain - 1)
        if let hit = cache.get(q) { return hit }
        let bounds = computeLogComplementBounds(precision: q)
        cache.set(q, bounds)
        return bounds
    }

    private func computeLogComplementBounds(precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let (num, den) = fraction
        // λ = log(den/(den − num)); at high precision binary splitting beats MPFR's AGM log.
        if p > 20_000, let bounds = LogOfRatio.bounds(den, den - num, precision: p) { return bounds }
        if p >= LogOfRatio.parallelPrecision { return LogByAGM.negatedLogBounds(den - num, over: den, precision: p) }
        // One correctly rounded MPFR log at one end of the argument's interval; the other end from the
        // derivative, which costs a division instead of a second log.
        if num.shifted(1) >= den {
            let c = den - num
            let cLo = BigFloat(numerator: c, denominator: den, precision: p, rounding: .down)
            let cHi = BigFloat(numerator: c, denominator: den, precision: p, rounding: .up)
            // −log(c) falls as c rises; log(cHi) ≤ log(cLo) + (cHi − cLo)/cLo by concavity.
            let l = cLo.log(precision: p, rounding: .down)  // l ≤ log(cLo) < next(l)
            let slope = cHi.subtracting(cLo, precision: p, rounding: .up).divided(by: cLo, precision: p, rounding: .up)
            return (l.nextUp.adding(slope, precision: p, rounding: .up).negated, l.negated)
        }
        let xLo = BigFloat(numerator: num, denominator: den, precision: p, rounding: .down)
        let xHi = BigFloat(numerator: num, denominator: den, precision: p, rounding: .up)
        // λ(x) = −log1p(−x) rises with x, with slope 1/(1 − x) ≤ 1/(1 − xHi) on [xLo, xHi].
        let l = xLo.negated.log1p(precision: p, rounding: .up).negated  // l ≤ λ(xLo) < next(l)
        let one = BigFloat(1, precision: p)
        let slope = xHi.subtracting(xLo, precision: p, rounding: .up)
            .divided(by: one.subtracting(xHi, precision: p, rounding: .down), precision: p, rounding: .up)
        return (l, l.nextUp.adding(slope, precision: p, rounding: .up))
    }
}
