import ArgumentParser
import IDBudget
import IDTokens
import Precise

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct FormatOptions: ParsableArguments {
    @Option(help: "Output format: text (a table) or json (stable keys, exact strings).")
    var format: OutputFormat = .text
}

/// The alphabet a length is counted in.
struct AlphabetOptions: ParsableArguments {
    @Option(
        help: "A named alphabet: \(Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")).")
    var alphabet: String?

    @Option(help: "Custom symbols, e.g. 'ACGT' (at least 2, no duplicates).")
    var symbols: String?

    @Option(name: .customLong("alphabet-size"), help: "Just the number of symbols.")
    var alphabetSize: String?

    var given: Bool { alphabet != nil || symbols != nil || alphabetSize != nil }

    func resolve() throws -> Symbols {
        try resolveSymbols(alphabet: alphabet, symbols: symbols, alphabetSize: alphabetSize)
    }
}

/// The alphabet from whichever of --alphabet, --symbols, --alphabet-size was given.
func resolveSymbols(alphabet: String?, symbols: String?, alphabetSize: String?) throws -> Symbols {
    let count = [alphabet, symbols, alphabetSize].compactMap { $0 }.count
    guard count <= 1 else {
        throw UsageError(
            argument: "--alphabet", message: "give only one of --alphabet, --symbols or --alphabet-size")
    }
    if let alphabet {
        return .alphabet(
            try Alphabet.named(alphabet).orUsage(
                "--alphabet",
                "unknown alphabet '\(alphabet)'; use one of \(Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")), or --symbols"
            ))
    }
    if let symbols {
        do { return .alphabet(try Alphabet(symbols: symbols)) } catch {
            throw UsageError(argument: "--symbols", message: "\(error)")
        }
    }
    if let alphabetSize {
        guard let n = Int(alphabetSize), n >= 2, n <= 1 << 20 else {
            throw UsageError(
                argument: "--alphabet-size",
                message:
                    "'\(alphabetSize)' is not a whole number from 2 to 1048576; e.g. --alphabet-size 62")
        }
        return .size(n)
    }
    throw UsageError(
        argument: "--alphabet",
        message: "no alphabet given; add --alphabet base62 (or --symbols, --alphabet-size)")
}

/// An alphabet, or just its size.
enum Symbols {
    case alphabet(Alphabet)
    case size(Int)

    var count: Int {
        switch self {
        case .alphabet(let a): a.count
        case .size(let n): n
        }
    }

    var name: String {
        switch self {
        case .alphabet(let a): a.name ?? "custom(\(a.count))"
        case .size(let n): "\(n) symbols"
        }
    }

    /// UTF-8 bytes of an identifier of `length` symbols; single-byte when only the size is known.
    func bytes(length: Int) -> Int {
        switch self {
        case .alphabet(let a): a.maxBytes(length: length)
        case .size: length
        }
    }

    func space(length: Int) throws(InputError) -> Space {
        switch self {
        case .alphabet(let a): try Space(alphabet: a, length: length)
        case .size(let n): try Space(alphabetSize: n, length: length)
        }
    }
}

/// The identifier space: an alphabet and length, a number of bits, or an explicit size.
struct SpaceOptions: ParsableArguments {
    @OptionGroup var symbols: AlphabetOptions

    @Option(help: "Identifier length in symbols (with an alphabet).")
    var length: String?

    @Option(help: "Random bits per identifier: the space is 2^bits.")
    var bits: String?

    @Option(name: .customLong("space-size"), help: "The number of possible identifiers, e.g. 1e12.")
    var spaceSize: String?

    func resolve() throws -> Space {
        let forms = [symbols.given || length != nil, bits != nil, spaceSize != nil].filter { $0 }.count
        guard forms == 1 else {
            throw UsageError(
                argument: "--bits",
                message: forms == 0
                    ? "no identifier space given; add --alphabet base62 --length 22, or --bits 122, or --space-size N"
                    : "give one space: --alphabet/--symbols/--alphabet-size with --length, or --bits, or --space-size"
            )
        }
        do {
            if let bits {
                guard let b = Int(bits), b >= 1 else {
                    throw UsageError(
                        argument: "--bits",
                        message: "'\(bits)' is not a whole number of bits ≥ 1; e.g. --bits 122")
                }
                return try Space(bits: b)
            }
            if let spaceSize {
                let size = try parseInteger(spaceSize, argument: "--space-size", example: "1e12")
                return try Space(size: size)
            }
            let s = try symbols.resolve()
            let length = try parseLength(
                self.length.orUsage("--length", "no length given; add e.g. --length 22"))
            return try s.space(length: length)
        } catch let error as InputError {
            throw UsageError(
                argument: bits != nil ? "--bits" : spaceSize != nil ? "--space-size" : "--length",
                message: error.message)
        }
    }
}

func parseLength(_ text: String) throws -> Int {
    guard let n = Int(text), n >= 1 else {
        throw UsageError(
            argument: "--length", message: "'\(text)' is not a whole number ≥ 1; e.g. --length 22")
    }
    return n
}

/// A positive whole number written exactly: `1000000`, `3.1536e14`, `1_000`.
func parseInteger(_ text: String, argument: String, example: String) throws -> BigInt {
    if text.hasPrefix("-") {
        throw UsageError(
            argument: argument,
            message: "'\(text)' is negative; give a whole number ≥ 1 such as \(example)")
    }
    guard let value = ExactDecimal(text) else {
        throw UsageError(
            argument: argument,
            message: "'\(text)' is not a number; give a whole number such as \(example)")
    }
    guard value.log10Magnitude < Double(Limits.maxCountDigits) else {
        throw UsageError(
            argument: argument,
            message: "'\(text)' is absurdly large; give less than 1e\(Limits.maxCountDigits)")
    }
    guard let n = value.integerValue else {
        throw UsageError(
            argument: argument, message: "'\(text)' is not a whole number; give e.g. \(example)")
    }
    guard n >= BigInt(1) else {
        throw UsageError(
            argument: argument, message: "'\(text)' must be at least 1; give e.g. \(example)")
    }
    return n
}

/// How many identifiers: a count, or a rate over a lifetime.
struct VolumeOptions: ParsableArguments {
    @Option(help: "Number of identifiers, exact: 1000000 or 3.1536e14.")
    var count: String?

    @Option(help: "Identifiers per unit of time: 1e6/s, 2000/min, 5/ms, 100/h, 10/d.")
    var rate: String?

    @Option(
        help:
            "How long identifiers live (or must stay unique): 10y, 30d, 36h, 90m, 1.5y. A year is 365 days."
    )
    var lifetime: String?

    func resolve() throws -> Volume {
        if let count {
            guard rate == nil, lifetime == nil else {
                throw UsageError(
                    argument: "--count", message: "give either --count or --rate with --lifetime, not both")
            }
            return Volume(
                count: try parseInteger(count, argument: "--count", example: "1000000 or 3.1536e14"),
                rate: nil, lifetime: nil)
        }
        guard let rateText = rate else {
            throw UsageError(
                argument: "--count",
                message: "no volume given; add --count N, or --rate 1e6/s --lifetime 10y")
        }
        guard let lifetimeText = lifetime else {
            throw UsageError(
                argument: "--lifetime", message: "a rate needs a lifetime; add e.g. --lifetime 10y")
        }
        let rate = try parseRate(rateText)
        let lifetime: Lifetime
        do { lifetime = try Lifetime(parsing: lifetimeText) } catch {
            throw UsageError(argument: "--lifetime", message: error.message)
        }
        let n = rate.count(over: lifetime)
        guard n.decimalDigitCount <= Limits.maxCountDigits else {
            throw UsageError(
                argument: "--rate",
                message:
                    "\(rateText) over \(lifetimeText) is absurdly many identifiers (≥ 1e\(Limits.maxCountDigits))"
            )
        }
        return Volume(count: n, rate: rate, lifetime: lifetime)
    }
}

func parseRate(_ text: String) throws -> Rate {
    do { return try Rate(parsing: text) } catch {
        throw UsageError(argument: "--rate", message: error.message)
    }
}

func parseBudget(_ text: String) throws -> Budget {
    do { return try Budget(parsing: text) } catch {
        throw UsageError(argument: "--max-probability", message: error.message)
    }
}

struct Volume {
    let count: BigInt
    let rate: Rate?
    let lifetime: Lifetime?

    var summary: String {
        guard let rate, let lifetime else { return count.description }
        return "\(count) (\(rate) for \(lifetime))"
    }
}
