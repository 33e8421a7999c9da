import ArgumentParser
import Foundation

/// Runs the command and keeps the error contract: bad input gives one line on stderr, exit status 64
/// (EX_USAGE), nothing on stdout; output that cannot be written gives one line and exit status 74 (EX_IOERR).
@main
enum Entry {
    static func main() {
        do {
            var command = try IDBudgetCommand.parseAsRoot()
            try command.run()
            try Output.flush()
        } catch let error as UsageError {
            fail(error.description)
        } catch let error as WriteError {
            Output.diagnostic("idbudget: error: \(error)")
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
            let message = IDBudgetCommand.message(for: error)
                .split(separator: "\n").first.map(String.init) ?? "invalid input"
            fail(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)
        }
    }

    static func fail(_ message: String) -> Never {
        Output.diagnostic("idbudget: error: \(message)")
        exit(64)
    }
}

/// Input refused, with the argument it concerns and what to type instead.
struct UsageError: Error, CustomStringConvertible {
    let argument: String
    let message: String
    /// One line, short enough to read even when the offending input was enormous.
    var description: String {
        let text = message.count > 240 ? "\(message.prefix(110))…\(message.suffix(110))" : message
        return "\(argument): \(text)"
    }
}

extension Optional {
    func orUsage(_ argument: String, _ message: String) throws -> Wrapped {
        guard let self else { throw UsageError(argument: argument, message: message) }
        return self
    }
}
