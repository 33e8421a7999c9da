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

    public init(
        count: BigInt, scopes: BigInt = BigInt(1), buckets: BigInt = BigInt(1), nodes: BigInt = BigInt(1),
        rate: Rate? = nil, lifetime: Lifetime? = nil, notes: [String] = []
    ) {
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

    public var summary: String {
        var s = count.description
        if let rate, let lifetime, buckets == BigInt(1) { s += " (\(rate) for \(lifetime))" }
        if buckets > BigInt(1) { s += " per bucket, \(buckets) buckets" }
        if scopes > BigInt(1) { s += " in each of \(scopes) scopes" }
        return s
    }
}
