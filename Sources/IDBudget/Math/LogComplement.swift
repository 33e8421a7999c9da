import Foundation
import Precise

/// Rigorous bounds on L(d, n) = −log(1 − p(d, n)) = −Σ_{i<n} log(1 − i/d), for 2 ≤ n ≤ d.
///
/// Everything downstream (p, 1 − p, comparisons with a budget) is a monotone function of L, so a
/// certified interval [lo, hi] ∋ L is all the math core needs. Each method below builds the interval
/// with directed rounding (lower bounds rounded toward −∞, upper toward +∞), so the true L lies inside
/// whatever the precision; precision only decides how narrow the interval is. Three regimes:
///
/// * **series**, when n ≤ d/256: L = Σ_{k≥1} S_k(n)/(k·d^k) with S_k(n) = Σ_{i<n} i^k computed as exact
///   integers. Every term is positive, so there is no cancellation at all; the tail after term K is at
///   most T_K·r/(1−r) with r = (n−1)/d, since S_{k+1} ≤ (n−1)·S_k.
/// * **direct**, when n ≤ 4096 and d < 256·n (so d < 2^20): the sum of −log1p(−i/d) (or −log((d−i)/d)
///   once i/d > ½, where log1p would be ill-conditioned): positive terms again.
/// * **lgamma**, otherwise (n > 4096 and d < 256·n): L = n·log d + lgamma(d−n+1) − lgamma(d+1).
///   The terms are about d·log d while L ≥ n/512, so about log2(d·log d) bits cancel; the starting
///   precision pays for them up front and the interval's width shows whether it was enough. At tens of
///   thousands of bits, when it costs less, L = n·log d − log(d(d−1)···(d−n+1)) instead, the falling
///   product bounded at the working precision (`BigFloat.fallingProductBounds`).
enum LogComplement {
    enum Method { case series, direct, lgamma }

    /// The cheapest method at working precision `p`: the series gains log2(d/n) bits a term, and past
    /// ~96 terms (n near d/256 at a huge d, or a precision raised by many scopes) its power sums cost
    /// more than the lgamma form.
    static func method(space d: BigInt, count n: BigInt, precision p: Int) -> Method {
        if n.shifted(8) <= d {
            let ratioBits = d.log2Magnitude - (n - BigInt(1)).log2Magnitude
            let terms = Double(p) / ratioBits
            // Past the closed forms (3 terms), the power sums of a huge n are numbers of k·log2(n)
            // bits built by a quadratic recurrence: lgamma at the working precision is cheaper.
            if terms <= 96 && (terms <= 3 || n.bitWidth <= 4096) { return .series }
        }
        if n <= BigInt(4096) && d < BigInt(1 << 20) { return .direct }
        return .lgamma
    }

    private static func seriesPrecision(space d: BigInt, count n: BigInt, digits: Int) -> Int {
        // L ≈ n²/2d; 1 − p = e^−L needs L to absolute accuracy, i.e. log2(L) more bits.
        // 24 guard bits keep 30 digits (100 bits) within two 64-bit limbs; a rare miss just retries.
        Int(Double(digits) * 3.33) + 24 + Swift.max(0, Int(2 * n.log2Magnitude - d.log2Magnitude))
    }

    /// Bounds on S·L(d, n): the log-complement for S independent scopes (or time buckets), since
    /// 1 − p_total = (1 − p)^S. Exact in S: no probability is ever raised to a power in floating point.
    static func bounds(space d: BigInt, count n: BigInt, scopes: BigInt, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let (lo, hi) = bounds(space: d, count: n, precision: p)
        if scopes == BigInt(1) { return (lo, hi) }
        return (lo.multiplied(by: scopes, precision: p, rounding: .down), hi.multiplied(by: scopes, precision: p, rounding: .up))
    }

    /// A precision that usually suffices for `digits` significant digits of p and 1 − p on the first try.
    ///
    /// `absolute` (the default) asks for S·L to absolute accuracy, which 1 − p = e^−SL needs; otherwise
    /// to relative accuracy only, which is all p, comparisons far from a budget and 10^−(SL/ln 10) need.
    /// `method` forces the method's own accounting (log-gamma's cancellation, say) where the caller
    /// will work at a precision at which that method is taken.
    static func startPrecision(
        space d: BigInt, count n: BigInt, scopes: BigInt = BigInt(1), digits: Int, absolute: Bool = true,
        method forced: Method? = nil
    ) -> Int {
        // S·L needs log2(S·L) bits beyond its relative accuracy (when it is above 1), not log2(S):
        // with S = 10^600000 and L = 10^−600012, S·L = 10^−12 needs none.
        let log2n = n.log2Magnitude
        let log2d = d.log2Magnitude
        let log2L = Swift.min(2 * log2n - log2d + 1, log2n + log2(Swift.max(1, log2d * 0.6931471805599453)) + 1)
        let scopeBits = absolute ? Swift.max(0, Swift.min(scopes.bitWidth - 1, Int((scopes.log2Magnitude + log2L).rounded(.up)) + 2)) : 0
        let need = Int(Double(digits) * 3.33) + 40 + scopeBits
        let series = (absolute ? seriesPrecision(space: d, count: n, digits: digits) : Int(Double(digits) * 3.33) + 24) + scopeBits
        switch forced ?? method(space: d, count: n, precision: series) {
        case .series:
            return series
        case .direct:
            return need + 16
        case .lgamma:
            // The terms are about d·ln d while L ≥ n(n−1)/2d, so about log2(2d²·ln d / n²) bits cancel;
            // and 1 − p = e^−L needs L to absolute accuracy: log2(L) ≤ log2(n·ln d) bits more.
            let lnd = Swift.max(1, log2d * 0.6931471805599453)
            let cancel = Swift.max(0, 1 + 2 * log2d - 2 * log2n + log2(lnd))
            let size = absolute ? Swift.max(0, log2n + log2(lnd)) : 0
            return need + Int(cancel + size) + 24
        }
    }

    static func bounds(space d: BigInt, count n: BigInt, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        switch method(space: d, count: n, precision: p) {
        case .series: series(d, n, p)
        case .direct: direct(d, n.intValue!, p)
        case .lgamma: lgamma(d, n, p)
        }
    }

    private static func series(_ d: BigInt, _ n: BigInt, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let one = BigFloat(1, precision: p)
        let dLo = BigFloat(d, precision: p, rounding: .down)
        let dHi = BigFloat(d, precision: p, rounding: .up)
        // The tail's factor r/(1 − r), r = (n − 1)/d, only bounds what is left: 64 bits, rounded up.
        let r = BigFloat(n - BigInt(1), precision: 64, rounding: .up).divided(
            by: BigFloat(d, precision: 64, rounding: .down), precision: 64, rounding: .up)
        let tailFactor = r.divided(
            by: BigFloat(1, precision: 2).subtracting(r, precision: 64, rounding: .down), precision: 64, rounding: .up)
        let epsilon = BigInt.power(2, p + 2)

        // Exact power sums have (k+1)·log2(n) bits: for n of a million bits and a few hundred bits of
        // precision, the closed forms below, rounded outward, cost a fraction of that.
        let closed = n.bitWidth > 64
        var sums: PowerSums? = nil
        var powLo = one
        var powHi = one
        var sumLo = BigFloat(0, precision: p)
        var sumHi = BigFloat(0, precision: p)
        // Term k is about (n/d)^(k−1) of the first, so it needs only the bits that reach the sum's last
        // one: at n ≈ 2^(2^20), d = 2^(2^21), the second term takes 64 bits, not a million.
        let fall = Swift.max(0, d.log2Magnitude - n.log2Magnitude)
        var k = 0
        while true {
            k += 1
            let below = Double(k - 1) * fall
            let q = below < Double(p) ? Swift.min(p, Swift.max(64, p - Int(below) + 8)) : Swift.min(p, 64)
            let termLo: BigFloat
            let termHi: BigFloat
            if closed, k == 1 {
                // S_1/d from exact integers and one division: the term that needs every bit.
                (termLo, termHi) = BigFloat.bounds(
                    numerator: BigInt.exactQuotient(n * (n - BigInt(1)), BigInt(2)), denominator: d, precision: q)
                (powLo, powHi) = (dLo, dHi)
            } else {
                let sLo: BigFloat
                let sHi: BigFloat
                if closed, k <= 3 {
                    (sLo, sHi) = closedPowerSum(n, k, q)
                } else {
                    if sums == nil {
                        sums = PowerSums(n)
                        for _ in 1..<k { _ = sums!.next() }
                    }
                    let s = sums!.next()
                    (sLo, sHi) = (BigFloat(s, precision: q, rounding: .down), BigFloat(s, precision: q, rounding: .up))
                }
                powLo = powLo.multiplied(by: dLo, precision: q, rounding: .down)
                powHi = powHi.multiplied(by: dHi, precision: q, rounding: .up)
                termLo = sLo.divided(by: powHi.multiplied(by: BigInt(k), precision: q, rounding: .up), precision: q, rounding: .down)
                termHi = sHi.divided(by: powLo.multiplied(by: BigInt(k), precision: q, rounding: .down), precision: q, rounding: .up)
            }
            sumLo = sumLo.adding(termLo, precision: p, rounding: .down)
            sumHi = sumHi.adding(termHi, precision: p, rounding: .up)
            let tail = termHi.multiplied(by: tailFactor, precision: q, rounding: .up)
            // Stop once the tail is below 2^−(p+2) of the sum: it then costs under a quarter ulp.
            if tail.multiplied(by: epsilon, precision: p, rounding: .up) <= sumLo {
                return (sumLo, sumHi.adding(tail, precision: p, rounding: .up))
            }
        }
    }

    /// Bounds on S_k(n) = Σ_{i<n} i^k for k = 1, 2, 3 from Faulhaber's closed forms n(n−1)/2,
    /// n(n−1)(2n−1)/6 and (n(n−1)/2)², computed exactly (GMP multiplies million-bit integers in a
    /// millisecond or two, fewer operations than rounding each factor both ways) and rounded outward once.
    static func closedPowerSum(_ n: BigInt, _ k: Int, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        let one = BigInt(1)
        let s1 = BigInt.exactQuotient(n * (n - one), BigInt(2))
        let s: BigInt
        switch k {
        case 1: s = s1
        case 2: s = BigInt.exactQuotient(s1 * (n.shifted(1) - one), BigInt(3))
        default: s = s1 * s1
        }
        return (BigFloat(s, precision: p, rounding: .down), BigFloat(s, precision: p, rounding: .up))
    }

    private static func direct(_ d: BigInt, _ n: Int, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        var sumLo = BigFloat(0, precision: p)
        var sumHi = BigFloat(0, precision: p)
        for i in 1..<n {
            let bi = BigInt(i)
            let tLo: BigFloat
            let tHi: BigFloat
            if bi.shifted(1) <= d {
                // −log1p(−x) rises with x = i/d.
                let xLo = BigFloat(numerator: bi, denominator: d, precision: p, rounding: .down)
                let xHi = BigFloat(numerator: bi, denominator: d, precision: p, rounding: .up)
                tLo = xLo.negated.log1p(precision: p, rounding: .up).negated
                tHi = xHi.negated.log1p(precision: p, rounding: .down).negated
            } else {
                // −log(y) falls with y = (d−i)/d.
                let yLo = BigFloat(numerator: d - bi, denominator: d, precision: p, rounding: .down)
                let yHi = BigFloat(numerator: d - bi, denominator: d, precision: p, rounding: .up)
                tLo = yHi.log(precision: p, rounding: .up).negated
                tHi = yLo.log(precision: p, rounding: .down).negated
            }
            sumLo = sumLo.adding(tLo, precision: p, rounding: .down)
            sumHi = sumHi.adding(tHi, precision: p, rounding: .up)
        }
        return (sumLo, sumHi)
    }

    private static func lgamma(_ d: BigInt, _ n: BigInt, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        // Arguments held exactly, so only the function values are rounded.
        let exact = Swift.max(p, d.bitWidth + 2)
        // d is held exactly (exact ≥ its bits), and a value correctly rounded down lies below the true
        // one by less than one unit: its next value up bounds it from above.
        let logDLo = BigFloat(d, precision: exact, rounding: .down).log(precision: p, rounding: .down)
        let aLo = logDLo.multiplied(by: n, precision: p, rounding: .down)
        let aHi = logDLo.nextUp.multiplied(by: n, precision: p, rounding: .up)
        if let count = n.intValue, productIsCheaper(space: d, count: count, precision: p) {
            // log(d!/(d−n)!) from bounds on the falling product itself.
            let (fLo, fHi) = BigFloat.fallingProductBounds(d, count, precision: p, threads: Cores.usable)
            let lo = aLo.subtracting(fHi.log(precision: p, rounding: .up), precision: p, rounding: .down)
            let hi = aHi.subtracting(fLo.log(precision: p, rounding: .down), precision: p, rounding: .up)
            return (lo, hi)
        }
        // The two lgammas are independent: on two cores, two threads. Each thread fills MPFR's Bernoulli
        // cache for itself, so on one core they run in turn, the smaller argument (which needs more of
        // those numbers) first: the second then costs a fraction of the first.
        let arguments = [d - n + BigInt(1), d + BigInt(1)]
        let values = Slots<(lo: BigFloat, hi: BigFloat)>(2)
        let work: @Sendable (Int) -> Void = { i in values[i] = lgammaOfInteger(arguments[i], precision: p, exact: exact) }
        if p >= 8192 && Cores.usable >= 2 {
            DispatchQueue.concurrentPerform(iterations: 2, execute: work)
        } else {
            work(0)
            work(1)
        }
        guard let (bLo, bHi) = values[0], let (cLo, cHi) = values[1] else {
            preconditionFailure("every slot is written before concurrentPerform returns")
        }
        let lo = aLo.adding(bLo, precision: p, rounding: .down).subtracting(cHi, precision: p, rounding: .down)
        let hi = aHi.adding(bHi, precision: p, rounding: .up).subtracting(cLo, precision: p, rounding: .up)
        return (lo, hi)
    }

    /// Whether the falling product d(d−1)···(d−n+1), bounded at p bits, costs less than the two
    /// lgammas. MPFR's lgamma slows steeply with p/log2(x) (about as (p/log2 x)³), the product grows
    /// linearly with its size (n·log2 d bits). Below 4,096 bits both are cheap: lgamma stays.
    static func productIsCheaper(space d: BigInt, count n: Int, precision p: Int) -> Bool {
        guard p >= 4096, n >= 2 else { return false }
        let (bits, overflow) = n.multipliedReportingOverflow(by: d.bitWidth)
        guard !overflow else { return false }
        let product = 5e-9 * Double(bits) * Swift.max(1, 1 + log2(Double(p) / 65536) / 2)
        func lgammaCost(_ x: BigInt) -> Double {
            if let small = x.intValue, small <= 60_000 { return 5e-9 * Double(small) * 16 }
            return 1.3e-10 * pow(Double(p) / x.log2Magnitude, 3)
        }
        return product < lgammaCost(d - BigInt(n) + BigInt(1)) + lgammaCost(d + BigInt(1))
    }
}

extension LogComplement {
    /// Bounds on lgamma(x) = log((x − 1)!) for an integer x ≥ 1.
    ///
    /// MPFR's lgamma slows by about ten times per doubling of the precision when x is small next to
    /// it, so small x take the exact factorial and one log.
    static func lgammaOfInteger(_ x: BigInt, precision p: Int, exact: Int) -> (lo: BigFloat, hi: BigFloat) {
        if let small = x.intValue, small <= 60_000 {
            if small <= 2 { return (BigFloat(0, precision: p), BigFloat(0, precision: p)) }
            let f = BigInt.fallingFactorial(BigInt(small - 1), small - 1)  // (x − 1)!
            // (x − 1)! held exactly; its log rounded down is within one unit below.
            let lo = BigFloat(f, precision: Swift.max(f.bitWidth, 2), rounding: .down).log(precision: p, rounding: .down)
            return (lo, lo.nextUp)
        }
        // The argument is held exactly and lgamma correctly rounded down: one call, not two (each
        // is costly at high precision), the upper bound being the next value up.
        let lo = BigFloat(x, precision: exact, rounding: .nearest).lgamma(precision: p, rounding: .down)
        return (lo, lo.nextUp)
    }
}

/// The power sums S_k(n) = Σ_{i=0}^{n−1} i^k, k = 1, 2, …, as exact integers, from the identity
/// Σ_{j=0}^{k} C(k+1, j)·S_j(n) = n^{k+1} (telescoping (i+1)^{k+1} − i^{k+1} over i < n).
struct PowerSums {
    private let n: BigInt
    private var sums: [BigInt]
    private var nPower: BigInt

    init(_ n: BigInt) {
        self.n = n
        sums = [n]  // S_0 = n, counting 0^0 = 1
        nPower = n
    }

    mutating func next() -> BigInt {
        let k = sums.count
        nPower = nPower * n  // n^{k+1}
        var rest = nPower
        for j in 0..<k {
            rest = rest - BigInt.binomial(k + 1, j) * sums[j]
        }
        let s = BigInt.exactQuotient(rest, BigInt(k + 1))
        sums.append(s)
        return s
    }
}
