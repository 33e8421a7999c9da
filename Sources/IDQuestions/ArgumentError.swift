import Foundation
import IDBudget

/// Text that one argument cannot take: the argument it blames, by name, and what to give instead, in
/// ``Words`` that name other arguments by name too. The CLI prints it as `idbudget: error: --rate:
/// MESSAGE` (``message``); the server answers it as a 400 `{"error": …, "argument": "rate"}`, the
/// words in a query's syntax (`nodes=50`).
public struct ArgumentError: Error, Equatable, CustomStringConvertible {
    /// The argument blamed, by its bare name (`rate`, `max-probability`, `id`): the server's query
    /// parameter and the page's field go by it; the CLI shows it as it is typed there (``flag``).
    public let argument: String
    /// Whether the CLI takes it as an operand (the id `inspect` reads), not as an option.
    public let isOperand: Bool
    /// What to give instead, each argument it names kept as a name.
    public let words: Words

    /// An option (`rate`, or `--rate`: the dashes only say it is one) or, with `operand`, an operand
    /// (`id`), and the words that refuse it.
    public init(_ argument: String, operand: Bool = false, _ words: Words) {
        self.argument = String(argument.drop { $0 == "-" })
        self.isOperand = operand
        self.words = words
    }

    /// Text from below the layer, taken as it is.
    public init(_ argument: String, operand: Bool = false, _ message: String) {
        self.init(argument, operand: operand, Words(message))
    }

    /// The library's refusal, blaming the input it names (`InputError.argument`), or `fallback`
    /// (a bare option name) when it names none.
    public init(blaming error: InputError, else fallback: String) {
        self.init(error.argument ?? fallback, error.message)
    }

    /// The words as the command line says them (`e.g. --nodes 50`).
    public var message: String { words.written(.commandLine) }

    /// The argument as the command line has it: `--rate`, or `id` for an operand.
    public var flag: String { isOperand ? argument : "--" + argument }

    public var description: String { "\(flag): \(message)" }
}

extension ArgumentError {
    /// The message as front ends show it: at most 240 characters (the first and last 110 of a longer
    /// one, which echoes a huge value), control characters escaped so it can not break a line.
    public var shortMessage: String { Self.shortened(message).escapingControlCharacters }

    /// ``shortMessage`` with the arguments it names written in `style`.
    public func shortMessage(_ style: Words.Style) -> String { Self.shortened(words.written(style)).escapingControlCharacters }

    /// `message` cut to at most 240 characters: the first and last 110 of a longer one (which echoes a
    /// huge value) around an ellipsis. The one rule every front end shortens its refusals by.
    public static func shortened(_ message: String) -> String {
        message.count > 240 ? "\(message.prefix(110))…\(message.suffix(110))" : message
    }
}

extension Optional {
    /// The value, or `ArgumentError(argument, message)` when there is none.
    func orUsage(_ argument: String, _ words: Words) throws(ArgumentError) -> Wrapped {
        guard let self else { throw ArgumentError(argument, words) }
        return self
    }
}
