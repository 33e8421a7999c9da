import Precise

/// A span of time, held exactly as a rational number of seconds.
public struct Lifetime: Sendable, CustomStringConvertible {
    public let seconds: (numerator: BigInt, denominator: BigInt)
    public let text: String

    /// Parses `10y`, `30d`, `36h`, `90m`, `45s`, `250ms`, `2w`, `1.5y`. A year is 365 days.
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingSpaces
        guard let split = trimmed.firstIndex(where: { $0.isLetter }) else {
            throw InputError("'\(text)' has no unit; write e.g. 10y, 30d, 36h, 90m, 45s or 250ms")
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

/// Identifiers minted per unit of time, held exactly.
public struct Rate: Sendable, CustomStringConvertible {
    public let perSecond: (numerator: BigInt, denominator: BigInt)
    public let text: String

    /// Parses `1e6/s`, `2000/min`, `5/ms`, `100/h`, `/d` (one a day).
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw InputError("'\(text)' is not a rate; write a count per unit, e.g. 1e6/s, 2000/min or 5/ms")
        }
        guard let unit = TimeUnit(String(parts[1])) else {
            throw InputError("unknown time unit '\(parts[1])' in '\(text)'; use ms, s, min, h, d, w or y")
        }
        let amount: ExactDecimal
        if parts[0].isEmpty {
            amount = ExactDecimal(significand: BigInt(1), exponent: 0)
        } else if let a = ExactDecimal(parts[0]), !a.isZero {
            amount = a
        } else {
            throw InputError("'\(text)' is not a positive rate; write e.g. 1e6/s")
        }
        guard amount.log10Magnitude < Double(Limits.maxCountDigits) else {
            throw InputError("'\(text)' is absurdly fast; give under 1e\(Limits.maxCountDigits) per unit")
        }
        let (num, den) = amount.fraction
        perSecond = (num * unit.seconds.denominator, den * unit.seconds.numerator)
        self.text = trimmed
    }

    public var description: String { text }

    private init(perSecond: (numerator: BigInt, denominator: BigInt), text: String) {
        self.perSecond = perSecond
        self.text = text
    }

    /// This rate from each of `k` nodes together.
    public func times(_ k: BigInt) -> Rate {
        k == BigInt(1) ? self : Rate(perSecond: (perSecond.numerator * k, perSecond.denominator), text: "\(k) × \(text)")
    }

    /// ⌈rate × lifetime⌉: a fraction of an identifier still counts as one, so budgets err on the safe side.
    public func count(over lifetime: Lifetime) -> BigInt {
        BigInt.ceilingQuotient(
            perSecond.numerator * lifetime.seconds.numerator,
            perSecond.denominator * lifetime.seconds.denominator)
    }

    /// Seconds until `count` identifiers have been minted, as an exact fraction.
    public func seconds(toReach count: BigInt) -> (numerator: BigInt, denominator: BigInt) {
        (count * perSecond.denominator, perSecond.numerator)
    }
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
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
