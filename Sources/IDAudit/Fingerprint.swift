import IDBudget

/// A 128-bit fingerprint of a byte string (the MurmurHash3 x64-128 construction).
///
/// The audit keeps fingerprints, not strings: 16 bytes per distinct id whatever its length, of which
/// 119 bits are hash (see `FingerprintTable`). Among 10⁹ distinct ids, two different ids share one with
/// probability about 10¹⁸/2¹²⁰ ≈ 10⁻¹⁸. Not a cryptographic hash: the audit is for honest streams,
/// not adversarial ones.
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
        let c1: UInt64 = 0x87c3_7b91_1142_53d5
        let c2: UInt64 = 0x4cf5_ad43_2745_937f
        var h1 = seed
        var h2 = seed
        let n = bytes.count
        var i = 0
        while i + 16 <= n {
            var k1 = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
            var k2 = bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self).littleEndian
            k1 &*= c1
            k1 = Self.rotl(k1, 31)
            k1 &*= c2
            h1 ^= k1
            h1 = Self.rotl(h1, 27)
            h1 &+= h2
            h1 = h1 &* 5 &+ 0x52dc_e729
            k2 &*= c2
            k2 = Self.rotl(k2, 33)
            k2 &*= c1
            h2 ^= k2
            h2 = Self.rotl(h2, 31)
            h2 &+= h1
            h2 = h2 &* 5 &+ 0x3849_5ab5
            i += 16
        }
        // Tail: up to 15 bytes, little-endian into two words.
        var k1: UInt64 = 0
        var k2: UInt64 = 0
        var j = n - 1
        while j >= i {
            let b = UInt64(bytes[j])
            if j - i >= 8 { k2 = (k2 << 8) | b } else { k1 = (k1 << 8) | b }
            j -= 1
        }
        if n - i > 8 {
            k2 &*= c2
            k2 = Self.rotl(k2, 33)
            k2 &*= c1
            h2 ^= k2
        }
        if n - i > 0 {
            k1 &*= c1
            k1 = Self.rotl(k1, 31)
            k1 &*= c2
            h1 ^= k1
        }
        h1 ^= UInt64(n)
        h2 ^= UInt64(n)
        h1 &+= h2
        h2 &+= h1
        h1 = Self.finalMix(h1)
        h2 = Self.finalMix(h2)
        h1 &+= h2
        h2 &+= h1
        high = h1
        low = h2
    }
}
