import Foundation
import IDBudget

/// Text that one argument cannot take: the argument (`--rate`, as the CLI names it) and what to give
/// instead. The CLI prints it as `idbudget: error: ARGUMENT: MESSAGE`; the server answers it as a 400.
public struct ArgumentError: Error, Equatable, CustomStringConvertible {
    public let argument: String
    public let message: String
    public init(_ argument: String, _ message: String) {
        self.argument = argument
        self.message = message
    }
    public var description: String { "\(argument): \(message)" }
}

extension ArgumentError {
    /// The message as front ends show it: at most 240 characters (the first and last 110 of a longer
    /// one, which echoes a huge value), control characters escaped so it can not break a line.
    public var shortMessage: String { Self.shortened(message).escapingControlCharacters }

    /// `message` cut to at most 240 characters: the first and last 110 of a longer one (which echoes a
    /// huge value) around an ellipsis. The one rule every front end shortens its refusals by.
    public static func shortened(_ message: String) -> String {
        message.count > 240 ? "\(message.prefix(110))…\(message.suffix(110))" : message
    }
}

extension Optional {
    /// The value, or `ArgumentError(argument, message)` when there is none.
    func orUsage(_ argument: String, _ message: String) throws(ArgumentError) -> Wrapped {
        guard let self else { throw ArgumentError(argument, message) }
        return self
    }
}
