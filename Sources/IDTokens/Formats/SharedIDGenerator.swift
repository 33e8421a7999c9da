/// An ``IDGenerator`` that any thread or task may call: keep one in a `static let`.
///
/// ```swift
/// let orderIDs = SharedIDGenerator(.uuid7)
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

    public init(_ format: IDFormat, monotonic: Bool? = nil) {
        self.format = format
        let generator = IDGenerator(format, monotonic: monotonic)
        self.monotonic = generator.monotonic
        local = PerThread { IDGenerator(format, monotonic: monotonic) }
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
}
