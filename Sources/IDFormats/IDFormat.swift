/// The identifier formats idbudget mints: one catalogue, read by the generators and by the birthday
/// math (`IDBudget`'s schemes), so that the random bits the math counts are the bits the generator draws.
///
/// Random formats first (uuid4 … uuid8), then the node-id family (uuid1 … tsid), whose uniqueness
/// rests on a node field and a counter (``node``) rather than on random bits.
public enum IDFormat: String, CaseIterable, Sendable {
    case uuid4, uuid7, ulid, ksuid, nanoid, typeid, cuid2, firebase, uuid8
    case uuid1, uuid6, xid, objectid, snowflake, discord, instagram, sonyflake, tsid

    /// Only identifiers minted in the same bucket can collide.
    public enum Bucket: String, Sendable {
        case millisecond, second
    }

    /// Random bits drawn fresh for each identifier (per bucket, for time-ordered formats: the first
    /// identifier of a bucket draws them; monotonic followers step from it; TSID's counter starts at a
    /// random value each millisecond). One definition, printed by `schemes`, `inspect` and the audit
    /// as "per id"; the bits a process draws once and shares among its ids are ``processRandomBits``.
    public var randomBits: Int {
        switch self {
        case .uuid4: 122
        case .uuid7, .typeid: 74
        case .ulid: 80
        case .ksuid: 128
        case .nanoid: 126
        case .cuid2: 123  // log2(26 · 36^23), taken as uniform (see `notes`)
        case .firebase: 72
        case .uuid8: 122
        case .tsid: 12  // the counter's random start, each millisecond (tsid-creator)
        case .uuid1, .uuid6, .xid, .objectid, .snowflake, .discord, .instagram, .sonyflake: 0
        }
    }

    /// Random bits a process (each node's minter) draws once and puts in every id it mints, as
    /// idbudget mints them (a random node where none is assigned): two processes' ids can meet only
    /// where these agree, and ids of one process never differ in them. Printed by `schemes`, `inspect`
    /// and the audit as "per process".
    public var processRandomBits: Int {
        switch self {
        case .uuid1, .uuid6: 61  // a random 47-bit node (its multicast bit set) and the 14-bit clock sequence
        case .xid: 24  // the counter's random start; the machine id and pid are not random
        case .objectid: 64  // the 5-byte per-process value and the counter's random start
        case .snowflake, .discord: 10  // a random worker (and process) id where none is assigned
        case .instagram: 13  // a random shard id
        case .sonyflake: 16  // a random machine id
        case .tsid: 10  // a random node id
        case .uuid4, .uuid7, .ulid, .ksuid, .nanoid, .typeid, .cuid2, .firebase, .uuid8: 0
        }
    }

    /// The time bucket, for formats that lead with a timestamp.
    public var bucket: Bucket? {
        switch self {
        case .uuid7, .ulid, .typeid, .firebase, .snowflake, .discord, .instagram, .tsid: .millisecond
        case .ksuid, .xid, .objectid: .second
        case .uuid4, .nanoid, .cuid2, .uuid8, .uuid1, .uuid6, .sonyflake: nil
        }
    }

    /// Characters (and bytes) in the text form; for the decimal Snowflake family, the most (19: their
    /// ids are below 2^63 and written without leading zeros, so earlier ones are shorter).
    public var length: Int {
        switch self {
        case .uuid4, .uuid7, .uuid8, .uuid1, .uuid6: 36
        case .ulid, .typeid: 26  // TypeID: the suffix; a prefix adds its bytes and `_`
        case .ksuid: 27
        case .nanoid: 21
        case .cuid2, .objectid: 24
        case .firebase, .xid: 20
        case .snowflake, .discord, .instagram, .sonyflake: 19
        case .tsid: 13
        }
    }

    /// Whether ids of this format can be shorter than ``length`` (decimal numbers).
    public var isDecimal: Bool { self == .snowflake || self == .discord || self == .instagram || self == .sonyflake }

    /// Bytes in the binary form (`generate --output raw`), or nil for formats that exist only as text.
    public var binaryLength: Int? {
        switch self {
        case .uuid4, .uuid7, .uuid8, .uuid1, .uuid6, .ulid, .typeid: 16
        case .ksuid: 20
        case .xid, .objectid: 12
        case .snowflake, .discord, .instagram, .sonyflake, .tsid: 8
        case .nanoid, .cuid2, .firebase: nil
        }
    }

    /// The field that keeps a node-id format unique (nil for the random formats).
    public var node: NodeField? {
        let ms = (numerator: 1, denominator: 1000)
        return switch self {
        case .uuid1, .uuid6:
            // RFC 9562 §5.1, §6.10: a random node is 47 random bits (the multicast bit set), and each
            // generator draws its 14-bit clock sequence at random too: two generators mint the same
            // ids only with the same node and the same clock sequence, 2^61 pairs. Random is what
            // idbudget mints; `--node-ids assigned` is a MAC address per generator.
            NodeField(bits: 61, name: "random node (47 bits) and clock sequence (14 bits)", perTick: 1, tick: (1, 10_000_000))
        // rs/xid and the MongoDB drivers start the 24-bit counter at random once per process and let it
        // run on across seconds; tsid-creator draws its counter's start each millisecond.
        case .xid: NodeField(bits: 40, name: "machine id and pid", perTick: 1 << 24, tick: (1, 1), counterStart: .oncePerProcess(bits: 24))
        case .objectid:
            NodeField(bits: 40, name: "per-process random value", perTick: 1 << 24, tick: (1, 1), counterStart: .oncePerProcess(bits: 24))
        case .snowflake: NodeField(bits: 10, name: "worker id", perTick: 4096, tick: ms)
        case .discord: NodeField(bits: 10, name: "worker and process id", perTick: 4096, tick: ms)
        case .instagram: NodeField(bits: 13, name: "shard id", perTick: 1024, tick: ms)
        case .sonyflake: NodeField(bits: 16, name: "machine id", perTick: 256, tick: (1, 100))
        case .tsid: NodeField(bits: 10, name: "node id", perTick: 4096, tick: ms, counterStart: .eachTickAtRandom(bits: 12))
        default: nil
        }
    }

    /// Bits `generate --node` sets: every node bit of the layout together (Discord's worker and
    /// process; xid's machine id and pid; a UUIDv1's whole 48-bit node). Nil: the format has no node.
    public var nodeBits: Int? {
        switch self {
        case .uuid1, .uuid6: 48
        case .xid, .objectid: 40
        case .snowflake, .discord, .tsid: 10
        case .instagram: 13
        case .sonyflake: 16
        default: nil
        }
    }

    /// The Snowflake family's epoch, in milliseconds since the Unix epoch (`generate --epoch` moves it).
    public var defaultEpoch: UInt64? {
        switch self {
        case .snowflake: 1_288_834_974_657
        case .discord: 1_420_070_400_000
        case .instagram: 1_314_220_021_721
        case .sonyflake: 1_409_529_600_000  // 2014-09-01T00:00:00Z
        case .tsid: 1_577_836_800_000  // 2020-01-01T00:00:00Z
        default: nil
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
        case .cuid2: .base36
        case .firebase: .firebase
        case .uuid8, .uuid1, .uuid6, .objectid: .hex
        case .xid: .base32hex
        case .snowflake, .discord, .instagram, .sonyflake: .decimal
        case .tsid: .base32
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
        case .cuid2: "base36, first a letter"
        case .firebase: "64 symbols: -0-9A-Z_a-z in ASCII order"
        case .uuid8, .uuid1, .uuid6: "hex 8-4-4-4-12"
        case .xid: "base32hex, lower case"
        case .objectid: "hex"
        case .snowflake, .discord, .instagram, .sonyflake: "decimal 64-bit integer"
        case .tsid: "Crockford base32, 13 characters"
        }
    }

    /// Whether `IDGenerator` (IDTokens) orders identifiers within a bucket unless told otherwise.
    public var isMonotonicByDefault: Bool { self == .uuid7 || self == .typeid || self == .firebase }

    /// Whether the format has a monotonic mode at all (the node-id family is ordered by its counter,
    /// always).
    public var hasMonotonicMode: Bool { self == .uuid7 || self == .ulid || self == .typeid || self == .firebase }

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
        case .cuid2:
            "24 characters by default: a letter, then 23 of base36 from a SHA3 hash of time, counter, fingerprint and random salt. Modelled as uniform over its output, 26·36^23 values (2^123.61; the formats' table counts 123 whole bits); its authors claim no more. idbudget mints that model directly: a uniform letter and 23 uniform base36 symbols from the CSPRNG."
        case .firebase:
            "8 characters of milliseconds, 12 random (72 bits); within one millisecond a client increments the random part (so do idbudget's)."
        case .uuid8:
            "Version 8 is custom: this entry counts all 122 free bits as random, the most it can hold; a minter that puts time or a node there has fewer. idbudget mints all 122 at random."
        case .uuid1:
            "Time in 100 ns ticks since 1582, a 14-bit clock sequence, and the node: a MAC address (assigned: unique) or 47 random bits. Two generators mint the same ids only with the same node and the same clock sequence: with random nodes (as idbudget mints them, the default here) 2^61 pairs."
        case .uuid6:
            "UUIDv1's time, clock sequence and node, the time's bits first so ids sort by time. The node may be random (47 bits): two generators then meet only with the same node and clock sequence, 2^61 pairs (the default here)."
        case .xid:
            "4-byte seconds, 3-byte machine id (a hash of the host id), 2-byte pid, 3-byte counter starting at a random value."
        case .objectid:
            "4-byte seconds, a 5-byte random value drawn once per process, a 3-byte counter starting at a random value."
        case .snowflake:
            "No random bits: a worker id (10 bits) and a sequence (4,096 ids a millisecond a worker). Unique while no two live workers share an id."
        case .discord:
            "Twitter's layout with the 10 node bits split into a 5-bit worker and a 5-bit process id; 4,096 ids a millisecond a process."
        case .instagram:
            "41-bit milliseconds (the top bit kept 0, so the id is a positive signed 64-bit integer: ids end in 2046), a 13-bit logical shard, a 10-bit sequence: 1,024 ids a millisecond a shard."
        case .sonyflake:
            "Time in 10 ms units, an 8-bit sequence (256 ids per 10 ms a machine), a 16-bit machine id (by default the low 16 bits of a private IPv4 address)."
        case .tsid:
            "42-bit milliseconds, then 22 bits of node and counter (tsid-creator's default: 10 node bits, 4,096 ids a millisecond a node; with no node set, the node bits are random)."
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
        case .cuid2: InspectableFormat.cuid2.source
        case .firebase: InspectableFormat.firebase.source
        case .uuid8: "RFC 9562 §5.8"
        case .uuid1: "RFC 9562 §5.1"
        case .uuid6: "RFC 9562 §5.6"
        case .xid: InspectableFormat.xid.source
        case .objectid: InspectableFormat.objectid.source
        case .snowflake: InspectableFormat.snowflake.source
        case .discord: InspectableFormat.discord.source
        case .instagram: InspectableFormat.instagram.source
        case .sonyflake: InspectableFormat.sonyflake.source
        case .tsid: InspectableFormat.tsid.source
        }
    }

    /// The format called `name` (case-insensitive), if any.
    public static func named(_ name: String) -> IDFormat? { IDFormat(rawValue: name.lowercased()) }
}
