import Foundation
import Precise

/// A non-negative number as significant decimal digits and a power of ten: d.ddd… × 10^exponent.
///
/// idbudget prints every probability this way so that no value underflows, however small: 1 − 10^−1000
/// and 10^−19000 are both ordinary values here.
public struct ScientificDecimal: Sendable, CustomStringConvertible {
    /// The significant digits, first digit non-zero; empty for zero.
    public let digits: String
    /// The power of ten of the first digit; unbounded, since 1 − p can be 10^−(10^40).
    public let exponent: BigInt
    /// When true the value is 10^−x, x = d.ddd… × 10^exponent: how a complement too small to write as
    /// d.ddd × 10^e is given. (Its mantissa would need x to absolute accuracy — millions of bits at
    /// 2^(2^21) — and tell a reader nothing the exponent does not.) Printed `10^-4.34…e+19728`.
    public let isPowerOfTen: Bool

    public static let zero = ScientificDecimal(digits: "", exponent: 0)

    public init(digits: String, exponent: BigInt, isPowerOfTen: Bool = false) {
        self.digits = digits
        self.exponent = exponent
        self.isPowerOfTen = isPowerOfTen && !digits.isEmpty
    }

    public init(digits: String, exponent: Int) {
        self.init(digits: digits, exponent: BigInt(exponent))
    }

    /// One, written with `significantDigits` digits.
    public static func one(significantDigits: Int) -> ScientificDecimal {
        ScientificDecimal(digits: "1" + String(repeating: "0", count: significantDigits - 1), exponent: 0)
    }

    public var isZero: Bool { digits.isEmpty }

    /// `1.83639477847277033856633261466e-11`; `0` for zero.
    public var description: String { (isPowerOfTen ? "10^-" : "") + format(digits) }

    private func format(_ d: String) -> String {
        guard let first = d.first else { return "0" }
        let rest = d.dropFirst()
        let sign = exponent.signum < 0 ? "" : "+"
        return "\(first)\(rest.isEmpty ? "" : ".")\(rest)e\(sign)\(exponent)"
    }

    /// The nearest `Double` (0 or ∞ beyond its range).
    public var doubleValue: Double { isZero || isPowerOfTen ? 0 : Double(description) ?? .nan }

    /// The value rounded half-up to `count` significant digits, for display.
    public func rounded(to count: Int) -> ScientificDecimal {
        guard digits.count > count, count > 0 else { return self }
        var kept = Array(digits.utf8.prefix(count))
        let next = digits.utf8[digits.utf8.index(digits.utf8.startIndex, offsetBy: count)]
        var exponent = self.exponent
        if next >= UInt8(ascii: "5") {
            var i = kept.count - 1
            while i >= 0 && kept[i] == UInt8(ascii: "9") {
                kept[i] = UInt8(ascii: "0")
                i -= 1
            }
            if i >= 0 {
                kept[i] += 1
            } else {
                kept.insert(UInt8(ascii: "1"), at: 0)
                kept.removeLast()
                exponent = exponent + BigInt(1)
            }
        }
        return ScientificDecimal(digits: String(decoding: kept, as: UTF8.self), exponent: exponent, isPowerOfTen: isPowerOfTen)
    }

    /// A short form for tables: `1.84e-11`.
    public func short(_ count: Int = 3) -> String {
        let r = rounded(to: count)
        var d = r.digits
        while d.count > 1 && d.hasSuffix("0") { d.removeLast() }
        return ScientificDecimal(digits: d, exponent: r.exponent, isPowerOfTen: isPowerOfTen).description
    }

    /// "1 in X" for a probability: X = 1/self to three significant digits.
    public var oneIn: String {
        guard !isZero else { return "never" }
        if isPowerOfTen { return "1 in 10^\(format(digits))" }
        // 1/(m·10^e) = (1/m)·10^−e with m in [1, 10).
        let m = Double("\(digits.prefix(17).first!).\(digits.dropFirst().prefix(16))") ?? 1
        var inverse = 1 / m
        guard let pe = exponent.intValue, pe.magnitude < 1_000_000_000 else { return "1 in 1e\(-exponent)" }
        var e = -pe
        if inverse < 1 {
            inverse *= 10
            e -= 1
        }
        let mantissa = (inverse * 100).rounded() / 100
        if e < 6 {
            let value = mantissa * pow(10, Double(e))
            // Below 100 a whole number hides too much: p = 0.70 is 1 in 1.43, not 1 in 1.
            if value < 100 { return "1 in \(String(format: "%.3g", value))" }
            return "1 in \(Int(value.rounded()))"
        }
        return "1 in \(trimmed(mantissa))e\(e)"
    }

    /// `numerator / denominator` (both positive) rounded to nearest, ties to even, at `significantDigits`.
    public static func exact(numerator: BigInt, denominator: BigInt, significantDigits: Int) -> ScientificDecimal {
        precondition(numerator.signum >= 0 && denominator.signum > 0)
        if numerator.isZero { return .zero }
        // Guess the exponent from the bit sizes, then correct it by at most a step or two.
        var e = Int(((numerator.log2Magnitude - denominator.log2Magnitude) * 0.30102999566398120).rounded(.down))
        let low = BigInt.power(10, significantDigits - 1)
        let high = BigInt.power(10, significantDigits)
        while true {
            let shift = significantDigits - 1 - e
            let (num, den) =
                shift >= 0
                ? (numerator * BigInt.power(10, shift), denominator)
                : (numerator, denominator * BigInt.power(10, -shift))
            var q = num / den
            if q >= high {
                e += 1
                continue
            }
            if q < low {
                e -= 1
                continue
            }
            let twiceRemainder = (num - q * den) * BigInt(2)
            if twiceRemainder > den || (twiceRemainder == den && (q % BigInt(2)) == BigInt(1)) {
                q = q + BigInt(1)
            }
            if q == high { return ScientificDecimal(digits: "1" + String(repeating: "0", count: significantDigits - 1), exponent: e + 1) }
            return ScientificDecimal(digits: q.description, exponent: e)
        }
    }
}

private func trimmed(_ x: Double) -> String {
    var s = "\(x)"
    if s.hasSuffix(".0") { s.removeLast(2) }
    return s
}

extension ScientificDecimal: Comparable, Hashable {
    /// The digits without trailing zeros: 5.000e-1 and 5e-1 are the same number.
    private var significant: Substring {
        var d = Substring(digits)
        while d.count > 1 && d.hasSuffix("0") { d = d.dropLast() }
        return d
    }

    /// Numeric equality, whatever the number of digits written.
    public static func == (a: ScientificDecimal, b: ScientificDecimal) -> Bool {
        a.isZero == b.isZero
            && (a.isZero || (a.isPowerOfTen == b.isPowerOfTen && a.exponent == b.exponent && a.significant == b.significant))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(isZero)
        hasher.combine(isPowerOfTen)
        if !isZero {
            hasher.combine(exponent)
            hasher.combine(significant)
        }
    }

    /// Numeric order (digit strings of different lengths compare as if zero-padded).
    public static func < (a: ScientificDecimal, b: ScientificDecimal) -> Bool {
        if a.isZero || b.isZero { return !b.isZero }
        if a.isPowerOfTen != b.isPowerOfTen { return a.isPowerOfTen }  // 10^−x here is below 10^−(10^1000)
        if a.isPowerOfTen {
            return ScientificDecimal(digits: b.digits, exponent: b.exponent) < ScientificDecimal(digits: a.digits, exponent: a.exponent)
        }
        if a.exponent != b.exponent { return a.exponent < b.exponent }
        let n = Swift.max(a.digits.count, b.digits.count)
        func pad(_ s: String) -> String { s + String(repeating: "0", count: n - s.count) }
        return pad(a.digits) < pad(b.digits)
    }

    /// Parses the form ``description`` prints (and any plain decimal), exactly.
    public init?(_ text: String) {
        if text == "0" {
            self = .zero
            return
        }
        if text.hasPrefix("10^-") {
            guard let x = ScientificDecimal(String(text.dropFirst(4))), !x.isPowerOfTen, !x.isZero else { return nil }
            self.init(digits: x.digits, exponent: x.exponent, isPowerOfTen: true)
            return
        }
        guard let value = ExactDecimal(text), !value.isZero else { return nil }
        var digits = value.significand.description
        let exponent = value.exponent + digits.count - 1
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        self.init(digits: digits, exponent: exponent)
    }
}

extension ScientificDecimal: Codable {
    /// Reads exactly what ``description`` writes — `0`, `d.ddd…e±N`, `10^-d.ddd…e±N` — keeping every
    /// digit (trailing zeros too: they say how many digits are certified), so an answer decoded and
    /// encoded again is the same text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(printed: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text.prefix(40))' is not a decimal as idbudget prints it"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The printed form, digits kept as written; nil for any other text.
    init?(printed text: String) {
        if text == "0" {
            self = .zero
            return
        }
        var rest = Substring(text)
        let power = rest.hasPrefix("10^-")
        if power { rest = rest.dropFirst(4) }
        guard let e = rest.firstIndex(of: "e") else { return nil }
        var mantissa = rest[..<e]
        var exponentText = rest[rest.index(after: e)...]
        if exponentText.hasPrefix("+") { exponentText = exponentText.dropFirst() }
        let isDigit = { (c: Character) in c >= "0" && c <= "9" }
        guard let first = mantissa.first, first != "0", isDigit(first) else { return nil }
        mantissa = mantissa.dropFirst()
        if !mantissa.isEmpty {
            guard mantissa.first == ".", mantissa.count > 1 else { return nil }
            mantissa = mantissa.dropFirst()
        }
        let body = exponentText.hasPrefix("-") ? exponentText.dropFirst() : exponentText
        guard mantissa.allSatisfy(isDigit), !body.isEmpty, body.allSatisfy(isDigit),
            let exponent = BigInt(decimal: String(exponentText))
        else { return nil }
        self.init(digits: String(first) + mantissa, exponent: exponent, isPowerOfTen: power)
    }
}

extension Double {
    /// The nearest `Double` to a printed answer (0 below its range, ∞ above): `Double(answer.collision.probability)`.
    public init(_ value: ScientificDecimal) { self = value.doubleValue }
}
