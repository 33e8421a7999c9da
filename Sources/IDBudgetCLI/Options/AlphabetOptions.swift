import ArgumentParser
import Foundation
import IDBudget

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
