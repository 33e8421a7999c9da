/// How ids arrive within the time buckets of a time-ordered format (uuid7, ulid, ksuid), where only ids
/// of the same bucket can collide.
///
/// * ``poisson`` (the default): independent requests, so the number of ids in a bucket is Poisson with
///   mean λ = rate × bucket, and each draws uniformly from the bucket's d values. Then
///   P(no collision in a bucket) = Σ_n e^−λ λ^n/n! · d!/((d−n)!·d^n) = e^−λ·(1 + λ/d)^d, so
///   ℓ = −log P = λ − d·log1p(λ/d), and over B buckets p = 1 − e^−Bℓ. See <doc:ArrivalModels>.
/// * ``even``: ⌈rate × bucket⌉ ids in every bucket, spread evenly: below one id per bucket nothing
///   can collide, which is why it is not the default.
public enum Arrivals: String, Sendable, Codable, CaseIterable {
    case poisson
    case even

    /// Parses `poisson` or `even`.
    public init(parsing text: String) throws(InputError) {
        guard let a = Arrivals(rawValue: text.trimmingSpaces) else {
            throw InputError("'\(text)' is not an arrival model; use poisson or even")
        }
        self = a
    }
}
