import Precise

/// A workload as the birthday math sees it: `count` identifiers that can collide with one another, in
/// each of `scopes × buckets` independent groups.
public struct Volume: Sendable {
    /// Identifiers that can collide with each other: per scope, per time bucket.
    public let count: BigInt
    /// Independent scopes, each holding `count` identifiers per bucket.
    public let scopes: BigInt
    /// Time buckets (1 unless the scheme is time-bucketed).
    public let buckets: BigInt
    /// Nodes minting into the space (already folded into `count`).
    public let nodes: BigInt
    public let rate: Rate?
    public let lifetime: Lifetime?
    /// How the workload was read, in words.
    public let notes: [String]
    /// Ids already stored (per scope), which the new ones can collide with; 0 by default.
    public let existing: BigInt
    /// The rate's continuous growth, if any.
    public let growth: Growth?
    /// How ids fall into time buckets, where buckets apply (time-ordered schemes with a rate).
    public let arrivals: Arrivals?
    /// With Poisson arrivals into time buckets: the model p is computed from (``count`` is then the
    /// rounded-up mean of a bucket, for show).
    public let poisson: PoissonBuckets?
    /// With even arrivals into time buckets: the model p is computed from (``count`` is then the
    /// busiest bucket's ids, for show).
    public let even: EvenBuckets?

    public init(
        count: BigInt, scopes: BigInt = BigInt(1), buckets: BigInt = BigInt(1), nodes: BigInt = BigInt(1),
        rate: Rate? = nil, lifetime: Lifetime? = nil, notes: [String] = [], existing: BigInt = BigInt(0),
        growth: Growth? = nil, arrivals: Arrivals? = nil, poisson: PoissonBuckets? = nil, even: EvenBuckets? = nil
    ) {
        self.even = even
        self.existing = existing
        self.growth = growth
        self.arrivals = arrivals
        self.poisson = poisson
        self.count = count
        self.scopes = scopes
        self.buckets = buckets
        self.nodes = nodes
        self.rate = rate
        self.lifetime = lifetime
        self.notes = notes
    }

    /// Independent groups of `count`: scopes × buckets.
    public var groups: BigInt { scopes * buckets }

    /// The ids that can collide with one another in a scope: the new ones and those already stored.
    public var total: BigInt { count + existing }

    public var summary: String { summary(count: count.description) }

    /// The summary, with the count's decimal text written by the caller (once: it can run to 640,000
    /// digits).
    func summary(count text: @autoclosure () -> String) -> String {
        var s = poisson == nil && even == nil ? text() : ""
        if let poisson {
            let mean = ScientificDecimal.exact(
                numerator: poisson.mean.numerator, denominator: poisson.mean.denominator, significantDigits: 6)
            s = "λ = \(mean.short(6))\(poisson.growth == nil ? "" : " at the start")"
        }
        if let rate, let lifetime, buckets == BigInt(1), even == nil {
            s += " (\(rate)\(growth.map { " growing \($0)" } ?? "") for \(lifetime))"
        }
        if buckets > BigInt(1) || even != nil {
            if let even {
                let rows = even.sizes.map { "\($0.buckets) of \($0.ids)" }.joined(separator: ", ")
                s = "\(even.ids) ids spread evenly over \(buckets) buckets (\(rows))"
            } else {
                s += arrivals == .poisson ? " ids per bucket on average (Poisson), \(buckets) buckets" : " per bucket, \(buckets) buckets"
            }
        }
        if existing.signum > 0 { s += " new, with \(existing) already stored" }
        if scopes > BigInt(1) { s += " in each of \(scopes) scopes" }
        return s
    }
}
