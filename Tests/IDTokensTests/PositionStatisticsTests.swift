import Testing

@testable import IDTokens

/// base62×22 tokens: every position uniform on its own, and adjacent positions independent (the 62²
/// pairs uniform). Each check runs on a biased control too, which it must reject.
@Suite struct PositionStatisticsTests {
    static let tokens = 60_000, length = 22

    static func counts(_ next: () -> [UInt8]) -> (positions: [[Int]], pairs: [Int]) {
        var index = [Int](repeating: 0, count: 256)
        for (i, b) in Alphabet.base62.bytes!.enumerated() { index[Int(b)] = i }
        var positions = [[Int]](repeating: [Int](repeating: 0, count: 62), count: length)
        var pairs = [Int](repeating: 0, count: 62 * 62)
        for _ in 0..<tokens {
            let t = next()
            for p in 0..<length {
                positions[p][index[Int(t[p])]] += 1
                if p > 0 { pairs[index[Int(t[p - 1])] * 62 + index[Int(t[p])]] += 1 }
            }
        }
        return (positions, pairs)
    }

    static func judge(_ c: (positions: [[Int]], pairs: [Int])) -> (worstPosition: Double, pairs: Double) {
        (c.positions.map(StatisticsTests.chiSquare).max()!, StatisticsTests.chiSquare(c.pairs))
    }

    @Test func positionsAndAdjacentPairsAreUniform() throws {
        let generator = try TokenGenerator(alphabet: .base62, length: Self.length)
        var buffer = [UInt8](repeating: 0, count: Self.length)
        let (worst, pairs) = Self.judge(
            Self.counts {
                _ = buffer.withUnsafeMutableBytes { generator.fill($0, separator: nil) }
                return buffer
            })
        // The worst of 22 positions: z = 5 per test keeps the family's false-alarm rate below 1e-5.
        #expect(worst < StatisticsTests.chiSquareCritical(df: 61))
        #expect(pairs < StatisticsTests.chiSquareCritical(df: 62 * 62 - 1))
    }

    /// Controls: `byte % 62` in one position, and a symbol that repeats its neighbour 3% of the time.
    @Test func controlsAreCaught() throws {
        let generator = try TokenGenerator(alphabet: .base62, length: Self.length)
        let digits = Alphabet.base62.bytes!
        var rng = SecureRandom()
        let modulo = Self.judge(
            Self.counts {
                var t = generator.next().utf8.map { $0 }
                t[5] = digits[Int(rng.next() & 0xff) % 62]
                return t
            })
        #expect(modulo.worstPosition > StatisticsTests.chiSquareCritical(df: 61))
        let sticky = Self.judge(
            Self.counts {
                var t = generator.next().utf8.map { $0 }
                for p in 1..<Self.length where rng.next() % 100 < 3 { t[p] = t[p - 1] }
                return t
            })
        #expect(sticky.pairs > StatisticsTests.chiSquareCritical(df: 62 * 62 - 1))
    }
}
