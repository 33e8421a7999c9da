/// The symbols an identifier is written in.
///
/// Symbols are user-perceived characters, so an alphabet of emoji works for the math; the generator
/// additionally needs every symbol to be one byte (see ``isSingleByte``).
public struct Alphabet: Sendable, Hashable, CustomStringConvertible {
    /// The name of a built-in alphabet, or `nil` for custom symbols.
    public let name: String?
    /// The symbols in order; the i-th symbol encodes the digit i.
    public let symbols: [Character]
    /// UTF-8 bytes of the widest symbol: a token of length L takes at most L × this many bytes.
    public let maxSymbolBytes: Int

    /// Validates custom symbols: at least two, no duplicates, no control characters or line
    /// separators (a newline inside a token would break one-id-per-line output).
    public init(symbols text: String, name: String? = nil) throws(AlphabetError) {
        let symbols = Array(text)
        for s in symbols {
            for scalar in s.unicodeScalars {
                switch scalar.properties.generalCategory {
                case .control, .lineSeparator, .paragraphSeparator: throw .controlCharacter(scalar.value)
                default: break
                }
            }
        }
        guard symbols.count >= 2 else { throw .tooFewSymbols(symbols.count) }
        var seen = Set<Character>()
        for s in symbols where !seen.insert(s).inserted { throw .duplicateSymbol(s) }
        self.name = name
        self.symbols = symbols
        self.maxSymbolBytes = symbols.map { $0.utf8.count }.max() ?? 1
    }

    /// The number of symbols.
    public var count: Int { symbols.count }

    /// Whether every symbol is a single UTF-8 byte (ASCII).
    public var isSingleByte: Bool { maxSymbolBytes == 1 }

    /// The most UTF-8 bytes a token of `length` symbols can take.
    public func maxBytes(length: Int) -> Int { length * maxSymbolBytes }

    /// The symbols as bytes, when every symbol is one byte.
    public var bytes: [UInt8]? {
        isSingleByte ? symbols.compactMap { $0.utf8.first } : nil
    }

    public var description: String { name ?? String(symbols) }

    /// A built-in: literals the tests check against the rules `init(symbols:name:)` enforces.
    private init(builtIn name: String, _ text: String) {
        self.name = name
        self.symbols = Array(text)
        self.maxSymbolBytes = 1
    }

    private static func builtIn(_ name: String, _ symbols: String) -> Alphabet { Alphabet(builtIn: name, symbols) }

    /// `0-9A-Za-z`.
    public static let base62 = builtIn("base62", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    /// RFC 4648 §5 URL-safe base64: `A-Za-z0-9-_`.
    public static let base64url = builtIn("base64url", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    /// Bitcoin's base58: base62 without `0`, `O`, `I`, `l`.
    public static let base58 = builtIn("base58", "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
    /// `0-9a-z`.
    public static let base36 = builtIn("base36", "0123456789abcdefghijklmnopqrstuvwxyz")
    /// Crockford's base32: digits and capitals without `I`, `L`, `O`, `U`.
    public static let base32 = builtIn("base32", "0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// Lower-case hexadecimal.
    public static let hex = builtIn("hex", "0123456789abcdef")
    /// `0-9`.
    public static let decimal = builtIn("decimal", "0123456789")

    /// Nano ID's 64 symbols in its own order (`urlAlphabet`): base64url's symbols, shuffled.
    public static let nanoid = builtIn("nanoid", "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict")
    /// Crockford's base32 in lower case, as TypeID writes it.
    public static let lowerBase32 = builtIn("base32 (lower case)", "0123456789abcdefghjkmnpqrstvwxyz")
    /// RFC 4648 §7 base32hex in lower case, as xid writes it.
    public static let base32hex = builtIn("base32hex", "0123456789abcdefghijklmnopqrstuv")
    /// The Firebase push id's 64 symbols in ASCII order (so ids sort as text).
    public static let firebase = builtIn("firebase", "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
    /// Upper-case hexadecimal, as some systems print it.
    public static let upperHex = builtIn("HEX", "0123456789ABCDEF")
    /// Upper-case base36.
    public static let upperBase36 = builtIn("BASE36", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    /// Every built-in alphabet, largest first.
    public static let builtIns: [Alphabet] = [.base64url, .base62, .base58, .base36, .base32, .hex, .decimal]

    /// The built-in alphabet called `name`, if any.
    public static func named(_ name: String) -> Alphabet? {
        builtIns.first { $0.name == name.lowercased() }
    }
}

/// Why a symbol string is not a usable alphabet.
public enum AlphabetError: Error, Equatable, CustomStringConvertible {
    case tooFewSymbols(Int)
    case duplicateSymbol(Character)
    case tooManySymbols(Int, limit: Int)
    case notSingleByte(Character)
    case controlCharacter(UInt32)

    public var description: String {
        switch self {
        case .tooFewSymbols(let n): "an alphabet needs at least 2 distinct symbols, got \(n)"
        case .duplicateSymbol(let c): "symbol '\(c)' appears more than once; each symbol must be distinct"
        case .tooManySymbols(let n, let limit): "\(n) symbols is more than the \(limit) this accepts"
        case .controlCharacter(let v):
            "symbols include the control character U+\(String(v, radix: 16, uppercase: true)); use printable characters only"
        case .notSingleByte(let c): "symbol '\(c)' is more than one byte; the generator needs single-byte (ASCII) symbols"
        }
    }
}
