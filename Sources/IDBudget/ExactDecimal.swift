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

    /// Parses `123`, `1.5`, `.5`, `3.1536e14`, `1E-11`, `1_000_000`; `nil` for anything else.
    /// Only non-negative values; exponents beyond ±10^6 are refused as absurd.
    public init?(_ text: some StringProtocol) {
        // `_` groups digits: it must stand between two digits (`1_000`, not `5_` or `_5`).
        let chars = Array(text.utf8)
        for (i, c) in chars.enumerated() where c == UInt8(ascii: "_") {
            let isDigit = { (j: Int) in j >= 0 && j < chars.count && chars[j] >= 48 && chars[j] <= 57 }
            guard isDigit(i - 1) && isDigit(i + 1) else { return nil }
        }
        let s = text.replacingOccurrences(of: "_", with: "")
        var mantissa = Substring(s)
        var exp = 0
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = s[..<e]
            let expText = s[s.index(after: e)...]
            guard let value = Int(expText), Swift.abs(value) <= 1_000_000 else { return nil }
            exp = value
        }
        if mantissa.hasPrefix("+") { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
              (whole + fraction).utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let digits = BigInt(decimal: whole + fraction == "" ? "0" : whole + fraction)
        else { return nil }
        significand = digits
        exponent = exp - fraction.count
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

    public var doubleValue: Double { Double("\(significand)e\(exponent)") ?? .nan }
}

private extension StringProtocol {
    func replacingOccurrences(of target: Character, with replacement: String) -> String {
        String(self).split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
