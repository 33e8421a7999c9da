/// A 128-bit fingerprint of a byte string (the MurmurHash3 x64-128 construction).
///
/// The audit keeps fingerprints, not strings: 16 bytes per distinct id whatever its length. Among
/// 10⁸ distinct ids, two different ids share a 126-bit fingerprint with probability about 10¹⁶/2¹²⁷,
/// about 10⁻²². Not a cryptographic hash: the audit is for honest streams, not adversarial ones.
struct Fingerprint: Hashable {
    var high: UInt64
    var low: UInt64

    @inline(__always)
    private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always)
    private static func finalMix(_ k: UInt64) -> UInt64 {
        var k = k
        k ^= k >> 33
        k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33
        k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }

    init(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0x6964_6275_6467_6574) {
        let c1: UInt64 = 0x87c3_7b91_1142_53d5, c2: UInt64 = 0x4cf5_ad43_2745_937f
        var h1 = seed, h2 = seed
        let n = bytes.count
        var i = 0
        while i + 16 <= n {
            var k1 = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
            var k2 = bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self).littleEndian
            k1 &*= c1; k1 = Self.rotl(k1, 31); k1 &*= c2; h1 ^= k1
            h1 = Self.rotl(h1, 27); h1 &+= h2; h1 = h1 &* 5 &+ 0x52dc_e729
            k2 &*= c2; k2 = Self.rotl(k2, 33); k2 &*= c1; h2 ^= k2
            h2 = Self.rotl(h2, 31); h2 &+= h1; h2 = h2 &* 5 &+ 0x3849_5ab5
            i += 16
        }
        // Tail: up to 15 bytes, little-endian into two words.
        var k1: UInt64 = 0, k2: UInt64 = 0
        var j = n - 1
        while j >= i {
            let b = UInt64(bytes[j])
            if j - i >= 8 { k2 = (k2 << 8) | b } else { k1 = (k1 << 8) | b }
            j -= 1
        }
        if n - i > 8 { k2 &*= c2; k2 = Self.rotl(k2, 33); k2 &*= c1; h2 ^= k2 }
        if n - i > 0 { k1 &*= c1; k1 = Self.rotl(k1, 31); k1 &*= c2; h1 ^= k1 }
        h1 ^= UInt64(n); h2 ^= UInt64(n)
        h1 &+= h2; h2 &+= h1
        h1 = Self.finalMix(h1); h2 = Self.finalMix(h2)
        h1 &+= h2; h2 &+= h1
        high = h1
        low = h2
    }
}

/// A set of fingerprints in one flat open-addressing table (linear probing, load ≤ 0.8), which also
/// remembers which fingerprints it has seen more than once.
///
/// Memory: 16 bytes per slot, slots a power of two ≥ distinct/0.8; while growing, the old table (half
/// the size) is alive too. For 10⁸ distinct ids: 2^27 slots = 2 GiB, 3 GiB at the peak of the last growth.
final class FingerprintSet {
    enum Outcome { case new, firstRepeat, laterRepeat }

    // Two bits of `high` are taken: the lowest is forced to 1 so an empty slot (0, 0) is never a
    // fingerprint, the highest marks "seen again". 126 bits of hash remain.
    private static let repeatFlag: UInt64 = 1 << 63
    private var slots: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        slots = .allocate(capacity: 2 * capacity)
        slots.initialize(repeating: 0, count: 2 * capacity)
    }

    deinit { slots.deallocate() }

    var bytesAllocated: Int { 16 * capacity }

    func insert(_ f: Fingerprint) -> Outcome {
        if count * 5 >= capacity * 4 { grow() }
        let high = (f.high | 1) & ~Self.repeatFlag
        var i = Int(truncatingIfNeeded: f.low) & (capacity - 1)
        while true {
            let h = slots[2 * i]
            if h == 0 {
                slots[2 * i] = high
                slots[2 * i + 1] = f.low
                count += 1
                return .new
            }
            if h & ~Self.repeatFlag == high && slots[2 * i + 1] == f.low {
                if h & Self.repeatFlag != 0 { return .laterRepeat }
                slots[2 * i] = h | Self.repeatFlag
                return .firstRepeat
            }
            i = (i + 1) & (capacity - 1)
        }
    }

    private func grow() {
        let old = slots, oldCapacity = capacity
        capacity *= 2
        slots = .allocate(capacity: 2 * capacity)
        slots.initialize(repeating: 0, count: 2 * capacity)
        for j in 0..<oldCapacity where old[2 * j] != 0 {
            var i = Int(truncatingIfNeeded: old[2 * j + 1]) & (capacity - 1)
            while slots[2 * i] != 0 { i = (i + 1) & (capacity - 1) }
            slots[2 * i] = old[2 * j]
            slots[2 * i + 1] = old[2 * j + 1]
        }
        old.deallocate()
    }
}
