import Foundation
import HTTPTypes
import IDQuestions

/// A request refused: the status, the argument it concerns (its parameter's name, `rate`), and what
/// to send instead. The error middleware answers it as `{"error": …, "argument": …}`.
public struct Refusal: Error, Sendable {
    public let status: HTTPResponse.Status
    public let argument: String?
    public let message: String

    public init(_ status: HTTPResponse.Status = .badRequest, argument: String?, _ message: String) {
        self.status = status
        self.argument = argument
        self.message = message
    }

    /// Input the CLI would refuse (exit 64): 400, naming the argument.
    static func usage(_ argument: String, _ message: String) -> Refusal {
        Refusal(.badRequest, argument: argument, message)
    }

    /// The one layer's refusal of an argument, as a 400.
    init(_ error: ArgumentError) { self.init(.badRequest, argument: error.argument, error.message) }

    /// The JSON body: the message shortened as the CLI shortens it, in the API's words (``apiWords(_:)``),
    /// control characters escaped.
    var jsonText: String {
        let short = Self.apiWords(ArgumentError.shortened(message))
        // `argument` always, null when the refusal concerns no one argument (busy, a deadline).
        var object: [String: Any] = ["error": Shown.escaped(short), "argument": NSNull()]
        if let argument { object["argument"] = Shown.escaped(argument.prefix(80)) }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension Refusal {
    /// Every parameter an endpoint takes, by name: what a message may name as a CLI option.
    static let parameterNames: Set<String> = Set(Question.Command.allCases.flatMap(\.parameters)).union(
        ["max-line-bytes", "bits", "scheme", "alphabet", "length", "max-invalid"])

    /// A message of the one layer in the API's words: an option the CLI writes `--nodes 50` is the
    /// parameter `nodes=50`, one named alone (`with --rate and --lifetime`) its bare name. Only the
    /// names of parameters are rewritten, so a quoted value that starts with dashes stays as sent.
    static func apiWords(_ message: String) -> String {
        guard message.contains("--") else { return message }
        var out = ""
        var rest = Substring(message)
        while let r = rest.range(of: #"--[a-z][a-z0-9-]*"#, options: .regularExpression) {
            out += rest[..<r.lowerBound]
            let name = String(rest[r].dropFirst(2))
            rest = rest[r.upperBound...]
            guard parameterNames.contains(name) else {
                out += "--" + name
                continue
            }
            // A value after it (`--nodes 50`, `--alphabet base62`, `--max-probability 1e-11`): one
            // word holding a digit.
            if let v = rest.range(of: #"^ [^\s,;)]*[0-9][^\s,;)]*"#, options: .regularExpression) {
                out += name + "=" + rest[v].dropFirst()
                rest = rest[v.upperBound...]
            } else {
                out += name
            }
        }
        return out + rest
    }
}

/// What the one layer (`IDQuestions`) reads, its refusal as a 400.
func refusing<T>(_ body: () throws(ArgumentError) -> T) throws(Refusal) -> T {
    do { return try body() } catch { throw Refusal(error) }
}
