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
        try Text.emit(SchemesAnswer(), output.format, text: Text.render)
    }
}
