import Precise

/// How many identifiers a system mints and how they are grouped: the question `idbudget probability`,
/// `length` and `plan` answer, asked from code.
///
/// ```swift
/// let workload = Workload(rate: try Rate(parsing: "1e6/s"), lifetime: try Lifetime(parsing: "10y"))
/// let volume = try workload.volume(scheme: Scheme.named("uuid7"))
/// ```
public struct Workload: Sendable {
    public enum Amount: Sendable {
        /// A fixed number of identifiers per node (and per scope).
        case count(BigInt)
        /// Identifiers per node (and per scope) at a rate, over a lifetime.
        case rate(Rate, lifetime: Lifetime)
    }

    public var amount: Amount
    /// Nodes that each mint `amount` into the same space: the fleet volume is nodes × amount.
    public var nodes: BigInt
    /// For time-bucketed schemes: the burst rate (per node) to budget every bucket at; at least the rate.
    public var peakRate: Rate?
    /// Independent scopes (devices, tenants) that each hold the volume: p is that any of them collides.
    public var scopes: BigInt
    /// Ids already stored (in each scope), which new ones can collide with.
    public var existing: BigInt = BigInt(0)
    /// The rate's continuous growth (with a rate and a lifetime).
    public var growth: Growth?
    /// How ids fall into the time buckets of a time-ordered scheme: Poisson by default.
    public var arrivals: Arrivals = .poisson

    public init(count: BigInt, nodes: BigInt = BigInt(1), scopes: BigInt = BigInt(1), existing: BigInt = BigInt(0)) {
        amount = .count(count)
        self.nodes = nodes
        self.scopes = scopes
        self.existing = existing
    }

    public init(
        rate: Rate, lifetime: Lifetime, nodes: BigInt = BigInt(1), peakRate: Rate? = nil, scopes: BigInt = BigInt(1),
        growth: Growth? = nil, arrivals: Arrivals = .poisson, existing: BigInt = BigInt(0)
    ) {
        amount = .rate(rate, lifetime: lifetime)
        self.nodes = nodes
        self.peakRate = peakRate
        self.scopes = scopes
        self.growth = growth
        self.arrivals = arrivals
        self.existing = existing
    }

    /// The identifiers that can collide with one another, and how many independent groups of them
    /// (scopes × time buckets) there are, with notes that say how the volume was read.
    public func volume(scheme: Scheme? = nil) throws(InputError) -> Volume {
        guard nodes >= BigInt(1) else { throw Self.refusal(.nodes, "must be at least 1") }
        guard scopes >= BigInt(1) else { throw Self.refusal(.scopes, "must be at least 1") }
        guard existing.signum >= 0 else { throw Self.refusal(.existing, "cannot be negative") }
        guard existing.decimalDigitCount <= Limits.maxCountDigits else {
            throw Self.refusal(.existing, "is too many identifiers (out of range: ≥ 1e\(Limits.maxCountDigits))")
        }
        if existing.signum > 0, let scheme, let bucket = scheme.bucket {
            throw Self.refusal(
                .existing,
                "\(scheme.name) ids collide only within one \(bucket.rawValue), so ids stored earlier cannot collide with new ones; leave them out"
            )
        }
        var notes: [String] = []
        if existing.signum > 0 {
            notes.append(
                "existing: \(existing) ids already stored\(scopes > BigInt(1) ? " in each scope" : ""); p is that some two of the stored and new ids collide (count is the new ids)."
            )
        }
        switch amount {
        case .count(let n):
            guard n.signum >= 0 else { throw Self.refusal(.count, "cannot be negative") }
            guard peakRate == nil else { throw Self.refusal(.peakRate, "needs a rate and a lifetime, not a fixed count") }
            guard growth == nil else { throw Self.refusal(.growth, "needs a rate and a lifetime, not a fixed count") }
            if nodes > BigInt(1) {
                notes.append(
                    "nodes: \(nodes) nodes each mint \(n) ids into the same space: \(nodes * n) in all. A format whose bits include a node id cannot collide across nodes: model it with scopes instead."
                )
            }
            if let scheme, let bucket = scheme.bucket {
                notes.append(
                    "\(scheme.name) ids collide only within one \(bucket.rawValue); with a bare count, all of them are taken to share one (the worst case). Give a rate and a lifetime to spread them."
                )
            }
            guard (n * nodes).decimalDigitCount <= Limits.maxCountDigits else {
                throw Self.refusal(
                    .nodes,
                    "\(nodes.description.abbreviatedDigits) nodes × \(n.description.abbreviatedDigits) ids is too many identifiers (out of range: ≥ 1e\(Limits.maxCountDigits)); give fewer nodes"
                )
            }
            return Volume(
                count: n * nodes, scopes: scopes, buckets: BigInt(1), nodes: nodes, rate: nil, lifetime: nil, notes: notes,
                existing: existing)
        case .rate(let perNode, let lifetime):
            let rate = perNode.times(nodes)
            if nodes > BigInt(1) {
                notes.append(
                    "nodes: \(nodes) nodes each mint at \(perNode) into the same space: \(rate) in all. A format whose bits include a node id cannot collide across nodes: model it with scopes instead."
                )
            }
            if let peakRate, peakRate < perNode {
                throw Self.refusal(.peakRate, "\(peakRate) is below the rate \(perNode); a peak is at least the average")
            }
            if let scheme, let bucket = scheme.bucket {
                let busiest = peakRate.map { $0.times(nodes) } ?? rate
                guard let (buckets, perBucket) = scheme.bucketing(rate: busiest, lifetime: lifetime) else {
                    throw Self.refusal(.rate, "could not spread \(busiest) over buckets")
                }
                let growing = growth.flatMap { $0.isNone ? nil : $0 }
                if arrivals == .poisson {
                    notes.append(
                        "\(scheme.name): only ids minted in the same \(bucket.rawValue) can collide; arrivals are Poisson (independent requests) at \(busiest)\(growing.map { ", growing \($0) (compounding continuously; each bucket's mean is the rate's integral over it)" } ?? ""), mean λ = rate × \(bucket.rawValue) per bucket, over \(buckets) buckets: P(no collision in a bucket) = e^−λ·(1 + λ/d)^d, p_total = 1 − ∏ over buckets\(peakRate == nil ? "; for bursts give a peak rate" : ""). --arrivals even spreads them evenly instead."
                    )
                    // A lifetime ending inside its last bucket covers f = T/b − (B − 1) of it.
                    let (tn, td) = lifetime.seconds
                    let (bn, bd) = bucket.seconds
                    let covered = tn * bd - (buckets - BigInt(1)) * td * bn
                    let whole = covered == td * bn
                    let model = PoissonBuckets(
                        space: scheme.space, rate: busiest, bucketSeconds: bucket.seconds, buckets: buckets, scopes: scopes,
                        growth: growing, lastFraction: whole ? nil : (covered, td * bn))
                    return Volume(
                        count: perBucket, scopes: scopes, buckets: buckets, nodes: nodes, rate: rate, lifetime: lifetime, notes: notes,
                        growth: growth, arrivals: .poisson, poisson: model)
                }
                if growing != nil {
                    throw Self.refusal(
                        .growth, "with even arrivals every bucket would hold a different whole count; use poisson arrivals with growth")
                }
                let even = EvenBuckets(
                    space: scheme.space, rate: busiest, bucketSeconds: bucket.seconds, lifetime: lifetime, scopes: scopes)
                let rows = even.sizes.map { "\($0.buckets) \(bucket.rawValue)s of \($0.ids)" }.joined(separator: ", ")
                notes.append(
                    "\(scheme.name): only ids minted in the same \(bucket.rawValue) can collide; arrivals are even at \(busiest): id k at k/rate, \(even.ids) ids over the lifetime, so \(bucket.rawValue) j holds ⌈(j+1)λ⌉ − ⌈jλ⌉ of them (λ = rate × \(bucket.rawValue)): \(rows)\(even.lastBucket == nil ? "" : " (the last cut short by the lifetime)"); p_total = 1 − ∏ over buckets (1 − p_bucket)\(peakRate == nil ? "; for bursts give a peak rate" : "")."
                )
                notes.append(
                    "arrivals even: ids are spread evenly, so below one id per \(bucket.rawValue) none can collide; real traffic is closer to Poisson (the default)."
                )
                return Volume(
                    count: even.busiest, scopes: scopes, buckets: even.buckets, nodes: nodes, rate: rate, lifetime: lifetime, notes: notes,
                    arrivals: .even, even: even)
            }
            guard peakRate == nil else {
                throw Self.refusal(.peakRate, "matters only for time-bucketed schemes (uuid7, ulid, ksuid, typeid, firebase)")
            }
            // The rate alone, then the nodes: the error names whichever made the volume too large.
            guard perNode.count(over: lifetime).decimalDigitCount <= Limits.maxCountDigits else {
                throw Self.refusal(
                    .rate, "\(perNode) over \(lifetime) is too many identifiers (out of range: ≥ 1e\(Limits.maxCountDigits))")
            }
            let n: BigInt
            if let growth, !growth.isNone {
                do { n = try growth.count(rate: rate, over: lifetime) } catch { throw Self.refusal(.growth, error.message) }
                notes.append(
                    "growth: the rate compounds continuously, r(t) = r₀·(1 + g)^(t/period) with \(growth); count = ⌈r₀·period/ln(1 + g)·((1 + g)^(lifetime/period) − 1)⌉."
                )
            } else {
                n = rate.count(over: lifetime)
            }
            guard n.decimalDigitCount <= Limits.maxCountDigits else {
                throw Self.refusal(
                    .nodes,
                    "\(nodes.description.abbreviatedDigits) nodes at \(perNode) over \(lifetime) is too many identifiers (out of range: ≥ 1e\(Limits.maxCountDigits)); give fewer nodes"
                )
            }
            return Volume(
                count: n, scopes: scopes, buckets: BigInt(1), nodes: nodes, rate: rate, lifetime: lifetime, notes: notes,
                existing: existing, growth: growth)
        }
    }
}

/// Why a workload cannot be planned, and which part of it is at fault.
extension Workload {
    /// `plan`'s format rows: every random format idbudget mints, with this workload resolved for it (its
    /// buckets, Poisson arrivals). A format the workload does not apply to (ids stored earlier, for a
    /// time-ordered format) is left out with a note saying why; so are the node-id formats, whose
    /// question is how many nodes mint, not how many ids.
    public func formatVolumes() -> (formats: [(scheme: Scheme, volume: Volume)], notes: [String]) {
        var formats: [(scheme: Scheme, volume: Volume)] = []
        var notes: [String] = []
        for format in IDFormat.allCases where format.node == nil {
            let scheme = Scheme(format: format)
            do { formats.append((scheme, try volume(scheme: scheme))) } catch {
                notes.append("formats: \(scheme.name) left out: \(error.argument ?? "its volume") \(error.message)")
            }
        }
        let nodeFormats = IDFormat.allCases.filter { $0.node != nil }.map(\.rawValue)
        notes.append(
            "formats: node-id formats (\(nodeFormats.joined(separator: ", "))) are kept apart by a node field; ask idbudget length --scheme snowflake --nodes 50 --max-probability 1e-6."
        )
        return (formats, notes)
    }
}

extension Workload {
    /// The inputs a workload's refusal can concern, by the names the front ends give them.
    enum Field: String {
        case count, rate, lifetime, nodes, scopes, growth, arrivals, existing
        case peakRate = "peak-rate"
    }

    /// A refusal of `field`: its message reads after the field's name (`nodes: must be at least 1`).
    static func refusal(_ field: Field, _ message: String) -> InputError { InputError(message, argument: field.rawValue) }
}

extension String {
    /// A long run of digits shown as its ends and its length: `1000…0000 (640000 digits)`.
    var abbreviatedDigits: String {
        count > 24 ? "\(prefix(8))…\(suffix(8)) (\(count) digits)" : self
    }
}
