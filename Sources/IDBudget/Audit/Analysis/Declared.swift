import Foundation
import IDFormats
import Precise

/// The shape a team says its ids have (`idbudget audit --alphabet A --length L`): a gate for CI, which
/// asks "are these the ids we meant to mint?" rather than "what are these ids?".
///
/// * Every line must be L symbols of A: a line of another length, with a symbol outside A, empty,
///   overlong or not UTF-8 is invalid; more than `maxInvalid` of them fail (`invalid-ids`).
/// * Every position (of the first 64) must be uniform over all of A: a stuck position, or one that
///   uses fewer symbols than A (a base58 generator declared base62), fails (`non-uniform-positions`),
///   by the test `AuditAnalysis.classify` makes, narrowness significant
///   among the distinct ids.
/// * Duplicates are judged over the declared space, A^L.
public struct DeclaredShape: Sendable, Equatable {
    public let alphabet: Alphabet
    public let length: Int
    public let maxInvalid: Int

    /// Throws for a length outside 1…4096 or a negative `maxInvalid`.
    public init(alphabet: Alphabet, length: Int, maxInvalid: Int = 0) throws(InputError) {
        guard length >= 1, length <= 4096 else { throw InputError("a declared length must be from 1 to 4096, got \(length)") }
        guard maxInvalid >= 0 else { throw InputError("the invalid lines allowed cannot be negative, got \(maxInvalid)") }
        self.alphabet = alphabet
        self.length = length
        self.maxInvalid = maxInvalid
    }

    var name: String { "\(alphabet.name ?? "custom")×\(length)" }
}

extension AuditAnalysis {
    /// Judges `s` against the declared shape `d` (see ``DeclaredShape``).
    init(declared d: DeclaredShape, summary s: AuditSummary) {
        let symbols = Set(d.alphabet.symbols.flatMap(\.unicodeScalars))
        let a = d.alphabet.count
        let n = s.lengths[d.length] ?? 0
        // The ids of the declared length: positions and repeats of their own where the summary has them.
        let group =
            s.groups[d.length]
            ?? (s.lengths.keys.elementsEqual([d.length]) ? .init(multiplicities: s.multiplicities, positions: s.positions) : nil)
        let rows = group?.positions ?? []
        let head = Swift.min(d.length, AuditSummary.positionLimit)
        // Lines with a symbol outside A: at least as many as any one position shows.
        let outside = (0..<head).map { i in i < rows.count ? rows[i].filter { !symbols.contains($0.key) }.values.reduce(0, +) : 0 }
        let badSymbols = outside.max() ?? 0
        let otherLengths = s.ids - n
        let invalid = otherLengths + badSymbols + s.emptyLines + s.overlongLines + s.invalidUTF8Lines
        var findings: [String] = []
        let space = DuplicateCells.capped(a, d.length)
        findings.append(
            "declared: \(d.name), every position uniform over \(a) symbols; space \(a)^\(d.length) (\(Self.bitsText(space)) bits)")
        if invalid > 0 {
            var parts: [String] = []
            if otherLengths > 0 { parts.append("\(otherLengths) of another length") }
            if badSymbols > 0 { parts.append("at least \(badSymbols) with a symbol outside \(d.alphabet.name ?? "the alphabet")") }
            if s.emptyLines > 0 { parts.append("\(s.emptyLines) empty") }
            if s.overlongLines > 0 { parts.append("\(s.overlongLines) overlong") }
            if s.invalidUTF8Lines > 0 { parts.append("\(s.invalidUTF8Lines) not UTF-8") }
            findings.append(
                "\(invalid) line\(invalid == 1 ? " is" : "s are") not \(d.name) (\(parts.joined(separator: ", "))); \(d.maxInvalid) allowed"
                    + (s.sample.first { $0.unicodeScalars.count != d.length }.map {
                        ", e.g. '\(String($0.prefix(40)).escapingControlCharacters)'"
                    } ?? ""))
        }
        if d.length > AuditSummary.positionLimit {
            findings.append("positions past \(AuditSummary.positionLimit) are not recorded: they are not tested")
        }
        // Every position uniform over A: the declared symbols' counts, tested as `classify` tests them.
        // No id of the declared length: no position to test.
        let positions: [Position] =
            n == 0
            ? []
            : (0..<head).map { i in
                let counts = i < rows.count ? rows[i].filter { symbols.contains($0.key) } : [:]
                return Self.classify(counts, alphabetSize: a, distinct: s.distinct)
            }
        let flagged = positions.indices.filter { if case .uniform = positions[$0] { return false } else { return true } }
        if !flagged.isEmpty {
            let words = flagged.prefix(8).map { i -> String in
                switch positions[i] {
                case .constant(let c): "\(i + 1) is constant ('\(String(c).escapingControlCharacters)')"
                case .subset(let k): "\(i + 1) uses \(k) of the \(a) symbols"
                case .biased(_, let k, let top, let share):
                    "\(i + 1) is biased ('\(String(top).escapingControlCharacters)' in \(String(format: "%.2f", 100 * share))%, \(k) symbols seen)"
                default: "\(i + 1)"
                }
            }
            findings.append(
                "not uniform over \(d.alphabet.name ?? "the alphabet"), where the declaration says random: position "
                    + words.joined(separator: "; ") + (flagged.count > 8 ? "; … \(flagged.count - 8) more" : ""))
        }
        let multiplicities = group?.multiplicities ?? [:]
        let extra = multiplicities.reduce(0) { $0 + ($1.key - 1) * $1.value }
        let test = DuplicateTest(cells: [DuplicateTest.Cell(space: space, ids: n)], observed: extra, tests: 1, judgeFewer: true)
        var verdict = Self.decideVerdict(s, test: test, nonUniform: !flagged.isEmpty, findings: &findings)
        if invalid > d.maxInvalid, verdict != .tooMany, verdict != .empty {
            verdict = .invalid
        } else if n == 0, s.ids > 0 {
            // Only lines of other shapes, all allowed: still nothing of the declared shape to judge.
            verdict = .empty
            findings.append("no ids of the declared shape: nothing to judge")
        }

        ids = s.ids
        distinct = s.distinct
        extraOccurrences = s.extraOccurrences
        duplicateIDs = s.duplicateIDs
        alphabet = d.alphabet.name ?? String(d.alphabet.symbols)
        alphabetSize = a
        format = nil
        formatName = "declared \(d.name)"
        self.space = space
        spaceDescription = "declared \(a)^\(d.length)"
        self.positions = positions
        randomBits = space.log2Magnitude
        buckets = nil
        self.test = test
        let groups = n > 0 ? [n: 1] : [:]
        effectiveBits = Swift.min(Self.effectiveBits(groups: groups, duplicates: extra), space.log2Magnitude)
        effectiveBitsIsLowerBound = extra == 0
        effectiveBitsLower95 = Swift.min(Self.effectiveBitsLower95(groups: groups, duplicates: extra), effectiveBits)
        self.findings = findings
        self.verdict = verdict
        nodeFormat = nil
        nodeStats = nil
        nodeFits = []
    }
}
