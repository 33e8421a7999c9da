import Foundation
import IDQuestions

/// A request's query string read into ``Arguments`` (named as the CLI's options without the dashes,
/// values in the CLI's syntax). Refused as the CLI refuses its arguments: an unknown name, a name given
/// twice, or a value that is not text.
public enum Query {
    /// The longest value taken, in characters (Unicode scalars): the largest values the CLI takes are
    /// written far shorter (`2^2097152`, `1e-100000`). With every value but `symbols` printable ASCII,
    /// an endpoint's parameters at this length, percent-encoded, stay under the 80 KB the HTTP parser
    /// takes for a request head.
    public static let maxValueLength = 1024
    /// The most parameters in one query.
    public static let maxParameters = 32

    /// Parses `a=1&b=2` (`+` is a space, `%XX` a byte of UTF-8), taking only the names in `allowed`:
    /// another name is refused, or with `ignoringUnknown` passed over (the page: a shared link picks up
    /// `utm_source` or `fbclid` on its way, and the person who follows it still wants the answer).
    public static func arguments(_ query: String?, allowed: Set<String>, ignoringUnknown: Bool = false) throws(Refusal) -> Arguments {
        guard let query, !query.isEmpty else { return Arguments() }
        var values: [String: String] = [:]
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
                    String(name.prefix(40)), "unknown parameter; this endpoint takes \(known.isEmpty ? "none" : known)")
            }
            // A refusal names the parameter as it was sent (`rate`), as the one layer's refusals do.
            let argument = name
            let value = parts.count == 2 ? try Self.decode(parts[1], argument: argument) : ""
            guard value.unicodeScalars.count <= Self.maxValueLength else {
                throw Refusal.usage(
                    argument, "the value is \(value.unicodeScalars.count) characters long; give at most \(Self.maxValueLength)")
            }
            // µ (micro sign) and μ (Greek mu): the CLI takes `1/µs` and `2x/μs`; the typeset characters
            // people paste into the page (`1 in 10¹¹`, `1e−11`, a no-break space in `1 000 000`).
            guard
                Arguments.anyText.contains(name)
                    || value.unicodeScalars.allSatisfy({
                        (0x20...0x7E).contains($0.value) || $0 == "\u{B5}" || $0 == "\u{3BC}" || TypedText.typeset.contains($0)
                    })
            else {
                // In no one front end's syntax and for no one field: the page shows it under the field's label.
                throw Refusal.usage(
                    argument, "'\(value.prefix(40))' is not a number or a unit; write it in plain ASCII digits and letters, e.g. 1e6 or 10y"
                )
            }
            guard values[name] == nil else {
                throw Refusal.usage(argument, "given more than once; give it once")
            }
            values[name] = value
        }
        return Arguments(values)
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
}
