/// Input that idbudget refuses, with a message that says what to give instead.
public struct InputError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// The input the refusal concerns, by its bare name (`growth`, `max-probability`, `nodes`), when
    /// one does: a front end names it as it names its own arguments (`--growth`, the page's field)
    /// instead of guessing. nil when no single input is to blame (a digit that can not be certified).
    public let argument: String?

    public init(_ message: String, argument: String? = nil) {
        self.message = message
        self.argument = argument
    }

    public var description: String { message }
}

/// The sizes beyond which idbudget answers with an error instead of a number.
public enum Limits {
    /// Largest identifier space: 2^2097152 = 2^(2^21) (e.g. base62 up to 352,222 symbols).
    public static let maxSpaceBits = 2_097_152
    /// Counts must be below 10^640000 (past 2^2097152 ≈ 10^631306; any count above the space is certain
    /// to collide anyway).
    public static let maxCountDigits = 640_000
    /// Budgets must be at least 10^−100000.
    public static let minProbabilityExponent = -100_000
    /// A budget that matches some p(d, n) to this many significant digits is still decided; one that
    /// matches it further may be refused (the comparison stops where L is known to this many digits
    /// plus 40, counting the cancellation of the method taken there, or this many digits past where it
    /// started, whichever is more). Deciding it would need p to all the digits they share (log-gamma
    /// at 100,000+ bits; seconds).
    public static let tieDigits = 10_000
    static let tieBits = Int((Double(tieDigits) * 3.3219280948873626).rounded(.up))
}
