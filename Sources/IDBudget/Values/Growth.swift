import Precise

/// A rate that compounds continuously: r(t) = r₀·(1 + g)^(t/period).
///
/// Written `40%/y` (g = 0.4 a year), `3%/mo`, or `2x/y` (doubling a year: N x per period means 1 + g = N).
/// The ids minted over a lifetime T are the integral of the rate,
///
///     N(T) = r₀ · period/ln(1 + g) · ((1 + g)^(T/period) − 1),
///
/// rounded up; g = 0 is the constant rate, N = ⌈r₀·T⌉. See <doc:ArrivalModels>.
public struct Growth: Sendable, CustomStringConvertible {
    /// 1 + g as an exact fraction (at least 1).
    public let factor: (numerator: BigInt, denominator: BigInt)
    /// The period the factor applies to, in seconds, exactly.
    public let period: (numerator: BigInt, denominator: BigInt)
    public let text: String

    /// Parses `40%/y`, `3%/mo`, `2x/y`, `0%/y` (no growth), and periods of any length: `2x/18mo`,
    /// `2x/1.5y` (the same growth as `4x/3y`); units as in rates and lifetimes (case-sensitive).
    public init(parsing text: String) throws(InputError) {
        let trimmed = text.trimmingSpaces
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let mark = parts[0].last, mark == "%" || mark == "x" || mark == "X" else {
            throw InputError("'\(text)' is not a growth; write a percentage or a factor per period, e.g. 40%/y, 3%/mo or 2x/y")
        }
        // A bare unit (`y`) is one of it; otherwise an amount with a unit, as a lifetime is written.
        let periodText = String(parts[1])
        let periodSeconds: (numerator: BigInt, denominator: BigInt)
        if let unit = TimeUnit(periodText) {
            periodSeconds = unit.seconds
        } else if periodText.first.map({ $0.isNumber || ".-+".contains($0) }) == true {
            do { periodSeconds = try Lifetime(parsing: periodText).seconds } catch {
                throw InputError("'\(text)': the period \(error.message)")
            }
        } else {
            throw TimeUnit.unknown(periodText, in: text)
        }
        let number = parts[0].dropLast()
        guard let amount = ExactDecimal(number) else {
            throw InputError(
                number.hasPrefix("-")
                    ? "'\(text)' is a decline; growth must be 0 or more, e.g. 40%/y"
                    : "'\(text)' is not a growth; write e.g. 40%/y, 3%/mo or 2x/y")
        }
        guard amount.log10Magnitude < 100 else { throw InputError("'\(text)' is too large; give under 1e100 per period") }
        let (num, den) = amount.fraction
        if mark == "%" {
            factor = (den * BigInt(100) + num, den * BigInt(100))
        } else {
            guard num >= den else {
                throw InputError("'\(text)' shrinks the rate; a factor per period is at least 1x (1x is no growth)")
            }
            factor = (num, den)
        }
        period = periodSeconds
        self.text = trimmed
    }

    public var description: String { text }

    /// Whether the rate stays constant (0%, 1x).
    public var isNone: Bool { factor.numerator == factor.denominator }

    /// Bounds on ln(1 + g) at `precision` bits.
    func logFactorBounds(precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let (fLo, fHi) = BigFloat.bounds(numerator: factor.numerator, denominator: factor.denominator, precision: p + 8)
        return (fLo.log(precision: p, rounding: .down), fHi.log(precision: p, rounding: .up))
    }

    /// Bounds on `seconds`/period.
    func periods(_ seconds: (numerator: BigInt, denominator: BigInt), precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        BigFloat.bounds(
            numerator: seconds.numerator * period.denominator, denominator: seconds.denominator * period.numerator, precision: p)
    }

    /// Bounds on the ids minted over `lifetime` from rate r₀: r₀·P·expm1(u·y)/y with y = ln(1 + g),
    /// u = T/P. expm1(u·y)/y rises with y, so each end comes from one end of y.
    func countBounds(rate: Rate, lifetime: Lifetime, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let (yLo, yHi) = logFactorBounds(precision: p + 16)
        let (uLo, uHi) = periods(lifetime.seconds, precision: p + 16)
        let (rpLo, rpHi) = BigFloat.bounds(
            numerator: rate.perSecond.numerator * period.numerator, denominator: rate.perSecond.denominator * period.denominator,
            precision: p + 16)
        let q = p + 16
        // expm1(u·y)/y rises with y from u at y = 0: where ln(1 + g) rounds down to 0 (a tiny g), u is
        // the lower end.
        let lo =
            yLo.isZero
            ? uLo.multiplied(by: rpLo, precision: p, rounding: .down)
            : uLo.multiplied(by: yLo, precision: q, rounding: .down).expm1(precision: q, rounding: .down)
                .divided(by: yLo, precision: q, rounding: .down).multiplied(by: rpLo, precision: p, rounding: .down)
        let hi = uHi.multiplied(by: yHi, precision: q, rounding: .up).expm1(precision: q, rounding: .up)
            .divided(by: yHi, precision: q, rounding: .up).multiplied(by: rpHi, precision: p, rounding: .up)
        return (lo, hi)
    }

    /// ⌈N(T)⌉, certified: the bounds are narrowed until both round up to the same integer (N(T) is
    /// never an integer for g > 0: ln(1 + g) is transcendental).
    public func count(rate: Rate, over lifetime: Lifetime) throws(InputError) -> BigInt {
        if isNone { return rate.count(over: lifetime) }
        // Enough bits for the integer part, then 64 more.
        let (yLo, _) = logFactorBounds(precision: 64)
        let u = BigFloat(
            numerator: lifetime.seconds.numerator * period.denominator, denominator: lifetime.seconds.denominator * period.numerator,
            precision: 64, rounding: .up)
        let growthBits = u.multiplied(by: yLo, precision: 64, rounding: .up).doubleValue / 0.6931471805599453
        // Past 2^100000 the counts have tens of thousands of digits and no answer comes within a second.
        guard growthBits.isFinite, growthBits < 100_000 else {
            throw InputError(
                "'\(text)' over \(lifetime) multiplies the rate by more than 2^100000; give a shorter lifetime or less growth")
        }
        let base = Swift.max(0, rate.count(over: lifetime).log2Magnitude) + Swift.max(0, growthBits)
        var p = Int(base) + 96
        while p <= 1 << 23 {
            let (lo, hi) = countBounds(rate: rate, lifetime: lifetime, precision: p)
            guard lo.isFinite, hi.isFinite else {
                p *= 2
                continue
            }
            let a = lo.integer(rounding: .up)
            if a == hi.integer(rounding: .up) { return a }
            p *= 2
        }
        throw InputError("could not certify the count for growth '\(text)'")
    }

    /// Bounds on the seconds until the integral of the rate reaches `count`:
    /// t = P/y · log1p(count·y/(r₀·P)), which falls as y = ln(1 + g) rises.
    func secondsBounds(toReach count: BigInt, rate: Rate, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let c = BigFloat(count, precision: Swift.max(2, count.bitWidth), rounding: .nearest)
        return secondsBounds(toReach: (c, c), rate: rate, precision: p)
    }

    /// The same for a count known by bounds (a mean, say).
    func secondsBounds(toReach count: (lo: BigFloat, hi: BigFloat), rate: Rate, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let q = p + 16
        let (yLo, yHi) = logFactorBounds(precision: q)
        // c = count/(r₀·P).
        let (kLo, kHi) = BigFloat.bounds(
            numerator: rate.perSecond.denominator * period.denominator, denominator: rate.perSecond.numerator * period.numerator,
            precision: q)
        let cLo = count.lo.multiplied(by: kLo, precision: q, rounding: .down)
        let cHi = count.hi.multiplied(by: kHi, precision: q, rounding: .up)
        let (pLo, pHi) = BigFloat.bounds(numerator: period.numerator, denominator: period.denominator, precision: q)
        let lo = cLo.multiplied(by: yHi, precision: q, rounding: .down).log1p(precision: q, rounding: .down)
            .divided(by: yHi, precision: q, rounding: .down).multiplied(by: pLo, precision: p, rounding: .down)
        let hi = cHi.multiplied(by: yLo, precision: q, rounding: .up).log1p(precision: q, rounding: .up)
            .divided(by: yLo, precision: q, rounding: .up).multiplied(by: pHi, precision: p, rounding: .up)
        return (lo, hi)
    }
}

extension Growth {
    /// `percent` a year, exactly as `--growth <percent>%/y`.
    public static func percentPerYear(_ percent: Double) throws(InputError) -> Growth {
        try Growth(parsing: percent.decimalText + "%/y")
    }

    /// Multiplied by `factor` every year, exactly as `--growth <factor>x/y`.
    public static func timesPerYear(_ factor: Double) throws(InputError) -> Growth {
        try Growth(parsing: factor.decimalText + "x/y")
    }
}
