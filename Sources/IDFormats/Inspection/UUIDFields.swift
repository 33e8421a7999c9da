/// UUIDs (RFC 9562): 128 bits written 8-4-4-4-12 in hex (or 32 hex digits), version in the 13th hex
/// digit, variant in the top bits of the 17th.
enum UUIDFields {
    /// The 128-bit value, or the first rule the text breaks.
    static func parse(_ text: String) -> Result<UInt128, IDRejection> {
        let b = Array(text.utf8)
        func no(_ reason: String, length: Bool = false) -> Result<UInt128, IDRejection> {
            .failure(IDRejection(format: "uuid", reason: reason, byLength: length))
        }
        let hyphens = b.count == 36
        guard hyphens || b.count == 32 else {
            return no("a UUID is 36 characters (8-4-4-4-12 hex digits) or 32 hex digits; \(Printable.has(b))", length: true)
        }
        var value: UInt128 = 0
        for (i, c) in b.enumerated() {
            if hyphens && [8, 13, 18, 23].contains(i) {
                guard c == UInt8(ascii: "-") else { return no("a hyphen belongs at positions 9, 14, 19 and 24") }
                continue
            }
            guard let v = Hex.value(c) else { return no("\(Printable.at(b, i)) is not a hex digit") }
            value = value << 4 | UInt128(v)
        }
        return .success(value)
    }

    static func variant(_ v: UInt128) -> String {
        let top = UInt8(truncatingIfNeeded: v >> 61) & 0b111
        if top & 0b100 == 0 { return "NCS" }
        if top & 0b110 == 0b100 { return "RFC 9562" }
        if top == 0b110 { return "Microsoft" }
        return "future"
    }

    static func version(_ v: UInt128) -> Int { Int(truncatingIfNeeded: v >> 76) & 0xF }

    /// The fields of `text` read as UUID version `want`.
    static func read(_ text: String, version want: Int, as format: InspectableFormat) -> Result<IDFields, IDRejection> {
        let v: UInt128
        switch parse(text) {
        case .failure(let r): return .failure(IDRejection(format: format.rawValue, reason: r.reason, byLength: r.byLength))
        case .success(let value): v = value
        }
        let version = version(v)
        let variant = variant(v)
        guard variant == "RFC 9562" else {
            return .failure(IDRejection(format: format.rawValue, reason: "the variant is \(variant), not RFC 9562"))
        }
        guard version == want else {
            return .failure(IDRejection(format: format.rawValue, reason: "the version digit is \(version), not \(want)"))
        }
        var f = IDFields()
        f.version = version
        f.variant = variant
        f.bytes = Hex.string(v, digits: 32)
        switch want {
        case 1, 6:
            let t: UInt128
            if want == 1 {  // time_low(32) | time_mid(16) | ver | time_hi(12)
                t = (v >> 64 & 0xFFF) << 48 | (v >> 80 & 0xFFFF) << 32 | v >> 96
            } else {  // time_high(32) | time_mid(16) | ver | time_low(12)
                t = (v >> 96) << 28 | (v >> 80 & 0xFFFF) << 12 | v >> 64 & 0xFFF
            }
            // 100 ns ticks since 1582-10-15T00:00:00Z; the Unix epoch is tick 122192928000000000.
            let unix = Int64(truncatingIfNeeded: t) - 122_192_928_000_000_000
            let (s, r) = (unix >= 0 ? unix / 10_000_000 : (unix - 9_999_999) / 10_000_000, ((unix % 10_000_000) + 10_000_000) % 10_000_000)
            f.timestamp = UTCTime.iso(seconds: s, fraction: r, digits: 7)
            f.sequence = String(UInt64(truncatingIfNeeded: v >> 48) & 0x3FFF)
            f.node = Hex.string(v & 0xFFFF_FFFF_FFFF, digits: 12)
        case 4:
            f.randomBits = 122
            f.random = Hex.string((v >> 80) << 74 | (v >> 64 & 0xFFF) << 62 | v & ((1 << 62) - 1), digits: 31)
        case 7:
            f.timestamp = UTCTime.iso(millis: Int64(truncatingIfNeeded: v >> 80))
            f.randomBits = 74
            f.random = Hex.string((v >> 64 & 0xFFF) << 62 | v & ((1 << 62) - 1), digits: 19)
        default:  // 3 and 5 are hashes of a name; 8 is laid out by its minter
            break
        }
        return .success(f)
    }
}

/// Hex digits, both cases in, lower case out.
enum Hex {
    static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    static func string(_ v: UInt128, digits: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: Swift.max(0, digits - s.count)) + s
    }

    static func string(_ bytes: [UInt8]) -> String {
        bytes.map { String(repeating: "0", count: $0 < 16 ? 1 : 0) + String($0, radix: 16) }.joined()
    }
}

/// A character for a reason: printable ASCII as itself, anything else as U+XXXX.
enum Printable {
    static func char(_ c: UInt8) -> String {
        (0x21...0x7E).contains(c) ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
    }

    /// "character K ('x')" for the byte at offset `i` of ASCII text `b` (ids with other characters
    /// are refused before any format reads them: ``IDFormat/inspect(_:as:)``).
    static func at(_ b: [UInt8], _ i: Int) -> String { "character \(i + 1) (\(char(b[i])))" }

    /// A character quoted, or, when it would not show (a control or format character, a lone mark),
    /// its code points.
    static func shown(_ c: Character) -> String {
        let hidden = c.unicodeScalars.contains {
            switch $0.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: true
            default: $0.value == 0xFFFD
            }
        }
        let lone = c.unicodeScalars.first.map { $0.properties.generalCategory == .nonspacingMark } ?? false
        return hidden || lone
            ? c.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") : "'\(c)'"
    }

    /// "this has N" (characters): for text that is not all ASCII, its characters and its bytes.
    static func has(_ b: [UInt8], characters: Bool = false) -> String {
        if b.allSatisfy({ $0 < 0x80 }) { return "this has \(b.count)\(characters ? " characters" : "")" }
        let n = String(decoding: b, as: UTF8.self).count
        return "this has \(n) character\(n == 1 ? "" : "s") (\(b.count) bytes)"
    }
}
