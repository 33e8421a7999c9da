/// An ``IDGenerator`` that any thread or task may call: keep one in a `static let`.
///
/// ```swift
/// let orderIDs = try SharedIDGenerator(.uuid7)
/// let id = orderIDs.next()   // from any thread or task
/// ```
///
/// Each calling thread gets its own generator on first use (no lock on the hot path), so monotonic
/// formats are ordered per thread; ids from different threads within one millisecond are not ordered
/// among themselves.
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

    /// One id.
    public func next() -> String { local.value.next() }

    /// `count` ids, in minting order.
    public func next(_ count: Int) -> [String] { local.value.next(count) }

    /// Writes as many whole ids as fit into `buffer`, each followed by `separator` when given.
    @discardableResult
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) -> Int {
        local.value.fill(buffer, separator: separator)
    }

    /// One id, or ``IDGeneratorError/endOfTime(_:)`` past the end of the format's time (see
    /// ``IDGenerator/nextChecked()``).
    public func nextChecked() throws(IDGeneratorError) -> String { try local.value.nextChecked() }

    /// As ``fill(_:separator:)``, stopping at the end of the format's time (see
    /// ``IDGenerator/fillChecked(_:separator:)``).
    @discardableResult
    public func fillChecked(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) throws(IDGeneratorError) -> Int {
        try local.value.fillChecked(buffer, separator: separator)
    }
}
