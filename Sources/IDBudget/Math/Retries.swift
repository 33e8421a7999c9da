import Foundation
import Precise

/// Stores that check uniqueness and redraw on collision, exactly.
///
/// With N ids stored among d values, a new id drawn uniformly is fresh with probability 1 − N/d, so
///
/// * the fill is f = N/d;
/// * the next insert takes 1/(1 − f) = d/(d − N) attempts on average (geometric);
/// * storing N ids from empty (insert i sees i stored) takes Σ_{i<N} d/(d − i) = d·(H_d − H_{d−N})
///   attempts on average;
/// * with at most k attempts per insert, insert i fails with probability (i/d)^k, and some insert among
///   the N fails with probability P = 1 − ∏_{i<N} (1 − (i/d)^k). For k = 1 that is the birthday
///   bound p(d, N) itself.
///
/// Each value is certified to ``Birthday/significantDigits`` significant digits the way ``Birthday``
/// certifies p: rigorous bounds with directed rounding, the precision raised until both ends round to
/// the same digits, exact rationals where an exact tie could keep them apart.
public enum Retries {
    /// The largest `maxAttempts` taken (and k·log2(d) must stay within MPFR's exponent range).
    public static let maxAttemptsLimit = 100

    /// (i/d)^k down to 2^−(k·log2 d) must stay inside MPFR's exponent range (about ±2^30).
    static let maxExponentBits = 1 << 28

    /// Precision beyond which idbudget gives up rather than guess.
    static let maxPrecision = 1 << 16

    /// f = N/d, exact to `digits` digits.
    public static func fill(space d: BigInt, count n: BigInt, digits: Int = Birthday.significantDigits) throws -> ScientificDecimal {
        try check(space: d, count: n)
        return ScientificDecimal.exact(numerator: n, denominator: d, significantDigits: digits)
    }

    /// d/(d − N): the expected attempts of the next insert, which sees N stored. N < d.
    public static func expectedAttemptsNext(space d: BigInt, count n: BigInt, digits: Int = Birthday.significantDigits) throws
        -> ScientificDecimal
    {
        try check(space: d, count: n)
        try notFull(space: d, count: n)
        return ScientificDecimal.exact(numerator: d, denominator: d - n, significantDigits: digits)
    }

    /// Σ_{i<N} d/(d − i) = d·(H_d − H_{d−N}): the expected attempts to store N ids from empty. N ≤ d
    /// (at N = d, d·H_d: the last insert sees one value free).
    public static func expectedAttemptsTotal(space d: BigInt, count n: BigInt, digits: Int = Birthday.significantDigits) throws
        -> ScientificDecimal
    {
        try check(space: d, count: n)
        guard n <= d else {
            throw InputError(
                "\(Birthday.shortDescription(n)) ids are more than the space of \(Birthday.shortDescription(d)) values holds (N > d): insert d never succeeds, so the expected attempts are infinite; give a count up to the space"
            )
        }
        if n.isZero { return .zero }
        if n <= BigInt(256), n.bitWidth * d.bitWidth <= 1 << 16, let (num, den) = exactTotal(space: d, count: n) {
            return ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: digits)
        }
        var precision = Int(Double(digits) * 3.33) + 40
        var attempts = 0
        while precision <= maxPrecision {
            let (lo, hi) = totalBounds(d, n, precision)
            if let t = sameDigits(lo, hi, digits) { return t }
            attempts += 1
            if attempts >= 3, let (num, den) = exactTotal(space: d, count: n) {
                return ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: digits)
            }
            precision *= 2
        }
        throw InputError("could not certify \(digits) digits of the expected attempts within \(maxPrecision) bits")
    }

    /// P = 1 − ∏_{i<N} (1 − (i/d)^k): the probability that some insert among the N exhausts its k
    /// attempts. For k = 1 it is ``Birthday/probability(space:count:scopes:digits:)``'s p.
    public static func exhaustionProbability(
        space d: BigInt, count n: BigInt, maxAttempts k: Int, digits: Int = Birthday.significantDigits
    ) throws -> ScientificDecimal {
        try check(space: d, count: n)
        try checkAttempts(k, space: d)
        if n <= BigInt(1) { return .zero }
        // Insert d sees every value taken: it fails for certain.
        if n > d { return .one(significantDigits: digits) }
        if k == 1 { return try Birthday.probability(space: d, count: n, digits: digits).probability }
        // L ≥ 80: 1 − P = e^−L < 10^−34 rounds away at 30 digits.
        if lowerEstimate(d, n, k) >= BigFloat(80, precision: 64) { return .one(significantDigits: digits) }
        var precision = Int(Double(digits) * 3.33) + 40
        var attempts = 0
        while precision <= maxPrecision {
            let (lo, hi) = logBounds(d, n, k, precision)
            // P = −expm1(−L) rises with L.
            let pLo = lo.negated.expm1(precision: precision, rounding: .up).negated
            let pHi = hi.negated.expm1(precision: precision, rounding: .down).negated
            if let p = sameDigits(pLo, pHi, digits) { return p }
            attempts += 1
            if attempts >= 3, let (num, den) = exactComplement(d, n, k) {
                return ScientificDecimal.exact(numerator: den - num, denominator: den, significantDigits: digits)
            }
            precision *= 2
        }
        throw InputError("could not certify \(digits) digits of the exhaustion probability within \(maxPrecision) bits")
    }

    /// Whether P(d, N, k) ≤ budget, decided exactly (L against λ = −log(1 − budget), as
    /// ``Birthday/isWithin(space:count:scopes:budget:)`` does).
    public static func isWithin(space d: BigInt, count n: BigInt, maxAttempts k: Int, budget: Budget) throws -> Bool {
        try isWithin(space: d, count: n, maxAttempts: k, budget: budget, minimumPrecision: 0)
    }

    static func isWithin(space d: BigInt, count n: BigInt, maxAttempts k: Int, budget: Budget, minimumPrecision: Int) throws -> Bool {
        try checkAttempts(k, space: d)
        if n <= BigInt(1) { return true }
        if n > d { return false }
        if k == 1 { return try Birthday.isWithin(space: d, count: n, budget: budget) }
        var precision = Swift.max(minimumPrecision, 128 + Swift.max(0, Int(-budget.value.log10Magnitude * 0.01)))
        if lowerEstimate(d, n, k) > budget.logComplementBounds(precision: 64).hi { return false }
        var attempts = 0
        while precision <= maxPrecision {
            let (lLo, lHi) = logBounds(d, n, k, precision)
            let (bLo, bHi) = budget.logComplementBounds(precision: precision)
            if lHi <= bLo { return true }
            if lLo > bHi { return false }
            attempts += 1
            if attempts >= 2, let (num, den) = exactComplement(d, n, k) {
                let (bNum, bDen) = budget.fraction
                return (den - num) * bDen <= bNum * den
            }
            precision *= 2
        }
        throw InputError(
            "the budget matches the exhaustion probability at N = \(Birthday.shortDescription(n)) too closely to decide; round the budget to fewer digits"
        )
    }

    /// Capacities above 2^capacityBitsLimit ids are not searched for k ≥ 2.
    public static let capacityBitsLimit = 4096

    /// A capacity found, or one past the searched range (k ≥ 2 above 2^``capacityBitsLimit`` ids).
    public enum Capacity: Sendable, Equatable {
        /// The largest N with P(d, N, k) ≤ budget.
        case exactly(BigInt)
        /// A count proven within the budget (P(d, N, k) ≤ budget, decided exactly), 2^``capacityBitsLimit``;
        /// the capacity is at least this and was not searched further.
        case atLeast(BigInt)
    }

    /// The largest N with P(d, N, k) ≤ budget: P(d, N, k) ≤ budget < P(d, N + 1, k). At most d (insert
    /// d would find every value taken). Throws when it lies past 2^``capacityBitsLimit``; see
    /// ``capacitySearch(space:maxAttempts:budget:)`` for an answer there.
    public static func capacity(space d: BigInt, maxAttempts k: Int, budget: Budget) throws -> BigInt {
        switch try capacitySearch(space: d, maxAttempts: k, budget: budget) {
        case .exactly(let n): return n
        case .atLeast(let n):
            throw InputError(
                "the capacity with \(k) attempts per insert is more than \(Birthday.shortDescription(n)) ids; idbudget searches capacities up to 2^\(capacityBitsLimit)"
            )
        }
    }

    /// The capacity, searched up to 2^``capacityBitsLimit`` ids for k ≥ 2. Past that, `.atLeast(2^4096)`
    /// once P(d, 2^4096, k) ≤ budget is decided exactly; when the asymptotic estimate points past the
    /// limit but that check fails, the capacity lies below it and is searched there.
    public static func capacitySearch(space d: BigInt, maxAttempts k: Int, budget: Budget) throws -> Capacity {
        guard d >= BigInt(1) else { throw InputError("a space must hold at least 1 value") }
        try checkAttempts(k, space: d)
        if k == 1 { return .exactly(try Birthday.capacity(space: d, budget: budget)) }
        // L ≈ N^(k+1)/((k+1)·d^k) = λ.
        // A budget of 1 (λ infinite) puts the estimate at +∞: every count up to d is within it.
        let estimate = (log2(Double(k + 1)) + budget.log2LogComplement + Double(k) * d.log2Magnitude) / Double(k + 1)
        let log2N = estimate.isNaN ? Double(capacityBitsLimit) : Swift.max(0, estimate)
        let limit = BigInt.power(2, capacityBitsLimit)
        var top = d + BigInt(1)
        if limit < d, log2N >= Double(capacityBitsLimit) {
            if try isWithin(space: d, count: limit, maxAttempts: k, budget: budget, minimumPrecision: limit.bitWidth + 64) {
                return .atLeast(limit)
            }
            top = limit
        }
        var n =
            doubleGuess(space: d, maxAttempts: k, budget: budget)
            ?? Swift.min(top - BigInt(1), Swift.max(BigInt(1), powerOfTwo(Swift.min(log2N, Double(capacityBitsLimit)))))
        // Newton on the increment L(N+1) − L(N) = −log(1 − (N/d)^k), while the guess is far off.
        for _ in 0..<8 where n.bitWidth > 40 {
            let q = n.bitWidth + 64
            if lowerEstimate(d, n, k) > BigFloat(1_000_000, precision: 64) {
                n = n.shifted(-1)
                continue
            }
            let (lLo, _) = logBounds(d, n, k, q)
            let (bLo, _) = budget.logComplementBounds(precision: q)
            let x = BigFloat(numerator: n, denominator: d, precision: q, rounding: .nearest).power(k, precision: q, rounding: .nearest)
            let g = x.negated.log1p(precision: q, rounding: .nearest).negated
            guard !g.isZero else { break }
            let step = bLo.subtracting(lLo, precision: q, rounding: .nearest).divided(by: g, precision: q, rounding: .nearest)
                .integer(rounding: .nearest)
            if step.magnitude <= BigInt(1) { break }
            n = Swift.min(top - BigInt(1), Swift.max(BigInt(1), n + step))
        }
        let ok = { (m: BigInt) throws -> Bool in
            try isWithin(space: d, count: m, maxAttempts: k, budget: budget, minimumPrecision: m.bitWidth + 64)
        }
        return .exactly(try largestPassing(from: n, below: top, ok))
    }

    /// For spaces up to 2^24: the capacity in double precision, L(N) = Σ_{i<N} −log1p(−(i/d)^k) summed
    /// term by term against λ = −log(1 − budget). Only a starting point: the certified search from it
    /// then takes two evaluations (N within, N + 1 not) where it took about log2(N) from the asymptotic
    /// guess, whose error near a full space is large (2^16 values, 100 attempts: 5 s, now under 1 s).
    static func doubleGuess(space d: BigInt, maxAttempts k: Int, budget: Budget) -> BigInt? {
        guard let size = d.intValue, size >= 2, size <= 1 << 24 else { return nil }
        let lambda = exp2(budget.log2LogComplement)
        guard lambda.isFinite, lambda > 0 else { return nil }
        var sum = 0.0
        let dd = Double(size)
        for i in 1..<size {
            let t = -log1p(-pow(Double(i) / dd, Double(k)))
            if sum + t > lambda { return BigInt(i) }
            sum += t
        }
        return d
    }

    // MARK: - Checks

    static func check(space d: BigInt, count n: BigInt) throws {
        guard d >= BigInt(1) else { throw InputError("a space must hold at least 1 value") }
        guard n.signum >= 0 else { throw InputError("a count cannot be negative") }
    }

    /// Throws unless N < d: at N ≥ d the next insert never succeeds.
    public static func notFull(space d: BigInt, count n: BigInt) throws {
        guard n < d else {
            throw InputError(
                "\(Birthday.shortDescription(n)) stored ids fill the space of \(Birthday.shortDescription(d)) values (N ≥ d): an insert that finds every value taken never succeeds, so the expected attempts are infinite; give a count below the space"
            )
        }
    }

    /// Throws unless 1 ≤ k ≤ ``maxAttemptsLimit`` and (1/d)^k is within MPFR's exponent range.
    public static func checkAttempts(_ k: Int, space d: BigInt) throws {
        guard k >= 1, k <= maxAttemptsLimit else {
            throw InputError("attempts per insert must be from 1 to \(maxAttemptsLimit), got \(k)")
        }
        guard Double(k) * d.log2Magnitude <= Double(maxExponentBits) else {
            throw InputError(
                "\(k) attempts over a space of 2^\(Int(d.log2Magnitude)) values puts (i/d)^k below 2^-\(maxExponentBits), out of range; give fewer attempts"
            )
        }
    }

    // MARK: - The expected total

    /// Σ_{i<N} d/(d − i) as an exact fraction, by binary splitting, when it is affordable.
    static func exactTotal(space d: BigInt, count n: BigInt) -> (numerator: BigInt, denominator: BigInt)? {
        guard let count = n.intValue, count <= 1 << 16, count * d.bitWidth <= 1 << 22 else { return nil }
        func sum(_ a: Int, _ b: Int) -> (BigInt, BigInt) {
            if b - a == 1 { return (d, d - BigInt(a)) }
            let m = (a + b) / 2
            let (n1, d1) = sum(a, m)
            let (n2, d2) = sum(m, b)
            return (n1 * d2 + n2 * d1, d1 * d2)
        }
        return sum(0, count)
    }

    /// Bounds on T = Σ_{i<N} d/(d − i), 1 ≤ N ≤ d, at working precision p.
    static func totalBounds(_ d: BigInt, _ n: BigInt, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        if let count = n.intValue, count <= 4096 {
            var lo = BigFloat(0, precision: p)
            var hi = BigFloat(0, precision: p)
            for i in 0..<count {
                let (tLo, tHi) = BigFloat.bounds(numerator: d, denominator: d - BigInt(i), precision: p)
                lo = lo.adding(tLo, precision: p, rounding: .down)
                hi = hi.adding(tHi, precision: p, rounding: .up)
            }
            return (lo, hi)
        }
        // T = d·(H_d − H_m), m = d − N; the asymptotic expansion of H needs its argument ≥ m0, and the
        // harmonic numbers below m0 are summed directly.
        let m = d - n
        let m0 = BigInt(Swift.max(64, p / 4))
        var lo = BigFloat(0, precision: p)
        var hi = BigFloat(0, precision: p)
        var y = m
        if m < m0 {
            let top = Swift.min(m0, d)
            var j = m + BigInt(1)
            while j <= top {
                let (tLo, tHi) = BigFloat.bounds(numerator: BigInt(1), denominator: j, precision: p)
                lo = lo.adding(tLo, precision: p, rounding: .down)
                hi = hi.adding(tHi, precision: p, rounding: .up)
                j = j + BigInt(1)
            }
            y = top
        }
        if y < d {
            let (aLo, aHi) = harmonicDifference(d, y, p)
            lo = lo.adding(aLo, precision: p, rounding: .down)
            hi = hi.adding(aHi, precision: p, rounding: .up)
        }
        return (lo.multiplied(by: d, precision: p, rounding: .down), hi.multiplied(by: d, precision: p, rounding: .up))
    }

    /// Bounds on H_x − H_y for x > y ≥ 64 from H_z = ln z + γ + 1/(2z) − Σ_{j≥1} B_{2j}/(2j·z^{2j}), whose
    /// remainder after any term is at most the first term left out, in absolute value (an enveloping
    /// series for real z > 0: DLMF §5.11(ii), H_z = ψ(z + 1) + γ). γ cancels.
    static func harmonicDifference(_ x: BigInt, _ y: BigInt, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let gap = x - y
        // ln(x/y): −log1p(−gap/x) while gap ≤ x/2 (relative accuracy when x ≈ y), else log(x/y).
        var lo: BigFloat
        var hi: BigFloat
        if gap.shifted(1) <= x {
            let (uLo, uHi) = BigFloat.bounds(numerator: gap, denominator: x, precision: p)
            lo = uLo.negated.log1p(precision: p, rounding: .up).negated
            hi = uHi.negated.log1p(precision: p, rounding: .down).negated
        } else {
            let (rLo, rHi) = BigFloat.bounds(numerator: x, denominator: y, precision: p)
            lo = rLo.log(precision: p, rounding: .down)
            hi = rHi.log(precision: p, rounding: .up)
        }
        // 1/(2x) − 1/(2y) = −gap/(2xy).
        let (cLo, cHi) = BigFloat.bounds(numerator: gap, denominator: (x * y).shifted(1), precision: p)
        lo = lo.subtracting(cHi, precision: p, rounding: .down)
        hi = hi.subtracting(cLo, precision: p, rounding: .up)
        let (ixLo, ixHi) = BigFloat.bounds(numerator: BigInt(1), denominator: x, precision: p)
        let (iyLo, iyHi) = BigFloat.bounds(numerator: BigInt(1), denominator: y, precision: p)
        let epsilon = BigInt.power(2, p + 2)
        var bernoulli = BernoulliNumbers()
        var j = 1
        while true {
            // −B_{2j}/(2j) · (x^−2j − y^−2j)
            let (bNum, bDen) = bernoulli.even(j)
            let coefficientNum = -bNum
            let coefficientDen = bDen * BigInt(2 * j)
            let dLo = ixLo.power(2 * j, precision: p, rounding: .down).subtracting(
                iyHi.power(2 * j, precision: p, rounding: .up), precision: p, rounding: .down)
            let dHi = ixHi.power(2 * j, precision: p, rounding: .up).subtracting(
                iyLo.power(2 * j, precision: p, rounding: .down), precision: p, rounding: .up)
            let (tLo, tHi) = scale((dLo, dHi), coefficientNum, coefficientDen, p)
            lo = lo.adding(tLo, precision: p, rounding: .down)
            hi = hi.adding(tHi, precision: p, rounding: .up)
            // The first term left out, for each of H_x and H_y.
            let (nNum, nDen) = bernoulli.even(j + 1)
            let weight = iyHi.power(2 * j + 2, precision: p, rounding: .up).adding(
                ixHi.power(2 * j + 2, precision: p, rounding: .up), precision: p, rounding: .up)
            let remainder = weight.multiplied(by: nNum.magnitude, precision: p, rounding: .up).divided(
                by: nDen * BigInt(2 * j + 2), precision: p, rounding: .up)
            if remainder.multiplied(by: epsilon, precision: p, rounding: .up) <= lo || j >= 400 {
                return (lo.subtracting(remainder, precision: p, rounding: .down), hi.adding(remainder, precision: p, rounding: .up))
            }
            j += 1
        }
    }

    /// [lo, hi]·(num/den), den > 0, rounded outward.
    private static func scale(_ v: (BigFloat, BigFloat), _ num: BigInt, _ den: BigInt, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let (a, b) = num.signum >= 0 ? v : (v.1, v.0)
        let lo = a.multiplied(by: num, precision: p, rounding: .down).divided(by: den, precision: p, rounding: .down)
        let hi = b.multiplied(by: num, precision: p, rounding: .up).divided(by: den, precision: p, rounding: .up)
        return (lo, hi)
    }

    // MARK: - The exhaustion probability

    /// A lower bound on L_k = −Σ_{i<N} log(1 − (i/d)^k) from −log(1 − x) ≥ x and
    /// Σ_{i<N} i^k ≥ ∫_0^{N−1} t^k dt = (N − 1)^{k+1}/(k + 1), at 64 bits.
    static func lowerEstimate(_ d: BigInt, _ n: BigInt, _ k: Int) -> BigFloat {
        let r = BigFloat(numerator: n - BigInt(1), denominator: d, precision: 64, rounding: .down)
        return r.power(k + 1, precision: 64, rounding: .down).multiplied(by: d, precision: 64, rounding: .down).divided(
            by: BigInt(k + 1), precision: 64, rounding: .down)
    }

    /// Terms summed one by one up to this count (when the series converges slowly).
    static let directLimit = 16_384

    /// Bounds on L_k(d, N) = −Σ_{i<N} log(1 − (i/d)^k), 2 ≤ N ≤ d, k ≥ 2, at working precision p.
    ///
    /// * **series**: L = Σ_{j≥1} S_{kj}(N)/(j·d^{kj}) with S_m(N) = Σ_{i<N} i^m, positive terms; the
    ///   tail after term J is at most T_J·ρ/(1 − ρ), ρ = ((N − 1)/d)^k, since S_{m+k} ≤ (N − 1)^k·S_m.
    ///   S_m exactly (Faulhaber's recurrence) while N < 2^(p + 2·log2(m+1) + 40); beyond, between
    ///   (N − 1)^{m+1}/(m+1) and N^{m+1}/(m+1), whose ratio is then within 2^−(p+40) of 1.
    /// * **direct**, when N ≤ 16,384 and ρ > 1/256 (or the power sums would cost more than N terms):
    ///   the sum of −log1p(−(i/d)^k) (or −log(1 − (i/d)^k) once (i/d)^k > ½), from the top down.
    static func logBounds(_ d: BigInt, _ n: BigInt, _ k: Int, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let log2Rho = Double(k) * ((n - BigInt(1)).log2Magnitude - d.log2Magnitude)
        if let count = n.intValue, count <= directLimit {
            // The series needs the power sums up to S_{kJ}, J ≈ p/log2(1/ρ) terms, by a recurrence
            // quadratic in kJ; the direct sum costs at most N logs, of exact fractions over d^k — past
            // 2^20 bits of d^k (100 attempts over a 2^2097152 space: 2^27.6 bits) that power alone
            // costs more than the series.
            let terms = Double(p) / Swift.max(-log2Rho, 1e-9) + 1
            let seriesCost = Double(k) * terms * Double(k) * terms / 8
            let hugePower = Double(k) * d.log2Magnitude > Double(1 << 20)
            if log2Rho > -8 || (seriesCost > Double(count) && !hugePower) { return direct(d, count, k, p) }
        }
        return series(d, n, k, p)
    }

    /// Summed from the largest term down: every term below i is at most term i, so once
    /// i·term_i < sum·2^−(p+2) the rest is bounded by that and added to the upper end. With many
    /// attempts the terms fall fast and few are taken.
    private static func direct(_ d: BigInt, _ n: Int, _ k: Int, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let dk = d.power(k)
        var lo = BigFloat(0, precision: p)
        var hi = BigFloat(0, precision: p)
        let epsilon = BigInt.power(2, p + 2)
        var i = n - 1
        while i >= 1 {
            let ik = BigInt(i).power(k)
            let tLo: BigFloat
            let tHi: BigFloat
            if ik.shifted(1) <= dk {
                let (xLo, xHi) = BigFloat.bounds(numerator: ik, denominator: dk, precision: p)
                tLo = xLo.negated.log1p(precision: p, rounding: .up).negated
                tHi = xHi.negated.log1p(precision: p, rounding: .down).negated
            } else {
                let (yLo, yHi) = BigFloat.bounds(numerator: dk - ik, denominator: dk, precision: p)
                tLo = yHi.log(precision: p, rounding: .up).negated
                tHi = yLo.log(precision: p, rounding: .down).negated
            }
            lo = lo.adding(tLo, precision: p, rounding: .down)
            hi = hi.adding(tHi, precision: p, rounding: .up)
            i -= 1
            // The i terms left are each at most this one.
            let rest = tHi.multiplied(by: BigInt(i), precision: p, rounding: .up)
            if i >= 1, rest.multiplied(by: epsilon, precision: p, rounding: .up) <= lo {
                return (lo, hi.adding(rest, precision: p, rounding: .up))
            }
        }
        return (lo, hi)
    }

    private static func series(_ d: BigInt, _ n: BigInt, _ k: Int, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let one = BigFloat(1, precision: 2)
        // ρ/(1 − ρ) bounds the tail's factor: 64 bits, rounded up.
        let rho = BigFloat(numerator: n - BigInt(1), denominator: d, precision: 64, rounding: .up).power(k, precision: 64, rounding: .up)
        let tailFactor = rho.divided(by: one.subtracting(rho, precision: 64, rounding: .down), precision: 64, rounding: .up)
        let dLo = BigFloat(d, precision: p, rounding: .down)
        let dHi = BigFloat(d, precision: p, rounding: .up)
        let dkLo = dLo.power(k, precision: p, rounding: .down)
        let dkHi = dHi.power(k, precision: p, rounding: .up)
        let epsilon = BigInt.power(2, p + 2)
        var sums: PowerSums? = nil
        var bernoulli = BernoulliNumbers()
        var produced = 0
        var powLo = BigFloat(1, precision: p)
        var powHi = BigFloat(1, precision: p)
        var lo = BigFloat(0, precision: p)
        var hi = BigFloat(0, precision: p)
        var j = 0
        while true {
            j += 1
            let m = k * j
            powLo = powLo.multiplied(by: dkLo, precision: p, rounding: .down)
            powHi = powHi.multiplied(by: dkHi, precision: p, rounding: .up)
            let sLo: BigFloat
            let sHi: BigFloat
            if Double(n.bitWidth) > Double(p) + 2 * log2(Double(m + 1)) + 40 {
                let below = BigFloat(n - BigInt(1), precision: p, rounding: .down).power(m + 1, precision: p, rounding: .down)
                let above = BigFloat(n, precision: p, rounding: .up).power(m + 1, precision: p, rounding: .up)
                sLo = below.divided(by: BigInt(m + 1), precision: p, rounding: .down)
                sHi = above.divided(by: BigInt(m + 1), precision: p, rounding: .up)
            } else if let bounds = powerSumBounds(n, m, p, &bernoulli) {
                (sLo, sHi) = bounds
            } else {
                if sums == nil { sums = PowerSums(n) }
                var s = BigInt(0)
                while produced < m {
                    s = sums!.next()
                    produced += 1
                }
                sLo = BigFloat(s, precision: p, rounding: .down)
                sHi = BigFloat(s, precision: p, rounding: .up)
            }
            let termLo = sLo.divided(by: powHi.multiplied(by: BigInt(j), precision: p, rounding: .up), precision: p, rounding: .down)
            let termHi = sHi.divided(by: powLo.multiplied(by: BigInt(j), precision: p, rounding: .down), precision: p, rounding: .up)
            lo = lo.adding(termLo, precision: p, rounding: .down)
            hi = hi.adding(termHi, precision: p, rounding: .up)
            let tail = termHi.multiplied(by: tailFactor, precision: p, rounding: .up)
            if tail.multiplied(by: epsilon, precision: p, rounding: .up) <= lo {
                return (lo, hi.adding(tail, precision: p, rounding: .up))
            }
        }
    }

    /// ∏_{i<N} (d^k − i^k) / d^{kN}, exactly, when the fraction stays within 2^22 bits.
    static func exactComplement(_ d: BigInt, _ n: BigInt, _ k: Int) -> (numerator: BigInt, denominator: BigInt)? {
        guard let count = n.intValue, count <= 1 << 16 else { return nil }
        let (bits, overflow) = count.multipliedReportingOverflow(by: k * d.bitWidth)
        guard !overflow, bits <= 1 << 22 else { return nil }
        let dk = d.power(k)
        func product(_ a: Int, _ b: Int) -> BigInt {
            if b - a == 1 { return dk - BigInt(a).power(k) }
            let m = (a + b) / 2
            return product(a, m) * product(m, b)
        }
        return (product(0, count), dk.power(count))
    }

    // MARK: - Helpers

    /// The common rounding of both ends, or nil while they differ.
    static func sameDigits(_ lo: BigFloat, _ hi: BigFloat, _ digits: Int) -> ScientificDecimal? {
        guard let a = lo.decimalDigits(digits), let b = hi.decimalDigits(digits), a == b else { return nil }
        return ScientificDecimal(digits: a.digits, exponent: BigInt(a.exponent - 1))
    }

    /// ⌊2^x⌋ to 53 significant bits, for a first guess.
    static func powerOfTwo(_ x: Double) -> BigInt {
        guard x >= 0 else { return BigInt(1) }
        if x < 52 { return BigInt(Int(exp2(x))) }
        let e = Int(x.rounded(.down))
        let mantissa = BigInt(Int(exp2(x - Double(e) + 52)))
        return mantissa.shifted(e - 52)
    }
}
