internal import CTokens

/// A buffered ChaCha20 keystream with fast key erasure, the core of ``SecureRandom`` and ``SeededRandom``.
///
/// Each refill runs ChaCha20 under the current key for 4 KiB, takes the first 32 bytes as the next key
/// and erases them (Bernstein's fast-key-erasure construction): a memory dump reveals nothing already
/// handed out. When secure, the key is drawn from the kernel (`getrandom`) on first use, fresh kernel
/// entropy is mixed in every ``reseedInterval`` bytes, and the state lives in pages marked
/// `MADV_WIPEONFORK`: a forked child finds them zeroed and reseeds instead of repeating its parent's
/// stream. Where the kernel lacks that, the process id is compared on every call instead.
final class Keystream {
    static let bufferBytes = 4096
    static let reseedInterval = 1 << 20

    // Layout of the state pages.
    private static let magicOffset = 0, positionOffset = 8, sinceReseedOffset = 16, pidOffset = 24
    private static let keyOffset = 64, bufferOffset = 128
    private static let pageBytes = 8192
    private static let magic: UInt64 = 0x6964_6275_6467_6574  // non-zero: "seeded"

    private let page: UnsafeMutableRawPointer
    private let mapped: Bool
    private let secure: Bool
    private let wipesOnFork: Bool

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
    init() {
        var wipes: Int32 = 0
        if let p = idt_map_private(Self.pageBytes, &wipes) {
            page = p
            mapped = true
        } else {
            page = .allocate(byteCount: Self.pageBytes, alignment: 64)
            page.initializeMemory(as: UInt8.self, repeating: 0, count: Self.pageBytes)
            mapped = false
        }
        wipesOnFork = mapped && wipes != 0
        secure = true
    }

    /// A deterministic stream from a 64-bit seed. Not secure: anyone who knows the seed knows the stream.
    init(seed: UInt64) {
        page = .allocate(byteCount: Self.pageBytes, alignment: 64)
        page.initializeMemory(as: UInt8.self, repeating: 0, count: Self.pageBytes)
        mapped = false
        wipesOnFork = false
        secure = false
        key[0] = UInt32(truncatingIfNeeded: seed)
        key[1] = UInt32(truncatingIfNeeded: seed >> 32)
        page.storeBytes(of: Self.magic, toByteOffset: Self.magicOffset, as: UInt64.self)
    }

    deinit {
        if mapped {
            idt_unmap(page, Self.pageBytes)
        } else {
            page.initializeMemory(as: UInt8.self, repeating: 0, count: Self.pageBytes)
            page.deallocate()
        }
    }

    /// Eight random bytes.
    @inline(__always)
    func next() -> UInt64 {
        var p = position
        // p is 0 before the first refill and in a forked child (wiped page): both take the slow path.
        if _slowPath(p == 0 || p > Self.bufferBytes - 8 || (!wipesOnFork && secure && forked)) {
            refill()
            p = position
        }
        position = p + 8
        return buffer.loadUnaligned(fromByteOffset: p, as: UInt64.self)
    }

    /// Fills `destination` with random bytes.
    func fill(_ destination: UnsafeMutableRawBufferPointer) {
        guard var out = destination.baseAddress else { return }
        var remaining = destination.count
        if !wipesOnFork && secure && forked { refill() }
        while remaining > 0 {
            var p = position
            if p == 0 || p == Self.bufferBytes {
                refill()
                p = position
            }
            let n = Swift.min(remaining, Self.bufferBytes - p)
            out.copyMemory(from: buffer + p, byteCount: n)
            // Bytes handed out are erased so they cannot be read back from this state.
            (buffer + p).initializeMemory(as: UInt8.self, repeating: 0, count: n)
            position = p + n
            out += n
            remaining -= n
        }
    }

    private var forked: Bool {
        page.load(fromByteOffset: Self.pidOffset, as: Int.self) != idt_process_id()
    }

    private func refill() {
        if secure {
            let seeded = page.load(fromByteOffset: Self.magicOffset, as: UInt64.self) == Self.magic
            if !seeded || (!wipesOnFork && forked) {
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
        precondition(ok == 0, "getrandom failed: no secure randomness available")
        withUnsafeBytes(of: &fresh) { raw in
            for i in 0..<8 {
                let word = raw.load(fromByteOffset: i * 4, as: UInt32.self)
                key[i] = replacing ? word : key[i] ^ word
            }
        }
        fresh = (0, 0, 0, 0)
        sinceReseed = 0
        page.storeBytes(of: Int(idt_process_id()), toByteOffset: Self.pidOffset, as: Int.self)
        page.storeBytes(of: Self.magic, toByteOffset: Self.magicOffset, as: UInt64.self)
    }
}
