import Foundation
import IDBudget

// The values the CLI's options take, parsed as `Sources/IDBudgetCLI/Options/Arguments.swift` parses
// them (the same library parsers, the same checks, the same messages), refusing with the argument's
// name. The CLI is an executable target, which no other package can import; CLIAgreementTests run the
// CLI beside these on a table of inputs, so the two can not drift apart unnoticed.

func parseLength(_ text: String) throws(Refusal) -> Int {
    let text = text.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.allSatisfy(\.isASCIIDigit), Int(text) == nil {
        throw Refusal.usage("--length", "'\(text.prefix(40))' is absurdly long; give at most 1048576")
    }
    guard let n = wholeNumber(text) else {
        throw Refusal.usage("--length", "'\(text)' is not a whole number; give one of at least 1, e.g. --length 22")
    }
    guard n >= 1 else {
        throw Refusal.usage("--length", "'\(text)' must be at least 1; e.g. --length 22")
    }
    return n
}

/// A positive whole number written exactly: `1000000`, `3.1536e14`, `1_000`, `2^64`, `2^64-1`.
func parseInteger(_ text: String, argument: String, example: String) throws(Refusal) -> BigInt {
    let minimum = BigInt(1)
    let text = text.trimmingCharacters(in: .whitespaces)
    if text.contains("^") {
        guard let value = ExactDecimal(text), let n = value.integerValue, value.log10Magnitude < Double(Limits.maxCountDigits) else {
            throw Refusal.usage(
                argument,
                "'\(text)' is not a power b^k or b^k±m (whole b from 1 to 1000000, k ≥ 0) below 1e\(Limits.maxCountDigits); e.g. 2^64 or 2^64-1"
            )
        }
        guard n >= minimum else { throw Refusal.usage(argument, "'\(text)' must be at least 1; give e.g. \(example)") }
        return n
    }
    if text.hasPrefix("-") {
        throw Refusal.usage(argument, "'\(text)' is negative; give a whole number ≥ 1 such as \(example)")
    }
    guard let value = ExactDecimal(text) else {
        if let negative = ExactDecimal.exponentBeyondInt(text) {
            throw Refusal.usage(
                argument,
                negative
                    ? "'\(text)' is not a whole number; give e.g. \(example)"
                    : "'\(text)' is absurdly large; give less than 1e\(Limits.maxCountDigits)")
        }
        throw Refusal.usage(argument, "'\(text)' is not a number; give a whole number such as \(example)")
    }
    guard value.log10Magnitude < Double(Limits.maxCountDigits) else {
        throw Refusal.usage(argument, "'\(text)' is absurdly large; give less than 1e\(Limits.maxCountDigits)")
    }
    guard let n = value.integerValue else {
        throw Refusal.usage(argument, "'\(text)' is not a whole number; give e.g. \(example)")
    }
    guard n >= minimum else { throw Refusal.usage(argument, "'\(text)' must be at least 1; give e.g. \(example)") }
    return n
}

func parseRate(_ text: String, argument: String = "--rate") throws(Refusal) -> Rate {
    do { return try Rate(parsing: text) } catch { throw Refusal.usage(argument, error.message) }
}

func parseLifetime(_ text: String) throws(Refusal) -> Lifetime {
    do { return try Lifetime(parsing: text) } catch { throw Refusal.usage("--lifetime", error.message) }
}

func parseBudget(_ text: String) throws(Refusal) -> Budget {
    do { return try Budget(parsing: text) } catch { throw Refusal.usage("--max-probability", error.message) }
}

func parseMaxBytes(_ text: String?) throws(Refusal) -> Int? {
    guard let text else { return nil }
    guard let n = wholeNumber(text), n >= 1 else {
        throw Refusal.usage("--max-bytes", "'\(text)' is not a whole number of bytes ≥ 1; e.g. --max-bytes 64")
    }
    return n
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
