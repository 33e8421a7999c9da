import ArgumentParser
import IDBudget
import Precise

struct LengthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "length",
        abstract: "The shortest identifier that keeps the collision probability within budget.",
        discussion: "Example:\n  idbudget length --alphabet base62 --count 3.1536e14 --max-probability 1e-11"
    )

    @OptionGroup var symbols: AlphabetOptions
    @OptionGroup var volume: VolumeOptions

    @Option(name: .customLong("max-probability"), help: "The collision budget, strictly between 0 and 1: 1e-11.")
    var maxProbability: String

    @Option(name: .customLong("max-bytes"), help: "A byte limit to check, e.g. 64 for an apns-collapse-id.")
    var maxBytes: String?

    @OptionGroup var output: FormatOptions

    func validate() throws {
        _ = try symbols.resolve()
        _ = try volume.resolve()
        _ = try parseBudget(maxProbability)
        _ = try parseMaxBytes(maxBytes)
    }

    func run() throws {
        let symbols = try symbols.resolve()
        let volume = try volume.resolve()
        let budget = try parseBudget(maxProbability)
        let limit = try parseMaxBytes(maxBytes)
        let length = try Birthday.minimumLength(alphabetSize: symbols.count, count: volume.count, scopes: volume.groups, budget: budget)
        let space = try symbols.space(length: length)

        var report = Report()
        report.add("alphabet", "alphabet", .string(symbols.name), text: "\(symbols.name) (\(symbols.count) symbols)")
        report.add("length", "minimum length", .int(length), text: String(length))
        let bytes = symbols.bytes(length: length)
        report.add("bytes", "bytes (UTF-8)", .int(bytes), text: String(bytes))
        Render.spaceFields(&report, space)
        Render.volumeFields(&report, volume)
        report.add("budget", "budget", .string(budget.text), text: "p ≤ \(budget.text)")
        try Render.probabilityFields(&report, space: space, count: volume.count, scopes: volume.groups)
        if length > 1 {
            // The proof of minimality: one symbol fewer breaks the budget.
            let shorter = try symbols.space(length: length - 1)
            let (p, _) = try Birthday.probability(space: shorter.size, count: volume.count, scopes: volume.groups)
            report.add("shorter_probability", "with \(length - 1) symbols", .string(p.description), text: "\(p)  (over budget)")
        }
        if let limit {
            report.add("max_bytes", "max bytes", .int(limit), text: String(limit))
            report.add("fits_max_bytes", "fits", .bool(bytes <= limit),
                       text: bytes <= limit ? "yes (\(bytes) ≤ \(limit) bytes)" : "NO: \(bytes) bytes > \(limit)")
        }
        Output.print(report.render(output.format))
    }
}

func parseMaxBytes(_ text: String?) throws -> Int? {
    guard let text else { return nil }
    guard let n = Int(text), n >= 1 else {
        throw UsageError(argument: "--max-bytes", message: "'\(text)' is not a whole number of bytes ≥ 1; e.g. --max-bytes 64")
    }
    return n
}
