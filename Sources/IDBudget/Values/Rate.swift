import Precise

/// Identifiers minted per unit of time, held exactly.
public struct Rate: Sendable, CustomStringConvertible {
    public let perSecond: (numerator: BigInt, denominator: BigInt)
    public let text: String

    /// Parses `1e6/s`, `2000/min`, `5/ms`, `100/h`, `1/d`, `100/M` (a month), with the units of
    /// ``Lifetime``: case-sensitive, `m` minutes and `M` months. The count is required (`/s` is refused:
    /// a missing number is a mistake more often than "one").
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw InputError("'\(text)' is not a rate; write a count per unit, e.g. 1e6/s, 2000/min or 5/ms")
        }
        // Spaces around the slash are a typist's (`1e3 / ms`), as around the whole value.
        let unitText = String(parts[1]).trimmingSpaces
        let countText = Substring(parts[0].trimmingSpaces)
        guard let unit = TimeUnit(unitText) else { throw TimeUnit.unknown(unitText, in: text) }
        let amount: ExactDecimal
        if countText.isEmpty {
            throw InputError("'\(text)' has no count; write a count per unit, e.g. 1\(trimmed), 1e6/s or 2000/min")
        } else if let a = ExactDecimal(countText) {
            guard !a.isZero else { throw InputError("'\(text)' is not a positive rate; write e.g. 1e6/s") }
            amount = a
        } else {
            switch ExactDecimal.exponentOutOfRange(countText) {
            case true?: throw InputError("'\(text)' is too large (out of range); give under 1e\(Limits.maxCountDigits) per unit")
            case false?: throw InputError("'\(text)' is too small (out of range); give at least 1e-1000000 per unit")
            case nil:
                throw InputError(
                    countText.hasPrefix("-")
                        ? "'\(text)' is negative; a rate must be positive, e.g. 1e6/s"
                        : "'\(text)' is not a rate; write a count per unit, e.g. 1e6/s")
            }
        }
        guard amount.log10Magnitude < Double(Limits.maxCountDigits) else {
            throw InputError("'\(text)' is too large (out of range); give under 1e\(Limits.maxCountDigits) per unit")
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

extension Rate: Comparable {
    public static func < (a: Rate, b: Rate) -> Bool {
        a.perSecond.numerator * b.perSecond.denominator < b.perSecond.numerator * a.perSecond.denominator
    }

    public static func == (a: Rate, b: Rate) -> Bool {
        a.perSecond.numerator * b.perSecond.denominator == b.perSecond.numerator * a.perSecond.denominator
    }
}
