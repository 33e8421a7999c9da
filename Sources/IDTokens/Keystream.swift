internal import CTokens

/// A buffered ChaCha20 keystream with fast key erasure, the core of ``SecureRandom`` and ``SeededRandom``.
///
/// Each refill runs ChaCha20 under the current key for 4 KiB, takes the first 32 bytes as the next key
/// and erases them (Bernstein's fast-key-erasure construction), and every byte handed out is erased
/// from the buffer: the state holds the key and output not yet handed out, never what was handed out.
/// When secure, the key is drawn from the kernel on first use, fresh kernel entropy is mixed in every
/// ``reseedInterval`` bytes, and the state lives in a ``StateRegion``: a forked child finds it empty
/// (wipe-on-fork) or, without wipe-on-fork, every draw first claims it (``StateRegion/inherited``), so
/// after any fork — a raw `syscall(SYS_fork)` included — only one of parent and child goes on with the
/// stream and the other reseeds from the kernel instead of repeating it.
final class Keystream {
    static let bufferBytes = 4096
    static let reseedInterval = 1 << 20

    // Layout of the region's body.
    private static let magicOffset = 0, positionOffset = 8, sinceReseedOffset = 16
    private static let keyOffset = 64, bufferOffset = 128
    private static let magic: UInt64 = 0x6964_6275_6467_6574  // non-zero: "seeded"

    let region: StateRegion
    private let page: UnsafeMutableRawPointer
    private let secure: Bool

    private var buffer: UnsafeMutableRawPointer { page + Self.bufferOffset }
    private var key: UnsafeMutablePointer<UInt32> { (page + Self.keyOffset).assumingMemoryBound(to: UInt32.self) }

    private var position: Int {
        get { page.load(fromByteOffset: Self.positionOffset, as: Int.self) }
        set { page.storeBytes(of: newValue, toByteOffset: Self.positionOffset, as: Int.self) }
    }

    private var sinceReseed: Int {
        get { page.load(fromByteOffset: Self.sinceReseedOffset, as: Int.self) }
        set { page.storeBytes(of: newValue, toByteOffset: Self.sinceReseedOffset, as: Int.self) }
    }

    /// A kernel-seeded, fork-safe stream.
    init(forkProtection: ForkProtection = .automatic) {
        region = StateRegion(bytes: Self.bufferOffset + Self.bufferBytes, protection: forkProtection)
        page = region.body
        secure = true
    }

    /// A deterministic stream from a 64-bit seed. Not secure: anyone who knows the seed knows the stream.
    init(seed: UInt64) {
        region = StateRegion(bytes: Self.bufferOffset + Self.bufferBytes, protection: .none)
        page = region.body
        secure = false
        key[0] = UInt32(truncatingIfNeeded: seed)
        key[1] = UInt32(truncatingIfNeeded: seed >> 32)
        page.storeBytes(of: Self.magic, toByteOffset: Self.magicOffset, as: UInt64.self)
    }

    /// Eight random bytes, erased from the buffer as they are handed out.
    @inline(__always)
    func next() -> UInt64 {
        var p = position
        // p is 0 before the first refill and in a forked child (wiped page): both take the slow path.
        if _slowPath(p == 0 || p > Self.bufferBytes - 8 || region.inherited) {
            refill()
            p = position
        }
        position = p + 8
        let value = buffer.loadUnaligned(fromByteOffset: p, as: UInt64.self)
        buffer.storeBytes(of: 0, toByteOffset: p, as: UInt64.self)
        return value
    }

    /// Fills `destination` with random bytes, erasing them from the buffer.
    func fill(_ destination: UnsafeMutableRawBufferPointer) {
        guard var out = destination.baseAddress else { return }
        var remaining = destination.count
        if region.inherited { refill() }
        while remaining > 0 {
            var p = position
            if p == 0 || p == Self.bufferBytes {
                refill()
                p = position
            }
            let n = Swift.min(remaining, Self.bufferBytes - p)
            out.copyMemory(from: buffer + p, byteCount: n)
            (buffer + p).initializeMemory(as: UInt8.self, repeating: 0, count: n)
            position = p + n
            out += n
            remaining -= n
        }
    }

    /// Bytes one refill can hand out: the buffer less the 32 that become the next key.
    static let usableBytes = bufferBytes - 32

    /// Hands `body` the next `count` (at most ``usableBytes``) random bytes in place, contiguous, and
    /// erases them afterwards: the same stream as ``fill(_:)`` without copying it. Bytes left at the end
    /// of a refill too few for `count` are skipped.
    @inline(__always)
    func withNextBytes<R>(_ count: Int, _ body: (UnsafePointer<UInt8>) -> R) -> R {
        var p = position
        if _slowPath(p == 0 || p + count > Self.bufferBytes || region.inherited) {
            refill()
            p = position
        }
        let result = body(UnsafePointer((buffer + p).assumingMemoryBound(to: UInt8.self)))
        (buffer + p).initializeMemory(as: UInt8.self, repeating: 0, count: count)
        position = p + count
        return result
    }

    private func refill() {
        if secure {
            let seeded = page.load(fromByteOffset: Self.magicOffset, as: UInt64.self) == Self.magic
            if !seeded || region.inherited {
                reseed(replacing: true)
            } else if sinceReseed >= Self.reseedInterval {
                reseed(replacing: false)
            }
        }
        ChaCha20.keystream(key: key, nonce: (0, 0, 0), counter: 0, blocks: Self.bufferBytes / ChaCha20.blockBytes, into: buffer)
        // Fast key erasure: the first 32 bytes become the next key and are never output.
        (page + Self.keyOffset).copyMemory(from: buffer, byteCount: 32)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 32)
        position = 32
        sinceReseed += Self.bufferBytes
    }

    /// Takes a new key from the kernel, or mixes kernel bytes into the current one.
    private func reseed(replacing: Bool) {
        var fresh = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let ok = withUnsafeMutableBytes(of: &fresh) { idt_kernel_random($0.baseAddress, 32) }
        // Not a precondition: this check must survive -Ounchecked.
        if ok != 0 { fatalError("idbudget: no secure randomness available (the kernel's random source and /dev/urandom failed)") }
        withUnsafeBytes(of: &fresh) { raw in
            for i in 0..<8 {
                let word = raw.load(fromByteOffset: i * 4, as: UInt32.self)
                key[i] = replacing ? word : key[i] ^ word
            }
        }
        withUnsafeMutableBytes(of: &fresh) { idt_erase($0.baseAddress, 32) }
        sinceReseed = 0
        page.storeBytes(of: Self.magic, toByteOffset: Self.magicOffset, as: UInt64.self)
        region.stamp()
    }
}
