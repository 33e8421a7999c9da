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

    /// The named scheme, if one was given.
    func resolveScheme() throws -> Scheme? {
        guard let scheme else { return nil }
        return try Scheme.named(scheme).orUsage(
            "--scheme", "unknown scheme '\(scheme)'; use one of \(Scheme.all.map(\.name).joined(separator: ", "))")
    }

    func resolve() throws -> Space {
        let given: [(String, Bool)] = [
            ("--scheme", scheme != nil), ("--bits", bits != nil), ("--space-size", spaceSize != nil),
            (length != nil ? "--length" : "--alphabet", symbols.given || length != nil),
        ]
        let forms = given.filter(\.1).count
        guard forms == 1 else {
            // Blame the second form given (`--scheme cuid2 --length 10`: --length), or --bits when
            // none was.
            let named = given.filter(\.1).map(\.0)
            throw UsageError(
                argument: named.count > 1 ? named[1] : "--bits",
                message: forms == 0
                    ? "no identifier space given; add --alphabet base62 --length 22, or --bits 122, --space-size N or --scheme uuid4"
                    : "give one space: --alphabet/--symbols/--alphabet-size with --length, or --bits, --space-size or --scheme"
            )
        }
        if let scheme = try resolveScheme() {
            do { return try Space(scheme: scheme) } catch { throw UsageError(argument: "--scheme", message: error.message) }
        }
        do {
            if let bits {
                guard let b = wholeNumber(bits), b >= 1 else {
                    throw UsageError(
                        argument: "--bits",
                        message: "'\(bits)' is not a whole number of bits ≥ 1; e.g. --bits 122")
                }
                return try Space(bits: b)
            }
            if let spaceSize {
                let size = try parseInteger(spaceSize, argument: "--space-size", example: "1e12")
                return try Space(size: size)
            }
            let s = try symbols.resolve()
            let length = try parseLength(
                self.length.orUsage("--length", "no length given; add e.g. --length 22"))
            return try s.space(length: length)
        } catch let error as InputError {
            throw UsageError(
                argument: bits != nil ? "--bits" : spaceSize != nil ? "--space-size" : "--length",
                message: error.message)
        }
    }
}
