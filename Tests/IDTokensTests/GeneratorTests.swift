import Foundation
import IDTokens
import Testing

@Suite struct GeneratorTests {
    @Test func tokensHaveTheLengthAndSymbols() throws {
        for alphabet in Alphabet.builtIns {
            let generator = try TokenGenerator(alphabet: alphabet, length: 22)
            let allowed = Set(alphabet.symbols)
            for token in generator.next(200) {
                #expect(token.count == 22)
                #expect(token.allSatisfy { allowed.contains($0) }, "\(token)")
            }
        }
    }

    @Test func tokensAreDistinct() throws {
        let tokens = try TokenGenerator(alphabet: .base62, length: 22).next(100_000)
        #expect(Set(tokens).count == tokens.count)
    }

    @Test func seededOutputIsReproducible() throws {
        let a = try TokenGenerator(alphabet: .hex, length: 16, source: SeededRandom(seed: 42)).next(50)
        let b = try TokenGenerator(alphabet: .hex, length: 16, source: SeededRandom(seed: 42)).next(50)
        let c = try TokenGenerator(alphabet: .hex, length: 16, source: SeededRandom(seed: 43)).next(50)
        #expect(a == b)
        #expect(a != c)
    }

    /// Any RandomNumberGenerator works, e.g. the standard library's.
    @Test func genericOverRandomNumberGenerator() throws {
        let generator = try TokenGenerator(alphabet: .base58, length: 10, source: SystemRandomNumberGenerator())
        #expect(generator.next().count == 10)
    }

    @Test func fillWritesWholeTokensAndSeparators() throws {
        let generator = try TokenGenerator(alphabet: .base62, length: 22)
        var buffer = [UInt8](repeating: 0, count: 23 * 10 + 5)
        let written = buffer.withUnsafeMutableBytes { generator.fill($0, separator: 10) }
        #expect(written == 10)
        let lines = String(decoding: buffer.prefix(23 * 10), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 10 && lines.allSatisfy { $0.count == 22 })
        #expect(buffer.suffix(5).allSatisfy { $0 == 0 })
    }

    @Test func byteAlphabetsUpTo256() throws {
        let all = try TokenGenerator(bytes: (0...255).map { UInt8($0) }, length: 8, source: SecureRandom())
        #expect(all.next().unicodeScalars.count == 8)
        // 508 bytes a round (8 rounds per 4064-byte refill), 496 of them read as 8-bit chunks.
        #expect(abs(all.bitsPerSymbol - 508.0 * 8 / 496) < 1e-9)
        #expect(throws: TokenGeneratorError.self) { try TokenGenerator(bytes: [1], length: 8, source: SecureRandom()) }
        #expect(throws: TokenGeneratorError.self) { try TokenGenerator(bytes: [1, 2, 1], length: 8, source: SecureRandom()) }
        #expect(throws: TokenGeneratorError.self) { try TokenGenerator(alphabet: .base62, length: 0) }
        #expect(throws: TokenGeneratorError.self) { try TokenGenerator(alphabet: Alphabet(symbols: "🍎🍌"), length: 4) }
    }

    /// Few bits per symbol: base62 takes 6-bit chunks (62/64 accepted), hex 4-bit chunks (all accepted),
    /// counting the bytes of each round that no chunk reads.
    @Test func bitsPerSymbol() throws {
        let base62 = try TokenGenerator(alphabet: .base62, length: 22).bitsPerSymbol
        #expect(base62 > 5.95 && base62 < 6.7)
        #expect(abs(try TokenGenerator(alphabet: .hex, length: 22).bitsPerSymbol - 508.0 * 8 / 992) < 1e-9)
    }
}
