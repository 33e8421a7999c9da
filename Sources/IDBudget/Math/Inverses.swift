import Foundation
import Precise

extension Birthday {
    /// Whether p(d, n) ≤ budget, decided exactly.
    ///
    /// Compares certified bounds on L(d, n) with bounds on λ = −log(1 − budget), doubling the precision
    /// until the intervals separate; an exact tie (p(10^6, 2) = 10^−6, say) is settled with rationals.
    public static func isWithin(space d: BigInt, count n: BigInt, scopes: BigInt = BigInt(1), budget: Budget) throws -> Bool {
        try isWithin(space: d, count: n, scopes: scopes, budget: budget, minimumPrecision: 0)
    }

    /// `minimumPrecision` skips the doublings a caller knows are needed: near the capacity of d, one
    /// more identifier changes L by a factor of about 1 + 2/n, so telling them apart takes ~log2(n) bits.
    static func isWithin(space d: BigInt, count n: BigInt, scopes: BigInt = BigInt(1), budget: Budget, minimumPrecision: Int) throws -> Bool
    {
        if n <= BigInt(1) { return true }
        if n > d { return false }
        // A budget of thousands of digits is, in practice, some p written out exactly: when the exact
        // fraction is small, compare it at once rather than after failed floating-point rounds.
        if budget.fraction.denominator.bitWidth > 16_384, let cost = exactCost(space: d, count: n, scopes: scopes), cost <= 1 << 20,
            let decided = exactlyWithin(space: d, count: n, scopes: scopes, budget: budget)
        {
            return decided
        }
        var precision = Swift.max(
            minimumPrecision,
            LogComplement.startPrecision(space: d, count: n, scopes: scopes, digits: 20)
                + Swift.max(0, Int(-budget.value.log10Magnitude * 0.01)))
        // A first look at relative accuracy settles most cases far from the budget (S·L of 2^(2^20)
        // against λ < 2^18, say) for a fraction of the absolute-accuracy cost.
        let relative = LogComplement.startPrecision(space: d, count: n, scopes: scopes, digits: 20, absolute: false)
        if relative * 4 < precision {
            let (lLo, lHi) = LogComplement.bounds(space: d, count: n, scopes: scopes, precision: relative)
            let (bLo, bHi) = budget.logComplementBounds(precision: relative)
            if lHi <= bLo { return true }
            if lLo > bHi { return false }
        }
        // Past the first try, a budget can only be this close to p(d, n) by being written to match it:
        // deciding such a near tie takes p to as many digits as they share, which costs seconds past
        // ~20,000 (log-gamma at 66,000+ bits). The range stops at `Limits.tieDigits` more digits, counted
        // at the method the ceiling itself takes: at high precision the series gives way to log-gamma,
        // whose cancellation (up to 2·log2(d) bits; 22,000 at d = 2^21280, n = 10^3000) the start did
        // not pay for.
        // Computed only once a first try has failed (most comparisons end there).
        let start = precision
        var ceiling: Int? = nil
        func tieCeiling() -> Int {
            let tie = Limits.tieDigits + 40
            var top = Swift.max(start + Limits.tieBits, LogComplement.startPrecision(space: d, count: n, scopes: scopes, digits: tie))
            if LogComplement.method(space: d, count: n, precision: top) == .lgamma {
                top = Swift.max(top, LogComplement.startPrecision(space: d, count: n, scopes: scopes, digits: tie, method: .lgamma))
            }
            return Swift.min(maxPrecision, top)
        }
        var attempts = 0
        while precision <= maxPrecision {
            let (lLo, lHi) = LogComplement.bounds(space: d, count: n, scopes: scopes, precision: precision)
            let (bLo, bHi) = budget.logComplementBounds(precision: precision)
            if lHi <= bLo { return true }
            if lLo > bHi { return false }
            attempts += 1
            // Intervals that stay apart are usually an exact tie: settle it with rationals at once when
            // they are small (an MPFR lgamma at doubled precision can cost far more), else after a few tries.
            let cheap = (exactCost(space: d, count: n, scopes: scopes) ?? Int.max) <= 1 << 21
            if attempts >= (cheap ? 1 : 3), let decided = exactlyWithin(space: d, count: n, scopes: scopes, budget: budget) {
                return decided
            }
            // Still together after three doublings: the budget was written to match p(d, n), and a
            // budget of K significant digits can match it to about K digits and no further (short of
            // an exact tie). Go there at once: the evaluation's cost grows ~p^2.4, so overshooting by
            // a doubling costs about five times as much.
            let written = budget.value.significand.bitWidth + 64
            let top = ceiling ?? tieCeiling()
            ceiling = top
            if precision >= top { break }
            precision = Swift.min(top, attempts == 3 && written > 2 * precision ? precision + written : precision * 2)
        }
        if let decided = exactlyWithin(space: d, count: n, scopes: scopes, budget: budget) { return decided }
        throw InputError(
            "the budget matches p(d, n) at n = \(Self.shortDescription(n)), d ≈ \(Self.shortDescription(d)), "
                + "too closely to decide: idbudget decides budgets that match some p(d, n) to up to \(Limits.tieDigits) "
                + "significant digits; round the budget to fewer digits", argument: "max-probability")
    }

    /// p(d, n) ≤ budget from exact fractions, when they are affordable (`exactComplement`): the one
    /// way to settle an exact tie, and the way past the near-tie limit.
    private static func exactlyWithin(space d: BigInt, count n: BigInt, scopes: BigInt, budget: Budget) -> Bool? {
        guard let (num, den) = exactComplement(space: d, count: n, scopes: scopes) else { return nil }
        let (bNum, bDen) = budget.fraction
        return (den - num) * bDen <= bNum * den
    }

    /// n itself up to 38 digits (128 bits), else 2^x.
    static func shortDescription(_ n: BigInt) -> String {
        n.bitWidth <= 128 ? n.description : "2^\(String(format: "%.3f", n.log2Magnitude))"
    }

    /// The shortest length L ≥ 1 with p(alphabetSize^L, count) ≤ budget (over all `scopes`).
    public static func minimumLength(alphabetSize a: Int, count n: BigInt, scopes: BigInt = BigInt(1), budget: Budget) throws -> Int {
        guard a >= 2 else { throw InputError("an alphabet needs at least 2 symbols") }
        guard scopes >= BigInt(1) else { throw InputError("scopes must be at least 1") }
        // One id (or none) never collides: the shortest length is always within budget.
        if n <= BigInt(1) { return 1 }
        let log2a = log2(Double(a))
        // d ≈ S·n²/(2λ) is where p ≈ budget; start there and step to the exact answer.
        let log2d = 2 * n.log2Magnitude - 1 - budget.log2LogComplement + scopes.log2Magnitude
        let maxLength = Int(Double(Limits.maxSpaceBits) / log2a)
        // A first guess only: any finite value will do, and a non-finite one must not trap.
        let guess = (log2d / log2a).rounded(.up)
        var length = guess.isFinite ? Int(Swift.min(Swift.max(guess, 1), Double(maxLength))) : 1
        while length > 1, try isWithin(space: BigInt.power(a, length - 1), count: n, scopes: scopes, budget: budget) {
            length -= 1
        }
        while !(try isWithin(space: BigInt.power(a, length), count: n, scopes: scopes, budget: budget)) {
            length += 1
            guard length <= maxLength else {
                // a^maxLength is the largest space of this alphabet within 2^2097152: name it, not the cap.
                let bits = Int((Double(maxLength) * log2a).rounded(.down))
                // So many ids that even the largest space expects over 2^20 collisions among them: p is
                // 1 − e^(−2^20) or more there, past any budget written with fewer than ~455,000 nines.
                // The ids are what no length can hold, not the budget.
                if 2 * n.log2Magnitude - 1 - Double(maxLength) * log2a + scopes.log2Magnitude > 20 {
                    throw InputError(
                        "\(shortDescription(n)) ids expect over 2^20 collisions even at length \(maxLength) (\(a)^\(maxLength) ≈ 2^\(bits) values; spaces end at 2^\(Limits.maxSpaceBits)): no length holds them within any budget",
                        argument: "count")
                }
                throw InputError(
                    "no length up to \(maxLength) (\(a)^\(maxLength) ≈ 2^\(bits) values; spaces end at 2^\(Limits.maxSpaceBits)) meets this budget",
                    argument: "max-probability")
            }
        }
        return length
    }

    /// The largest count n (per scope) with p(d, n) ≤ budget over all `scopes`:
    /// p(d, n) ≤ budget < p(d, n + 1).
    public static func capacity(space d: BigInt, scopes: BigInt = BigInt(1), budget: Budget) throws -> BigInt {
        guard scopes >= BigInt(1) else { throw InputError("scopes must be at least 1") }
        guard d >= BigInt(1) else { throw InputError("a space must hold at least 1 value") }
        // Found before (a schedule asks the same capacities at every rate): the same exact value.
        let key = CapacityMemo.Key(space: d, scopes: scopes, budget: budget)
        if let key, let known = CapacityMemo.capacity(key) { return known }
        let found = try searchCapacity(space: d, scopes: scopes, budget: budget)
        if let key { CapacityMemo.remember(key, found) }
        return found
    }

    /// ``capacity(space:scopes:budget:)``, found afresh.
    static func searchCapacity(space d: BigInt, scopes: BigInt, budget: Budget) throws -> BigInt {
        // First guess from S·L ≈ λ with L = n(n−1)/2d + n³/6d² + …: n ≈ ½ + √(2dμ) − μ/3, μ = λ/S; the
        // last term is what a budget near 1 needs (μ = 50 moves the answer by 17 at 2^(2^21) values).
        // Relative accuracy for μ: a guess good to a few units needs about log2(n) + 96 bits, with
        // log2(n) ≈ (log2(2dλ) − log2 S)/2 (S's own bits would cost millions at S = 10^600000). The
        // neighbours of the guess then ask for λ at ~log2(n) + 64 bits: the same λ serves both.
        let log2n = (d.log2Magnitude + 1 + budget.log2LogComplement - scopes.log2Magnitude) / 2
        let p = log2n.isFinite ? Swift.min(d.bitWidth / 2, Swift.max(0, Int(log2n.rounded(.up)))) + 96 : d.bitWidth / 2 + 96
        let (lambda0, _) = budget.logComplementBounds(precision: p)
        let mu =
            scopes == BigInt(1)
            ? lambda0 : lambda0.divided(by: BigFloat(scopes, precision: p, rounding: .nearest), precision: p, rounding: .nearest)
        let root = BigFloat(d, precision: p, rounding: .nearest)
            .multiplied(by: mu, precision: p, rounding: .nearest)
            .multiplied(by: BigInt(2), precision: p, rounding: .nearest)
            .squareRoot(precision: p, rounding: .nearest)
            .adding(BigFloat(numerator: 1, denominator: 2, precision: 2, rounding: .nearest), precision: p, rounding: .nearest)
            .integer(rounding: .down)
        let third = mu.doubleValue / 3
        // A correction of whole units, and only while it is small next to n (else n ≪ d fails anyway).
        let correction =
            third.isFinite && third >= 0.5 && third < 1e15 && BigInt(Int(third.rounded())).shifted(8) < root
            ? BigInt(Int(third.rounded())) : BigInt(0)
        let guess = root - correction
        // Near a huge guess, one L at full precision and exact increments decide the neighbours.
        var near: Neighbourhood? = nil
        let ok = { (n: BigInt) throws -> Bool in
            if n <= BigInt(1) { return true }
            if n > d { return false }
            if n.bitWidth >= Neighbourhood.minimumBits {
                if near == nil { near = Neighbourhood(space: d, scopes: scopes, base: n) }
                if let decided = near?.decide(n, budget: budget) { return decided }
            }
            return try isWithin(space: d, count: n, scopes: scopes, budget: budget, minimumPrecision: n.bitWidth + 64)
        }
        let top = d + BigInt(1)  // p(d, d+1) = 1 > budget
        let n = Swift.min(Swift.max(guess, BigInt(1)), d)
        // Bracket the edge (within budget, then beyond it), galloping from the guess.
        return try largestPassing(from: n, below: top, ok)
    }

    /// E[draws until the first repeat] = Σ_{k≥0} ∏_{i<k}(1 − i/d) = 1 + Q(d), Ramanujan's Q function,
    /// to 15 significant digits.
    ///
    /// For d ≤ 10^6 the sum is taken directly at 128 bits. Beyond, Knuth's expansion (TAOCP 1.2.11.3)
    /// Q(d) = √(πd/2) − 1/3 + (1/12)√(π/2d) − 4/(135d) + (1/288)√(π/2d³) + 8/(2835d²) + O(d^−5/2)
    /// has a relative error below 10^−20.
    public static func expectedDrawsToFirstCollision(space d: BigInt) -> ScientificDecimal {
        let p = 128
        func f(_ x: Int) -> BigFloat { BigFloat(x, precision: p) }
        var total: BigFloat
        if d <= BigInt(1_000_000) {
            let dd = BigFloat(d, precision: p, rounding: .nearest)
            total = f(0)
            var term = f(1)
            var k = 0
            let tiny = BigFloat(numerator: BigInt(1), denominator: BigInt.power(10, 40), precision: p, rounding: .nearest)
            while term > tiny && BigInt(k) <= d {
                total = total.adding(term, precision: p, rounding: .nearest)
                let factor = f(1).subtracting(f(k).divided(by: dd, precision: p, rounding: .nearest), precision: p, rounding: .nearest)
                term = term.multiplied(by: factor, precision: p, rounding: .nearest)
                k += 1
            }
        } else {
            let dd = BigFloat(d, precision: p, rounding: .nearest)
            let pi = BigFloat.pi(precision: p, rounding: .nearest)
            let halfPi = pi.divided(by: f(2), precision: p, rounding: .nearest)
            let s = halfPi.multiplied(by: dd, precision: p, rounding: .nearest).squareRoot(precision: p, rounding: .nearest)  // √(πd/2)
            let u = halfPi.divided(by: dd, precision: p, rounding: .nearest).squareRoot(precision: p, rounding: .nearest)  // √(π/2d)
            let inv = f(1).divided(by: dd, precision: p, rounding: .nearest)
            func q(_ a: Int, _ b: Int, _ x: BigFloat) -> BigFloat {
                x.multiplied(by: f(a), precision: p, rounding: .nearest).divided(by: f(b), precision: p, rounding: .nearest)
            }
            let terms = [
                s, q(2, 3, f(1)),  // 1 + (−1/3)
                q(1, 12, u), q(-4, 135, inv),
                q(1, 288, u.multiplied(by: inv, precision: p, rounding: .nearest)),
                q(8, 2835, inv.multiplied(by: inv, precision: p, rounding: .nearest)),
            ]
            total = terms.dropFirst().reduce(terms[0]) { $0.adding($1, precision: p, rounding: .nearest) }
        }
        guard let (digits, e) = total.decimalDigits(15) else { return .zero }
        return ScientificDecimal(digits: digits, exponent: e - 1)
    }
}
