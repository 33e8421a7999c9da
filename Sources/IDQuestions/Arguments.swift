import Foundation
import IDBudget
import Precise

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
    /// more (as `bits`, or an alphabet's size or symbols and a length: `alphabet-size=2^20&length=410`),
    /// a length of 1000 or more, a number of 10^300 or more (`1e600000`, `2^1200`, a 2^2097152
    /// space), a budget of 10^−1000 or less, or 300 digits written — or a volume that comes to 10^300
    /// ids or more though no value does: a rate over a lifetime, times nodes and scopes, or a growth
    /// compounded over it (`1/s` growing `1000x/y` for `1e4y` is 10^30000 ids). `bits=2097152`,
    /// `bits=2^21` and `bits=2.097152e6` are all heavy; a value of 0 is not (it is small, or refused).
    /// A server runs such questions apart (idbudget-serve's heavy lane); the rest, almost every real
    /// one, never wait behind them.
    public var isHeavy: Bool {
        for (name, value) in values {
            if Self.anyText.contains(name) { continue }
            if value.unicodeScalars.lazy.filter({ ("0"..."9").contains($0) }).count >= 300 { return true }
            guard let log10 = Self.log10Magnitude(value), log10.isFinite else { continue }
            if name == "bits" && log10 >= 3.913_36 { return true }  // log10(8191) = 3.913337, log10(8192) = 3.913390
            if name == "length" && log10 >= 3 { return true }
            if log10 >= 300 || log10 <= -1000 { return true }
        }
        // A space of 8192 bits or more written as an alphabet and a length: length × log2(size).
        if let length = values["length"].flatMap(Self.log10Magnitude), length.isFinite {
            let size: Double? =
                values["alphabet-size"].flatMap(Self.log10Magnitude).map { Foundation.pow(10, $0) }
                ?? values["symbols"].map { Double($0.count) }
            if let size, size > 1, Foundation.pow(10, length) * Foundation.log2(size) >= 8191.5 { return true }
        }
        // Every value is below 10^300 here, so parsing them is cheap.
        return (log10Volume ?? 0) >= 300
    }

    /// Seconds answering `command` may take on one core, roughly (within a factor of 2 on the machine
    /// measured), for the one slow step a value can force however the rest is written: the exact count
    /// under growth, ⌈r₀·P/ln(1 + g)·((1 + g)^(T/P) − 1)⌉, evaluated with all D of its digits (exp
    /// and log at 3.3·D bits), and what is computed from it at that precision. Measured for
    /// `probability`: about 0.8 s at D = 80,000, growing as D^1.3 (2.9 s at 230,000, 8 s at 640,000);
    /// `length` takes about twice that (1.8 s at 100,000), `plan` — every alphabet's length — about
    /// 3.3 times (2.9 s at 100,000, 6 s at 150,000). 0 with no growth: every other step of every
    /// question takes well under a second. A server can refuse at once what would run past its
    /// deadline anyway, instead of holding a worker (GMP can not be stopped midway).
    /// A growth past what the layer takes (the rate multiplied by more than 2^100000 over the
    /// lifetime) is no cost: it is refused as bad input (400), never as too slow (503).
    public func estimatedSeconds(for command: Question.Command) -> Double {
        guard values["growth"] != nil, let digits = log10Volume, digits > 1000 else { return 0 }
        if let growth = log10Growth, growth > 100_000 * Foundation.log10(2.0) { return 0 }
        let count = 0.8 * Foundation.pow(digits / 80_000, 1.3)
        switch command {
        case .length: return 2 * count
        case .plan: return 3.3 * count
        default: return count
        }
    }

    /// log10 of the factor the growth multiplies the rate by over the lifetime, (1 + g)^(T/period),
    /// roughly; nil without a growth and a lifetime that parse.
    var log10Growth: Double? {
        guard let growth = values["growth"].flatMap({ try? Growth(parsing: $0) }),
            let lifetime = values["lifetime"].flatMap({ try? Lifetime(parsing: $0) })
        else { return nil }
        return Foundation.pow(10, Self.log10(lifetime.seconds) - Self.log10(growth.period)) * Self.log10(growth.factor)
    }

    /// log10 of the ids the volume's values come to, roughly: the count (or the rate times the
    /// lifetime in seconds), times nodes, scopes and the count per scope, times the growth compounded
    /// over the lifetime (``log10Growth``); nil when there is no volume or a value does not parse.
    var log10Volume: Double? {
        var total = 0.0
        for name in ["count", "nodes", "scopes", "count-per-scope"] {
            if let m = values[name].flatMap(Self.log10Magnitude), m.isFinite, m > 0 { total += m }
        }
        if let rate = values["rate"].flatMap({ try? Rate(parsing: $0) }),
            let lifetime = values["lifetime"].flatMap({ try? Lifetime(parsing: $0) })
        {
            total += Swift.max(0, Self.log10(rate.perSecond) + Self.log10(lifetime.seconds))
        }
        if let growth = log10Growth { total += Swift.max(0, growth) }
        return total.isFinite ? total : nil
    }

    /// log10 of an exact fraction, roughly (from its parts' bit lengths).
    private static func log10(_ f: (numerator: BigInt, denominator: BigInt)) -> Double {
        (f.numerator.log2Magnitude - f.denominator.log2Magnitude) * Foundation.log10(2.0)
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
