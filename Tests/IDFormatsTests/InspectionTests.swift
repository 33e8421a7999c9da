import Foundation
import IDFormats
import TestSupport
import Testing

/// `IDFormat.inspect` from the library: the TypeID spec's vectors read as TypeIDs with their prefix and
/// UUID (and refused with a reason), boundary ids, and hostile text refused, never trapped on.
@Suite struct InspectionTests {
    @Test func typeIDVectors() throws {
        let valid: [TypeIDTests.Valid] = try TypeIDTests.load("valid.json")
        for v in valid {
            let inspected = IDFormat.inspect(v.typeid, as: [.typeid])
            let fields = try #require(inspected.readings.first?.fields, "\(v.name)")
            #expect(fields.prefix == v.prefix && fields.uuid == v.uuid, "\(v.name)")
        }
        let invalid: [TypeIDTests.Invalid] = try TypeIDTests.load("invalid.json")
        for v in invalid {
            let inspected = IDFormat.inspect(v.typeid, as: [.typeid])
            #expect(!inspected.isValid, "\(v.name)")
            #expect(inspected.rejections.first?.reason.isEmpty == false)
        }
    }

    /// The spec's example: TypeID `user_…` holds UUIDv7 01890a5d-ac96-774b-bcce-b302099a8057, minted
    /// at 2023-06-30T03:34:18.518Z (0x01890a5dac96 ms).
    @Test func theTypeIDExample() throws {
        let r = try #require(IDFormat.inspect("user_01h455vb4pex5vsknk084sn02q").readings.first { $0.format == "typeid" })
        #expect(r.fields.timestamp == "2023-06-30T03:34:18.518Z")
        #expect(r.fields.version == 7 && r.fields.randomBits == 74 && r.fields.prefix == "user")
    }

    @Test(arguments: [
        ("00000000-0000-0000-0000-000000000000", "uuid4", "the variant is NCS, not RFC 9562"),
        ("ffffffff-ffff-4fff-bfff-ffffffffffff", "uuid7", "the version digit is 4, not 7"),
        ("8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "ulid", "the first character must be 0–7"),
        ("aWgEPTl1tmebfsQzFP4bxwgy80W", "ksuid", "over 160 bits"),
        ("9223372036854775808", "snowflake", "over 2^63 − 1"),
        ("18446744073709551616", "discord", "over 64 bits"),
        ("GZZZZZZZZZZZZ", "tsid", "the first character must be 0–F"),
        ("cm9vdGFsbGx5dGhlcmV!b", "nanoid", "is not in"),
        ("0123456789abcdefghij", "xid", "the last character must be 0 or g"),
        ("1cuid2", "cuid2", "the first character must be a letter"),
        ("000000000000000000001", "snowflake", "decimal numbers up to 2^63 − 1 (19 digits)"),
        ("09223372036854775807", "snowflake", "a leading zero"),
    ])
    func refusedWithAReason(id: String, format: String, reason: String) throws {
        let f = try #require(InspectableFormat(rawValue: format))
        let inspected = IDFormat.inspect(id, as: [f])
        #expect(!inspected.isValid)
        #expect(inspected.rejections.first?.reason.contains(reason) == true, "\(inspected.rejections)")
    }

    /// Ends of ranges read exactly: the largest KSUID, the last ULID millisecond, the Unix epoch, a
    /// time before it (UUIDv1's own epoch, 1582).
    @Test func boundaries() throws {
        func fields(_ id: String, _ f: InspectableFormat) throws -> IDFields {
            try #require(IDFormat.inspect(id, as: [f]).readings.first?.fields, "\(id) as \(f)")
        }
        #expect(try fields("aWgEPTl1tmebfsQzFP4bxwgy80V", .ksuid).timestamp == "2150-06-19T23:21:35Z")
        #expect(try fields("000000000000000000000000000", .ksuid).timestamp == "2014-05-13T16:53:20Z")
        #expect(try fields("7ZZZZZZZZZZZZZZZZZZZZZZZZZ", .ulid).timestamp == "+10889-08-02T05:31:50.655Z")
        #expect(try fields("00000000000000000000000000", .ulid).timestamp == "1970-01-01T00:00:00.000Z")
        #expect(try fields("00000000-0000-1000-8000-000000000000", .uuid1).timestamp == "1582-10-15T00:00:00.0000000Z")
        #expect(try fields("0", .snowflake).timestamp == "2010-11-04T01:42:54.657Z")
    }

    /// Whatever the text — control characters, invalid UTF-8 made good, 10,000 bytes, emoji — an
    /// answer, never a trap; nothing is valid that should not be.
    @Test func hostileText() {
        var rng = SplitMix(state: 25)
        for _ in 0..<2000 {
            let n = Int(rng.next() % 40)
            let scalars = (0..<n).map { _ in Unicode.Scalar(UInt8(truncatingIfNeeded: rng.next())) }
            let text = String(String.UnicodeScalarView(scalars))
            _ = IDFormat.inspect(text)
        }
        let long = String(repeating: "a", count: 10_000)
        #expect(!IDFormat.inspect(long).isValid)
        #expect(!IDFormat.inspect("").isValid)
        #expect(!IDFormat.inspect("🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎🍎").isValid)
        #expect(!IDFormat.inspect("0123456789abcdef0123456789abcdef\u{0}").isValid)
    }
}
