import Foundation
import Precise

/// When a budget breaks at a rate: see <doc:ArrivalModels>.
///
/// The k-th new id is minted at k/rate (with growth, when the rate's integral reaches k). The breach is
/// the time of the id that takes p over the budget (new id capacity + 1); the median, of the id that
/// takes p to ½ or more (the smallest count with p ≥ ½); the mean, E[t(N)]: at a constant rate with
/// nothing stored, the time of id number E[N], E[N] = Σ_{k≥0} P(no collision among k) = 1 + Q(d)
/// (Ramanujan's Q); under growth or with ids stored, `MeanTime`'s sum.
public struct WhenFigures: Codable, Sendable, Equatable {
    /// The start, `YYYY-MM-DD` (UTC), when a date was asked for.
    public let from: String?
    /// Seconds from the start to the breach, 30 certified digits.
    public let breachSeconds: String
    /// The start plus `breachSeconds`, rounded down to the second, ISO 8601 UTC; absent past year 9999.
    public let breachDate: String?
    /// Seconds to the median first collision, 30 certified digits.
    public let medianSeconds: String
    /// Seconds to the mean first collision, E[t(N)]: 30 certified digits at a constant rate with no ids
    /// stored (d ≤ 2^20 or d ≥ 2^40); under growth, with ids stored, or between, the digits its bounds
    /// share (`method` says how many). Absent where idbudget does not bound it (several scopes; the
    /// steepest growth, where its bounds share fewer than 2 digits).
    public let meanSeconds: String?
    /// How the mean was computed, in words.
    public let method: String
}

extension Birthday {
    /// Bounds on E[N] = Σ_{k≥0} ∏_{i<k}(1 − i/d) = 1 + Q(d), or nil where idbudget does not bound it.
    ///
    /// Up to d = 2^20 the sum is taken term by term with outward rounding at 192 bits, its tail after
    /// term k bounded by t_k·d/k (the terms fall at least as fast as (1 − k/d)^j). From d = 2^40 on,
    /// Knuth's expansion (TAOCP 1.2.11.3) to the d^−5/2 term, whose remainder is O(d^−3) relative
    /// (below 10^−36 there): its value at 256 bits, widened by 2^−118 relative each way.
    static func meanCountBounds(space d: BigInt) -> (lo: BigFloat, hi: BigFloat, method: String)? {
        let p = 192
        if d <= BigInt(1 << 20), let n = d.intValue {
            var lo = BigFloat(0, precision: p)
            var hi = BigFloat(0, precision: p)
            var tLo = BigFloat(1, precision: p)
            var tHi = BigFloat(1, precision: p)
            let dd = BigFloat(n, precision: p)
            var k = 0
            while true {
                lo = lo.adding(tLo, precision: p, rounding: .down)
                hi = hi.adding(tHi, precision: p, rounding: .up)
                // t_{k+1} = t_k·(1 − k/d).
                let f = BigFloat(n - k, precision: p)
                tLo = tLo.multiplied(by: f, precision: p, rounding: .down).divided(by: dd, precision: p, rounding: .down)
                tHi = tHi.multiplied(by: f, precision: p, rounding: .up).divided(by: dd, precision: p, rounding: .up)
                k += 1
                if tHi.isZero || k > n { return (lo, hi, "E[N] summed term by term (exact to the printed digits)") }
                let tail = tHi.multiplied(by: BigInt(n), precision: 64, rounding: .up).divided(by: BigInt(k), precision: 64, rounding: .up)
                if tail.timesPowerOfTwo(150) <= lo {
                    return (lo, hi.adding(tail, precision: p, rounding: .up), "E[N] summed term by term (exact to the printed digits)")
                }
            }
        }
        guard d >= BigInt.power(2, 40) else { return nil }
        let q = 256
        func f(_ x: Int) -> BigFloat { BigFloat(x, precision: q) }
        let dd = BigFloat(d, precision: Swift.max(q, d.bitWidth), rounding: .nearest)
        let halfPi = BigFloat.pi(precision: q, rounding: .nearest).divided(by: f(2), precision: q, rounding: .nearest)
        let s = halfPi.multiplied(by: dd, precision: q, rounding: .nearest).squareRoot(precision: q, rounding: .nearest)
        let u = halfPi.divided(by: dd, precision: q, rounding: .nearest).squareRoot(precision: q, rounding: .nearest)
        let inv = f(1).divided(by: dd, precision: q, rounding: .nearest)
        func t(_ a: Int, _ b: Int, _ x: BigFloat) -> BigFloat {
            x.multiplied(by: f(a), precision: q, rounding: .nearest).divided(by: f(b), precision: q, rounding: .nearest)
        }
        let terms = [
            s, t(2, 3, f(1)), t(1, 12, u), t(-4, 135, inv), t(1, 288, u.multiplied(by: inv, precision: q, rounding: .nearest)),
            t(8, 2835, inv.multiplied(by: inv, precision: q, rounding: .nearest)),
        ]
        let value = terms.dropFirst().reduce(terms[0]) { $0.adding($1, precision: q, rounding: .nearest) }
        let slack = value.timesPowerOfTwo(-118)
        return (
            value.subtracting(slack, precision: q, rounding: .down), value.adding(slack, precision: q, rounding: .up),
            "E[N] = 1 + Q(d) from Knuth's asymptotic expansion to d^−5/2 (remainder below 10^−36 relative for d ≥ 2^40)"
        )
    }
}

extension Planner {
    /// Seconds until `count` (bounds) ids are minted, to 30 certified digits.
    static func secondsToMint(bounds: (lo: BigFloat, hi: BigFloat), rate: Rate, growth: Growth?) throws -> ScientificDecimal? {
        var p = 160
        while p <= 1 << 12 {
            let lo: BigFloat
            let hi: BigFloat
            if let growth {
                (lo, hi) = growth.secondsBounds(toReach: bounds, rate: rate, precision: p)
            } else {
                let (kLo, kHi) = BigFloat.bounds(numerator: rate.perSecond.denominator, denominator: rate.perSecond.numerator, precision: p)
                lo = bounds.lo.multiplied(by: kLo, precision: p, rounding: .down)
                hi = bounds.hi.multiplied(by: kHi, precision: p, rounding: .up)
            }
            if let s = Birthday.sameDigits(lo, hi, Birthday.significantDigits, shift: BigInt(0)) { return s }
            p *= 2
        }
        return nil
    }

    /// The date `seconds` after the start of `from` (UTC), ISO 8601, rounded down to the second; nil
    /// past year 9999.
    static func date(_ from: Date, plus seconds: ScientificDecimal) -> String? {
        let value = seconds.doubleValue
        guard value.isFinite, value < 3e11 else { return nil }
        let whole = (value).rounded(.down)
        // Double holds whole seconds exactly up to 2^53; the 30 digits decide the floor.
        var floor = whole
        if let exact = Self.wholeSeconds(seconds) { floor = Double(exact) }
        // Proleptic Gregorian, whole seconds since the Unix epoch (Foundation's formatter turns Julian
        // before 1582).
        let text = UTCTime.iso(seconds: Int64(from.timeIntervalSince1970.rounded(.down)) + Int64(floor))
        return text.hasPrefix("+") || text.hasPrefix("-") || text.count != 20 ? nil : text
    }

    /// ⌊seconds⌋ from the decimal digits, when it fits an Int.
    static func wholeSeconds(_ s: ScientificDecimal) -> Int? {
        guard let e = s.exponent.intValue else { return nil }
        if s.isZero || e < 0 { return 0 }
        guard e < 18 else { return nil }
        // The first e + 1 digits, as many zeros after them as they fall short (no NSString padding:
        // this runs for every row of every schedule the server answers).
        var whole = 0
        var taken = 0
        for digit in s.digits.utf8.prefix(e + 1) {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            whole = whole * 10 + Int(digit - UInt8(ascii: "0"))
            taken += 1
        }
        for _ in taken..<(e + 1) { whole *= 10 }
        return whole
    }

    /// Parses `YYYY-MM-DD` as midnight UTC, in the proleptic Gregorian calendar (ISO 8601's, before
    /// 1582 too; Foundation's calendar would switch to the Julian one there).
    public static func startDate(parsing text: String) throws(InputError) -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let y = Int(parts[0]), y >= 1, let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), (1...31).contains(d)
        else { throw InputError("'\(text)' is not a date; write YYYY-MM-DD, e.g. 2026-01-01") }
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard d <= days[m - 1] else {
            throw InputError("'\(text)' is not a day of the calendar; write YYYY-MM-DD, e.g. 2026-01-01")
        }
        // Howard Hinnant's days_from_civil: days since 1970-01-01.
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Date(timeIntervalSince1970: TimeInterval((era * 146_097 + doe - 719_468) * 86_400))
    }

    /// Today at midnight UTC.
    public static var today: Date {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        return cal.startOfDay(for: Date())
    }

    static func dayText(_ date: Date) -> String {
        String(UTCTime.iso(seconds: Int64(date.timeIntervalSince1970.rounded(.down))).prefix(10))
    }

    /// The `when` of a capacity without time buckets.
    static func when(
        space d: BigInt, scopes: BigInt, budget: Budget, capacity: BigInt, total: BigInt, existing: BigInt, rate: Rate,
        growth: Growth?, from: Date?
    ) throws -> WhenFigures {
        let breachCount = total >= existing ? capacity + BigInt(1) : BigInt(0)
        let breach = try secondsToMint(breachCount, rate: rate, growth: growth)
        let half = try Budget(parsing: "0.5")
        let c = try Birthday.capacity(space: d, scopes: scopes, budget: half)
        var median = c + BigInt(1)
        if let (num, den) = Birthday.exactComplement(space: d, count: c, scopes: scopes), num * BigInt(2) == den { median = c }
        let medianNew = median > existing ? median - existing : BigInt(0)
        let medianSeconds = try secondsToMint(medianNew, rate: rate, growth: growth)
        var mean: ScientificDecimal? = nil
        var method = "median: the new id that takes p to 1/2 or more, the smallest such count (\(median) in all)"
        let growing = growth.map { !$0.isNone } ?? false
        if !growing, existing.isZero, scopes == BigInt(1), let (lo, hi, how) = Birthday.meanCountBounds(space: d) {
            mean = try secondsToMint(bounds: (lo, hi), rate: rate, growth: growth)
            method += "; mean: \(how)"
        } else if scopes == BigInt(1) {
            // Under growth t(k) is concave and t(E[N]) is later than the mean time; with ids stored the
            // clock starts at the E-th id. The mean is E[t(N)] itself, to the digits its bounds share
            // (and so for 2^20 < d < 2^40 at a constant rate, where E[N] has no certified form here).
            if let (value, digits) = MeanTime.figure(
                space: d, existing: existing, rate: rate, growth: growth, digits: Birthday.significantDigits)
            {
                mean = value
                method +=
                    "; mean: E[t(N)], the time of each count weighted by its probability, to the \(digits) digits its bounds share"
                    + (d <= BigInt(1 << 20) ? " (summed term by term)" : " (the sum bounded by integrals, within O(1/√d))")
            } else {
                method +=
                    "; mean: not computed \(growing ? "under growth" : existing.signum > 0 ? "with ids already stored" : "at this space") for this store and rate"
            }
        } else {
            method += "; mean: not certified over several scopes"
        }
        return WhenFigures(
            from: from.map(dayText), breachSeconds: breach.description, breachDate: from.flatMap { date($0, plus: breach) },
            medianSeconds: medianSeconds.description, meanSeconds: mean?.description, method: method)
    }

    /// The `when` of Poisson time buckets: the budget breaks in bucket B* + 1, the median in the first
    /// bucket where p over all so far reaches ½; the mean (constant rate) is b/p₁, p₁ one bucket's p,
    /// counting time to the end of the bucket with the first collision (a geometric number of buckets).
    static func when(poisson model: PoissonBuckets, lasting: BigInt, from: Date?) throws -> WhenFigures {
        let (bn, bd) = model.bucketSeconds
        let breach = ScientificDecimal.exact(numerator: lasting * bn, denominator: bd, significantDigits: Birthday.significantDigits)
        let medianBuckets = try model.lastingBuckets(budget: Budget(parsing: "0.5")) + BigInt(1)
        let median = ScientificDecimal.exact(
            numerator: medianBuckets * bn, denominator: bd, significantDigits: Birthday.significantDigits)
        var mean: ScientificDecimal? = nil
        var method = "breach: the end of the last whole bucket within budget; median: the end of the first bucket where p reaches 1/2"
        if model.growth == nil {
            let one = model.with(buckets: BigInt(1))
            mean = try meanOfBuckets(bucketSeconds: model.bucketSeconds) { p in try one.logBounds(precision: p) }
            method += "; mean: bucket length / p of one bucket (a geometric number of buckets)"
        } else if let (value, digits) = growingMean(model) {
            mean = value
            method +=
                "; mean: bucket length × Σ_j P(no collision in the first j buckets) as the rate grows (bounded by e^C·E₁(C) integrals), to the \(digits) digits its bounds share"
        } else {
            method += "; mean: not computed for these growing buckets"
        }
        return WhenFigures(
            from: from.map(dayText), breachSeconds: breach.description, breachDate: from.flatMap { date($0, plus: breach) },
            medianSeconds: median.description, meanSeconds: mean?.description, method: method)
    }

    /// The `when` of even arrivals into time buckets: the budget breaks in bucket F* + 1, the median in
    /// the first bucket where p over all so far reaches ½; the mean, where every bucket holds the same
    /// λ ids, is b/p₁ as for Poisson buckets (a geometric number of buckets); where they alternate
    /// between ⌊λ⌋ and ⌈λ⌉, `alternatingMean`'s bounds.
    static func when(even model: EvenBuckets, lasting: BigInt, from: Date?) throws -> WhenFigures {
        let (bn, bd) = model.bucketSeconds
        let digits = Birthday.significantDigits
        let breach = ScientificDecimal.exact(numerator: lasting * bn, denominator: bd, significantDigits: digits)
        let medianBuckets = (try model.lastingBuckets(budget: Budget(parsing: "0.5")) ?? BigInt(0)) + BigInt(1)
        let median = ScientificDecimal.exact(numerator: medianBuckets * bn, denominator: bd, significantDigits: digits)
        var mean: ScientificDecimal? = nil
        var method = "breach: the end of the last whole bucket within budget; median: the end of the first bucket where p reaches 1/2"
        if model.floorMean == model.ceilingMean {
            let one = model.with(wholeBuckets: BigInt(1))
            mean = try meanOfBuckets(bucketSeconds: model.bucketSeconds) { p in one.logBounds(precision: p) }
            method += "; mean: bucket length / p of one bucket (a geometric number of buckets)"
        } else if let (value, digits) = alternatingMean(model) {
            mean = value
            method +=
                "; mean: bucket length × Σ_j P(no collision in the first j buckets), buckets of ⌊λ⌋ and ⌈λ⌉ ids, to the \(digits) digits its bounds share"
        } else {
            method += "; mean: not computed for buckets of ⌊λ⌋ and ⌈λ⌉ ids"
        }
        return WhenFigures(
            from: from.map(dayText), breachSeconds: breach.description, breachDate: from.flatMap { date($0, plus: breach) },
            medianSeconds: median.description, meanSeconds: mean?.description, method: method)
    }

    /// The mean time to the first collision under growth, to the end of its bucket: the bucket length
    /// times `PoissonBuckets.growingMeanBuckets`' bounds, to the digits they share.
    static func growingMean(_ model: PoissonBuckets) -> (ScientificDecimal, Int)? {
        let p = 192
        guard let (lo, hi) = model.growingMeanBuckets(precision: p) else { return nil }
        let (sLo, sHi) = BigFloat.bounds(
            numerator: model.bucketSeconds.numerator, denominator: model.bucketSeconds.denominator, precision: p)
        let a = lo.multiplied(by: sLo, precision: p, rounding: .down)
        let b = hi.multiplied(by: sHi, precision: p, rounding: .up)
        return Birthday.sharedDigits(a, b)
    }

    /// The mean time to the first collision, to the end of its bucket, when even buckets alternate
    /// between ⌊λ⌋ and ⌈λ⌉ ids: the first j buckets hold ⌈jλ⌉ ids, so ⌈jφ⌉ of them hold ⌈λ⌉
    /// (φ = λ − ⌊λ⌋) and P(no collision in them) is S_j = e^(−ℓ_f·j)·ρ^⌈jφ⌉, ρ = e^(−(ℓ_c − ℓ_f)) (ℓ_f, ℓ_c
    /// one bucket's L at ⌊λ⌋ and ⌈λ⌉). With jφ ≤ ⌈jφ⌉ < jφ + 1 the mean b·Σ_j S_j lies between
    /// b·ρ/(1 − e^(−ℓ̄)) and b/(1 − e^(−ℓ̄)), ℓ̄ = (1 − φ)·ℓ_f + φ·ℓ_c: a relative 1 − ρ ≈ λ/d apart.
    /// Nil where they share fewer than 2 digits.
    static func alternatingMean(_ model: EvenBuckets) -> (ScientificDecimal, Int)? {
        let p = 192
        let (fLo, fHi) = LogComplement.bounds(space: model.space, count: model.floorMean, scopes: model.scopes, precision: p)
        let (cLo, cHi) = LogComplement.bounds(space: model.space, count: model.ceilingMean, scopes: model.scopes, precision: p)
        let (phiLo, phiHi) = BigFloat.bounds(
            numerator: model.mean.numerator % model.mean.denominator, denominator: model.mean.denominator, precision: p)
        // ℓ̄ = ℓ_f + φ·(ℓ_c − ℓ_f), the difference positive.
        let gapLo = cLo.subtracting(fHi, precision: p, rounding: .down)
        let gapHi = cHi.subtracting(fLo, precision: p, rounding: .up)
        guard gapLo.signum >= 0 else { return nil }
        let barLo = fLo.adding(phiLo.multiplied(by: gapLo, precision: p, rounding: .down), precision: p, rounding: .down)
        let barHi = fHi.adding(phiHi.multiplied(by: gapHi, precision: p, rounding: .up), precision: p, rounding: .up)
        let (sLo, sHi) = BigFloat.bounds(
            numerator: model.bucketSeconds.numerator, denominator: model.bucketSeconds.denominator, precision: p)
        // 1 − e^(−ℓ̄) rises with ℓ̄.
        let qLo = barLo.negated.expm1(precision: p, rounding: .up).negated
        let qHi = barHi.negated.expm1(precision: p, rounding: .down).negated
        guard qLo.signum > 0 else { return nil }
        let rho = gapHi.negated.exp(precision: p, rounding: .down)
        let lo = sLo.multiplied(by: rho, precision: p, rounding: .down).divided(by: qHi, precision: p, rounding: .down)
        let hi = sHi.divided(by: qLo, precision: p, rounding: .up)
        return Birthday.sharedDigits(lo, hi)
    }

    /// The mean time to the first collision when every bucket has the same ℓ (one bucket's L, from
    /// `logBounds` at a precision): a geometric number of buckets, counted to the end of the bucket
    /// with the first collision, b/p₁ = b/(−expm1(−ℓ)), which falls as ℓ rises. Nil when 30 digits are
    /// not certain by 4096 bits.
    static func meanOfBuckets(
        bucketSeconds: (numerator: BigInt, denominator: BigInt), logBounds: (Int) throws -> (lo: BigFloat, hi: BigFloat)
    ) throws -> ScientificDecimal? {
        var p = 160
        while p <= 1 << 12 {
            let (lo, hi) = try logBounds(p)
            let (sLo, sHi) = BigFloat.bounds(numerator: bucketSeconds.numerator, denominator: bucketSeconds.denominator, precision: p)
            let pHi = hi.negated.expm1(precision: p, rounding: .down).negated
            let pLo = lo.negated.expm1(precision: p, rounding: .up).negated
            if let mean = Birthday.sameDigits(
                sLo.divided(by: pHi, precision: p, rounding: .down), sHi.divided(by: pLo, precision: p, rounding: .up),
                Birthday.significantDigits, shift: BigInt(0))
            {
                return mean
            }
            p *= 2
        }
        return nil
    }
}
