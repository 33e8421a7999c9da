/// The text encodings of the id formats, written straight into an output buffer.
enum FormatEncoding {
    // The symbols come from the vocabulary (IDFormats): built-in alphabets are single-byte.
    static let hexDigits: [UInt8] = IDFormat.uuid4.alphabet.bytes ?? []
    static let crockford: [UInt8] = IDFormat.ulid.alphabet.bytes ?? []
    /// Nano ID's own ordering of its 64 symbols (`urlAlphabet`).
    static let nanoid: [UInt8] = IDFormat.nanoid.alphabet.bytes ?? []
    static let base36: [UInt8] = IDFormat.cuid2.alphabet.bytes ?? []
    static let base32hex: [UInt8] = IDFormat.xid.alphabet.bytes ?? []
    static let firebaseSymbols: [UInt8] = IDFormat.firebase.alphabet.bytes ?? []

    /// A format's number (``IDGenerator/value(checked:now:)``) as its text; returns the bytes written
    /// (a decimal id has no leading zeros, so fewer than `IDFormat.length` for small values).
    @inline(__always)
    static func text(_ v: UInt128, _ format: IDFormat, into out: UnsafeMutablePointer<UInt8>) -> Int {
        switch format {
        case .ulid:
            crockford(v, into: out)
        case .xid:
            xid(v, into: out, pairs: base32hexPairs)
        case .objectid:
            objectid(v, into: out, pairs: hexPairs)
        case .tsid:
            // 64 bits as 13 Crockford digits (65 bits: the first holds four).
            crockford.withUnsafeBufferPointer { symbols in
                for i in 0..<13 { out[i] = symbols[Int(truncatingIfNeeded: v >> UInt128(5 * (12 - i))) & 31] }
            }
        case .snowflake, .discord, .instagram, .sonyflake:
            return decimal(UInt64(truncatingIfNeeded: v), into: out)
        default:
            uuid(v, into: out)
        }
        return format.length
    }

    /// An xid's 96 bits as 20 base32hex digits of 5 bits, the last holding one bit and four zeros:
    /// ten bits (two digits) a store.
    @inline(__always)
    static func xid(_ v: UInt128, into out: UnsafeMutablePointer<UInt8>, pairs table: UnsafeMutablePointer<UInt16>) {
        tenBitPairs(v << 4, count: 10, into: out, pairs: table)
    }

    /// An ObjectId's 96 bits as 24 lower-case hex digits, a byte (two digits) a store.
    @inline(__always)
    static func objectid(_ v: UInt128, into out: UnsafeMutablePointer<UInt8>, pairs table: UnsafeMutablePointer<UInt16>) {
        let raw = UnsafeMutableRawPointer(out)
        let hi = UInt64(truncatingIfNeeded: v >> 64)  // the top 32 of the 96 bits
        let lo = UInt64(truncatingIfNeeded: v)
        for i in 0..<4 {
            raw.storeBytes(
                of: table[Int(truncatingIfNeeded: hi >> UInt64(24 - 8 * i)) & 0xFF].littleEndian, toByteOffset: 2 * i, as: UInt16.self)
        }
        for i in 0..<8 {
            raw.storeBytes(
                of: table[Int(truncatingIfNeeded: lo >> UInt64(56 - 8 * i)) & 0xFF].littleEndian, toByteOffset: 8 + 2 * i, as: UInt16.self)
        }
    }

    /// Each number below 100 as two ASCII digits, the first in the low byte.
    nonisolated(unsafe) static let decimalPairs: UnsafeMutablePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 100)
        for v in 0..<100 { table[v] = UInt16(0x30 + v / 10) | UInt16(0x30 + v % 10) << 8 }
        return table
    }()

    /// A number in decimal, no leading zeros; returns its digits. Split by 10^8 into at most three
    /// parts (the top one below 1845), each written two digits a step in 32-bit arithmetic: the two
    /// 8-digit parts do not wait on each other, where dividing the whole by 100 nine times would.
    @inline(__always)
    static func decimal(_ value: UInt64, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeMutableRawPointer(out)
        guard value >= 100_000_000 else { return leading(UInt32(truncatingIfNeeded: value), into: out) }
        let top = value / 100_000_000
        let low = UInt32(truncatingIfNeeded: value &- top &* 100_000_000)
        guard top >= 100_000_000 else {
            let n = leading(UInt32(truncatingIfNeeded: top), into: out)
            eight(low, into: raw + n)
            return n + 8
        }
        let head = top / 100_000_000
        let middle = UInt32(truncatingIfNeeded: top &- head &* 100_000_000)
        let n = leading(UInt32(truncatingIfNeeded: head), into: out)
        eight(middle, into: raw + n)
        eight(low, into: raw + n + 8)
        return n + 16
    }

    /// `x` < 10^8 as exactly 8 digits, leading zeros kept.
    @inline(__always)
    static func eight(_ x: UInt32, into raw: UnsafeMutableRawPointer) {
        let table = decimalPairs
        let hi = x / 10_000
        let lo = x &- hi &* 10_000
        let a = hi / 100
        let c = lo / 100
        raw.storeBytes(of: table[Int(truncatingIfNeeded: a)].littleEndian, toByteOffset: 0, as: UInt16.self)
        raw.storeBytes(of: table[Int(truncatingIfNeeded: hi &- a &* 100)].littleEndian, toByteOffset: 2, as: UInt16.self)
        raw.storeBytes(of: table[Int(truncatingIfNeeded: c)].littleEndian, toByteOffset: 4, as: UInt16.self)
        raw.storeBytes(of: table[Int(truncatingIfNeeded: lo &- c &* 100)].littleEndian, toByteOffset: 6, as: UInt16.self)
    }

    /// `x` < 10^8 without leading zeros (0 is "0"); returns its digits.
    @inline(__always)
    static func leading(_ x: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let n =
            x < 10_000
            ? (x < 100 ? (x < 10 ? 1 : 2) : (x < 1000 ? 3 : 4)) : (x < 1_000_000 ? (x < 100_000 ? 5 : 6) : (x < 10_000_000 ? 7 : 8))
        let table = decimalPairs
        let raw = UnsafeMutableRawPointer(out)
        var v = x
        var i = n
        while i >= 2 {
            let q = v / 100
            i -= 2
            raw.storeBytes(of: table[Int(truncatingIfNeeded: v &- q &* 100)].littleEndian, toByteOffset: i, as: UInt16.self)
            v = q
        }
        if i == 1 { out[0] = UInt8(truncatingIfNeeded: v) &+ 0x30 }
        return n
    }

    /// A Firebase push id: 8 symbols of the 48-bit milliseconds, then 12 of the 72 random bits, two
    /// symbols (12 bits) a store.
    @inline(__always)
    static func firebase(
        millis: UInt64, random: UInt128, into out: UnsafeMutablePointer<UInt8>, pairs table: UnsafeMutablePointer<UInt16> = firebasePairs
    ) {
        let raw = UnsafeMutableRawPointer(out)
        for i in 0..<4 {
            raw.storeBytes(
                of: table[Int(truncatingIfNeeded: millis >> UInt64(36 - 12 * i)) & 0xFFF].littleEndian, toByteOffset: 2 * i, as: UInt16.self
            )
        }
        let hi = UInt64(truncatingIfNeeded: random >> 64)  // the top 8 of the 72 bits
        let lo = UInt64(truncatingIfNeeded: random)
        raw.storeBytes(of: table[Int(truncatingIfNeeded: hi << 4 | lo >> 60) & 0xFFF].littleEndian, toByteOffset: 8, as: UInt16.self)
        for i in 0..<5 {
            raw.storeBytes(
                of: table[Int(truncatingIfNeeded: lo >> UInt64(48 - 12 * i)) & 0xFFF].littleEndian, toByteOffset: 10 + 2 * i,
                as: UInt16.self)
        }
    }

    /// Each 12-bit value's two Firebase symbols, first in the low byte.
    nonisolated(unsafe) static let firebasePairs: UnsafeMutablePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 4096)
        for v in 0..<4096 { table[v] = UInt16(firebaseSymbols[v >> 6]) | UInt16(firebaseSymbols[v & 63]) << 8 }
        return table
    }()

    /// Each byte's two lower-case hex digits, first digit in the low byte (a little-endian store
    /// writes them in order).
    nonisolated(unsafe) static let hexPairs: UnsafeMutablePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 256)
        for b in 0..<256 { table[b] = UInt16(hexDigits[b >> 4]) | UInt16(hexDigits[b & 15]) << 8 }
        return table
    }()

    /// A 128-bit value as a UUID: 8-4-4-4-12 lower-case hex, 36 bytes, two digits a store.
    @inline(__always)
    static func uuid(_ value: UInt128, into out: UnsafeMutablePointer<UInt8>, pairs table: UnsafeMutablePointer<UInt16> = hexPairs) {
        let raw = UnsafeMutableRawPointer(out)
        let hi = UInt64(truncatingIfNeeded: value >> 64)
        let lo = UInt64(truncatingIfNeeded: value)
        // Byte i of the value (most significant first) lands at offset 2i plus the dashes before it.
        @inline(__always) func put(_ word: UInt64, _ shift: UInt64, _ offset: Int) {
            raw.storeBytes(of: table[Int(truncatingIfNeeded: word >> shift) & 0xFF].littleEndian, toByteOffset: offset, as: UInt16.self)
        }
        put(hi, 56, 0)
        put(hi, 48, 2)
        put(hi, 40, 4)
        put(hi, 32, 6)
        out[8] = 0x2D
        put(hi, 24, 9)
        put(hi, 16, 11)
        out[13] = 0x2D
        put(hi, 8, 14)
        put(hi, 0, 16)
        out[18] = 0x2D
        put(lo, 56, 19)
        put(lo, 48, 21)
        out[23] = 0x2D
        put(lo, 40, 24)
        put(lo, 32, 26)
        put(lo, 24, 28)
        put(lo, 16, 30)
        put(lo, 8, 32)
        put(lo, 0, 34)
    }

    /// Each 10-bit value's two Crockford digits, first digit in the low byte.
    nonisolated(unsafe) static let crockfordPairs: UnsafeMutablePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 1024)
        for v in 0..<1024 { table[v] = UInt16(crockford[v >> 5]) | UInt16(crockford[v & 31]) << 8 }
        return table
    }()

    /// Each 10-bit value's two base32hex digits (xid's, lower case), first digit in the low byte.
    nonisolated(unsafe) static let base32hexPairs: UnsafeMutablePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 1024)
        for v in 0..<1024 { table[v] = UInt16(base32hex[v >> 5]) | UInt16(base32hex[v & 31]) << 8 }
        return table
    }()

    /// The same in lower case, TypeID's: letters gain 0x20, digits have it already. (Lower-casing
    /// after the pairs are stored would read them back at once, which stalls on store forwarding.)
    nonisolated(unsafe) static let lowerCrockfordPairs: UnsafeMutablePointer<UInt16> = {
        let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 1024)
        for v in 0..<1024 { table[v] = crockfordPairs[v] | 0x2020 }
        return table
    }()

    /// A 128-bit value in Crockford base32, 26 characters (the first carries the top 3 bits), ten
    /// bits (two digits) a store; in lower case (TypeID's) when `lower`.
    @inline(__always)
    static func crockford(_ value: UInt128, into out: UnsafeMutablePointer<UInt8>, lower: Bool = false) {
        crockford(value, into: out, pairs: lower ? lowerCrockfordPairs : crockfordPairs)
    }

    /// The same with the pair table given (a bulk loop looks it up once).
    @inline(__always)
    static func crockford(_ value: UInt128, into out: UnsafeMutablePointer<UInt8>, pairs table: UnsafeMutablePointer<UInt16>) {
        tenBitPairs(value, count: 13, into: out, pairs: table)
    }

    /// The low `10 · count` bits of `value` as `count` pairs of 5-bit digits, most significant first
    /// (Crockford and base32hex text, through their pair tables). Each pair's ten bits are cut from
    /// the value by a constant shift, so the lookups do not wait on each other.
    @inline(__always)
    static func tenBitPairs(_ value: UInt128, count: Int, into out: UnsafeMutablePointer<UInt8>, pairs table: UnsafeMutablePointer<UInt16>)
    {
        let raw = UnsafeMutableRawPointer(out)
        for k in 0..<count {
            let bits = Int(truncatingIfNeeded: value &>> UInt128(10 * k)) & 1023
            raw.storeBytes(of: table[bits].littleEndian, toByteOffset: 2 * (count - 1 - k), as: UInt16.self)
        }
    }
}
