import Foundation
import IDTokens
import Testing

/// "Generators of one format in one process never mint a common id" (docs/formats.md), through the
/// public API only: many xid, ObjectId and Snowflake-family generators at once, in turns and from
/// threads, with drawn and with assigned nodes. Before the process kept one identity, 200 xid
/// generators in turns shared 24,598–43,134 ids and 10,000 pairs of Snowflake generators 200.
@Suite struct ProcessIdentityTests {
    /// The ids `fill` writes into room for `count` of the longest (decimal ids may be shorter, and
    /// more of them fit).
    static func bulk(_ g: IDGenerator, _ count: Int) -> [String] {
        var buffer = [UInt8](repeating: 0, count: (g.length + 1) * count)
        let n = buffer.withUnsafeMutableBytes { g.fill($0) }
        let ids = String(decoding: buffer, as: UTF8.self).split(separator: "\n").prefix(n).map(String.init)
        #expect(ids.count == n && n >= count)
        return ids
    }

    /// 200 generators minting in turns, one id each a turn, and in bulk.
    @Test(arguments: [IDFormat.xid, .objectid, .snowflake, .discord, .instagram, .sonyflake, .tsid])
    func manyGeneratorsInTurns(format: IDFormat) {
        let generators = (0..<200).map { _ in IDGenerator(format) }
        var seen = Set<String>()
        var total = 0
        for _ in 0..<100 {
            for g in generators {
                seen.insert(g.next())
                total += 1
            }
        }
        for g in generators.prefix(20) {
            let ids = Self.bulk(g, 1000)
            seen.formUnion(ids)
            total += ids.count
        }
        #expect(seen.count == total, "\(total - seen.count) shared ids")
    }

    /// A million ids from one generator, then a million from another, in bulk.
    @Test(arguments: [IDFormat.xid, .objectid])
    func oneGeneratorThenAnother(format: IDFormat) {
        let a = Set(Self.bulk(IDGenerator(format), 1_000_000))
        let b = Self.bulk(IDGenerator(format), 1_000_000)
        #expect(a.count == 1_000_000 && b.filter { a.contains($0) }.isEmpty)
    }

    /// 10,000 pairs of generators, 20 ids each: every id of every pair is new.
    @Test(arguments: [IDFormat.snowflake, .discord, .instagram, .tsid])
    func tenThousandPairs(format: IDFormat) {
        var seen = Set<String>()
        var total = 0
        for _ in 0..<10_000 {
            let (a, b) = (IDGenerator(format), IDGenerator(format))
            for _ in 0..<10 {
                seen.insert(a.next())
                seen.insert(b.next())
            }
            total += 20
        }
        #expect(seen.count == total, "\(total - seen.count) shared ids")
    }

    /// Two generators given the same node, and the same node with a moved epoch: one identity.
    @Test func anAssignedNodeIsOneIdentity() throws {
        let a = try IDGenerator(.snowflake, node: 7)
        let b = try IDGenerator(.snowflake, node: 7)
        var ids = Set<String>()
        for _ in 0..<5_000 {
            ids.insert(a.next())
            ids.insert(b.next())
        }
        let more = Self.bulk(a, 10_000) + Self.bulk(b, 10_000)
        ids.formUnion(more)
        #expect(ids.count == 10_000 + more.count)
    }

    /// Eight threads, more than the cores, half through one `SharedIDGenerator`, half through
    /// generators of their own: no id twice.
    @Test(arguments: [IDFormat.snowflake, .xid, .tsid])
    func threads(format: IDFormat) throws {
        let shared = try SharedIDGenerator(format)
        let perThread = 20_000
        let results = Results(count: 8)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            var ids: [String] = []
            ids.reserveCapacity(perThread)
            if t % 2 == 0 {
                for _ in 0..<perThread { ids.append(shared.next()) }
            } else {
                let own = IDGenerator(format)
                for _ in 0..<perThread / 2 { ids.append(own.next()) }
                ids += Self.bulk(own, perThread / 2).prefix(perThread / 2)
            }
            results.put(t, ids)
        }
        let all = results.all
        #expect(all.count == 8 * perThread && Set(all).count == all.count, "\(all.count - Set(all).count) shared ids")
    }

    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var lists: [[String]]
        init(count: Int) { lists = Array(repeating: [], count: count) }
        func put(_ i: Int, _ ids: [String]) {
            lock.lock()
            lists[i] = ids
            lock.unlock()
        }
        var all: [String] { lists.flatMap { $0 } }
    }
}
