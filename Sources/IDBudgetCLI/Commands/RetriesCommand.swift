import ArgumentParser
import Foundation
import IDBudget
import IDQuestions
import Precise

struct RetriesCommand: ParsableCommand, LayerCommand {
    static let question = Question.Command.retries

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
    @OptionGroup var volume: StoreVolumeOptions

    @Option(
        name: .customLong("max-attempts"),
        help: ArgumentHelp("Attempts an insert may take before it fails (1 to \(Retries.maxAttemptsLimit)): 3.", valueName: "k"))
    var maxAttempts: String?

    @Option(
        name: .customLong("max-probability"),
        help: ArgumentHelp("With --max-attempts: a budget for some insert failing; prints the most ids within it.", valueName: "p"))
    var maxProbability: String?

    @OptionGroup var output: FormatOptions

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] {
        space.named + volume.named + [("max-attempts", maxAttempts), ("max-probability", maxProbability)]
    }

    func run() throws {
        guard let answer = try ask(Self.question, named) as? RetriesAnswer else { return }
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
        r.add(
            "attempts, next insert", f.expectedAttemptsNext.map { "\($0)  (d/(d-N), on average)" } ?? "infinite  (N ≥ d: the store is full)"
        )
        r.add("attempts to store all N", f.expectedAttemptsTotal.map { "\($0)  (sum of d/(d-i), i < N)" } ?? "infinite  (N > d)")
        if let k = f.maxAttempts, let p = f.exhaustionProbability {
            r.add("max attempts per insert", String(k))
            r.add("P(some insert fails)", "\(p)  (\(oneIn(p)))")
        }
        if let budget = f.budget {
            r.add("budget", "P ≤ \(budget)")
            if let capacity = f.capacity {
                r.add("capacity", "\(abbreviated(capacity))  (most ids within budget)")
            } else if f.capacityAtLeast != nil {
                r.add("capacity", "at least 2^\(Retries.capacityBitsLimit)  (not searched further)")
            }
        }
        r.notes = a.notes
        return r
    }
}
