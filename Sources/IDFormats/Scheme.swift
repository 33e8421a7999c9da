/// An identifier format people actually use, described by what makes two of them collide: the
/// formats idbudget mints (``IDFormat``) and the Apple notification ids it plans for.
public struct Scheme: Sendable, Hashable {
    /// Time buckets: only identifiers minted in the same bucket can collide.
    public typealias Bucket = IDFormat.Bucket

    public let name: String
    /// Random bits drawn fresh for each identifier (per bucket, for time-bucketed schemes):
    /// ``IDFormat/randomBits`` for the formats idbudget mints.
    public let randomBits: Int
    /// Random bits a minting process draws once and shares with all its ids (``IDFormat/processRandomBits``).
    public var processRandomBits: Int = 0
    /// Bytes in the binary form, where the format has one (a UUID's 16, a Snowflake's 8).
    public var binaryBytes: Int? = nil
    /// How it is written.
    public let encoding: String
    /// Characters in the usual text form.
    public let length: Int
    /// Bytes in the usual text form (the header or field size; the longest, for decimal ids). Always
    /// the text's: the binary form's size is ``binaryBytes``.
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
            notes: format.notes + " Minted by `idbudget generate --scheme \(format.rawValue)`.", source: format.source,
            node: format.node)
        processRandomBits = format.processRandomBits
        binaryBytes = format.binaryLength
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

    /// Every scheme: the minted formats (random ones, then the node-id family), then Apple's ids.
    public static let all: [Scheme] = IDFormat.allCases.map(Scheme.init(format:)) + [apnsID, apnsCollapseID, notificationRequestID]

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
    /// Where the counter beside the node starts: at 0 each tick (Snowflake's sequence: two nodes with
    /// one value mint the same ids in any tick both mint in), at random once per process and running on
    /// across ticks (xid, ObjectId: two such processes meet only where their counters come within a
    /// tick's ids of each other), or at random each tick (TSID).
    public let counterStart: CounterStart

    /// How a node-id format's counter starts.
    public enum CounterStart: Sendable, Hashable {
        case eachTickAtZero
        case oncePerProcess(bits: Int)
        case eachTickAtRandom(bits: Int)
    }

    public init(
        bits: Int, name: String, perTick: Int, tick: (numerator: Int, denominator: Int), assignedByDefault: Bool = false,
        counterStart: CounterStart = .eachTickAtZero
    ) {
        self.bits = bits
        self.name = name
        self.perTick = perTick
        self.tick = tick
        self.assignedByDefault = assignedByDefault
        self.counterStart = counterStart
    }

    public static func == (a: NodeField, b: NodeField) -> Bool {
        a.bits == b.bits && a.name == b.name && a.perTick == b.perTick && a.tick == b.tick && a.assignedByDefault == b.assignedByDefault
            && a.counterStart == b.counterStart
    }

    public func hash(into h: inout Hasher) {
        h.combine(bits)
        h.combine(name)
        h.combine(perTick)
    }
}
