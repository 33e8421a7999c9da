import IDTokens
import Testing

/// The generator's output must look uniform, and these checks must be able to tell when it is not:
/// each is run on a deliberately biased generator (`byte % 62`) too, which it has to reject.
/// Thresholds sit at z = 5 (one-sided p ≈ 3·10⁻⁷), generous enough never to flake.
@Suite struct StatisticsTests {
    static let z = 5.0

    /// The χ² critical value with `df` degrees of freedom at `z` standard deviations (Wilson–Hilferty).
    static func chiSquareCritical(df: Int) -> Double {
        let k = Double(df)
        let a = 2 / (9 * k)
        let t = 1 - a + z * a.squareRoot()
        return k * t * t * t
    }

    static func chiSquare(_ counts: [Int]) -> Double {
        let total = Double(counts.reduce(0, +))
        let expected = total / Double(counts.count)
        return counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
    }

    /// Symbol counts of `tokens` tokens of length 16.
    static func symbolCounts(bytes: [UInt8], tokens: Int) -> [Int] {
        let generator = try! TokenGenerator(bytes: bytes, length: 16, source: SecureRandom())
        var index = [Int](repeating: -1, count: 256)
        for (i, b) in bytes.enumerated() { index[Int(b)] = i }
        var counts = [Int](repeating: 0, count: bytes.count)
        var buffer = [UInt8](repeating: 0, count: 16 * 1000)
        for _ in 0..<(tokens / 1000) {
            buffer.withUnsafeMutableBytes { _ = generator.fill($0, separator: nil) }
            for b in buffer { counts[index[Int(b)]] += 1 }
        }
        return counts
    }

    static let alphabets: [(String, [UInt8])] =
        Alphabet.builtIns.map { ($0.name!, $0.bytes!) } + [
            ("binary", Array("01".utf8)), ("200 bytes", (0..<200).map { UInt8($0) }), ("256 bytes", (0...255).map { UInt8($0) }),
        ]

    @Test(arguments: alphabets.map(\.0))
    func symbolFrequenciesAreUniform(name: String) {
        let bytes = Self.alphabets.first { $0.0 == name }!.1
        let counts = Self.symbolCounts(bytes: bytes, tokens: 40_000)
        #expect(Self.chiSquare(counts) < Self.chiSquareCritical(df: bytes.count - 1), "\(name): \(counts)")
    }

    /// The negative control: `byte % 62` favours 8 symbols by 25%, and χ² must see it.
    @Test func chiSquareCatchesModuloBias() {
        var rng = SecureRandom()
        var counts = [Int](repeating: 0, count: 62)
        for _ in 0..<(640_000 / 8) {
            var w = rng.next()
            for _ in 0..<8 {
                counts[Int(w & 0xff) % 62] += 1
                w >>= 8
            }
        }
        #expect(Self.chiSquare(counts) > Self.chiSquareCritical(df: 61))
    }

    /// Duplicates among n = 3,000,000 tokens of base62^4 (d = 14,776,336), counted exactly with a d-bit
    /// bitmap, against the mean and variance of the occupancy distribution, from mpmath at 60 digits:
    /// E = n − d + d·q₁ⁿ and Var = d·q₁ⁿ + d(d−1)·q₂ⁿ − d²·q₁²ⁿ with q₁ = 1 − 1/d, q₂ = 1 − 2/d.
    static func collisionZ(tokens n: Int, next: () -> [UInt8]) -> (observed: Int, z: Double) {
        let digits = Alphabet.base62.bytes!
        var value = [Int](repeating: 0, count: 256)
        for (i, b) in digits.enumerated() { value[Int(b)] = i }
        let d = 62 * 62 * 62 * 62
        var seen = [UInt64](repeating: 0, count: d / 64 + 1)
        var duplicates = 0
        for _ in 0..<n {
            let t = next()
            let index = ((value[Int(t[0])] * 62 + value[Int(t[1])]) * 62 + value[Int(t[2])]) * 62 + value[Int(t[3])]
            let bit = UInt64(1) << UInt64(index & 63)
            if seen[index >> 6] & bit != 0 { duplicates += 1 } else { seen[index >> 6] |= bit }
        }
        precondition(n == collisionTokens, "the reference mean and variance are for n = \(collisionTokens)")
        let mean = 284_935.879_812_664_550_46
        let variance = 217_365.837_682_892_671_99
        return (duplicates, (Double(duplicates) - mean) / variance.squareRoot())
    }

    static let collisionTokens = 3_000_000

    @Test func collisionCountMatchesTheory() {
        let generator = try! TokenGenerator(alphabet: .base62, length: 4)
        var buffer = [UInt8](repeating: 0, count: 4)
        let (observed, z) = Self.collisionZ(tokens: Self.collisionTokens) {
            buffer.withUnsafeMutableBytes { _ = generator.fill($0, separator: nil) }
            return buffer
        }
        #expect(abs(z) < Self.z, "observed \(observed) duplicates, z = \(z)")
    }

    /// The negative control: `byte % 62` gives about 2.7% more duplicates, z ≈ 14 at this size.
    @Test func collisionCountCatchesModuloBias() {
        var rng = SecureRandom()
        let digits = Alphabet.base62.bytes!
        let (observed, z) = Self.collisionZ(tokens: Self.collisionTokens) {
            let w = rng.next()
            return (0..<4).map { digits[Int((w >> (8 * UInt64($0))) & 0xff) % 62] }
        }
        #expect(z > Self.z, "observed \(observed) duplicates, z = \(z)")
    }
}
