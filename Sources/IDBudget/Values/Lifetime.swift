import Precise

/// A span of time, held exactly as a rational number of seconds.
public struct Lifetime: Sendable, CustomStringConvertible {
    public let seconds: (numerator: BigInt, denominator: BigInt)
    public let text: String

    /// Parses `10y`, `30d`, `36h`, `90m` (minutes), `6M` (months), `45s`, `250ms`, `2w`, `1.5y`, `1e3h`.
    /// Units are systemd.time's, case-sensitive (`m` minutes, `M` months): a year is 365 days, a month a
    /// twelfth of it (2,628,000 s), and the span is held exactly.
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingSpaces
        // The unit is the run of letters at the end, so exponents stay with the number: 1e3h, 2.5E2d.
        guard let last = trimmed.last, last.isLetter,
            let split = trimmed.lastIndex(where: { !$0.isLetter }).map({ trimmed.index(after: $0) })
        else {
            throw InputError("'\(text)' is not an amount with a unit; write e.g. 10y, 6M, 1e3h, 30d, 36h, 90m, 45s or 250ms")
        }
        let unitText = String(trimmed[split...])
        guard let unit = TimeUnit(unitText) else { throw TimeUnit.unknown(unitText, in: text) }
        let number = trimmed[..<split]
        guard let amount = ExactDecimal(number) else {
            switch ExactDecimal.exponentOutOfRange(number) {
            case true?: throw InputError("'\(text)' is too large (out of range); give at most 1e39 of a unit")
            case false?: throw InputError("'\(text)' is too small (out of range); give at least 1e-1000000 of a unit")
            case nil:
                throw InputError(
                    number.hasPrefix("-")
                        ? "'\(text)' is negative; a duration must be positive, e.g. 10y or 1.5y"
                        : "'\(text)' is not a number with a unit; write e.g. 10y or 1.5y")
            }
        }
        guard !amount.isZero else { throw InputError("'\(text)' is not a positive duration; write e.g. 10y or 1.5y") }
        guard amount.log10Magnitude < 40 else { throw InputError("'\(text)' is too large (out of range); give at most 1e39 of a unit") }
        let (num, den) = amount.fraction
        seconds = (num * unit.seconds.numerator, den * unit.seconds.denominator)
        self.text = trimmed
    }

    public var description: String { text }
}

extension Lifetime {
    /// Whether two spellings name one unit of time as rates and lifetimes read them (`sec` and `s`,
    /// `M` and `months`; case-sensitive); false when either is no unit.
    public static func sameUnit(_ a: String, _ b: String) -> Bool {
        guard let x = TimeUnit(a.trimmingCharacters(in: .whitespaces)), let y = TimeUnit(b.trimmingCharacters(in: .whitespaces)) else {
            return false
        }
        return x == y
    }
}

/// A unit of time as systemd.time(7) writes it, case-sensitive: `m` is a minute, `M` a month.
enum TimeUnit: CaseIterable {
    case microsecond, millisecond, second, minute, hour, day, week, month, year

    /// Every spelling each unit accepts; matched exactly (`1Y`, `5MS` and `3S` are refused).
    var spellings: [String] {
        switch self {
        case .microsecond: ["us", "µs", "μs"]  // the micro sign and the Greek mu look alike
        case .millisecond: ["ms"]
        case .second: ["s", "sec", "secs", "second", "seconds"]
        case .minute: ["m", "min", "mins", "minute", "minutes"]
        case .hour: ["h", "hr", "hrs", "hour", "hours"]
        case .day: ["d", "day", "days"]
        case .week: ["w", "wk", "week", "weeks"]
        case .month: ["M", "mo", "month", "months"]
        case .year: ["y", "yr", "yrs", "year", "years"]
        }
    }

    init?(_ text: String) {
        guard let unit = Self.allCases.first(where: { $0.spellings.contains(text) }) else { return nil }
        self = unit
    }

    /// The units in words, for an error message (every unit; its long forms and plurals summed up).
    static let accepted =
        "us (µs), ms, s (sec), m (min), h (hr), d (day), w (wk), M (mo, month), y (yr), or plurals such as secs or hours; m is minutes, M months"

    /// Why `text` is not a unit, with every unit that is. `whole`, the value the unit was read from,
    /// is quoted first when it is more than the unit: `1</script>` reads as 1 per `script>`, and a
    /// message quoting only `script>` would not say where that came from.
    static func unknown(_ text: String, in whole: String? = nil) -> InputError {
        let shown = text.count > 24 ? "\(text.prefix(24))…" : text
        let hint = TimeUnit(text.lowercased()).map { u in " (units are case-sensitive: '\(text.lowercased())' is \(u.name))" } ?? ""
        let context =
            whole.map { $0.trimmingSpaces }.flatMap { $0 == text ? nil : $0 }.map { w in
                "'\(w.count > 40 ? "\(w.prefix(40))…" : w)': "
            } ?? ""
        return InputError("\(context)unknown time unit '\(shown)'\(hint); use \(accepted)")
    }

    var name: String {
        switch self {
        case .microsecond: "microseconds"
        case .millisecond: "milliseconds"
        case .second: "seconds"
        case .minute: "minutes"
        case .hour: "hours"
        case .day: "days"
        case .week: "weeks"
        case .month: "months"
        case .year: "years"
        }
    }

    /// Exact seconds. A year is 365 days and a month a twelfth of it: 365/12 days = 2,628,000 s.
    var seconds: (numerator: BigInt, denominator: BigInt) {
        switch self {
        case .microsecond: (1, 1_000_000)
        case .millisecond: (1, 1000)
        case .second: (1, 1)
        case .minute: (60, 1)
        case .hour: (3600, 1)
        case .day: (86_400, 1)
        case .week: (604_800, 1)
        case .month: (2_628_000, 1)
        case .year: (31_536_000, 1)
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces; by index, so a budget of 100,000 digits costs nothing.
    var trimmingSpaces: String {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else { return "" }
        return String(self[first...last])
    }
}
