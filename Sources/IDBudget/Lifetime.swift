import Precise

/// A span of time, held exactly as a rational number of seconds.
public struct Lifetime: Sendable, CustomStringConvertible {
    public let seconds: (numerator: BigInt, denominator: BigInt)
    public let text: String

    /// Parses `10y`, `30d`, `36h`, `90m`, `45s`, `250ms`, `2w`, `1.5y`, `1e3h`. A year is 365 days.
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingSpaces
        // The unit is the run of letters at the end, so exponents stay with the number: 1e3h, 2.5E2d.
        guard let last = trimmed.last, last.isLetter,
              let split = trimmed.lastIndex(where: { !$0.isLetter }).map({ trimmed.index(after: $0) })
        else {
            throw InputError("'\(text)' is not an amount with a unit; write e.g. 10y, 1e3h, 30d, 36h, 90m, 45s or 250ms")
        }
        let unitText = String(trimmed[split...])
        guard let unit = TimeUnit(unitText) else {
            throw InputError("unknown time unit '\(unitText)'; use ms, s, m (or min), h, d, w or y")
        }
        guard let amount = ExactDecimal(trimmed[..<split]), !amount.isZero else {
            throw InputError("'\(text)' is not a positive duration; write e.g. 10y or 1.5y")
        }
        guard amount.log10Magnitude < 40 else { throw InputError("'\(text)' is absurdly long; give at most 1e39 of a unit") }
        let (num, den) = amount.fraction
        seconds = (num * unit.seconds.numerator, den * unit.seconds.denominator)
        self.text = trimmed
    }

    public var description: String { text }
}

enum TimeUnit {
    case millisecond, second, minute, hour, day, week, year

    init?(_ text: String) {
        switch text.lowercased() {
        case "ms": self = .millisecond
        case "s", "sec", "secs", "second", "seconds": self = .second
        case "m", "min", "mins", "minute", "minutes": self = .minute
        case "h", "hr", "hrs", "hour", "hours": self = .hour
        case "d", "day", "days": self = .day
        case "w", "wk", "week", "weeks": self = .week
        case "y", "yr", "yrs", "year", "years": self = .year
        default: return nil
        }
    }

    var seconds: (numerator: BigInt, denominator: BigInt) {
        switch self {
        case .millisecond: (1, 1000)
        case .second: (1, 1)
        case .minute: (60, 1)
        case .hour: (3600, 1)
        case .day: (86_400, 1)
        case .week: (604_800, 1)
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
