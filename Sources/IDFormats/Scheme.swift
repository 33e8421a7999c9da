/// An identifier format people actually use, described by what makes two of them collide: the
/// formats idbudget mints (``IDFormat``) and the Apple notification ids it plans for.
public struct Scheme: Sendable, Hashable {
    /// Time buckets: only identifiers minted in the same bucket can collide.
    public typealias Bucket = IDFormat.Bucket

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
    /// Whether `IDGenerator` mints it.
    public var format: IDFormat? { IDFormat(rawValue: name) }
    /// For formats whose uniqueness rests on a node field rather than random bits (see ``NodeField``).
    public var node: NodeField? = nil

    /// A format `IDGenerator` mints: its bits, bucket and size come from the format catalogue.
    public init(format: IDFormat) {
        self.init(
            name: format.rawValue, randomBits: format.randomBits, encoding: format.encoding, length: format.length,
            bytes: format.length, bucket: format.bucket,
            notes: format.notes + " Minted by `idbudget generate --scheme \(format.rawValue)`.", source: format.source)
    }

    public init(
        name: String, randomBits: Int, encoding: String, length: Int, bytes: Int, bucket: Bucket?, notes: String,
        source: String, node: NodeField? = nil
    ) {
        self.node = node
        self.name = name
        self.randomBits = randomBits
        self.encoding = encoding
        self.length = length
        self.bytes = bytes
        self.bucket = bucket
        self.notes = notes
        self.source = source
    }

    public static let uuid4 = Scheme(format: .uuid4)
    public static let uuid7 = Scheme(format: .uuid7)
    public static let ulid = Scheme(format: .ulid)
    public static let ksuid = Scheme(format: .ksuid)
    public static let nanoid = Scheme(format: .nanoid)

    /// The `apns-id` request header.
    public static let apnsID = Scheme(
        name: "apns-id", randomBits: 122, encoding: "UUID, hex 8-4-4-4-12", length: 36, bytes: 36, bucket: nil,
        notes:
            "The apns-id request header: a canonical UUID (APNs makes one if omitted); a version-4 UUID has 122 random bits.",
        source: "Apple, Sending notification requests to APNs")

    /// The `apns-collapse-id` header: a later push with the same id replaces the earlier one.
    public static let apnsCollapseID = Scheme(
        name: "apns-collapse-id", randomBits: 384, encoding: "any string ≤ 64 bytes", length: 64, bytes: 64,
        bucket: nil,
        notes:
            "A later push with the same collapse id replaces the earlier notification on the device. The space is whatever you put in; this entry assumes the most a 64-byte header of URL-safe symbols holds (64 base64url characters, 384 bits). Collisions matter per device: use --scopes.",
        source: "Apple, Sending notification requests to APNs; WWDC16 session 707")

    /// `UNNotificationRequest` identifiers.
    public static let notificationRequestID = Scheme(
        name: "notification-request-id", randomBits: 122, encoding: "any string, usually UUID().uuidString",
        length: 36, bytes: 36, bucket: nil,
        notes:
            "UNNotificationRequest identifier: adding a request with the identifier of a pending one replaces it. Counted here as a UUIDv4; collisions matter per device (--scopes).",
        source: "Apple UserNotifications, UNNotificationRequest; WWDC16 session 707")

    /// Every scheme: minted formats, then the other random ones, the node-id family, Apple's ids.
    public static let all: [Scheme] =
        IDFormat.allCases.map(Scheme.init(format:)) + [cuid2, firebase, uuid8]
        + [uuid1, uuid6, xid, objectid, snowflake, discord, instagram, sonyflake, tsid]
        + [apnsID, apnsCollapseID, notificationRequestID]

    /// The scheme called `name` (case-insensitive), if any.
    public static func named(_ name: String) -> Scheme? {
        all.first { $0.name == name.lowercased() }
    }
}

/// The field that keeps a node-id format unique: two live nodes with the same value can mint the same
/// id (same tick, same counter); one node stays unique while it mints at most `perTick` ids a tick.
public struct NodeField: Sendable, Hashable {
    /// Bits of the field: 2^bits values for nodes to pick from.
    public let bits: Int
    /// What the field is called in the format ("worker id", "machine id and pid").
    public let name: String
    /// Ids one node can mint in one tick before it must wait for the next.
    public let perTick: Int
    /// The tick, in seconds, as a fraction.
    public let tick: (numerator: Int, denominator: Int)
    /// Whether the field is usually assigned (a MAC address) rather than drawn at random.
    public let assignedByDefault: Bool

    public init(bits: Int, name: String, perTick: Int, tick: (numerator: Int, denominator: Int), assignedByDefault: Bool = false) {
        self.bits = bits
        self.name = name
        self.perTick = perTick
        self.tick = tick
        self.assignedByDefault = assignedByDefault
    }

    public static func == (a: NodeField, b: NodeField) -> Bool {
        a.bits == b.bits && a.name == b.name && a.perTick == b.perTick && a.tick == b.tick && a.assignedByDefault == b.assignedByDefault
    }

    public func hash(into h: inout Hasher) {
        h.combine(bits)
        h.combine(name)
        h.combine(perTick)
    }
}

extension Scheme {
    static let ms = (numerator: 1, denominator: 1000)

    /// cuid2: a hash's output, taken as uniform over its 24 symbols (see ``InspectableFormat/cuid2``).
    public static let cuid2 = Scheme(
        name: "cuid2", randomBits: 123, encoding: "base36, first a letter", length: 24, bytes: 24, bucket: nil,
        notes:
            "24 characters by default: a letter, then 23 of base36 from a SHA3 hash of time, counter, fingerprint and random salt. Modelled as uniform over its output, log2(26·36^23) = 123 bits; its authors claim no more.",
        source: InspectableFormat.cuid2.source)

    /// The Firebase push id: 48-bit milliseconds and 72 random bits.
    public static let firebase = Scheme(
        name: "firebase", randomBits: 72, encoding: "64 symbols: -0-9A-Z_a-z in ASCII order", length: 20, bytes: 20,
        bucket: .millisecond,
        notes: "8 characters of milliseconds, 12 random (72 bits); within one millisecond a client increments the random part.",
        source: InspectableFormat.firebase.source)

    /// UUIDv8: laid out by its minter; counted as 122 random bits (all but version and variant).
    public static let uuid8 = Scheme(
        name: "uuid8", randomBits: 122, encoding: "hex 8-4-4-4-12", length: 36, bytes: 36, bucket: nil,
        notes:
            "Version 8 is custom: this entry counts all 122 free bits as random, the most it can hold; a minter that puts time or a node there has fewer.",
        source: InspectableFormat.uuid8.source)

    /// UUIDv1: 60-bit time in 100 ns ticks, 14-bit clock sequence, 48-bit node (a MAC address).
    public static let uuid1 = Scheme(
        name: "uuid1", randomBits: 14, encoding: "hex 8-4-4-4-12", length: 36, bytes: 36, bucket: nil,
        notes:
            "Time in 100 ns ticks since 1582, a 14-bit clock sequence, and the node: a MAC address (assigned: unique) or 47 random bits. Two nodes collide only with the same node value.",
        source: InspectableFormat.uuid1.source,
        node: NodeField(bits: 47, name: "node (random when no MAC)", perTick: 1, tick: (1, 10_000_000), assignedByDefault: true))

    /// UUIDv6: UUIDv1's fields reordered so ids sort by time.
    public static let uuid6 = Scheme(
        name: "uuid6", randomBits: 14, encoding: "hex 8-4-4-4-12", length: 36, bytes: 36, bucket: nil,
        notes: "UUIDv1's time, clock sequence and node, the time's bits first so ids sort by time. The node may be random (47 bits).",
        source: InspectableFormat.uuid6.source,
        node: NodeField(bits: 47, name: "node (random when no MAC)", perTick: 1, tick: (1, 10_000_000), assignedByDefault: true))

    /// xid: seconds, a 3-byte machine id, a 2-byte pid and a 3-byte counter.
    public static let xid = Scheme(
        name: "xid", randomBits: 0, encoding: "base32hex, lower case", length: 20, bytes: 20, bucket: .second,
        notes: "4-byte seconds, 3-byte machine id (a hash of the host id), 2-byte pid, 3-byte counter starting at a random value.",
        source: InspectableFormat.xid.source,
        node: NodeField(bits: 40, name: "machine id and pid", perTick: 1 << 24, tick: (1, 1)))

    /// MongoDB ObjectId: seconds, a 5-byte random value per process, a 3-byte counter.
    public static let objectid = Scheme(
        name: "objectid", randomBits: 0, encoding: "hex", length: 24, bytes: 24, bucket: .second,
        notes: "4-byte seconds, a 5-byte random value drawn once per process, a 3-byte counter starting at a random value.",
        source: InspectableFormat.objectid.source,
        node: NodeField(bits: 40, name: "per-process random value", perTick: 1 << 24, tick: (1, 1)))

    /// Twitter Snowflake: 41-bit ms, 10-bit worker id, 12-bit sequence.
    public static let snowflake = Scheme(
        name: "snowflake", randomBits: 0, encoding: "decimal 64-bit integer", length: 19, bytes: 8, bucket: .millisecond,
        notes:
            "No random bits: a worker id (10 bits) and a sequence (4,096 ids a millisecond a worker). Unique while no two live workers share an id.",
        source: InspectableFormat.snowflake.source,
        node: NodeField(bits: 10, name: "worker id", perTick: 4096, tick: ms))

    /// Discord's Snowflake: 5-bit worker and 5-bit process ids.
    public static let discord = Scheme(
        name: "discord", randomBits: 0, encoding: "decimal 64-bit integer", length: 19, bytes: 8, bucket: .millisecond,
        notes:
            "Twitter's layout with the 10 node bits split into a 5-bit worker and a 5-bit process id; 4,096 ids a millisecond a process.",
        source: InspectableFormat.discord.source,
        node: NodeField(bits: 10, name: "worker and process id", perTick: 4096, tick: ms))

    /// Instagram's ids: 13-bit shard, 10-bit sequence.
    public static let instagram = Scheme(
        name: "instagram", randomBits: 0, encoding: "decimal 64-bit integer", length: 19, bytes: 8, bucket: .millisecond,
        notes: "41-bit milliseconds, a 13-bit logical shard, a 10-bit sequence: 1,024 ids a millisecond a shard.",
        source: InspectableFormat.instagram.source,
        node: NodeField(bits: 13, name: "shard id", perTick: 1024, tick: ms))

    /// Sonyflake: 39 bits of 10 ms, 8-bit sequence, 16-bit machine id.
    public static let sonyflake = Scheme(
        name: "sonyflake", randomBits: 0, encoding: "decimal 64-bit integer", length: 19, bytes: 8, bucket: nil,
        notes:
            "Time in 10 ms units, an 8-bit sequence (256 ids per 10 ms a machine), a 16-bit machine id (by default the low 16 bits of a private IPv4 address).",
        source: InspectableFormat.sonyflake.source,
        node: NodeField(bits: 16, name: "machine id", perTick: 256, tick: (1, 100)))

    /// TSID: 42-bit ms, then node and counter.
    public static let tsid = Scheme(
        name: "tsid", randomBits: 0, encoding: "Crockford base32, 13 characters", length: 13, bytes: 8, bucket: .millisecond,
        notes:
            "42-bit milliseconds, then 22 bits of node and counter (tsid-creator's default: 10 node bits, 4,096 ids a millisecond a node; with no node set, the node bits are random).",
        source: InspectableFormat.tsid.source,
        node: NodeField(bits: 10, name: "node id", perTick: 4096, tick: ms))
}
