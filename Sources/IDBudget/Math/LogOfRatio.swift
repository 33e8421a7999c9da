import Dispatch
import Foundation
import Precise

/// Rigorous bounds on log(D/N) for whole numbers D, N ≥ 1 of modest size, by binary splitting.
///
/// MPFR's log takes its AGM path at high precision, one core and about 13 times the cost of the
/// binary splitting below, at the precision `capacity` needs near 2^(2^21) values (neighbouring counts differ in L by a factor of
/// 1 + 2/n). Instead, with D/N = 2^k·5^f·r,
///
///     log(D/N) = k·ln 2 + f·ln 5 + Σ_i 2·atanh(u_i/v_i),
///
/// where the steps u_i/v_i = (c_i − c_{i−1})/(c_i + c_{i−1}) walk from c_0 = 1 to r through a few of
/// r's continued-fraction convergents c_i. atanh(y) = Σ_{j≥0} t_j with t_0 = y,
/// t_j/t_{j−1} = y²(2j−1)/(2j+1); the first K terms are summed as one exact fraction by binary
/// splitting (products of balanced size, which GMP multiplies fast), and the rest is at most
/// 2·|y|^(2K+1), added to the upper bound. ln 2 is tabulated (`BigFloat.ln2`); ln 5 = 2·ln 2 +
/// 2·atanh(1/9).
///
/// The work of a step grows with the bits each term adds (2·log2 v + log2 K) over the bits it gains
/// (2·log2(1/|y|)). One step from 1 to r costs ~38 units for a budget of 26 digits (u and v of ~90
/// bits, |y| ≈ 0.18); through convergents of 8 and 30 bits the first step is short and the later ones
/// gain tens of bits a term, ~12 units in all. The cheapest walk is found by a shortest path over the
/// convergents; among the splits k is taken near the one that brings r within [1/√2, √2], or 0 (10/7 is
/// cheaper as 2·atanh(3/17) than as ln 2 + 2·atanh(1/6)), and factors of 5 split off or not (1 − 10^−6
/// gives D/N = 10^6 = 2^6·5^6, r = 1). The steps (and the halves of big ones) are independent and run
/// on two threads at high precision. When even the cheapest walk costs more than the log the caller
/// has instead (MPFR's; from 65,536 bits the AGM's), the answer is nil. The bounds hold at any precision; it sets their width.
enum LogOfRatio {
    /// Costs in units of the precision (bits of the binary-splitting result per bit asked), relative to
    /// one another as measured by the MathSpeed benchmarks at 10⁶ bits: MPFR's log is 13 units on one
    /// core, not divisible.
    /// ln 2 is read from a table up to 1.3 million bits, computed by MPFR beyond.
    static func ln2Cost(_ p: Int) -> Double { p <= BigFloat.tabulatedPrecision ? 0.05 : 4.5 }
    static let mpfrLogCost = 13.0
    /// `LogByAGM`: the AGM alone (π and ln 2 tabulated), about 5 units at 1.1·10⁶ bits.
    static let agmCost = 5.0

    /// nil when D or N is too large, or the series would cost more than MPFR's log.
    static func bounds(_ d: BigInt, _ n: BigInt, precision p: Int) -> (lo: BigFloat, hi: BigFloat)? {
        guard n.signum > 0, d.signum > 0 else { return nil }
        // Big numbers only in a ratio within 2^−64 of 1 (a budget of 10^−3000): few terms then;
        // otherwise the fraction's size grows past what MPFR's log costs.
        let small = d.bitWidth <= 4096 && n.bitWidth <= 4096
        guard small || (n <= d && (d - n).shifted(64) <= d) else { return nil }
        let plan = cheapest(d, n, precision: p, search: small)
        // Two threads share the work at high precision, against the AGM's elapsed time (`LogByAGM`);
        // below, against MPFR's log on one.
        let parallel = p >= parallelPrecision
        guard plan.cost / (parallel ? 2 : 1) <= (parallel ? agmCost : mpfrLogCost) else { return nil }
        return evaluate(plan, precision: p)
    }

    static let parallelPrecision = 65_536

    /// log(D/N) = twos·ln 2 + Σ weight·2·atanh(u/v).
    struct Plan: Sendable {
        struct Step: Sendable { let u: BigInt, v: BigInt, weight: Int }
        let twos: Int
        let steps: [Step]
        let cost: Double
    }

    static func cheapest(_ d: BigInt, _ n: BigInt, precision p: Int, search: Bool) -> Plan {
        var d5 = d
        var n5 = n
        var fives = 0
        if search {
            let (dq, dk) = d.removingFactor(5)
            let (nq, nk) = n.removingFactor(5)
            (d5, n5, fives) = (dq, nq, dk - nk)
        }
        var best: Plan? = nil
        for (a, m, f) in fives == 0 ? [(d, n, 0)] : [(d, n, 0), (d5, n5, fives)] {
            let balanced = balancedTwos(a, m)
            let ks = search ? Set([balanced - 1, balanced, balanced + 1, 0]) : [balanced]
            for k in ks.sorted() {
                let (sa, sm) = scaled(a, m, k)
                var (steps, cost) = search ? walk(sa, sm, p) : ([step(sa, sm, weight: 1)], seriesCost(sa - sm, sa + sm, p))
                if f != 0 {
                    steps.append(Plan.Step(u: BigInt(1), v: BigInt(9), weight: f))
                    cost += seriesCost(BigInt(1), BigInt(9), p)
                }
                if k != 0 || f != 0 { cost += ln2Cost(p) }
                let plan = Plan(twos: k + 2 * f, steps: steps.filter { !$0.u.isZero }, cost: cost)
                if best.map({ plan.cost < $0.cost }) ?? true { best = plan }
            }
        }
        return best!
    }

    /// The cheapest walk 1 = c_0 → c_1 → … → a/m through convergents of a/m.
    private static func walk(_ a: BigInt, _ m: BigInt, _ p: Int) -> ([Plan.Step], Double) {
        // Nodes: 1, then convergents h/k growing by at least ~1.4× in bits, then a/m itself.
        var nodes: [(h: BigInt, k: BigInt)] = [(BigInt(1), BigInt(1))]
        var (x, y) = (a, m)
        var (h0, k0, h1, k1) = (BigInt(0), BigInt(1), BigInt(1), BigInt(0))
        var lastBits = 1
        while !y.isZero {
            let q = x / y
            (x, y) = (y, x - q * y)
            (h0, k0, h1, k1) = (h1, k1, q * h1 + h0, q * k1 + k0)
            let bits = Swift.max(h1.bitWidth, k1.bitWidth)
            if y.isZero || (bits * 10 >= lastBits * 14 && bits >= 3 && !h1.isZero) {
                if h1 != k1 { nodes.append((h1, k1)) }
                lastBits = bits
            }
        }
        if nodes.count == 1 { return ([], 0) }
        // Shortest path over forward edges, each an atanh step between two nodes.
        let count = nodes.count
        var best = [Double](repeating: .infinity, count: count)
        var from = [Int](repeating: 0, count: count)
        best[0] = 0
        for j in 1..<count {
            for i in 0..<j where best[i].isFinite {
                let (u, v) = (nodes[j].h * nodes[i].k - nodes[i].h * nodes[j].k, nodes[j].h * nodes[i].k + nodes[i].h * nodes[j].k)
                let c = best[i] + seriesCost(u, v, p)
                if c < best[j] {
                    best[j] = c
                    from[j] = i
                }
            }
        }
        var path = [count - 1]
        while path.last! != 0 { path.append(from[path.last!]) }
        path.reverse()
        let steps = zip(path, path.dropFirst()).map { (i, j) in
            step(nodes[j].h * nodes[i].k, nodes[i].h * nodes[j].k, weight: 1)
        }
        return (steps, best[count - 1])
    }

    /// log(A/M) = 2·atanh((A − M)/(A + M)), the fraction in lowest terms.
    private static func step(_ a: BigInt, _ m: BigInt, weight: Int) -> Plan.Step {
        var u = a - m
        var v = a + m
        let g = BigInt.gcd(u, v)
        if g > BigInt(1) {
            u = BigInt.exactQuotient(u, g)
            v = BigInt.exactQuotient(v, g)
        }
        return Plan.Step(u: u, v: v, weight: weight)
    }

    /// The k with A/M = (D/N)/2^k in [1/√2, √2].
    private static func balancedTwos(_ d: BigInt, _ n: BigInt) -> Int {
        var k = d.bitWidth - n.bitWidth
        // A/M ≤ √2 ⇔ A² ≤ 2M²; A/M ≥ 1/√2 ⇔ 2A² ≥ M².
        while true {
            let (a, m) = scaled(d, n, k)
            if a * a > m * m * BigInt(2) { k += 1 } else if a * a * BigInt(2) < m * m { k -= 1 } else { return k }
        }
    }

    private static func scaled(_ d: BigInt, _ n: BigInt, _ k: Int) -> (a: BigInt, m: BigInt) {
        (d.shifted(Swift.max(0, -k)), n.shifted(Swift.max(0, k)))
    }

    /// Bits of the binary-splitting result per bit of precision for atanh(u/v).
    private static func seriesCost(_ u: BigInt, _ v: BigInt, _ p: Int) -> Double {
        if u.isZero { return 0 }
        let gain = 2 * (v.log2Magnitude - u.magnitude.log2Magnitude)
        let terms = Swift.max(1, Double(p) / gain)
        return (2 * v.log2Magnitude + Foundation.log2(2 * terms) + 1) / gain
    }

    /// Terms needed for atanh(u/v) to 2^−(p+8): |y|^(2K) ≤ 2^−(p+8).
    private static func termCount(_ u: BigInt, _ v: BigInt, _ p: Int) -> Int {
        let log2InvY = v.log2Magnitude - u.magnitude.log2Magnitude
        return Swift.max(1, Int((Double(p + 8) / (2 * log2InvY)).rounded(.up)))
    }

    private static func evaluate(_ plan: Plan, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        // Independent parts: each step's series (in halves when big) and ln 2; run side by side
        // when big, largest first so two threads finish together.
        enum Part: Sendable {
            case series(step: Int, from: Int, to: Int)
            case ln2
        }
        let parallel = p >= parallelPrecision
        let terms = plan.steps.map { termCount($0.u, $0.v, p) }
        var parts: [(Part, Double)] = []
        for (i, step) in plan.steps.enumerated() {
            let size = Double(terms[i]) * (2 * step.v.log2Magnitude)
            if parallel && terms[i] >= 64 {
                parts += [
                    (.series(step: i, from: 0, to: terms[i] / 2), size / 2), (.series(step: i, from: terms[i] / 2, to: terms[i]), size / 2),
                ]
            } else {
                parts.append((.series(step: i, from: 0, to: terms[i]), size))
            }
        }
        if plan.twos != 0 { parts.append((.ln2, ln2Cost(p) * Double(p))) }
        let jobs = parts.sorted { $0.1 > $1.1 }.map(\.0)
        enum Value {
            case split(Splitting)
            case value(BigFloat, BigFloat)
        }
        let results = Slots<Value>(jobs.count)
        let steps = plan.steps
        let work: @Sendable (Int) -> Void = { i in
            switch jobs[i] {
            case .series(let step, let a, let b): results[i] = .split(Splitting.sum(a, b, steps[step].u, steps[step].v))
            case .ln2: results[i] = .value(BigFloat.ln2(precision: p, rounding: .down), BigFloat.ln2(precision: p, rounding: .up))
            }
        }
        if parallel && jobs.count > 1 {
            DispatchQueue.concurrentPerform(iterations: jobs.count, execute: work)
        } else {
            for i in jobs.indices { work(i) }
        }
        let zero = BigFloat(0, precision: p)
        var bounds = (zero, zero)
        for (i, step) in plan.steps.enumerated() {
            // The step's parts in order of their ranges.
            let pieces = jobs.indices.compactMap { j -> (Int, Splitting)? in
                guard case .series(let s, let a, _) = jobs[j], s == i, case .split(let x) = results[j] else { return nil }
                return (a, x)
            }.sorted { $0.0 < $1.0 }.map(\.1)
            let (lo, hi) = atanhBounds(Splitting.join(pieces), step.u, step.v, terms[i], p)
            bounds = add(bounds, times((lo, hi), 2 * step.weight, p), p)
        }
        for j in jobs.indices {
            if case .ln2 = jobs[j], case .value(let lo, let hi) = results[j] {
                bounds = add(bounds, times((lo, hi), plan.twos, p), p)
            }
        }
        return bounds
    }

    /// Bounds on atanh(u/v) for |u| < v from the exact sum of its first `terms` terms.
    private static func atanhBounds(_ s: Splitting, _ u: BigInt, _ v: BigInt, _ terms: Int, _ p: Int) -> (lo: BigFloat, hi: BigFloat) {
        // Quotients of directed roundings, not exact fractions: reducing a fraction of millions of
        // bits (a gcd) would cost more than the series.
        func quotient(_ a: BigInt, _ b: BigInt, _ r: Rounding) -> BigFloat {
            let inverse: Rounding = r == .down ? .up : .down
            return BigFloat(a, precision: p, rounding: r).divided(
                by: BigFloat(b, precision: p, rounding: inverse), precision: p, rounding: r)
        }
        let sumLo = quotient(s.t, s.q, .down)
        // Tail ≤ 2·|y|^(2K+1), bounded at 64 bits (rounded up throughout).
        let y = BigFloat(numerator: u.magnitude, denominator: v, precision: 64, rounding: .up)
        let tail = y.power(2 * terms + 1, precision: 64, rounding: .up).multiplied(by: BigInt(2), precision: 64, rounding: .up)
        let sumHi = quotient(s.t, s.q, .up).adding(tail, precision: p, rounding: .up)
        return u.signum > 0 ? (sumLo, sumHi) : (sumHi.negated, sumLo.negated)
    }

    private static func times(_ x: (BigFloat, BigFloat), _ m: Int, _ p: Int) -> (BigFloat, BigFloat) {
        m >= 0
            ? (x.0.multiplied(by: BigInt(m), precision: p, rounding: .down), x.1.multiplied(by: BigInt(m), precision: p, rounding: .up))
            : (x.1.multiplied(by: BigInt(m), precision: p, rounding: .down), x.0.multiplied(by: BigInt(m), precision: p, rounding: .up))
    }

    private static func add(_ a: (BigFloat, BigFloat), _ b: (BigFloat, BigFloat), _ p: Int) -> (BigFloat, BigFloat) {
        (a.0.adding(b.0, precision: p, rounding: .down), a.1.adding(b.1, precision: p, rounding: .up))
    }
}

/// Σ_{j=a}^{b−1} of the atanh(u/v) terms relative to t_{a−1}, as T/Q, with p(j) = u²(2j−1),
/// q(j) = v²(2j+1) (p(0) = |u|, q(0) = v): P = P₁P₂, Q = Q₁Q₂, T = T₁Q₂ + P₁T₂, so
/// Σ_{j<K} t_j = T(0, K)/Q(0, K) ≥ 0. Adjacent ranges join the same way, so halves can run apart.
private struct Splitting: Sendable {
    let p: BigInt, q: BigInt, t: BigInt

    static func sum(_ a: Int, _ b: Int, _ u: BigInt, _ v: BigInt) -> Splitting {
        let absU = u.magnitude
        return sum(a, b, absU * absU, v * v, absU, v)
    }

    private static func sum(_ a: Int, _ b: Int, _ u2: BigInt, _ v2: BigInt, _ u: BigInt, _ v: BigInt) -> Splitting {
        if b - a == 1 {
            let p = a == 0 ? u : u2 * BigInt(2 * a - 1)
            let q = a == 0 ? v : v2 * BigInt(2 * a + 1)
            return Splitting(p: p, q: q, t: p)
        }
        let mid = (a + b) / 2
        return sum(a, mid, u2, v2, u, v).joined(sum(mid, b, u2, v2, u, v))
    }

    func joined(_ r: Splitting) -> Splitting {
        Splitting(p: p * r.p, q: q * r.q, t: t * r.q + p * r.t)
    }

    /// The whole range from adjacent parts; P of the whole is never used, so it is not formed.
    static func join(_ parts: [Splitting]) -> Splitting {
        guard parts.count == 2 else { return parts.dropFirst().reduce(parts[0]) { $0.joined($1) } }
        let (l, r) = (parts[0], parts[1])
        return Splitting(p: BigInt(0), q: l.q * r.q, t: l.t * r.q + l.p * r.t)
    }
}
