import CTokens
import IDTokens
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SIMD sampler must cut random bytes into exactly the 6-bit chunks a scalar reading gives
/// (each 3 bytes b0 b1 b2 → b0>>2, (b0&3)<<4|b1>>4, (b1&15)<<2|b2>>6, b2&63), and keep those below the limit.
@Suite struct SIMDSamplerTests {
    static func scalarChunks(_ bytes: [UInt8]) -> [UInt8] {
        stride(from: 0, to: bytes.count - 2, by: 3).flatMap { i -> [UInt8] in
            let (b0, b1, b2) = (bytes[i], bytes[i + 1], bytes[i + 2])
            return [b0 >> 2, (b0 & 3) << 4 | b1 >> 4, (b1 & 15) << 2 | b2 >> 6, b2 & 63]
        }
    }

    /// The kernels: 0 SSSE3, 1 AVX-512 VBMI2 (blocks of four groups, the last one a masked load), 2 the dispatcher,
    /// 3 AVX2 (pairs of groups, SSSE3 tail), 4 the portable C loop, 5 NEON (blocks of four groups, scalar
    /// tail). Each runs only where the CPU has it.
    static let kernels = [0, 1, 2, 3, 4, 5]

    static func runs(_ kernel: Int) -> Bool {
        switch kernel {
        case 0: idt_sample6_available() != 0
        case 1: idt_sample6_avx512_available() != 0
        case 3: idt_sample6_avx2_available() != 0
        case 5: idt_sample6_neon_available() != 0
        default: true
        }
    }

    /// Every limit 1…64, on group counts that leave every tail length (and none at all).
    @Test(arguments: Array(1...64), kernels)
    func matchesScalarExtraction(limit: Int, kernel: Int) throws {
        guard Self.runs(kernel) else { return }
        for groups in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 40, 41, 42, 43] {
            try Self.check(limit: limit, groups: groups, kernel: kernel)
        }
    }

    /// Inputs that are all ones or all zeros bits (every chunk 63, every chunk 0) at every limit.
    @Test(arguments: [UInt8(0x00), 0xff, 0x55, 0xaa], kernels)
    func constantInputs(byte: UInt8, kernel: Int) throws {
        guard Self.runs(kernel) else { return }
        for limit in 1...64 {
            try Self.check(limit: limit, groups: 42, kernel: kernel, fill: byte)
        }
    }

    static func check(limit: Int, groups: Int, kernel: Int, fill: UInt8? = nil) throws {
        var rng = SeededRandom(seed: UInt64(limit * 100 + groups))
        var random = [UInt8](repeating: fill ?? 0, count: groups * 12 + 4)
        if fill == nil { random.withUnsafeMutableBytes { rng.fill($0) } }
        // Symbols 100…163: no symbol is 0 or the 0xee the output starts as.
        let table = (0..<64).map { UInt8(100 + $0) }
        var out = [UInt8](repeating: 0xee, count: groups * 16 + 64)
        let n = random.withUnsafeBufferPointer { r in
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in
                    switch kernel {
                    case 0: idt_sample6_ssse3(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    case 1: idt_sample6_avx512(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    case 3: idt_sample6_avx2(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    case 4: idt_sample6_scalar(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    case 5: idt_sample6_neon(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    default: idt_sample6(r.baseAddress, groups, t.baseAddress, UInt8(limit), o.baseAddress)
                    }
                }
            }
        }
        let expected = Self.scalarChunks(Array(random.prefix(groups * 12))).filter { Int($0) < limit }.map { $0 + 100 }
        #expect(n == expected.count, "kernel \(kernel), limit \(limit), \(groups) groups")
        #expect(Array(out.prefix(n)) == expected, "kernel \(kernel), limit \(limit), \(groups) groups")
        // Past the accepted symbols a kernel writes only zeros: no rejected or repeated symbol is left.
        #expect(out[n...].allSatisfy { $0 == 0 || $0 == 0xee }, "kernel \(kernel), limit \(limit), \(groups) groups")
    }

    /// The dispatcher runs the kernel IDTOKENS_SAMPLER names when the CPU has it, else the best there
    /// is (CI runs the suite again under IDTOKENS_SAMPLER=avx2, where this asserts "avx2").
    @Test func forcedKernelIsTheOneInUse() {
        let best =
            idt_sample6_avx512_available() != 0
            ? "avx512"
            : idt_sample6_avx2_available() != 0
                ? "avx2"
                : idt_sample6_available() != 0
                    ? "ssse3"
                    : idt_sample6_neon_available() != 0 ? "neon" : "scalar"
        let has = [
            "avx512": idt_sample6_avx512_available() != 0, "avx2": idt_sample6_avx2_available() != 0,
            "ssse3": idt_sample6_available() != 0, "neon": idt_sample6_neon_available() != 0, "scalar": true,
        ]
        let name = String(cString: idt_sample6_kernel_name())
        if let v = getenv("IDTOKENS_SAMPLER"), let wanted = Optional(String(cString: v)), has[wanted] == true {
            #expect(name == wanted)
        } else {
            #expect(name == best)
        }
    }
}

extension SIMDSamplerTests {
    @Test(arguments: [1, 2, 3, 4, 31])
    func hexNibblesInOrder(groups: Int) {
        var rng = SeededRandom(seed: 4)
        var random = [UInt8](repeating: 0, count: 16 * groups)
        random.withUnsafeMutableBytes { rng.fill($0) }
        let table = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 32 * groups)
        random.withUnsafeBufferPointer { r in
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in idt_sample4(r.baseAddress, groups, t.baseAddress, o.baseAddress) }
            }
        }
        let expected = random.flatMap { [table[Int($0 & 15)], table[Int($0 >> 4)]] }
        #expect(out == expected)
    }
}

/// The whole-byte sampler (`idt_sample8`): byte b < limit becomes symbols[b], in order, the rest are dropped.
extension SIMDSamplerTests {
    /// 0 the AVX-512 kernel (the scalar loop where the CPU lacks it), 1 the portable loop, 2 the
    /// dispatcher, 3 the AVX2 kernel (the scalar loop where the CPU lacks it).
    @Test(arguments: [0, 1, 2, 3])
    func wholeBytesMatchTheDefinition(kernel: Int) {
        // Symbols 1…255 then 7: a byte maps to a symbol other than itself, and none is 0xee. No
        // period: the kernels are told period = limit.
        let table = (0..<256).map { UInt8(truncatingIfNeeded: $0 == 0xed ? 7 : $0 + 1) }
        for limit in [1, 2, 35, 36, 62, 128, 129, 200, 252, 255, 256] {
            for count in [0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 191, 496, 500] {
                check(kernel: kernel, table: table, limit: limit, period: limit, count: count)
            }
        }
    }

    /// Tables that repeat with the alphabet's size n (the sampler's, symbols[b mod n] below
    /// n·⌊256/n⌋, and the cuid2 letters' 26 below 234): the AVX2 kernel reduces b mod n first. Every
    /// n from 1 to 256, so every reciprocal the reduction uses is checked against the definition.
    @Test(arguments: [0, 1, 2, 3])
    func periodicTablesMatchTheDefinition(kernel: Int) {
        for n in 1...256 {
            let limit = n * (256 / n)
            // Distinct symbols 0x21…, wrapping past 0xed so that none is 0xee.
            let table = (0..<256).map { b in UInt8(truncatingIfNeeded: b < limit ? 0x21 + (b % n) * 7 % 251 : 0) }
            for count in [33, 496] { check(kernel: kernel, table: table, limit: limit, period: n, count: count) }
            if n > 1 && limit > n {
                check(kernel: kernel, table: table, limit: limit - n, period: n, count: 496)
            }
        }
    }

    private func check(kernel: Int, table: [UInt8], limit: Int, period: Int, count: Int) {
        var rng = SeededRandom(seed: UInt64(limit * 1000 + count + period * 1_000_000))
        var random = [UInt8](repeating: 0, count: count)
        random.withUnsafeMutableBytes { rng.fill($0) }
        if count == 496 {
            random[0] = 0
            random[1] = 255
            random[2] = UInt8(limit - 1)
            random[3] = UInt8(limit & 255)
        }
        var out = [UInt8](repeating: 0xee, count: count + 64)
        let (l, p) = (UInt32(limit), UInt32(period))
        let n = random.withUnsafeBufferPointer { r in
            table.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in
                    switch kernel {
                    case 0: idt_sample8_avx512(r.baseAddress, count, t.baseAddress, l, p, o.baseAddress)
                    case 1: idt_sample8_scalar(r.baseAddress, count, t.baseAddress, l, p, o.baseAddress)
                    case 3: idt_sample8_avx2(r.baseAddress, count, t.baseAddress, l, p, o.baseAddress)
                    default: idt_sample8(r.baseAddress, count, t.baseAddress, l, p, o.baseAddress)
                    }
                }
            }
        }
        let expected = random.filter { Int($0) < limit }.map { table[Int($0)] }
        let what = "kernel \(kernel), limit \(limit), period \(period), \(count) bytes"
        #expect(n == expected.count, "\(what)")
        #expect(Array(out.prefix(n)) == expected, "\(what)")
        #expect(out[n...].allSatisfy { $0 == 0 || $0 == 0xee }, "\(what)")
    }

    /// The dispatcher takes the AVX-512 kernel exactly when idt_sample6 does, the AVX2 one when it
    /// takes AVX2, else the portable loop.
    @Test func wholeBytesFollowTheSixBitChoice() {
        let six = String(cString: idt_sample6_kernel_name())
        #expect(idt_sample8_simd() == (six == "avx512" ? 2 : six == "avx2" ? 1 : 0))
    }
}
