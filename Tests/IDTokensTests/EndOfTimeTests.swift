import Testing

@testable import IDTokens

/// At the last timestamp a format can hold, ids never wrap to timestamp 0: `nextChecked` and
/// `fillChecked` throw, and `next()` holds at the end (never backwards, never a trap). The clock is
/// injected; the real one gets there in the year 10889.
@Suite struct EndOfTimeTests {
    static let end = IDGenerator.lastMillisecond
    static func stamp(_ format: IDFormat, _ id: String) -> UInt64 { FormatTests.number(FormatTests.bits(format, id)[0..<48]) }
    static func field(_ bits: Int) -> UInt128 { (UInt128(1) << UInt128(bits)) - 1 }

    /// The greatest id of each time-ordered format: last millisecond, random field all ones.
    static let greatest: [IDFormat: String] = [
        .uuid7: "ffffffff-ffff-7fff-bfff-ffffffffffff", .ulid: "7" + String(repeating: "Z", count: 25),
    ]

    /// The case: the last millisecond's random field overflows. Before the fix the next id had
    /// timestamp 0 and sorted before every earlier one.
    @Test(arguments: [(IDFormat.uuid7, 74), (.ulid, 80)])
    func overflowInTheLastMillisecondNeverWraps(format: IDFormat, bits: Int) throws {
        let generator = IDGenerator(format, monotonic: true)
        generator.testClock = { Self.end }
        generator.setLast(millis: Self.end, random: Self.field(bits) - 1)
        // ulid steps by 1, so one id is left (the greatest); uuid7's random step overflows at once.
        if format == .ulid { #expect(try generator.nextChecked() == Self.greatest[format]) }
        #expect(throws: IDGeneratorError.endOfTime(format)) { try generator.nextChecked() }
        #expect(throws: IDGeneratorError.endOfTime(format)) { try generator.nextChecked() }
        // next() does not throw, trap or wrap: it stays at the greatest id.
        let after = generator.next()
        #expect(Self.stamp(format, after) == Self.end)
        #expect(after == Self.greatest[format])
        #expect(generator.next() == after)
    }

    /// Short of the end, the last millisecond is usable: ids there are checked, ordered and distinct.
    @Test(arguments: [IDFormat.uuid7, .ulid])
    func theLastMillisecondIsUsable(format: IDFormat) throws {
        let generator = IDGenerator(format, monotonic: true)
        generator.testClock = { Self.end }
        let ids = try (0..<1000).map { _ in try generator.nextChecked() }
        #expect(ids.allSatisfy { Self.stamp(format, $0) == Self.end })
        #expect(ids == ids.sorted() && Set(ids).count == ids.count)
    }

    /// A clock past the end: checked calls throw, monotonic or not; next() stamps the last millisecond.
    @Test(arguments: [IDFormat.uuid7, .ulid], [true, false])
    func aClockPastTheEnd(format: IDFormat, monotonic: Bool) throws {
        let generator = IDGenerator(format, monotonic: monotonic)
        var now = Self.end - 1
        generator.testClock = { now }
        let first = try generator.nextChecked()
        now = Self.end + 1
        #expect(throws: IDGeneratorError.endOfTime(format)) { try generator.nextChecked() }
        let held = generator.next()
        #expect(Self.stamp(format, held) == Self.end)
        if monotonic { #expect(held > first) }
        now = UInt64.max
        #expect(Self.stamp(format, generator.next()) == Self.end)
    }

    /// fillChecked writes the ids there are before the end, then throws; the ids written are whole,
    /// ordered and in the last millisecond.
    @Test func fillCheckedStopsAtTheEnd() throws {
        let generator = IDGenerator(.ulid, monotonic: true)  // step 1: exactly 3 ids are left
        generator.testClock = { Self.end }
        generator.setLast(millis: Self.end, random: Self.field(80) - 3)
        var buffer = [UInt8](repeating: 0, count: 27 * 10)
        let written = try buffer.withUnsafeMutableBytes { try generator.fillChecked($0) }
        #expect(written == 3)
        let ids = String(decoding: buffer.prefix(27 * written), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(ids.count == 3 && ids == ids.sorted() && ids.allSatisfy { Self.stamp(.ulid, $0) == Self.end })
        #expect(ids.last == Self.greatest[.ulid])
        #expect(throws: IDGeneratorError.endOfTime(.ulid)) {
            try buffer.withUnsafeMutableBytes { try generator.fillChecked($0) }
        }
    }

    /// KSUID's 32-bit seconds: outside its range checked calls throw and next() holds at the nearest end.
    @Test func ksuidOutsideItsRange() throws {
        let generator = IDGenerator(.ksuid)
        var now = (IDGenerator.ksuidEpoch + UInt64(UInt32.max)) * 1000
        generator.testClock = { now }
        let last = try generator.nextChecked()
        #expect(FormatTests.number(FormatTests.bits(.ksuid, last)[0..<32]) == UInt64(UInt32.max))
        now += 1000
        #expect(throws: IDGeneratorError.endOfTime(.ksuid)) { try generator.nextChecked() }
        #expect(FormatTests.number(FormatTests.bits(.ksuid, generator.next())[0..<32]) == UInt64(UInt32.max))
        now = 0
        #expect(throws: IDGeneratorError.endOfTime(.ksuid)) { try generator.nextChecked() }
        #expect(FormatTests.number(FormatTests.bits(.ksuid, generator.next())[0..<32]) == 0)
    }

    /// At realistic times the checked calls are the plain ones, shared generators included.
    @Test func checkedCallsAtRealisticTimes() throws {
        for format in IDFormat.allCases {
            let shared = try SharedIDGenerator(format)
            let id = try shared.nextChecked()
            #expect(format.isDecimal ? id.utf8.count >= 17 : id.utf8.count == format.length, "\(format): \(id)")
            var buffer = [UInt8](repeating: 0, count: (format.length + 1) * 50)
            #expect(try buffer.withUnsafeMutableBytes { try shared.fillChecked($0) } >= 50)
        }
    }
}

/// The bulk path (`fill`, `fillChecked`) of monotonic uuid7 and TypeID keeps the last id in registers
/// and steps by a chunk's pre-drawn random steps: it must mint what `next()` would — ordered across an
/// overflow of the 74-bit field, a clock that goes back, and the end of time.
@Suite struct BulkTimedTests {
    static func ids(_ generator: IDGenerator, count: Int, checked: Bool = false) throws -> [String] {
        var buffer = [UInt8](repeating: 0, count: (generator.length + 1) * count)
        let n = try buffer.withUnsafeMutableBytes { checked ? try generator.fillChecked($0) : generator.fill($0) }
        return String(decoding: buffer.prefix((generator.length + 1) * n), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func stamp(_ format: IDFormat, _ id: String) -> UInt64 {
        FormatTests.number(FormatTests.bits(format, String(id.split(separator: "_").last ?? ""))[0..<48])
    }

    @Test(arguments: [IDFormat.uuid7, .typeid])
    func orderedAcrossOverflowAndAClockGoingBack(format: IDFormat) throws {
        let generator = IDGenerator(format, monotonic: true)
        var t: UInt64 = 1_800_000_000_000
        generator.testClock = { t }
        // 2^33 below the top: a few 31-bit steps overflow the field, and the timestamp moves on by 1 ms.
        generator.setLast(millis: t, random: (UInt128(1) << 74) - (UInt128(1) << 33))
        var all = try Self.ids(generator, count: 1000)
        #expect(all.count == 1000)
        #expect(Set(all.map { Self.stamp(format, $0) }) == [t, t + 1])
        t -= 5000  // the clock goes back 5 s: ids stay in the last id's millisecond and after
        all += try Self.ids(generator, count: 1000)
        t += 10_000
        all += try Self.ids(generator, count: 600)
        #expect(all == all.sorted())
        #expect(Set(all).count == all.count)
        #expect(Self.stamp(format, all.last ?? "") == t)
        // fill and next share the state: the next id follows the bulk ones.
        let next = generator.next()
        #expect(next > (all.last ?? ""))
    }

    @Test(arguments: [IDFormat.uuid7, .typeid])
    func theEndOfTimeInBulk(format: IDFormat) throws {
        let end = IDGenerator.lastMillisecond
        let generator = IDGenerator(format, monotonic: true)
        generator.testClock = { end }
        generator.setLast(millis: end, random: (UInt128(1) << 74) - 1)
        #expect(throws: IDGeneratorError.endOfTime(format)) { try Self.ids(generator, count: 10, checked: true) }
        // Unchecked, every id is the greatest: never a wrap to timestamp 0.
        let held = try Self.ids(generator, count: 300)
        #expect(held.count == 300)
        #expect(Set(held).count == 1)
        #expect(held.allSatisfy { Self.stamp(format, $0) == end })
        // Some room left: fillChecked writes the ids before the end, ordered, then stops.
        let room = IDGenerator(format, monotonic: true)
        room.testClock = { end }
        room.setLast(millis: end, random: (UInt128(1) << 74) - (UInt128(1) << 36))
        let some = try Self.ids(room, count: 1000, checked: true)
        #expect(some.count > 16 && some.count < 1000, "\(some.count)")
        // A later call may still find a step small enough to fit (the steps are random); whatever it
        // mints follows, in the last millisecond.
        let more = (try? Self.ids(room, count: 10, checked: true)) ?? []
        let all = some + more
        #expect(all == all.sorted() && Set(all).count == all.count)
        #expect(all.allSatisfy { Self.stamp(format, $0) == end })
    }

    /// TypeIDs in bulk carry the prefix and lower-case Crockford (what the spec's decoder reads).
    @Test func typeIDsInBulk() throws {
        let generator = try IDGenerator(.typeid, prefix: "user")
        let ids = try Self.ids(generator, count: 700)
        #expect(ids.count == 700)
        for id in ids {
            #expect(id.hasPrefix("user_") && id.utf8.count == 31, "\(id)")
            #expect(id.dropFirst(5).allSatisfy { "0123456789abcdefghjkmnpqrstvwxyz".contains($0) }, "\(id)")
        }
        #expect(ids == ids.sorted())
    }
}
