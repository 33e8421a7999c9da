import CTokens
import Testing

@testable import IDTokens

/// Every alphabet size from 2 to 256, through every sampler path (SIMD kernels on and off): no byte
/// outside the alphabet, uniform symbol counts, and the same seeded output on both paths (so `--seed`
/// gives the same tokens on every CPU).
@Suite struct AlphabetSizeTests {
    /// Sizes below 256 leave out byte 0, so a kernel that writes zeros for rejected chunks is caught.
    static func alphabet(size n: Int) -> [UInt8] {
        n == 256 ? (0...255).map { UInt8($0) } : (1...n).map { UInt8($0) }
    }

    static func tokens(size n: Int, simd: Bool, seed: UInt64, symbols: Int) -> [UInt8] {
        var options = TokenEngine.Options()
        options.simd = simd
        let generator = try! TokenGenerator(bytes: alphabet(size: n), length: 25, source: SeededRandom(seed: seed), options: options)
        var out = [UInt8](repeating: 0, count: symbols / 25 * 25)
        _ = out.withUnsafeMutableBytes { generator.fill($0, separator: nil) }
        return out
    }

    @Test(arguments: [false, true])
    func everySizeStaysInItsAlphabetAndIsUniform(simd: Bool) {
        var simdPaths = 0
        for n in 2...256 {
            var options = TokenEngine.Options()
            options.simd = simd
            let probe = try! TokenGenerator(bytes: Self.alphabet(size: n), length: 8, source: SeededRandom(seed: 1), options: options)
            if probe.engine.usesSIMD { simdPaths += 1 }
            let out = Self.tokens(size: n, simd: simd, seed: UInt64(n), symbols: Swift.max(20_000, 80 * n))
            var counts = [Int](repeating: 0, count: 256)
            for b in out { counts[Int(b)] += 1 }
            let allowed = Set(Self.alphabet(size: n))
            let outside = (0..<256).filter { !allowed.contains(UInt8($0)) && counts[$0] > 0 }
            #expect(outside.isEmpty, "size \(n): bytes \(outside) are not in the alphabet")
            let inAlphabet = Self.alphabet(size: n).map { counts[Int($0)] }
            let chi = StatisticsTests.chiSquare(inAlphabet)
            #expect(chi < StatisticsTests.chiSquareCritical(df: n - 1), "size \(n): χ² = \(chi)")
        }
        // Exactly 16 symbols, and those 33–64 that read 6-bit chunks, take the SIMD kernels when allowed;
        // so do those that read whole bytes where the AVX-512 VBMI2 kernel runs.
        let expected = (2...256).filter { n in
            let bits = SymbolSampler(symbols: Self.alphabet(size: n)).bits
            return bits == 6 || (bits == 4 && n == 16) || (bits == 8 && idt_sample8_simd() != 0)
        }.count
        #expect(expected > 20)
        if simd && (idt_sample6_available() != 0 || idt_sample6_neon_available() != 0) {
            #expect(simdPaths == expected)
        } else {
            #expect(simdPaths == 0)
        }
    }

    @Test func seededOutputIsTheSameWithAndWithoutSIMD() {
        for n in 2...256 {
            let a = Self.tokens(size: n, simd: true, seed: 7, symbols: 12_000)
            let b = Self.tokens(size: n, simd: false, seed: 7, symbols: 12_000)
            #expect(a == b, "size \(n)")
        }
    }

    /// The check above can fail: a different seed gives different output.
    @Test func seedsDiffer() {
        #expect(Self.tokens(size: 62, simd: true, seed: 7, symbols: 1000) != Self.tokens(size: 62, simd: true, seed: 8, symbols: 1000))
    }

    @Test func controlCharactersAreNotSymbols() {
        for bad in ["ab\ncd", "ab\rcd", "abc\u{0}", "ab\u{7f}", "ab\u{85}c", "ab\u{2028}c", "\tabc"] {
            #expect(throws: AlphabetError.self) { try Alphabet(symbols: bad) }
        }
        #expect(throws: Never.self) { try Alphabet(symbols: "a b-_.~") }
    }
}
