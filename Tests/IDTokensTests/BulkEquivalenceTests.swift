import Testing

@testable import IDTokens

/// The bulk paths of `fill` keep the last id's tick, sequence and counter in registers; they must mint
/// exactly the ids the single-id path (`alone()`, what `next()` did before it minted ahead) mints from
/// the same state. Each case copies one generator's state into a
/// second, then mints with `fill` from the first and `next()` from the second under the same fixed
/// clock — across chunks of 256, a clock that goes back and forward, a full tick, the end of time.
@Suite struct BulkEquivalenceTests {
    static func generator(_ format: IDFormat) throws -> IDGenerator {
        switch format {
        case .ulid: IDGenerator(.ulid, monotonic: true)
        case .firebase: IDGenerator(.firebase)
        default: try IDGenerator(format, node: format == .xid ? 0x12_3456_789A : 0x0A0B_0C0D_0E)
        }
    }

    /// `count` ids from `fill` (unchecked) or `write(into:)` (checked), split into lines.
    static func bulk(_ g: IDGenerator, _ count: Int, checked: Bool = false) throws -> [String] {
        var buffer = [UInt8](repeating: 0, count: (g.length + 1) * count)
        let bytes =
            checked
            ? try buffer.withUnsafeMutableBytes { try g.write(into: $0, limit: count) }.bytes
            : buffer.withUnsafeMutableBytes { g.fill($0) } * (g.length + 1)
        return buffer[..<bytes].split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Two generators of `format` in the same state at clock `t`, after one id and `prepare`.
    static func twins(_ format: IDFormat, at t: UInt64, prepare: (IDGenerator) -> Void = { _ in }) throws -> (IDGenerator, IDGenerator) {
        let a = try generator(format)
        let b = try generator(format)
        a.fixClock(at: t)
        b.fixClock(at: t)
        _ = a.next()
        prepare(a)
        for i in 0..<8 { b.state[i] = a.state[i] }
        b.nodeSlot = a.nodeSlot?.duplicate()
        return (a, b)
    }

    /// Nil when the two lists are equal, else where they first differ (short enough to read).
    static func difference(_ a: [String], _ b: [String]) -> String? {
        guard a != b else { return nil }
        let i = Array(zip(a, b)).firstIndex { $0 != $1 } ?? Swift.min(a.count, b.count)
        return "\(a.count) vs \(b.count) ids; first difference at \(i): \(i < a.count ? a[i] : "-") vs \(i < b.count ? b[i] : "-")"
    }

    static let formats: [IDFormat] = [.uuid1, .uuid6, .xid, .objectid, .firebase, .ulid]

    @Test(arguments: formats)
    func bulkMintsWhatNextMints(format: IDFormat) throws {
        var t: UInt64 = 1_795_650_000_123
        let (a, b) = try Self.twins(format, at: t)
        for step in [0, -5_000, 0, 2_000, 1] {
            t = UInt64(Int64(t) + Int64(step))
            a.fixClock(at: t)
            b.fixClock(at: t)
            let bulk = try Self.bulk(a, 700)
            #expect(Self.difference(bulk, (0..<700).map { _ in b.alone().description }) == nil, "clock \(t)")
            #expect(Set(bulk).count == 700)
        }
    }

    /// xid and ObjectId: a second's 2^24 sequence used up inside a chunk moves on to the next second.
    @Test(arguments: [IDFormat.xid, .objectid])
    func aFullSecondInBulk(format: IDFormat) throws {
        let (a, b) = try Self.twins(format, at: 1_795_650_000_123) {
            // The sequence: 4 ids left in this second; the counter far from its wrap.
            if let slot = $0.nodeSlot { slot.setLast(tick: slot.nextTick - 1, sequence: (1 << 24) - 5, counterStart: 0) }
        }
        let bulk = try Self.bulk(a, 300)
        #expect(Self.difference(bulk, (0..<300).map { _ in b.alone().description }) == nil)
        #expect(Self.difference(bulk, bulk.sorted()) == nil && Set(bulk).count == 300)
    }

    /// UUIDv1 and v6 at their last 100 ns tick (in 5236): checked, the bulk stops where `nextChecked()`
    /// does; unchecked, both hold the last tick.
    @Test(arguments: [IDFormat.uuid1, .uuid6])
    func theLastTickInBulk(format: IDFormat) throws {
        let lastTicks: UInt64 = (1 << 60) - 1
        let millis = (lastTicks - IDGenerator.gregorianOffset) / 10_000  // its ticks reach the last one
        let room = Int(lastTicks - (millis * 10_000 + IDGenerator.gregorianOffset)) + 1
        var (a, b) = try Self.twins(format, at: millis)
        let checked = try Self.bulk(a, room + 500, checked: true)
        var one: [String] = []
        while let id = try? b.nextChecked() { one.append(id) }
        #expect(Self.difference(checked, one) == nil)
        #expect(checked.count == room - 1)  // twins() used the first tick
        (a, b) = try Self.twins(format, at: millis)
        #expect(Self.difference(try Self.bulk(a, room + 500), (0..<(room + 500)).map { _ in b.alone().description }) == nil)
    }

    /// Firebase and monotonic ULID across an overflow of the random field: ordered and unique (the
    /// id after the overflow draws fresh bits, so the twins part there).
    @Test(arguments: [IDFormat.firebase, .ulid])
    func acrossAnOverflowInBulk(format: IDFormat) throws {
        let bits = format == .firebase ? 72 : 80
        let top = (UInt128(1) << UInt128(bits)) - 3
        let (a, _) = try Self.twins(format, at: 1_795_650_000_123) { $0.setLast(millis: 1_795_650_000_123, random: top) }
        let bulk = try Self.bulk(a, 600)
        #expect(bulk.count == 600 && Set(bulk).count == 600)
        #expect(Self.difference(bulk, bulk.sorted()) == nil)
    }
}
