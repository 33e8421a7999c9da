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

    public init(count: BigInt, nodes: BigInt = BigInt(1), scopes: BigInt = BigInt(1)) {
        amount = .count(count)
        self.nodes = nodes
        self.scopes = scopes
    }

    public init(rate: Rate, lifetime: Lifetime, nodes: BigInt = BigInt(1), peakRate: Rate? = nil, scopes: BigInt = BigInt(1)) {
        amount = .rate(rate, lifetime: lifetime)
        self.nodes = nodes
        self.peakRate = peakRate
        self.scopes = scopes
    }

    /// The identifiers that can collide with one another, and how many independent groups of them
    /// (scopes × time buckets) there are, with notes that say how the volume was read.
    public func volume(scheme: Scheme? = nil) throws(WorkloadError) -> Volume {
        guard nodes >= BigInt(1) else { throw WorkloadError(.nodes, "must be at least 1") }
        guard scopes >= BigInt(1) else { throw WorkloadError(.scopes, "must be at least 1") }
        var notes: [String] = []
        switch amount {
        case .count(let n):
            guard n.signum >= 0 else { throw WorkloadError(.count, "cannot be negative") }
            guard peakRate == nil else { throw WorkloadError(.peakRate, "needs a rate and a lifetime, not a fixed count") }
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
                throw WorkloadError(
                    .nodes,
                    "\(nodes.description.abbreviatedDigits) nodes × \(n.description.abbreviatedDigits) ids is too many identifiers (out of range: ≥ 1e\(Limits.maxCountDigits)); give fewer nodes"
                )
            }
            return Volume(count: n * nodes, scopes: scopes, buckets: BigInt(1), nodes: nodes, rate: nil, lifetime: nil, notes: notes)
        case .rate(let perNode, let lifetime):
            let rate = perNode.times(nodes)
            if nodes > BigInt(1) {
                notes.append(
                    "nodes: \(nodes) nodes each mint at \(perNode) into the same space: \(rate) in all. A format whose bits include a node id cannot collide across nodes: model it with scopes instead."
                )
            }
            if let peakRate, peakRate < perNode {
                throw WorkloadError(.peakRate, "\(peakRate) is below the rate \(perNode); a peak is at least the average")
            }
            if let scheme, let bucket = scheme.bucket {
                let busiest = peakRate.map { $0.times(nodes) } ?? rate
                guard let (buckets, perBucket) = scheme.bucketing(rate: busiest, lifetime: lifetime) else {
                    throw WorkloadError(.rate, "could not spread \(busiest) over buckets")
                }
                notes.append(
                    "\(scheme.name): only ids minted in the same \(bucket.rawValue) can collide; arrivals are taken as uniform at \(busiest) (\(perBucket) per \(bucket.rawValue)) over \(buckets) buckets, p_total = 1 − (1 − p_bucket)^buckets\(peakRate == nil ? "; for bursts give a peak rate" : "")."
                )
                return Volume(
                    count: perBucket, scopes: scopes, buckets: buckets, nodes: nodes, rate: rate, lifetime: lifetime, notes: notes)
            }
            guard peakRate == nil else {
                throw WorkloadError(.peakRate, "matters only for time-bucketed schemes (uuid7, ulid, ksuid)")
            }
            // The rate alone, then the nodes: the error names whichever made the volume too large.
            guard perNode.count(over: lifetime).decimalDigitCount <= Limits.maxCountDigits else {
                throw WorkloadError(
                    .rate, "\(perNode) over \(lifetime) is too many identifiers (out of range: ≥ 1e\(Limits.maxCountDigits))")
            }
            let n = rate.count(over: lifetime)
            guard n.decimalDigitCount <= Limits.maxCountDigits else {
                throw WorkloadError(
                    .nodes,
                    "\(nodes.description.abbreviatedDigits) nodes at \(perNode) over \(lifetime) is too many identifiers (out of range: ≥ 1e\(Limits.maxCountDigits)); give fewer nodes"
                )
            }
            return Volume(count: n, scopes: scopes, buckets: BigInt(1), nodes: nodes, rate: rate, lifetime: lifetime, notes: notes)
        }
    }
}

/// Why a workload cannot be planned, and which part of it is at fault.
public struct WorkloadError: Error, CustomStringConvertible {
    public enum Field: String, Sendable {
        case count, rate, lifetime, nodes, scopes
        case peakRate = "peak-rate"
    }

    public let field: Field
    public let message: String

    public init(_ field: Field, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field.rawValue): \(message)" }
}

extension String {
    /// A long run of digits shown as its ends and its length: `1000…0000 (640000 digits)`.
    var abbreviatedDigits: String {
        count > 24 ? "\(prefix(8))…\(suffix(8)) (\(count) digits)" : self
    }
}
