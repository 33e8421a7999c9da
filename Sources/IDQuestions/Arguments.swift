import Foundation
import IDBudget

/// A question's arguments as every front end has them: named as the CLI's options without the dashes
/// (`rate`, `max-probability`), values as text in the CLI's syntax (`1e6/s`). The CLI's options, the
/// server's query string and the page's form are each turned into one of these; ``Question`` reads it.
public struct Arguments: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The parameters whose value may be any text (a custom alphabet's symbols, an id to inspect, which
    /// the CLI takes as it comes); every other one is printable ASCII (and µ, for microseconds).
    public static let anyText: Set<String> = ["symbols", "id"]

    public private(set) var values: [String: String]

    public init(_ values: [String: String] = [:]) { self.values = values }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.values = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The value named `name`; setting nil removes it.
    public subscript(_ name: String) -> String? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The arguments in name order (one question, however its arguments were ordered).
    public var sortedPairs: [(name: String, value: String)] {
        values.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// The value, with an empty one taken as not given (an HTML form sends empty fields).
    public func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return value
    }
}

extension Arguments {
    /// Whether answering may take long, judged on the values, however written: a space of 8192 bits or
    /// more, a length of 1000 or more, a number of 10^300 or more (`1e600000`, `2^1200`, a 2^2097152
    /// space), a budget of 10^−1000 or less, or 300 digits written. `bits=2097152`, `bits=2^21` and
    /// `bits=2.097152e6` are all heavy. A server runs such questions apart (idbudget-serve's heavy lane);
    /// the rest, almost every real one, never wait behind them.
    public var isHeavy: Bool {
        for (name, value) in values {
            if Self.anyText.contains(name) { continue }
            if value.unicodeScalars.lazy.filter({ ("0"..."9").contains($0) }).count >= 300 { return true }
            guard let log10 = Self.log10Magnitude(value) else { continue }
            if name == "bits" && log10 >= 3.913_3 { return true }  // log10(8192) = 3.9133
            if name == "length" && log10 >= 3 { return true }
            if log10 >= 300 || log10 <= -1000 { return true }
        }
        return false
    }

    /// log10 of the number a value starts with (`1e6/s`, `2^21`, `2^2097152-1`, `0.5`, `10^-12`,
    /// `2x/y`), roughly (enough to place it against a threshold); nil when it starts with no number.
    static func log10Magnitude(_ text: String) -> Double? {
        let chars = Array(text.utf8)
        var i = 0
        func integer() -> (value: Double, digits: Int)? {
            var negative = false
            if i < chars.count, chars[i] == UInt8(ascii: "-") || chars[i] == UInt8(ascii: "+") {
                negative = chars[i] == UInt8(ascii: "-")
                i += 1
            }
            var v = 0.0
            var n = 0
            while i < chars.count, chars[i] >= 48, chars[i] <= 57 {
                v = Swift.min(v * 10 + Double(chars[i] - 48), 1e18)
                n += 1
                i += 1
            }
            return n == 0 ? nil : (negative ? -v : v, n)
        }
        // The mantissa: digits, a point, digits (300 digits or more are heavy before this is asked).
        while i < chars.count, (chars[i] >= 48 && chars[i] <= 57) || chars[i] == UInt8(ascii: "_") || chars[i] == UInt8(ascii: ".") {
            i += 1
        }
        guard i > 0, let m = Double(String(decoding: chars[0..<i].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)) else {
            return nil
        }
        let mantissa = m > 0 ? Foundation.log10(m) : -Double.infinity
        guard i < chars.count else { return mantissa }
        switch chars[i] {
        case UInt8(ascii: "^"):
            let base = Double(String(decoding: chars[0..<i].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)) ?? 10
            i += 1
            guard let (power, _) = integer() else { return mantissa }
            return power * Foundation.log10(Swift.max(base, 1))
        case UInt8(ascii: "e"), UInt8(ascii: "E"):
            i += 1
            guard let (exponent, _) = integer() else { return mantissa }
            return mantissa + exponent
        default:
            return mantissa
        }
    }

}
