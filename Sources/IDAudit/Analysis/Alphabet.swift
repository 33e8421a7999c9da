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
        /// Symbols left out as a few stray lines' (a corrupted line's space or `é`), each with the most
        /// ids that show it at one position.
        var strays: [(symbol: Unicode.Scalar, ids: Int)] = []
        /// Only the symbols the ids show: too few duplicates cannot be judged against it.
        var isObserved: Bool { name == Self.observedName }
    }

    /// Alphabets an audit recognises: the built-ins and the upper-case forms of hex and base36.
    static let candidates: [Alphabet] = Alphabet.builtIns + [.upperHex, .upperBase36]

    /// The smallest candidate holding every varying symbol, unless its unseen symbols cannot be
    /// chance; ULID and KSUID have alphabets of their own.
    ///
    /// Symbols that a few stray lines brought — no more ids than ``strayTolerance(_:)`` show one at
    /// any position — do not choose it when, without them, a named alphabet fits where none did with
    /// them (one corrupted UUID among thousands must not make the stream "observed symbols"). They are
    /// named in the findings; ``classify(_:alphabetSize:distinct:inflation:)`` leaves them out of each
    /// position on the same tolerance.
    static func chooseAlphabet(for s: AuditSummary, format: TimeFormat?) -> ChosenAlphabet {
        if let own = format?.ownAlphabet { return ChosenAlphabet(name: own.name, size: own.size) }
        let rows = varyingRows(of: s, format: format)
        // Symbols at positions that vary choose the alphabet (a constant prefix or a UUID's hyphens don't).
        var varying = Set<Unicode.Scalar>()
        for p in rows { varying.formUnion(p.keys) }
        if (s.lengths.keys.max() ?? 0) > AuditSummary.positionLimit || varying.isEmpty { varying = s.symbols }
        let chosen = chooseAlphabet(symbols: varying, rows: rows)
        guard chosen.isObserved, !rows.isEmpty else { return chosen }
        let tolerance = strayTolerance(s.ids)
        let strays = varying.compactMap { c -> (symbol: Unicode.Scalar, ids: Int)? in
            let most = rows.reduce(0) { Swift.max($0, $1[c] ?? 0) }
            return most <= tolerance ? (c, most) : nil
        }
        guard !strays.isEmpty, strays.count < varying.count else { return chosen }
        let left = varying.subtracting(strays.map(\.symbol))
        var core = chooseAlphabet(symbols: left, rows: rows.map { $0.filter { left.contains($0.key) } })
        guard !core.isObserved else { return chosen }
        core.strays = strays.sorted { $0.symbol.value < $1.symbol.value }
        return core
    }

    private static func chooseAlphabet(symbols varying: Set<Unicode.Scalar>, rows: [[Unicode.Scalar: Int]]) -> ChosenAlphabet {
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

    /// Hex or Crockford's base32 written in both cases (UUIDs from two producers, `UUID().uuidString`
    /// beside Python's `str(uuid4())`; ULIDs, upper-case by the spec, beside a library's lower-case
    /// ones), as one alphabet: the summary with each position's letters counted in one case — hex's in
    /// lower case, Crockford's in upper case (its canonical form). nil unless every symbol is of that
    /// alphabet in either case (a digit, or `-` for hex), both cases show, and no named alphabet could
    /// explain the symbols as they are (22 symbols in many draws are not a base62 sample; nor are 54
    /// that never show I, L, O or U). RFC 9562 reads a UUID's hex in either case, and the ULID spec
    /// its Crockford letters; the ids are still compared byte for byte, so one id written in both
    /// cases counts as two distinct ids.
    static func caseFolded(_ s: AuditSummary, findings: inout [String]) -> AuditSummary? {
        let hexLetters = Set("abcdef".unicodeScalars)
        let crockford = Set("ABCDEFGHJKMNPQRSTVWXYZ".unicodeScalars)
        for (name, small, digits, toUpper) in [
            ("hex", hexLetters, Set("0123456789-".unicodeScalars), false),
            ("Crockford's base32", Set(crockford.map { Unicode.Scalar(UInt8($0.value + 32)) }), Set("0123456789".unicodeScalars), true),
        ] {
            let large = Set(small.map { Unicode.Scalar(UInt8($0.value - 32)) })
            guard s.symbols.isSubset(of: digits.union(small).union(large)), !s.symbols.isDisjoint(with: small),
                !s.symbols.isDisjoint(with: large), chooseAlphabet(for: s, format: nil).isObserved
            else { continue }
            let (from, to) = toUpper ? (small, Int32(-32)) : (large, Int32(32))
            func fold(_ row: [Unicode.Scalar: Int]) -> [Unicode.Scalar: Int] {
                var out: [Unicode.Scalar: Int] = [:]
                for (c, k) in row { out[from.contains(c) ? Unicode.Scalar(UInt8(Int32(c.value) + to)) : c, default: 0] += k }
                return out
            }
            var letters = (small: 0, large: 0)
            for row in s.positions {
                for (c, k) in row {
                    if small.contains(c) { letters.small += k }
                    if large.contains(c) { letters.large += k }
                }
            }
            var f = s
            f.positions = s.positions.map(fold)
            f.groups = s.groups.mapValues { .init(multiplicities: $0.multiplicities, positions: $0.positions.map(fold)) }
            f.symbols = Set(s.symbols.map { from.contains($0) ? Unicode.Scalar(UInt8(Int32($0.value) + to)) : $0 })
            let minority = toUpper ? letters.small : letters.large
            let share = 100 * Double(minority) / Double(Swift.max(1, letters.small + letters.large))
            findings.append(
                "\(name) in both cases (\(String(format: "%.1f", share))% of letters \(toUpper ? "lower" : "upper")-case): one alphabet, each position's letters counted in \(toUpper ? "upper" : "lower") case; an id written in both cases counts as two distinct ids"
            )
            return f
        }
        return nil
    }
}
