import Foundation
import Synchronization
import TestSupport
import Testing

@testable import IDTokens

/// The formats `IDGenerator` mints: layout, ordering, overflow, the random bits it really draws, fork
/// safety and the shared form. Decoders here are written from the specs, independently of the
/// generator's encoders; `CLIFormatTests` checks the same ids with Python's decoders.
@Suite struct FormatTests {
    /// The id's bits as a big-endian bit string (128 for UUIDs and ULIDs, 160 for KSUIDs, 126 for Nano IDs).
    static func bits(_ format: IDFormat, _ text: String) -> [Bool] {
        func digits(_ alphabet: String, width: Int, _ s: String) -> [Bool] {
            let a = Array(alphabet.utf8)
            return s.utf8.flatMap { c -> [Bool] in
                let v = a.firstIndex(of: c)!
                return (0..<width).reversed().map { (v >> $0) & 1 == 1 }
            }
        }
        switch format {
        case .uuid4, .uuid7, .uuid8, .uuid1, .uuid6, .objectid:
            return digits("0123456789abcdef", width: 4, String(text.filter { $0 != "-" }))
        case .firebase:
            return digits("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz", width: 6, text)
        case .xid:
            return Array(digits("0123456789abcdefghijklmnopqrstuv", width: 5, text).prefix(96))
        case .tsid:
            return Array(digits("0123456789ABCDEFGHJKMNPQRSTVWXYZ", width: 5, text).dropFirst())
        case .snowflake, .discord, .instagram, .sonyflake:
            let v = UInt64(text)!
            return (0..<64).reversed().map { (v >> UInt64($0)) & 1 == 1 }
        case .cuid2:
            return []  // base36: no bits to read
        case .ulid:
            return Array(digits("0123456789ABCDEFGHJKMNPQRSTVWXYZ", width: 5, text).dropFirst(2))
        case .typeid:
            // The 26 characters after the last `_` (if any): lower-case Crockford, 130 bits, the top 2 zero.
            let suffix = String(text.split(separator: "_").last ?? "")
            return Array(digits("0123456789abcdefghjkmnpqrstvwxyz", width: 5, suffix).dropFirst(2))
        case .nanoid:
            return digits("useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict", width: 6, text)
        case .ksuid:
            // Base62 to 160 bits by schoolbook multiplication on 32-bit limbs.
            var limbs = [UInt64](repeating: 0, count: 5)
            let a = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
            for c in text.utf8 {
                var carry = UInt64(a.firstIndex(of: c)!)
                for i in (0..<5).reversed() {
                    let v = limbs[i] * 62 + carry
                    limbs[i] = v & 0xFFFF_FFFF
                    carry = v >> 32
                }
            }
            return limbs.flatMap { l in (0..<32).reversed().map { (l >> UInt64($0)) & 1 == 1 } }
        }
    }

    static func number(_ bits: ArraySlice<Bool>) -> UInt64 { bits.reduce(0) { $0 << 1 | ($1 ? 1 : 0) } }

    /// Bits that are the timestamp, and so vary with time rather than randomness.
    static func timestampBits(_ format: IDFormat) -> Range<Int> {
        switch format {
        case .uuid7, .ulid, .typeid, .firebase: 0..<48
        case .ksuid: 0..<32
        default: 0..<0
        }
    }

    /// The catalogue's random bits are the bits that vary: across 4000 ids (non-monotonic), exactly
    /// `randomBits` non-timestamp bit positions take both values and the rest never change.
    @Test(arguments: IDFormat.allCases.filter { $0.node == nil && $0 != .cuid2 })
    func randomBitsAreTheBitsThatVary(format: IDFormat) {
        let ids = IDGenerator(format, monotonic: false).next(4000)
        let rows = ids.map { Self.bits(format, $0) }
        let width = rows[0].count
        let skip = Self.timestampBits(format)
        let varying = (0..<width).filter { b in !skip.contains(b) && Set(rows.map { $0[b] }).count == 2 }.count
        #expect(varying == format.randomBits, "\(format): \(varying) varying bits")
        #expect(ids.allSatisfy { $0.utf8.count == format.length })
    }

    @Test func uuidVersionsVariantsAndTime() {
        let now = Double(IDGenerator.unixMilliseconds())
        for (format, version) in [(IDFormat.uuid4, 4), (.uuid7, 7), (.uuid8, 8), (.uuid1, 1), (.uuid6, 6)] {
            for id in IDGenerator(format).next(500) {
                let b = Self.bits(format, id)
                #expect(Self.number(b[48..<52]) == UInt64(version), "\(id)")
                #expect(b[64] && !b[65], "\(id): variant")
                #expect(Array(id).enumerated().filter { $0.element == "-" }.map(\.offset) == [8, 13, 18, 23])
                if format == .uuid7 { #expect(abs(Double(Self.number(b[0..<48])) - now) < 60_000) }
            }
        }
    }

    @Test func ulidAndKsuidTimestampsAreNow() {
        let now = Double(IDGenerator.unixMilliseconds())
        for id in IDGenerator(.ulid).next(100) {
            #expect(abs(Double(Self.number(Self.bits(.ulid, id)[0..<48])) - now) < 60_000, "\(id)")
        }
        for id in IDGenerator(.ksuid).next(100) {
            let seconds = Double(Self.number(Self.bits(.ksuid, id)[0..<32])) + 1_400_000_000
            #expect(abs(seconds * 1000 - now) < 60_000, "\(id)")
        }
    }

    /// One monotonic generator's ids sort in minting order, also when the clock stands still or goes back.
    @Test(arguments: [IDFormat.uuid7, .ulid, .typeid, .firebase])
    func monotonicIdsSortInMintingOrder(format: IDFormat) {
        let generator = IDGenerator(format, monotonic: true)
        let ids = generator.next(50_000)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        var t: UInt64 = 1_800_000_000_000
        generator.testClock = { t }
        var more = generator.next(1000)
        t -= 5000  // the clock goes back 5 s
        more += generator.next(1000)
        #expect(more == more.sorted())
        #expect(Set(more).count == more.count)
    }

    /// When the random field would overflow within a millisecond, the timestamp advances by 1 ms.
    @Test(arguments: [(IDFormat.uuid7, 74), (.ulid, 80), (.typeid, 74), (.firebase, 72)])
    func overflowAdvancesTheTimestamp(format: IDFormat, bits: Int) {
        let generator = IDGenerator(format, monotonic: true)
        let t: UInt64 = 1_800_000_000_000
        generator.testClock = { t }
        generator.setLast(millis: t, random: (UInt128(1) << UInt128(bits)) - 1)
        let before = generator.next()  // overflows at once
        let after = generator.next()
        let stamp = { (id: String) in Self.number(Self.bits(format, id)[0..<48]) }
        #expect(stamp(before) == t + 1)
        #expect(stamp(after) == t + 1)
        #expect(before < after)
        // Without monotonic mode nothing carries over.
        let plain = IDGenerator(format, monotonic: false)
        plain.testClock = { t }
        #expect(stamp(plain.next()) == t)
    }

    /// TypeIDs: the prefix, `_`, and a UUIDv7 (version 7, variant 10, the time now) that the
    /// spec-written decoder in IDFormats reads back, and `bits` (written here from the spec) agrees.
    @Test func typeIDsCarryTheirPrefixAndAUUIDv7() throws {
        let now = Double(IDGenerator.unixMilliseconds())
        let generator = try IDGenerator(.typeid, prefix: "user")
        #expect(generator.length == 31 && generator.prefix == "user")
        for id in generator.next(500) {
            #expect(id.hasPrefix("user_") && id.utf8.count == 31, "\(id)")
            let parsed = try TypeID(parsing: id)
            #expect(parsed.prefix == "user" && parsed.description == id)
            let b = Self.bits(.typeid, id)
            #expect(Self.number(b[48..<52]) == 7 && b[64] && !b[65], "\(id)")
            #expect(parsed.unixMilliseconds == Self.number(b[0..<48]))
            #expect(abs(Double(Self.number(b[0..<48])) - now) < 60_000, "\(id)")
        }
        let bare = try IDGenerator(.typeid, prefix: "")
        #expect(bare.next().utf8.count == 26 && !bare.next().contains("_"))
        #expect(try IDGenerator(.typeid, prefix: String(repeating: "a", count: 63)).next().utf8.count == 90)
        for bad in ["User", "_user", "user_", "us er", "üser", String(repeating: "a", count: 64)] {
            #expect(throws: IDGeneratorError.self, "\(bad)") { try IDGenerator(.typeid, prefix: bad) }
        }
        #expect(throws: IDGeneratorError.prefix(.uuid7, "only typeid ids have a type prefix")) { try IDGenerator(.uuid7, prefix: "user") }
    }

    /// cuid2: a letter, then 23 of base36; every letter and every symbol turns up, one by one and in
    /// bulk (26,000 ids: a letter missing has p < 26·(25/26)^26000, nil in practice).
    @Test func cuid2IsALetterThenBase36() {
        let generator = IDGenerator(.cuid2)
        var buffer = [UInt8](repeating: 0, count: 25 * 13_000)
        let n = buffer.withUnsafeMutableBytes { generator.fill($0) }
        let ids = generator.next(13_000) + String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(n == 13_000 && ids.count == 26_000 && Set(ids).count == 26_000)
        let letters = Set("abcdefghijklmnopqrstuvwxyz")
        let base36 = letters.union("0123456789")
        #expect(ids.allSatisfy { $0.count == 24 && letters.contains($0.first!) && $0.allSatisfy(base36.contains) })
        #expect(Set(ids.map(\.first!)) == letters)
        for i in [1, 12, 23] { #expect(Set(ids.map { Array($0)[i] }) == base36) }
    }

    @Test func defaultsFollowTheCatalogue() {
        #expect(IDGenerator(.uuid7).monotonic)
        #expect(!IDGenerator(.ulid).monotonic)
        #expect(IDGenerator(.ulid, monotonic: true).monotonic)
        #expect(!IDGenerator(.uuid4, monotonic: true).monotonic)
        #expect(IDGenerator(.typeid).monotonic)
        #expect(IDGenerator(.firebase).monotonic && !IDGenerator(.snowflake).monotonic)
    }

    @Test func fillWritesWholeIds() throws {
        for format in IDFormat.allCases {
            let generator = IDGenerator(format)
            var buffer = [UInt8](repeating: 0, count: (format.length + 1) * 100 + 3)
            if format.isDecimal {
                // Shorter ids: more may fit; `write(into:)` says how many bytes they took.
                generator.fixClock(at: (format.defaultEpoch ?? 0) + 1000)  // 1 s after the epoch: 13–16 digits
                let (n, bytes) = try buffer.withUnsafeMutableBytes { try generator.write(into: $0) }
                let lines = String(decoding: buffer.prefix(bytes), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                #expect(n > 100 && lines.count == n + 1 && lines.last == "" && lines.dropLast().allSatisfy { !$0.isEmpty && $0.count < 19 })
                #expect(buffer.count - bytes < 20, "\(format): room for another id was left")
                continue
            }
            let n = buffer.withUnsafeMutableBytes { generator.fill($0) }
            #expect(n == 100)
            let lines = String(decoding: buffer.prefix((format.length + 1) * 100), as: UTF8.self).split(separator: "\n")
            #expect(lines.count == 100 && lines.allSatisfy { $0.count == format.length })
        }
    }

    /// A forked child mints different ids, including a monotonic uuid7 mid-millisecond.
    @Test(arguments: [(IDFormat.uuid4, ForkProtection.automatic), (.uuid7, .automatic), (.uuid7, .forkEpoch), (.ulid, .forkEpoch)])
    func forkedChildDoesNotRepeat(format: IDFormat, protection: ForkProtection) throws {
        let (parent, child) = try Self.idsAfterFork(length: format.length) {
            let generator = IDGenerator(format, monotonic: true, forkProtection: protection)
            generator.fixClock(at: 1_800_000_000_000)
            return generator
        }
        #expect(parent.isDisjoint(with: child))
    }

    /// A generator from `make` mints 10 ids, forks; the child and then the parent each fill 50 ids of
    /// `length` bytes (unseparated): the ids each minted after the fork.
    static func idsAfterFork(length: Int, _ make: () -> IDGenerator) throws -> (parent: Set<String>, child: Set<String>) {
        let (parent, child) = try Forked.attempts { () -> ([UInt8], [UInt8])? in
            let generator = make()
            _ = generator.next(10)
            var buffer = [UInt8](repeating: 0, count: length * 50)
            let forked = try Forked { child in
                buffer.withUnsafeMutableBytes { _ = generator.fill($0, separator: nil) }
                return buffer.withUnsafeBytes { child.send($0) } ? 0 : 1
            }
            let child = forked.read(count: length * 50)
            guard forked.wait() == .exited(0), child.count == length * 50 else { return nil }
            _ = buffer.withUnsafeMutableBytes { generator.fill($0, separator: nil) }
            return (buffer, child)
        }
        let split = { (b: [UInt8]) in
            Set(stride(from: 0, to: b.count, by: length).map { String(decoding: b[$0..<$0 + length], as: UTF8.self) })
        }
        return (split(parent), split(child))
    }

    @Test func sharedGeneratorFromManyThreads() {
        let shared = try! SharedIDGenerator(.uuid7)
        let results = Mutex([[String]](repeating: [], count: 4))
        SharedGeneratorTests.together(4) { i in
            let ids = shared.next(20_000)
            results.withLock { $0[i] = ids }
        }
        let perThread = results.withLock { $0 }
        #expect(perThread.allSatisfy { $0 == $0.sorted() })
        let all = perThread.flatMap { $0 }
        #expect(Set(all).count == 80_000)
    }
}
