import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A secure token generator that any thread or task may call: keep one in a `static let` and mint
/// from request handlers.
///
/// ```swift
/// enum RequestID { static let generator = try! SharedTokenGenerator(alphabet: .base62, length: 22) }
/// let id = RequestID.generator.next()
/// ```
///
/// Each thread that calls it gets its own kernel-seeded ``TokenGenerator`` (thread-specific data, made
/// on that thread's first call), so the hot path takes no lock and threads never share a stream. A
/// thread's generator, with its erased state, goes when the thread exits or when this object does.
/// Every guarantee of ``TokenGenerator`` (fork safety, erasure, unbiased symbols) holds per thread.
public final class SharedTokenGenerator: Sendable {
    /// Symbols per token.
    public let length: Int
    /// The alphabet as bytes.
    public let symbols: [UInt8]

    private let key: pthread_key_t
    private let slots: Slots

    /// A shared generator over `alphabet`, which must consist of single-byte (ASCII) symbols.
    public init(alphabet: Alphabet = .base62, length: Int = 22) throws(TokenGeneratorError) {
        guard let bytes = alphabet.bytes else {
            throw .alphabet(.notSingleByte(alphabet.symbols.first { $0.utf8.count > 1 } ?? "?"))
        }
        // Validates the alphabet and length once, here, so that later per-thread construction cannot fail.
        _ = try TokenGenerator(bytes: bytes, length: length, source: SecureRandom())
        self.length = length
        self.symbols = bytes
        var key = pthread_key_t()
        // Out of keys (PTHREAD_KEYS_MAX, at least 128) means a program making generators in a loop.
        guard pthread_key_create(&key, { Slot.threadExited($0) }) == 0 else {
            fatalError("idbudget: pthread_key_create failed: too many SharedTokenGenerators alive")
        }
        self.key = key
        slots = Slots()
    }

    deinit {
        pthread_key_delete(key)
        for slot in slots.removeAll() { slot.release() }
    }

    /// This thread's generator.
    @inline(__always)
    private var local: TokenGenerator<SecureRandom> {
        if let p = pthread_getspecific(key) {
            return Unmanaged<Slot>.fromOpaque(p).takeUnretainedValue().generator
        }
        return makeLocal()
    }

    private func makeLocal() -> TokenGenerator<SecureRandom> {
        // Cannot throw: the same bytes and length were accepted in init.
        guard let generator = try? TokenGenerator(bytes: symbols, length: length, source: SecureRandom()) else {
            fatalError("idbudget: a validated generator failed to build")
        }
        let slot = Slot(generator: generator, slots: slots)
        let opaque = Unmanaged.passRetained(slot)
        slots.insert(opaque)
        pthread_setspecific(key, opaque.toOpaque())
        return generator
    }

    /// One token.
    public func next() -> String { local.next() }

    /// `count` tokens.
    public func next(_ count: Int) -> [String] { local.next(count) }

    /// Writes as many whole tokens as fit into `buffer`, each followed by `separator` when given, and
    /// returns how many it wrote.
    @discardableResult
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) -> Int {
        local.fill(buffer, separator: separator)
    }
}

/// One thread's generator. Retained once on behalf of its thread; whoever removes it from `Slots`
/// (the thread's exit, or the shared generator's deinit) releases that reference, so it is released once.
private final class Slot {
    let generator: TokenGenerator<SecureRandom>
    let slots: Slots

    init(generator: TokenGenerator<SecureRandom>, slots: Slots) {
        self.generator = generator
        self.slots = slots
    }

    static func threadExited(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        let slot = Unmanaged<Slot>.fromOpaque(pointer)
        if slot.takeUnretainedValue().slots.remove(slot) { slot.release() }
    }
}

/// The live per-thread slots of one shared generator, by address.
private final class Slots: Sendable {
    private let live = Mutex<Set<UInt>>([])

    private static func address(_ slot: Unmanaged<Slot>) -> UInt { UInt(bitPattern: slot.toOpaque()) }

    func insert(_ slot: Unmanaged<Slot>) {
        let a = Self.address(slot)
        _ = live.withLock { $0.insert(a) }
    }

    /// Whether `slot` was still live (and so is now the caller's to release).
    func remove(_ slot: Unmanaged<Slot>) -> Bool {
        let a = Self.address(slot)
        return live.withLock { $0.remove(a) != nil }
    }

    func removeAll() -> [Unmanaged<Slot>] {
        let all = live.withLock { set in
            defer { set.removeAll() }
            return Array(set)
        }
        return all.compactMap { UnsafeRawPointer(bitPattern: $0).map { Unmanaged<Slot>.fromOpaque($0) } }
    }
}
