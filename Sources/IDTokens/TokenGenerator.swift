internal import CTokens

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
            throw .alphabet(.notSingleByte(alphabet.symbols.first { $0.utf8.count > 1 } ?? "?"))
        }
        try self.init(bytes: bytes, length: length, source: source)
    }

    /// A generator over any 2 to 256 distinct byte values. ``next()`` reads bytes above 0x7F as
    /// Latin-1 characters; the byte APIs write them as they are.
    public convenience init(bytes: [UInt8], length: Int, source: Source) throws(TokenGeneratorError) {
        try self.init(bytes: bytes, length: length, source: source, options: TokenEngine.Options())
    }

    init(bytes: [UInt8], length: Int, source: Source, options: TokenEngine.Options) throws(TokenGeneratorError) {
        guard bytes.count >= 2 else { throw .alphabet(.tooFewSymbols(bytes.count)) }
        guard bytes.count <= 256 else { throw .alphabet(.tooManySymbols(bytes.count, limit: 256)) }
        var seen = Set<UInt8>()
        for b in bytes where !seen.insert(b).inserted {
            throw .alphabet(.duplicateSymbol(Character(Unicode.Scalar(b))))
        }
        guard length >= 1 && length <= TokenEngine.maxLength else { throw .invalidLength(length) }
        self.length = length
        self.symbols = bytes
        self.source = source
        let keystream = (source as? SecureRandom)?.stream ?? (source as? SeededRandom)?.stream
        // A seeded stream is meant to repeat; everything else must not replay across a fork.
        let protection: ForkProtection = source is SeededRandom ? .none : options.forkProtection
        engine = TokenEngine(
            sampler: SymbolSampler(symbols: bytes), length: length, keystream: keystream,
            protection: protection, options: options)
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
                guard let base = buffer.baseAddress else { return 0 }
                engine.writeToken(base)
                return length
            }
        }
        var bytes = [UInt8](repeating: 0, count: length)
        defer { bytes.withUnsafeMutableBytes { idt_erase($0.baseAddress, $0.count) } }
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
    /// The process is out of thread-specific keys: too many shared generators alive at once.
    case tooManySharedGenerators

    public var description: String {
        switch self {
        case .alphabet(let e): e.description
        case .invalidLength(let n): "length \(n) is outside 1...\(TokenEngine.maxLength)"
        case .tooManySharedGenerators: "too many shared generators alive (each takes a thread-specific key); keep a few long-lived ones"
        }
    }
}
