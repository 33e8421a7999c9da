import Foundation
import Precise

/// The birthday bound, exactly.
///
/// Among `n` identifiers drawn independently and uniformly from `d` values, the probability that at
/// least two are equal is
///
///     p(d, n) = 1 − ∏_{i<n} (1 − i/d)            (0 for n ≤ 1, 1 for n > d).
///
/// idbudget computes p and its complement 1 − p to ``significantDigits`` significant decimal digits,
/// every one of them right: it bounds L = −log(1 − p) in a rigorous interval (see `LogComplement`),
/// maps both ends through the monotone functions p = −expm1(−L) and 1 − p = 10^(−L/ln 10), and raises
/// the working precision until both ends round to the same digits (Ziv's strategy). If an exact
/// rounding tie keeps the ends apart, the value is computed as an exact rational instead.
public enum Birthday {
    /// Digits printed for p, 1 − p and the expected number of collisions.
    public static let significantDigits = 30

    /// Precision beyond which idbudget gives up rather than guess (never reached in the tested range).
    static let maxPrecision = 1 << 22

    /// p(d, n) and 1 − p(d, n), each correctly rounded to `digits` significant digits.
    ///
    /// With `scopes` S > 1, the chance that any of S independent scopes (devices, tenants, time buckets)
    /// of n identifiers each sees a collision: 1 − (1 − p)^S, computed as exactly as S = 1.
    public static func probability(space d: BigInt, count n: BigInt, scopes: BigInt = BigInt(1), digits: Int = significantDigits) throws
        -> (probability: ScientificDecimal, complement: ScientificDecimal)
    {
        guard scopes >= BigInt(1) else { throw InputError("scopes must be at least 1", argument: "scopes") }
        guard n.signum >= 0 else { throw InputError("a count cannot be negative", argument: "count") }
        if n <= BigInt(1) { return (.zero, .one(significantDigits: digits)) }
        if n > d { return (.one(significantDigits: digits), .zero) }
        if let tiny = tinyComplement(space: d, count: n, scopes: scopes, digits: digits) { return tiny }
        var precision = LogComplement.startPrecision(space: d, count: n, scopes: scopes, digits: digits)
        var attempts = 0
        while precision <= maxPrecision {
            let (lo, hi) = LogComplement.bounds(space: d, count: n, scopes: scopes, precision: precision)
            let (pLo, pHi) = probabilityBounds(lo, hi, precision)
            if let p = sameDigits(pLo, pHi, digits, shift: BigInt(0)),
                let c = complementDigits(lo, hi, precision, digits, probability: (pLo, pHi))
            {
                return (p, c)
            }
            attempts += 1
            // Ends that stay apart after a few doublings are usually an exact tie: settle it exactly.
            if attempts >= 3, let exact = exactProbability(space: d, count: n, scopes: scopes, digits: digits) { return exact }
            precision *= 2
        }
        throw InputError("could not certify \(digits) digits for this space and count within \(maxPrecision) bits")
    }

    /// S·L from which 1 − p = e^−SL is written 10^−x (x = SL/ln 10 ≥ 2^4096/ln 10 ≈ 4.5·10^1232): its mantissa would need
    /// SL to absolute accuracy, log2(SL) bits more (two million at 2^(2^21)), for digits nobody reads.
    static let powerFormBits = 4096

    /// p = 1 and 1 − p = 10^−x with x to `digits` digits, when S·L ≥ 2^4096; nil otherwise. Works at the
    /// precision relative accuracy needs, so it costs no more for 2^(2^21) values than for 2^64.
    private static func tinyComplement(space d: BigInt, count n: BigInt, scopes: BigInt, digits: Int) -> (
        probability: ScientificDecimal, complement: ScientificDecimal
    )? {
        // An upper estimate first, so typical queries pay nothing: L ≤ n²/d while n ≤ d/2, and
        // L ≤ n·ln d always.
        let log2n = n.log2Magnitude
        let log2d = d.log2Magnitude
        let log2L = Swift.min(2 * log2n - log2d + 1, log2n + log2(Swift.max(1, log2d * 0.6931471805599453)) + 1)
        guard scopes.log2Magnitude + log2L >= Double(powerFormBits) - 8 else { return nil }
        var precision = LogComplement.startPrecision(space: d, count: n, scopes: scopes, digits: digits, absolute: false)
        let threshold = BigFloat(BigInt.power(2, powerFormBits), precision: 64, rounding: .nearest)
        while precision <= maxPrecision {
            let (lo, hi) = LogComplement.bounds(space: d, count: n, scopes: scopes, precision: precision)
            guard lo >= threshold else { return nil }
            // x = SL/ln 10 rises with SL.
            let xLo = lo.divided(by: BigFloat.ln10(precision: precision, rounding: .up), precision: precision, rounding: .down)
            let xHi = hi.divided(by: BigFloat.ln10(precision: precision, rounding: .down), precision: precision, rounding: .up)
            if let x = sameDigits(xLo, xHi, digits, shift: BigInt(0)) {
                return (.one(significantDigits: digits), ScientificDecimal(digits: x.digits, exponent: x.exponent, isPowerOfTen: true))
            }
            precision *= 2
        }
        return nil
    }

    /// p rises with L: round the low end of −expm1(−L) down and the high end up.
    private static func probabilityBounds(_ lo: BigFloat, _ hi: BigFloat, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        (lo.negated.expm1(precision: p, rounding: .up).negated, hi.negated.expm1(precision: p, rounding: .down).negated)
    }

    /// 1 − p = e^−L, directly while that is inside MPFR's exponent range; beyond, as 10^t with
    /// t = −L/ln 10 = e + f, e = ⌊t⌋: the digits are those of 10^f ∈ [1, 10), so any exponent prints.
    ///
    /// First from p's bounds, 1 − p ∈ [1 − pHi, 1 − pLo]: a subtraction instead of two exponentials
    /// (a quarter of a typical query's time), enough whenever p is not so near 1 that the difference
    /// loses the digits; then the ends disagree and e^−L is taken.
    private static func complementDigits(
        _ lo: BigFloat, _ hi: BigFloat, _ p: Int, _ digits: Int,
        probability: (lo: BigFloat, hi: BigFloat)
    ) -> ScientificDecimal? {
        let one = BigFloat(1, precision: 2)
        if let c = sameDigits(
            one.subtracting(probability.hi, precision: p, rounding: .down),
            one.subtracting(probability.lo, precision: p, rounding: .up), digits, shift: BigInt(0))
        {
            return c
        }
        // While e^−L is well inside MPFR's exponent range, take it directly: falls with L.
        if hi < BigFloat(100_000_000, precision: 64) {
            let cLo = hi.negated.exp(precision: p, rounding: .down)
            let cHi = lo.negated.exp(precision: p, rounding: .up)
            return sameDigits(cLo, cHi, digits, shift: BigInt(0))
        }
        let ln10Lo = BigFloat.ln10(precision: p, rounding: .down)
        let ln10Hi = BigFloat.ln10(precision: p, rounding: .up)
        let tLo = hi.divided(by: ln10Lo, precision: p, rounding: .up).negated
        let tHi = lo.divided(by: ln10Hi, precision: p, rounding: .down).negated
        let e = tLo.integer(rounding: .down)
        guard tHi.integer(rounding: .down) == e else { return nil }
        let eFloat = BigFloat(e, precision: Swift.max(p, e.bitWidth + 2), rounding: .nearest)
        let mLo = tLo.subtracting(eFloat, precision: p, rounding: .down).exp10(precision: p, rounding: .down)
        let mHi = tHi.subtracting(eFloat, precision: p, rounding: .up).exp10(precision: p, rounding: .up)
        return sameDigits(mLo, mHi, digits, shift: e)
    }

    /// The common rounding of both ends, or `nil` while they differ.
    static func sameDigits(_ lo: BigFloat, _ hi: BigFloat, _ digits: Int, shift: BigInt) -> ScientificDecimal? {
        guard let a = lo.decimalDigits(digits), let b = hi.decimalDigits(digits), a == b else { return nil }
        return ScientificDecimal(digits: a.digits, exponent: shift + BigInt(a.exponent - 1))
    }

    /// The most significant digits two bounds share, as many as they do up to `digits` (at least 2),
    /// and how many: for the figures whose bounds more bits cannot narrow (a model's own error).
    static func sharedDigits(_ lo: BigFloat, _ hi: BigFloat, upTo digits: Int = significantDigits) -> (ScientificDecimal, Int)? {
        for n in stride(from: digits, through: 2, by: -1) {
            if let s = sameDigits(lo, hi, n, shift: BigInt(0)) { return (s, n) }
        }
        return nil
    }

    /// p = −expm1(−L) and 1 − p = e^−L to `digits` certified digits, for any L given by rigorous
    /// bounds at a precision (the Poisson buckets' L, say): the same Ziv loop and the same printing
    /// paths as ``probability(space:count:scopes:digits:)``, including 1 − p = 10^−x once L ≥ 2^4096.
    /// `log2L` is a rough estimate of log2(L), for the starting precision.
    static func certified(
        log2L: Double, digits: Int = significantDigits, bounds: (Int) throws -> (lo: BigFloat, hi: BigFloat)
    ) throws -> (probability: ScientificDecimal, complement: ScientificDecimal) {
        let relative = Int(Double(digits) * 3.33) + 24
        let extra = log2L.isFinite ? Swift.max(0, Swift.min(Int(log2L.rounded(.up)), powerFormBits)) : 0
        var precision = relative + 16 + extra
        let threshold = BigFloat(BigInt.power(2, powerFormBits), precision: 64, rounding: .nearest)
        while precision <= maxPrecision {
            let (lo, hi) = try bounds(precision)
            if lo >= threshold {
                let xLo = lo.divided(by: BigFloat.ln10(precision: precision, rounding: .up), precision: precision, rounding: .down)
                let xHi = hi.divided(by: BigFloat.ln10(precision: precision, rounding: .down), precision: precision, rounding: .up)
                if let x = sameDigits(xLo, xHi, digits, shift: BigInt(0)) {
                    return (.one(significantDigits: digits), ScientificDecimal(digits: x.digits, exponent: x.exponent, isPowerOfTen: true))
                }
            } else {
                let (pLo, pHi) = probabilityBounds(lo, hi, precision)
                if let p = sameDigits(pLo, pHi, digits, shift: BigInt(0)),
                    let c = complementDigits(lo, hi, precision, digits, probability: (pLo, pHi))
                {
                    return (p, c)
                }
            }
            precision *= 2
        }
        throw InputError("could not certify \(digits) digits within \(maxPrecision) bits")
    }

    /// The size in bits of the exact fraction (1 − p)^S, or nil when it would pass 2^23 bits.
    static func exactCost(space d: BigInt, count n: BigInt, scopes: BigInt) -> Int? {
        guard let count = n.intValue, let s = scopes.intValue, count <= 1 << 23, s <= 1 << 23 else { return nil }
        let (bits, overflow) = count.multipliedReportingOverflow(by: d.bitWidth * s)
        return !overflow && bits <= 1 << 23 ? bits : nil
    }

    /// (1 − p)^S = (d(d−1)…(d−n+1)/d^n)^S as an exact fraction, when that is affordable (≤ 2^23 bits,
    /// whatever the count: the cost is the size of the fraction, not the number of factors).
    static func exactComplement(space d: BigInt, count n: BigInt, scopes: BigInt = BigInt(1)) -> (numerator: BigInt, denominator: BigInt)? {
        guard exactCost(space: d, count: n, scopes: scopes) != nil, let count = n.intValue, let s = scopes.intValue else { return nil }
        return (BigInt.fallingFactorial(d, count).power(s), d.power(count * s))
    }

    private static func exactProbability(space d: BigInt, count n: BigInt, scopes: BigInt, digits: Int) -> (
        ScientificDecimal, ScientificDecimal
    )? {
        guard let (num, den) = exactComplement(space: d, count: n, scopes: scopes) else { return nil }
        return (
            ScientificDecimal.exact(numerator: den - num, denominator: den, significantDigits: digits),
            ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: digits)
        )
    }

    /// S·C(n, 2)/d = S·n(n−1)/(2d): the expected number of colliding pairs (within scopes), exact to
    /// `digits` digits.
    public static func expectedCollisions(space d: BigInt, count n: BigInt, scopes: BigInt = BigInt(1), digits: Int = significantDigits)
        -> ScientificDecimal
    {
        ScientificDecimal.exact(numerator: scopes * n * (n - BigInt(1)), denominator: d.shifted(1), significantDigits: digits)
    }

    /// What the popular calculators compute: `1 − exp(−n(n−1)/(2d))` in double precision.
    /// Returned beside the exact value to show how far it drifts; 0 when it underflows.
    public static func doubleApproximation(space d: BigInt, count n: BigInt, scopes: BigInt = BigInt(1)) -> Double {
        let nd = n.doubleValue
        let dd = d.doubleValue
        return 1 - exp(-scopes.doubleValue * nd * (nd - 1) / (2 * dd))
    }
}
