import Foundation
import Synchronization
import Testing

@testable import IDTokens

/// `next()` mints ahead: the current time bucket's ids in a batch, by `fill`'s bulk path, handed out
/// one by one. These hold what that must not change: the ids are the ones `fill` mints, unique,
/// in order where the format orders them (also when `next()`, `fill`, `nextChecked()` and the binary
/// forms take turns), stamped with the clock's time when handed out, and erased as they go.
@Suite struct MintingAheadTests {
    /// Formats whose ids, as text, sort in minting order within one generator (the decimal Snowflake
    /// family compares as numbers).
    static let ordered: [IDFormat] = [.uuid7, .ulid, .typeid, .firebase, .uuid6, .tsid, .snowflake, .discord, .instagram, .sonyflake]

    static func generator(_ format: IDFormat) -> IDGenerator {
        IDGenerator(format, monotonic: format.hasMonotonicMode ? true : nil)
    }

    static func precedes(_ a: String, _ b: String, _ format: IDFormat) -> Bool {
        format.isDecimal ? (UInt64(a) ?? 0) < (UInt64(b) ?? 0) : a < b
    }

    /// With the clock held, `next()` hands out the very ids `fill` mints from the same state (the
    /// monotonic formats mint no fresh random bits within a bucket; the node-id formats mint each id
    /// alone, by the path `fill` is checked against).
    @Test(arguments: [IDFormat.uuid1, .uuid6, .xid, .objectid, .firebase, .ulid])
    func nextHandsOutWhatFillMints(format: IDFormat) throws {
        let (a, b) = try BulkEquivalenceTests.twins(format, at: 1_795_650_000_123)
        let bulk = try BulkEquivalenceTests.bulk(a, 700)
        let handed = (0..<700).map { _ in b.next() as String }
        #expect(BulkEquivalenceTests.difference(bulk, handed) == nil)
    }

    /// Every way of minting, taking turns on one generator with the real clock: all ids distinct, and
    /// in order for the formats that order them.
    @Test(arguments: IDFormat.allCases)
    func everyWayTakingTurns(format: IDFormat) throws {
        let g = Self.generator(format)
        var ids: [String] = []
        var buffer = [UInt8](repeating: 0, count: 10 * (g.length + 1))
        for round in 0..<300 {
            for _ in 0..<(round % 7) { ids.append(g.next()) }
            let inline: GeneratedID = g.next()
            ids.append(inline.description)
            switch round % 4 {
            case 0:
                let written = try buffer.withUnsafeMutableBytes { try g.write(into: $0, limit: 3) }
                ids += buffer[..<written.bytes].split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
            case 1:
                ids.append(try g.nextChecked())
            case 2:
                if format.binaryLength != nil { _ = try g.nextBytes() } else { ids.append(g.next()) }
            default:
                if round % 50 == 3 { usleep(1_100) }  // across a millisecond
            }
        }
        #expect(Set(ids).count == ids.count)
        if Self.ordered.contains(format) {
            let firstOutOfOrder = zip(ids, ids.dropFirst()).first { !Self.precedes($0, $1, format) }
            #expect(firstOutOfOrder == nil, "\(ids.count) ids")
        }
    }

    /// An id minted ahead is not handed out once its bucket is over: the clock moved on, so the next id
    /// carries the new time (uuid7: its first 48 bits), and the old bucket's leftovers are erased.
    @Test func aNewBucketGetsTheNewTime() throws {
        let g = IDGenerator(.uuid7)
        var t: UInt64 = 1_795_650_000_000
        g.testClock = { t }
        for _ in 0..<100 { _ = g.next() as GeneratedID }  // batches of 2, 4, …, 64 now pending
        #expect(g.state[5] < g.state[6])
        t += 5
        let id: String = g.next()
        let millis = UInt64(id.filter { $0 != "-" }.prefix(12), radix: 16)
        #expect(millis == t)
        let leftovers = UnsafeBufferPointer(start: g.batch, count: g.batchCapacity * (g.length + 1))
        #expect(leftovers.allSatisfy { $0 == 0 })
    }

    /// A handed-out id is erased where it was minted: nothing of the last 200 ids remains in the
    /// generator's state region, though more are pending there.
    @Test(arguments: [IDFormat.uuid4, .ksuid, .nanoid, .cuid2, .typeid])
    func handedOutIdsAreErased(format: IDFormat) throws {
        let g = format == .typeid ? try IDGenerator(.typeid, prefix: "order") : IDGenerator(format)
        // A held clock: one bucket throughout, so ids are pending after these 1,200 (batches of 1, 2,
        // …, 128, then 256) whenever the real clock would have ticked.
        g.fixClock(at: 1_795_650_000_000)
        for _ in 0..<1_000 { _ = g.next() as GeneratedID }
        let handed = (0..<200).map { _ in g.next() as String }
        #expect(g.state[5] < g.state[6])
        let region = Data(bytes: g.region.body, count: 64 + g.batchCapacity * (g.length + 1))
        let found = handed.filter { region.range(of: Data($0.utf8)) != nil }
        #expect(found.isEmpty, "\(found.count) of 200 still in memory")
        // The control: ids pending in the batch are found there.
        let pending = String(decoding: UnsafeBufferPointer(start: g.batch + Int(g.state[5]), count: g.length), as: UTF8.self)
        #expect(region.range(of: Data(pending.utf8)) != nil)
    }

    /// The generator's millisecond is the real-time clock's at the call: between two readings of
    /// the clock taken around it, over 50 ms of calls (the CPU counter stands in between reads, once
    /// its rate has been measured, 5 ms into the process).
    @Test func theClockIsTheRealTimeClock() {
        let g = IDGenerator(.uuid7)
        let start = IDGenerator.unixMilliseconds()
        var calls = 0
        var wrong: [(UInt64, UInt64, UInt64)] = []
        while IDGenerator.unixMilliseconds() < start + 50 {
            let before = IDGenerator.unixMilliseconds()
            let now = g.clock()
            let after = IDGenerator.unixMilliseconds()
            if now < before || now > after { wrong.append((before, now, after)) }
            calls += 1
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(calls) outside the clock: \(wrong.prefix(3))")
    }
}

extension MintingAheadTests {
    /// A node-id format's tick holds a fixed number of ids (a Sonyflake's 256 in 10 ms): `next()` at
    /// 20 a millisecond, under that ceiling, never runs ahead of the clock by more than one tick, as
    /// minting ahead and erasing the leftovers each millisecond would (found by an outside test).
    @Test(arguments: [IDFormat.sonyflake, .snowflake, .tsid, .uuid1])
    func nodeIdsKeepToTheClock(format: IDFormat) throws {
        let g = try IDGenerator(format, node: 1)
        var t: UInt64 = 1_795_650_000_000
        g.testClock = { t }
        for _ in 0..<500 {
            for _ in 0..<20 { _ = g.next() as GeneratedID }
            t += 1
        }
        #expect(g.clockLead <= (format == .sonyflake ? 10 : 2), "\(g.clockLead) ms ahead")
    }

    /// The shared form, from four threads at once, as `GeneratedID`s and as Strings: each thread's ids
    /// in order, none twice (uuid7: per-thread generators; snowflake: one node behind a lock).
    @Test(arguments: [IDFormat.uuid7, .snowflake])
    func sharedFromManyThreads(format: IDFormat) throws {
        let shared = try SharedIDGenerator(format)
        let results = Mutex([[String]](repeating: [], count: 4))
        SharedGeneratorTests.together(4) { i in
            var ids: [String] = []
            for k in 0..<20_000 {
                if k % 2 == 0 {
                    let id: GeneratedID = shared.next()
                    ids.append(id.description)
                } else {
                    ids.append(shared.next())
                }
            }
            results.withLock { $0[i] = ids }
        }
        let perThread = results.withLock { $0 }
        #expect(perThread.allSatisfy { ids in zip(ids, ids.dropFirst()).allSatisfy { Self.precedes($0, $1, format) } })
        #expect(Set(perThread.flatMap { $0 }).count == 80_000)
    }
}

@Suite struct GeneratedIDTests {
    @Test func behavesAsItsText() throws {
        let g = IDGenerator(.uuid7)
        let ids: [GeneratedID] = (0..<500).map { _ in g.next() }
        let texts = ids.map(\.description)
        #expect(ids.map(\.count) == texts.map(\.utf8.count))
        #expect(ids.map { $0.withUTF8 { String(decoding: $0, as: UTF8.self) } } == texts)
        #expect(Set(ids).count == 500 && Set(texts).count == 500)
        for (a, b) in zip(ids, ids.shuffled()) {
            #expect((a < b) == (a.description < b.description))
            #expect((a == b) == (a.description == b.description))
        }
        #expect(GeneratedID(texts[0]) == ids[0])
        #expect("\(ids[0])" == texts[0])
        let json = try JSONEncoder().encode(ids)
        #expect(try JSONDecoder().decode([String].self, from: json) == texts)
        #expect(try JSONDecoder().decode([GeneratedID].self, from: json) == ids)
    }

    @Test func holdsUpToItsCapacity() throws {
        let longest = String(repeating: "a", count: 63)
        let typeid = try IDGenerator(.typeid, prefix: longest)
        let id: GeneratedID = typeid.next()
        #expect(id.count == 90 && id.description.hasPrefix(longest + "_"))
        #expect(GeneratedID(String(repeating: "x", count: GeneratedID.capacity))?.count == GeneratedID.capacity)
        #expect(GeneratedID(String(repeating: "x", count: GeneratedID.capacity + 1)) == nil)
        #expect(GeneratedID("")?.count == 0)
        #expect(GeneratedID("é") == nil && GeneratedID("e\u{301}") == nil)  // equal as Strings, not as bytes
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(GeneratedID.self, from: Data("\"\u{e9}\"".utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(GeneratedID.self, from: Data("\"\(String(repeating: "x", count: 97))\"".utf8))
        }
    }
}
