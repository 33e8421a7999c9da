import Foundation
import IDBudget
import IDTokens
import Precise
import Testing

@Suite struct AuditTests {
    static func audit(_ text: [UInt8], chunk: Int = 1 << 16, maxLineBytes: Int = 4096) -> Auditor {
        let auditor = Auditor(maxLineBytes: maxLineBytes)
        text.withUnsafeBytes { all in
            var i = 0
            while i < all.count {
                let n = Swift.min(chunk, all.count - i)
                auditor.consume(UnsafeRawBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
        auditor.finish()
        return auditor
    }

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
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        for chunk in [1 << 16, 7] {  // lines split across chunk boundaries must not matter
            let a = Self.audit(text, chunk: chunk)
            #expect(a.ids == 50_025)
            #expect(a.distinct == 50_000)
            #expect(a.duplicateIDs == 20)
            #expect(a.extraOccurrences == 25)
            #expect(a.lengths == [12: 50_025])
            let r = a.report()
            #expect(r.alphabet == "base62")
            #expect(r.space == BigInt.power(62, 12))
            #expect(r.suspicious)  // 25 extra where ~6·10⁻¹¹ are expected
        }
    }

    @Test func uniformIdsAreNotFlagged() throws {
        let generator = try TokenGenerator(alphabet: .hex, length: 6)
        let text = Array((generator.next(300_000).joined(separator: "\n")).utf8)
        let r = Self.audit(text).report()
        #expect(r.space == BigInt.power(16, 6))
        #expect(abs(r.z) < 5, "z = \(r.z)")
        #expect(abs(r.effectiveBits - 24) < 1, "\(r.effectiveBits)")
    }

    /// Symbols from 7-bit values mod 62 favour four symbols by half: about 5.7% more duplicates.
    @Test func flagsABiasedGenerator() {
        var rng = SeededRandom(seed: 3)
        let symbols = Alphabet.base62.bytes!
        var text: [UInt8] = []
        text.reserveCapacity(5 * 1_000_000)
        for _ in 0..<1_000_000 {
            var w = rng.next()
            for _ in 0..<4 { text.append(symbols[Int(w & 0x7f) % 62]); w >>= 8 }
            text.append(10)
        }
        let r = Self.audit(text).report()
        #expect(r.space == BigInt.power(62, 4))
        #expect(r.z > 5, "z = \(r.z)")
        #expect(r.effectiveBits < 4 * 5.9541)  // below log2(62^4) = 23.8
    }

    @Test func malformedLinesAreCountedNotFatal() {
        var text = Array("abc\r\n\n\nabc\n".utf8)
        text += [0xff, 0xfe, 0x0a]  // invalid UTF-8
        text += Array(String(repeating: "x", count: 50).utf8) + [0x0a]  // overlong at 16
        text += Array("héllo\nlast-no-nl".utf8)
        let a = Self.audit(text, chunk: 5, maxLineBytes: 16)
        #expect(a.lines == 8)
        #expect(a.emptyLines == 2)
        #expect(a.crlfLines == 1)
        #expect(a.invalidUTF8Lines == 1)
        #expect(a.overlongLines == 1)
        #expect(a.ids == 4)
        #expect(a.extraOccurrences == 1)
        #expect(a.lengths[5] == 1)  // "héllo" is 5 characters
    }

    @Test func uuidsImplyTheirRandomBits() {
        let uuids = (0..<1000).map { _ in UUID().uuidString.lowercased() }
        let r = Self.audit(Array(uuids.joined(separator: "\n").utf8)).report()
        #expect(r.space == BigInt.power(2, 122))
    }
}
