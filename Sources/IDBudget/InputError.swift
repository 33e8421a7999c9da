/// Input that idbudget refuses, with a message that says what to give instead.
public struct InputError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The sizes beyond which idbudget answers with an error instead of a number.
public enum Limits {
    /// Largest identifier space: 2^262144 (e.g. base62 up to 44,028 symbols).
    public static let maxSpaceBits = 262_144
    /// Counts must be below 10^80000 (any count above the space is certain to collide anyway).
    public static let maxCountDigits = 80_000
    /// Budgets must be at least 10^−100000.
    public static let minProbabilityExponent = -100_000
}
