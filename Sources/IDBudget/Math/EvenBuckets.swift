import Precise

/// Ids of a time-ordered format arriving evenly into B time buckets of d values each, where only ids of
/// one bucket can collide. See <doc:ArrivalModels>.
///
/// Evenly means one id every 1/r seconds from the start: id k at k/r, for every k with k/r < T (the
/// lifetime), so ⌈r·T⌉ ids in all — the user's rate times the lifetime, not a rounded-up rate. With
/// λ = r·b (b the bucket's length, exactly rational), bucket j holds the ids with jλ ≤ k < (j+1)λ:
///
///     n_j = ⌈(j+1)λ⌉ − ⌈jλ⌉ ∈ {⌊λ⌋, ⌈λ⌉},
///
/// and the sum telescopes: the F = ⌊T/b⌋ whole buckets hold ⌈Fλ⌉ ids, so exactly
/// m = ⌈Fλ⌉ − F·⌊λ⌋ of them hold ⌈λ⌉ and F − m hold ⌊λ⌋ (all λ when λ is whole). A last bucket cut
/// short by the lifetime holds the rest, ⌈r·T⌉ − ⌈Fλ⌉ ids. Buckets are independent, so with S scopes
///
///     1 − p = [P(⌊λ⌋)^(F−m) · P(⌈λ⌉)^m · P(n_last)]^S,   P(n) = ∏_{i<n} (1 − i/d),
///
/// and L = −log(1 − p) is a sum of at most three certified log-complements (`LogComplement`), each
/// exact in its multiplicity: p is certified like every other printed digit, and computed exactly as
/// a fraction where that is small (so that a p with a short decimal expansion ends).
public struct EvenBuckets: Sendable {
    /// d: the values of one bucket.
    public let space: BigInt
    /// λ = rate × bucket length, exactly.
    public let mean: (numerator: BigInt, denominator: BigInt)
    /// F: the whole buckets of the lifetime.
    public let wholeBuckets: BigInt
    /// The ids of the last bucket when the lifetime ends inside it (nil when it ends on a boundary).
    public let lastBucket: BigInt?
    /// Independent scopes, each with its own buckets.
    public let scopes: BigInt
    /// The bucket length in seconds.
    public let bucketSeconds: (numerator: BigInt, denominator: BigInt)

    /// Even arrivals at `rate` for `lifetime` into buckets of `bucketSeconds`.
    public init(
        space: BigInt, rate: Rate, bucketSeconds: (numerator: BigInt, denominator: BigInt), lifetime: Lifetime,
        scopes: BigInt = BigInt(1)
    ) {
        let (rn, rd) = rate.perSecond
        let (bn, bd) = bucketSeconds
        let (tn, td) = lifetime.seconds
        let mean = (rn * bn, rd * bd)
        // T/b = tn·bd / (td·bn): F whole buckets and, if it does not divide, a partial one.
        let whole = (tn * bd) / (td * bn)
        let cut = !((tn * bd) % (td * bn)).isZero
        let total = BigInt.ceilingQuotient(rn * tn, rd * td)  // ids k with k/r < T
        let inWhole = BigInt.ceilingQuotient(whole * mean.0, mean.1)
        self.init(
            space: space, mean: mean, wholeBuckets: whole, lastBucket: cut ? total - inWhole : nil, scopes: scopes,
            bucketSeconds: bucketSeconds)
    }

    /// Even arrivals at `rate` over `wholeBuckets` whole buckets of `bucketSeconds` (capacity's question:
    /// how many buckets the budget lasts).
    public init(
        space: BigInt, rate: Rate, bucketSeconds: (numerator: BigInt, denominator: BigInt), wholeBuckets: BigInt,
        scopes: BigInt = BigInt(1)
    ) {
        self.init(
            space: space,
            mean: (rate.perSecond.numerator * bucketSeconds.numerator, rate.perSecond.denominator * bucketSeconds.denominator),
            wholeBuckets: wholeBuckets, lastBucket: nil, scopes: scopes, bucketSeconds: bucketSeconds)
    }

    private init(
        space: BigInt, mean: (BigInt, BigInt), wholeBuckets: BigInt, lastBucket: BigInt?, scopes: BigInt,
        bucketSeconds: (numerator: BigInt, denominator: BigInt)
    ) {
        self.space = space
        self.mean = (mean.0, mean.1)
        self.wholeBuckets = wholeBuckets
        self.lastBucket = lastBucket
        self.scopes = scopes
        self.bucketSeconds = bucketSeconds
    }

    /// The same arrivals in buckets of `d` values each.
    func with(space d: BigInt) -> EvenBuckets {
        EvenBuckets(space: d, mean: mean, wholeBuckets: wholeBuckets, lastBucket: lastBucket, scopes: scopes, bucketSeconds: bucketSeconds)
    }

    /// The first `b` whole buckets (no partial one) of one scope, or of `scopes`.
    func with(wholeBuckets b: BigInt, scopes s: BigInt? = nil) -> EvenBuckets {
        EvenBuckets(space: space, mean: mean, wholeBuckets: b, lastBucket: nil, scopes: s ?? scopes, bucketSeconds: bucketSeconds)
    }

    /// ⌊λ⌋ and ⌈λ⌉.
    public var floorMean: BigInt { mean.numerator / mean.denominator }
    public var ceilingMean: BigInt { BigInt.ceilingQuotient(mean.numerator, mean.denominator) }

    /// The buckets (per scope) by the ids they hold: (ids, buckets holding that many), those with no
    /// bucket left out; at most three rows.
    public var sizes: [(ids: BigInt, buckets: BigInt)] {
        let inWhole = BigInt.ceilingQuotient(wholeBuckets * mean.numerator, mean.denominator)
        let full = inWhole - wholeBuckets * floorMean  // m: the whole buckets holding ⌈λ⌉
        var rows: [(ids: BigInt, buckets: BigInt)] = []
        if floorMean == ceilingMean {
            rows.append((floorMean, wholeBuckets))
        } else {
            rows.append((floorMean, wholeBuckets - full))
            rows.append((ceilingMean, full))
        }
        if let lastBucket { rows.append((lastBucket, BigInt(1))) }
        return rows.filter { $0.buckets.signum > 0 }
    }

    /// Every bucket of the lifetime, the partial one included.
    public var buckets: BigInt { wholeBuckets + (lastBucket == nil ? BigInt(0) : BigInt(1)) }

    /// The most ids a bucket holds.
    public var busiest: BigInt { sizes.map(\.ids).max() ?? BigInt(0) }

    /// All ids of one scope.
    public var ids: BigInt { sizes.reduce(BigInt(0)) { $0 + $1.ids * $1.buckets } }

    /// The rows where collisions can happen (two ids or more in a bucket).
    private var colliding: [(ids: BigInt, buckets: BigInt)] { sizes.filter { $0.ids > BigInt(1) } }

    /// A rough log2 of L, for the starting precision.
    var log2Estimate: Double {
        let terms = colliding.map { row in
            row.buckets.log2Magnitude + Swift.min(2 * row.ids.log2Magnitude - space.log2Magnitude - 1, row.ids.log2Magnitude)
        }
        guard let top = terms.max() else { return -Double.infinity }
        return scopes.log2Magnitude + top + 2
    }

    /// Bounds on L = S·Σ_rows buckets·L(d, ids) at `precision` bits (every row with ids ≤ d).
    func logBounds(precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        var lo = BigFloat(0, precision: p)
        var hi = BigFloat(0, precision: p)
        for row in colliding {
            let (a, b) = LogComplement.bounds(space: space, count: row.ids, scopes: row.buckets * scopes, precision: p)
            lo = lo.adding(a, precision: p, rounding: .down)
            hi = hi.adding(b, precision: p, rounding: .up)
        }
        return (lo, hi)
    }

    /// 1 − p as an exact fraction, when every row's is affordable (≤ 2^22 bits in all).
    private var exactComplement: (numerator: BigInt, denominator: BigInt)? {
        var bits = 0
        for row in colliding {
            guard let cost = Birthday.exactCost(space: space, count: row.ids, scopes: row.buckets * scopes) else { return nil }
            bits += cost
            if bits > 1 << 22 { return nil }
        }
        var num = BigInt(1)
        var den = BigInt(1)
        for row in colliding {
            guard let (a, b) = Birthday.exactComplement(space: space, count: row.ids, scopes: row.buckets * scopes) else { return nil }
            num = num * a
            den = den * b
        }
        return (num, den)
    }

    /// p and 1 − p over all buckets and scopes, certified to `digits`.
    public func probability(digits: Int = Birthday.significantDigits) throws -> (
        probability: ScientificDecimal, complement: ScientificDecimal
    ) {
        if colliding.contains(where: { $0.ids > space }) { return (.one(significantDigits: digits), .zero) }
        if colliding.isEmpty { return (.zero, .one(significantDigits: digits)) }
        if let (num, den) = exactComplement {
            return (
                ScientificDecimal.exact(numerator: den - num, denominator: den, significantDigits: digits),
                ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: digits)
            )
        }
        return try Birthday.certified(log2L: log2Estimate, digits: digits) { p in logBounds(precision: p) }
    }

    /// p in the busiest bucket of one scope.
    public func bucketProbability(digits: Int = Birthday.significantDigits) throws -> (
        probability: ScientificDecimal, complement: ScientificDecimal
    ) {
        try Birthday.probability(space: space, count: busiest, digits: digits)
    }

    /// E[colliding pairs] = S·Σ_rows buckets·C(ids, 2)/d, exactly to `digits`.
    public func expectedCollisions(digits: Int = Birthday.significantDigits) -> ScientificDecimal {
        let pairs = sizes.reduce(BigInt(0)) { $0 + $1.buckets * $1.ids * ($1.ids - BigInt(1)) }
        return ScientificDecimal.exact(numerator: scopes * pairs, denominator: space.shifted(1), significantDigits: digits)
    }

    /// Whether p ≤ `budget`, decided with certified bounds (exactly, where the fraction is small).
    func isWithin(budget: Budget) throws -> Bool {
        if colliding.contains(where: { $0.ids > space }) { return false }
        if colliding.isEmpty { return true }
        var p = Swift.max(96, Int(log2Estimate) + 96)
        while p <= 1 << 22 {
            let (lo, hi) = logBounds(precision: p)
            let (bLo, bHi) = budget.logComplementBounds(precision: p)
            if hi <= bLo { return true }
            if lo > bHi { return false }
            // A budget written to match p: settle it exactly where that is cheap.
            if p >= 1 << 12, let (num, den) = exactComplement {
                // p ≤ B ⇔ 1 − num/den ≤ bn/bd ⇔ (den − num)·bd ≤ bn·den.
                let (bn, bd) = budget.fraction
                return (den - num) * bd <= bn * den
            }
            p *= 2
        }
        throw InputError(
            "the budget matches p over \(buckets) buckets too closely to decide; round the budget to fewer digits",
            argument: "max-probability")
    }

    /// The most whole buckets F (from the start, each scope) with p ≤ budget over them; 0 when the first
    /// bucket is over; nil when no number of buckets reaches the budget (fewer than two ids a bucket).
    public func lastingBuckets(budget: Budget) throws -> BigInt? {
        if ceilingMean <= BigInt(1) { return nil }
        return try IDBudget.lastingBuckets { b in try with(wholeBuckets: b).isWithin(budget: budget) }
    }
}
