import ArgumentParser
import Foundation
import IDAudit
import IDBudget
import IDQuestions
import IDTokens

/// Runs the command and keeps the exit-status contract (sysexits.h): 0 the answer passes, 1 it fails its
/// check (an audit that is not consistent, a length that does not fit --max-bytes), 64 bad usage, 65 bad
/// data (a corrupt summary), 66 an input that cannot be opened, 70 an id format past the end of its time
/// (`generate`), 73 an output that cannot be created, 74 an I/O error. Every error is one line on stderr
/// naming the argument, with nothing on stdout.
@main
enum Entry {
    static func main() {
        do {
            try checkArguments(Array(CommandLine.arguments.dropFirst()))
            var command = try IDBudgetCommand.parseAsRoot()
            try command.run()
            try Output.flush()
            exit(Output.status)
        } catch let error as UsageError {
            fail(error.description)
        } catch let error as Failure {
            Output.diagnostic("idbudget: error: \(error.description)")
            exit(error.status.rawValue)
        } catch let error as WriteError {
            Output.diagnostic("idbudget: error: \(error)")
            exit(74)
        } catch let error as IDGeneratorError {
            // Not bad input: the generator has no id left to give (EX_SOFTWARE).
            Output.diagnostic("idbudget: error: \(error)")
            exit(70)
        } catch let error as AuditError {
            Output.diagnostic("idbudget: error: \(error)".escapingControlCharacters)
            exit(74)
        } catch {
            let code = IDBudgetCommand.exitCode(for: error)
            if code == .success {
                // --help and --version
                Output.print(IDBudgetCommand.fullMessage(for: error))
                do { try Output.flush() } catch {
                    Output.diagnostic("idbudget: error: \(error)")
                    exit(74)
                }
                exit(0)
            }
            // One line: a value with a newline in it must not cut the message short.
            let message = IDBudgetCommand.message(for: error).split(separator: "\n").joined(separator: "; ").escapingControlCharacters
            fail(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)
        }
    }

    /// What the parser would let slip: an option given twice (it would keep the last silently) and help
    /// for a subcommand that does not exist (it would print the overview and exit 0).
    static func checkArguments(_ arguments: [String]) throws {
        var seen = Set<String>()
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") && argument != "--help" {
            // --monotonic and --no-monotonic are one option given twice.
            let given = String(argument.prefix { $0 != "=" })
            let name = given.hasPrefix("--no-") ? "--" + given.dropFirst(5) : given
            if !seen.insert(name).inserted {
                throw UsageError(argument: name, message: "given more than once; give it once")
            }
        }
        // `--count -5` would read as a missing value followed by an unknown option `-5`.
        let options = arguments.prefix(while: { $0 != "--" })
        // (`--symbols` takes any characters; its own error stands.)
        // Every negative value, `--count -5` and `--count=-5` alike; the first by name is blamed, as
        // the server and the page blame it (their parameters have no order).
        var negatives: [ArgumentError] = []
        // Only options of this command that take numbers: a text (`--prefix -1_`) is the text it is, an
        // option the command lacks is ArgumentParser's "Unknown option", as the layer calls it unknown.
        let command = arguments.first
        for (argument, next) in zip(options, options.dropFirst())
        where !argument.contains("=") && ArgumentText.takesNumber(argument, command: command) && argument.hasPrefix("--") {
            if let refusal = ArgumentText.negative(next, argument: argument, command: command) { negatives.append(refusal) }
        }
        for argument in options where argument.hasPrefix("--") && argument.contains("=") {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard ArgumentText.takesNumber(String(parts[0]), command: command) else { continue }
            if let refusal = ArgumentText.negative(String(parts[1]), argument: String(parts[0]), command: command) {
                negatives.append(refusal)
            }
        }
        if let first = negatives.min(by: { $0.argument < $1.argument }) {
            throw UsageError(argument: first.flag, message: first.message)
        }
        let names = IDBudgetCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        if arguments.first == "help", arguments.count > 1 {
            guard names.contains(arguments[1]) else {
                throw UsageError(
                    argument: "help", message: "no subcommand '\(arguments[1].prefix(40))'; use one of \(names.joined(separator: ", "))")
            }
        }
        // `idbudget nosuchcommand --help` would print the overview and exit 0: the root takes no
        // positional argument, so a first word that is no subcommand is always a mistake.
        if let first = arguments.first, !first.hasPrefix("-"), first != "help", !names.contains(first) {
            throw UsageError(
                argument: "'\(first.prefix(40))'", message: "no such subcommand; use one of \(names.joined(separator: ", ")), or help")
        }
    }

    static func fail(_ message: String) -> Never {
        Output.diagnostic("idbudget: error: \(message.escapingControlCharacters)")
        exit(64)
    }
}

/// The exit statuses idbudget uses (sysexits.h).
enum ExitStatus: Int32 {
    case passes = 0
    case fails = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case software = 70
    case cannotCreate = 73
    case ioError = 74
}

/// An error that is not bad usage: bad data, an input or output that cannot be opened, an I/O error.
struct Failure: Error, CustomStringConvertible {
    let status: ExitStatus
    let argument: String
    let message: String
    var description: String {
        "\(argument): \(ArgumentError.shortened(message))".escapingControlCharacters
    }
}

/// Input refused, with the argument it concerns and what to type instead.
struct UsageError: Error, CustomStringConvertible {
    let argument: String
    let message: String
    /// One line, short enough to read even when the offending input was enormous.
    var description: String {
        "\(argument): \(ArgumentError.shortened(message))".escapingControlCharacters
    }
}

extension Optional {
    func orUsage(_ argument: String, _ message: String) throws -> Wrapped {
        guard let self else { throw UsageError(argument: argument, message: message) }
        return self
    }
}
