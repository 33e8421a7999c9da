/// The identifier formats idbudget mints: one catalogue, read by the generators and by the birthday
/// math (`IDBudget`'s schemes), so that the random bits the math counts are the bits the generator draws.
public enum IDFormat: String, CaseIterable, Sendable {
    case uuid4, uuid7, ulid, ksuid, nanoid, typeid

    /// Only identifiers minted in the same bucket can collide.
    public enum Bucket: String, Sendable {
        case millisecond, second
    }

    /// Random bits each identifier draws (per bucket, for time-ordered formats: the first identifier
    /// of a bucket draws them; monotonic followers derive from it).
    public var randomBits: Int {
        switch self {
        case .uuid4: 122
        case .uuid7, .typeid: 74
        case .ulid: 80
        case .ksuid: 128
        case .nanoid: 126
        }
    }

    /// The time bucket, for formats that lead with a timestamp.
    public var bucket: Bucket? {
        switch self {
        case .uuid7, .ulid, .typeid: .millisecond
        case .ksuid: .second
        case .uuid4, .nanoid: nil
        }
    }

    /// Characters (and bytes) in the text form.
    public var length: Int {
        switch self {
        case .uuid4, .uuid7: 36
        case .ulid, .typeid: 26  // TypeID: the suffix; a prefix adds its bytes and `_`
        case .ksuid: 27
        case .nanoid: 21
        }
    }

    /// The symbols of the text form (the hex digits of a UUID; Nano ID's own ordering of 64).
    public var alphabet: Alphabet {
        switch self {
        case .uuid4, .uuid7: .hex
        case .ulid: .base32
        case .ksuid: .base62
        case .nanoid: .nanoid
        case .typeid: .lowerBase32
        }
    }

    /// Where a UUID's text has its hyphens (8-4-4-4-12), and the position of its version digit.
    public static let uuidHyphenPositions = [8, 13, 18, 23]
    public static let uuidVersionPosition = 14

    /// How the text form is written.
    public var encoding: String {
        switch self {
        case .uuid4, .uuid7: "hex 8-4-4-4-12"
        case .ulid: "Crockford base32"
        case .ksuid: "base62"
        case .nanoid: "A-Za-z0-9_- (64 symbols)"
        case .typeid: "prefix_ + 26 lower-case Crockford base32 (a UUIDv7)"
        }
    }

    /// Whether `IDGenerator` (IDTokens) orders identifiers within a bucket unless told otherwise.
    public var isMonotonicByDefault: Bool { self == .uuid7 || self == .typeid }

    /// Whether the format has a monotonic mode at all.
    public var hasMonotonicMode: Bool { self == .uuid7 || self == .ulid || self == .typeid }

    /// What else matters: fixed bits, ordering, limits.
    public var notes: String {
        switch self {
        case .uuid4:
            "128 bits, 6 of them fixed (version 4, variant 10)."
        case .uuid7:
            "48-bit Unix-ms timestamp, then rand_a (12) + rand_b (62) = 74 random bits: only ids of the same millisecond can collide. idbudget mints it monotonic by default (RFC 9562 §6.2 method 2): the first id of a millisecond draws all 74 bits, later ones in that millisecond add 1 + a 31-bit random step, so one generator's ids sort in minting order; if the 74-bit field would overflow, the timestamp advances by 1 ms. Runs collide no more often than independent draws, so 74 bits per ms is a safe model."
        case .ulid:
            "48-bit ms timestamp + 80 random bits. The monotonic option (ULID spec) adds 1 within a millisecond; where the spec lets an overflow fail, idbudget advances the timestamp by 1 ms instead."
        case .ksuid:
            "32-bit timestamp (seconds since 2014-05-13 16:53:20 UTC) + 128-bit random payload; 20 bytes binary, 27 base62 characters."
        case .nanoid:
            "Default Nano ID: 21 symbols of 64, 6 bits each."
        case .typeid:
            "A type prefix (up to 63 of a-z and _, not starting or ending with _; may be empty, then no separator), `_`, and a UUIDv7 as 26 lower-case Crockford base32 characters (the first 0–7): 74 random bits a millisecond, as uuid7, minted the same way (monotonic by default). The prefix carries no randomness: ids of different prefixes are different ids."
        }
    }

    /// Where the layout comes from.
    public var source: String {
        switch self {
        case .uuid4: "RFC 9562 §5.4"
        case .uuid7: "RFC 9562 §5.7, §6.2"
        case .ulid: "ULID spec (github.com/ulid/spec)"
        case .ksuid: "segmentio/ksuid README"
        case .nanoid: "ai/nanoid README"
        case .typeid: "TypeID spec v0.3 (github.com/jetify-com/typeid, spec/); RFC 9562 §5.7"
        }
    }

    /// The format called `name` (case-insensitive), if any.
    public static func named(_ name: String) -> IDFormat? { IDFormat(rawValue: name.lowercased()) }
}
