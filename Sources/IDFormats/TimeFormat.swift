/// The time-ordered id formats an audit recognises, with the time bucket each id falls in and the
/// random bits a bucket holds (the shapes are those of docs/audit-summary.md).
///
/// Two ids can only be equal inside one bucket, so duplicates are judged bucket by bucket against
/// the format's real random bits — not against all the symbols, which would count the timestamp as
/// randomness (a UUIDv7 read as base64url^36 claims 216 bits; it has 74 a millisecond).
public enum TimeFormat: String, CaseIterable, Sendable, Comparable {
    case uuid7, ulid, ksuid, uuid1, typeid, uuid6

    public static func < (a: TimeFormat, b: TimeFormat) -> Bool { a.rawValue < b.rawValue }

    /// Position in `allCases`.
    package var index: Int {
        switch self {
        case .uuid7: 0
        case .ulid: 1
        case .ksuid: 2
        case .uuid1: 3
        case .typeid: 4
        case .uuid6: 5
        }
    }

    public var displayName: String {
        switch self {
        case .uuid7: "UUIDv7"
        case .ulid: "ULID"
        case .ksuid: "KSUID"
        case .uuid1: "UUIDv1"
        case .typeid: "TypeID"
        case .uuid6: "UUIDv6"
        }
    }

    /// The format idbudget mints under this name, if any.
    public var minted: IDFormat? { IDFormat(rawValue: rawValue) }

    /// The bits the audit's collision model draws per bucket: the format's random bits per id
    /// (``IDFormat/randomBits``); for UUIDv1 and v6, which draw none per id, the 14-bit clock
    /// sequence, the part of their per-process bits that two generators of one node (one MAC) differ by.
    public var randomBits: Int {
        switch self {
        case .uuid1, .uuid6: 14
        default: minted?.randomBits ?? 14
        }
    }

    public var bucketName: String { minted?.bucket?.rawValue ?? "100 ns tick" }

    /// Characters in the text form (a UUIDv1 is a UUID: 36); nil for TypeID, whose prefix varies.
    public var length: Int? { self == .typeid ? nil : minted?.length ?? IDFormat.uuid4.length }

    /// The alphabet the whole id is written in, where it is not hex with hyphens: ULID's Crockford
    /// base32, KSUID's base62 (name as an audit reports it, and size).
    public var ownAlphabet: (name: String, size: Int)? {
        switch self {
        case .ulid: ("Crockford base32", Alphabet.base32.count)
        case .ksuid: ("base62", Alphabet.base62.count)
        case .typeid: ("Crockford base32 (TypeID suffix)", Alphabet.base32.count)
        case .uuid7, .uuid1, .uuid6: nil
        }
    }

    /// Bit n set when some format is n characters long: the audit's per-line test, one shift.
    package static let lengthMask: UInt64 = allCases.compactMap(\.length).reduce(0) { $0 | 1 << UInt64($1) }

    /// Character positions (0-based) of the timestamp, for position statistics (TypeID: none, its
    /// positions depend on the prefix's length; see ``timePositions(length:)``).
    public var timePositions: Set<Int> { timePositions(length: nil) }

    /// Character positions (0-based) of the timestamp in ids of `length` characters: TypeID's are
    /// the first 10 of its 26-character suffix, after a prefix of `length − 27` characters and `_`.
    public func timePositions(length: Int?) -> Set<Int> {
        switch self {
        case .uuid7: Set(0...7).union(9...12)
        case .ulid: Set(0...9)
        case .ksuid: Set(0...26)  // the timestamp is the top of a base62 number: no position is free of it
        case .uuid1, .uuid6: Set(0...7).union(9...12).union(15...17)
        case .typeid: length.map { $0 >= 26 ? Set(($0 - 26)...($0 - 17)) : [] } ?? []
        }
    }

    /// The format and bucket of an ASCII id, or nil.
    @inline(__always)
    package static func parse(_ b: UnsafeRawBufferPointer) -> (TimeFormat, UInt64)? {
        switch b.count {
        case IDFormat.uuid7.length: return parseUUID(b) ?? typeIDBucket(b)  // a 9-character TypeID prefix
        case IDFormat.ulid.length: return parseULID(b).map { (.ulid, $0) }
        case IDFormat.ksuid.length: return parseKSUID(b).map { (.ksuid, $0) }
        case (IDFormat.ksuid.length + 1)...(27 + TypeID.maxPrefixLength): return typeIDBucket(b)
        default: return nil
        }
    }

    /// A TypeID's bucket: its prefix group and millisecond. Ids of different prefixes are different
    /// ids, so only ids of one prefix and one millisecond can collide: the top 16 bits of the prefix's
    /// FNV-1a-64 hash above the 48-bit millisecond (two prefixes that share them share buckets, which
    /// only overstates the duplicates to expect).
    private static func typeIDBucket(_ b: UnsafeRawBufferPointer) -> (TimeFormat, UInt64)? {
        guard let (millis, prefixLength) = TypeID.parseV7(b) else { return nil }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<prefixLength {
            h ^= UInt64(b[i])
            h = h &* 0x100_0000_01b3
        }
        return (.typeid, (h >> 48) << 48 | millis & 0xFFFF_FFFF_FFFF)
    }

    @inline(__always)
    private static func hex(_ c: UInt8) -> UInt64? {
        switch c {
        case 48...57: UInt64(c - 48)
        case 97...102: UInt64(c - 87)
        case 65...70: UInt64(c - 55)
        default: nil
        }
    }

    private static func parseUUID(_ b: UnsafeRawBufferPointer) -> (TimeFormat, UInt64)? {
        // time_low = 0…7, time_mid = 9…12, version + time_hi = 14…17.
        var low: UInt64 = 0
        var mid: UInt64 = 0
        var high: UInt64 = 0
        for i in 0..<36 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard b[i] == 45 else { return nil }
                continue
            }
            guard let h = hex(b[i]) else { return nil }
            if i < 8 { low = low << 4 | h } else if i < 13 { mid = mid << 4 | h } else if i < 18 { high = high << 4 | h }
        }
        guard "89abAB".utf8.contains(b[19]) else { return nil }
        switch b[14] {
        case 55: return (.uuid7, low << 16 | mid)  // '7': 48-bit Unix ms
        case 49: return (.uuid1, (high & 0x0fff) << 48 | mid << 32 | low)  // '1'
        case 54: return (.uuid6, low << 28 | mid << 12 | high & 0x0fff)  // '6': the same ticks, high bits first
        default: return nil
        }
    }

    /// Digit values of Crockford's base32 (either case), -1 elsewhere.
    private static let crockford: [Int8] = digitTable(Alphabet.base32, caseInsensitive: true)

    private static func parseULID(_ b: UnsafeRawBufferPointer) -> UInt64? {
        guard b[0] >= 48 && b[0] <= 55 else { return nil }
        var v: UInt64 = 0
        for i in 0..<26 {
            let d = crockford[Int(b[i])]
            guard d >= 0 else { return nil }
            if i < 10 { v = v << 5 | UInt64(d) }
        }
        return v
    }

    private static let base62: [Int8] = digitTable(Alphabet.base62, caseInsensitive: false)

    private static func digitTable(_ alphabet: Alphabet, caseInsensitive: Bool) -> [Int8] {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in (alphabet.bytes ?? []).enumerated() {
            t[Int(c)] = Int8(i)
            if caseInsensitive && c >= 65 { t[Int(c | 0x20)] = Int8(i) }
        }
        return t
    }

    /// The top 32 bits of the 160-bit base62 value, or nil when it is not below 2^160.
    private static func parseKSUID(_ b: UnsafeRawBufferPointer) -> UInt64? { ksuid(b)?.seconds }

    /// A KSUID's 160-bit base62 value: its 32-bit seconds and its 128-bit payload (high and low 64
    /// bits), or nil when the 27 characters are not base62 or the value is not below 2^160.
    @inline(__always)
    package static func ksuid(_ b: UnsafeRawBufferPointer) -> (seconds: UInt64, high: UInt64, low: UInt64)? {
        guard b.count == IDFormat.ksuid.length else { return nil }
        var limbs: (UInt64, UInt64, UInt64) = (0, 0, 0)  // little-endian 192 bits
        for i in 0..<27 {
            let d = base62[Int(b[i])]
            guard d >= 0 else { return nil }
            let r0 = limbs.0.multipliedFullWidth(by: 62)
            let (s0, o0) = r0.low.addingReportingOverflow(UInt64(d))
            let r1 = limbs.1.multipliedFullWidth(by: 62)
            let (s1, o1) = r1.low.addingReportingOverflow(r0.high &+ (o0 ? 1 : 0))
            let r2 = limbs.2.multipliedFullWidth(by: 62)
            let (s2, o2) = r2.low.addingReportingOverflow(r1.high &+ (o1 ? 1 : 0))
            guard r2.high == 0, !o2 else { return nil }
            limbs = (s0, s1, s2)
        }
        guard limbs.2 >> 32 == 0 else { return nil }  // ≥ 2^160
        return (limbs.2, limbs.1, limbs.0)  // bits 128…159, then the payload
    }
}
