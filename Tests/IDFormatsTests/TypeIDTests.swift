import Foundation
import IDFormats
import TestSupport
import Testing

/// TypeID against the spec's own vectors (jetify-com/typeid spec/, v0.3, copied unchanged into
/// Tests/IDFormatsTests/Vectors/typeid with their licence): every valid id decodes to its prefix and
/// UUID and encodes back, every invalid one is refused.
@Suite struct TypeIDTests {
    struct Valid: Decodable {
        let name: String
        let typeid: String
        let prefix: String
        let uuid: String
    }

    struct Invalid: Decodable {
        let name: String
        let typeid: String
        let description: String
    }

    static func load<T: Decodable>(_ file: String) throws -> [T] {
        try JSONDecoder().decode([T].self, from: Data(contentsOf: Repository.file("Tests/IDFormatsTests/Vectors/typeid/\(file)")))
    }

    static func uuidValue(_ text: String) -> UInt128? {
        UInt128(text.replacingOccurrences(of: "-", with: ""), radix: 16)
    }

    @Test func everyValidVectorDecodesAndEncodes() throws {
        let vectors: [Valid] = try Self.load("valid.json")
        #expect(vectors.count == 9)
        for v in vectors {
            let id = try TypeID(parsing: v.typeid)
            #expect(id.prefix == v.prefix, "\(v.name)")
            #expect(id.uuidString == v.uuid, "\(v.name)")
            #expect(id.description == v.typeid, "\(v.name)")
            let value = try #require(Self.uuidValue(v.uuid))
            #expect(try TypeID(prefix: v.prefix, uuid: value).description == v.typeid, "\(v.name)")
        }
    }

    @Test func everyInvalidVectorIsRefused() throws {
        let vectors: [Invalid] = try Self.load("invalid.json")
        #expect(vectors.count == 21)
        for v in vectors {
            #expect(throws: TypeIDError.self, "\(v.name): \(v.description)") { try TypeID(parsing: v.typeid) }
        }
    }

    @Test func reasonsNameTheRule() {
        func reason(_ text: String) -> TypeIDError? {
            do {
                _ = try TypeID(parsing: text)
                return nil
            } catch { return error }
        }
        #expect(reason("prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz") == .suffixOverflow)
        #expect(reason("_00000000000000000000000000") == .separatorWithoutPrefix)
        #expect(reason("prefix__00000000000000000000000000") == .prefixUnderscoreAtEdge)
        #expect(reason("PREFIX_00000000000000000000000000") == .prefixCharacter("P"))
        #expect(reason("prefix_1234567890123456789012345") == .suffixLength(25))
        #expect(reason("prefix_0123456789ABCDEFGHJKMNPQRS") == .suffixCharacter("A"))
        #expect(reason(String(repeating: "a", count: 64) + "_00000000000000000000000000") == .prefixTooLong(64))
        #expect(reason(String(repeating: "a", count: 63) + "_00000000000000000000000000") == nil)
        #expect(TypeIDError.suffixOverflow.description.contains("0–7"))
    }

    @Test func theSpecsUUIDv7HasItsTime() throws {
        // valid.yml's "valid-uuidv7": 01890a5d-ac96-774b-bcce-b302099a8057, whose first 48 bits are
        // 0x01890a5dac96 = 1688096058518 ms (typeid-python's created_at: 2023-06-30 03:34:18.518 UTC).
        let id = try TypeID(parsing: "prefix_01h455vb4pex5vsknk084sn02q")
        #expect(id.version == 7)
        #expect(id.unixMilliseconds == 0x0189_0A5D_AC96)
        #expect(try TypeID(parsing: "00000000000000000000000000").unixMilliseconds == nil)  // nil UUID: no v7 time
    }

    @Test func catalogueEntry() {
        #expect(IDFormat.typeid.randomBits == IDFormat.uuid7.randomBits)
        #expect(IDFormat.typeid.bucket == .millisecond)
        #expect(IDFormat.typeid.length == 26)
        #expect(IDFormat.typeid.isMonotonicByDefault && IDFormat.typeid.hasMonotonicMode)
        #expect(IDFormat.typeid.source.contains("jetify-com/typeid"))
        #expect(Scheme.named("TypeID")?.randomBits == 74)
    }
}
