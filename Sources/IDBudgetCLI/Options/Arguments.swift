import ArgumentParser
import Foundation
import IDBudget

// The values options take, parsed with errors that name the argument and say what to type.

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

func parseRate(_ text: String) throws -> Rate {
    do { return try Rate(parsing: text) } catch {
        throw UsageError(argument: "--rate", message: error.message)
    }
}

func parseGrowth(_ text: String) throws -> Growth {
    do { return try Growth(parsing: text) } catch {
        throw UsageError(argument: "--growth", message: error.message)
    }
}

func parseArrivals(_ text: String) throws -> Arrivals {
    do { return try Arrivals(parsing: text) } catch {
        throw UsageError(argument: "--arrivals", message: error.message)
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
