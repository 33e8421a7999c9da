import Foundation
import IDBudget

/// An alphabet as the options name it — a built-in's name (`alphabet`), custom symbols (`symbols`), or
/// only their number (`alphabet-size`) — or just its size.
public enum Symbols: Sendable {
    case alphabet(Alphabet)
    case size(Int)

    /// The alphabet from whichever of `alphabet`, `symbols`, `alphabet-size` was given (one at most).
    public init(alphabet: String?, symbols: String?, alphabetSize: String?) throws(ArgumentError) {
        let count = [alphabet, symbols, alphabetSize].compactMap { $0 }.count
        guard count <= 1 else {
            throw ArgumentError("--alphabet", "give only one of \(arg: "alphabet"), \(arg: "symbols") or \(arg: "alphabet-size")")
        }
        let names = Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")
        if let alphabet {
            self = .alphabet(
                try Alphabet.named(alphabet).orUsage(
                    "--alphabet", "unknown alphabet '\(alphabet)'; use one of \(names), or \(arg: "symbols")"))
            return
        }
        if let symbols {
            do { self = .alphabet(try Alphabet(symbols: symbols)) } catch { throw ArgumentError("--symbols", "\(error)") }
            return
        }
        if let alphabetSize {
            guard let n = ArgumentText.wholeNumber(alphabetSize), n >= 2, n <= 1 << 20 else {
                throw ArgumentError(
                    "--alphabet-size", "'\(alphabetSize)' is not a whole number from 2 to 1048576; e.g. \(arg: "alphabet-size", "62")")
            }
            self = .size(n)
            return
        }
        throw ArgumentError(
            "--alphabet", "no alphabet given; add \(arg: "alphabet", "base62") (or \(arg: "symbols"), \(arg: "alphabet-size"))")
    }

    public var count: Int {
        switch self {
        case .alphabet(let a): a.count
        case .size(let n): n
        }
    }

    public var name: String {
        switch self {
        case .alphabet(let a): a.name ?? "custom(\(a.count))"
        case .size(let n): "\(n) symbols"
        }
    }

    /// UTF-8 bytes of an identifier of `length` symbols: with the symbols, the longest one's bytes per
    /// symbol; with only the size, one byte each up to 95 symbols (printable ASCII), and unknown above.
    public func bytes(length: Int) -> Int? {
        switch self {
        case .alphabet(let a): a.maxBytes(length: length)
        case .size(let n): n <= Planner.printableASCIICount ? length : nil
        }
    }

    public func space(length: Int) throws(InputError) -> Space {
        switch self {
        case .alphabet(let a): try Space(alphabet: a, length: length)
        case .size(let n): try Space(alphabetSize: n, length: length)
        }
    }
}
