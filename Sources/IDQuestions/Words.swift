/// What a refusal says, with every argument it names kept as a name, never in one front end's syntax.
///
/// The one layer writes `"say how many nodes mint them, e.g. \(arg: "nodes", "50")"`; each front end
/// writes the argument its own way (``written(_:)``): `--nodes 50` on the command line, `nodes=50` in a
/// query string or a form. Text interpolated the ordinary way (`'\(text)'`, a count) is kept as it is.
public struct Words: Sendable, Hashable, ExpressibleByStringInterpolation {
    public enum Part: Sendable, Hashable {
        case text(String)
        /// An argument by its bare name (`nodes`), with the value an example gives it (`50`).
        case argument(String, value: String?)
    }

    public let parts: [Part]

    /// Text taken as it is: a message from below the layer (an `InputError`), which names no argument.
    public init(_ text: String) { parts = [.text(text)] }
    public init(stringLiteral value: String) { parts = [.text(value)] }
    public init(parts: [Part]) { self.parts = parts }
    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) { parts.append(.text(value.description)) }
        public mutating func appendInterpolation(_ words: Words) { parts += words.parts }
        /// An argument, by its name with or without the command line's dashes (`nodes`, `--nodes`),
        /// and the value of an example (`50`).
        public mutating func appendInterpolation(arg name: some StringProtocol, _ value: String? = nil) {
            parts.append(.argument(String(name.drop { $0 == "-" }), value: value))
        }
    }

    /// How a front end names arguments.
    public enum Style: Sendable {
        /// The CLI's: `--nodes 50`, `--rate`.
        case commandLine
        /// A query string's or a form's: `nodes=50`, `rate`.
        case query
    }

    /// The words with each argument written in `style`.
    public func written(_ style: Style) -> String {
        var out = ""
        for part in parts {
            switch (part, style) {
            case (.text(let text), _): out += text
            case (.argument(let name, nil), .commandLine): out += "--" + name
            case (.argument(let name, let value?), .commandLine): out += "--\(name) \(value)"
            case (.argument(let name, nil), .query): out += name
            case (.argument(let name, let value?), .query): out += "\(name)=\(value)"
            }
        }
        return out
    }

    /// The arguments the words name, in order (each once).
    public var arguments: [String] {
        var seen: [String] = []
        for case .argument(let name, _) in parts where !seen.contains(name) { seen.append(name) }
        return seen
    }
}
