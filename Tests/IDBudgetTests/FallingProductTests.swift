import Precise
import Testing

@testable import IDBudget

/// The falling product d(d−1)···(d−n+1) bounded at p bits brackets the exact product (GMP's exact
/// integers, no rounding) and is nearly as tight as one rounding; L from it agrees with L from
/// MPFR's lgamma, the other road to the same number.
@Suite struct FallingProductTests {
    @Test(arguments: [
        ("5", 5), ("5", 0), ("5", 1), ("1", 1), ("1000003", 4097), ("4294967311", 20_000),
        ("340282366920938463463374607431768211507", 3_000), ("18446744073709551616", 70_000),
    ])
    func boundsBracketTheExactProduct(space: String, count: Int) throws {
        let d = try #require(BigInt(decimal: space))
        let exact = BigInt.fallingFactorial(d, count)
        for p in [2, 64, 1_000, 50_000] {
            for threads in [1, 2] {
                let (lo, hi) = BigFloat.fallingProductBounds(d, count, precision: p, threads: threads)
                let e = BigFloat(exact, precision: Swift.max(exact.bitWidth, 2), rounding: .nearest)
                #expect(lo <= e && e <= hi, "d = \(space), n = \(count), p = \(p), threads = \(threads)")
                // Each block and product rounds once per tree: fewer than 2n roundings, a gap of at most ~4n units.
                if p >= 64 && count > 0 {
                    let width = hi.subtracting(lo, precision: 64, rounding: .up)
                    #expect(
                        width.isZero || width.binaryExponent <= hi.binaryExponent - p + 4 + BigInt(count).bitWidth,
                        "d = \(space), n = \(count), p = \(p)")
                }
            }
        }
    }

    /// Both roads to L at 20,000 bits: the intervals overlap and are each narrower than 2^−19,000.
    @Test(arguments: [(26, 1_048_576), (36, 300_000), (30, 5_000_000)])
    func productAndLgammaAgree(bits: Int, count: Int) {
        let d = BigInt.power(2, bits)
        let n = BigInt(count)
        let p = 20_000
        let (fLo, fHi) = BigFloat.fallingProductBounds(d, count, precision: p)
        let logD = BigFloat(d, precision: bits + 2, rounding: .down).log(precision: p, rounding: .down)
        let lo = logD.multiplied(by: n, precision: p, rounding: .down).subtracting(
            fHi.log(precision: p, rounding: .up), precision: p, rounding: .down)
        let hi = logD.nextUp.multiplied(by: n, precision: p, rounding: .up).subtracting(
            fLo.log(precision: p, rounding: .down), precision: p, rounding: .up)
        let a = LogComplement.lgammaOfInteger(d - n + BigInt(1), precision: p, exact: p)
        let b = LogComplement.lgammaOfInteger(d + BigInt(1), precision: p, exact: p)
        let gLo = logD.multiplied(by: n, precision: p, rounding: .down).adding(a.lo, precision: p, rounding: .down).subtracting(
            b.hi, precision: p, rounding: .down)
        let gHi = logD.nextUp.multiplied(by: n, precision: p, rounding: .up).adding(a.hi, precision: p, rounding: .up).subtracting(
            b.lo, precision: p, rounding: .up)
        #expect(lo <= gHi && gLo <= hi, "2^\(bits), n = \(count): the two intervals are disjoint")
        for (l, h) in [(lo, hi), (gLo, gHi)] {
            let width = h.subtracting(l, precision: 64, rounding: .up)
            #expect(width.binaryExponent < -19_000 + Int(n.log2Magnitude) + 64, "2^\(bits), n = \(count)")
        }
        // Near-tie precisions at these sizes take the product (the point of it: MPFR's lgamma of a
        // 26-bit argument at 66,000 bits is slow), typical precisions keep lgamma.
        #expect(LogComplement.productIsCheaper(space: d, count: count, precision: 66_000))
        #expect(!LogComplement.productIsCheaper(space: d, count: count, precision: 400))
    }
}
