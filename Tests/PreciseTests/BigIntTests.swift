import Precise
import Testing

/// GMP integers through the Swift surface, against values from Python's exact integers.
@Suite struct BigIntTests {
    @Test func arithmeticMatchesPython() throws {
        let a = try #require(BigInt(decimal: "1" + String(repeating: "0", count: 40))) + BigInt(7)
        let b = BigInt.power(10, 35) + BigInt(9)
        // (10^40 + 7)(10^35 + 9), from Python.
        #expect((a * b).description == "1000000000000000000000000000000000090000700000000000000000000000000000000063")
        #expect(BigInt.power(2, 127) - BigInt(1) == BigInt(decimal: "170141183460469231731687303715884105727"))
        // math.isqrt(10**41 + 12345)
        #expect((BigInt.power(10, 41) + BigInt(12345)).squareRootFloor.description == "316227766016837933199")
        #expect(BigInt.binomial(52, 5) == BigInt(2_598_960))
        #expect(BigInt.fallingFactorial(BigInt(10), 3) == BigInt(720))
    }

    @Test func quotientsRoundAsNamed() {
        #expect(BigInt.ceilingQuotient(BigInt(7), BigInt(2)) == BigInt(4))
        #expect(BigInt.ceilingQuotient(BigInt(8), BigInt(2)) == BigInt(4))
        #expect(BigInt.ceilingQuotient(BigInt(-7), BigInt(2)) == BigInt(-3))
        #expect(BigInt(7) / BigInt(2) == BigInt(3))
        #expect(BigInt.gcd(BigInt(84), BigInt(36)) == BigInt(12))
        #expect(BigInt(96).removingFactor(2) == (quotient: BigInt(3), count: 5))
    }

    @Test func decimalTextRoundTrips() {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let text = String(x) + String(x >> 7) + String(x >> 13)
            let trimmed = String(text.drop { $0 == "0" })
            #expect(BigInt(decimal: text)?.description == (trimmed.isEmpty ? "0" : trimmed))
        }
        #expect(BigInt(decimal: "") == nil)
        #expect(BigInt(decimal: "12a") == nil)
        #expect(BigInt(decimal: "-5")?.signum == -1)
        #expect(BigInt(Int.max).intValue == Int.max)
        #expect((BigInt(Int.max) + BigInt(1)).intValue == nil)
    }

    /// The digit count without writing the number out: at 10^k − 1 and 10^k (where GMP's size in base
    /// 10 may be one too many), negative values, and 2^k against Python's len(str(2**k)).
    @Test func decimalDigitsAreCountedExactly() {
        for k in [1, 2, 9, 10, 19, 20, 100, 1000, 12345] {
            #expect((BigInt.power(10, k) - BigInt(1)).decimalDigitCount == k, "10^\(k) − 1")
            #expect(BigInt.power(10, k).decimalDigitCount == k + 1, "10^\(k)")
            #expect((BigInt(0) - BigInt.power(10, k)).decimalDigitCount == k + 1, "−10^\(k)")
        }
        #expect(BigInt(0).decimalDigitCount == 1)
        // len(str(2**k)) for k = 64, 1000, 1048575
        #expect(BigInt.power(2, 64).decimalDigitCount == 20)
        #expect(BigInt.power(2, 1000).decimalDigitCount == 302)
        #expect(BigInt.power(2, 1_048_575).decimalDigitCount == 315_653)
    }
}

/// MPFR floats: directed rounding brackets the exact value, against mpmath at 50 digits.
@Suite struct BigFloatTests {
    @Test func directedRoundingBrackets() {
        let (lo, hi) = BigFloat.bounds(numerator: BigInt(1), denominator: BigInt(3), precision: 64)
        #expect(lo < hi)
        #expect(lo.nextUp == hi)
        let exact = BigFloat(numerator: BigInt(1), denominator: BigInt(4), precision: 64, rounding: .down)
        #expect(exact == BigFloat(numerator: BigInt(1), denominator: BigInt(4), precision: 64, rounding: .up))
    }

    @Test func logarithmsMatchMpmath() {
        // mpmath: log(2) and -log1p(-1e-12) to 30 digits.
        #expect(BigFloat.ln2(precision: 200, rounding: .nearest).decimalDigits(30)?.digits == "693147180559945309417232121458")
        let x = BigFloat(numerator: BigInt(-1), denominator: BigInt.power(10, 12), precision: 200, rounding: .nearest)
        let l = x.log1p(precision: 200, rounding: .nearest).negated
        #expect(l.decimalDigits(30)?.digits == "100000000000050000000000033333")
        #expect(l.decimalDigits(30)?.exponent == -11)
    }
}
