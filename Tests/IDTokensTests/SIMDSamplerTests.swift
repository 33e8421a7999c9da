import CTokens
import IDTokens
import Testing

/// The SIMD sampler must cut random bytes into exactly the 6-bit chunks a scalar reading gives
/// (each 3 bytes b0 b1 b2 → b0>>2, (b0&3)<<4|b1>>4, (b1&15)<<2|b2>>6, b2&63), and keep those below the limit.
@Suite struct SIMDSamplerTests {
    static func scalarChunks(_ bytes: [UInt8]) -> [UInt8] {
        stride(from: 0, to: bytes.count - 2, by: 3).flatMap { i -> [UInt8] in
            let (b0, b1, b2) = (bytes[i], bytes[i + 1], bytes[i + 2])
            return [b0 >> 2, (b0 & 3) << 4 | b1 >> 4, (b1 & 15) << 2 | b2 >> 6, b2 & 63]
        }
    }

    /// Each kernel on its own (SSSE3; AVX-512 VBMI2 in blocks of four groups, with an SSSE3 tail), and
    /// the dispatcher, on group counts that leave every tail length.
    @Test(arguments: [64, 62, 58, 33], [0, 1, 2])
    func matchesScalarExtraction(limit: Int, kernel: Int) throws {
        guard idt_sample6_available() != 0 else { return }
        if kernel == 1 && idt_sample6_avx512_available() == 0 { return }
        for groups in [40, 41, 42, 43, 3] {
            try Self.check(limit: limit, groups: groups, kernel: kernel)
        }
    }

    static func check(limit: Int, groups: Int, kernel: Int) throws {
        var rng = SeededRandom(seed: UInt64(limit * 100 + groups))
        var random = [UInt8](repeating: 0, count: groups * 12 + 4)
        random.withUnsafeMutableBytes { rng.fill($0) }
        let identity = (0..<64).map { UInt8($0) }
        var out = [UInt8](repeating: 0, count: groups * 16 + 64)
        let n = random.withUnsafeBufferPointer { r in
            identity.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in
                    switch kernel {
                    case 0: idt_sample6_ssse3(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    case 1: idt_sample6_avx512(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    default: idt_sample6(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    }
                }
            }
        }
        let expected = Self.scalarChunks(Array(random.prefix(groups * 12))).filter { Int($0) < limit }
        #expect(n == expected.count)
        #expect(Array(out.prefix(n)) == expected)
    }
}

extension SIMDSamplerTests {
    @Test func hexNibblesInOrder() {
        var rng = SeededRandom(seed: 4)
        var random = [UInt8](repeating: 0, count: 64)
        random.withUnsafeMutableBytes { rng.fill($0) }
        let table = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 128)
        random.withUnsafeBufferPointer { r in
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in idt_sample4(r.baseAddress, 4, t.baseAddress, o.baseAddress) }
            }
        }
        let expected = random.flatMap { [table[Int($0 & 15)], table[Int($0 >> 4)]] }
        #expect(out == expected)
    }
}
