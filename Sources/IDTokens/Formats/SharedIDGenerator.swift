/// An ``IDGenerator`` that any thread or task may call: keep one in a `static let`.
///
/// ```swift
/// let orderIDs = try SharedIDGenerator(.uuid7)
/// let id = orderIDs.next()   // from any thread or task
/// ```
///
/// Each calling thread gets its own generator on first use (no lock on the hot path), so monotonic
/// formats are ordered per thread; ids from different threads within one millisecond are not ordered
/// among themselves. The node-id family (`IDFormat.node`) shares one identity a process: every
/// thread's generator reserves its ids from the process's node and counter with a compare-and-swap
/// (no lock, so more threads than cores do not collapse it), and no two threads mint the same id.
public final class SharedIDGenerator: Sendable {
    public let format: IDFormat
    public let monotonic: Bool
    private let local: PerThread<IDGenerator>

    /// Throws only when the process is out of thread-specific keys (about a thousand shared generators
    /// alive at once): make a few, long-lived ones.
    public convenience init(_ format: IDFormat, monotonic: Bool? = nil) throws(TokenGeneratorError) {
        try self.init(format, monotonic: monotonic, forkProtection: .automatic)
    }

    init(_ format: IDFormat, monotonic: Bool?, forkProtection: ForkProtection) throws(TokenGeneratorError) {
        self.format = format
        self.monotonic = format.hasMonotonicMode && (monotonic ?? format.isMonotonicByDefault)
        guard let local = PerThread({ IDGenerator(format, monotonic: monotonic, forkProtection: forkProtection) }) else {
            throw .tooManySharedGenerators
        }
        self.local = local
    }

    /// The calling thread's generator.
    @inline(__always)
    private func with<R, E: Error>(_ body: (IDGenerator) throws(E) -> R) throws(E) -> R {
        try body(local.value)
    }

    /// One id.
    public func next() -> String { with { $0.next() } }

    /// One id, held inline (`let id: GeneratedID = ids.next()`; see `IDGenerator.next()`).
    @_disfavoredOverload
    public func next() -> GeneratedID { with { $0.next() } }

    /// `count` ids, in minting order.
    public func next(_ count: Int) -> [String] { with { $0.next(count) } }

    /// Writes as many whole ids as fit into `buffer`, each followed by `separator` when given (see
    /// ``IDGenerator/fill(_:separator:)`` for the decimal formats).
    @discardableResult
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) -> Int {
        with { $0.fill(buffer, separator: separator) }
    }

    /// One id, or ``IDGeneratorError/endOfTime(_:)`` past the end of the format's time (see
    /// `IDGenerator.nextChecked()`).
    public func nextChecked() throws(IDGeneratorError) -> String {
        try with { (g) throws(IDGeneratorError) -> String in try g.nextChecked() }
    }

    /// As `nextChecked() -> String`, held inline.
    @_disfavoredOverload
    public func nextChecked() throws(IDGeneratorError) -> GeneratedID {
        try with { (g) throws(IDGeneratorError) -> GeneratedID in try g.nextChecked() }
    }

    /// As ``fill(_:separator:)``, stopping at the end of the format's time (see
    /// ``IDGenerator/fillChecked(_:separator:)``).
    @discardableResult
    public func fillChecked(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) throws(IDGeneratorError) -> Int {
        try with { (g) throws(IDGeneratorError) in try g.fillChecked(buffer, separator: separator) }
    }
}
