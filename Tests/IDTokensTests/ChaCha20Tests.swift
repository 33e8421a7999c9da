import CTokens
import Foundation
import Testing

@testable import IDTokens

@Suite struct ChaCha20Tests {
    /// RFC 8439 §2.3.2: key 00 01 … 1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, block counter 1.
    /// Blocks 2–40 of the same stream came from Python's `cryptography` ChaCha20 (OpenSSL).
    static let expected = [
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
    ]

    static func keystream(blocks: Int) -> [UInt8] {
        // Bytes 00 01 … 1f read as little-endian words.
        var key: [UInt32] = (0..<8).map { (i: Int) -> UInt32 in
            let b = UInt32(4 * i)
            return b | (b + 1) << 8 | (b + 2) << 16 | (b + 3) << 24
        }
        var out = [UInt8](repeating: 0, count: blocks * 64)
        key.withUnsafeMutableBufferPointer { k in
            out.withUnsafeMutableBytes { o in
                ChaCha20.keystream(
                    key: k.baseAddress!, nonce: (0x0900_0000, 0x4a00_0000, 0), counter: 1, blocks: blocks, into: o.baseAddress!)
            }
        }
        return out
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func rfc8439BlockFunction() {
        #expect(Self.hex(Self.keystream(blocks: 8).prefix(64)) == Self.expected[0])
    }

    @Test func laterBlocksMatchOpenSSL() throws {
        let stream = Self.keystream(blocks: 8)
        #expect(Self.hex(stream[64..<128]) == ChaCha20Vectors.block2)
        #expect(Self.hex(stream[448..<512]) == ChaCha20Vectors.block8)
    }
}

extension ChaCha20Tests {
    /// Any block count, not only multiples of the kernel's lanes: each is a prefix of one long stream.
    @Test func anyBlockCountIsAPrefixOfTheStream() {
        let long = Self.keystream(blocks: 24)
        for blocks in 1...17 {
            #expect(Self.keystream(blocks: blocks) == Array(long.prefix(64 * blocks)), "\(blocks) blocks")
        }
    }
}

extension ChaCha20Tests {
    /// Forty blocks in one call: the 16-block kernel (where the CPU has AVX-512F and IDTOKENS_SAMPLER
    /// does not name a narrower one) writes 1–16 and 17–32, the 8-block one 33–40; each block where a
    /// kernel's lanes start, end or meet, against OpenSSL.
    @Test func widestKernelMatchesOpenSSL() {
        let stream = Self.keystream(blocks: 40)
        func block(_ k: Int) -> String { Self.hex(stream[(64 * (k - 1))..<(64 * k)]) }
        #expect(block(5) == ChaCha20Vectors.block5)
        #expect(block(9) == ChaCha20Vectors.block9)
        #expect(block(16) == ChaCha20Vectors.block16)
        #expect(block(17) == ChaCha20Vectors.block17)
        #expect(block(32) == ChaCha20Vectors.block32)
        #expect(block(33) == ChaCha20Vectors.block33)
        #expect(block(40) == ChaCha20Vectors.block40)
    }
}

extension ChaCha20Tests {
    /// IDTOKENS_SAMPLER=avx2 (CI's second pass) keeps the keystream on the AVX2 kernel as well.
    @Test func forcedNarrowKernel() {
        let name = String(cString: idt_chacha20_kernel_name())
        #expect(["avx512", "avx2", "sse2", "neon"].contains(name))
        if ProcessInfo.processInfo.environment["IDTOKENS_SAMPLER"] == "avx2" { #expect(name == "avx2") }
    }
}
