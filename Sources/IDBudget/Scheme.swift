import IDTokens
import Precise

/// An identifier format people actually use, described by what makes two of them collide.
public struct Scheme: Sendable {
    /// Time buckets: only identifiers minted in the same bucket can collide.
    public enum Bucket: String, Sendable {
        case millisecond, second

        /// Bucket length in seconds, exactly.
        public var seconds: (numerator: BigInt, denominator: BigInt) {
            switch self {
            case .millisecond: (BigInt(1), BigInt(1000))
            case .second: (BigInt(1), BigInt(1))
            }
        }
    }

    public let name: String
    /// Random bits per identifier (per bucket, for time-bucketed schemes).
    public let randomBits: Int
    /// How it is written.
    public let encoding: String
    /// Characters in the usual text form.
    public let length: Int
    /// Bytes in the usual text form (the header or field size).
    public let bytes: Int
    public let bucket: Bucket?
    /// What else matters: fixed bits, variants, limits.
    public let notes: String
    /// Where the numbers come from.
    public let source: String

    /// The space a collision is drawn from: 2^randomBits.
    public var space: BigInt { BigInt.power(2, randomBits) }

    /// A format `IDGenerator` (IDTokens) mints: its bits, bucket and size come from the generator's catalogue.
    public init(format: IDFormat) {
        self.init(
            name: format.rawValue, randomBits: format.randomBits, encoding: format.encoding, length: format.length,
            bytes: format.length, bucket: format.bucket.flatMap { Bucket(rawValue: $0.rawValue) },
            notes: format.notes + " Minted by `idbudget generate --scheme \(format.rawValue)`.", source: format.source)
    }

    public init(name: String, randomBits: Int, encoding: String, length: Int, bytes: Int, bucket: Bucket?, notes: String, source: String) {
        self.name = name
        self.randomBits = randomBits
        self.encoding = encoding
        self.length = length
        self.bytes = bytes
        self.bucket = bucket
        self.notes = notes
        self.source = source
    }

    public static let all: [Scheme] = IDFormat.allCases.map(Scheme.init(format:)) + [
        Scheme(
            name: "apns-id", randomBits: 122, encoding: "UUID, hex 8-4-4-4-12", length: 36, bytes: 36, bucket: nil,
            notes: "The apns-id request header: a canonical UUID (APNs makes one if omitted); a version-4 UUID has 122 random bits.",
            source: "Apple, Sending notification requests to APNs"),
        Scheme(
            name: "apns-collapse-id", randomBits: 384, encoding: "any string ≤ 64 bytes", length: 64, bytes: 64, bucket: nil,
            notes: "A later push with the same collapse id replaces the earlier notification on the device. The space is whatever you put in; this entry assumes the most a 64-byte header of URL-safe symbols holds (64 base64url characters, 384 bits). Collisions matter per device: use --scopes.",
            source: "Apple, Sending notification requests to APNs; WWDC16 session 707"),
        Scheme(
            name: "notification-request-id", randomBits: 122, encoding: "any string, usually UUID().uuidString", length: 36, bytes: 36, bucket: nil,
            notes: "UNNotificationRequest identifier: adding a request with the identifier of a pending one replaces it. Counted here as a UUIDv4; collisions matter per device (--scopes).",
            source: "Apple UserNotifications, UNNotificationRequest; WWDC16 session 707"),
    ]

    public static func named(_ name: String) -> Scheme? {
        all.first { $0.name == name.lowercased() }
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
