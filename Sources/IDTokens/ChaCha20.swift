/// The ChaCha20 block function (RFC 8439), four blocks at a time in SIMD lanes.
///
/// Lane j of every state vector belongs to block `counter + j`, so one pass of the 20 rounds yields
/// 256 bytes of keystream; the output is written in the standard byte order, block after block, so it
/// can be checked against the RFC's test vectors.
enum ChaCha20 {
    static let blockBytes = 64

    /// Writes `blocks` (a multiple of 4) keystream blocks for `key` (8 little-endian words),
    /// `nonce` (3 words) and the starting block `counter` into `out`.
    static func keystream(
        key: UnsafePointer<UInt32>, nonce: (UInt32, UInt32, UInt32), counter: UInt32,
        blocks: Int, into out: UnsafeMutableRawPointer
    ) {
        precondition(blocks % 4 == 0)
        var block = 0
        while block < blocks {
            fourBlocks(key: key, nonce: nonce, counter: counter &+ UInt32(block), into: out + block * blockBytes)
            block += 4
        }
    }

    @inline(__always)
    private static func rotate(_ x: SIMD4<UInt32>, _ n: UInt32) -> SIMD4<UInt32> {
        (x &<< n) | (x &>> (32 - n))
    }

    @inline(__always)
    private static func quarterRound(
        _ a: inout SIMD4<UInt32>, _ b: inout SIMD4<UInt32>, _ c: inout SIMD4<UInt32>, _ d: inout SIMD4<UInt32>
    ) {
        a &+= b; d ^= a; d = rotate(d, 16)
        c &+= d; b ^= c; b = rotate(b, 12)
        a &+= b; d ^= a; d = rotate(d, 8)
        c &+= d; b ^= c; b = rotate(b, 7)
    }

    private static func fourBlocks(
        key: UnsafePointer<UInt32>, nonce: (UInt32, UInt32, UInt32), counter: UInt32, into out: UnsafeMutableRawPointer
    ) {
        typealias V = SIMD4<UInt32>
        // "expand 32-byte k"
        let s0 = V(repeating: 0x6170_7865), s1 = V(repeating: 0x3320_646e)
        let s2 = V(repeating: 0x7962_2d32), s3 = V(repeating: 0x6b20_6574)
        let s4 = V(repeating: key[0]), s5 = V(repeating: key[1]), s6 = V(repeating: key[2]), s7 = V(repeating: key[3])
        let s8 = V(repeating: key[4]), s9 = V(repeating: key[5]), s10 = V(repeating: key[6]), s11 = V(repeating: key[7])
        let s12 = V(counter, counter &+ 1, counter &+ 2, counter &+ 3)
        let s13 = V(repeating: nonce.0), s14 = V(repeating: nonce.1), s15 = V(repeating: nonce.2)

        var x0 = s0, x1 = s1, x2 = s2, x3 = s3, x4 = s4, x5 = s5, x6 = s6, x7 = s7
        var x8 = s8, x9 = s9, x10 = s10, x11 = s11, x12 = s12, x13 = s13, x14 = s14, x15 = s15
        for _ in 0..<10 {
            quarterRound(&x0, &x4, &x8, &x12)
            quarterRound(&x1, &x5, &x9, &x13)
            quarterRound(&x2, &x6, &x10, &x14)
            quarterRound(&x3, &x7, &x11, &x15)
            quarterRound(&x0, &x5, &x10, &x15)
            quarterRound(&x1, &x6, &x11, &x12)
            quarterRound(&x2, &x7, &x8, &x13)
            quarterRound(&x3, &x4, &x9, &x14)
        }
        // Transpose lanes into consecutive 64-byte blocks.
        @inline(__always) func put(_ v: V, _ i: Int) {
            for lane in 0..<4 {
                out.storeBytes(of: v[lane].littleEndian, toByteOffset: lane * blockBytes + i * 4, as: UInt32.self)
            }
        }
        put(x0 &+ s0, 0); put(x1 &+ s1, 1); put(x2 &+ s2, 2); put(x3 &+ s3, 3)
        put(x4 &+ s4, 4); put(x5 &+ s5, 5); put(x6 &+ s6, 6); put(x7 &+ s7, 7)
        put(x8 &+ s8, 8); put(x9 &+ s9, 9); put(x10 &+ s10, 10); put(x11 &+ s11, 11)
        put(x12 &+ s12, 12); put(x13 &+ s13, 13); put(x14 &+ s14, 14); put(x15 &+ s15, 15)
    }
}
