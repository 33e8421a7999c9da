/// What an id is: every format it is valid in, with the fields each reads from it, and why the other
/// formats refuse it. `IDFormat.inspect("user_01h455vb4pex5vsknk084sn02q")`.
public struct InspectedID: Codable, Sendable, Equatable {
    /// The id as given.
    public let id: String
    /// The formats the id is valid in, in ``InspectableFormat`` order; empty when it is valid in none.
    public let readings: [IDReading]
    /// Each other format asked, and the first rule the id breaks in it.
    public let rejections: [IDRejection]

    public var isValid: Bool { !readings.isEmpty }

    public init(id: String, readings: [IDReading], rejections: [IDRejection]) {
        self.id = id
        self.readings = readings
        self.rejections = rejections
    }
}

/// An id read as one format.
public struct IDReading: Codable, Sendable, Equatable {
    /// The format's scheme name: `uuid7`, `snowflake`, …
    public let format: String
    public let fields: IDFields
}

/// Why a format refuses an id, in words ("ULID: the first character must be 0–7").
public struct IDRejection: Error, Codable, Sendable, Equatable {
    public let format: String
    public let reason: String
    /// True when the id's length alone rules the format out (a report may leave those out).
    public var byLength = false

    public init(format: String, reason: String, byLength: Bool = false) {
        self.format = format
        self.reason = reason
        self.byLength = byLength
    }
}

/// The fields of an id; each format fills those it has.
public struct IDFields: Codable, Sendable, Equatable {
    /// When it was minted, ISO 8601 UTC, to the format's precision (seconds to 100 ns).
    public var timestamp: String?
    /// The UUID version (RFC 9562), for UUIDs and TypeIDs.
    public var version: Int?
    /// The UUID variant: `RFC 9562`, `NCS`, `Microsoft` or `future`.
    public var variant: String?
    /// Random bits drawn fresh for this id (per bucket for time-ordered formats), as
    /// ``IDFormat/randomBits`` defines them (cuid2's output taken as uniform: see its scheme).
    public var randomBits: Int?
    /// Random bits the minting process drew once and shares with all its ids (a random node, a clock
    /// sequence, a counter's random start), as ``IDFormat/processRandomBits`` defines them; nil for none.
    public var processRandomBits: Int?
    /// The random field, hex.
    public var random: String?
    /// The node: UUIDv1/v6's node and xid's machine id (hex), ObjectId's per-process random value
    /// (hex), the Snowflake family's worker, shard or machine (decimal).
    public var node: String?
    /// The process: xid's pid, Discord's process id.
    public var pid: Int?
    /// The counter, sequence, increment or clock sequence, decimal.
    public var sequence: String?
    /// TypeID's type prefix (empty for none).
    public var prefix: String?
    /// The UUID a TypeID holds, canonical text.
    public var uuid: String?
    /// The 64-bit number a Snowflake-family id or a TSID is, decimal.
    public var value: String?
    /// The binary form, hex (16 bytes for UUIDs, ULIDs and TypeIDs, 20 for KSUIDs, 12 for xid and
    /// ObjectId, 8 for the 64-bit family).
    public var bytes: String?

    public init() {}
}

extension InspectedID {
    /// A line that is not UTF-8, as the bytes it is: the id echoed with each byte that is not part of
    /// a UTF-8 character written `\xNN` and each backslash of the line `\\` (never a U+FFFD in its
    /// place, which would describe other bytes), refused by every format asked, naming the offending bytes by their 1-based offsets.
    /// Nil when `bytes` are UTF-8.
    public static func notUTF8(_ bytes: [UInt8], as formats: [InspectableFormat]) -> InspectedID? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var echo = ""
        var bad: [String] = []
        var offset = 0
        loop: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                // A backslash of the line itself is doubled, so that `\xff` typed is not read as a byte.
                let scalar = Unicode.UTF8.decode(encoded)
                echo += scalar == "\\" ? "\\\\" : String(scalar)
                offset += encoded.count
            case .error(let length):
                for (i, b) in bytes[offset..<(offset + length)].enumerated() {
                    let hex = (b < 16 ? "0" : "") + String(b, radix: 16)
                    bad.append("\(offset + i + 1) (0x\(hex))")
                    echo += "\\x" + hex
                }
                offset += length
            case .emptyInput:
                break loop
            }
        }
        guard !bad.isEmpty else { return nil }
        let listed = bad.prefix(8).joined(separator: ", ") + (bad.count > 8 ? ", …" : "")
        let reason =
            "not UTF-8: \(bytes.count) byte\(bytes.count == 1 ? "" : "s"), of which \(bad.count == 1 ? "byte" : "bytes") \(listed) \(bad.count == 1 ? "is" : "are") no UTF-8 character"
        return InspectedID(id: echo, readings: [], rejections: formats.map { IDRejection(format: $0.rawValue, reason: reason) })
    }
}
