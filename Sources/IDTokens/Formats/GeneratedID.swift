/// One id's text, held inline: what `IDGenerator.next()` returns where the context asks for it.
///
/// A `String` of more than 15 bytes is a heap object, and allocating it costs several times what
/// minting the id does (the benchmark report's `Floor.String.36bytes` row). A `GeneratedID` keeps the
/// id's ASCII bytes in the value itself — up to ``capacity`` of them, enough for every format and the
/// longest TypeID prefix — so minting one allocates nothing. It prints, interpolates, encodes and
/// compares as its text:
///
/// ```swift
/// let orders = IDGenerator(.uuid7)
/// let id: GeneratedID = orders.next()        // no allocation
/// print("order \(id)")                       // its text
/// id.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }   // its bytes, no copy on the heap
/// let key = orders.next()                    // a String, as before
/// ```
///
/// Equality, hashing and order are the bytes': on ASCII text, which every id is (and which
/// `init(_:)` and decoding insist on), equality and order are a `String`'s, so the time-ordered
/// formats' ids sort in minting order.
public struct GeneratedID: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The most bytes an id holds: a TypeID with a 63-byte prefix takes 90.
    public static let capacity = 96

    // 96 contiguous bytes (a tuple keeps its elements in order); those past `count` are zero, so
    // equality and hashing can take the vectors whole.
    @usableFromInline var storage = (
        SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>()
    )
    @usableFromInline var length: UInt8 = 0

    /// Bytes in the id's text.
    public var count: Int { Int(length) }

    /// An id of at most `capacity` bytes, written by `body` into zeroed storage; `body` returns how
    /// many it wrote.
    @inline(__always)
    init(writing body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let n = withUnsafeMutableBytes(of: &storage) { raw in
            body(raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self))
        }
        length = UInt8(truncatingIfNeeded: Swift.min(Swift.max(n, 0), Self.capacity))
    }

    /// The `count` bytes at `text`, read as whole vectors: the `capacity` bytes from `text` must be
    /// readable, and `masks` must be `capacity` bytes of 0xFF then as many of 0 (`GeneratedID.masks`).
    /// (Copying byte by byte into the value and then reading it back as vectors stalls each load on
    /// the stores before it; this costs a load, an and and a store a 16 bytes.)
    @inlinable @inline(__always)
    init(loading text: UnsafeRawPointer, count: Int, masks: UnsafeRawPointer) {
        let n = Swift.min(Swift.max(count, 0), Self.capacity)
        let m = masks + (Self.capacity &- n)
        typealias V = SIMD16<UInt8>
        // Only the parts the id reaches (one generator's ids take the same branches every time);
        // every format's id but a TypeID with a long prefix fits in the first three.
        storage.0 = text.loadUnaligned(as: V.self) & m.loadUnaligned(as: V.self)
        if n > 16 {
            storage.1 = text.loadUnaligned(fromByteOffset: 16, as: V.self) & m.loadUnaligned(fromByteOffset: 16, as: V.self)
        }
        if n > 32 {
            storage.2 = text.loadUnaligned(fromByteOffset: 32, as: V.self) & m.loadUnaligned(fromByteOffset: 32, as: V.self)
        }
        if _slowPath(n > 48) {
            storage.3 = text.loadUnaligned(fromByteOffset: 48, as: V.self) & m.loadUnaligned(fromByteOffset: 48, as: V.self)
            storage.4 = text.loadUnaligned(fromByteOffset: 64, as: V.self) & m.loadUnaligned(fromByteOffset: 64, as: V.self)
            storage.5 = text.loadUnaligned(fromByteOffset: 80, as: V.self) & m.loadUnaligned(fromByteOffset: 80, as: V.self)
        }
        length = UInt8(truncatingIfNeeded: n)
    }

    /// `capacity` bytes of 0xFF, then as many of 0: the masks `init(loading:count:masks:)` takes.
    @usableFromInline nonisolated(unsafe) static let masks: UnsafeRawPointer = {
        let p = UnsafeMutableRawPointer.allocate(byteCount: 2 * capacity, alignment: 64)
        p.initializeMemory(as: UInt8.self, repeating: 0xFF, count: capacity)
        (p + capacity).initializeMemory(as: UInt8.self, repeating: 0, count: capacity)
        return UnsafeRawPointer(p)
    }()

    /// Zeroes `count` bytes (at most `capacity` + 1) at `p` and no others, by overlapping 8-, 16- and
    /// 32-byte stores: an id handed out is erased from where it was minted at the cost of a few stores.
    @inlinable @inline(__always)
    static func erase(_ p: UnsafeMutableRawPointer, count: Int) {
        if count >= 32 {
            var o = 0
            while o + 32 <= count {
                p.storeBytes(of: SIMD32<UInt8>(), toByteOffset: o, as: SIMD32<UInt8>.self)
                o += 32
            }
            if o < count { p.storeBytes(of: SIMD32<UInt8>(), toByteOffset: count - 32, as: SIMD32<UInt8>.self) }
        } else if count >= 16 {
            p.storeBytes(of: SIMD16<UInt8>(), toByteOffset: 0, as: SIMD16<UInt8>.self)
            p.storeBytes(of: SIMD16<UInt8>(), toByteOffset: count - 16, as: SIMD16<UInt8>.self)
        } else if count >= 8 {
            p.storeBytes(of: UInt64(0), toByteOffset: 0, as: UInt64.self)
            p.storeBytes(of: UInt64(0), toByteOffset: count - 8, as: UInt64.self)
        } else {
            for i in 0..<count { p.storeBytes(of: UInt8(0), toByteOffset: i, as: UInt8.self) }
        }
    }

    /// An id from its text; nil when `text` is longer than ``capacity`` bytes or not ASCII (every
    /// format's ids are ASCII, and on ASCII text byte-wise equality and order are a `String`'s).
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count <= Self.capacity, utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.init { out in
            utf8.withUnsafeBufferPointer { if let base = $0.baseAddress { out.update(from: base, count: $0.count) } }
            return utf8.count
        }
    }

    /// Calls `body` with the id's text as UTF-8 bytes (ASCII), valid only during the call.
    public func withUTF8<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        var copy = storage
        let n = count
        return try withUnsafeBytes(of: &copy) { (raw) throws(E) -> R in
            try body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: n))
        }
    }

    public static func == (a: GeneratedID, b: GeneratedID) -> Bool {
        a.length == b.length && a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1 && a.storage.2 == b.storage.2
            && a.storage.3 == b.storage.3 && a.storage.4 == b.storage.4 && a.storage.5 == b.storage.5
    }

    public func hash(into hasher: inout Hasher) {
        withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The id's text.
    public var description: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    public static func < (a: GeneratedID, b: GeneratedID) -> Bool {
        a.withUTF8 { x in b.withUTF8 { y in x.lexicographicallyPrecedes(y) } }
    }

    /// Encodes as the id's text, a single string value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes the id's text; a string over ``capacity`` bytes, or not ASCII, is a
    /// `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = GeneratedID(text) else {
            let what = text.utf8.allSatisfy { $0 < 0x80 } ? "\(text.utf8.count) bytes" : "text that is not ASCII"
            let context = DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "an id is at most \(Self.capacity) bytes of ASCII, not \(what)")
            throw DecodingError.dataCorrupted(context)
        }
        self = id
    }
}
