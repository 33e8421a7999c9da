import ArgumentParser
import Foundation
import IDBudget
import IDTokens
import Precise

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct FormatOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Output format: text (a table) or json (schema docs/schema/idbudget-output.schema.json).", valueName: "format"))
    var format: OutputFormat = .text
}

/// The alphabet a length is counted in.
struct AlphabetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("A named alphabet: \(Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")).", valueName: "name"),
        completion: .list(Alphabet.builtIns.compactMap(\.name)))
    var alphabet: String?

    @Option(help: ArgumentHelp("Custom symbols, e.g. 'ACGT' (at least 2, no duplicates, printable).", valueName: "symbols"))
    var symbols: String?

    @Option(name: .customLong("alphabet-size"), help: ArgumentHelp("Just the number of symbols.", valueName: "n"))
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
        guard let n = wholeNumber(alphabetSize), n >= 2, n <= 1 << 20 else {
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

    /// UTF-8 bytes of an identifier of `length` symbols: with the symbols, the longest one's bytes per
    /// symbol; with only the size, one byte each up to 95 symbols (printable ASCII), and unknown above.
    func bytes(length: Int) -> Int? {
        switch self {
        case .alphabet(let a): a.maxBytes(length: length)
        case .size(let n): n <= Planner.printableASCIICount ? length : nil
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

    @Option(help: ArgumentHelp("Identifier length in symbols (with an alphabet).", valueName: "n"))
    var length: String?

    @Option(help: ArgumentHelp("Random bits per identifier: the space is 2^bits.", valueName: "bits"))
    var bits: String?

    @Option(name: .customLong("space-size"), help: ArgumentHelp("The number of possible identifiers, e.g. 1e12 or 2^96.", valueName: "n"))
    var spaceSize: String?

    @Option(
        help: ArgumentHelp(
            "A known format (see `idbudget schemes`): \(Scheme.all.map(\.name).joined(separator: ", ")).", valueName: "name"),
        completion: .list(Scheme.all.map(\.name)))
    var scheme: String?

    /// The named scheme, if one was given.
    func resolveScheme() throws -> Scheme? {
        guard let scheme else { return nil }
        return try Scheme.named(scheme).orUsage(
            "--scheme", "unknown scheme '\(scheme)'; use one of \(Scheme.all.map(\.name).joined(separator: ", "))")
    }

    func resolve() throws -> Space {
        let forms = [symbols.given || length != nil, bits != nil, spaceSize != nil, scheme != nil].filter { $0 }.count
        guard forms == 1 else {
            throw UsageError(
                argument: "--bits",
                message: forms == 0
                    ? "no identifier space given; add --alphabet base62 --length 22, or --bits 122, --space-size N or --scheme uuid4"
                    : "give one space: --alphabet/--symbols/--alphabet-size with --length, or --bits, --space-size or --scheme"
            )
        }
        if let scheme = try resolveScheme() {
            return try Space(scheme: scheme)
        }
        do {
            if let bits {
                guard let b = wholeNumber(bits), b >= 1 else {
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
    let text = text.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.allSatisfy(\.isASCIIDigit), Int(text) == nil {
        throw UsageError(argument: "--length", message: "'\(text.prefix(40))' is absurdly long; give at most 1048576")
    }
    guard let n = wholeNumber(text) else {
        throw UsageError(
            argument: "--length", message: "'\(text)' is not a whole number; give one of at least 1, e.g. --length 22")
    }
    guard n >= 1 else {
        throw UsageError(argument: "--length", message: "'\(text)' must be at least 1; e.g. --length 22")
    }
    return n
}

/// A positive whole number written exactly: `1000000`, `3.1536e14`, `1_000`, `2^64`, `2^64-1`.
/// Spaces around it are ignored, as in budgets and rates (a quoted `' 1000'` from a script).
/// With `allowingZero`, 0 is taken too (`generate --count 0`: an empty batch).
func parseInteger(_ text: String, argument: String, example: String, allowingZero: Bool = false) throws -> BigInt {
    let minimum = BigInt(allowingZero ? 0 : 1)
    let text = text.trimmingCharacters(in: .whitespaces)
    if text.contains("^") {
        // b^k, b^k±m, e.g. 2^64, 2^64-1: exact, as large as the counts the math accepts.
        guard let value = ExactDecimal(text), let n = value.integerValue, value.log10Magnitude < Double(Limits.maxCountDigits) else {
            throw UsageError(
                argument: argument,
                message:
                    "'\(text)' is not a power b^k or b^k±m (whole b from 1 to 1000000, k ≥ 0) below 1e\(Limits.maxCountDigits); e.g. 2^64 or 2^64-1"
            )
        }
        guard n >= minimum else {
            throw UsageError(argument: argument, message: "'\(text)' must be at least 1; give e.g. \(example)")
        }
        return n
    }
    if text.hasPrefix("-") {
        throw UsageError(
            argument: argument,
            message: "'\(text)' is negative; give a whole number ≥ \(allowingZero ? 0 : 1) such as \(example)")
    }
    guard let value = ExactDecimal(text) else {
        if let negative = ExactDecimal.exponentBeyondInt(text) {
            throw UsageError(
                argument: argument,
                message: negative
                    ? "'\(text)' is not a whole number; give e.g. \(example)"
                    : "'\(text)' is absurdly large; give less than 1e\(Limits.maxCountDigits)")
        }
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
    guard n >= minimum else {
        throw UsageError(
            argument: argument, message: "'\(text)' must be at least 1; give e.g. \(example)")
    }
    return n
}

/// How many identifiers: a count, or a rate over a lifetime; optionally per scope, per node, per bucket.
struct VolumeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Number of identifiers, exact: 1000000, 3.1536e14 or 2^40.", valueName: "n"))
    var count: String?

    @Option(
        help: ArgumentHelp(
            "Identifiers per unit of time: 1e6/s, 2000/min, 5/ms, 100/h, 10/d, 100/M (a month). Units are case-sensitive: m is minutes, M months.",
            valueName: "rate"))
    var rate: String?

    @Option(
        help: ArgumentHelp(
            "How long identifiers live (or must stay unique): 10y, 6M, 30d, 36h, 90m, 1.5y. Units (case-sensitive): us, ms, s, m or min, h, d, w, M or mo (months), y. A year is 365 days, a month a twelfth of it.",
            valueName: "time"))
    var lifetime: String?

    @Option(
        help: ArgumentHelp(
            "Independent scopes that each hold the volume (devices, tenants): p is that any of them collides.", valueName: "n"))
    var scopes: String?

    @Option(name: .customLong("count-per-scope"), help: ArgumentHelp("Identifiers live in each scope (with --scopes).", valueName: "n"))
    var countPerScope: String?

    @Option(
        help: ArgumentHelp("Nodes that each mint the --count or --rate into the same space (fleet volume = nodes × it).", valueName: "n"))
    var nodes: String?

    /// The volume; `peakRate` is the text of `--peak-rate`, which only `probability` takes (see
    /// ``PeakRateOptions``).
    func resolve(scheme: Scheme? = nil, peakRate: String? = nil) throws -> Volume {
        let scopes = try scopes.map { try parseInteger($0, argument: "--scopes", example: "100000000") } ?? BigInt(1)
        let nodes = try nodes.map { try parseInteger($0, argument: "--nodes", example: "12") } ?? BigInt(1)
        if countPerScope != nil && count != nil {
            throw UsageError(argument: "--count-per-scope", message: "give --count or --count-per-scope, not both")
        }
        let workload: Workload
        if let fixed = count ?? countPerScope {
            let argument = count != nil ? "--count" : "--count-per-scope"
            // Name what was given with the count, and only that.
            if rate != nil {
                throw UsageError(argument: argument, message: "give \(argument) or --rate (with --lifetime), not both")
            }
            if lifetime != nil {
                throw UsageError(argument: "--lifetime", message: "a lifetime goes with --rate; with \(argument), leave --lifetime out")
            }
            if peakRate != nil {
                throw UsageError(argument: "--peak-rate", message: "a peak rate goes with --rate and --lifetime, not with \(argument)")
            }
            let n = try parseInteger(fixed, argument: argument, example: "1000000 or 3.1536e14")
            workload = Workload(count: n, nodes: nodes, scopes: scopes)
        } else {
            guard let rateText = rate else {
                if peakRate != nil {
                    throw UsageError(
                        argument: "--rate", message: "--peak-rate needs the average rate too; add e.g. --rate 1e6/s --lifetime 10y")
                }
                throw UsageError(argument: "--count", message: "no volume given; add --count N, or --rate 1e6/s --lifetime 10y")
            }
            guard let lifetimeText = lifetime else {
                throw UsageError(argument: "--lifetime", message: "a rate needs a lifetime; add e.g. --lifetime 10y")
            }
            let lifetime: Lifetime
            do { lifetime = try Lifetime(parsing: lifetimeText) } catch {
                throw UsageError(argument: "--lifetime", message: error.message)
            }
            var peak: Rate?
            if let text = peakRate {
                do { peak = try Rate(parsing: text) } catch { throw UsageError(argument: "--peak-rate", message: error.message) }
            }
            workload = Workload(rate: try parseRate(rateText), lifetime: lifetime, nodes: nodes, peakRate: peak, scopes: scopes)
        }
        do { return try workload.volume(scheme: scheme) } catch {
            throw UsageError(argument: "--\(error.field.rawValue)", message: error.message)
        }
    }
}

/// The burst rate of a time-bucketed scheme: only `probability` (which takes `--scheme`) has it, so the
/// commands it means nothing to neither list nor take it.
struct PeakRateOptions: ParsableArguments {
    @Option(
        name: .customLong("peak-rate"),
        help: ArgumentHelp("For time-bucketed schemes: the burst rate (at least --rate) to budget every bucket at.", valueName: "rate"))
    var peakRate: String?
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

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// A whole number in any form the other options take (`64`, `2^21`, `1e6`), when it fits an Int.
func wholeNumber(_ text: String) -> Int? {
    let text = text.trimmingCharacters(in: .whitespaces)
    if let n = Int(text) { return n }
    guard text.count <= 64, let value = ExactDecimal(text), value.log10Magnitude < 18 else { return nil }
    return value.integerValue?.intValue
}
