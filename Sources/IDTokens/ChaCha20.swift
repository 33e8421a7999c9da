internal import CTokens

/// The ChaCha20 block function (RFC 8439), computed by a small C kernel several blocks at a time
/// (16 with AVX-512F, 8 with AVX2, else 4 with SSE2 or NEON); output is in the standard byte order, block after block, so it
/// can be checked against the RFC's test vectors.
///
/// The kernel is in C because Swift's optimizer turns SIMD rotations into scalar `rol`s on x86-64
/// without AVX-512, several times slower than the C kernel (the benchmarks compare them).
enum ChaCha20 {
    static let blockBytes = 64

    /// Writes `blocks` keystream blocks for `key` (8 little-endian words), `nonce` (3 words) and the
    /// starting block `counter` into `out`.
    static func keystream(
        key: UnsafePointer<UInt32>, nonce: (UInt32, UInt32, UInt32), counter: UInt32,
        blocks: Int, into out: UnsafeMutableRawPointer
    ) {
        withUnsafeBytes(of: nonce) { n in
            idt_chacha20_blocks(
                key, n.baseAddress!.assumingMemoryBound(to: UInt32.self), counter, blocks,
                out.assumingMemoryBound(to: UInt8.self))
        }
    }
}
