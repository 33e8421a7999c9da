import ArgumentParser
import IDBudget
import IDTokens
import Precise

struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "The minimum length in every named alphabet for a volume and a budget.",
        discussion: """
            Each row: the shortest length that keeps p within budget, its bytes and bits, the p it \
            achieves, and whether it fits an apns-collapse-id (at most 64 bytes).
            Example:
              idbudget plan --rate 1e6/s --lifetime 10y --max-probability 1e-11
            """
    )

    static let apnsCollapseIDBytes = 64

    @OptionGroup var volume: VolumeOptions

    @Option(name: .customLong("max-probability"), help: "The collision budget, strictly between 0 and 1: 1e-11.")
    var maxProbability: String

    @OptionGroup var output: FormatOptions

    func validate() throws {
        _ = try volume.resolve()
        _ = try parseBudget(maxProbability)
    }

    func run() throws {
        let volume = try volume.resolve()
        let budget = try parseBudget(maxProbability)

        var report = Report()
        Render.volumeFields(&report, volume)
        report.add("budget", "budget", .string(budget.text), text: "p ≤ \(budget.text)")
        var rows: [[String]] = [], json: [JSON] = []
        for alphabet in Alphabet.builtIns {
            let length = try Birthday.minimumLength(alphabetSize: alphabet.count, count: volume.count, scopes: volume.groups, budget: budget)
            let space = try Space(alphabet: alphabet, length: length)
            let (p, _) = try Birthday.probability(space: space.size, count: volume.count, scopes: volume.groups)
            let bytes = alphabet.maxBytes(length: length)
            let fits = bytes <= Self.apnsCollapseIDBytes
            // One symbol fewer breaks the budget: that is why this length is the minimum.
            let shorter = length > 1
                ? try Birthday.probability(space: try Space(alphabet: alphabet, length: length - 1).size, count: volume.count, scopes: volume.groups).probability
                : nil
            rows.append([alphabet.name!, String(length), String(bytes), String(format: "%.1f", space.bits), p.short(4), p.oneIn,
                         shorter.map { $0.short(4) } ?? "-", fits ? "yes" : "no"])
            json.append(.object([
                ("alphabet", .string(alphabet.name!)), ("length", .int(length)), ("bytes", .int(bytes)),
                ("bits", .number(Render.roundTo(space.bits, 4))), ("space", .string(space.size.description)),
                ("probability", .string(p.description)),
                ("shorter_probability", shorter.map { .string($0.description) } ?? .null),
                ("fits_apns_collapse_id", .bool(fits)),
            ]))
        }
        report.table = (["alphabet", "length", "bytes", "bits", "probability", "odds", "p at length-1", "apns-collapse-id"], rows, json)
        report.notes += [
            "probability: exact, at the minimum length (30 digits with --format json); p at length-1 exceeds the budget.",
            "apns-collapse-id: at most \(Self.apnsCollapseIDBytes) bytes; a later push with the same id replaces the earlier one.",
        ]
        Output.print(report.render(output.format))
    }
}
