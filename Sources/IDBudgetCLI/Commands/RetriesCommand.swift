import ArgumentParser
import Foundation
import IDBudget
import Precise

struct RetriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retries",
        abstract: "For stores that check uniqueness and redraw on collision: fill, expected attempts, running out.",
        discussion: """
            N ids stored among d values: fill f = N/d, the next insert's expected attempts d/(d-N), the \
            expected attempts to store all N, and with --max-attempts k the chance that some insert fails k \
            times, 1 - prod_{i<N} (1 - (i/d)^k). With --max-probability, the most ids within that budget.
            Example:
              idbudget retries --alphabet base62 --length 8 --count 1e6 --max-attempts 3
            """
    )

    @OptionGroup var space: SpaceOptions
    @OptionGroup var volume: VolumeOptions

    @Option(
        name: .customLong("max-attempts"),
        help: ArgumentHelp("Attempts an insert may take before it fails (1 to \(Retries.maxAttemptsLimit)): 3.", valueName: "k"))
    var maxAttempts: String?

    @Option(
        name: .customLong("max-probability"),
        help: ArgumentHelp("With --max-attempts: a budget for some insert failing; prints the most ids within it.", valueName: "p"))
    var maxProbability: String?

    @OptionGroup var output: FormatOptions

    func validate() throws {
        let scheme = try space.resolveScheme()
        if let scheme, scheme.node == nil, let bucket = scheme.bucket {
            throw UsageError(
                argument: "--scheme",
                message:
                    "\(scheme.name) ids collide only within one \(bucket.rawValue); retries model one flat space: give --bits \(scheme.randomBits) and the ids per \(bucket.rawValue) as --count"
            )
        }
        let space = try space.resolve()
        if volume.existing != nil {
            throw UsageError(
                argument: "--existing",
                message: "retries count every stored id in --count; give the total (stored and new) as --count, without --existing")
        }
        if volume.scopes != nil || volume.countPerScope != nil {
            throw UsageError(
                argument: volume.scopes != nil ? "--scopes" : "--count-per-scope",
                message: "retries model one store; give its --count (or --rate with --lifetime), without scopes")
        }
        let volume = try volume.resolve(scheme: scheme)
        let k = try attempts()
        if maxProbability != nil && k == nil {
            throw UsageError(
                argument: "--max-probability",
                message: "a budget for running out of attempts needs --max-attempts; add e.g. --max-attempts 3")
        }
        if let maxProbability { _ = try parseBudget(maxProbability) }
        do { try Retries.notFull(space: space.size, count: volume.count) } catch let error as InputError {
            throw UsageError(argument: self.volume.count != nil ? "--count" : "--rate", message: error.message)
        }
        if let k {
            do { try Retries.checkAttempts(k, space: space.size) } catch let error as InputError {
                throw UsageError(argument: "--max-attempts", message: error.message)
            }
        }
    }

    /// --max-attempts as a whole number from 1 to the limit.
    func attempts() throws -> Int? {
        guard let text = maxAttempts else { return nil }
        guard let k = wholeNumber(text), k >= 1, k <= Retries.maxAttemptsLimit else {
            throw UsageError(
                argument: "--max-attempts",
                message: "'\(text.prefix(40))' is not a whole number from 1 to \(Retries.maxAttemptsLimit); e.g. --max-attempts 3")
        }
        return k
    }

    func run() throws {
        let scheme = try space.resolveScheme()
        let space = try space.resolve()
        let volume = try volume.resolve(scheme: scheme)
        let budget = try maxProbability.map(parseBudget)
        let answer: RetriesAnswer
        do {
            answer = try Planner.retries(space: space, volume: volume, maxAttempts: try attempts(), budget: budget)
        } catch let error as InputError {
            throw UsageError(argument: budget != nil ? "--max-probability" : "--count", message: error.message)
        }
        try Text.emit(answer, output.format, text: Text.render)
    }
}

extension Text {
    static func render(_ a: RetriesAnswer) -> Report {
        var r = Report()
        space(&r, a.space)
        r.add("stored ids (N)", a.volume.summary)
        let f = a.retries
        r.add("fill f = N/d", f.fill)
        r.add("attempts, next insert", "\(f.expectedAttemptsNext)  (d/(d-N), on average)")
        r.add("attempts to store all N", "\(f.expectedAttemptsTotal)  (sum of d/(d-i), i < N)")
        if let k = f.maxAttempts, let p = f.exhaustionProbability {
            r.add("max attempts per insert", String(k))
            r.add("P(some insert fails)", "\(p)  (\(oneIn(p)))")
        }
        if let budget = f.budget, let capacity = f.capacity {
            r.add("budget", "P ≤ \(budget)")
            r.add("capacity", "\(abbreviated(capacity))  (most ids within budget)")
        }
        r.notes = a.notes
        return r
    }
}
