import ArgumentParser
import Foundation
import IDBudget
import IDQuestions

// The options go through the one layer (IDQuestions) that the server and the page use too: each
// command lists its options by the layer's names, and the layer reads, checks and answers them.

/// The answer to `command` asked with `named` (the options given; nil ones left out); a refusal is a
/// usage error naming the argument.
func ask(_ command: Question.Command, _ named: [(String, String?)]) throws -> any Answer {
    var arguments = Arguments()
    for case (let name, let value?) in named { arguments[name] = value }
    return try usage { () throws(ArgumentError) in try Question(command, arguments).answer() }
}

/// The library's reading of an argument (`ArgumentText`), its refusal as a usage error.
func usage<T>(_ body: () throws(ArgumentError) -> T) throws -> T {
    do { return try body() } catch { throw UsageError(argument: error.flag, message: error.message) }
}

/// A command the one layer answers: its question there, and its options by the layer's names.
protocol LayerCommand {
    static var question: Question.Command { get }
    var named: [(String, String?)] { get }
}
