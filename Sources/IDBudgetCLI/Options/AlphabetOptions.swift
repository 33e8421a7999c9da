import ArgumentParser
import Foundation
import IDBudget
import IDQuestions

/// The alphabet a length is counted in.
struct AlphabetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("A named alphabet: \(Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")).", valueName: "name"),
        completion: .list(Alphabet.builtIns.compactMap(\.name)))
    var alphabet: String?

    @Option(help: ArgumentHelp("Custom symbols, e.g. 'ACGT' (at least 2, no duplicates, printable).", valueName: "symbols"))
    var symbols: String?

    @Option(name: .customLong("alphabet-size"), help: ArgumentHelp("Just the number of symbols.", valueName: "n"))
    var alphabetSize: String?

    var given: Bool { alphabet != nil || symbols != nil || alphabetSize != nil }

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] { [("alphabet", alphabet), ("symbols", symbols), ("alphabet-size", alphabetSize)] }
}
