/// ULID, KSUID and TypeID: a timestamp, then random bits, in one big number written in base32 or 62.
enum SortableFields {
    static let crockford = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// ULID (ulid/spec): 48-bit milliseconds and 80 random bits, 26 Crockford base32 characters, read
    /// in either case; the first is 0–7 (26 characters hold 130 bits).
    static func ulid(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "ulid", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "ulid", reason: r, byLength: true)) }
        guard b.count == 26 else { return short("a ULID is 26 characters; \(Printable.has(b))") }
        var v: UInt128 = 0
        for (i, c) in b.enumerated() {
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) ? c - 32 : c
            guard let d = crockford.firstIndex(of: upper) else {
                return no("\(Printable.at(b, i)) is not Crockford base32 (0–9, A–Z but I, L, O, U)")
            }
            if i == 0 && d > 7 { return no("the first character must be 0–7 (26 characters hold 130 bits, a ULID 128)") }
            v = v << 5 | UInt128(d)
        }
        var f = IDFields()
        f.timestamp = UTCTime.iso(millis: Int64(truncatingIfNeeded: v >> 80))
        f.randomBits = 80
        f.random = Hex.string(v & ((1 << 80) - 1), digits: 20)
        f.bytes = Hex.string(v, digits: 32)
        return .success(f)
    }

    static let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// KSUID (segmentio/ksuid): 32-bit seconds since 2014-05-13T16:53:20Z (Unix 1400000000) and 128
    /// random bits, 27 base62 characters for the 160-bit number.
    static func ksuid(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "ksuid", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "ksuid", reason: r, byLength: true)) }
        guard b.count == 27 else { return short("a KSUID is 27 characters; \(Printable.has(b))") }
        // 160 bits as five 32-bit words, most significant first: times 62, plus the digit.
        var words = [UInt64](repeating: 0, count: 5)
        for (i, c) in b.enumerated() {
            guard let d = base62.firstIndex(of: c) else { return no("\(Printable.at(b, i)) is not base62") }
            var carry = UInt64(d)
            for j in stride(from: 4, through: 0, by: -1) {
                let x = words[j] * 62 + carry
                words[j] = x & 0xFFFF_FFFF
                carry = x >> 32
            }
            if carry != 0 { return no("the value is over 160 bits (the largest KSUID is aWgEPTl1tmebfsQzFP4bxwgy80V)") }
        }
        let bytes = words.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (24 - 8 * UInt64($0))) } }
        var f = IDFields()
        f.timestamp = UTCTime.iso(seconds: Int64(words[0]) + 1_400_000_000)
        f.randomBits = 128
        f.random = Hex.string(Array(bytes[4...]))
        f.bytes = Hex.string(bytes)
        return .success(f)
    }

    /// TypeID (jetify-com/typeid spec v0.3): see ``TypeID``; the UUID inside is read as a UUID.
    static func typeid(_ text: String) -> Result<IDFields, IDRejection> {
        let id: TypeID
        do { id = try TypeID(parsing: text) } catch {
            let short: Bool
            if case .suffixLength = error { short = true } else { short = false }
            return .failure(IDRejection(format: "typeid", reason: error.description, byLength: short))
        }
        var f = IDFields()
        f.prefix = id.prefix
        f.uuid = id.uuidString
        f.bytes = Hex.string(id.uuid, digits: 32)
        f.version = UUIDFields.version(id.uuid)
        f.variant = UUIDFields.variant(id.uuid)
        if f.version == 7, case .success(let inner) = UUIDFields.read(id.uuidString, version: 7, as: .uuid7) {
            f.timestamp = inner.timestamp
            f.randomBits = inner.randomBits
            f.random = inner.random
        }
        return .success(f)
    }
}
