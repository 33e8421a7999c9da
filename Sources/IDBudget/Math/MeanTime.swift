import Precise

/// The mean time to the first collision, E[τ(M)], where the k-th id is not minted at k/r: under
/// growth, or after ids already stored. See docs/math.md ("The mean time under growth").
///
/// M is the count of ids when the first collision happens: P(M > k) = S(k) = ∏_{i<k}(1 − i/d). The
/// store holds E ids at the start; new id j is minted at t(j): j/r at a constant rate, and
/// ln(1 + a·j/r)/a when the rate grows as r·e^(a·t) (a = ln(1 + g)/period, so the rate when id j is
/// minted is r + a·j). The collision comes with new id M − E, at τ(M) = t(M − E) (0 when the stored
/// ids already collide), so by summation by parts
///
///     E[τ(M)] = Σ_{k≥E} S(k)·Δ(k − E),   Δ(j) = t(j + 1) − t(j) ∈ [1/(r + a(j + 1)), 1/(r + a·j)].
///
/// t is concave under growth, so t(E[M]) is later than E[t(M)] (by 5.8 % at 2^96, 10^6/s, doubling
/// yearly): the mean count's time is not the mean time.
///
/// Up to d = 2^20 the sum is taken term by term with outward rounding (Δ exactly, through log1p), its
/// tail after term k bounded by S(k)·Δ·d/k. Above, with A(k) = k(k − 1)/(2d):
/// - S(k) ≤ e^(−A(k)), and S(k) ≥ e^(−A(k))·(1 − k³/(3d²)) (ln(1 − x) ≥ −x − x² for x ≤ ½; past
///   k = d/2 the right side is negative for d ≥ 24);
/// - Δ(j) lies between 1/(r + a(j + ½)) and that times 1 + (a/r)²/12 (ln(1 + x) between 2x/(2 + x)
///   and x(6 + x)/(6 + 4x));
/// - the summands e^(−A(k))/(r + a(k − E + ½)) fall from k = 1, so ∫_{K₀}^∞ ≤ Σ_{k≥K₀} ≤ (first) + ∫_{K₀}^∞;
/// - ∫_{K₀}^∞ e^(−A(k))/(c + a·k) dk = e^(1/(8d))·J(u₀, w)/a, with D = √(2d), u₀ = (K₀ − ½)/D,
///   w = (c + a/2)/(a·D) and J(u₀, w) = ∫_{u₀}^∞ e^(−u²)/(u + w) du (at a = 0: D·(√π/2)·erfc(u₀)/r);
/// - the cubic correction is at most (2/3 + 10/(3√d))/r in all (Σ_{x≥0}(x + 1)³e^(−x²/(2d)) is below
///   2d² + 10·d^(3/2) for d ≥ 2^20).
/// The bounds are then a relative O(1/√d) apart: 9 digits at 2^64, 14 at 2^96, 18 at 2^122; the
/// caller prints the digits on which they agree, and says how many.
enum MeanTime {
    /// The largest count of significant digits the bounds share, up to `digits`, and those digits;
    /// nil where they share fewer than 2, or where the mean is not worked out (E ≥ d; stored ids so
    /// far past r/a under growth that J's w² reaches 4000).
    static func figure(space d: BigInt, existing e: BigInt, rate: Rate, growth: Growth?, digits: Int) -> (ScientificDecimal, Int)? {
        guard let (lo, hi) = bounds(space: d, existing: e, rate: rate, growth: growth, precision: 192) else { return nil }
        return Birthday.sharedDigits(lo, hi, upTo: digits)
    }

    /// Bounds on E[τ(M)] in seconds at `precision` bits.
    static func bounds(space d: BigInt, existing e: BigInt, rate: Rate, growth: Growth?, precision p: Int) -> (lo: BigFloat, hi: BigFloat)?
    {
        guard d >= BigInt(2), e >= BigInt(0), e < d else { return nil }
        let (rLo, rHi) = BigFloat.bounds(numerator: rate.perSecond.numerator, denominator: rate.perSecond.denominator, precision: p)
        guard rLo.signum > 0 else { return nil }
        var aLo = BigFloat(0, precision: p)
        var aHi = BigFloat(0, precision: p)
        if let growth, !growth.isNone {
            let (yLo, yHi) = growth.logFactorBounds(precision: p)
            let (iLo, iHi) = BigFloat.bounds(numerator: growth.period.denominator, denominator: growth.period.numerator, precision: p)
            aLo = yLo.multiplied(by: iLo, precision: p, rounding: .down)
            aHi = yHi.multiplied(by: iHi, precision: p, rounding: .up)
        }
        let rates = Rates(rLo: rLo, rHi: rHi, aLo: aLo, aHi: aHi, p: p)
        if d <= BigInt(1 << 20), let n = d.intValue, let stored = e.intValue {
            return termByTerm(space: n, existing: stored, rates)
        }
        return byIntegrals(space: d, existing: e, rates)
    }

    /// r and a as bounds; a = 0 (both ends) at a constant rate.
    struct Rates {
        let rLo: BigFloat
        let rHi: BigFloat
        let aLo: BigFloat
        let aHi: BigFloat
        let p: Int

        /// Bounds on Δ(j) = ln(1 + a/(r + a·j))/a (1/r at a = 0): Δ falls as a or r rises.
        func delta(_ j: BigInt) -> (lo: BigFloat, hi: BigFloat) {
            func at(_ r: BigFloat, _ a: BigFloat, _ round: Rounding, _ other: Rounding) -> BigFloat {
                if a.isZero { return BigFloat(1, precision: p).divided(by: r, precision: p, rounding: round) }
                let rate = r.adding(a.multiplied(by: j, precision: p, rounding: other), precision: p, rounding: other)
                let x = a.divided(by: rate, precision: p, rounding: round)
                return x.log1p(precision: p, rounding: round).divided(by: a, precision: p, rounding: round)
            }
            return (at(rHi, aHi, .down, .up), at(rLo, aLo, .up, .down))
        }
    }

    /// Σ_{k≥E} S(k)·Δ(k − E) term by term, S(E) = ∏_{i<E}(1 − i/d) first (from its log-complement).
    static func termByTerm(space n: Int, existing e: Int, _ rates: Rates) -> (lo: BigFloat, hi: BigFloat) {
        let p = rates.p
        let dd = BigFloat(n, precision: p)
        var sLo = BigFloat(1, precision: p)
        var sHi = BigFloat(1, precision: p)
        func step(_ k: Int) {
            let f = BigFloat(n - k, precision: p)
            sLo = sLo.multiplied(by: f, precision: p, rounding: .down).divided(by: dd, precision: p, rounding: .down)
            sHi = sHi.multiplied(by: f, precision: p, rounding: .up).divided(by: dd, precision: p, rounding: .up)
        }
        if e >= 2 {
            // S(E) = e^(−L(d, E)) from the certified log-complement: a product of E factors would cost
            // E multiplications (1.4 s at E = 2^20 − 1).
            let q = Swift.max(p, LogComplement.startPrecision(space: BigInt(n), count: BigInt(e), digits: 45))
            let (lLo, lHi) = LogComplement.bounds(space: BigInt(n), count: BigInt(e), precision: q)
            sLo = lHi.negated.exp(precision: p, rounding: .down)
            sHi = lLo.negated.exp(precision: p, rounding: .up)
        }
        var lo = BigFloat(0, precision: p)
        var hi = BigFloat(0, precision: p)
        var k = e
        while true {
            let (dLo, dHi) = rates.delta(BigInt(k - e))
            lo = lo.adding(sLo.multiplied(by: dLo, precision: p, rounding: .down), precision: p, rounding: .down)
            hi = hi.adding(sHi.multiplied(by: dHi, precision: p, rounding: .up), precision: p, rounding: .up)
            step(k)
            k += 1
            if sHi.isZero || k > n { return (lo, hi) }
            // S(k + j) ≤ S(k)·(1 − k/d)^j and Δ falls: the rest is at most S(k)·Δ·d/k.
            let tail = sHi.multiplied(by: dHi, precision: 64, rounding: .up).multiplied(by: BigInt(n), precision: 64, rounding: .up)
                .divided(by: BigInt(k), precision: 64, rounding: .up)
            if tail.timesPowerOfTwo(150) <= lo { return (lo, hi.adding(tail, precision: p, rounding: .up)) }
        }
    }

    /// The bounds by integrals, for d > 2^20.
    static func byIntegrals(space d: BigInt, existing e: BigInt, _ rates: Rates) -> (lo: BigFloat, hi: BigFloat)? {
        let p = rates.p
        let (rLo, rHi, aLo, aHi) = (rates.rLo, rates.rHi, rates.aLo, rates.aHi)
        func f(_ x: Int) -> BigFloat { BigFloat(x, precision: p) }
        let wide = Swift.max(p, d.bitWidth + 2)
        let twoD = BigFloat(d * BigInt(2), precision: wide, rounding: .nearest)  // exact
        let dLo = twoD.squareRoot(precision: p, rounding: .down)
        let dHi = twoD.squareRoot(precision: p, rounding: .up)
        let k0 = Swift.max(e, BigInt(1))
        let k0Half = BigFloat(k0 * BigInt(2) - BigInt(1), precision: wide, rounding: .nearest).timesPowerOfTwo(-1)  // exact
        let oneLessE = BigFloat(BigInt(1) - e, precision: wide, rounding: .nearest)  // exact
        // Δ(j) = ln(1 + x)/a with x = a/c ≤ a/r, c = r + a·j: 2x/(2 + x) ≤ ln(1 + x) ≤ x(6 + x)/(6 + 4x)
        // put it between 1/(c + a/2) and that times 1 + x²/12 (the midpoint rate: the gap is second order).
        let slack = aHi.divided(by: rLo, precision: p, rounding: .up)
        let widen = f(1).adding(
            slack.multiplied(by: slack, precision: p, rounding: .up).divided(by: f(12), precision: p, rounding: .up), precision: p,
            rounding: .up)
        func midpointRate(_ r: BigFloat, _ a: BigFloat, _ j: BigInt, _ round: Rounding) -> BigFloat {
            r.adding(
                a.multiplied(by: BigFloat(j * BigInt(2) + BigInt(1), precision: wide, rounding: .nearest), precision: p, rounding: round)
                    .timesPowerOfTwo(-1), precision: p, rounding: round)
        }

        // The upper bound: as if d were D_hi²/2 ≥ d (the integral rises with d), a at its low end; the
        // summands e^(−A(k))/(r + a(k − E + ½)) fall from k = 1, so their sum is at most the first plus
        // the integral; all of it times 1 + x²/12.
        var hi = e.isZero ? f(1).divided(by: midpointRate(rLo, aLo, BigInt(0), .down), precision: p, rounding: .up) : f(0)
        let (aKLo, _) = BigFloat.bounds(numerator: k0 * (k0 - BigInt(1)), denominator: d * BigInt(2), precision: p)
        let first = aKLo.negated.exp(precision: p, rounding: .up)
            .divided(by: midpointRate(rLo, aLo, k0 - e, .down), precision: p, rounding: .up)
        hi = hi.adding(first, precision: p, rounding: .up)
        let shiftHi = BigFloat.bounds(numerator: BigInt(1), denominator: d * BigInt(8), precision: p).hi.exp(precision: p, rounding: .up)
        let u0Down = k0Half.divided(by: dHi, precision: p, rounding: .down)
        let upper: BigFloat
        if aLo.isZero {
            upper = gaussTail(u0Down, p).hi.multiplied(by: dHi, precision: p, rounding: .up).divided(by: rLo, precision: p, rounding: .up)
        } else {
            // c + a/2 = r + a(1 − E) over a·D, rounded down (J falls as w rises).
            let num = rLo.adding(aLo.multiplied(by: oneLessE, precision: p, rounding: .down), precision: p, rounding: .down)
            let w = num.divided(by: aLo.multiplied(by: dHi, precision: p, rounding: .up), precision: p, rounding: .down)
            guard let j = integral(u0: u0Down, w: w, precision: p) else { return nil }
            upper = j.hi.divided(by: aLo, precision: p, rounding: .up)
        }
        hi = hi.adding(upper.multiplied(by: shiftHi, precision: p, rounding: .up), precision: p, rounding: .up)
        hi = hi.multiplied(by: widen, precision: p, rounding: .up)

        // The lower bound: as if d were D_lo²/2 ≤ d, a at its high end, Δ(j) ≥ 1/(r + a(j + ½)).
        var lo = e.isZero ? f(1).divided(by: midpointRate(rHi, aHi, BigInt(0), .up), precision: p, rounding: .down) : f(0)
        let u0Up = k0Half.divided(by: dLo, precision: p, rounding: .up)
        let lower: BigFloat
        if aHi.isZero {
            lower = gaussTail(u0Up, p).lo.multiplied(by: dLo, precision: p, rounding: .down).divided(by: rHi, precision: p, rounding: .down)
        } else {
            let num = rHi.adding(aHi.multiplied(by: oneLessE, precision: p, rounding: .up), precision: p, rounding: .up)
            let w = num.divided(by: aHi.multiplied(by: dLo, precision: p, rounding: .down), precision: p, rounding: .up)
            guard let j = integral(u0: u0Up, w: w, precision: p) else { return nil }
            lower = j.lo.divided(by: aHi, precision: p, rounding: .down)
        }
        lo = lo.adding(lower, precision: p, rounding: .down)
        // The cubic correction: Σ_{k≥K₀} e^(−A(k))·k³/(3d²)·Δ ≤ Σ_{k≥K₀} f(k)/(3d²·r), f(k) = k³·e^(−(k−1)²/(2d))
        // (A(k) ≥ (k − 1)²/(2d) from k = 1). f rises then falls, so its sum is at most ∫_{K₀}^∞ f plus its
        // largest value past K₀: at K₀ when K₀ − 1 ≥ √(3d) (f falls from there), else at most (√(3d) + 1)³.
        // With y = k − 1 = D·u: ∫ = D·Σ_i C(3, i)·D^i·m_i((K₀ − 1)/D), as if d were D_hi²/2 ≥ d.
        let y0 = BigFloat(k0 - BigInt(1), precision: wide, rounding: .nearest)
        let m = moments(y0.divided(by: dHi, precision: p, rounding: .down), count: 4, p)
        var integralF = m[0].hi
        var power = BigFloat(1, precision: p)
        for (i, c) in [(1, 3), (2, 3), (3, 1)] {
            power = power.multiplied(by: dHi, precision: p, rounding: .up)
            integralF = integralF.adding(
                m[i].hi.multiplied(by: power, precision: p, rounding: .up).multiplied(by: BigInt(c), precision: p, rounding: .up),
                precision: p,
                rounding: .up)
        }
        integralF = integralF.multiplied(by: dHi, precision: p, rounding: .up)
        let largest: BigFloat
        if (k0 - BigInt(1)) * (k0 - BigInt(1)) >= d * BigInt(3) {
            let (eLo, _) = BigFloat.bounds(numerator: (k0 - BigInt(1)) * (k0 - BigInt(1)), denominator: d * BigInt(2), precision: p)
            largest = BigFloat(k0 * k0 * k0, precision: p, rounding: .up).multiplied(
                by: eLo.negated.exp(precision: p, rounding: .up), precision: p, rounding: .up)
        } else {
            let root = BigFloat(d * BigInt(3), precision: wide, rounding: .nearest).squareRoot(precision: p, rounding: .up).adding(
                f(1), precision: p, rounding: .up)
            largest = root.multiplied(by: root, precision: p, rounding: .up).multiplied(by: root, precision: p, rounding: .up)
        }
        let dd = BigFloat(d, precision: wide, rounding: .nearest)
        let cubic = integralF.adding(largest, precision: p, rounding: .up)
            .divided(
                by: dd.multiplied(by: dd, precision: p, rounding: .down).multiplied(by: BigInt(3), precision: p, rounding: .down),
                precision: p, rounding: .up
            )
            .divided(by: rLo, precision: p, rounding: .up)
        lo = lo.subtracting(cubic, precision: p, rounding: .down)
        if lo.signum < 0 { lo = f(0) }
        return (lo, hi)
    }

    /// ∫_{u₀}^∞ e^(−u²) du = (√π/2)·erfc(u₀).
    static func gaussTail(_ u0: BigFloat, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let q = p + 8
        let piLo = BigFloat.pi(precision: q, rounding: .down).squareRoot(precision: q, rounding: .down)
        let piHi = BigFloat.pi(precision: q, rounding: .up).squareRoot(precision: q, rounding: .up)
        return (
            u0.erfc(precision: q, rounding: .down).multiplied(by: piLo, precision: p, rounding: .down).timesPowerOfTwo(-1),
            u0.erfc(precision: q, rounding: .up).multiplied(by: piHi, precision: p, rounding: .up).timesPowerOfTwo(-1)
        )
    }

    /// Bounds on J(u₀, w) = ∫_{u₀}^∞ e^(−u²)/(u + w) du for u₀ ≥ 0 and u₀ + w > 0 (both exact). From
    /// w = 10 on, the alternating expansion in 1/w; below, the series in w (nil where w² ≥ 4000).
    static func integral(u0: BigFloat, w: BigFloat, precision p: Int) -> (lo: BigFloat, hi: BigFloat)? {
        guard u0.signum >= 0 else { return nil }
        return BigFloat(10, precision: p) <= w ? alternating(u0: u0, w: w, p) : series(u0: u0, w: w, p)
    }

    /// For u ≥ 0 the partial sums of 1/(u + w) = Σ (−u)^n/w^(n+1) alternate around it, the error after
    /// N terms at most u^N/w^(N+1); so J lies within m_N/w^(N+1) of Σ_{n<N} (−1)^n·m_n/w^(n+1), with
    /// m_n = ∫_{u₀}^∞ u^n·e^(−u²) du: m₀ = (√π/2)·erfc(u₀), m₁ = e^(−u₀²)/2 and
    /// m_n = ((n − 1)/2)·m_(n−2) + u₀^(n−1)·e^(−u₀²)/2 (by parts; every term positive). The terms fall
    /// while n < 2w², to about e^(−w²) of J (2^−144 from w = 10).
    /// Bounds on m_n(u₀) = ∫_{u₀}^∞ u^n·e^(−u²) du for n < count (u₀ ≥ 0), by the recursion below.
    static func moments(_ u0: BigFloat, count: Int, _ p: Int) -> [(lo: BigFloat, hi: BigFloat)] {
        let q = p + 16
        let eLo = u0.multiplied(by: u0, precision: q, rounding: .up).negated.exp(precision: q, rounding: .down).timesPowerOfTwo(-1)
        let eHi = u0.multiplied(by: u0, precision: q, rounding: .down).negated.exp(precision: q, rounding: .up).timesPowerOfTwo(-1)
        var m = [gaussTail(u0, q), (lo: eLo, hi: eHi)]
        var powLo = eLo
        var powHi = eHi
        for n in 2..<Swift.max(2, count) {
            powLo = powLo.multiplied(by: u0, precision: q, rounding: .down)
            powHi = powHi.multiplied(by: u0, precision: q, rounding: .up)
            let c = BigFloat(n - 1, precision: q).timesPowerOfTwo(-1)
            m.append(
                (
                    m[n - 2].lo.multiplied(by: c, precision: q, rounding: .down).adding(powLo, precision: q, rounding: .down),
                    m[n - 2].hi.multiplied(by: c, precision: q, rounding: .up).adding(powHi, precision: q, rounding: .up)
                ))
        }
        return Array(m.prefix(count))
    }

    static func alternating(u0: BigFloat, w: BigFloat, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let q = p + 16
        let u2 = u0.multiplied(by: u0, precision: q, rounding: .up)
        let u2d = u0.multiplied(by: u0, precision: q, rounding: .down)
        let eLo = u2.negated.exp(precision: q, rounding: .down)
        let eHi = u2d.negated.exp(precision: q, rounding: .up)
        var m = [gaussTail(u0, q), (eLo.timesPowerOfTwo(-1), eHi.timesPowerOfTwo(-1))]
        // u₀^(n−1)·e^(−u₀²)/2 for the next n.
        var powLo = eLo.timesPowerOfTwo(-1)
        var powHi = eHi.timesPowerOfTwo(-1)
        var wLo = w
        var wHi = w  // w^(n+1), rounded each way
        var sLo = BigFloat(0, precision: q)
        var sHi = BigFloat(0, precision: q)
        var n = 0
        var last = BigFloat(0, precision: q)
        let bound = w.multiplied(by: w, precision: 64, rounding: .down).multiplied(by: BigInt(2), precision: 64, rounding: .down)
        while true {
            if n >= 2 {
                powLo = powLo.multiplied(by: u0, precision: q, rounding: .down)
                powHi = powHi.multiplied(by: u0, precision: q, rounding: .up)
                let c = BigFloat(n - 1, precision: q).timesPowerOfTwo(-1)
                m.append(
                    (
                        m[n - 2].0.multiplied(by: c, precision: q, rounding: .down).adding(powLo, precision: q, rounding: .down),
                        m[n - 2].1.multiplied(by: c, precision: q, rounding: .up).adding(powHi, precision: q, rounding: .up)
                    ))
            }
            let tLo = m[n].0.divided(by: wHi, precision: q, rounding: .down)
            let tHi = m[n].1.divided(by: wLo, precision: q, rounding: .up)
            // Stop at the first term that is negligible or no longer falling: it bounds the error.
            if n > 0 && (tHi.timesPowerOfTwo(p + 8) <= sLo || !(BigFloat(n, precision: 64) < bound) || !(tHi < last)) {
                return (sLo.subtracting(tHi, precision: p, rounding: .down), sHi.adding(tHi, precision: p, rounding: .up))
            }
            if n % 2 == 0 {
                sLo = sLo.adding(tLo, precision: q, rounding: .down)
                sHi = sHi.adding(tHi, precision: q, rounding: .up)
            } else {
                sLo = sLo.subtracting(tHi, precision: q, rounding: .down)
                sHi = sHi.subtracting(tLo, precision: q, rounding: .up)
            }
            last = tHi
            wLo = wLo.multiplied(by: w, precision: q, rounding: .down)
            wHi = wHi.multiplied(by: w, precision: q, rounding: .up)
            n += 1
        }
    }

    /// With v = u + w: J = e^(−w²)·Σ_{n≥0} (2w)^n/n!·Γ(n/2, v₀²)/2, v₀ = u₀ + w > 0 (w may be negative:
    /// ids stored past r/a; then the terms alternate, and the working precision grows by 2w² bits for
    /// the cancellation). Γ(0, x) = E₁(x) = −Ei(−x), Γ(½, x) = √π·erfc(√x),
    /// Γ(s + 1, x) = s·Γ(s, x) + x^s·e^(−x). Γ(s + 1, x) ≤ (s + x)·Γ(s, x) for s ≥ 1 (x^s·e^(−x) ≤
    /// x·Γ(s, x)), so each parity's terms fall by ρ_n = 4w²(n/2 + x)/((n + 1)(n + 2)) or more, and ρ_n
    /// falls with n: once ρ ≤ ½ at the last two terms taken, everything after them sums to at most
    /// those two in size. J falls as u₀ rises: the lower bound is computed at v₀ rounded up, the upper at
    /// v₀ rounded down, each at its own exact x = v₀² with interval arithmetic.
    static func series(u0: BigFloat, w: BigFloat, _ p: Int) -> (lo: BigFloat, hi: BigFloat)? {
        let w2 = w.multiplied(by: w, precision: 64, rounding: .up)
        guard w2 < BigFloat(4000, precision: 64) else { return nil }
        let q = p + 16 + 2 * Int(w2.doubleValue.rounded(.up))
        func sum(_ round: Rounding, _ other: Rounding) -> BigFloat? {
            let v0 = u0.adding(w, precision: q, rounding: other)
            guard v0.signum > 0 else { return nil }
            let x = v0.multiplied(by: v0, precision: q, rounding: other)
            // Γ(k, x) and Γ(k + ½, x), and x^s·e^(−x) beside each, as bounds at this exact x.
            let eLo = x.negated.exp(precision: q, rounding: .down)
            let eHi = x.negated.exp(precision: q, rounding: .up)
            let piLo = BigFloat.pi(precision: q, rounding: .down).squareRoot(precision: q, rounding: .down)
            let piHi = BigFloat.pi(precision: q, rounding: .up).squareRoot(precision: q, rounding: .up)
            let rootLo = x.squareRoot(precision: q, rounding: .down)
            let rootHi = x.squareRoot(precision: q, rounding: .up)
            var gLo = [
                x.negated.eint(precision: q, rounding: .up).negated,
                rootHi.erfc(precision: q, rounding: .down).multiplied(by: piLo, precision: q, rounding: .down),
            ]
            var gHi = [
                x.negated.eint(precision: q, rounding: .down).negated,
                rootLo.erfc(precision: q, rounding: .up).multiplied(by: piHi, precision: q, rounding: .up),
            ]
            var pwLo = [eLo, rootLo.multiplied(by: eLo, precision: q, rounding: .down)]
            var pwHi = [eHi, rootHi.multiplied(by: eHi, precision: q, rounding: .up)]
            // |2w|^n/n!, rounded each way.
            var cLo = BigFloat(1, precision: q)
            var cHi = BigFloat(1, precision: q)
            let twoW = w.timesPowerOfTwo(1)
            let negative = w.signum < 0
            var total = BigFloat(0, precision: q)
            var recent: [BigFloat] = []
            let xUp = x.multiplied(by: BigInt(1), precision: 64, rounding: .up)
            var n = 0
            while true {
                let i = n % 2
                let small = cLo.multiplied(by: gLo[i], precision: q, rounding: .down)
                let large = cHi.multiplied(by: gHi[i], precision: q, rounding: .up)
                // (2w)^n is negative for odd n when w < 0: its bound the other way then.
                let term = negative && i == 1 ? (round == .down ? large.negated : small.negated) : (round == .down ? small : large)
                total = total.adding(term, precision: q, rounding: round)
                recent.append(large)
                if recent.count > 2 { recent.removeFirst() }
                // ρ at the two terms just taken (n − 1 and n), both of them with s ≥ 1.
                if n >= 3 {
                    let rho = w2.timesPowerOfTwo(2).multiplied(
                        by: BigFloat(n - 1, precision: 64).timesPowerOfTwo(-1).adding(xUp, precision: 64, rounding: .up), precision: 64,
                        rounding: .up
                    ).divided(by: BigFloat(n * (n + 1), precision: 64), precision: 64, rounding: .up)
                    let rest = recent[0].adding(recent[1], precision: 64, rounding: .up)
                    let size = total.signum < 0 ? total.negated : total
                    if rho.timesPowerOfTwo(1) <= BigFloat(1, precision: 64) && rest.timesPowerOfTwo(p + 8) <= size {
                        total =
                            round == .up
                            ? total.adding(rest, precision: q, rounding: .up) : total.subtracting(rest, precision: q, rounding: .down)
                        break
                    }
                }
                guard n < 100_000 else { return nil }
                // Γ(s + 1, x) = s·Γ(s, x) + x^s·e^(−x) for this parity (s = n/2), then the next |coefficient|.
                let sv = BigFloat(n, precision: q).timesPowerOfTwo(-1)
                gLo[i] = gLo[i].multiplied(by: sv, precision: q, rounding: .down).adding(pwLo[i], precision: q, rounding: .down)
                gHi[i] = gHi[i].multiplied(by: sv, precision: q, rounding: .up).adding(pwHi[i], precision: q, rounding: .up)
                pwLo[i] = pwLo[i].multiplied(by: x, precision: q, rounding: .down)
                pwHi[i] = pwHi[i].multiplied(by: x, precision: q, rounding: .up)
                n += 1
                let absTwoW = negative ? twoW.negated : twoW
                cLo = cLo.multiplied(by: absTwoW, precision: q, rounding: .down).divided(
                    by: BigFloat(n, precision: q), precision: q, rounding: .down)
                cHi = cHi.multiplied(by: absTwoW, precision: q, rounding: .up).divided(
                    by: BigFloat(n, precision: q), precision: q, rounding: .up)
            }
            let factor = w.multiplied(by: w, precision: q, rounding: other).negated.exp(precision: q, rounding: round)
            return total.multiplied(by: factor, precision: p, rounding: round).timesPowerOfTwo(-1)
        }
        guard let lo = sum(.down, .up), let hi = sum(.up, .down), lo.signum > 0 else { return nil }
        return (lo, hi)
    }
}
