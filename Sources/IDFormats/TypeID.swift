/// A TypeID (jetify-com/typeid spec v0.3): a type prefix, `_`, and a UUID as 26 lower-case Crockford
/// base32 characters — `user_01h455vb4pex5vsknk084sn02q`.
///
/// The prefix is up to 63 characters of `a`–`z` and `_`, neither starting nor ending with `_`; it may
/// be empty, and then the id is the suffix alone, with no separator. The suffix is the 128-bit UUID
/// in base32 (`0123456789abcdefghjkmnpqrstvwxyz`, lower case only), its first character `0`–`7` (the
/// value has 128 bits; 26 characters hold 130). Parsing accepts any UUID, as the spec asks; ids
/// minted by `IDGenerator(.typeid)` hold a UUIDv7.
public struct TypeID: Sendable, Hashable, CustomStringConvertible {
    /// The type prefix, possibly empty.
    public let prefix: String
    /// The UUID, as a 128-bit number (most significant byte first in its text form).
    public let uuid: UInt128

    /// The longest prefix the spec allows.
    public static let maxPrefixLength = 63
    /// The suffix alphabet, in digit order.
    public static let alphabet = String(Alphabet.lowerBase32.symbols)

    /// A TypeID of `prefix` and `uuid`; throws if the prefix breaks the spec's rules.
    public init(prefix: String, uuid: UInt128) throws(TypeIDError) {
        try Self.validatePrefix(prefix)
        self.prefix = prefix
        self.uuid = uuid
    }

    /// Parses the text form; throws with the first rule it breaks.
    public init(parsing text: String) throws(TypeIDError) {
        let bytes = Array(text.utf8)
        let cut = bytes.lastIndex(of: UInt8(ascii: "_"))
        let prefixBytes = cut.map { Array(bytes[..<$0]) } ?? []
        if cut != nil && prefixBytes.isEmpty { throw .separatorWithoutPrefix }
        let prefix = String(decoding: prefixBytes, as: UTF8.self)
        try Self.validatePrefix(prefix)
        let suffix = cut.map { Array(bytes[($0 + 1)...]) } ?? bytes
        self.prefix = prefix
        self.uuid = try Self.decodeSuffix(suffix)
    }

    /// Checks a prefix against the spec: at most 63 characters of `a`–`z` and `_`, not starting or
    /// ending with `_`; empty is allowed.
    public static func validatePrefix(_ prefix: String) throws(TypeIDError) {
        let bytes = Array(prefix.utf8)
        guard prefix.unicodeScalars.count <= maxPrefixLength else { throw .prefixTooLong(prefix.unicodeScalars.count) }
        for scalar in prefix.unicodeScalars where !(("a"..."z").contains(scalar) || scalar == "_") {
            throw .prefixCharacter(scalar)
        }
        if bytes.first == UInt8(ascii: "_") || bytes.last == UInt8(ascii: "_") { throw .prefixUnderscoreAtEdge }
    }

    /// The 26-character suffix.
    public var suffix: String { String(decoding: Self.encode(uuid), as: UTF8.self) }

    /// The text form: `prefix_suffix`, or the suffix alone when the prefix is empty.
    public var description: String { prefix.isEmpty ? suffix : prefix + "_" + suffix }

    /// The UUID in its canonical text form, lower-case 8-4-4-4-12 hex.
    public var uuidString: String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
            out.append(hex[Int(truncatingIfNeeded: uuid >> UInt128(124 - 4 * i)) & 15])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The UUID's version (the high nibble of byte 6).
    public var version: Int { Int(truncatingIfNeeded: uuid >> 76) & 15 }

    /// For a UUIDv7 (version 7, variant 10): its 48-bit Unix-millisecond timestamp; nil otherwise.
    public var unixMilliseconds: UInt64? {
        guard version == 7, Int(truncatingIfNeeded: uuid >> 62) & 3 == 2 else { return nil }
        return UInt64(truncatingIfNeeded: uuid >> 80)
    }

    /// A 128-bit value as 26 lower-case Crockford base32 characters.
    static func encode(_ value: UInt128) -> [UInt8] {
        let digits = Array(alphabet.utf8)
        return (0..<26).map { i in digits[Int(truncatingIfNeeded: value >> UInt128(125 - 5 * i)) & 31] }
    }

    /// Digit values of the suffix alphabet (lower case only), -1 elsewhere.
    static let digitValues: [Int8] = {
        var t = [Int8](repeating: -1, count: 256)
        for (i, c) in alphabet.utf8.enumerated() { t[Int(c)] = Int8(i) }
        return t
    }()

    static func decodeSuffix(_ bytes: [UInt8]) throws(TypeIDError) -> UInt128 {
        guard bytes.count == 26 else { throw .suffixLength(String(decoding: bytes, as: UTF8.self).unicodeScalars.count) }
        var value: UInt128 = 0
        for b in bytes {
            let d = digitValues[Int(b)]
            guard d >= 0 else {
                throw .suffixCharacter(
                    String(decoding: bytes, as: UTF8.self).unicodeScalars.first { !alphabet.unicodeScalars.contains($0) } ?? " ")
            }
            value = value << 5 | UInt128(d)
        }
        guard bytes[0] <= UInt8(ascii: "7") else { throw .suffixOverflow }
        return value
    }

    /// The audit's fast path: for the ASCII bytes of a TypeID whose UUID is a UUIDv7, its Unix
    /// milliseconds and the prefix's length; nil for anything else (another UUID version included).
    @inline(__always)
    package static func parseV7(_ b: UnsafeRawBufferPointer) -> (millis: UInt64, prefixLength: Int)? {
        let n = b.count
        guard n == 26 || (n >= 28 && n <= 26 + 1 + maxPrefixLength) else { return nil }
        let start = n == 26 ? 0 : n - 26
        if n > 26 {
            guard b[n - 27] == UInt8(ascii: "_"), b[0] != UInt8(ascii: "_"), b[n - 28] != UInt8(ascii: "_") else { return nil }
            for i in 0..<(n - 27) where !(b[i] >= 97 && b[i] <= 122) && b[i] != UInt8(ascii: "_") { return nil }
        }
        guard b[start] <= UInt8(ascii: "7") else { return nil }
        var hi: UInt64 = 0  // the first 13 characters: 63 bits (3 + 12 × 5)
        var lo: UInt64 = 0  // the last 13: 65 bits, of which the top one is lost (never needed)
        for i in 0..<26 {
            let d = digitValues[Int(b[start + i])]
            guard d >= 0 else { return nil }
            if i < 13 { hi = hi << 5 | UInt64(d) } else { lo = lo << 5 | UInt64(d) }
        }
        // 128-bit value = hi << 65 | lo65: version = bits 76…79, variant = bits 62…63.
        guard (hi >> 11) & 15 == 7, (lo >> 62) & 3 == 2 else { return nil }
        return (hi >> 15, n == 26 ? 0 : n - 27)
    }
}

/// Why a text is not a TypeID, or a prefix not a TypeID prefix.
public enum TypeIDError: Error, Equatable, Sendable, CustomStringConvertible {
    case prefixTooLong(Int)
    case prefixCharacter(Unicode.Scalar)
    case prefixUnderscoreAtEdge
    case separatorWithoutPrefix
    case suffixLength(Int)
    case suffixCharacter(Unicode.Scalar)
    case suffixOverflow

    public var description: String {
        switch self {
        case .prefixTooLong(let n): "the prefix has \(n) characters; at most 63"
        case .prefixCharacter(let c):
            "the prefix holds '\(c.isASCII && c.value >= 0x20 && c.value < 0x7F ? String(c) : "U+" + String(c.value, radix: 16, uppercase: true))'; only a–z and _"
        case .prefixUnderscoreAtEdge: "the prefix starts or ends with _"
        case .separatorWithoutPrefix: "an empty prefix takes no _ separator"
        case .suffixLength(let n): "the suffix has \(n) characters; it needs exactly 26"
        case .suffixCharacter(let c):
            "the suffix holds '\(c.isASCII && c.value >= 0x20 && c.value < 0x7F ? String(c) : "U+" + String(c.value, radix: 16, uppercase: true))'; only 0123456789abcdefghjkmnpqrstvwxyz"
        case .suffixOverflow: "the suffix's first character must be 0–7 (it encodes 128 bits)"
        }
    }
}
