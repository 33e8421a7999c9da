internal import CTokens

/// A cryptographically secure random number generator: ChaCha20 keyed from the kernel, buffered.
///
/// Much faster than `SystemRandomNumberGenerator`, which on Linux makes one `getrandom` call per
/// eight bytes. Rekeyed after every 4 KiB (fast key erasure), reseeded from the kernel every MiB, and
/// safe across `fork()`; bytes are erased from its buffer as they are handed out. Copies share one
/// stream. Not thread-safe: use one per thread or task (or ``SharedTokenGenerator`` for tokens).
public struct SecureRandom: RandomNumberGenerator {
    let stream: Keystream

    public init() { stream = Keystream() }

    /// Which system layer this build uses: `"linux"` (the Linux fast path: `getrandom`, wipe-on-fork
    /// pages) or `"portable"` (every other system, and Linux built with `-DIDTOKENS_PORTABLE`:
    /// `arc4random_buf` or `getentropy`, the fork claim and a `pthread_atfork` reseed).
    public static var systemLayer: String { String(cString: idt_platform_name()) }

    /// The SIMD kernels this process runs, chosen for its CPU (or forced by `IDTOKENS_SAMPLER` and
    /// `IDTOKENS_ENCODER`): the ChaCha20 keystream's, the symbol sampler's and KSUID's base62
    /// encoder's; and the counter the time-ordered formats' clock reads between reads of the real-time
    /// clock (`tsc`, `cntvct`, or `realtime`: none, as with `IDTOKENS_CLOCK=realtime`). For example
    /// `"keystream avx512, sampler avx512, base62 avx512, clock tsc"`.
    public static var kernels: String {
        "keystream \(String(cString: idt_chacha20_kernel_name())), sampler \(String(cString: idt_sample6_kernel_name())), "
            + "base62 \(String(cString: idt_base62_160_kernel_name())), clock \(String(cString: idt_clock_counter_name()))"
    }

    init(forkProtection: ForkProtection) { stream = Keystream(forkProtection: forkProtection) }

    public mutating func next() -> UInt64 { stream.next() }

    /// Fills `buffer` with random bytes.
    public mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) { stream.fill(buffer) }
}

/// A reproducible generator for tests and demos: ChaCha20 keyed by a 64-bit seed.
///
/// **Not secure**: the seed determines every output, and 64 bits can be searched.
public struct SeededRandom: RandomNumberGenerator {
    let stream: Keystream

    public init(seed: UInt64) { stream = Keystream(seed: seed) }

    public mutating func next() -> UInt64 { stream.next() }

    public mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) { stream.fill(buffer) }
}

/// Generators that can hand out many bytes at once, which the token generator prefers.
protocol BulkRandom {
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer)
}

extension SecureRandom: BulkRandom {}
extension SeededRandom: BulkRandom {}
