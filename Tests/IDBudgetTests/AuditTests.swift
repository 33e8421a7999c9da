import Foundation
import IDAudit
import IDBudget
import IDFormats
import IDTokens
import Precise
import TestSupport
import Testing

@Suite struct AuditTests {
    static func summarise(
        _ text: [UInt8], chunk: Int = 1 << 16, maxLineBytes: Int = 4096, threads: Int = 2,
        memory: Int = 1 << 30, shard: (Int, Int) = (0, 1)
    ) throws -> AuditSummary {
        let auditor = try Auditor(maxLineBytes: maxLineBytes, shard: shard, memoryLimit: memory, threads: threads)
        try text.withUnsafeBytes { all in
            var i = 0
            while i < all.count {
                let n = Swift.min(chunk, all.count - i)
                try auditor.consume(UnsafeRawBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
        return try auditor.finish()
    }

    static func lines(_ ids: [String]) -> [UInt8] { Array((ids.joined(separator: "\n") + "\n").utf8) }

    /// 50,000 random base62×12 ids plus planted copies: 15 ids once more, 5 ids twice more.
    @Test func findsPlantedDuplicatesExactly() throws {
        let ids = try TokenGenerator(alphabet: .base62, length: 12, source: SeededRandom(seed: 9)).next(50_000)
        var lines = ids
        for i in 0..<20 {
            lines.append(ids[i * 997])
            if i < 5 { lines.append(ids[i * 997]) }
        }
        var rng = SeededRandom(seed: 1)
        lines.shuffle(using: &rng)
        let text = Self.lines(lines)
        for (chunk, threads) in [(1 << 16, 2), (7, 2), (1 << 16, 1)] {  // chunk boundaries and threads must not matter
            let s = try Self.summarise(text, chunk: chunk, threads: threads)
            #expect(s.ids == 50_025)
            #expect(s.distinct == 50_000)
            #expect(s.duplicateIDs == 20)
            #expect(s.extraOccurrences == 25)
            #expect(s.multiplicities == [1: 49_980, 2: 15, 3: 5])
            #expect(s.lengths == [12: 50_025])
            let r = try AuditAnalysis(summary: s)
            #expect(r.alphabet == "base62")
            #expect(r.space == BigInt.power(62, 12))
            #expect(r.verdict == .tooMany)  // 25 extra where ~6·10⁻¹¹ are expected
        }
    }

    @Test func uniformIdsAreNotFlagged() throws {
        let ids = try TokenGenerator(alphabet: .hex, length: 6).next(300_000)
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.space == BigInt.power(16, 6))
        #expect(r.verdict == .consistent, "\(r.findings)")
        #expect(abs(r.z) < 5, "z = \(r.z)")
        #expect(abs(r.effectiveBits - 24) < 1, "\(r.effectiveBits)")
    }

    /// Symbols from 7-bit values mod 62 favour four symbols by half: the positions show it.
    @Test func flagsABiasedGenerator() throws {
        var rng = SeededRandom(seed: 3)
        let symbols = Alphabet.base62.bytes!
        var text: [UInt8] = []
        for _ in 0..<200_000 {
            var w = rng.next()
            for _ in 0..<8 {
                text.append(symbols[Int(w & 0x7f) % 62])
                w >>= 8
            }
            text.append(10)
        }
        let r = try AuditAnalysis(summary: try Self.summarise(text))
        #expect(r.verdict == .nonUniform)
        #expect(r.findings.contains { $0.hasPrefix("position 1 is biased") }, "\(r.findings)")
    }

    @Test func malformedLinesAreCountedNotFatal() throws {
        var text = Array("abc\r\n\n\nabc\n".utf8)
        text += [0xff, 0xfe, 0x0a]  // invalid UTF-8
        text += Array(String(repeating: "x", count: 50).utf8) + [0x0a]  // overlong at 16
        text += Array("héllo\nlast-no-nl".utf8)
        for threads in [1, 2] {
            let s = try Self.summarise(text, chunk: 5, maxLineBytes: 16, threads: threads)
            #expect(s.lines == 8)
            #expect(s.emptyLines == 2)
            #expect(s.crlfLines == 1)
            #expect(s.invalidUTF8Lines == 1)
            #expect(s.overlongLines == 1)
            #expect(s.ids == 4)
            #expect(s.extraOccurrences == 1)
            #expect(s.lengths[5] == 1)  // "héllo" is 5 characters
            #expect(s.positions[1]["é"] == 1)
            #expect(s.sample == ["abc", "héllo", "last-no-nl"])
        }
    }

    /// A line longer than a whole read block is one overlong line, however it arrives.
    @Test func hugeLinesAreSkippedInLinearTime() throws {
        var text = Array(String(repeating: "y", count: 3 << 20).utf8) + [10]
        text += Array("ok\n".utf8)
        let start = Date()
        let s = try Self.summarise(text, chunk: 1 << 16)
        #expect(s.overlongLines == 1 && s.ids == 1 && s.lines == 2)
        let long = try Self.summarise(text, maxLineBytes: 4 << 20)
        #expect(long.ids == 2 && long.lengths[3 << 20] == 1)
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func uuidsImplyTheirRandomBits() throws {
        let uuids = (0..<2000).map { _ in UUID().uuidString.lowercased() }
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(uuids)))
        #expect(r.space == BigInt.power(2, 122))
        #expect(r.formatName == "UUIDv4")
        #expect(r.verdict == .consistent, "\(r.findings)")
    }

    /// Past the memory limit the tables spill to files; the summary is the same to the last count.
    @Test func spillingGivesTheSameSummary() throws {
        let ids = try TokenGenerator(alphabet: .base62, length: 10, source: SeededRandom(seed: 5)).next(150_000)
        var lines = ids + ids[0..<3000] + ids[0..<300]
        for _ in 0..<300 { lines.append(ids[7]) }  // one id 303 times: counts past 255
        let text = Self.lines(lines)
        let whole = try Self.summarise(text)
        let auditor = try Auditor(maxLineBytes: 4096, memoryLimit: 4 << 20, threads: 2)
        try text.withUnsafeBytes { try auditor.consume($0) }
        let spilled = try auditor.finish()
        #expect(auditor.spilled)
        #expect(auditor.peakTableBytes <= 4 << 20)
        #expect(spilled == whole)
        #expect(whole.multiplicities[303] == 1 && whole.multiplicities[3] == 299 && whole.multiplicities[2] == 2700)
        // Given the input's size (a file), the fingerprints go straight to the partitions, one record
        // a line: the same summary, counts past 255 included, at one thread and at three.
        for threads in [1, 3] {
            let direct = try Auditor(maxLineBytes: 4096, memoryLimit: 4 << 20, threads: threads, sizeHint: text.count)
            try text.withUnsafeBytes { try direct.consume($0) }
            let summary = try direct.finish()
            #expect(direct.spilled)
            #expect(summary == whole)
        }
    }

    /// Shards by fingerprint merge to the whole, exactly; a shard given twice is refused.
    @Test func shardsMergeExactly() throws {
        var ids = try TokenGenerator(alphabet: .hex, length: 5, source: SeededRandom(seed: 6)).next(40_000)
        ids += ["", "x\r", "\u{1F34E}z"]
        let text = Self.lines(ids) + [0xff, 0x0a]
        let whole = try Self.summarise(text)
        var merged: AuditSummary?
        for k in 0..<3 {
            let part = try Self.summarise(text, shard: (k, 3))
            #expect(part.ids < whole.ids)
            merged = try merged.map { try $0.merged(with: part) } ?? part
        }
        var expected = whole
        expected.shardCount = 3
        expected.shardIndexes = [0, 1, 2]
        #expect(merged == expected)
        let one = try Self.summarise(text, shard: (1, 3))
        #expect(throws: InputError.self) { try one.merged(with: one) }
    }

    @Test func summariesRoundTripThroughJSON() throws {
        let ids = IDGenerator(.uuid7).next(5000) + ["a\u{2028}b", "tab\there", "\"quote\""]
        let s = try Self.summarise(Self.lines(ids))
        let back = try AuditSummary(jsonText: Data(try s.jsonText().utf8))
        #expect(back == s)
        #expect(throws: InputError.self) { try AuditSummary(jsonText: Data("{\"kind\": \"x\"}".utf8)) }
    }

    /// A summary from before TypeID (no `time_formats.typeid`) still reads, as none; one without
    /// `uuid7` does not.
    @Test func summariesWithoutTypeIDStillRead() throws {
        let s = try Self.summarise(Self.lines(IDGenerator(.uuid7).next(100)))
        var json = try JSONSerialization.jsonObject(with: Data(try s.jsonText().utf8)) as! [String: Any]
        var formats = json["time_formats"] as! [String: Any]
        #expect(formats["typeid"] != nil)
        formats["typeid"] = nil
        json["time_formats"] = formats
        let old = try AuditSummary(jsonText: try JSONSerialization.data(withJSONObject: json))
        #expect(old == s)
        formats["uuid7"] = nil
        json["time_formats"] = formats
        #expect(throws: InputError.self) { try AuditSummary(jsonText: try JSONSerialization.data(withJSONObject: json)) }
    }

    @Test(arguments: [IDFormat.uuid7, .ulid, .ksuid])
    func timeOrderedFormatsAreJudgedInTheirBuckets(format: IDFormat) throws {
        let ids = IDGenerator(format).next(100_000)
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.format != nil && r.format?.randomBits == format.randomBits, "\(r.formatName)")
        #expect(r.verdict == .consistent, "\(r.findings)")
        #expect(r.buckets != nil)
    }

    /// A KSUID's payload is judged by its duplicates within each second (base62 of a 160-bit number
    /// mixes clock and payload bits in every character): 20,000 KSUIDs over 20 seconds with a full
    /// 128-bit payload are consistent; the same with payloads drawn from a pool of 4,096 (a generator
    /// seeded badly) are too many duplicates. The KSUIDs are encoded here, from the spec (a 4-byte
    /// big-endian second since 2014-05-13 16:53:20 UTC, then 16 payload bytes, as 27 base62 digits),
    /// not by idbudget; a fixed SplitMix stream: the verdicts can not flake.
    @Test func aKSUIDPayloadIsJudgedWithinItsSecond() throws {
        func ksuid(seconds: UInt32, payload: [UInt8]) -> String {
            var number = withUnsafeBytes(of: seconds.bigEndian, Array.init) + payload
            let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            var out: [Character] = []
            while number.contains(where: { $0 != 0 }) {
                var remainder = 0
                for i in number.indices {
                    let value = remainder * 256 + Int(number[i])
                    number[i] = UInt8(value / 62)
                    remainder = value % 62
                }
                out.append(digits[remainder])
            }
            return String(repeating: "0", count: 27 - out.count) + String(out.reversed())
        }
        var random = SplitMix(state: 27)
        func payload() -> [UInt8] { (0..<2).flatMap { _ in withUnsafeBytes(of: random.next(), Array.init) } }
        let start = UInt32(Date().timeIntervalSince1970 - 1_400_000_000) - 60
        let honest = (0..<20_000).map { ksuid(seconds: start + UInt32($0 / 1000), payload: payload()) }
        let pool = (0..<4096).map { _ in payload() }
        let seeded = (0..<20_000).map { ksuid(seconds: start + UInt32($0 / 1000), payload: pool[Int(random.next() % 4096)]) }
        let h = try AuditAnalysis(summary: try Self.summarise(Self.lines(honest)))
        #expect(h.format == .ksuid && h.verdict == .consistent, "\(h.formatName) \(h.findings)")
        let w = try AuditAnalysis(summary: try Self.summarise(Self.lines(seeded)))
        #expect(w.format == .ksuid && w.verdict == .tooMany, "\(w.formatName) \(w.findings)")
    }

    /// A v4→v7 migration's log: 20,000 UUIDv7 and 1,000 UUIDv4 interleaved are each judged in their
    /// own space — consistent; with 5 UUIDv4s copied, too many duplicates; with the last character
    /// stuck in every id, a biased position.
    @Test func aMigrationFromUUIDv4ToUUIDv7IsJudgedByVersion() throws {
        var ids = IDGenerator(.uuid7).next(20_000)
        let v4 = IDGenerator(.uuid4).next(1_000)
        for (i, u) in v4.enumerated() { ids.insert(u, at: 20 * i + 7) }
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.formatName == "UUIDv7 and UUIDv4" && r.verdict == .consistent, "\(r.formatName) \(r.findings)")
        #expect(r.findings.contains { $0.hasPrefix("a mix of UUID versions") }, "\(r.findings)")
        let copied = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids + v4.prefix(5))))
        #expect(copied.formatName == "UUIDv7 and UUIDv4" && copied.verdict == .tooMany, "\(copied.findings)")
        let stuck = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids.map { String($0.dropLast()) + "0" })))
        #expect(stuck.verdict == .nonUniform, "\(stuck.findings)")
    }

    /// RFC 9562 method 1: rand_a a counter from 0 each millisecond (2 to 8 ids in one), rand_b 62
    /// random bits. Consistent, judged over rand_b; the same with rand_b narrowed to 12 random bits
    /// is too many duplicates. A fixed SplitMix stream: the verdicts can not flake.
    @Test func uuid7WithACounterInRandAIsJudgedOnRandB() throws {
        var random = SplitMix(state: 11)
        func ids(randB: Int) -> [String] {
            var out: [String] = []
            var ms: UInt64 = 1_750_000_000_000
            while out.count < 20_000 {
                ms += 1 + random.next() % 5
                for counter in 0..<(2 + random.next() % 7) {
                    let b = random.next() & ((1 << UInt64(randB)) - 1)
                    let t = String(format: "%012llx", ms)
                    let rb = String(format: "%016llx", b | 1 << 63)  // variant 10, then rand_b
                    out.append("\(t.prefix(8))-\(t.suffix(4))-7\(String(format: "%03llx", counter))-\(rb.prefix(4))-\(rb.suffix(12))")
                }
            }
            return out
        }
        let honest = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids(randB: 62))))
        #expect(honest.format == .uuid7 && honest.randomBits == 62 && honest.verdict == .consistent, "\(honest.findings)")
        #expect(honest.findings.contains { $0.contains("method 1") }, "\(honest.findings)")
        let weak = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids(randB: 12))))
        #expect(weak.verdict != .consistent, "\(weak.findings)")
        // rand_b drawn from 16 values (each random-looking): method 1 draws it afresh for every id, so
        // its narrow positions count against the stream, shared milliseconds or not.
        let pool = (0..<16).map { _ in random.next() & ((1 << 62) - 1) }
        let pooled = ids(randB: 62).enumerated().map { i, id in
            let rb = String(format: "%016llx", pool[i % 16] | 1 << 63)
            return String(id.prefix(19)) + rb.prefix(4) + "-" + rb.suffix(12)
        }
        let p = try AuditAnalysis(summary: try Self.summarise(Self.lines(pooled)))
        #expect(p.verdict == .nonUniform, "\(p.findings)")
        // The same UUIDs as TypeIDs, with and without a prefix: rand_a is characters 10–13 of the suffix.
        func typeIDs(_ uuids: [String], prefix: String) throws -> [String] {
            try uuids.map { u in
                let v = UInt128(u.replacingOccurrences(of: "-", with: ""), radix: 16) ?? 0
                return try TypeID(prefix: prefix, uuid: v).description
            }
        }
        for prefix in ["", "user"] {
            let t = try AuditAnalysis(summary: try Self.summarise(Self.lines(try typeIDs(ids(randB: 62), prefix: prefix))))
            #expect(t.format == .typeid && t.randomBits == 62 && t.verdict == .consistent, "\(prefix): \(t.findings)")
            let w = try AuditAnalysis(summary: try Self.summarise(Self.lines(try typeIDs(ids(randB: 12), prefix: prefix))))
            #expect(w.verdict != .consistent, "\(prefix): \(w.findings)")
        }
    }

    /// A monotonic generator, 4 ids a millisecond counting up from one draw: its random positions
    /// vary less than fresh draws and that is no finding; but one narrowed to 8 of its symbols is
    /// still narrow among the 5,000 milliseconds' draws alone, in a UUIDv7 and in a ULID.
    @Test func aNarrowPositionIsFoundWhenMillisecondsAreShared() throws {
        var random = SplitMix(state: 66)
        for format in [IDFormat.uuid7, .ulid] {
            let honest = try AuditAnalysis(summary: try Self.summarise(Self.lines(Self.monotonic(format, perMs: 4, random: &random))))
            #expect(honest.verdict == .consistent, "\(format): \(honest.findings)")
            let narrowed = try AuditAnalysis(
                summary: try Self.summarise(Self.lines(Self.monotonic(format, perMs: 4, narrow: true, random: &random))))
            #expect(narrowed.verdict == .nonUniform, "\(format): \(narrowed.findings)")
        }
    }

    /// Honest monotonic generators at 1 to 2 ids a millisecond (python-ulid's default, paced): the
    /// ids of a millisecond share their high random symbols, so a position's counts come in pairs and
    /// its χ² is divided by that design effect — not a false "biased" (it was, in most runs).
    @Test(arguments: [1, 2, 3])
    func sharedMillisecondsAreNoFalseAlarm(perMs: Int) throws {
        var random = SplitMix(state: UInt64(70 + perMs))
        for format in [IDFormat.uuid7, .ulid] {
            for _ in 0..<4 {
                let ids = Self.monotonic(format, perMs: perMs, milliseconds: 6000 / perMs, random: &random)
                let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
                #expect(r.verdict == .consistent, "\(format) at \(perMs)/ms: \(r.findings)")
            }
        }
    }

    /// A monotonic generator's ids: `perMs` a millisecond (or 1 to 2 at random for `perMs` 1),
    /// counting up by one from one draw; `narrow` draws one random position from 8 symbols.
    static func monotonic(
        _ format: IDFormat, perMs: Int, milliseconds: Int = 5000, narrow: Bool = false, random: inout SplitMix
    ) -> [String] {
        let crockford = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var out: [String] = []
        for k in 0..<milliseconds {
            let ms = 1_760_000_000_000 + UInt64(k)
            let a = random.next() & (format == .uuid7 ? 0xFFF : 0x3FFFF)  // rand_a; a ULID's top 18 bits
            let b = random.next() & ((1 << 62) - 1)
            let count = perMs == 1 ? 1 + Int(random.next() % 2) : perMs
            for j in 0..<UInt64(count) {
                var id: [Character]
                if format == .uuid7 {
                    let t = String(format: "%012llx", ms)
                    let rb = String(format: "%016llx", ((b + j) & ((1 << 62) - 1)) | 1 << 63)
                    id = Array("\(t.prefix(8))-\(t.suffix(4))-7\(String(format: "%03llx", a))-\(rb.prefix(4))-\(rb.suffix(12))")
                    if narrow { id[30] = Array("01234567")[Int(random.next() % 8)] }
                } else {
                    let time = (0..<10).map { i in crockford[Int(ms >> UInt64(45 - 5 * i) & 31)] }
                    let r: UInt128 = (UInt128(a) << 62 | UInt128(b)) + UInt128(j)
                    let symbols: [Character] = (0..<16).map { i in crockford[Int(truncatingIfNeeded: r >> UInt128(75 - 5 * i) & 31)] }
                    id = time + symbols
                    if narrow { id[12] = crockford[Int(random.next() % 8)] }
                }
                out.append(String(id))
            }
        }
        return out
    }

    /// UUIDv7s whose random bits are all zero: one id a millisecond, so no duplicates at all; the
    /// positions give them away.
    @Test func uuid7WithoutRandomBitsIsFlagged() throws {
        let ids = (0..<5000).map { ms -> String in
            let t = String(format: "%012llx", 1_700_000_000_000 + UInt64(ms))
            return "\(t.prefix(8))-\(t.suffix(4))-7000-8000-000000000000"
        }
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.format == .uuid7)
        #expect(r.verdict == .nonUniform, "\(r.findings)")
        #expect(r.findings.contains { $0.contains("constant") })
    }

    /// TypeIDs (`user_01h4…`) are judged as the UUIDv7s they hold, 74 random bits a millisecond —
    /// one prefix, several prefixes of different lengths, a 9-character prefix (36 characters, the
    /// length of a UUID) — not as unknown base32.
    @Test(arguments: [["user"], ["user", "organization"], ["abcdefghi"]])
    func typeIDsAreJudgedInTheirBuckets(prefixes: [String]) throws {
        var ids: [String] = []
        for prefix in prefixes { ids += try IDGenerator(.typeid, prefix: prefix).next(60_000) }
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.format == .typeid && r.randomBits == 74, "\(r.formatName)")
        #expect(r.verdict == .consistent, "\(r.findings)")
        #expect(r.buckets != nil)
        #expect(r.findings.first?.hasPrefix("format: TypeID") == true)
    }

    /// A stray line among TypeIDs — a UUIDv4 (its `-` a 33rd symbol at position 24), a header — is one
    /// id in 10,001: tolerated, its symbols not taken for the generator's. Each of 3 streams.
    @Test(arguments: [(1, "0b6c1d4e-8f2a-4b3c-9d1e-2f3a4b5c6d7e"), (2, "id"), (3, "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a")])
    func aStrayLineAmongTypeIDsIsTolerated(seed: Int, stray: String) throws {
        var ids = try IDGenerator(.typeid, prefix: "user").next(10_000)
        ids.insert(stray, at: (seed * 3_331) % ids.count)
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.format == .typeid, "\(r.formatName)")
        #expect(r.verdict == .consistent, "\(r.findings)")
        // A position that shows more symbols than the alphabet by more than a stray's worth still fails.
        let many = try IDGenerator(.typeid, prefix: "user").next(10_000).enumerated().map { i, id in
            i % 50 == 0 ? String(id.prefix(24)) + "-" + String(id.dropFirst(25)) : id
        }
        let bad = try AuditAnalysis(summary: try Self.summarise(Self.lines(many)))
        #expect(bad.verdict != .consistent, "\(bad.findings)")
    }

    /// Two stray lines of different lengths, both long enough to hold a suffix (28 and 45
    /// characters), in a small TypeID log: neither length holds a TypeID, so neither is taken for
    /// the TypeIDs' — the TypeIDs are still judged as TypeIDs, not as tokens with narrow positions.
    @Test(arguments: [300, 1_000, 5_000])
    func twoLongStraysBesideFewTypeIDs(count: Int) throws {
        var ids = try IDGenerator(.typeid, prefix: "user").next(count)
        ids.insert("stray_line_number_one_x_28ch", at: count / 3)
        ids.insert("another_stray_line_of_a_different_length_here", at: count / 2)
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.format == .typeid && r.verdict == .consistent, "\(r.formatName) \(r.findings)")
    }

    /// TypeIDs without a prefix (26 lower-case characters, a UUIDv7 inside) one every 13 ms are
    /// TypeIDs, not ULIDs with narrow positions 11 and 14; ULIDs (upper case, or lower case with
    /// random bits there) stay ULIDs. A fixed SplitMix stream: the verdicts can not flake.
    @Test func typeIDsWithoutAPrefixAreTypeIDs() throws {
        var random = SplitMix(state: 39)
        func bits(_ n: Int) -> UInt128 { (UInt128(random.next()) << 64 | UInt128(random.next())) & ((1 << n) - 1) }
        let t: UInt128 = 1_750_000_000_000
        let v7 = { (ms: UInt128) in ms << 80 | 7 << 76 | bits(12) << 64 | 2 << 62 | bits(62) }
        let ids = try (0..<10_000).map { i in try TypeID(prefix: "", uuid: v7(t + UInt128(13 * i))).description }
        #expect(ids[0].count == 26 && ids[0] == ids[0].lowercased())
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines(ids)))
        #expect(r.format == .typeid && r.randomBits == 74 && r.verdict == .consistent, "\(r.formatName) \(r.findings)")
        #expect(r.findings.contains { $0.hasPrefix("read as TypeIDs without a prefix") }, "\(r.findings)")
        // The same values as ULIDs (upper case, 80 random bits): ULIDs, consistent.
        let ulids = try (0..<10_000).map { i in
            try TypeID(prefix: "", uuid: (t + UInt128(13 * i)) << 80 | bits(80)).description.uppercased()
        }
        let u = try AuditAnalysis(summary: try Self.summarise(Self.lines(ulids)))
        #expect(u.format == .ulid && u.verdict == .consistent, "\(u.formatName) \(u.findings)")
        // Lower-case ULIDs with random bits where a UUIDv7 has its version: still ULIDs.
        let lower = ulids.map { $0.lowercased() }
        let l = try AuditAnalysis(summary: try Self.summarise(Self.lines(lower)))
        #expect(l.format == .ulid && l.verdict == .consistent, "\(l.formatName) \(l.findings)")
    }

    /// Controls: TypeIDs of one millisecond drawing 16 random values (duplicates far past 74 bits),
    /// and one a millisecond with no random bits (constant where TypeID has random bits).
    @Test func brokenTypeIDsAreFlagged() throws {
        let t: UInt128 = 1_700_000_000_000
        let v7 = { (ms: UInt128, random: UInt128) in ms << 80 | 7 << 76 | 2 << 62 | random }
        let few = try (0..<5000).map { i in try TypeID(prefix: "user", uuid: v7(t, UInt128(i % 16))).description }
        let dup = try AuditAnalysis(summary: try Self.summarise(Self.lines(few)))
        #expect(dup.format == .typeid && dup.verdict == .tooMany, "\(dup.findings)")
        let zero = try (0..<5000).map { i in try TypeID(prefix: "user", uuid: v7(t + UInt128(i), 0)).description }
        let flat = try AuditAnalysis(summary: try Self.summarise(Self.lines(zero)))
        #expect(flat.format == .typeid && flat.verdict == .nonUniform, "\(flat.findings)")
        #expect(flat.findings.contains { $0.contains("constant") && $0.contains("where TypeID has random bits") })
    }

    /// TypeIDs of different prefixes are different ids: their buckets are per prefix group and
    /// millisecond. The same UUIDs under two prefixes are 2n distinct ids in twice the buckets, and
    /// the duplicates a few random values make are judged within each prefix.
    @Test func typeIDBucketsArePerPrefix() throws {
        let t: UInt128 = 1_700_000_000_000
        let v7 = { (ms: UInt128, random: UInt128) in ms << 80 | 7 << 76 | 2 << 62 | random }
        let uuids = (0..<3000).map { v7(t + UInt128($0 % 3), UInt128($0) &* 0x9E37_79B9_7F4A_7C15 & ((1 << 62) - 1)) }
        let ids = try ["user", "order"].flatMap { p in try uuids.map { try TypeID(prefix: p, uuid: $0).description } }
        let s = try Self.summarise(Self.lines(ids))
        #expect(s.distinct == 6000 && s.timeFormats[.typeid]?.buckets.count == 6)
        let r = try AuditAnalysis(summary: s)
        #expect(r.buckets?.count == 6 && r.buckets?.largest == 1000 && r.verdict == .consistent, "\(r.findings)")
    }

    /// A counter: every position uniform, no duplicates where thousands are expected.
    @Test func countersHaveTooFewDuplicates() throws {
        let r = try AuditAnalysis(summary: try Self.summarise(Self.lines((0..<100_000).map { String(format: "%05d", $0) })))
        #expect(r.verdict == .tooFew)
        #expect(r.findings.contains { $0.contains("sequential") })
    }
}

/// The occupancy tails where n is not small against d, against S(n,k)·d!/(d−k)!/dⁿ summed in exact
/// fractions (Python, Stirling numbers of the second kind: not the chain the tool follows).
@Suite struct ExactTailTests {
    @Test(arguments: [
        (40, 10_000, 2, 0.0027085022001766316, 0.9999389349341302),
        (1000, 1_000_000, 5, 0.0001674294732249835, 0.999986404252871),
        (300, 1000, 30, 0.986113929237568, 0.02294484014658905),
    ])
    func tailsMatchStirlingNumbers(n: Int, d: Int, x: Int, high: Double, low: Double) {
        let t = DuplicateTest(space: BigInt(d), count: n, observed: x)
        #expect(t.method == .exact)
        #expect(abs(t.pValueHigh - high) <= 1e-12 * Swift.max(1, high) + 1e-15, "\(t.pValueHigh)")
        #expect(abs(t.pValueLow - low) <= 1e-12, "\(t.pValueLow)")
        #expect(t.verdict == .consistent)
    }

    /// Honest 4-digit codes, 45 a stream: the false-alarm rate stays near the 10⁻⁶ the threshold means.
    @Test func shortCodeStreamsRaiseNoFalseAlarms() throws {
        var rng = SeededRandom(seed: 21)
        var alarms = 0
        for _ in 0..<2000 {
            let codes = (0..<45).map { _ in String(format: "%04d", Int(rng.next() % 10_000)) }
            let text = Array((codes.joined(separator: "\n") + "\n").utf8)
            let r = try AuditAnalysis(summary: try AuditTests.summarise(text, threads: 1))
            if r.test.verdict == .tooMany { alarms += 1 }
        }
        #expect(alarms == 0)
    }
}

/// The audit's answer depends on the time it is judged at only through `now`, which a caller passes:
/// UUIDv7s minted in 2030 are a wrong clock's (past tomorrow) judged in 2026, and plausible judged in
/// 2030 — the same summary, two fixed answers, neither read from the clock.
@Suite struct AuditClockTests {
    /// UUIDv7s, four a millisecond from `start`, their 74 other bits from a seeded generator.
    static func uuid7s(atMillisecond start: UInt64, count: Int) -> [String] {
        var rng = SeededRandom(seed: 11)
        var ids: [String] = []
        for i in 0..<count {
            var digits = ""
            for _ in 0..<18 { digits += String(rng.next() & 0xF, radix: 16) }
            let ms = String(start + UInt64(i / 4), radix: 16)
            let t = String(repeating: "0", count: 12 - ms.count) + ms
            let variant = String(8 + rng.next() & 0x3, radix: 16)
            let d = Array(digits)
            ids.append("\(t.prefix(8))-\(t.suffix(4))-7\(String(d[0..<3]))-\(variant)\(String(d[3..<6]))-\(String(d[6..<18]))")
        }
        return ids
    }

    @Test func theTimeItIsJudgedAtIsPassedIn() throws {
        let in2030: UInt64 = 1_893_456_000_000  // 2030-01-01
        let ids = Self.uuid7s(atMillisecond: in2030, count: 2000)
        let auditor = try Auditor(now: Date(timeIntervalSince1970: 1_795_000_000))  // 2026-11
        let text = ids.joined(separator: "\n") + "\n"
        try Array(text.utf8).withUnsafeBytes { try auditor.consume($0) }
        let summary = try auditor.finish()
        let early = try AuditReport(summary: summary, now: Date(timeIntervalSince1970: 1_795_000_000))
        let late = try AuditReport(summary: summary, now: Date(timeIntervalSince1970: 1_893_500_000))
        #expect(early.findings.contains { $0.contains("outside 2005 to tomorrow") }, "\(early.findings)")
        #expect(!late.findings.contains { $0.contains("outside 2005 to tomorrow") }, "\(late.findings)")
        #expect(late.format == "UUIDv7" && late.passes, "\(late.format): \(late.findings)")
    }
}
