import Foundation
import IDBudget
import Testing

/// The documented range (spaces to 2^(2^21), counts below 10^640000) answered, and refused cleanly
/// beyond; the forms numbers take; 1 − p past 10^−(10^1232) as 10^−x. Reference values from mpmath at
/// 400 bits (x = S·L/ln 10 with L = d·log d − lgamma(d + 1) for n = d, or −S·log1p(−1/d) for n = 2).
@Suite struct RangeTests {
    @Test func tinyComplementsAreWrittenAsPowersOfTen() throws {
        let d = BigInt.power(2, 65536)
        let (p, c) = try Birthday.probability(space: d, count: d)
        #expect(p.description == "1.00000000000000000000000000000e+0")
        #expect(c.description == "10^-8.70121993103699575748494103186e+19727")
        let (_, c2) = try Birthday.probability(space: BigInt.power(2, 64), count: BigInt(2), scopes: BigInt.power(10, 600000))
        #expect(c2.description == "10^-2.35431510388986111022042315764e+599980")
        // Below the threshold the mantissa form stays: 1 − p for 2^16 ids among 2^16 values.
        let (_, c3) = try Birthday.probability(space: BigInt(65536), count: BigInt(65536))
        #expect(!c3.isPowerOfTen && c3.exponent < BigInt(0))
        #expect(ScientificDecimal(c.description)?.isPowerOfTen == true)
    }

    @Test func theTopOfTheRangeIsAnsweredAndBeyondIsRefused() throws {
        let top = try Space(bits: Limits.maxSpaceBits)
        let (_, c) = try Birthday.probability(space: top.size, count: top.size - BigInt(5))
        #expect(c.isPowerOfTen)
        #expect(throws: InputError.self) { try Space(bits: Limits.maxSpaceBits + 1) }
        #expect(Limits.maxSpaceBits == 1 << 21)
    }

    @Test func powersAreExactEverywhere() throws {
        #expect(ExactDecimal("2^64-1")?.integerValue == BigInt.power(2, 64) - BigInt(1))
        #expect(ExactDecimal("2^64+7")?.integerValue == BigInt.power(2, 64) + BigInt(7))
        #expect(ExactDecimal("2^-40") == ExactDecimal(significand: BigInt.power(5, 40), exponent: -40))
        #expect(
            ExactDecimal("10^-12")?.fraction.numerator == BigInt.power(10, 12)
                && ExactDecimal("10^-12")?.fraction.denominator == BigInt.power(10, 24))
        #expect(ExactDecimal("3^-2") == nil)  // 1/9 is not a terminating decimal
        #expect(ExactDecimal("2^") == nil)
        #expect(ExactDecimal("2^64-") == nil)
        #expect(ExactDecimal("2^3-9") == nil)  // negative
        #expect(ExactDecimal("1e+6")?.integerValue == BigInt(1_000_000))
        #expect(try Budget(parsing: "2^-40").value == ExactDecimal("2^-40"))
        #expect(try Rate(parsing: "2^20/s").count(over: Lifetime(parsing: "1s")) == BigInt(1 << 20))
        #expect(try Rate(parsing: "1e+6/s").count(over: Lifetime(parsing: "1e3s")) == BigInt(1_000_000_000))
    }

    /// A budget equal to p exactly with more than 20,000 ids (the old exact-fraction cap): decided.
    /// p(50000, 20001) terminates (50000 = 2^4·5^5), so its exact decimal is a valid budget.
    @Test func exactTiesAboveTwentyThousandIdsAreDecided() throws {
        let d = BigInt(50_000)
        let n = 20_001
        let numerator = BigInt.fallingFactorial(d, n)
        let denominator = d.power(n)
        // den = 2^(4n)·5^(5n): scale to 10^(5n).
        let scaled = (denominator - numerator) * BigInt.power(2, n)
        let budget = try Budget(parsing: "\(scaled)e-\(5 * n)")
        let start = Date()
        #expect(try Birthday.capacity(space: d, budget: budget) == BigInt(n))
        #expect(Date().timeIntervalSince(start) < 60)
    }
}
