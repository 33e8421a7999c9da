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
