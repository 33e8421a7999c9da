import Foundation

/// A floor under one format's share of a symbol count. In a mix whose summary counts every format's
/// symbols together (ObjectIds beside cuid2s, UUIDv4s beside UUIDv1s or v8s), the other formats' ids
/// only add to a count: a count below what one format's own draws would write shows that format
/// narrowed or stuck there, whatever the others are — and a fault the others' symbols fill in is
/// one no summary could show.
extension AuditAnalysis {
    /// Whether `count` is too few for `draws` fresh draws, each writing the symbol with probability
    /// `p`: Chernoff's lower tail P(Bin(draws, p) ≤ k) ≤ exp(−(μ − k)²/(2μ)), μ = draws·p, is below
    /// `level`. Rigorous: what other formats add only makes a count harder to flag.
    static func belowFloor(count k: Int, draws: Int, probability p: Double, level: Double) -> Bool {
        let mu = Double(draws) * p
        let short = mu - Double(k)
        return short > 0 && exp(-short * short / (2 * mu)) < level
    }
}
