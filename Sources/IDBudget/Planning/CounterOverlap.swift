import Foundation
import Precise

/// p for K processes of a format whose counter starts at random once per process and runs on across
/// ticks (xid, ObjectId): two of them mint a common id only with the same node value *and* counters
/// that meet. See docs/math.md ("Counters that start at random").
///
/// Each process draws a node value (V values) and a counter start (M = 2^24 values) and mints m ids a
/// tick, the same m for all, so the offset between two processes' counters never changes: in every
/// tick both pass the same counter value exactly when that offset is within m − 1 of 0 around the
/// ring of M. A pair collides with q = (2m − 1)/(V·M), and all K together are K points on V rings of
/// M cells, none two on one ring closer than m. With N = V·M,
///
///     P(no collision) = ∏_{i=1}^{K−1} (1 − (K(m − 1) + i)/N)   when K(m − 1) < M,
///
/// which is the same count on one ring of N cells: p = 1 − e^(−L), L = L_N(K·m) − L_N(K(m − 1) + 1)
/// with L_N(n) = −ln ∏_{i<n}(1 − i/N) the birthday's L, certified like every other p.
///
/// Why one ring of N: j labelled points pairwise ≥ m apart on a ring of M cells can be placed in
/// M·(j − 1)!·C(M − j(m − 1) − 1, j − 1) ways (fix one, order the rest, share out the gaps), so the
/// exponential generating function of one ring is Σ_j M/(M − j(m − 1))·C(M − j(m − 1), j)·x^j =
/// B(x)^M, B = 1 + x·B^(1−m) (the generalised binomial series, Concrete Mathematics (5.58)–(5.61)),
/// read as a polynomial in M. V rings give (B^M)^V = B^(VM): one ring of VM cells. The polynomial is
/// the count while j(m − 1) < M; K(m − 1) < M keeps every ring there. Past it (K(m − 1) ≥ M) the
/// rings that would hold J₀ = ⌈M/(m − 1)⌉ points or more differ, and the difference is at most
/// e·√K·(exp(X) − 1), X = V·Σ_{j≥J₀} (M/j)·C(jm − M − 1, j − 1)·(K/N)^j (coefficients bounded by
/// F(y)/y^K at y = K/N, K! ≤ e·√K·(K/e)^K); then p is printed to the digits its bounds share.
/// Where 2m − 1 ≥ M any two processes with one node value meet: p is the birthday over V.
enum CounterOverlap {
    /// The figures, or nil where the correction past K(m − 1) ≥ M cannot be bounded (then the caller
    /// keeps the birthday over node values, an upper bound).
    static func figures(values v: BigInt, counter ring: BigInt, perTick m: BigInt, nodes k: BigInt) throws -> (
        figures: CollisionFigures, digits: Int
    )? {
        let n = v * ring
        let pairs = k * (k - BigInt(1)) / BigInt(2)
        let expected = ScientificDecimal.exact(
            numerator: pairs * (m * BigInt(2) - BigInt(1)), denominator: n, significantDigits: Birthday.significantDigits)
        let approx = 1 - Foundation.exp(-expected.doubleValue)
        let top = k * m
        let bottom = k * (m - BigInt(1)) + BigInt(1)
        guard top <= n else {
            return (
                CollisionFigures(
                    probability: .one(significantDigits: Birthday.significantDigits), complement: .zero, expected: expected,
                    approx: approx), Birthday.significantDigits
            )
        }
        func logBounds(_ p: Int) -> (lo: BigFloat, hi: BigFloat) {
            let a = LogComplement.bounds(space: n, count: top, precision: p)
            let b = LogComplement.bounds(space: n, count: bottom, precision: p)
            return (a.lo.subtracting(b.hi, precision: p, rounding: .down), a.hi.subtracting(b.lo, precision: p, rounding: .up))
        }
        if k * (m - BigInt(1)) < ring {
            let log2L = Foundation.log2(Swift.max(expected.doubleValue, 1e-300))
            let (p, c) = try Birthday.certified(log2L: log2L, bounds: logBounds)
            return (CollisionFigures(probability: p, complement: c, expected: expected, approx: approx), Birthday.significantDigits)
        }
        guard let err = correction(values: v, counter: ring, perTick: m, nodes: k) else { return nil }
        // p_formula ± err, at a fixed precision (more bits cannot narrow a bound on the model).
        let q = 256
        var (lo, hi) = logBounds(q)
        if lo.signum < 0 { lo = BigFloat(0, precision: q) }
        let pLo = lo.negated.expm1(precision: q, rounding: .up).negated.subtracting(err, precision: q, rounding: .down)
        let pHi = hi.negated.expm1(precision: q, rounding: .down).negated.adding(err, precision: q, rounding: .up)
        // 1 − p from e^−L itself, not 1 − p: near p = 1 the subtraction would leave no digits at q bits.
        let cLo = hi.negated.exp(precision: q, rounding: .down).subtracting(err, precision: q, rounding: .down)
        let cHi = lo.negated.exp(precision: q, rounding: .up).adding(err, precision: q, rounding: .up)
        guard pLo.signum > 0, cLo.signum > 0, let (p, pDigits) = Birthday.sharedDigits(pLo, pHi),
            let (c, cDigits) = Birthday.sharedDigits(cLo, cHi)
        else { return nil }
        return (CollisionFigures(probability: p, complement: c, expected: expected, approx: approx), Swift.min(pDigits, cDigits))
    }

    /// Bounds on P(no collision) that hold for any K, from the exclusion arcs: given no collision so
    /// far among i processes, the cells a new one must avoid number at least i·m (each owns the m
    /// cells from its counter on, disjoint since they are ≥ m apart) and at most i(2m − 1). So
    /// ∏_{i<K}(1 − i(2m − 1)/N) ≤ 1 − p ≤ ∏_{i<K}(1 − i·m/N), the birthday's products over
    /// ⌊N/(2m − 1)⌋ and ⌈N/m⌉ cells (rounding each factor the safe way). Nil where K exceeds either.
    static func complementRange(values v: BigInt, counter ring: BigInt, perTick m: BigInt, nodes k: BigInt) -> (
        lo: ScientificDecimal, hi: ScientificDecimal
    )? {
        let n = v * ring
        let small = n / (m * BigInt(2) - BigInt(1))
        let large = BigInt.ceilingQuotient(n, m)
        guard k >= BigInt(2), k <= small, k <= large,
            let lo = try? Birthday.probability(space: small, count: k, digits: 3).complement,
            let hi = try? Birthday.probability(space: large, count: k, digits: 3).complement
        else { return nil }
        return (lo, hi)
    }

    /// The bound e·√K·(exp(X) − 1) on |P(no collision) − the one-ring product| when K(m − 1) ≥ M (see
    /// above), nil when it is not below 1. X's terms from J₀ are summed to J₀ + 200 (or K) through
    /// log-gamma, rounded up; past that C(jm − M − 1, j − 1) ≤ (jm)^(j−1)/(j − 1)! bounds each term by
    /// N/(jm)·z^j with z = e·m·K/N, a geometric tail.
    static func correction(values v: BigInt, counter ring: BigInt, perTick m: BigInt, nodes k: BigInt) -> BigFloat? {
        let p = 128
        let n = v * ring
        let j0 = BigInt.ceilingQuotient(ring, m - BigInt(1))
        guard j0 <= k else { return BigFloat(0, precision: p) }
        func lg(_ x: BigInt, _ r: Rounding) -> BigFloat { BigFloat(x, precision: p, rounding: r).lgamma(precision: p, rounding: r) }
        let yHi = BigFloat.bounds(numerator: k, denominator: n, precision: p).hi
        let logY = yHi.log(precision: p, rounding: .up)
        let logVM = BigFloat(n, precision: p, rounding: .up).log(precision: p, rounding: .up)
        var x = BigFloat(0, precision: p)
        var j = j0
        let last = Swift.min(k, j0 + BigInt(200))
        while j <= last {
            // ln V + ln M − ln j + ln C(jm − M − 1, j − 1) + j·ln y, rounded up.
            let a = j * m - ring - BigInt(1)
            let b = j - BigInt(1)
            let lnC = lg(a + BigInt(1), .up).subtracting(lg(b + BigInt(1), .down), precision: p, rounding: .up)
                .subtracting(lg(a - b + BigInt(1), .down), precision: p, rounding: .up)
            let term = logVM.subtracting(
                BigFloat(j, precision: p, rounding: .down).log(precision: p, rounding: .down), precision: p, rounding: .up
            )
            .adding(lnC, precision: p, rounding: .up).adding(
                logY.multiplied(by: j, precision: p, rounding: .up), precision: p, rounding: .up
            )
            .exp(precision: p, rounding: .up)
            x = x.adding(term, precision: p, rounding: .up)
            j = j + BigInt(1)
        }
        if j <= k {
            // Σ_{i≥j} N/(i·m)·z^i ≤ N/(j·m)·z^j/(1 − z).
            let z = BigFloat(m * k, precision: p, rounding: .up).multiplied(
                by: BigFloat(numerator: BigInt(2_718_282), denominator: BigInt(1_000_000), precision: p, rounding: .up), precision: p,
                rounding: .up
            )
            .divided(by: BigFloat(n, precision: p, rounding: .down), precision: p, rounding: .up)
            guard z.timesPowerOfTwo(1) < BigFloat(1, precision: p) else { return nil }
            let oneMinus = BigFloat(1, precision: p).subtracting(z, precision: p, rounding: .down)
            let tail = z.log(precision: p, rounding: .up).multiplied(by: j, precision: p, rounding: .up).exp(precision: p, rounding: .up)
                .multiplied(by: BigFloat(n, precision: p, rounding: .up), precision: p, rounding: .up)
                .divided(by: BigFloat(j * m, precision: p, rounding: .down), precision: p, rounding: .up)
                .divided(by: oneMinus, precision: p, rounding: .up)
            x = x.adding(tail, precision: p, rounding: .up)
        }
        // e·√K·(exp(X) − 1).
        let e = BigFloat(numerator: BigInt(2_718_282), denominator: BigInt(1_000_000), precision: p, rounding: .up)
        let bound = x.expm1(precision: p, rounding: .up).multiplied(by: e, precision: p, rounding: .up)
            .multiplied(by: BigFloat(k, precision: p, rounding: .up).squareRoot(precision: p, rounding: .up), precision: p, rounding: .up)
        return bound < BigFloat(1, precision: p) ? bound : nil
    }
}
