import Foundation
import IDBudget

// The values the CLI's options take, read by the library as the CLI reads them (`ArgumentText`: the
// same parsers, checks and messages), refused naming the argument. The checks that are the CLI's own
// (alphabets, byte limits) are mirrored here; CLIAgreementTests run the CLI beside these on a table
// of inputs, so the two can not drift apart unnoticed.

/// The library's reading of an argument, its refusal as a 400.
func refusing<T>(_ body: () throws(ArgumentError) -> T) throws(Refusal) -> T {
    do { return try body() } catch { throw Refusal.usage(error.argument, error.message) }
}

func parseLength(_ text: String) throws(Refusal) -> Int { try refusing { () throws(ArgumentError) in try ArgumentText.length(text) } }

func parseInteger(_ text: String, argument: String, example: String) throws(Refusal) -> BigInt {
    try refusing { () throws(ArgumentError) in try ArgumentText.integer(text, argument: argument, example: example) }
}

func parseRate(_ text: String, argument: String = "--rate") throws(Refusal) -> Rate {
    try refusing { () throws(ArgumentError) in try ArgumentText.rate(text, argument: argument) }
}

func parseBudget(_ text: String) throws(Refusal) -> Budget { try refusing { () throws(ArgumentError) in try ArgumentText.budget(text) } }

func parseMaxBytes(_ text: String?) throws(Refusal) -> Int? {
    guard let text else { return nil }
    guard let n = wholeNumber(text), n >= 1 else {
        throw Refusal.usage("--max-bytes", "'\(text)' is not a whole number of bytes ≥ 1; e.g. --max-bytes 64")
    }
    return n
}

/// A whole number in any form the other options take (`64`, `2^21`, `1e6`), when it fits an Int.
func wholeNumber(_ text: String) -> Int? { ArgumentText.wholeNumber(text) }

/// An alphabet, or just its size.
enum Symbols {
    case alphabet(Alphabet)
    case size(Int)

    func space(length: Int) throws(InputError) -> Space {
        switch self {
        case .alphabet(let a): try Space(alphabet: a, length: length)
        case .size(let n): try Space(alphabetSize: n, length: length)
        }
    }
}

/// The alphabet from whichever of `alphabet`, `symbols`, `alphabet-size` was given.
func resolveSymbols(alphabet: String?, symbols: String?, alphabetSize: String?) throws(Refusal) -> Symbols {
    let count = [alphabet, symbols, alphabetSize].compactMap { $0 }.count
    guard count <= 1 else {
        throw Refusal.usage("--alphabet", "give only one of --alphabet, --symbols or --alphabet-size")
    }
    let names = Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")
    if let alphabet {
        return .alphabet(
            try Alphabet.named(alphabet).orUsage("--alphabet", "unknown alphabet '\(alphabet)'; use one of \(names), or --symbols"))
    }
    if let symbols {
        do { return .alphabet(try Alphabet(symbols: symbols)) } catch { throw Refusal.usage("--symbols", "\(error)") }
    }
    if let alphabetSize {
        guard let n = wholeNumber(alphabetSize), n >= 2, n <= 1 << 20 else {
            throw Refusal.usage(
                "--alphabet-size", "'\(alphabetSize)' is not a whole number from 2 to 1048576; e.g. --alphabet-size 62")
        }
        return .size(n)
    }
    throw Refusal.usage("--alphabet", "no alphabet given; add --alphabet base62 (or --symbols, --alphabet-size)")
}
