/// Formats whose uniqueness rests on a node, process or machine field and a counter, not on random
/// bits: xid, ObjectId, the Snowflake family and TSID.
enum NodeFields {
    static let base32hex = Array("0123456789abcdefghijklmnopqrstuv".utf8)

    /// xid (rs/xid): 4-byte seconds, 3-byte machine id, 2-byte pid, 3-byte counter; 20 characters of
    /// lower-case base32hex for the 96 bits (the last character carries one bit: `0` or `g`).
    static func xid(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "xid", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "xid", reason: r, byLength: true)) }
        guard b.count == 20 else { return short("an xid is 20 characters; \(Printable.has(b))") }
        var v: UInt128 = 0
        for (i, c) in b.enumerated() {
            guard let d = base32hex.firstIndex(of: c) else {
                return no("\(Printable.at(b, i)) is not lower-case base32hex (0–9, a–v)")
            }
            v = v << 5 | UInt128(d)
        }
        guard v & 0xF == 0 else { return no("the last character must be 0 or g (it holds the 96th bit)") }
        let bytes = bytes(v >> 4, count: 12)
        var f = IDFields()
        f.timestamp = UTCTime.iso(seconds: Int64(be(bytes[0..<4])))
        f.node = Hex.string(Array(bytes[4..<7]))
        f.pid = Int(be(bytes[7..<9]))
        f.sequence = String(be(bytes[9..<12]))
        f.bytes = Hex.string(bytes)
        return .success(f)
    }

    /// MongoDB ObjectId (BSON spec): 4-byte seconds, a 5-byte random value per process, a 3-byte
    /// counter (starting at a random value); 24 hex digits.
    static func objectid(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "objectid", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "objectid", reason: r, byLength: true)) }
        guard b.count == 24 else { return short("an ObjectId is 24 hex digits; \(Printable.has(b, characters: true))") }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 24, by: 2) {
            guard let hi = Hex.value(b[i]) else { return no("character \(i + 1) (\(Printable.char(b[i]))) is not a hex digit") }
            guard let lo = Hex.value(b[i + 1]) else { return no("character \(i + 2) (\(Printable.char(b[i + 1]))) is not a hex digit") }
            bytes.append(hi << 4 | lo)
        }
        var f = IDFields()
        f.timestamp = UTCTime.iso(seconds: Int64(be(bytes[0..<4])))
        f.node = Hex.string(Array(bytes[4..<9]))
        f.sequence = String(be(bytes[9..<12]))
        f.bytes = Hex.string(bytes)
        return .success(f)
    }

    /// A 64-bit Snowflake-family id as a decimal number: at most 19 digits, no sign, below 2^63.
    static func decimal(_ text: String, _ format: InspectableFormat) -> Result<UInt64, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<UInt64, IDRejection> { .failure(IDRejection(format: format.rawValue, reason: r)) }
        func short(_ r: String) -> Result<UInt64, IDRejection> { .failure(IDRejection(format: format.rawValue, reason: r, byLength: true)) }
        guard (1...20).contains(b.count) else {
            return short("\(format.displayName) ids are decimal numbers up to 2^63 − 1 (19 digits); \(Printable.has(b, characters: true))")
        }
        if b.count > 1 && b[0] == UInt8(ascii: "0") { return no("a leading zero: \(format.displayName) ids are written without one") }
        var v: UInt64 = 0
        for (i, c) in b.enumerated() {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else {
                return no("\(Printable.at(b, i)) is not a decimal digit")
            }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(UInt64(c - UInt8(ascii: "0")))
            guard !o1, !o2 else { return no("the number is over 64 bits") }
            v = s
        }
        guard v >> 63 == 0 else { return no("the number is over 2^63 − 1 (the sign bit of a Snowflake is 0)") }
        return .success(v)
    }

    /// The Snowflake family's layouts: the timestamp (in `tick` ms since `epoch` ms) in the top bits,
    /// then the fields below it.
    static func snowflake(_ text: String, _ format: InspectableFormat) -> Result<IDFields, IDRejection> {
        let v: UInt64
        switch decimal(text, format) {
        case .failure(let r): return .failure(r)
        case .success(let value): v = value
        }
        var f = IDFields()
        f.value = String(v)
        f.bytes = Hex.string(UInt128(v), digits: 16)
        switch format {
        case .snowflake:  // Twitter: 41 ms | 10 worker | 12 sequence, epoch 2010-11-04T01:42:54.657Z
            f.timestamp = UTCTime.iso(millis: Int64(v >> 22) + 1_288_834_974_657)
            f.node = String(v >> 12 & 0x3FF)
            f.sequence = String(v & 0xFFF)
        case .discord:  // 41 ms | 5 worker | 5 process | 12 increment, epoch 2015-01-01
            f.timestamp = UTCTime.iso(millis: Int64(v >> 22) + 1_420_070_400_000)
            f.node = String(v >> 17 & 0x1F)
            f.pid = Int(v >> 12 & 0x1F)
            f.sequence = String(v & 0xFFF)
        case .instagram:  // 41 ms | 13 shard | 10 sequence, epoch 2011-08-24T21:07:01.721Z
            f.timestamp = UTCTime.iso(millis: Int64(v >> 23) + 1_314_220_021_721)
            f.node = String(v >> 10 & 0x1FFF)
            f.sequence = String(v & 0x3FF)
        default:  // Sonyflake: 39 × 10 ms | 8 sequence | 16 machine, epoch 2014-09-01
            let tens = Int64(v >> 24)
            let millis = tens * 10 + 1_409_529_600_000
            f.timestamp = UTCTime.iso(seconds: millis / 1000, fraction: millis % 1000 / 10, digits: 2)
            f.sequence = String(v >> 16 & 0xFF)
            f.node = String(v & 0xFFFF)
        }
        return .success(f)
    }

    /// TSID (f4b6a3/tsid-creator): 42-bit milliseconds since 2020-01-01T00:00:00Z, then 22 bits of node
    /// and counter (random when no node is set); 13 Crockford base32 characters, either case, the first
    /// 0–F. As tsid-creator and tsidpy decode it, and Crockford's spec asks, O reads as 0 and I and L
    /// as 1 (U stays refused).
    static func tsid(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "tsid", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "tsid", reason: r, byLength: true)) }
        guard b.count == 13 else { return short("a TSID is 13 characters; \(Printable.has(b))") }
        var v: UInt64 = 0
        for (i, c) in b.enumerated() {
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) ? c - 32 : c
            let canonical =
                upper == UInt8(ascii: "O")
                ? UInt8(ascii: "0") : upper == UInt8(ascii: "I") || upper == UInt8(ascii: "L") ? UInt8(ascii: "1") : upper
            guard let d = SortableFields.crockford.firstIndex(of: canonical) else {
                return no("\(Printable.at(b, i)) is not Crockford base32 (0–9, A–Z but U; O reads as 0, I and L as 1)")
            }
            if i == 0 && d > 15 { return no("the first character must be 0–F (13 characters hold 65 bits, a TSID 64)") }
            v = v << 5 | UInt64(d)
        }
        var f = IDFields()
        f.timestamp = UTCTime.iso(millis: Int64(v >> 22) + 1_577_836_800_000)
        f.value = String(v)
        f.random = Hex.string(UInt128(v & 0x3F_FFFF), digits: 6)
        f.bytes = Hex.string(UInt128(v), digits: 16)
        return .success(f)
    }

    static func bytes(_ v: UInt128, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: v >> (8 * UInt128(count - 1 - $0))) }
    }

    static func be(_ s: ArraySlice<UInt8>) -> UInt64 { s.reduce(0) { $0 << 8 | UInt64($1) } }
}
