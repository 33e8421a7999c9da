import Foundation
import Precise

/// A ceiling on the collision probability, held exactly as the decimal the user wrote.
public struct Budget: Sendable, CustomStringConvertible {
    public let value: ExactDecimal
    public let text: String
    /// The value as numerator/denominator (a power of ten), computed once: ties and λ ask for it often.
    public let fraction: (numerator: BigInt, denominator: BigInt)
    /// λ's bounds by precision: `capacity` asks for the same million-bit λ at every step of its search.
    private let cache: LambdaCache

    /// Parses a probability strictly between 0 and 1: `1e-11`, `0.001`, `0.5`.
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingSpaces
        let parsed = ExactDecimal(trimmed)
        if parsed == nil, Self.isTinyPower(trimmed) {
            throw InputError("'\(text)' is below the 1e\(Limits.minProbabilityExponent) idbudget handles")
        }
        guard let value = parsed else {
            if let negative = ExactDecimal.exponentBeyondInt(trimmed) ?? ExactDecimal.exponentOutOfRange(trimmed).map({ !$0 }) {
                throw InputError(
                    negative
                        ? "'\(text)' is below the 1e\(Limits.minProbabilityExponent) idbudget handles"
                        : "'\(text)' is not strictly between 0 and 1; give a probability such as 1e-11")
            }
            if trimmed.hasPrefix("-") {
                throw InputError("'\(text)' is negative; give a probability strictly between 0 and 1, such as 1e-11")
            }
            throw InputError("'\(text)' is not a number; give a probability such as 1e-11 or 0.001")
        }
        let (num, den) = value.fraction
        guard !num.isZero, num < den else {
            throw InputError("'\(text)' is not strictly between 0 and 1; give a probability such as 1e-11")
        }
        guard value.log10Magnitude >= Double(Limits.minProbabilityExponent) else {
            throw InputError("'\(text)' is below the 1e\(Limits.minProbabilityExponent) idbudget handles")
        }
        self.value = value
        self.text = trimmed
        self.fraction = (num, den)
        cache = LambdaCache()
    }

    public var description: String { text }

    /// Whether `text` is a power b^-k (b ≥ 2 and k whole numbers) that `ExactDecimal` refused: only one
    /// too small for it to write out, i.e. below the floor, however many digits k has (2^-100000000).
    private static func isTinyPower(_ text: String) -> Bool {
        let parts = text.split(separator: "^", omittingEmptySubsequences: false)
        guard parts.count == 2, let base = Int(parts[0]), base >= 2, parts[1].hasPrefix("-") else { return false }
        let k = parts[1].dropFirst()
        return !k.isEmpty && k.allSatisfy { $0.isASCII && $0.isNumber }
    }

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

    /// λ as a Double, or its log when λ underflows; for first guesses only.
    var log2LogComplement: Double {
        let x = value.doubleValue
        if x >= 0.5 {
            // Near 1 a double rounds P to 1: take λ from the exact complement instead.
            let (num, den) = fraction
            let lambda = (den.log2Magnitude - (den - num).log2Magnitude) * M_LN2
            return log2(Swift.max(lambda, 0.5))
        }
        if x > 1e-300 { return log2(-log1p(-x)) }
        return value.log10Magnitude / 0.30102999566398120
    }
}

/// A few λ bounds kept by precision (a lock, since budgets are shared across threads).
private final class LambdaCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Int: (lo: BigFloat, hi: BigFloat)] = [:]

    /// The entry at p, or the least precise one above it up to 4p: tighter bounds are still bounds,
    /// and cost far less than a second λ.
    func get(_ p: Int) -> (lo: BigFloat, hi: BigFloat)? {
        lock.lock()
        defer { lock.unlock() }
        if let hit = entries[p] { return hit }
        guard let q = entries.keys.filter({ $0 > p && $0 / 4 <= p }).min() else { return nil }
        return entries[q]
    }

    func set(_ p: Int, _ bounds: (lo: BigFloat, hi: BigFloat)) {
        lock.lock()
        defer { lock.unlock() }
        if entries.count >= 8 { entries.removeAll() }
        entries[p] = bounds
    }
}
