import ArgumentParser
import IDBudget

struct SchemesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schemes",
        abstract: "Known identifier formats: random bits, encoding, size, time buckets, and sources.",
        discussion: "Use a name with --scheme, e.g.\n  idbudget probability --scheme uuid7 --rate 1e6/s --lifetime 10y"
    )

    @OptionGroup var output: FormatOptions

    func run() throws {
        var report = Report()
        let rows = Scheme.all.map { s in
            [s.name, String(s.randomBits), s.bucket.map { "per \($0.rawValue)" } ?? "per id", s.encoding, String(s.length), String(s.bytes), s.source]
        }
        let json: [JSON] = Scheme.all.map { s in
            .object([
                ("name", .string(s.name)), ("random_bits", .int(s.randomBits)),
                ("bucket", s.bucket.map { .string($0.rawValue) } ?? .null), ("encoding", .string(s.encoding)),
                ("length", .int(s.length)), ("bytes", .int(s.bytes)), ("notes", .string(s.notes)), ("source", .string(s.source)),
            ])
        }
        report.table = (["scheme", "random bits", "collide", "encoding", "chars", "bytes", "source"], rows, json)
        report.notes = Scheme.all.map { "\($0.name): \($0.notes)" }
        Output.print(report.render(output.format))
    }
}
