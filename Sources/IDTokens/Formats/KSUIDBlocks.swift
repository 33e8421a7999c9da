internal import CTokens

/// KSUID text in bulk, drawn as base62 characters instead of divided out of 20 bytes.
///
/// A KSUID is the 27-digit base62 text of X = T·2^128 + R, with T the 32-bit stamp and R 128 random
/// bits: X is uniform on [A, B], A = T·2^128, B = A + 2^128 − 1. Write X = k·62^20 + L, with L < 62^20
/// (the low 20 digits) and k < 62^7 (the top 7). Drawing k uniformly from a…b (a = ⌊A / 62^20⌋,
/// b = ⌊B / 62^20⌋) and L as 20 uniform digits makes X uniform on the blocks of 62^20 that cover
/// [A, B]; keeping X only when A ≤ X ≤ B leaves it uniform on [A, B], so R = X − A is uniform on 128
/// bits: every id has the probability it has when 16 random bytes are encoded, and the ids decode to
/// T and R as any KSUID library reads them. Only the two end blocks can hold an X outside [A, B], and
/// there the test is L's 20 characters against A's or B's (the text is fixed-width, and base62's
/// characters sort in ASCII as its digits do). 2^128 / 62^20 ≈ 483.3, so there are 484 or 485 blocks
/// and an X is drawn again with probability below 2/484; k comes from 16 random bits by Lemire's
/// multiply-and-reject (a draw is redone with probability below 485/2^16). So an id costs what
/// sampling 20 base62 symbols costs, where dividing each id's 160 bits by powers of 62 cost about
/// twice as much (and more on CPUs without a fast vector multiplier).
struct KSUIDBlocks {
    let stamp: UInt32
    /// b − a + 1.
    let count: UInt32
    /// 2^16 mod `count`: a 16-bit draw whose product with `count` has a low half below it is redone.
    let threshold: UInt32
    /// The top 7 characters of block a + j, in the low 7 bytes of `tops[j]` (first character lowest).
    let tops: [UInt64]
    /// The low 20 characters of A and of B, as `key` reads them.
    let lowA: (UInt64, UInt64, UInt32)
    let lowB: (UInt64, UInt64, UInt32)

    init(stamp: UInt32) {
        self.stamp = stamp
        let first = Self.text(stamp: stamp, fill: 0x00)
        let last = Self.text(stamp: stamp, fill: 0xFF)
        let a = Self.number(first[0..<7])
        let b = Self.number(last[0..<7])
        count = UInt32(b - a + 1)
        threshold = 65536 % count
        tops = (a...b).map { block in
            var v = block
            var word: UInt64 = 0
            for i in (0..<7).reversed() {
                word |= UInt64(Self.symbols[Int(v % 62)]) << (8 * UInt64(i))
                v /= 62
            }
            return word
        }
        lowA = first.withUnsafeBytes { raw in raw.baseAddress.map { Self.key($0 + 7) } } ?? (0, 0, 0)
        lowB = last.withUnsafeBytes { raw in raw.baseAddress.map { Self.key($0 + 7) } } ?? (0, 0, 0)
    }

    /// 20 characters at `p` as three big-endian numbers: tuples compare as the characters do.
    @inline(__always)
    static func key(_ p: UnsafeRawPointer) -> (UInt64, UInt64, UInt32) {
        (
            UInt64(bigEndian: p.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
        )
    }

    /// KSUID's digits, 0–9A–Za–z.
    static let symbols: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// The 27 characters of T·2^128 + (2^128 − 1 if `fill` is 0xFF, else 0), by the portable encoder.
    static func text(stamp: UInt32, fill: UInt8) -> [UInt8] {
        var value = [UInt8](repeating: fill, count: 20)
        for i in 0..<4 { value[i] = UInt8(truncatingIfNeeded: stamp >> (24 - 8 * UInt32(i))) }
        var out = [UInt8](repeating: 0, count: 27)
        value.withUnsafeBufferPointer { v in
            out.withUnsafeMutableBufferPointer { idt_base62_160_scalar(v.baseAddress, 1, $0.baseAddress, 27) }
        }
        return out
    }

    /// The number base62 characters spell.
    static func number(_ text: ArraySlice<UInt8>) -> UInt64 {
        text.reduce(0) { value, c in
            let digit: UInt8 =
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A") + 10
                default: c - UInt8(ascii: "a") + 36
                }
            return value * 62 + UInt64(digit)
        }
    }
}
