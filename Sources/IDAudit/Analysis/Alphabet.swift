import Foundation
import IDBudget
import IDFormats

/// The alphabet a stream is judged over: a named one where the symbols seen fit it and its unseen
/// symbols could be chance, else the symbols seen.
extension AuditAnalysis {
    /// The alphabet chosen for a stream: its name ("observed symbols" when no named one fits) and size.
    struct ChosenAlphabet {
        static let observedName = "observed symbols"
        let name: String
        let size: Int
        /// Only the symbols the ids show: too few duplicates cannot be judged against it.
        var isObserved: Bool { name == Self.observedName }
    }

    /// Alphabets an audit recognises: the built-ins and the upper-case forms of hex and base36.
    static let candidates: [Alphabet] = Alphabet.builtIns + [.upperHex, .upperBase36]

    /// The smallest candidate holding every varying symbol, unless its unseen symbols cannot be
    /// chance; ULID and KSUID have alphabets of their own.
    static func chooseAlphabet(for s: AuditSummary, format: TimeFormat?) -> ChosenAlphabet {
        if let own = format?.ownAlphabet { return ChosenAlphabet(name: own.name, size: own.size) }
        let rows = varyingRows(of: s, format: format)
        // Symbols at positions that vary choose the alphabet (a constant prefix or a UUID's hyphens don't).
        var varying = Set<Unicode.Scalar>()
        for p in rows { varying.formUnion(p.keys) }
        if (s.lengths.keys.max() ?? 0) > AuditSummary.positionLimit || varying.isEmpty { varying = s.symbols }
        let seen = ChosenAlphabet(name: ChosenAlphabet.observedName, size: Swift.max(varying.count, 2))
        let observed = String(String.UnicodeScalarView(varying.sorted { $0.value < $1.value }))
        guard let a = candidates.filter({ a in observed.allSatisfy { a.symbols.contains($0) } }).min(by: { $0.count < $1.count })
        else { return seen }
        // A named alphabet only where its unseen symbols could be chance: k of its a symbols in N
        // uniform draws has probability at most C(a, k)·(k/a)^N. Binary strings are not decimal.
        let k = Double(varying.count)
        var draws = 0.0
        for p in rows { draws += Double(p.values.reduce(0, &+)) }
        let logChance = lgamma(Double(a.count) + 1) - lgamma(k + 1) - lgamma(Double(a.count) - k + 1) + draws * log(k / Double(a.count))
        if k >= 1, k < Double(a.count), logChance < log(1e-9) { return seen }
        return ChosenAlphabet(name: a.name ?? ChosenAlphabet.observedName, size: a.count)
    }

    /// The symbol counts of the positions that vary, outside the format's timestamp.
    static func varyingRows(of s: AuditSummary, format: TimeFormat?) -> [[Unicode.Scalar: Int]] {
        s.positions.enumerated().filter { i, p in p.count > 1 && !(format?.timePositions.contains(i) ?? false) }.map(\.element)
    }
}
