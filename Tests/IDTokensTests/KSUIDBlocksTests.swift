import Foundation
import Testing

@testable import IDTokens

/// KSUIDs minted in bulk are drawn as text (`KSUIDBlocks`): a block of 62^20 values, then its low 20
/// characters, an id outside its stamp's range drawn again. These tests read the ids back with exact
/// arithmetic written here, independently of the generator's encoders: every id holds its stamp, and
/// the end blocks, which hold fewer values than the others, come up exactly as often as a uniform
/// 128-bit payload makes them.
@Suite struct KSUIDBlocksTests {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// The value of base62 text as 32-bit limbs, most significant first (six: room above 2^160).
    static func limbs(_ text: some Sequence<UInt8>) -> [UInt64] {
        var limbs = [UInt64](repeating: 0, count: 6)
        for c in text {
            var carry = UInt64(digits.firstIndex(of: c) ?? 99)
            for i in (0..<6).reversed() {
                let v = limbs[i] * 62 + carry
                limbs[i] = v & 0xFFFF_FFFF
                carry = v >> 32
            }
        }
        return limbs
    }

    /// Base62 text of a value given as 32-bit limbs, most significant first, `width` digits.
    static func text(_ value: [UInt64], width: Int) -> [UInt8] {
        var limbs = value
        var out = [UInt8](repeating: 0, count: width)
        for k in (0..<width).reversed() {
            var rem: UInt64 = 0
            for i in limbs.indices {
                let v = rem << 32 | limbs[i]
                limbs[i] = v / 62
                rem = v % 62
            }
            out[k] = digits[Int(rem)]
        }
        return out
    }

    /// A stamp's first and last values, T·2^128 and T·2^128 + 2^128 − 1, as 27 characters.
    static func ends(_ stamp: UInt32) -> (first: [UInt8], last: [UInt8]) {
        let t = UInt64(stamp)
        return (text([t, 0, 0, 0, 0], width: 27), text([t, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF], width: 27))
    }

    /// The number the first 7 characters spell.
    static func top(_ text: some Collection<UInt8>) -> UInt64 {
        text.prefix(7).reduce(0) { $0 * 62 + UInt64(digits.firstIndex(of: $1) ?? 0) }
    }

    /// The blocks of a stamp against exact arithmetic here and the spec's greatest KSUID.
    @Test(arguments: [0, 1, 2, 123_456_789, 395_978_284, 0x8000_0000, UInt32.max - 1, UInt32.max] as [UInt32])
    func blocksOfAStamp(stamp: UInt32) {
        let blocks = KSUIDBlocks(stamp: stamp)
        let (first, last) = Self.ends(stamp)
        let a = Self.top(first)
        let b = Self.top(last)
        #expect(blocks.count == UInt32(b - a + 1) && (484...485).contains(blocks.count))
        #expect(blocks.threshold == 65536 % blocks.count)
        for j in [0, 1, Int(blocks.count) / 2, Int(blocks.count) - 1] {
            let word = blocks.tops[j]
            let chars = (0..<7).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }
            #expect(Self.top(chars) == a + UInt64(j) && word >> 56 == 0)
        }
        first.withUnsafeBytes { #expect(KSUIDBlocks.key($0.baseAddress! + 7) == blocks.lowA) }
        last.withUnsafeBytes { #expect(KSUIDBlocks.key($0.baseAddress! + 7) == blocks.lowB) }
        if stamp == UInt32.max {
            // The greatest KSUID (2^160 − 1), as KSUID libraries print it.
            #expect(String(decoding: last, as: UTF8.self) == "aWgEPTl1tmebfsQzFP4bxwgy80V")
        }
        if stamp == 0 { #expect(String(decoding: first, as: UTF8.self) == String(repeating: "0", count: 27)) }
    }

    /// The key compares 20 characters as their text sorts.
    @Test func keysSortAsText() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let x = (0..<20).map { _ in Self.digits[Int.random(in: 0..<62, using: &rng)] }
            var y = x
            let at = Int.random(in: 0..<20, using: &rng)
            y[at] = Self.digits[Int.random(in: 0..<62, using: &rng)]
            let kx = x.withUnsafeBytes { KSUIDBlocks.key($0.baseAddress!) }
            let ky = y.withUnsafeBytes { KSUIDBlocks.key($0.baseAddress!) }
            #expect((kx < ky) == x.lexicographicallyPrecedes(y) && (kx == ky) == (x == y))
        }
    }

    static func fill(_ generator: IDGenerator, count: Int) -> [[UInt8]] {
        var buffer = [UInt8](repeating: 0, count: 28 * count)
        let n = buffer.withUnsafeMutableBytes { generator.fill($0) }
        return (0..<n).map { Array(buffer[(28 * $0)..<(28 * $0 + 27)]) }
    }

    /// Every id of a bulk fill holds its stamp, at the ends of the range too, and the end blocks come up
    /// as often as a uniform payload makes them: block a holds (a + 1)·62^20 − A of the stamp's 2^128
    /// values, block b holds B + 1 − b·62^20, every other 62^20. Counted over 300,000 ids for stamps
    /// whose end blocks are partly outside the range (drawing blocks without the range test would
    /// give each 1/count), each count within 6 standard deviations of its expectation (a false failure
    /// below 1e−8 per count, 4e−8 in all).
    @Test(arguments: [0, 395_978_284, UInt32.max] as [UInt32])
    func endBlocksAreAsOftenAsAUniformPayloadMakesThem(stamp: UInt32) {
        let generator = IDGenerator(.ksuid)
        let millis = (IDGenerator.ksuidEpoch + UInt64(stamp)) * 1000 + 500
        generator.testClock = { millis }
        let n = 300_000
        let ids = Self.fill(generator, count: n)
        #expect(ids.count == n)
        let (first, last) = Self.ends(stamp)
        let a = Self.top(first)
        let b = Self.top(last)
        var atA = 0
        var atB = 0
        var wrongStamp = 0
        for id in ids {
            let limbs = Self.limbs(id)
            if limbs[0] != 0 || limbs[1] != UInt64(stamp) { wrongStamp += 1 }
            let t = Self.top(id)
            if t == a { atA += 1 }
            if t == b { atB += 1 }
        }
        #expect(wrongStamp == 0)
        // The shares of the end blocks, from the low 20 characters' values (below 62^20 < 2^120),
        // in doubles: 2^128 and 62^20 are exact to 53 bits, far finer than the tolerance.
        let block = (0..<20).reduce(1.0) { r, _ in r * 62 }
        let space = 0x1p128
        func low(_ text: [UInt8]) -> Double { text.suffix(20).reduce(0.0) { $0 * 62 + Double(Self.digits.firstIndex(of: $1) ?? 0) } }
        let pA = (block - low(first)) / space
        let pB = (low(last) + 1) / space
        for (count, p) in [(atA, pA), (atB, pB)] {
            let mean = Double(n) * p
            let sd = (Double(n) * p * (1 - p)).squareRoot()
            #expect(abs(Double(count) - mean) <= 6 * sd + 1, "stamp \(stamp): \(count) ids, expected \(mean)")
        }
        // The stamps were picked so that the test can fail: each end's share is far from 1/count.
        let naive = Double(n) / Double(b - a + 1)
        #expect(abs(Double(n) * pA - naive) > 12 * naive.squareRoot() || abs(Double(n) * pB - naive) > 12 * naive.squareRoot())
    }
}
