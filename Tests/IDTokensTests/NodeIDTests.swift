import Foundation
import Synchronization
import TestSupport
import Testing

@testable import IDTokens

/// The node-id family as `IDGenerator` mints it: layouts read back with decoders written here from the
/// formats' documents, the per-tick ceiling (ids stay unique and ordered when minting outruns it), a
/// clock that goes back, the end of time, forked children, threads, and ids as values.
/// `InspectCLITests` reads the same ids with the reference libraries.
@Suite struct NodeIDTests {
    /// (timestamp in Unix ms, node, sequence) of a Snowflake-family number, from the published layouts.
    static func fields(_ format: IDFormat, _ v: UInt64, epoch: UInt64) -> (millis: UInt64, node: UInt64, sequence: UInt64) {
        switch format {
        case .instagram: ((v >> 23) + epoch, v >> 10 & 0x1FFF, v & 0x3FF)
        case .sonyflake: ((v >> 24) * 10 + epoch, v & 0xFFFF, v >> 16 & 0xFF)
        default: ((v >> 22) + epoch, v >> 12 & 0x3FF, v & 0xFFF)  // snowflake, discord (worker << 5 | process), tsid
        }
    }

    static let snowflakes: [IDFormat] = [.snowflake, .discord, .instagram, .sonyflake, .tsid]

    /// Text and number agree: decimal for the Snowflakes, 13 Crockford characters for TSID.
    static func number(_ format: IDFormat, _ text: String) -> UInt64? {
        if format != .tsid { return UInt64(text) }
        let a = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
        return text.utf8.reduce(UInt64(0)) { $0 << 5 | UInt64(a.firstIndex(of: $1)!) }
    }

    @Test(arguments: snowflakes)
    func fieldsAreTheGivenNodeTheClockAndACounter(format: IDFormat) throws {
        let node = UInt64(format.nodeBits! == 10 ? 777 : 4321)
        let g = try IDGenerator(format, node: node)
        let t: UInt64 = 1_795_650_000_120
        g.fixClock(at: t)
        let ids = g.next(200)
        let epoch = format.defaultEpoch!
        for (i, id) in ids.enumerated() {
            let v = try #require(Self.number(format, id), "\(id)")
            let f = Self.fields(format, v, epoch: epoch)
            #expect(f.node == node, "\(id)")
            if format != .tsid { #expect(f.sequence == UInt64(i), "\(id)") }
            // TSID's counter starts each millisecond at random: an overflow takes the next one (at most
            // one tick per id).
            #expect(format == .tsid ? f.millis >= t && f.millis < t + 200 : f.millis == t, "\(format) \(id): \(f.millis)")
            #expect(v >> 63 == 0)
        }
        #expect(ids.map { Self.number(format, $0)! } == ids.map { Self.number(format, $0)! }.sorted())
    }

    /// Minting faster than the format's ceiling takes the next tick at once: all unique, in order,
    /// the last id exactly as many ticks ahead as were borrowed.
    @Test(arguments: snowflakes)
    func minting_past_the_ceiling_borrows_ticks(format: IDFormat) throws {
        let g = try IDGenerator(format, node: 3)
        let t: UInt64 = 1_795_650_000_000
        g.fixClock(at: t)
        let n = 100_000
        var buffer = [UInt8](repeating: 0, count: 20 * n)
        let (ids, bytes) = try buffer.withUnsafeMutableBytes { try g.write(into: $0) }
        #expect(ids >= n)  // at most 19 bytes an id: shorter ones leave room for more
        let values = buffer[..<bytes].split(separator: 0x0A).map { Self.number(format, String(decoding: $0, as: UTF8.self))! }
        #expect(values.count == ids && Set(values).count == ids)
        #expect(values == values.sorted())
        let perTick = UInt64(format.node!.perTick)
        let last = Self.fields(format, values.last!, epoch: format.defaultEpoch!).millis
        let unit: UInt64 = format == .sonyflake ? 10 : 1
        if format != .tsid {  // TSID's counter starts at random, so its ticks hold fewer
            #expect(last == t + (UInt64(ids) - 1) / perTick * unit, "\(format)")
        } else {
            #expect(last > t + UInt64(ids) / perTick && last <= t + UInt64(ids))
        }
    }

    @Test(arguments: IDFormat.allCases.filter { $0.node != nil })
    func theClockGoesBackTheIdsDoNot(format: IDFormat) throws {
        let g = IDGenerator(format)
        var t: UInt64 = 1_795_650_000_000
        g.testClock = { t }
        var ids = g.next(3000)
        t -= 60_000
        ids += g.next(3000)
        let keys = ids.map { format.isDecimal ? String(repeating: "0", count: 19 - $0.count) + $0 : $0 }
        // UUIDv1's text does not sort by time (time_low first); its 60-bit time does.
        if format != .uuid1 { #expect(keys == keys.sorted(), "\(format)") }
        #expect(Set(ids).count == ids.count)
    }

    @Test func uuid1And6HoldTheTimeNodeAndClockSequence() throws {
        for format in [IDFormat.uuid1, .uuid6] {
            let g = try IDGenerator(format, node: 0x0242_ac11_0002)
            g.fixClock(at: 1_795_650_000_123)
            let ids = g.next(3)
            for (i, id) in ids.enumerated() {
                let hex = Array(id.filter { $0 != "-" })
                let field = { (r: Range<Int>) in UInt64(String(hex[r]), radix: 16)! }
                let ticks =
                    format == .uuid1
                    ? field(13..<16) << 48 | field(8..<12) << 32 | field(0..<8)
                    : field(0..<12) << 12 | field(13..<16)
                // 100 ns ticks since 1582-10-15: 122192928000000000 to 1970.
                #expect(ticks == 1_795_650_000_123 * 10_000 + 122_192_928_000_000_000 + UInt64(i), "\(id)")
                #expect(field(20..<32) == 0x0242_ac11_0002)
                #expect(hex[12] == (format == .uuid1 ? "1" : "6") && "89ab".contains(hex[16]))
            }
            // A random node has the multicast bit set (RFC 9562 §6.10).
            let random = IDGenerator(format).next()
            let first = UInt8(String(Array(random.filter { $0 != "-" })[20..<22]), radix: 16)!
            #expect(first & 1 == 1, "\(random)")
        }
    }

    @Test func xidAndObjectIdHoldSecondsNodeAndACounter() throws {
        for format in [IDFormat.xid, .objectid] {
            let g = try IDGenerator(format, node: 0x12_3456_789a)
            g.fixClock(at: 1_795_650_000_999)
            var bytes: [[UInt8]] = []
            for _ in 0..<3 { bytes.append(try g.nextBytes()) }
            for (i, b) in bytes.enumerated() {
                #expect(b.count == 12)
                #expect(b[0..<4].reduce(0) { $0 << 8 | UInt64($1) } == 1_795_650_000)
                #expect(b[4..<9].reduce(0) { $0 << 8 | UInt64($1) } == 0x12_3456_789a)
                if i > 0 {
                    let counter = { (b: [UInt8]) in b[9..<12].reduce(0) { $0 << 8 | UInt64($1) } }
                    #expect(counter(b) == (counter(bytes[i - 1]) + 1) & 0xFF_FFFF)
                }
            }
        }
        // xid's default node: 3 bytes of the host's id, then this process's pid.
        let x = try IDGenerator(.xid).nextBytes()
        #expect(UInt64(x[7]) << 8 | UInt64(x[8]) == UInt64(getpid()) & 0xFFFF)
    }

    @Test func theEndOfTimeIsCheckedAndNeverWraps() throws {
        let g = try IDGenerator(.snowflake, node: 1)
        g.fixClock(at: 1_000)  // before Twitter's epoch
        #expect(throws: IDGeneratorError.endOfTime(.snowflake)) { try g.nextChecked() }
        #expect(g.next() == String(1 << 12))  // unchecked: held at tick 0
        let late = try IDGenerator(.sonyflake, node: 1)
        late.fixClock(at: 1_409_529_600_000 + (1 << 39) * 10)
        #expect(throws: IDGeneratorError.endOfTime(.sonyflake)) { try late.nextUInt64() }
        #expect(IDGeneratorError.endOfTime(.snowflake).description.contains("2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z"))
        // Instagram's ids are signed 64-bit: 40 of its 41 time bits, to 2046; never past 2^63 − 1.
        let insta = try IDGenerator(.instagram, node: 8191)
        insta.fixClock(at: 1_314_220_021_721 + (1 << 40) - 1)
        #expect(try insta.nextUInt64() >> 63 == 0)
        insta.fixClock(at: 1_314_220_021_721 + (1 << 40))
        #expect(throws: IDGeneratorError.endOfTime(.instagram)) { try insta.nextUInt64() }
        #expect(UInt64(insta.next())! >> 63 == 0)
        let moved = try IDGenerator(.snowflake, node: 0, epoch: 0)
        moved.fixClock(at: 5)
        #expect(try moved.nextUInt64() == 5 << 22)
    }

    /// The bulk path (`fill`, `write(into:)`) of the Snowflake family keeps the last tick and sequence
    /// in registers: ordered across a clock that goes back, continued by `next()`, and at the end of
    /// time it stops (checked) or holds the last tick (unchecked), never wrapping.
    @Test(arguments: snowflakes)
    func inBulkAcrossAClockGoingBackAndTheEnd(format: IDFormat) throws {
        let g = try IDGenerator(format, node: 5)
        var t: UInt64 = 1_795_650_000_000
        g.testClock = { t }
        func bulk(_ count: Int, checked: Bool = true) throws -> [UInt64] {
            var buffer = [UInt8](repeating: 0, count: 20 * count)
            let (_, bytes) = try buffer.withUnsafeMutableBytes { try g.write(into: $0, limit: count) }
            return buffer[..<bytes].split(separator: 0x0A).map { Self.number(format, String(decoding: $0, as: UTF8.self))! }
        }
        var values = try bulk(3000)
        t -= 5_000
        values += try bulk(3000)
        values.append(Self.number(format, g.next())!)
        #expect(values.count == 6001 && Set(values).count == 6001)
        #expect(values == values.sorted())
        #expect(values.allSatisfy { Self.fields(format, $0, epoch: format.defaultEpoch!).node == 5 })
        // The end of time: the clock past the last tick stops a checked fill before its first id.
        let span = try #require(IDGenerator.timeSpan(of: format))
        t = span.upperBound + 1_000
        #expect(throws: IDGeneratorError.endOfTime(format)) { try bulk(10) }
        var buffer = [UInt8](repeating: 0, count: 20 * 50)
        let held = buffer.withUnsafeMutableBytes { g.fill($0) }
        #expect(held > 0)
        let ids = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self).split(separator: "\n").compactMap {
            Self.number(format, String($0))
        }
        #expect(ids.count == held && (format == .tsid || ids.allSatisfy { $0 >> 63 == 0 }))  // TSID is unsigned
    }

    @Test func nodesAndEpochsOutsideTheLayoutAreRefused() {
        #expect(throws: IDGeneratorError.self) { try IDGenerator(.snowflake, node: 1024) }
        #expect(throws: IDGeneratorError.self) { try IDGenerator(.sonyflake, node: 1 << 16) }
        #expect(throws: IDGeneratorError.self) { try IDGenerator(.uuid4, node: 1) }
        #expect(throws: IDGeneratorError.self) { try IDGenerator(.xid, node: nil, epoch: 0) }
        #expect(throws: IDGeneratorError.self) { try IDGenerator(.tsid, node: nil, epoch: UInt64.max) }
        #expect((try? IDGenerator(.uuid1, node: (1 << 48) - 1)) != nil)
    }

    @Test func valuesAsBytesUUIDsAndIntegers() throws {
        let uuid = try IDGenerator(.uuid7).nextUUID()
        #expect(uuid.uuidString.lowercased().dropFirst(14).first == "7")
        #expect(try IDGenerator(.typeid, prefix: "user").nextBytes().count == 16)
        #expect(try IDGenerator(.ksuid).nextBytes().count == 20)
        let g = try IDGenerator(.discord, node: 1 << 5 | 2)
        g.fixClock(at: 1_462_015_105_796)
        let v = try g.nextUInt64()
        // Discord's docs: worker 1, process 0 at that millisecond gives 175928847299117063 (increment 7);
        // here worker 1, process 2, increment 0.
        #expect(v == 175_928_847_299_117_063 - 7 + (2 << 12))
        for format in [IDFormat.nanoid, .cuid2, .firebase] {
            #expect(throws: IDGeneratorError.noBinaryForm(format)) { try IDGenerator(format).nextBytes() }
        }
        #expect(throws: IDGeneratorError.noBinaryForm(.xid)) { try IDGenerator(.xid).nextUUID() }
        #expect(throws: IDGeneratorError.noBinaryForm(.uuid4)) { try IDGenerator(.uuid4).nextUInt64() }
        // fillBinary: whole ids, big-endian, the same layout the text has.
        let s = try IDGenerator(.snowflake, node: 9)
        var raw = [UInt8](repeating: 0, count: 8 * 10 + 5)
        #expect(try raw.withUnsafeMutableBytes { try s.fillBinary($0) } == 10)
        let first = raw[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(Self.fields(.snowflake, first, epoch: 1_288_834_974_657).node == 9)
    }

    /// A forked child draws its own node, never its parent's (a Snowflake's 10 bits included), or
    /// takes its own pid (xid): no id repeats. (RawForkTests fork every format by the raw system call.)
    @Test(arguments: [IDFormat.uuid1, .objectid, .xid, .snowflake, .tsid])
    func forkedChildrenMintOtherIds(format: IDFormat) throws {
        let (parent, child) = try FormatTests.idsAfterFork(length: format.length) {
            let generator = IDGenerator(format)
            generator.fixClock(at: 1_795_650_000_000)
            return generator
        }
        #expect(parent.isDisjoint(with: child))
    }

    /// Past the ceiling the ids run ahead of the clock; `waitForClock()` returns once the clock has
    /// caught up (and at once with nothing borrowed).
    @Test func theClockCatchesUp() throws {
        let g = try IDGenerator(.sonyflake, node: 1)
        #expect(g.clockLead == 0)
        g.waitForClock()
        // 50,000 ids are 196 ticks of 10 ms (256 ids a tick): they run 1.96 s ahead of the clock, less
        // the time minting them took (long on a loaded machine: the lead alone made this test flaky).
        let start = ContinuousClock.now
        _ = g.next(50_000)
        let took = ContinuousClock.now - start
        let tookMs = Int(took.components.seconds) * 1000 + Int(took.components.attoseconds / 1_000_000_000_000_000)
        #expect(g.clockLead > 0 && Int(g.clockLead) + tookMs >= 1930, "lead \(g.clockLead) ms after \(tookMs) ms")
        g.waitForClock()
        #expect(g.clockLead == 0)
        #expect(IDGenerator(.uuid7).clockLead == 0)
    }

    /// Threads share one node (one generator behind a lock), so their ids never collide.
    @Test(arguments: [IDFormat.snowflake, .xid, .uuid6])
    func sharedGeneratorsAreOneNode(format: IDFormat) throws {
        let shared = try SharedIDGenerator(format)
        let results = Mutex([[String]](repeating: [], count: 4))
        SharedGeneratorTests.together(4) { i in
            let ids = shared.next(20_000)
            results.withLock { $0[i] = ids }
        }
        let all = results.withLock { $0 }.flatMap { $0 }
        #expect(Set(all).count == 80_000)
    }
}
