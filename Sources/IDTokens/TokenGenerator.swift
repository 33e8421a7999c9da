/// Mints random tokens: uniform over alphabet^length, from a cryptographically secure source by default.
///
/// ```swift
/// let ids = try TokenGenerator(alphabet: .base62, length: 22)
/// let one = ids.next()                         // "7nQ0bVfE2kWq9ZL1xXcR4a"
/// let many = ids.next(1000)                    // [String]
/// let written = ids.fill(buffer, separator: 10) // newline-separated, no allocation per token
/// ```
///
/// A generator is a non-`Sendable` class on purpose: give each thread or task its own (they are cheap,
/// and each ``SecureRandom`` is independently seeded from the kernel), so the hot path takes no locks.
public final class TokenGenerator<Source: RandomNumberGenerator> {
    /// Symbols per token.
    public let length: Int
    /// The alphabet as bytes.
    public let symbols: [UInt8]

    let engine: TokenEngine
    var source: Source

    /// A generator over `alphabet`, which must consist of single-byte (ASCII) symbols.
    public convenience init(alphabet: Alphabet, length: Int, source: Source) throws(TokenGeneratorError) {
        guard let bytes = alphabet.bytes else {
            let wide = alphabet.symbols.first { $0.utf8.count > 1 }!
            throw .alphabet(.notSingleByte(wide))
        }
        try self.init(bytes: bytes, length: length, source: source)
    }

    /// A generator over any 2 to 256 distinct byte values. ``next()`` reads bytes above 0x7F as
    /// Latin-1 characters; the byte APIs write them as they are.
    public init(bytes: [UInt8], length: Int, source: Source) throws(TokenGeneratorError) {
        guard bytes.count >= 2 else { throw .alphabet(.tooFewSymbols(bytes.count)) }
        guard bytes.count <= 256 else { throw .alphabet(.tooManySymbols(bytes.count, limit: 256)) }
        guard Set(bytes).count == bytes.count else {
            let dup = bytes.enumerated().first { i, b in bytes[..<i].contains(b) }!.element
            throw .alphabet(.duplicateSymbol(Character(Unicode.Scalar(dup))))
        }
        guard length >= 1 else { throw .invalidLength(length) }
        guard length <= TokenEngine.maxLength else { throw .invalidLength(length) }
        self.length = length
        self.symbols = bytes
        self.source = source
        let keystream = (source as? SecureRandom)?.stream ?? (source as? SeededRandom)?.stream
        engine = TokenEngine(sampler: SymbolSampler(symbols: bytes), length: length, keystream: keystream)
        if keystream == nil {
            engine.refill = { [unowned self] buffer in
                let words = buffer.bindMemory(to: UInt64.self)
                for i in words.indices { words[i] = self.source.next() }
            }
        }
    }

    /// Expected random bits spent per symbol (log2 of the alphabet size is the floor).
    public var bitsPerSymbol: Double { engine.bitsPerSymbol }

    /// One token.
    public func next() -> String {
        if engine.isASCII {
            return String(unsafeUninitializedCapacity: length) { buffer in
                engine.writeToken(buffer.baseAddress!)
                return length
            }
        }
        var bytes = [UInt8](repeating: 0, count: length)
        bytes.withUnsafeMutableBufferPointer { engine.writeToken($0.baseAddress!) }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// `count` tokens.
    public func next(_ count: Int) -> [String] {
        (0..<Swift.max(0, count)).map { _ in next() }
    }

    /// Writes as many whole tokens as fit into `buffer`, each followed by `separator` when given, and
    /// returns how many it wrote. Nothing is allocated.
    @discardableResult
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) -> Int {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        return engine.fill(base, capacity: buffer.count, separator: separator)
    }
}

extension TokenGenerator where Source == SecureRandom {
    /// A secure generator, seeded from the kernel.
    public convenience init(alphabet: Alphabet = .base62, length: Int = 22) throws(TokenGeneratorError) {
        try self.init(alphabet: alphabet, length: length, source: SecureRandom())
    }
}

/// Why a generator cannot be built.
public enum TokenGeneratorError: Error, Equatable, CustomStringConvertible {
    case alphabet(AlphabetError)
    case invalidLength(Int)

    public var description: String {
        switch self {
        case .alphabet(let e): e.description
        case .invalidLength(let n): "length \(n) is outside 1...\(TokenEngine.maxLength)"
        }
    }
}

internal import CTokens

/// The non-generic hot path: random words become a run of accepted symbols, and tokens are cut from it.
///
/// Sampling a whole pool at once lets the rejection test be branch-free (every chunk's symbol is
/// written, and the write position advances only when the chunk was accepted), which is what makes
/// the bulk path run at several times the speed of a symbol-at-a-time loop.
final class TokenEngine {
    static let maxLength = 1 << 20
    static let poolWords = 64
    /// Symbols are sampled until at least this many are ready.
    static let symbolTarget = 4096

    let sampler: SymbolSampler
    let length: Int
    let isASCII: Bool
    private let keystream: Keystream?
    var refill: ((UnsafeMutableRawBufferPointer) -> Void)?

    private let table: UnsafeMutablePointer<UInt16>
    private let pool: UnsafeMutablePointer<UInt64>
    private let symbols: UnsafeMutablePointer<UInt8>
    private let symbolCapacity: Int
    private var symbolStart = 0
    private var symbolEnd = 0
    private let bits: UInt64
    private let mask: UInt64
    private let chunksPerWord: Int
    /// 6-bit alphabets (33 to 64 symbols) and 16-symbol ones take SIMD samplers when the CPU has
    /// SSSE3/SSE4.1: the table, padded to 64 entries.
    private let simd6: UnsafeMutablePointer<UInt8>?
    private let alphabetSize: Int

    init(sampler: SymbolSampler, length: Int, keystream: Keystream?) {
        self.sampler = sampler
        self.length = length
        self.keystream = keystream
        isASCII = sampler.table.allSatisfy { $0 == SymbolSampler.reject || $0 < 0x80 }
        table = .allocate(capacity: sampler.table.count)
        table.initialize(from: sampler.table, count: sampler.table.count)
        pool = .allocate(capacity: Self.poolWords)
        pool.initialize(repeating: 0, count: Self.poolWords)
        bits = UInt64(sampler.bits)
        mask = sampler.mask
        chunksPerWord = sampler.chunksPerWord
        alphabetSize = sampler.table.filter { $0 != SymbolSampler.reject }.count
        let simd = (sampler.bits == 6 || sampler.bits == 4) && idt_sample6_available() != 0
        if simd {
            let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
            t.initialize(repeating: 0, count: 64)
            for c in 0..<sampler.table.count { t[c] = UInt8(truncatingIfNeeded: sampler.table[c]) }
            simd6 = t
        } else {
            simd6 = nil
        }
        // Room for the target plus one pool's worth of chunks past it, and 16 bytes of SIMD slack.
        symbolCapacity = Self.symbolTarget + Self.poolWords * Swift.max(sampler.chunksPerWord, 16) + 32
        symbols = .allocate(capacity: symbolCapacity)
        symbols.initialize(repeating: 0, count: symbolCapacity)
    }

    deinit {
        simd6?.deallocate()
        table.deallocate()
        pool.update(repeating: 0, count: Self.poolWords)
        pool.deallocate()
        symbols.update(repeating: 0, count: symbolCapacity)
        symbols.deallocate()
    }

    /// Expected random bits spent per symbol, counting bits left unused in each word or pool.
    var bitsPerSymbol: Double {
        guard simd6 != nil, bits == 6 else { return sampler.bitsPerSymbol }
        let chunks = Double(Self.poolWords * 8 / 12 * 16)
        return Double(Self.poolWords * 64) / chunks * 64 / Double(alphabetSize)
    }

    /// Tops the run of ready symbols up to at least `symbolTarget`, keeping the unused ones.
    private func sample() {
        var n = symbolEnd - symbolStart
        if n > 0 && symbolStart > 0 { symbols.update(from: symbols + symbolStart, count: n) }
        let raw = UnsafeMutableRawBufferPointer(start: pool, count: Self.poolWords * 8)
        while n < Self.symbolTarget {
            if let keystream { keystream.fill(raw) } else { refill!(raw) }
            if let simd6, bits == 4 {
                idt_sample4(UnsafeRawPointer(pool).assumingMemoryBound(to: UInt8.self), Self.poolWords * 8 / 16, simd6, symbols + n)
                n += Self.poolWords * 16
                continue
            }
            if let simd6 {
                // 42 groups of 12 bytes = 504 of the pool's 512 (the SIMD loads read 4 bytes past each group).
                n += idt_sample6(UnsafeRawPointer(pool).assumingMemoryBound(to: UInt8.self), Self.poolWords * 8 / 12,
                                 simd6, UInt8(alphabetSize), symbols + n)
                continue
            }
            // Constant chunk sizes let the compiler unroll the inner loop for the common alphabets.
            switch bits {
            case 4: n = Self.sampleWords(pool, table, symbols, n, bits: 4)
            case 5: n = Self.sampleWords(pool, table, symbols, n, bits: 5)
            case 6: n = Self.sampleWords(pool, table, symbols, n, bits: 6)
            case 8: n = Self.sampleWords(pool, table, symbols, n, bits: 8)
            default: n = Self.sampleWords(pool, table, symbols, n, bits: Int(bits))
            }
        }
        symbolStart = 0
        symbolEnd = n
    }

    @inline(__always)
    private static func sampleWords(
        _ pool: UnsafeMutablePointer<UInt64>, _ table: UnsafeMutablePointer<UInt16>, _ symbols: UnsafeMutablePointer<UInt8>,
        _ start: Int, bits: Int
    ) -> Int {
        var n = start
        let mask = (UInt64(1) << UInt64(bits)) - 1
        for w in 0..<poolWords {
            var x = pool[w]
            for _ in 0..<(64 / bits) {
                let e = table[Int(truncatingIfNeeded: x & mask)]
                symbols[n] = UInt8(truncatingIfNeeded: e)
                n &+= Int(truncatingIfNeeded: 1 &- (e &>> 8))  // +1 when accepted, +0 when rejected
                x &>>= UInt64(bits)
            }
        }
        return n
    }

    /// Writes one token of `length` symbols at `out`.
    @inline(__always)
    func writeToken(_ out: UnsafeMutablePointer<UInt8>) {
        if _fastPath(symbolEnd - symbolStart >= length) {
            out.update(from: symbols + symbolStart, count: length)
            symbolStart += length
            return
        }
        var written = 0
        while written < length {
            if symbolEnd == symbolStart { sample() }
            let n = Swift.min(length - written, symbolEnd - symbolStart)
            (out + written).update(from: symbols + symbolStart, count: n)
            symbolStart += n
            written += n
        }
    }

    func fill(_ base: UnsafeMutablePointer<UInt8>, capacity: Int, separator: UInt8?) -> Int {
        let stride = length + (separator == nil ? 0 : 1)
        let count = capacity / stride
        var out = base
        for _ in 0..<count {
            writeToken(out)
            if let separator { out[length] = separator }
            out += stride
        }
        return count
    }
}
