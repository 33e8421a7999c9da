import Foundation

/// A request's query parameters, named as the CLI's options without the dashes (`rate`,
/// `max-probability`), values in the CLI's syntax. Refused as the CLI refuses its arguments: an unknown
/// name, a name given twice, or a value that is not text.
public struct Query: Sendable {
    /// The longest value taken, in characters (Unicode scalars): the largest values the CLI takes are
    /// written far shorter (`2^2097152`, `1e-100000`). With every value but `symbols` printable ASCII,
    /// an endpoint's parameters at this length, percent-encoded, stay under the 80 KB the HTTP parser
    /// takes for a request head.
    public static let maxValueLength = 1024
    /// The parameters whose value may be any text (a custom alphabet's symbols, an id to inspect, which
    /// the CLI takes as it comes); every other one is printable ASCII (and µ, for microseconds).
    public static let anyText: Set<String> = ["symbols", "id"]
    /// The most parameters in one query.
    public static let maxParameters = 32

    private(set) var values: [String: String] = [:]

    /// Whether answering may take long, judged on the values, however written: a space of 8192 bits or
    /// more, a length of 1000 or more, a number of 10^300 or more (`1e600000`, `2^1200`, a 2^2097152
    /// space), a budget of 10^−1000 or less, or 300 digits written. `bits=2097152`, `bits=2^21` and
    /// `bits=2.097152e6` are all heavy. Such questions run in the heavy lane of ``Compute``; the rest,
    /// almost every real one, never wait behind them.
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

    /// Parses `a=1&b=2` (`+` is a space, `%XX` a byte of UTF-8), taking only the names in `allowed`:
    /// another name is refused, or with `ignoringUnknown` passed over (the page: a shared link picks up
    /// `utm_source` or `fbclid` on its way, and the person who follows it still wants the answer).
    public init(_ query: String?, allowed: Set<String>, ignoringUnknown: Bool = false) throws(Refusal) {
        guard let query, !query.isEmpty else { return }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true)
        // Ignored names still count, at a looser limit: the head's size bounds them anyway.
        let limit = ignoringUnknown ? Self.maxParameters * 8 : Self.maxParameters
        guard pairs.count <= limit else {
            throw Refusal.usage("query", "\(pairs.count) parameters; give at most \(limit)")
        }
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], argument: "query")
            guard allowed.contains(name) else {
                if ignoringUnknown { continue }
                let known = allowed.sorted().joined(separator: ", ")
                throw Refusal.usage(
                    "--\(name.prefix(40))", "unknown parameter; this endpoint takes \(known.isEmpty ? "none" : known)")
            }
            // The CLI's name for it: an option, or `id` (inspect's id is positional).
            let argument = name == "id" ? "id" : "--\(name)"
            let value = parts.count == 2 ? try Self.decode(parts[1], argument: argument) : ""
            guard value.unicodeScalars.count <= Self.maxValueLength else {
                throw Refusal.usage(
                    argument, "the value is \(value.unicodeScalars.count) characters long; give at most \(Self.maxValueLength)")
            }
            // µ (micro sign) and μ (Greek mu): the CLI takes `1/µs` and `2x/μs`.
            guard
                Self.anyText.contains(name)
                    || value.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) || $0 == "\u{B5}" || $0 == "\u{3BC}" })
            else {
                throw Refusal.usage(argument, "'\(value.prefix(40))' is not printable ASCII; numbers and units are, e.g. rate=1e6/s")
            }
            guard values[name] == nil else {
                throw Refusal.usage(argument, "given more than once; give it once")
            }
            values[name] = value
        }
    }

    /// `+` a space, `%XX` a byte; the bytes must be UTF-8, and are kept as they are (a leading
    /// byte-order mark too, which Foundation's decoding drops).
    private static func decode(_ text: Substring, argument: String) throws(Refusal) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var it = text.utf8.makeIterator()
        func hex(_ c: UInt8?) -> UInt8? {
            guard let c else { return nil }
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        while let c = it.next() {
            switch c {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let hi = hex(it.next()), let lo = hex(it.next()) else {
                    throw Refusal.usage(argument, "not valid percent-encoded UTF-8")
                }
                bytes.append(hi << 4 | lo)
            default: bytes.append(c)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw Refusal.usage(argument, "not valid percent-encoded UTF-8")
        }
        return decoded
    }

    /// Values given directly (the page's form, turned into the CLI's parameters).
    init(values: [String: String]) { self.values = values }

    public subscript(_ name: String) -> String? { values[name] }

    /// The parameters in name order (one question, however its parameters were ordered).
    var sortedPairs: [(name: String, value: String)] {
        values.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// The value, with an empty one taken as not given (an HTML form sends empty fields).
    func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return value
    }
}
