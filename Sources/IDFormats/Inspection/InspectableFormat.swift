/// Every format `inspect` reads, each with its source. The layouts are in the readers beside this
/// file; a format's collision model is in ``Scheme``.
public enum InspectableFormat: String, CaseIterable, Sendable, Codable {
    case uuid1, uuid3, uuid4, uuid5, uuid6, uuid7, uuid8
    case ulid, ksuid, typeid
    case xid, objectid, snowflake, discord, instagram, sonyflake, tsid
    case cuid2, firebase, nanoid

    public var displayName: String {
        switch self {
        case .uuid1, .uuid3, .uuid4, .uuid5, .uuid6, .uuid7, .uuid8: "UUIDv" + rawValue.dropFirst(4)
        case .ulid: "ULID"
        case .ksuid: "KSUID"
        case .typeid: "TypeID"
        case .xid: "xid"
        case .objectid: "ObjectId"
        case .snowflake: "Snowflake"
        case .discord: "Discord"
        case .instagram: "Instagram"
        case .sonyflake: "Sonyflake"
        case .tsid: "TSID"
        case .cuid2: "cuid2"
        case .firebase: "Firebase push id"
        case .nanoid: "Nano ID"
        }
    }

    /// Where the layout is specified.
    public var source: String {
        switch self {
        case .uuid1, .uuid3, .uuid4, .uuid5, .uuid6, .uuid7, .uuid8: "RFC 9562 (2024)"
        case .ulid: "github.com/ulid/spec"
        case .ksuid: "github.com/segmentio/ksuid"
        case .typeid: "github.com/jetify-com/typeid spec v0.3"
        case .xid: "github.com/rs/xid"
        case .objectid: "MongoDB BSON spec, ObjectId"
        case .snowflake: "Twitter Snowflake (2010): epoch 1288834974657 ms; 41 ms, 10 worker, 12 sequence bits"
        case .discord: "Discord API docs, Snowflakes: epoch 1420070400000 ms; 41 ms, 5 worker, 5 process, 12 increment"
        case .instagram: "Instagram Engineering, Sharding & IDs (2012): epoch 1314220021721 ms; 41 ms, 13 shard, 10 sequence"
        case .sonyflake: "github.com/sony/sonyflake: epoch 2014-09-01; 39 × 10 ms, 8 sequence, 16 machine bits"
        case .tsid: "github.com/f4b6a3/tsid-creator: epoch 2020-01-01; 42 ms, 22 node and counter bits"
        case .cuid2: "github.com/paralleldrive/cuid2"
        case .firebase: "Firebase blog, The 2^120 Ways to Ensure Unique Identifiers (2015)"
        case .nanoid: "github.com/ai/nanoid"
        }
    }

    /// The id's fields in this format, or the first rule it breaks.
    public func read(_ id: String) -> Result<IDFields, IDRejection> {
        switch self {
        case .uuid1: UUIDFields.read(id, version: 1, as: self)
        case .uuid3: UUIDFields.read(id, version: 3, as: self)
        case .uuid4: UUIDFields.read(id, version: 4, as: self)
        case .uuid5: UUIDFields.read(id, version: 5, as: self)
        case .uuid6: UUIDFields.read(id, version: 6, as: self)
        case .uuid7: UUIDFields.read(id, version: 7, as: self)
        case .uuid8: UUIDFields.read(id, version: 8, as: self)
        case .ulid: SortableFields.ulid(id)
        case .ksuid: SortableFields.ksuid(id)
        case .typeid: SortableFields.typeid(id)
        case .xid: NodeFields.xid(id)
        case .objectid: NodeFields.objectid(id)
        case .snowflake, .discord, .instagram, .sonyflake: NodeFields.snowflake(id, self)
        case .tsid: NodeFields.tsid(id)
        case .cuid2: RandomFields.cuid2(id)
        case .firebase: RandomFields.firebase(id)
        case .nanoid: RandomFields.nanoid(id)
        }
    }
}

extension IDFormat {
    /// What `id` is: every ``InspectableFormat`` it is valid in, with its fields, and each other
    /// format's reason to refuse it; with `formats`, only those are asked. Never traps, whatever the
    /// text (ids over 4096 bytes are refused unread).
    public static func inspect(_ id: String, as formats: [InspectableFormat] = InspectableFormat.allCases) -> InspectedID {
        guard id.utf8.count <= maxInspectedBytes else {
            let reason = "longer than \(maxInspectedBytes) bytes; no id format is"
            return InspectedID(
                id: id, readings: [], rejections: formats.map { IDRejection(format: $0.rawValue, reason: reason, byLength: true) })
        }
        // Every format's ids are ASCII: text with another character is refused for that character,
        // counted as people count characters (`é` is one, whether one code point or two).
        if let (k, c) = id.enumerated().first(where: { !$0.element.isASCII }) {
            let reason = "character \(k + 1) (\(Printable.shown(c))) is not ASCII, and every character of these ids is"
            return InspectedID(id: id, readings: [], rejections: formats.map { IDRejection(format: $0.rawValue, reason: reason) })
        }
        var readings: [IDReading] = []
        var rejections: [IDRejection] = []
        for format in formats {
            switch format.read(id) {
            case .success(var fields):
                // The random bits in their one definition (per id, per process), where idbudget mints the
                // format; a reader's own count stands where it depends on the id (a cuid2's length).
                if let minted = IDFormat(rawValue: format.rawValue) {
                    if fields.randomBits == nil { fields.randomBits = minted.randomBits }
                    if minted.processRandomBits > 0 { fields.processRandomBits = minted.processRandomBits }
                }
                readings.append(IDReading(format: format.rawValue, fields: fields))
            case .failure(let r): rejections.append(IDRejection(format: format.rawValue, reason: r.reason, byLength: r.byLength))
            }
        }
        return InspectedID(id: id, readings: readings, rejections: rejections)
    }

    /// The longest text `inspect` reads.
    public static let maxInspectedBytes = 4096
}
