import Foundation
import Precise

/// Ids of a time-ordered format arriving as a Poisson process into B time buckets of d values each,
/// where only ids of one bucket can collide. See <doc:ArrivalModels>.
///
/// In a bucket with mean λ, P(no collision) = e^−λ·(1 + λ/d)^d, so
///
///     ℓ(λ) = −log P = λ − d·log1p(λ/d) = d·S(λ/d),   S(x) = x − log1p(x),
///
/// and over all buckets (and `scopes` independent scopes) L = scopes·Σ_j ℓ(λ_j), p = −expm1(−L).
///
/// With a constant rate every bucket has λ = rate × bucket, so L = scopes·B·ℓ(λ). A lifetime that ends
/// inside its last bucket, at a fraction f of it, leaves that bucket the mean of the span it covers:
/// f·λ (with growth, the rate's integral over that span), so L = scopes·((B−1)·ℓ(λ) + ℓ(f·λ)). With growth the rate
/// is r₀·e^{at}, a = ln(1 + g)/period, and bucket j's mean is the integral of the rate over it,
/// λ_j = λ₀·q^j with q = e^{c}, c = a·b, λ₀ = r₀·b·expm1(c)/c: a geometric sequence, so the sum over
/// buckets is taken in closed form, term by term of the series below, not bucket by bucket.
///
/// S(x) = x²/2 − x³/3 + x⁴/4 − … is alternating with falling terms for x < 1, so partial sums ending on
/// a negative term are below it and the next term bounds the rest: no cancellation, whatever λ/d
/// (10^−20 for uuid7 at a few ids per millisecond). Where x > 1/16 (constant rate) S is taken directly,
/// x − log1p(x) at a few more bits than asked (at most 6 bits cancel there). Everything is rounded
/// outward, so [lo, hi] contains L at any precision.
public struct PoissonBuckets: Sendable {
    /// d: the values of one bucket.
    public let space: BigInt
    /// λ₀ without growth: the rate at the start × the bucket length, exactly.
    public let mean: (numerator: BigInt, denominator: BigInt)
    /// B: the buckets of the lifetime, ⌈lifetime/bucket⌉ (the last one possibly partial: ``lastFraction``).
    public let buckets: BigInt
    /// The fraction f of the last bucket the lifetime covers, when it ends inside it (nil: whole).
    public let lastFraction: (numerator: BigInt, denominator: BigInt)?
    /// Independent scopes, each with its own B buckets.
    public let scopes: BigInt
    /// The bucket length in seconds.
    public let bucketSeconds: (numerator: BigInt, denominator: BigInt)
    /// Continuous compounding of the rate, if any (a factor of 1 is no growth).
    public let growth: Growth?

    public init(
        space: BigInt, rate: Rate, bucketSeconds: (numerator: BigInt, denominator: BigInt), buckets: BigInt,
        scopes: BigInt = BigInt(1), growth: Growth? = nil, lastFraction: (numerator: BigInt, denominator: BigInt)? = nil
    ) {
        self.lastFraction = lastFraction
        self.space = space
        mean = (rate.perSecond.numerator * bucketSeconds.numerator, rate.perSecond.denominator * bucketSeconds.denominator)
        self.buckets = buckets
        self.scopes = scopes
        self.bucketSeconds = bucketSeconds
        self.growth = growth.flatMap { $0.isNone ? nil : $0 }
    }

    /// The same workload with `buckets` buckets (and `scopes` scopes, if given).
    func with(buckets b: BigInt, scopes s: BigInt? = nil) -> PoissonBuckets {
        PoissonBuckets(copying: self, buckets: b, scopes: s ?? scopes)
    }

    /// The same workload in buckets of `d` values each.
    func with(space d: BigInt) -> PoissonBuckets {
        PoissonBuckets(copying: self, buckets: buckets, scopes: scopes, space: d)
    }

    /// A copy; with other buckets, whole ones (the partial last bucket belongs to the lifetime).
    private init(copying o: PoissonBuckets, buckets: BigInt, scopes: BigInt, space d: BigInt? = nil) {
        lastFraction = buckets == o.buckets ? o.lastFraction : nil
        space = d ?? o.space
        mean = o.mean
        self.buckets = buckets
        self.scopes = scopes
        bucketSeconds = o.bucketSeconds
        growth = o.growth
    }

    /// A rough log2 of L, for the starting precision.
    var log2Estimate: Double {
        let log2Lambda = mean.numerator.log2Magnitude - mean.denominator.log2Magnitude
        let log2d = space.log2Magnitude
        var growthBits = 0.0
        if let growth {
            let years =
                buckets.log2Magnitude + bucketSeconds.numerator.log2Magnitude - bucketSeconds.denominator.log2Magnitude
                - (growth.period.numerator.log2Magnitude - growth.period.denominator.log2Magnitude)
            growthBits = Swift.min(1e6, pow(2, years) * log2(growth.factor.numerator.doubleValue / growth.factor.denominator.doubleValue))
        }
        let perBucket = Swift.min(2 * log2Lambda - log2d - 1, log2Lambda) + 2 * growthBits
        return scopes.log2Magnitude + buckets.log2Magnitude + perBucket
    }

    /// Bounds on c = ln(1 + g)·b/period.
    private func cBounds(_ g: Growth, _ q: Int) -> (lo: BigFloat, hi: BigFloat) {
        let (yLo, yHi) = g.logFactorBounds(precision: q)
        let (uLo, uHi) = g.periods(bucketSeconds, precision: q)
        return (yLo.multiplied(by: uLo, precision: q, rounding: .down), yHi.multiplied(by: uHi, precision: q, rounding: .up))
    }

    /// Bounds on x₀ = λ₀/d: λ/d without growth, (r₀b/d)·expm1(c)/c with it (rising with c).
    private func x0Bounds(_ q: Int, c: (lo: BigFloat, hi: BigFloat)?) -> (lo: BigFloat, hi: BigFloat) {
        let (xLo, xHi) = BigFloat.bounds(numerator: mean.numerator, denominator: mean.denominator * space, precision: q)
        guard let c else { return (xLo, xHi) }
        let hLo = c.lo.expm1(precision: q, rounding: .down).divided(by: c.lo, precision: q, rounding: .down)
        let hHi = c.hi.expm1(precision: q, rounding: .up).divided(by: c.hi, precision: q, rounding: .up)
        return (xLo.multiplied(by: hLo, precision: q, rounding: .down), xHi.multiplied(by: hHi, precision: q, rounding: .up))
    }

    /// Bounds on L = scopes·Σ_j ℓ(λ_j) at `precision` bits.
    public func logBounds(precision p: Int) throws(InputError) -> (lo: BigFloat, hi: BigFloat) {
        let q = p + 24
        var (sLo, sHi) = try wholeSum(lastFraction == nil ? buckets : buckets - BigInt(1), q)
        if let f = lastFraction {
            let (xLo, xHi) = partialBounds(f, q)
            let (a, b) = Self.s(xLo, xHi, q)
            sLo = sLo.adding(a, precision: q, rounding: .down)
            sHi = sHi.adding(b, precision: q, rounding: .up)
        }
        let factor = space * scopes
        return (sLo.multiplied(by: factor, precision: p, rounding: .down), sHi.multiplied(by: factor, precision: p, rounding: .up))
    }

    /// Σ_j S(x_j) over the first `count` whole buckets.
    private func wholeSum(_ count: BigInt, _ q: Int) throws(InputError) -> (lo: BigFloat, hi: BigFloat) {
        if count.signum <= 0 { return (BigFloat(0, precision: q), BigFloat(0, precision: q)) }
        if let growth { return try PoissonBuckets(copying: self, buckets: count, scopes: scopes).growthSum(growth, q) }
        let (xLo, xHi) = x0Bounds(q, c: nil)
        let (a, b) = Self.s(xLo, xHi, q)
        return (a.multiplied(by: count, precision: q, rounding: .down), b.multiplied(by: count, precision: q, rounding: .up))
    }

    /// Bounds on x of the partial last bucket, the mean of the span it covers over d: f·x₀ without
    /// growth; with it, the rate's integral from (B−1)b to (B−1+f)b over d, (r₀b/d)·e^{(B−1)c}·expm1(fc)/c,
    /// whose factors in c both rise with c.
    private func partialBounds(_ f: (numerator: BigInt, denominator: BigInt), _ q: Int) -> (lo: BigFloat, hi: BigFloat) {
        let (fLo, fHi) = BigFloat.bounds(numerator: f.numerator, denominator: f.denominator, precision: q)
        let (xLo, xHi) = BigFloat.bounds(numerator: mean.numerator, denominator: mean.denominator * space, precision: q)
        guard let growth else {
            return (xLo.multiplied(by: fLo, precision: q, rounding: .down), xHi.multiplied(by: fHi, precision: q, rounding: .up))
        }
        let c = cBounds(growth, q)
        func bound(_ up: Bool) -> BigFloat {
            let r: Rounding = up ? .up : .down
            let cc = up ? c.hi : c.lo
            let rise = cc.multiplied(by: buckets - BigInt(1), precision: q, rounding: r).exp(precision: q, rounding: r)
            let span = cc.multiplied(by: up ? fHi : fLo, precision: q, rounding: r).expm1(precision: q, rounding: r)
                .divided(by: cc, precision: q, rounding: r)
            return (up ? xHi : xLo).multiplied(by: rise, precision: q, rounding: r).multiplied(by: span, precision: q, rounding: r)
        }
        return (bound(false), bound(true))
    }

    /// Bounds on ℓ of the first bucket (the only one, without growth) at `precision` bits.
    public func bucketLogBounds(precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let q = p + 24
        let (xLo, xHi) = x0Bounds(q, c: growth.map { cBounds($0, q) })
        let (a, b) = Self.s(xLo, xHi, q)
        return (a.multiplied(by: space, precision: p, rounding: .down), b.multiplied(by: space, precision: p, rounding: .up))
    }

    /// Bounds on the mean count of buckets to the first collision, counted to the end of its bucket,
    /// when the rate grows: E[J] = Σ_{j≥0} e^(−Λ_j), Λ_j = Σ_{i<j} ℓ_i, ℓ_i = d·S·s(x₀·e^(ic)) with
    /// s(x) = x − log1p(x) between x²/2 − x³/3 and x²/2. So with A = d·S·x₀²/2, Q = e^(2c) and
    /// C = A/(Q − 1), Λ_j ≤ C(Q^j − 1), and Λ_j ≥ (1 − ε)·C(Q^j − 1) for j ≤ I + 1 where
    /// ε = (2/3)·x₀·e^(Ic). e^(−K(Q^t − 1)) falls with t, and ∫₀^∞ e^(−K(Q^t − 1)) dt = e^K·E₁(K)/(2c)
    /// (y = K·Q^t), so E[J] ≥ e^C·E₁(C)/(2c) and E[J] ≤ 1 + e^(C′)·E₁(C′)/(2c) + e^(−C′(Q^(I+1) − 1))/expm1(ℓ₀),
    /// C′ = (1 − ε)C, the last term the buckets past I + 1 (ℓ rises with i). I is the first bucket with
    /// C(Q^(I+1) − 1) ≥ 200 + |ln ℓ₀|. The bounds are a relative 1/E[J] + ε apart. Nil without growth
    /// or where ε reaches ½.
    func growingMeanBuckets(precision p: Int) -> (lo: BigFloat, hi: BigFloat)? {
        guard let growth else { return nil }
        let q = p + 24
        let c = cBounds(growth, q)
        guard c.lo.signum > 0 else { return nil }
        let x0 = x0Bounds(q, c: c)
        let dS = space * scopes
        func cc(_ x: BigFloat, _ twoC: BigFloat, _ r: Rounding, _ other: Rounding) -> BigFloat {
            // d·S·x²/2 / expm1(2c)
            x.multiplied(by: x, precision: q, rounding: r).multiplied(by: dS, precision: q, rounding: r).timesPowerOfTwo(-1)
                .divided(by: twoC.expm1(precision: q, rounding: other), precision: q, rounding: r)
        }
        let cHi = cc(x0.hi, c.lo.timesPowerOfTwo(1), .up, .down)
        let cLo = cc(x0.lo, c.hi.timesPowerOfTwo(1), .down, .up)
        let (l0Lo, _) = Self.s(x0.lo, x0.hi, q)
        let ell0 = l0Lo.multiplied(by: dS, precision: q, rounding: .down)
        guard ell0.signum > 0, cLo.signum > 0 else { return nil }
        // I: C(Q^(I+1) − 1) ≥ T, in doubles first (then every bound below is rigorous for that I).
        let target = 200 + Swift.abs(ell0.log(precision: 64, rounding: .nearest).doubleValue)
        let logQ = 2 * c.lo.doubleValue
        let cEstimate = cLo.log(precision: 64, rounding: .nearest).doubleValue
        let steps = (Foundation.log1p(Foundation.exp(Foundation.log(target) - cEstimate)) / logQ).rounded(.up)
        guard steps.isFinite, steps < 1e15 else { return nil }
        let i = BigInt(Swift.max(0, Int(steps) - 1))
        // ε = (2/3)·x₀·e^(I·c), rounded up.
        let eps = x0.hi.multiplied(
            by: c.hi.multiplied(by: i, precision: q, rounding: .up).exp(precision: q, rounding: .up), precision: q, rounding: .up
        )
        .multiplied(by: BigInt(2), precision: q, rounding: .up).divided(by: BigInt(3), precision: q, rounding: .up)
        guard eps.timesPowerOfTwo(1) < BigFloat(1, precision: q) else { return nil }
        let cPrime = cLo.multiplied(
            by: BigFloat(1, precision: q).subtracting(eps, precision: q, rounding: .down), precision: q, rounding: .down)
        func integral(_ k: BigFloat, _ r: Rounding, _ other: Rounding, _ twoC: BigFloat) -> BigFloat {
            // e^K·E₁(K)/(2c), E₁(K) = −Ei(−K); falls as K rises.
            let e1 = k.negated.eint(precision: q, rounding: other).negated
            return e1.multiplied(by: k.exp(precision: q, rounding: r), precision: q, rounding: r).divided(
                by: twoC, precision: q, rounding: r)
        }
        let lo = integral(cHi, .down, .up, c.hi.timesPowerOfTwo(1))
        // The tail past I + 1: e^(−C′(Q^(I+1) − 1))/expm1(ℓ₀).
        let rise = c.lo.timesPowerOfTwo(1).multiplied(by: i + BigInt(1), precision: q, rounding: .down).expm1(precision: q, rounding: .down)
        let tail = cPrime.multiplied(by: rise, precision: q, rounding: .down).negated.exp(precision: q, rounding: .up)
            .divided(by: ell0.expm1(precision: q, rounding: .down), precision: q, rounding: .up)
        let hi = BigFloat(1, precision: q).adding(integral(cPrime, .up, .down, c.lo.timesPowerOfTwo(1)), precision: q, rounding: .up)
            .adding(tail, precision: q, rounding: .up)
        return (lo, hi)
    }

    /// Σ_j S(x_j) with x_j = x₀·e^{jc}.
    private func growthSum(_ g: Growth, _ q: Int) throws(InputError) -> (lo: BigFloat, hi: BigFloat) {
        let c = cBounds(g, q)
        let x0 = x0Bounds(q, c: c)
        // The largest x, in the last bucket: x₀·e^{(B−1)c}.
        let bc = c.hi.multiplied(by: buckets - BigInt(1), precision: 64, rounding: .up)
        let xMax = x0.hi.rounded64Up.multiplied(by: bc.exp(precision: 64, rounding: .up), precision: 64, rounding: .up)
        guard xMax.isFinite else {
            throw InputError(
                "growth '\(g.text)' over \(buckets) buckets raises the rate beyond what idbudget can bound", argument: "growth")
        }
        if xMax <= BigFloat(numerator: BigInt(1), denominator: BigInt(2), precision: 8, rounding: .nearest) {
            // Term k: x₀^k·G_k/k, G_k = Σ_{j<B} e^{jkc} = expm1(kBc)/expm1(kc), rising with c.
            func term(_ k: Int, _ up: Bool) -> BigFloat {
                let r: Rounding = up ? .up : .down
                let cc = up ? c.hi : c.lo
                let x = (up ? x0.hi : x0.lo).power(k, precision: q, rounding: r)
                let kc = cc.multiplied(by: BigInt(k), precision: q, rounding: r)
                let top = kc.multiplied(by: buckets, precision: q, rounding: r).expm1(precision: q, rounding: r)
                let bottom = kc.expm1(precision: q, rounding: up ? .down : .up)
                return x.multiplied(by: top, precision: q, rounding: r).divided(by: bottom, precision: q, rounding: r)
                    .divided(by: BigInt(k), precision: q, rounding: r)
            }
            return Self.alternating(q) { k in (term(k, false), term(k, true)) }
        }
        // Steeper than that: bucket by bucket, when there are few.
        guard let count = buckets.intValue, count <= 4096 else {
            throw InputError(
                "with growth '\(g.text)' the busiest buckets hold more than d/2 ids on average (p is 1); give fewer buckets or less growth",
                argument: "growth")
        }
        var lo = BigFloat(0, precision: q)
        var hi = BigFloat(0, precision: q)
        for j in 0..<count {
            let eLo = c.lo.multiplied(by: BigInt(j), precision: q, rounding: .down).exp(precision: q, rounding: .down)
            let eHi = c.hi.multiplied(by: BigInt(j), precision: q, rounding: .up).exp(precision: q, rounding: .up)
            let (a, b) = Self.s(
                x0.lo.multiplied(by: eLo, precision: q, rounding: .down), x0.hi.multiplied(by: eHi, precision: q, rounding: .up), q)
            lo = lo.adding(a, precision: q, rounding: .down)
            hi = hi.adding(b, precision: q, rounding: .up)
        }
        return (lo, hi)
    }

    /// Bounds on S(x) = x − log1p(x) for x ∈ [xLo, xHi] (S rises with x).
    static func s(_ xLo: BigFloat, _ xHi: BigFloat, _ q: Int) -> (lo: BigFloat, hi: BigFloat) {
        if xHi <= BigFloat(numerator: BigInt(1), denominator: BigInt(16), precision: 8, rounding: .nearest) {
            return alternating(q) { k in
                (
                    xLo.power(k, precision: q, rounding: .down).divided(by: BigInt(k), precision: q, rounding: .down),
                    xHi.power(k, precision: q, rounding: .up).divided(by: BigInt(k), precision: q, rounding: .up)
                )
            }
        }
        // x > 1/16: S(x) ≥ x/40, so at most 6 of the q + 8 bits cancel.
        let w = q + 8
        let lo = xLo.subtracting(xLo.log1p(precision: w, rounding: .up), precision: q, rounding: .down)
        let hi = xHi.subtracting(xHi.log1p(precision: w, rounding: .down), precision: q, rounding: .up)
        return (lo, hi)
    }

    /// Σ_{k≥2} (−1)^k T_k for terms falling in magnitude, from bounds on each T_k ≥ 0: partial sums that
    /// end on a negative term are lower bounds, and adding the next term gives an upper one. Stops once
    /// that term is below 2^−(q+4) of the sum.
    static func alternating(_ q: Int, term: (Int) -> (lo: BigFloat, hi: BigFloat)) -> (lo: BigFloat, hi: BigFloat) {
        var lo = BigFloat(0, precision: q)
        var hi = BigFloat(0, precision: q)
        var k = 2
        var even = term(2)
        while true {
            let odd = term(k + 1)
            lo = lo.adding(even.lo, precision: q, rounding: .down).subtracting(odd.hi, precision: q, rounding: .down)
            hi = hi.adding(even.hi, precision: q, rounding: .up).subtracting(odd.lo, precision: q, rounding: .up)
            even = term(k + 2)
            if (lo.signum > 0 && even.hi.timesPowerOfTwo(q + 4) <= lo) || k > 8 * q {
                return (Swift.max(lo, BigFloat(0, precision: q)), hi.adding(even.hi, precision: q, rounding: .up))
            }
            k += 2
        }
    }

    /// E[colliding pairs] = scopes·Σ_j λ_j²/(2d) (a Poisson count N has E[N(N−1)] = λ²), to `digits`.
    public func expectedCollisions(digits: Int = Birthday.significantDigits) throws -> ScientificDecimal {
        let whole = lastFraction == nil ? buckets : buckets - BigInt(1)
        guard let growth else {
            // scopes·((B−1)·λ² + (f·λ)²)/(2d) with a partial last bucket.
            let (fn, fd) = lastFraction ?? (BigInt(0), BigInt(1))
            let squares = whole * fd * fd + fn * fn
            return ScientificDecimal.exact(
                numerator: scopes * squares * mean.numerator * mean.numerator,
                denominator: BigInt(2) * mean.denominator * mean.denominator * space * fd * fd, significantDigits: digits)
        }
        var p = Int(Double(digits) * 3.33) + 32
        while p <= 1 << 16 {
            let q = p + 16
            let c = cBounds(growth, q)
            let x0 = x0Bounds(q, c: c)
            func bound(_ up: Bool) -> BigFloat {
                let r: Rounding = up ? .up : .down
                let cc = up ? c.hi : c.lo
                let x = (up ? x0.hi : x0.lo).power(2, precision: q, rounding: r)
                let top = cc.multiplied(by: whole * BigInt(2), precision: q, rounding: r).expm1(precision: q, rounding: r)
                let bottom = cc.multiplied(by: BigInt(2), precision: q, rounding: up ? .down : .up).expm1(
                    precision: q, rounding: up ? .down : .up)
                var sum = x.multiplied(by: top, precision: q, rounding: r).divided(by: bottom, precision: q, rounding: r)
                if let f = lastFraction {
                    let (pLo, pHi) = partialBounds(f, q)
                    sum = sum.adding((up ? pHi : pLo).power(2, precision: q, rounding: r), precision: q, rounding: r)
                }
                return sum.multiplied(by: space * scopes, precision: q, rounding: r).timesPowerOfTwo(-1)
            }
            if let e = Birthday.sameDigits(bound(false), bound(true), digits, shift: BigInt(0)) { return e }
            p *= 2
        }
        throw InputError("could not certify the expected collisions for growth '\(growth.text)'", argument: "growth")
    }

    /// p and 1 − p over all buckets, certified to `digits`.
    public func probability(digits: Int = Birthday.significantDigits) throws -> (
        probability: ScientificDecimal, complement: ScientificDecimal
    ) {
        try Birthday.certified(log2L: log2Estimate, digits: digits) { p in try logBounds(precision: p) }
    }

    /// p in the first bucket of one scope alone.
    public func bucketProbability(digits: Int = Birthday.significantDigits) throws -> (
        probability: ScientificDecimal, complement: ScientificDecimal
    ) {
        try with(buckets: BigInt(1), scopes: BigInt(1)).probability(digits: digits)
    }

    /// Whether p over `buckets` buckets is within `budget`, decided with certified bounds.
    func isWithin(budget: Budget) throws -> Bool {
        // A comparison needs L to relative accuracy only (unlike 1 − p = e^−L): start low and double
        // only while the bounds straddle the budget. Starting at log2(L) bits cost 20 s at L ≈ 2^(10^6).
        var p = 128
        let whole = lastFraction == nil ? buckets : buckets - BigInt(1)
        if let growth, whole > BigInt(4096) {
            // Steep growth over many buckets: the sum may be out of reach (busiest buckets past d/2 ids),
            // but the last whole bucket alone, L ≥ d·S(x₀·e^((B−1)c)), often decides it already.
            let c = cBounds(growth, 64)
            let x = x0Bounds(64, c: c).lo.multiplied(
                by: c.lo.multiplied(by: whole - BigInt(1), precision: 64, rounding: .down).exp(precision: 64, rounding: .down),
                precision: 64, rounding: .down)
            if !x.isFinite { return false }
            let one = Self.s(x, x, 64).lo.multiplied(by: space, precision: 64, rounding: .down)
            if one > budget.logComplementBounds(precision: 64).hi { return false }
        }
        while p <= 1 << 22 {
            let (lo, hi) = try logBounds(precision: p)
            let (bLo, bHi) = budget.logComplementBounds(precision: p)
            if hi <= bLo { return true }
            if lo > bHi { return false }
            p *= 2
        }
        throw InputError(
            "the budget matches p over \(buckets) buckets too closely to decide; round the budget to fewer digits",
            argument: "max-probability")
    }

    /// The most buckets B (from the start) with p ≤ budget over them; 0 when the first bucket is over.
    public func lastingBuckets(budget: Budget) throws -> BigInt {
        try IDBudget.lastingBuckets { b in try with(buckets: b).isWithin(budget: budget) }
    }
}

extension BigFloat {
    /// This value at 64 bits, rounded up.
    fileprivate var rounded64Up: BigFloat { multiplied(by: BigInt(1), precision: 64, rounding: .up) }
}
