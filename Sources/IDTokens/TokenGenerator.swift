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
    public var bitsPerSymbol: Double { engine.sampler.bitsPerSymbol }

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

/// The non-generic hot path: a pool of random words, a bit reservoir and the sampler's table.
final class TokenEngine {
    static let maxLength = 1 << 20
    static let poolWords = 64

    let sampler: SymbolSampler
    let length: Int
    let isASCII: Bool
    private let keystream: Keystream?
    var refill: ((UnsafeMutableRawBufferPointer) -> Void)?

    private let table: UnsafeMutablePointer<UInt16>
    private let pool: UnsafeMutablePointer<UInt64>
    private var poolIndex = TokenEngine.poolWords
    private var word: UInt64 = 0
    private var chunks = 0
    private let bits: UInt64
    private let mask: UInt64
    private let chunksPerWord: Int

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
    }

    deinit {
        table.deallocate()
        pool.update(repeating: 0, count: Self.poolWords)
        pool.deallocate()
    }

    @inline(__always)
    private func nextWord() -> UInt64 {
        if _slowPath(poolIndex == Self.poolWords) {
            let raw = UnsafeMutableRawBufferPointer(start: pool, count: Self.poolWords * 8)
            if let keystream { keystream.fill(raw) } else { refill!(raw) }
            poolIndex = 0
        }
        let w = pool[poolIndex]
        poolIndex += 1
        return w
    }

    /// Writes one token of `length` symbols at `out`.
    @inline(__always)
    func writeToken(_ out: UnsafeMutablePointer<UInt8>) {
        var i = 0, w = word, c = chunks
        while i < length {
            if c == 0 {
                w = nextWord()
                c = chunksPerWord
            }
            let e = table[Int(truncatingIfNeeded: w & mask)]
            w &>>= bits
            c -= 1
            if e != SymbolSampler.reject {
                out[i] = UInt8(truncatingIfNeeded: e)
                i += 1
            }
        }
        word = w
        chunks = c
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
