import Foundation
import IDTokens
import Testing

@testable import IDAudit
@testable import IDBudget

/// The audit of node-id streams: ids built here from the published layouts (not by idbudget's
/// generators) are recognised by their fields, their nodes, busiest tick and clock regressions
/// counted; a repeat is a failure; random tokens of the same shapes are not taken for them; the
/// statistics survive a summary's JSON and a merge of shards. (`AuditNodeIDsCLITests` audits ids that
/// epyxid, bson and tsidpy mint.)
@Suite struct NodeAuditTests {
    /// Twitter Snowflakes: 41 bits of ms since 1288834974657, 10 worker, 12 sequence.
    static func snowflakes(workers: [UInt64], perTick: Int, ticks: Int, start: UInt64 = 1_795_650_000_000) -> [String] {
        var ids: [String] = []
        for t in 0..<UInt64(ticks) {
            for w in workers {
                for s in 0..<UInt64(perTick) { ids.append(String((start + t - 1_288_834_974_657) << 22 | w << 12 | s)) }
            }
        }
        return ids
    }

    @Test func snowflakesAreReadByTheirFields() throws {
        let ids = Self.snowflakes(workers: [3, 17, 900], perTick: 40, ticks: 50)
        let r = try Auditor().audit(ids)
        let n = try #require(r.nodes, "\(r.findings)")
        #expect(n.scheme == "snowflake" && n.fits.contains("snowflake"))
        #expect(n.distinct == 3 && n.maxPerTick == 40 && n.perTick == 4096 && n.regressions == 0)
        #expect(n.first == "2026-11-25T23:40:00.000Z" && n.last == "2026-11-25T23:40:00.049Z")
        #expect(r.passes && r.verdictCode == .consistent && r.format == "Snowflake")
    }

    /// Two live workers with one id: their ids repeat, and the audit fails; a clock set back shows
    /// as regressions.
    @Test func sharedWorkersAndClocksSetBack() throws {
        let one = Self.snowflakes(workers: [5], perTick: 10, ticks: 20)
        let r = try Auditor().audit(one + one.prefix(30))
        #expect(r.verdictCode == .tooMany && !r.passes && r.extraOccurrences == 30)
        #expect(r.nodes?.regressions == 1)  // the repeat begins earlier than the id before it
        #expect(r.verdict.contains("two live nodes share"))
        // Every id earlier than the one before: a log sorted newest first, and said to be.
        let back = try Auditor().audit(Array(one.reversed()), scheme: .snowflake)
        #expect(back.nodes?.regressions == one.count - 1 && back.passes)
        #expect(back.findings.contains { $0.contains("newest first") })
        // Shuffled: half the steps go back, and no layout reads them in order: still Snowflakes (their
        // times and nodes fit), said to be out of order.
        var rng = SeededRandom(seed: 3)
        let shuffled = try Auditor().audit(one.shuffled(using: &rng))
        #expect(shuffled.nodes?.scheme == "snowflake" && shuffled.passes, "\(shuffled.findings)")
        #expect(shuffled.findings.contains { $0.contains("not in time order") })
        // Random 63-bit numbers, in decimal: their times are anywhere in 69 years, not read as a layout.
        let random = (0..<2000).map { _ in String(UInt64.random(in: 1 << 60..<1 << 63, using: &rng)) }
        #expect(try Auditor().audit(random).nodes == nil)
    }

    /// Sonyflake: 39 bits of 10 ms since 2014-09-01, 8 sequence, 16 machine; `scheme` picks it when
    /// other layouts fit too.
    @Test func sonyflakesWithAScheme() throws {
        let start: UInt64 = (1_795_650_000_000 - 1_409_529_600_000) / 10
        let ids = (0..<UInt64(500)).map { String((start + $0 / 200) << 24 | ($0 % 200) << 16 | 4242) }
        let r = try Auditor().audit(ids, scheme: .sonyflake)
        #expect(r.nodes?.scheme == "sonyflake" && r.nodes?.distinct == 1 && r.nodes?.maxPerTick == 200 && r.nodes?.perTick == 256)
        let guess = try Auditor().audit(ids)
        #expect(guess.nodes?.scheme == "sonyflake", "\(guess.findings)")  // its latest id is nearest the clock
    }

    /// Random hex of ObjectId's length, random decimals of a Snowflake's: not node-id formats.
    @Test func randomTokensOfTheSameShapeAreNotNodeIDs() throws {
        var rng = SystemRandomNumberGenerator()
        let hex = (0..<2000).map { _ in String((0..<24).map { _ in "0123456789abcdef".randomElement(using: &rng)! }) }
        #expect(try Auditor().audit(hex).nodes == nil)
        let decimal = (0..<2000).map { _ in String(UInt64.random(in: 1_000_000_000_000_000_000...9_223_372_036_854_775_807, using: &rng)) }
        #expect(try Auditor().audit(decimal).nodes == nil)
        // 18 digits read as Instagram ids fall in its first years, but scatter over its shard ids
        // (the outside tester's case).
        for n in [1000, 5000] {
            let eighteen = (0..<n).map { _ in String(UInt64.random(in: 100_000_000_000_000_000..<1_000_000_000_000_000_000, using: &rng)) }
            #expect(try Auditor().audit(eighteen).nodes == nil, "\(n)")
        }
        // Random numbers as dense in their span as a full worker's shuffled ids (40,000 from 80,000
        // values: 20 workers' one tick, half full) repeat where the worker's never do: not read.
        let base: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000 - 1_288_834_974_657 - 3_600_000) << 22
        let dense = (0..<40_000).map { _ in String(base + UInt64.random(in: 0..<80_000, using: &rng)) }
        #expect(try Auditor().audit(dense).nodes == nil)
        // Ids of a node-id format mixed with others of their length past the strays (one line, or one
        // in a thousand) are not one format's; one stray line (a header) is set aside. Strays of other
        // lengths hold no Snowflake: their lengths are judged apart, the Snowflakes' as Snowflakes.
        let snowflakes = Self.snowflakes(workers: [1], perTick: 10, ticks: 10)
        let width = snowflakes[0].count
        let strays = ["not-a-snowflake", "nor-this"].map { String(($0 + String(repeating: "x", count: width)).prefix(width)) }
        #expect(try Auditor().audit(snowflakes + strays).nodes == nil)
        #expect(try Auditor().audit(["id"] + snowflakes).nodes?.scheme == "snowflake")
        #expect(try Auditor().audit(snowflakes + ["not-a-snowflake", "nor-this"]).nodes?.scheme == "snowflake")
    }

    /// The stray tolerance is the whole stream's, not the first block's: 1,100 UUIDs in front of 1.2
    /// million Snowflakes (more strays than a thousandth of the first MiB's lines, fewer than a
    /// thousandth of all) leave the Snowflakes read as such. 1,300 UUIDs in front of 100,000 are a
    /// group of their own (another length), the Snowflakes still read beside them; 1,300 random
    /// 19-digit numbers among them are past the tolerance of the Snowflakes' own group.
    @Test func straysAtTheFrontAreJudgedOnTheWholeStream() throws {
        let snowflakes = Self.snowflakes(workers: [3], perTick: 40, ticks: 30_000)
        var rng = SeededRandom(seed: 7)
        let uuids = (0..<1300).map { _ in String(format: "%016llx%016llx", rng.next(), rng.next()) }
        let within = try Auditor().audit(Array(uuids.prefix(1100)) + snowflakes)
        #expect(within.nodes?.scheme == "snowflake" && within.passes, "\(within.format): \(within.findings)")
        let beside = try Auditor().audit(uuids + snowflakes.prefix(100_000))
        #expect(beside.nodes?.scheme == "snowflake" && beside.passes && beside.groups?.count == 2, "\(beside.format): \(beside.findings)")
        let numbers = (0..<1300).map { _ in String(1_000_000_000_000_000_000 + rng.next() % 8_000_000_000_000_000_000) }
        let past = try Auditor().audit(numbers + snowflakes.prefix(100_000))
        #expect(past.nodes == nil && !past.passes, "\(past.format)")
    }

    /// Shards by fingerprint, each summary through its JSON, merged: the nodes and times of the whole.
    @Test func shardsMergeThroughJSON() throws {
        let ids = Self.snowflakes(workers: [1, 2, 3, 4], perTick: 25, ticks: 40)
        let whole = try Auditor().audit(ids)
        var merged: AuditSummary?
        for k in 0..<3 {
            let auditor = try Auditor(shard: (k, 3))
            let text = ids.joined(separator: "\n") + "\n"
            try text.utf8CString.withUnsafeBytes { try auditor.consume(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
            let summary = try auditor.finish()
            let again = try AuditSummary(jsonText: Data(try summary.jsonText().utf8))
            #expect(again.nodeFormats == summary.nodeFormats)
            merged = try merged.map { try $0.merged(with: again) } ?? again
        }
        let r = try AuditReport(summary: try #require(merged))
        #expect(r.nodes?.distinct == whole.nodes?.distinct && r.nodes?.first == whole.nodes?.first && r.nodes?.last == whole.nodes?.last)
        #expect(r.nodes?.maxPerTick == 25 && r.passes)
    }

    @Test func corruptNodeStatisticsAreRefused() throws {
        let ids = Self.snowflakes(workers: [1], perTick: 5, ticks: 5)
        let auditor = try Auditor()
        let text = ids.joined(separator: "\n") + "\n"
        try text.utf8CString.withUnsafeBytes { try auditor.consume(UnsafeRawBufferPointer(rebasing: $0.dropLast())) }
        let good = try auditor.finish().jsonText()
        #expect(good.contains("\"node_formats\""))
        for (from, to) in [
            ("\"ids\" : \"25\",\n      \"last_ms\"", "\"ids\" : \"26\",\n      \"last_ms\""),  // more ids than the stream
            ("\"nodes\" : [", "\"nodes\" : [\n        \"1\","),  // a node twice
            ("\"regressions\" : \"0\"", "\"regressions\" : \"-1\""),
            ("\"regressions\" : \"0\"", "\"regressions\" : \"25\""),
        ] {
            let bad = good.replacingOccurrences(of: from, with: to)
            #expect(bad != good, "\(from)")
            #expect(throws: InputError.self, "\(to)") { try AuditSummary(jsonText: Data(bad.utf8)) }
        }
    }
}
