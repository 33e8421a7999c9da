import Foundation
import Precise

/// A decimal literal held exactly: `significand × 10^exponent`.
///
/// `3.1536e14` is the integer 315360000000000, `1e-11` is 1/10^11: no binary rounding ever touches an input.
public struct ExactDecimal: Sendable, Equatable {
    public let significand: BigInt
    public let exponent: Int

    public init(significand: BigInt, exponent: Int) {
        self.significand = significand
        self.exponent = exponent
    }

    /// Parses `123`, `1.5`, `.5`, `3.1536e14`, `1E-11`, `1e+6`, `1_000_000`, and powers `2^64`, `2^-40`,
    /// `10^-12`; `nil` for anything else. A negative power is taken only when it is a terminating decimal
    /// (the base has no prime factors but 2 and 5), so it is still held exactly. Only non-negative
    /// values; exponents beyond ±10^6 are refused as absurd.
    public init?(_ text: some StringProtocol) {
        if let caret = text.firstIndex(of: "^") {
            // b^k, b^k+m or b^k-m (m whole): 2^64-1, 2^2097152-5, which no shell could pass as digits.
            let rest = text[text.index(after: caret)...]
            var exponentText = String(rest)
            var offset: BigInt? = nil
            var negative = false
            if let sign = rest.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) {
                exponentText = String(rest[..<sign])
                let m = rest[rest.index(after: sign)...]
                guard !m.isEmpty, m.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let v = BigInt(decimal: String(m)) else { return nil }
                offset = v
                negative = rest[sign] == "-"
            }
            guard let power = Self.power(String(text[..<caret]), exponentText) else { return nil }
            guard let offset else {
                self = power
                return
            }
            guard power.exponent == 0, !negative || offset <= power.significand else { return nil }
            self = ExactDecimal(significand: negative ? power.significand - offset : power.significand + offset, exponent: 0)
            return
        }
        // One pass over the bytes (a budget may have 130,000 digits): digits, one `.`, `_` between two
        // digits, then an optional exponent.
        let bytes = Array(text.utf8)
        func isDigit(_ j: Int) -> Bool { j >= 0 && j < bytes.count && bytes[j] >= 48 && bytes[j] <= 57 }
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count)
        var i = bytes.first == UInt8(ascii: "+") ? 1 : 0
        var dot = false
        var fractionDigits = 0
        scan: while i < bytes.count {
            switch bytes[i] {
            case 48...57:
                digits.append(bytes[i])
                if dot { fractionDigits += 1 }
            case UInt8(ascii: "_"):
                guard isDigit(i - 1), isDigit(i + 1) else { return nil }
            case UInt8(ascii: ".") where !dot:
                dot = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                break scan
            default:
                return nil
            }
            i += 1
        }
        var exp = 0
        if i < bytes.count {
            var expBytes: [UInt8] = []
            for j in (i + 1)..<bytes.count {
                if bytes[j] == UInt8(ascii: "_") {
                    guard isDigit(j - 1), isDigit(j + 1) else { return nil }
                } else {
                    expBytes.append(bytes[j])
                }
            }
            guard let value = Int(String(decoding: expBytes, as: UTF8.self)), value.magnitude <= 1_000_000 else { return nil }
            exp = value
        }
        guard !digits.isEmpty, let significand = BigInt(decimal: String(decoding: digits, as: UTF8.self)) else { return nil }
        self.significand = significand
        exponent = exp - fractionDigits
    }

    /// b^k for a whole base 1…10^6 and a whole k with |k·log10 b| ≤ 10^6.
    private static func power(_ baseText: String, _ kText: String) -> ExactDecimal? {
        guard baseText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let b = Int(baseText), b >= 1, b <= 1_000_000,
            let k = Int(kText), k.magnitude <= 100_000_000,
            Double(k.magnitude) * log10(Double(b)) <= 1_000_000
        else { return nil }
        if k >= 0 { return ExactDecimal(significand: BigInt.power(b, k), exponent: 0) }
        // 1/(2^a·5^c)^m = 2^(c·m)·5^(a·m) / 10^((a+c)·m)
        var rest = b
        var a = 0
        var c = 0
        while rest % 2 == 0 {
            rest /= 2
            a += 1
        }
        while rest % 5 == 0 {
            rest /= 5
            c += 1
        }
        guard rest == 1 else { return nil }
        let m = Int(k.magnitude)
        return ExactDecimal(significand: BigInt.power(2, c * m) * BigInt.power(5, a * m), exponent: -(a + c) * m)
    }

    public var isZero: Bool { significand.isZero }

    /// value = numerator / denominator, with the denominator a power of ten.
    public var fraction: (numerator: BigInt, denominator: BigInt) {
        exponent >= 0
            ? (significand * BigInt.power(10, exponent), BigInt(1))
            : (significand, BigInt.power(10, -exponent))
    }

    /// Approximate log10 of the value, for range checks before any exact work.
    public var log10Magnitude: Double {
        significand.isZero ? -.infinity : significand.log2Magnitude * 0.30102999566398120 + Double(exponent)
    }

    /// The value when it is a whole number.
    public var integerValue: BigInt? {
        let (num, den) = fraction
        return (num % den).isZero ? BigInt.exactQuotient(num, den) : nil
    }

    /// The nearest `Double` (±infinity, 0 beyond its range). A significand of thousands of digits is
    /// cut to its leading 40 first: writing all of 2^1048575 in decimal costs tens of milliseconds.
    public var doubleValue: Double {
        if significand.isZero { return 0 }
        let log10 = significand.log2Magnitude * 0.301_029_995_663_981_2 + Double(exponent)
        if log10 > 400 { return significand.signum > 0 ? .infinity : -.infinity }
        if log10 < -400 { return significand.signum > 0 ? 0 : -0.0 }
        if significand.bitWidth <= 4096 { return Double("\(significand)e\(exponent)") ?? .nan }
        let drop = Int(significand.log2Magnitude * 0.301_029_995_663_981_2) - 40
        return Double("\(significand / BigInt.power(10, drop))e\(exponent + drop)") ?? .nan
    }
}

extension StringProtocol {
    fileprivate func replacingOccurrences(of target: Character, with replacement: String) -> String {
        String(self).split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension ExactDecimal {
    /// Whether `text`, which `init?(_:)` refused, is a well-formed decimal whose exponent is past what
    /// it holds (|exponent| > 10^6): `true` when it is too large (`1e99999999`), `false` when too small
    /// (`1e-99999999`), `nil` when it is not such a number at all (or is zero, which is no range problem).
    public static func exponentOutOfRange(_ text: some StringProtocol) -> Bool? {
        let bytes = Array(text.utf8)
        let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
        guard let mark = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else { return nil }
        var mantissa = bytes[..<mark]
        if mantissa.first == UInt8(ascii: "+") { mantissa = mantissa.dropFirst() }
        guard mantissa.contains(where: isDigit),
            mantissa.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }),
            mantissa.filter({ $0 == UInt8(ascii: ".") }).count <= 1,
            mantissa.contains(where: { $0 >= 49 && $0 <= 57 })
        else { return nil }
        var exponent = bytes[(mark + 1)...].filter { $0 != UInt8(ascii: "_") }[...]
        let negative = exponent.first == UInt8(ascii: "-")
        if negative || exponent.first == UInt8(ascii: "+") { exponent = exponent.dropFirst() }
        guard !exponent.isEmpty, exponent.allSatisfy(isDigit) else { return nil }
        let digits = exponent.drop { $0 == 48 }
        // The mantissa's own digits move the value by at most their count; past 10^6 + that, it is out.
        let magnitude = digits.count > 18 ? Int.max : Int(String(decoding: digits, as: UTF8.self)) ?? Int.max
        guard magnitude > 1_000_000 else { return nil }
        return !negative
    }

    /// For `1e-99999999999999999999`, `2^-…`, `10^…`: a well-formed number whose exponent has too many
    /// digits for an Int, whether that exponent is negative; nil for anything else.
    public static func exponentBeyondInt(_ text: String) -> Bool? {
        let bytes = Array(text.utf8)
        let isDigit = { (b: UInt8) in b >= 48 && b <= 57 }
        guard let mark = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "^") }) else {
            return nil
        }
        let mantissa = bytes[..<mark]
        let wellFormed =
            bytes[mark] == UInt8(ascii: "^")
            ? (mantissa.elementsEqual("2".utf8) || mantissa.elementsEqual("10".utf8))
            : (mantissa.contains(where: isDigit) && mantissa.allSatisfy { isDigit($0) || $0 == UInt8(ascii: ".") }
                && mantissa.filter { $0 == UInt8(ascii: ".") }.count <= 1)
        var exponent = bytes[(mark + 1)...]
        let negative = exponent.first == UInt8(ascii: "-")
        if negative || exponent.first == UInt8(ascii: "+") { exponent = exponent.dropFirst() }
        guard wellFormed, exponent.count > 18, exponent.allSatisfy(isDigit) else { return nil }
        return negative
    }
}
