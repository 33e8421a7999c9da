internal import CTokens

/// The text encodings of the id formats, written straight into an output buffer.
enum FormatEncoding {
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
    static let crockford: [UInt8] = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    static let base62: [UInt8] = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    /// Nano ID's own ordering of its 64 symbols (`urlAlphabet`).
    static let nanoid: [UInt8] = Array("useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict".utf8)

    /// A 128-bit value as a UUID: 8-4-4-4-12 lower-case hex, 36 bytes.
    @inline(__always)
    static func uuid(_ value: UInt128, into out: UnsafeMutablePointer<UInt8>) {
        hexDigits.withUnsafeBufferPointer { hex in
            var o = 0
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 { out[o] = 0x2D; o += 1 }
                let byte = Int(truncatingIfNeeded: value >> UInt128(8 * (15 - i))) & 0xFF
                out[o] = hex[byte >> 4]
                out[o + 1] = hex[byte & 15]
                o += 2
            }
        }
    }

    /// A 128-bit value in Crockford base32, 26 characters (the first carries the top 3 bits).
    @inline(__always)
    static func crockford(_ value: UInt128, into out: UnsafeMutablePointer<UInt8>) {
        crockford.withUnsafeBufferPointer { digits in
            for i in 0..<26 {
                out[i] = digits[Int(truncatingIfNeeded: value >> UInt128(125 - 5 * i)) & 31]
            }
        }
    }

    /// 20 bytes (a big-endian 160-bit number) in base62, 27 characters, zero-padded: five 32-bit words
    /// divided by 62^5 six times, each remainder giving five digits.
    @inline(__always)
    static func base62(_ bytes: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
        var w = (UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0))
        withUnsafeMutableBytes(of: &w) { raw in
            for j in 0..<5 {
                let word = UInt32(bytes[4 * j]) << 24 | UInt32(bytes[4 * j + 1]) << 16 | UInt32(bytes[4 * j + 2]) << 8 | UInt32(bytes[4 * j + 3])
                raw.storeBytes(of: word, toByteOffset: 4 * j, as: UInt32.self)
            }
        }
        var digits = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &w) { raw in
            let words = raw.bindMemory(to: UInt32.self)
            base62.withUnsafeBufferPointer { alphabet in
                withUnsafeMutableBytes(of: &digits) { d in
                    let text = d.bindMemory(to: UInt8.self)  // 30 digits, most significant first
                    for pass in 0..<6 {
                        var remainder: UInt64 = 0
                        for j in 0..<5 {
                            let acc = remainder << 32 | UInt64(words[j])
                            words[j] = UInt32(truncatingIfNeeded: acc / 916_132_832)  // 62^5
                            remainder = acc % 916_132_832
                        }
                        for k in 0..<5 {
                            text[29 - 5 * pass - k] = alphabet[Int(remainder % 62)]
                            remainder /= 62
                        }
                    }
                    for i in 0..<27 { out[i] = text[3 + i] }
                }
            }
        }
        // The digits and the payload words are the id: leave no copy on the stack.
        digits = (0, 0, 0, 0, 0, 0, 0, 0)
        w = (0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { idt_erase($0.baseAddress, $0.count) }
        withUnsafeMutableBytes(of: &w) { idt_erase($0.baseAddress, $0.count) }
    }
}
