import IDFormats
import Precise

extension Scheme.Bucket {
    /// Bucket length in seconds, exactly.
    public var seconds: (numerator: BigInt, denominator: BigInt) {
        switch self {
        case .millisecond: (BigInt(1), BigInt(1000))
        case .second: (BigInt(1), BigInt(1))
        }
    }
}

extension Scheme {
    /// The space a collision is drawn from: 2^randomBits, or exactly what the format spells where
    /// that is not a power of two (cuid2: a letter and 23 base36 symbols, 26·36^23 ≈ 2^123.61, where
    /// `randomBits` rounds down to 123).
    public var space: BigInt {
        if name == IDFormat.cuid2.rawValue { return BigInt(26) * BigInt.power(36, IDFormat.cuid2.length - 1) }
        return BigInt.power(2, randomBits)
    }

    /// Buckets and identifiers per bucket for a rate sustained over a lifetime, assuming arrivals spread
    /// uniformly (⌈rate × bucket⌉ in every bucket; pass the peak rate to budget for bursts).
    public func bucketing(rate: Rate, lifetime: Lifetime) -> (buckets: BigInt, perBucket: BigInt)? {
        guard let bucket else { return nil }
        let (bn, bd) = bucket.seconds
        let buckets = BigInt.ceilingQuotient(lifetime.seconds.numerator * bd, lifetime.seconds.denominator * bn)
        let perBucket = BigInt.ceilingQuotient(rate.perSecond.numerator * bn, rate.perSecond.denominator * bd)
        return (buckets, perBucket)
    }
}
