/// A secure token generator that any thread or task may call: keep one in a `static let` and mint
/// from request handlers.
///
/// ```swift
/// let requestIDs = try SharedTokenGenerator(alphabet: .base62, length: 22)
/// let id = requestIDs.next()   // from any thread or task
/// ```
///
/// Each thread that calls it gets its own kernel-seeded ``TokenGenerator`` on its first call, so the
/// hot path takes no lock and threads never share a stream. A thread's generator, with its erased
/// state, goes when the thread exits or when this object does. Every guarantee of ``TokenGenerator``
/// (fork safety, erasure, unbiased symbols) holds per thread. Each one takes a thread-specific key, of
/// which a process has about a thousand: make a few, long-lived ones (creating more throws).
public final class SharedTokenGenerator: Sendable {
    /// Symbols per token.
    public let length: Int
    /// The alphabet as bytes.
    public let symbols: [UInt8]

    private let local: PerThread<TokenGenerator<SecureRandom>>

    /// A shared generator over `alphabet`, which must consist of single-byte (ASCII) symbols.
    public convenience init(alphabet: Alphabet = .base62, length: Int = 22) throws(TokenGeneratorError) {
        guard let bytes = alphabet.bytes else {
            throw .alphabet(.notSingleByte(alphabet.symbols.first { $0.utf8.count > 1 } ?? "?"))
        }
        try self.init(bytes: bytes, length: length)
    }

    init(bytes: [UInt8], length: Int, forkProtection: ForkProtection = .automatic) throws(TokenGeneratorError) {
        // Validates the alphabet and length once, here, so that per-thread construction cannot fail.
        _ = try TokenGenerator(bytes: bytes, length: length, source: SecureRandom())
        self.length = length
        self.symbols = bytes
        let local = PerThread {
            var options = TokenEngine.Options()
            options.forkProtection = forkProtection
            guard
                let generator = try? TokenGenerator(
                    bytes: bytes, length: length, source: SecureRandom(forkProtection: forkProtection),
                    options: options)
            else {
                fatalError("idbudget: a validated generator failed to build")
            }
            return generator
        }
        guard let local else { throw .tooManySharedGenerators }
        self.local = local
    }

    /// One token.
    public func next() -> String { local.value.next() }

    /// `count` tokens.
    public func next(_ count: Int) -> [String] { local.value.next(count) }

    /// Writes as many whole tokens as fit into `buffer`, each followed by `separator` when given, and
    /// returns how many it wrote.
    @discardableResult
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) -> Int {
        local.value.fill(buffer, separator: separator)
    }
}
