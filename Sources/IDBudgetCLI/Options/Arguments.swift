import ArgumentParser
import Foundation
import IDBudget

// The values options take, parsed with errors that name the argument and say what to type.

/// The library's reading of an argument (`ArgumentText`), its refusal as a usage error.
func usage<T>(_ body: () throws(ArgumentError) -> T) throws -> T {
    do { return try body() } catch { throw UsageError(argument: error.argument, message: error.message) }
}

func parseLength(_ text: String) throws -> Int { try usage { () throws(ArgumentError) in try ArgumentText.length(text) } }

/// A positive whole number written exactly (see `ArgumentText.integer`); with `allowingZero`, 0 too.
func parseInteger(_ text: String, argument: String, example: String, allowingZero: Bool = false) throws -> BigInt {
    try usage { () throws(ArgumentError) in
        try ArgumentText.integer(text, argument: argument, example: example, allowingZero: allowingZero)
    }
}

func parseRate(_ text: String) throws -> Rate { try usage { () throws(ArgumentError) in try ArgumentText.rate(text) } }

func parseGrowth(_ text: String) throws -> Growth { try usage { () throws(ArgumentError) in try ArgumentText.growth(text) } }

func parseArrivals(_ text: String) throws -> Arrivals { try usage { () throws(ArgumentError) in try ArgumentText.arrivals(text) } }

func parseBudget(_ text: String) throws -> Budget { try usage { () throws(ArgumentError) in try ArgumentText.budget(text) } }

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// A whole number in any form the other options take (`64`, `2^21`, `1e6`), when it fits an Int.
func wholeNumber(_ text: String) -> Int? { ArgumentText.wholeNumber(text) }
