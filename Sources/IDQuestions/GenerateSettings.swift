import Foundation
import IDBudget
import IDTokens

/// What to mint, read from named arguments as `idbudget generate` takes them: tokens over an alphabet
/// (`alphabet` or `symbols` with `allow-whitespace`, `length`, `seed`) or a standard format
/// (`scheme` with `monotonic`, `node`, `epoch`, `output`), a `prefix`, and a `count`. Flags are the
/// text `true` or `false`. Each value is checked as the CLI checks it, and a refusal names the
/// argument to fix.
public struct GenerateSettings: Sendable {
    /// Tokens over symbols, or ids of a format.
    public enum Kind: Sendable {
        case tokens(symbols: [UInt8], length: Int, seed: UInt64?)
        /// `typePrefix`: TypeID's prefix, which the generator writes itself; `raw`: the binary form.
        case format(IDFormat, monotonic: Bool?, typePrefix: String, node: UInt64?, epoch: UInt64?, raw: Bool)
    }

    public var kind: Kind
    public var count: Int
    /// Bytes written before each token or id (not TypeID's prefix, which is part of the id).
    public var prefix: [UInt8]

    /// The longest `prefix` for tokens and non-TypeID ids.
    public static let maxPrefixBytes = 64

    /// The names generate takes.
    public static let parameters = [
        "alphabet", "symbols", "allow-whitespace", "length", "scheme", "monotonic", "prefix", "node", "epoch", "output", "count", "seed",
    ]

    /// `now`: the clock (ms since 1970) that an `epoch` must leave inside the format's time.
    public init(_ arguments: Arguments, now: UInt64) throws(ArgumentError) {
        try arguments.check(known: Self.parameters, command: "generate")
        let n = try ArgumentText.integer(arguments["count"] ?? "1", argument: "--count", example: "1000000", allowingZero: true)
        guard let count = n.intValue else {
            throw ArgumentError("--count", "'\(arguments["count"] ?? "")' is absurdly many; give at most \(Int.max)")
        }
        self.count = count
        let output = arguments["output"] ?? "text"
        guard output == "text" || output == "raw" else {
            throw ArgumentError("--output", "'\(output.prefix(40))' is not an output form; give text or raw")
        }
        let raw = output == "raw"
        let allowWhitespace = try Self.flag(arguments, "allow-whitespace") ?? false
        let monotonic = try Self.flag(arguments, "monotonic")
        let (alphabet, symbols, length, seed) = (arguments["alphabet"], arguments["symbols"], arguments["length"], arguments["seed"])
        let (prefix, node, epoch) = (arguments["prefix"], arguments["node"], arguments["epoch"])
        if let scheme = arguments["scheme"] {
            let format = try IDFormat.named(scheme).orUsage(
                "--scheme",
                "unknown scheme '\(scheme.prefix(40))'; generate mints \(IDFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            if raw && format.binaryLength == nil {
                throw ArgumentError("--output", "\(format.rawValue) ids exist only as text; drop \(arg: "output", "raw")")
            }
            if raw && prefix != nil {
                throw ArgumentError(
                    "--prefix",
                    format == .typeid
                        ? "a TypeID's binary form is its UUID, without the prefix; drop \(arg: "prefix") or \(arg: "output", "raw")"
                        : "raw output has no text to put a prefix before; drop \(arg: "prefix") or \(arg: "output", "raw")")
            }
            var nodeValue: UInt64?
            if let node {
                guard let bits = format.nodeBits else {
                    throw ArgumentError("--node", "\(format.rawValue) ids have no node field; drop \(arg: "node")")
                }
                let top = (UInt64(1) << UInt64(bits)) - 1
                nodeValue = try UInt64(node).flatMap { $0 <= top ? $0 : nil }.orUsage(
                    "--node",
                    "'\(node.prefix(40))' is not a node of \(format.rawValue): give a whole number from 0 to \(top) (\(bits) bits)")
            }
            var epochValue: UInt64?
            if let epoch {
                guard format.defaultEpoch != nil else {
                    throw ArgumentError(
                        "--epoch",
                        "\(format.rawValue) ids have no epoch to move (snowflake, discord, instagram, sonyflake and tsid do); drop \(arg: "epoch")"
                    )
                }
                epochValue = try UInt64(epoch).flatMap { $0 <= IDGenerator.lastMillisecond ? $0 : nil }.orUsage(
                    "--epoch", "'\(epoch.prefix(40))' is not an epoch: give milliseconds since 1970, e.g. \(arg: "epoch", "1288834974657")")
                // The clock must fall in the ids' time from that epoch.
                if let span = IDGenerator.timeSpan(of: format, epoch: epochValue), !span.contains(now) {
                    throw ArgumentError(
                        "--epoch",
                        "from epoch \(epoch), \(format.rawValue) ids cover \(Self.iso(span.lowerBound)) to \(Self.iso(span.upperBound)); the clock (\(Self.iso(now))) is outside it: give an epoch before now and within that span of it"
                    )
                }
            }
            for (given, name) in [
                (alphabet, "--alphabet"), (symbols, "--symbols"), (length, "--length"), (seed, "--seed"),
                (allowWhitespace ? "" : nil, "--allow-whitespace"),
            ] where given != nil {
                throw ArgumentError(name, "does not apply to \(arg: "scheme", format.rawValue) (its layout is fixed); drop \(arg: name)")
            }
            if monotonic != nil && !format.hasMonotonicMode {
                throw ArgumentError("--monotonic", "only uuid7, ulid, typeid and firebase have a monotonic mode")
            }
            if format == .typeid {
                do {
                    try TypeID.validatePrefix(prefix ?? "")
                } catch {
                    throw ArgumentError("--prefix", "\(error.description); e.g. \(arg: "prefix", "user")")
                }
                kind = .format(format, monotonic: monotonic, typePrefix: prefix ?? "", node: nil, epoch: nil, raw: raw)
                self.prefix = []
                return
            }
            kind = .format(format, monotonic: monotonic, typePrefix: "", node: nodeValue, epoch: epochValue, raw: raw)
            self.prefix = try Self.tokenPrefix(prefix)
            return
        }
        if monotonic != nil {
            throw ArgumentError("--monotonic", "applies to \(arg: "scheme", "uuid7"), ulid, typeid or firebase only")
        }
        for (given, name) in [(node, "--node"), (epoch, "--epoch")] where given != nil {
            throw ArgumentError(name, "applies to a node-id \(arg: "scheme") only (e.g. \(arg: "scheme", "snowflake")); drop \(arg: name)")
        }
        if raw { throw ArgumentError("--output", "raw applies to \(arg: "scheme") formats; tokens are text, drop \(arg: "output", "raw")") }
        self.prefix = try Self.tokenPrefix(prefix)
        if allowWhitespace && symbols == nil {
            throw ArgumentError("--allow-whitespace", "applies to \(arg: "symbols") only; drop it or give \(arg: "symbols")")
        }
        let bytes: [UInt8]
        if let symbols, alphabet == nil {
            bytes = try Self.symbolBytes(symbols, allowWhitespace: allowWhitespace)
        } else {
            // Both given: `generate` has no alphabet size to name among the choices.
            if symbols != nil { throw ArgumentError("--alphabet", "give \(arg: "alphabet") or \(arg: "symbols"), not both") }
            let chosen = try Symbols(alphabet: alphabet ?? "base62", symbols: nil, alphabetSize: nil)
            guard case .alphabet(let a) = chosen, let b = a.bytes else {
                throw ArgumentError("--alphabet", "give \(arg: "alphabet") or \(arg: "symbols")")
            }
            bytes = b
        }
        let l = try ArgumentText.length(length ?? "22")
        guard l <= 1 << 20 else { throw ArgumentError("--length", "'\(l)' is absurdly long; give at most 1048576") }
        var seedValue: UInt64?
        if let seed {
            seedValue = try UInt64(seed).orUsage(
                "--seed", "'\(seed.prefix(40))' is not a whole number from 0 to \(UInt64.max); e.g. \(arg: "seed", "42")")
        }
        kind = .tokens(symbols: bytes, length: l, seed: seedValue)
    }

    /// A flag given as `true` or `false`; nil when not given.
    static func flag(_ arguments: Arguments, _ name: String) throws(ArgumentError) -> Bool? {
        guard let text = arguments[name] else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw ArgumentError("--\(name)", "'\(text.prefix(40))' is not true or false")
        }
    }

    /// `prefix` for tokens and non-TypeID ids: printable ASCII, no whitespace or control characters,
    /// at most ``maxPrefixBytes`` bytes (empty: none).
    public static func tokenPrefix(_ text: String?) throws(ArgumentError) -> [UInt8] {
        guard let text else { return [] }
        for scalar in text.unicodeScalars where !(0x21...0x7E).contains(scalar.value) {
            throw ArgumentError(
                "--prefix",
                scalar == " " || scalar == "\t"
                    ? "the prefix holds whitespace; use printable ASCII without spaces, e.g. \(arg: "prefix", "sk_live_")"
                    : "the prefix holds U+\(String(scalar.value, radix: 16, uppercase: true)); use printable ASCII without spaces, e.g. \(arg: "prefix", "sk_live_")"
            )
        }
        guard text.utf8.count <= maxPrefixBytes else {
            throw ArgumentError("--prefix", "the prefix has \(text.utf8.count) bytes; at most \(maxPrefixBytes)")
        }
        return Array(text.utf8)
    }

    /// The bytes of `symbols`: printable ASCII, at least two, each once. A space or a tab only with
    /// `allow-whitespace` (a token holding one is easy to miss, and cut, downstream); any other
    /// control character never (a newline would split a token across lines).
    public static func symbolBytes(_ text: String, allowWhitespace: Bool) throws(ArgumentError) -> [UInt8] {
        func refuse(_ words: Words) -> ArgumentError { ArgumentError("--symbols", words) }
        for scalar in text.unicodeScalars {
            let blank = scalar == " " || scalar == "\t"
            if blank && !allowWhitespace {
                throw refuse(
                    "symbols include \(scalar == " " ? "a space" : "a tab"), which tokens would then hold; add \(arg: "allow-whitespace") if that is meant"
                )
            }
            if !blank && (scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) {
                throw refuse(
                    "symbols include U+\(String(scalar.value, radix: 16, uppercase: true)), a control or line-breaking character; use printable characters only"
                )
            }
        }
        guard text.unicodeScalars.allSatisfy(\.isASCII) else {
            throw refuse("the generator needs single-byte (ASCII) symbols; e.g. \(arg: "symbols", "ACGT")")
        }
        let bytes = Array(text.utf8)
        guard bytes.count >= 2 else { throw refuse(Words(AlphabetError.tooFewSymbols(bytes.count).description)) }
        var seen = Set<UInt8>()
        for b in bytes where !seen.insert(b).inserted {
            throw refuse(Words(AlphabetError.duplicateSymbol(Character(Unicode.Scalar(b))).description))
        }
        return bytes
    }

    static func iso(_ millis: UInt64) -> String { UTCTime.iso(millis: Int64(clamping: millis)) }
}
