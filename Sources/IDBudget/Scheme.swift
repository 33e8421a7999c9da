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

    public static let all: [Scheme] = [
        Scheme(
            name: "uuid4", randomBits: 122, encoding: "hex 8-4-4-4-12", length: 36, bytes: 36, bucket: nil,
            notes: "128 bits, 6 of them fixed (version 4, variant 10).",
            source: "RFC 9562 §5.4"),
        Scheme(
            name: "uuid7", randomBits: 74, encoding: "hex 8-4-4-4-12", length: 36, bytes: 36, bucket: .millisecond,
            notes: "48-bit Unix-ms timestamp, then rand_a (12) + rand_b (62) = 74 random bits: only ids of the same millisecond can collide. Monotonic variants (RFC 9562 §6.2, methods 1-3) spend rand_a and part of rand_b on a counter or sub-ms time: one generator cannot repeat itself, but across generators fewer bits are random; model them with --bits.",
            source: "RFC 9562 §5.7, §6.2"),
        Scheme(
            name: "ulid", randomBits: 80, encoding: "Crockford base32", length: 26, bytes: 26, bucket: .millisecond,
            notes: "48-bit ms timestamp + 80 random bits. The monotonic variant increments the random part within a millisecond instead of drawing it again.",
            source: "ULID spec (github.com/ulid/spec)"),
        Scheme(
            name: "ksuid", randomBits: 128, encoding: "base62", length: 27, bytes: 27, bucket: .second,
            notes: "32-bit timestamp (seconds since 2014-05-13) + 128-bit random payload; 20 bytes binary.",
            source: "segmentio/ksuid README"),
        Scheme(
            name: "nanoid", randomBits: 126, encoding: "A-Za-z0-9_- (64 symbols)", length: 21, bytes: 21, bucket: nil,
            notes: "Default Nano ID: 21 symbols of 64, 6 bits each.",
            source: "ai/nanoid README"),
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
