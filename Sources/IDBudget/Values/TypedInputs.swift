import Precise

// The inputs as values, for code: `.perSecond(1e6)`, `.years(10)`, `Budget(1e-11)`. Each is the text
// the CLI would read, parsed by the same rules, so an answer from code is the CLI's answer, digit for
// digit, and says the same thing in its JSON (`rate: "1000000/s"`). A Double is taken at its shortest
// decimal form (0.1 is one tenth, not the binary double nearest it): what the programmer wrote.

extension Double {
    /// The shortest decimal that reads back as this double, in the syntax the parsers take.
    /// Whole numbers with six or more trailing zeros are written with an exponent (1e6, 25e8), as
    /// people write rates.
    var decimalText: String {
        var text = description
        if text.hasSuffix(".0") { text.removeLast(2) }
        // Swift writes 1e-09 and 1e+20; the parsers take them, but people write 1e-9 and 1e20.
        if let e = text.firstIndex(of: "e") {
            let exponent = text[text.index(after: e)...]
            let negative = exponent.hasPrefix("-")
            let digits = exponent.drop { $0 == "-" || $0 == "+" || $0 == "0" }
            text = String(text[...e]) + (negative ? "-" : "") + (digits.isEmpty ? "0" : String(digits))
        }
        guard text.allSatisfy(\.isNumber) else { return text }
        let zeros = text.reversed().prefix { $0 == "0" }.count
        return zeros >= 6 && zeros < text.count ? "\(text.dropLast(zeros))e\(zeros)" : text
    }
}

extension Rate {
    /// `perSecond` identifiers every second, exactly as `--rate <perSecond>/s`.
    public init(perSecond: Double) throws(InputError) { try self.init(parsing: perSecond.decimalText + "/s") }

    public static func perSecond(_ n: Double) throws(InputError) -> Rate { try Rate(parsing: n.decimalText + "/s") }
    public static func perMinute(_ n: Double) throws(InputError) -> Rate { try Rate(parsing: n.decimalText + "/min") }
    public static func perHour(_ n: Double) throws(InputError) -> Rate { try Rate(parsing: n.decimalText + "/h") }
    public static func perDay(_ n: Double) throws(InputError) -> Rate { try Rate(parsing: n.decimalText + "/d") }
}

extension Lifetime {
    public static func years(_ n: Double) throws(InputError) -> Lifetime { try Lifetime(parsing: n.decimalText + "y") }
    public static func months(_ n: Double) throws(InputError) -> Lifetime { try Lifetime(parsing: n.decimalText + "M") }
    public static func weeks(_ n: Double) throws(InputError) -> Lifetime { try Lifetime(parsing: n.decimalText + "w") }
    public static func days(_ n: Double) throws(InputError) -> Lifetime { try Lifetime(parsing: n.decimalText + "d") }
    public static func hours(_ n: Double) throws(InputError) -> Lifetime { try Lifetime(parsing: n.decimalText + "h") }
    public static func minutes(_ n: Double) throws(InputError) -> Lifetime { try Lifetime(parsing: n.decimalText + "min") }
    public static func seconds(_ n: Double) throws(InputError) -> Lifetime { try Lifetime(parsing: n.decimalText + "s") }

    /// A Swift `Duration`, held exactly (attoseconds are kept, as a decimal of seconds).
    public init(_ duration: Duration) throws(InputError) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else {
            throw InputError("\(duration) is not a positive duration; give e.g. .seconds(30)")
        }
        var fraction = String(attoseconds)
        fraction = String(repeating: "0", count: 18 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        try self.init(parsing: fraction.isEmpty ? "\(seconds)s" : "\(seconds).\(fraction)s")
    }
}

extension Budget {
    /// A probability strictly between 0 and 1, exactly as `--max-probability <p>`.
    public init(_ probability: Double) throws(InputError) { try self.init(parsing: probability.decimalText) }
}

// Literals in source: `budget: 1e-11`, `rate: "1e6/s"`, `lifetime: "10y"`. A literal is the programmer's
// own constant, so one the parser refuses (`budget: 1.5`) stops the program at its first use with the
// parser's message, as an out-of-range `Character` literal does; values read at run time go through
// the throwing initialisers instead.

extension Budget: ExpressibleByFloatLiteral, ExpressibleByStringLiteral {
    public init(floatLiteral value: Double) { self = Self.literal(value.decimalText) }
    public init(stringLiteral value: String) { self = Self.literal(value) }

    private static func literal(_ text: String) -> Budget {
        do { return try Budget(parsing: text) } catch { preconditionFailure("Budget literal: \(error.message)") }
    }
}

extension Rate: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        do { self = try Rate(parsing: value) } catch { preconditionFailure("Rate literal: \(error.message)") }
    }
}

extension Lifetime: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        do { self = try Lifetime(parsing: value) } catch { preconditionFailure("Lifetime literal: \(error.message)") }
    }
}

// Equal as numbers (`1e-3` and `0.001` are one budget; `60/min` and `1/s` one rate), encoded as the text
// the user wrote, which is what the JSON answers carry.

/// A value people write as text (`1e-11`, `1e6/s`, `10y`): encoded as that text, decoded by parsing it
/// (a text the parser refuses is a `DecodingError` carrying its message).
public protocol TextCodable: Codable {
    init(parsing text: String) throws(InputError)
    var text: String { get }
}

extension TextCodable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { self = try Self(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension Budget: Equatable, TextCodable {
    public static func == (a: Budget, b: Budget) -> Bool {
        a.fraction.numerator * b.fraction.denominator == b.fraction.numerator * a.fraction.denominator
    }
}

extension Lifetime: Equatable, TextCodable {
    public static func == (a: Lifetime, b: Lifetime) -> Bool {
        a.seconds.numerator * b.seconds.denominator == b.seconds.numerator * a.seconds.denominator
    }
}

extension Rate: TextCodable {}
