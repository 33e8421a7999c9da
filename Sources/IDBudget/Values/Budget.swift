import Foundation
import Precise

/// A ceiling on the collision probability, held exactly as the decimal the user wrote.
public struct Budget: Sendable, CustomStringConvertible {
    public let value: ExactDecimal
    public let text: String
    /// The value as numerator/denominator (a power of ten), computed once: ties and λ ask for it often.
    public let fraction: (numerator: BigInt, denominator: BigInt)
    /// λ's bounds by precision: `capacity` asks for the same million-bit λ at every step of its search.
    /// λ's bounds by precision (``logComplementBounds(precision:)``, in Math).
    let cache: LambdaCache

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
final class LambdaCache: @unchecked Sendable {
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
