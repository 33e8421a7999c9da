import ArgumentParser
import Foundation
import IDBudget

/// The identifier space: an alphabet and length, a number of bits, or an explicit size.
struct SpaceOptions: ParsableArguments {
    @OptionGroup var symbols: AlphabetOptions

    @Option(help: ArgumentHelp("Identifier length in symbols (with an alphabet).", valueName: "n"))
    var length: String?

    @Option(help: ArgumentHelp("Random bits per identifier: the space is 2^bits.", valueName: "bits"))
    var bits: String?

    @Option(name: .customLong("space-size"), help: ArgumentHelp("The number of possible identifiers, e.g. 1e12 or 2^96.", valueName: "n"))
    var spaceSize: String?

    @Option(
        help: ArgumentHelp(
            "A known format (see `idbudget schemes`): \(Scheme.all.map(\.name).joined(separator: ", ")).", valueName: "name"),
        completion: .list(Scheme.all.map(\.name)))
    var scheme: String?

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] { symbols.named + [("length", length), ("bits", bits), ("space-size", spaceSize), ("scheme", scheme)] }
}
