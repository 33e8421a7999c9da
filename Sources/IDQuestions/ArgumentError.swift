import Foundation
import IDBudget

/// Text that one argument cannot take: the argument (`--rate`, as the CLI names it) and what to give
/// instead. The CLI prints it as `idbudget: error: ARGUMENT: MESSAGE`; the server answers it as a 400.
public struct ArgumentError: Error, Equatable, CustomStringConvertible {
    /// The argument blamed, by its bare name (`rate`, `max-probability`, `id`): the server's query
    /// parameter and the page's field go by it; the CLI shows it as it is typed there (``flag``).
    public let argument: String
    /// Whether the CLI takes it as an operand (the id `inspect` reads), not as an option.
    public let isOperand: Bool
    public let message: String

    /// `argument` as the CLI writes it (`--rate`) or bare for an operand (`id`); the name is kept
    /// without its dashes.
    public init(_ argument: String, _ message: String) {
        let bare = argument.drop { $0 == "-" }
        self.argument = String(bare)
        self.isOperand = bare.count == argument.count
        self.message = message
    }

    /// The library's refusal, blaming the input it names (`InputError.argument`), or `fallback`
    /// (a bare option name) when it names none.
    public init(blaming error: InputError, else fallback: String) {
        self.init("--" + (error.argument ?? fallback), error.message)
    }

    /// The argument as the CLI's command line has it: `--rate`, or `id` for an operand.
    public var flag: String { isOperand ? argument : "--" + argument }

    public var description: String { "\(flag): \(message)" }
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
