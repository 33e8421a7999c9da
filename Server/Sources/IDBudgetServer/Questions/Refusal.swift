import Foundation
import HTTPTypes
import IDQuestions

/// A request refused: the status, the argument it concerns (its parameter's name, `rate`), and what
/// to send instead. The error middleware answers it as `{"error": …, "argument": …}`.
public struct Refusal: Error, Sendable {
    public let status: HTTPResponse.Status
    public let argument: String?
    /// What to send instead, the arguments it names kept as names (the page writes them as its labels).
    public let words: Words

    public init(_ status: HTTPResponse.Status = .badRequest, argument: String?, _ words: Words) {
        self.status = status
        self.argument = argument
        self.words = words
    }

    public init(_ status: HTTPResponse.Status = .badRequest, argument: String?, _ message: String) {
        self.init(status, argument: argument, Words(message))
    }

    /// The words as the API says them: `nodes=50`.
    public var message: String { words.written(.query) }

    /// Input the CLI would refuse (exit 64): 400, naming the argument.
    static func usage(_ argument: String, _ message: String) -> Refusal {
        Refusal(.badRequest, argument: argument, message)
    }

    /// The one layer's refusal of an argument, as a 400.
    init(_ error: ArgumentError) { self.init(.badRequest, argument: error.argument, error.words) }

    /// The JSON body: the message shortened as the CLI shortens it, control characters escaped.
    var jsonText: String {
        let short = ArgumentError.shortened(message)
        // `argument` always, null when the refusal concerns no one argument (busy, a deadline).
        var object: [String: Any] = ["error": Shown.escaped(short), "argument": NSNull()]
        if let argument { object["argument"] = Shown.escaped(argument.prefix(80)) }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// What the one layer (`IDQuestions`) reads, its refusal as a 400.
func refusing<T>(_ body: () throws(ArgumentError) -> T) throws(Refusal) -> T {
    do { return try body() } catch { throw Refusal(error) }
}
