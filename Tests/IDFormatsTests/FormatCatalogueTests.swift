import IDFormats
import Testing

/// The vocabulary against the specs: each format's random bits from its bit layout, the time fields
/// read from the specs' own example ids (values from the RFC and from python-ulid and cyksuid).
@Suite struct FormatCatalogueTests {
    @Test func randomBitsFollowTheLayouts() {
        // 128 bits less version and variant; less the 48-bit timestamp; 21 symbols of 6 bits.
        #expect(IDFormat.uuid4.randomBits == 128 - 4 - 2)
        #expect(IDFormat.uuid7.randomBits == 128 - 48 - 4 - 2)
        #expect(IDFormat.ulid.randomBits == 128 - 48)
        #expect(IDFormat.ksuid.randomBits == 160 - 32)
        #expect(IDFormat.nanoid.randomBits == 21 * 6)
        #expect(IDFormat.firebase.randomBits == 20 * 6 - 48)
        #expect(IDFormat.uuid8.randomBits == 128 - 4 - 2)
        #expect(IDFormat.tsid.randomBits == 22 - 10)  // the counter's random start each millisecond
        // None drawn per id by the node-id formats; per process, what each draws once: UUIDv1's random
        // 47-bit node (multicast bit set) and 14-bit clock sequence, xid's and ObjectId's 3-byte counter
        // start (ObjectId's 5-byte value too), the Snowflake family's random node.
        #expect([IDFormat.uuid1, .uuid6, .xid, .objectid, .snowflake, .discord, .instagram, .sonyflake].allSatisfy { $0.randomBits == 0 })
        #expect(
            IDFormat.allCases.map(\.processRandomBits) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 47 + 14, 47 + 14, 24, 40 + 24, 10, 10, 13, 16, 10])
        #expect(IDFormat.allCases.map(\.length) == [36, 36, 26, 27, 21, 26, 24, 20, 36, 36, 36, 20, 24, 19, 19, 19, 19, 13])
        #expect(
            IDFormat.allCases.filter { $0.bucket != nil }
                == [.uuid7, .ulid, .ksuid, .typeid, .firebase, .xid, .objectid, .snowflake, .discord, .instagram, .tsid])
        // The node field and the bits `--node` sets, from each layout.
        #expect(
            IDFormat.allCases.filter { $0.node != nil } == [
                .uuid1, .uuid6, .xid, .objectid, .snowflake, .discord, .instagram, .sonyflake, .tsid,
            ])
        #expect(IDFormat.allCases.compactMap(\.nodeBits) == [48, 48, 24 + 16, 40, 10, 5 + 5, 13, 16, 10])
        #expect(IDFormat.allCases.compactMap(\.binaryLength) == [16, 16, 16, 20, 16, 16, 16, 16, 12, 12, 8, 8, 8, 8, 8])
    }

    @Test func schemesDescribeEachFormatOnce() {
        #expect(Set(Scheme.all.map(\.name)).count == Scheme.all.count)
        for format in IDFormat.allCases {
            let scheme = Scheme(format: format)
            #expect(Scheme.named(format.rawValue.uppercased()) == scheme)
            #expect(scheme.randomBits == format.randomBits && scheme.bucket == format.bucket)
            #expect(scheme.format == format)
        }
        #expect(Scheme.apnsCollapseID.bytes == 64)
        #expect(Scheme.named("nope") == nil)
    }

    @Test func builtInAlphabetsPassTheirOwnRules() throws {
        for alphabet in Alphabet.builtIns {
            let checked = try Alphabet(symbols: String(alphabet.symbols), name: alphabet.name)
            #expect(checked == alphabet)
            #expect(alphabet.isSingleByte)
        }
        #expect(Alphabet.builtIns.map(\.count) == [64, 62, 58, 36, 32, 16, 10])
        #expect(throws: AlphabetError.tooFewSymbols(1)) { try Alphabet(symbols: "a") }
        #expect(throws: AlphabetError.duplicateSymbol("a")) { try Alphabet(symbols: "aba") }
        #expect(throws: AlphabetError.controlCharacter(10)) { try Alphabet(symbols: "ab\n") }
    }

    static func parse(_ id: String) -> (TimeFormat, UInt64)? {
        Array(id.utf8).withUnsafeBytes { TimeFormat.parse($0) }
    }

    @Test func timeFieldsOfTheSpecsExamples() {
        // RFC 9562 appendix A.6: UUIDv7 for 2022-02-22 19:22:22 UTC.
        #expect(Self.parse("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")! == (.uuid7, 0x017F_22E2_79B0))
        #expect(Self.parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")! == (.uuid7, 1_645_557_742_000))
        // RFC 9562 appendix A.1: UUIDv1, 60-bit time 0x1EC9414C232AB00.
        #expect(Self.parse("C232AB00-9414-11EC-B3C8-9F6BDECED846")! == (.uuid1, 0x1EC_9414_C232_AB00))
        // The ULID spec's example; python-ulid reads 1469922850259 ms.
        #expect(Self.parse("01ARZ3NDEKTSV4RRFFQ69G5FAV")! == (.ulid, 1_469_922_850_259))
        #expect(Self.parse("01arz3ndektsv4rrffq69g5fav")! == (.ulid, 1_469_922_850_259))
        // segmentio/ksuid's README example; cyksuid reads 107608047 s past the KSUID epoch.
        #expect(Self.parse("0ujtsYcgvSTl8PAuAdqWYSMnLOv")! == (.ksuid, 107_608_047))
    }

    @Test func notTheseFormats() {
        #expect(Self.parse("017F22E2-79B0-4CC3-98C4-DC0C0C07398F") == nil)  // version 4
        #expect(Self.parse("017F22E2-79B0-7CC3-C8C4-DC0C0C07398F") == nil)  // variant 110
        #expect(Self.parse("017F22E2x79B0-7CC3-98C4-DC0C0C07398F") == nil)
        #expect(Self.parse("81ARZ3NDEKTSV4RRFFQ69G5FAV") == nil)  // past 2^48 ms
        #expect(Self.parse("01ARZ3NDEKTSV4RRFFQ69G5FAU") == nil)  // U is not Crockford
        #expect(Self.parse("zzzzzzzzzzzzzzzzzzzzzzzzzzz") == nil)  // ≥ 2^160
        #expect(Self.parse("") == nil)
    }
}
