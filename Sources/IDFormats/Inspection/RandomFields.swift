/// Formats that are random symbols, wholly or after a timestamp: cuid2, the Firebase push id, Nano ID.
enum RandomFields {
    /// cuid2 (paralleldrive/cuid2): 2–32 characters (24 by default) of lower-case base36, the first a
    /// letter. Its symbols are a hash's output; idbudget takes them as uniform, so a 24-character cuid2
    /// counts log2(26·36^23) = 123 bits.
    static func cuid2(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "cuid2", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "cuid2", reason: r, byLength: true)) }
        guard (2...32).contains(b.count) else { return short("a cuid2 is 2 to 32 characters (24 by default); \(Printable.has(b))") }
        guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b[0]) else { return no("the first character must be a letter a–z") }
        for (i, c) in b.enumerated()
        where !((UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)) {
            return no("\(Printable.at(b, i)) is not lower-case base36 (a–z, 0–9)")
        }
        var f = IDFields()
        // log2(26) + (n − 1)·log2(36), rounded down.
        f.randomBits = Int((4.700439718141092 + Double(b.count - 1) * 5.169925001442312).rounded(.down))
        return .success(f)
    }

    static let firebaseAlphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// Firebase push id (the Firebase blog, 2015): 8 characters of 48-bit milliseconds and 12 of
    /// random (72 bits), 20 characters over `-0-9A-Z_a-z` in ASCII order (so ids sort by time).
    static func firebase(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "firebase", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "firebase", reason: r, byLength: true)) }
        guard b.count == 20 else { return short("a Firebase push id is 20 characters; \(Printable.has(b))") }
        var time: UInt64 = 0
        var random: UInt128 = 0
        for (i, c) in b.enumerated() {
            guard let d = firebaseAlphabet.firstIndex(of: c) else {
                return no("\(Printable.at(b, i)) is not in -0-9A-Z_a-z")
            }
            if i < 8 { time = time << 6 | UInt64(d) } else { random = random << 6 | UInt128(d) }
        }
        var f = IDFields()
        f.timestamp = UTCTime.iso(millis: Int64(time))
        f.randomBits = 72
        f.random = Hex.string(random, digits: 18)
        return .success(f)
    }

    /// Nano ID (ai/nanoid): 21 symbols of `A-Za-z0-9_-`, 126 random bits.
    static func nanoid(_ text: String) -> Result<IDFields, IDRejection> {
        let b = Array(text.utf8)
        func no(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "nanoid", reason: r)) }
        func short(_ r: String) -> Result<IDFields, IDRejection> { .failure(IDRejection(format: "nanoid", reason: r, byLength: true)) }
        guard b.count == 21 else { return short("a Nano ID is 21 characters by default; \(Printable.has(b))") }
        let symbols = Alphabet.nanoid.bytes ?? []
        for (i, c) in b.enumerated() where !symbols.contains(c) {
            return no("\(Printable.at(b, i)) is not in A–Z, a–z, 0–9, _ and -")
        }
        var f = IDFields()
        f.randomBits = 126
        return .success(f)
    }
}
