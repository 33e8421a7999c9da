import IDBudget
import IDTokens
import Precise
import Testing

@Suite struct ParsingTests {
    @Test func countsAreExact() {
        #expect(ExactDecimal("3.1536e14")?.integerValue == BigInt(315_360_000_000_000))
        #expect(ExactDecimal("1_000_000")?.integerValue == BigInt(1_000_000))
        #expect(ExactDecimal("1e40")?.integerValue == BigInt.power(10, 40))
        #expect(ExactDecimal("1.5")?.integerValue == nil)
        #expect(ExactDecimal("abc") == nil)
        #expect(ExactDecimal("1e") == nil)
        #expect(ExactDecimal("1.2.3") == nil)
        #expect(ExactDecimal("") == nil)
    }

    /// Doubles of exact decimals, long significands cut to their leading digits first: the values
    /// Python's float() gives for the same text.
    @Test func exactDecimalsAsDoubles() {
        #expect(ExactDecimal(significand: BigInt(15), exponent: -1).doubleValue == 1.5)
        // float(2**1048575 * 10**-315652) overflows in Python's int/float path; 2**1048575 / 10**315652
        // as a Fraction rounds to 3.3705700627495365.
        let big = ExactDecimal(significand: BigInt.power(2, 1_048_575), exponent: -315_652)
        #expect(big.doubleValue == 3.3705700627495365)
        #expect(ExactDecimal(significand: BigInt.power(2, 1_048_575), exponent: 0).doubleValue == .infinity)
        #expect(ExactDecimal(significand: BigInt.power(2, 5000), exponent: -2000).doubleValue == 0)
        #expect(ExactDecimal(significand: BigInt(0), exponent: 99).doubleValue == 0)
    }

    @Test func ratesTimesLifetimes() throws {
        let tenYears = try Lifetime(parsing: "10y")
        #expect(try Rate(parsing: "1e6/s").count(over: tenYears) == BigInt(315_360_000_000_000))
        #expect(try Rate(parsing: "2000/min").count(over: Lifetime(parsing: "90m")) == BigInt(180_000))
        #expect(try Rate(parsing: "5/ms").count(over: Lifetime(parsing: "36h")) == BigInt(648_000_000))
        #expect(try Rate(parsing: "1/h").count(over: Lifetime(parsing: "30d")) == BigInt(720))
        #expect(try Rate(parsing: "1/d").count(over: Lifetime(parsing: "1.5y")) == BigInt(548))  // 547.5, rounded up
        #expect(throws: InputError.self) { try Rate(parsing: "5/fortnight") }
        #expect(throws: InputError.self) { try Rate(parsing: "0/s") }
        #expect(throws: InputError.self) { try Lifetime(parsing: "10") }
        #expect(throws: InputError.self) { try Lifetime(parsing: "0y") }
    }

    @Test func budgetsAreOpenUnitInterval() {
        for bad in ["0", "1", "1.5", "-0.1", "x", "1e-200000"] {
            #expect(throws: InputError.self, "\(bad)") { try Budget(parsing: bad) }
        }
        #expect((try? Budget(parsing: "0.999999")) != nil)
        #expect((try? Budget(parsing: "1e-1000")) != nil)
    }

    @Test func spacesAreExactAndBounded() throws {
        #expect(try Space(alphabet: .base62, length: 22).size == BigInt.power(62, 22))
        #expect(try Space(bits: 65536).size == BigInt.power(2, 65536))
        #expect(throws: InputError.self) { try Space(alphabet: .base62, length: 0) }
        #expect(throws: InputError.self) { try Space(bits: (1 << 21) + 1) }
        #expect(throws: InputError.self) { try Space(alphabetSize: 62, length: 1 << 20) }
    }

    @Test func builtInAlphabets() {
        let expected: [String: Int] = ["base64url": 64, "base62": 62, "base58": 58, "base36": 36, "base32": 32, "hex": 16, "decimal": 10]
        for (name, size) in expected {
            let a = Alphabet.named(name)
            #expect(a?.count == size, "\(name)")
            #expect(a?.isSingleByte == true)
        }
        // Bitcoin's base58 leaves out 0, O, I and l; Crockford's base32 leaves out I, L, O, U.
        #expect(!"0OIl".contains { Alphabet.base58.symbols.contains($0) })
        #expect(!"ILOU".contains { Alphabet.base32.symbols.contains($0) })
    }

    @Test func customAlphabetsAreValidated() {
        #expect(throws: AlphabetError.duplicateSymbol("a")) { try Alphabet(symbols: "abca") }
        #expect(throws: AlphabetError.tooFewSymbols(1)) { try Alphabet(symbols: "a") }
        #expect(throws: AlphabetError.tooFewSymbols(0)) { try Alphabet(symbols: "") }
        let emoji = try! Alphabet(symbols: "🍎🍌🍒")
        #expect(emoji.count == 3)
        #expect(emoji.maxBytes(length: 10) == 40)
        #expect(!emoji.isSingleByte)
    }

    /// Exact rational rounding, ties to even, checked against Python's decimal module.
    @Test func exactDecimalRounding() {
        // 2^-44 = 5^44 / 10^44 has 31 significant digits, ending in 5: a tie, resolved to even.
        let tie = ScientificDecimal.exact(numerator: BigInt(1), denominator: BigInt.power(2, 44), significantDigits: 30)
        #expect(tie.description == "5.68434188608080148696899414062e-14")
        let third = ScientificDecimal.exact(numerator: BigInt(1), denominator: BigInt(3), significantDigits: 30)
        #expect(third.description == "3.33333333333333333333333333333e-1")
        let nines = ScientificDecimal.exact(
            numerator: BigInt.power(10, 31) - BigInt(1), denominator: BigInt.power(10, 31), significantDigits: 30)
        #expect(nines.description == "1.00000000000000000000000000000e+0")
    }
}

extension ParsingTests {
    @Test func scientificDecimalsCompareAsNumbers() {
        #expect(ScientificDecimal("5.000e-1")! == ScientificDecimal("0.5")!)
        #expect(ScientificDecimal("1.83639477847277033856633261466e-11")! > ScientificDecimal("1e-11")!)
        #expect(ScientificDecimal("9.9e-12")! < ScientificDecimal("1e-11")!)
        #expect(ScientificDecimal.zero < ScientificDecimal("1e-19729")!)
        #expect(ScientificDecimal("2.5e+3")!.description == "2.5e+3")
    }
}
