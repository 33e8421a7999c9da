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
    /// the CLI takes as it comes); every other one is printable ASCII.
    public static let anyText: Set<String> = ["symbols", "id"]
    /// The most parameters in one query.
    public static let maxParameters = 32

    private(set) var values: [String: String] = [:]

    /// Whether answering may take long: a space of 8192 bits or more, a length of 1000 or more, a number
    /// written with an exponent of 1000 or more (`1e600000`, `2^65536`, `1e-100000`), or 300 digits.
    /// Such questions run in the heavy lane of ``Compute``; the rest, almost every real one, never wait
    /// behind them.
    public var isHeavy: Bool {
        for (name, value) in values {
            if name == "symbols" { continue }
            if name == "bits", let b = Int(value), b >= 8192 { return true }
            if name == "length", let n = Int(value), n >= 1000 { return true }
            var digits = 0
            var exponent = 0
            var inExponent = false
            for c in value.unicodeScalars {
                if c == "e" || c == "E" || c == "^" {
                    inExponent = true
                    exponent = 0
                } else if ("0"..."9").contains(c) {
                    digits += 1
                    if inExponent { exponent = Swift.min(exponent * 10 + Int(c.value - 48), 1_000_000) }
                } else if c != "-" && c != "+" {
                    inExponent = false
                }
                if exponent >= 1000 || digits >= 300 { return true }
            }
        }
        return false
    }

    /// Parses `a=1&b=2` (`+` is a space, `%XX` a byte of UTF-8), taking only the names in `allowed`.
    public init(_ query: String?, allowed: Set<String>) throws(Refusal) {
        guard let query, !query.isEmpty else { return }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true)
        guard pairs.count <= Self.maxParameters else {
            throw Refusal.usage("query", "\(pairs.count) parameters; give at most \(Self.maxParameters)")
        }
        for pair in pairs {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], argument: "query")
            guard allowed.contains(name) else {
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
            guard Self.anyText.contains(name) || value.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
                throw Refusal.usage(argument, "'\(value.prefix(40))' is not printable ASCII; numbers and units are, e.g. rate=1e6/s")
            }
            guard values[name] == nil else {
                throw Refusal.usage(argument, "given more than once; give it once")
            }
            values[name] = value
        }
    }

    private static func decode(_ text: Substring, argument: String) throws(Refusal) -> String {
        guard let decoded = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
            throw Refusal.usage(argument, "not valid percent-encoded UTF-8")
        }
        return decoded
    }

    /// Values given directly (the page's form, turned into the CLI's parameters).
    init(values: [String: String]) { self.values = values }

    public subscript(_ name: String) -> String? { values[name] }

    /// The value, with an empty one taken as not given (an HTML form sends empty fields).
    func nonEmpty(_ name: String) -> String? {
        guard let value = values[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return value
    }
}
