import Foundation
import IDBudget
import IDFormats

/// ObjectIds beside cuid2s: both 24 characters, one hex, the other base36 — a log of two services, or
/// of one moving from MongoDB's ids to cuid2. As one stream their positions look biased (an ObjectId's
/// timestamp, a cuid2's letters where an ObjectId has none); apart, each is honest.
extension AuditAnalysis {
    /// The ObjectIds and cuid2s of `s`, when every 24-character id is one or the other: its first
    /// character a digit (an ObjectId's seconds until 2055) or a letter (a cuid2's always), every
    /// digit-first id read by the ObjectId layout at a plausible time, and at least 8 of them — or
    /// fewer beside at least ``fewObjectIDsBeside`` cuid2s (a test's ObjectId left in a cuid2 log:
    /// judged as one stream, the cuid2s' letter-only first position is a false alarm). nil for any
    /// other stream (the summary keeps no per-line link between the first character and the rest, so
    /// the ObjectId reader's count is what confirms the split; a summary whose reader gave up — past
    /// 1,000 lines not ObjectIds — is not split).
    /// Lines of other lengths (a header), up to the stray tolerance, are set aside: the ids of length
    /// 24 are judged as their own summary, which is returned.
    static func objectIDMix(_ whole: AuditSummary) -> (objectIDs: Int, cuid2s: Int, ids: AuditSummary)? {
        guard let n = whole.lengths[24], whole.ids - n <= strayTolerance(whole.ids),
            let s = whole.lengths.count == 1 ? whole : lengthGroup(of: whole, length: 24), let first = s.positions.first,
            let read = s.nodeFormats[.objectid]?.ids, read >= 1
        else { return nil }
        let base36 = Set("0123456789abcdefghijklmnopqrstuvwxyz".unicodeScalars)
        guard s.symbols.isSubset(of: base36) else { return nil }
        let digits = first.filter { ("0"..."9").contains($0.key) }.values.reduce(0, +)
        let letters = first.filter { ("a"..."z").contains($0.key) }.values.reduce(0, +)
        guard digits + letters == n, digits == read, letters > 0, read >= 8 || letters >= fewObjectIDsBeside else { return nil }
        return (digits, letters, s)
    }

    /// The cuid2s a log must hold for fewer than 8 ObjectIds among them to be taken as ObjectIds: with
    /// as many, the cuid2s' own tests (first letters, g–z, the shared symbols) have the power to tell.
    static let fewObjectIDsBeside = 100

    /// Judges a mix of ObjectIds and cuid2s (``objectIDMix(_:)``): no id may repeat — an ObjectId is
    /// unique by construction (a process's counter within a second), a cuid2 repeats once in 2^123 —
    /// so duplicates are judged in a cell per format: the cuid2s over 26·36^23, the ObjectIds over
    /// their 2^96 values (an upper bound on what chance could repeat; too few is no finding). The
    /// cuid2s' positions are tested where the ObjectIds cannot hide a fault
    /// (``cuid2Positions(_:cuid2s:)``): a cuid2 generator stuck or narrowed is caught.
    init(objectIDMix mix: (objectIDs: Int, cuid2s: Int, ids: AuditSummary), summary whole: AuditSummary, tests: Int) {
        let s = mix.ids
        let cuid2Space = BigInt(26) * BigInt.power(36, 23)
        let cells = [
            DuplicateTest.Cell(space: cuid2Space, ids: mix.cuid2s), DuplicateTest.Cell(space: BigInt.power(2, 96), ids: mix.objectIDs),
        ]
        let test = DuplicateTest(cells: cells, observed: s.extraOccurrences, tests: tests, judgeFewer: false)
        let objectIDs = mix.objectIDs == 1 ? "1 ObjectId" : "\(mix.objectIDs) ObjectIds"
        var findings = [
            "a mix of ObjectIds and cuid2s (24 characters each, by the first: a digit, an ObjectId's seconds; a letter, a cuid2's): \(objectIDs) read by their fields, \(mix.cuid2s) cuid2s over 26·36^23; no id may repeat, and the cuid2s' positions are tested where no ObjectId writes: their first letters, the letters g–z, and a floor under each symbol they share"
        ]
        if whole.ids > s.ids {
            let other = whole.ids - s.ids
            findings.append(
                "\(other) of \(whole.ids) lines \(other == 1 ? "is" : "are") not 24 characters (a header, a stray id): set aside, within the tolerance (one line, or one in a thousand)"
            )
        }
        let flagged = Self.cuid2Positions(s, cuid2s: mix.cuid2s)
        if !flagged.isEmpty {
            findings.append(
                "position\(flagged.count == 1 ? "" : "s") \(Self.ranges(flagged)) of the cuid2s \(flagged.count == 1 ? "is" : "are") not uniform over \(flagged == [0] ? "a–z" : "base36"): where no ObjectId writes (a first letter; g–z after it) the symbols are too few, too many or uneven, or a symbol both write is rarer than \(mix.cuid2s) fresh draws allow (a stuck or narrowed generator; its space is less than 26·36^23)"
            )
        }
        let verdict = Self.decideVerdict(s, test: test, nonUniform: !flagged.isEmpty, findings: &findings)
        self.init(
            cellsOnly: s, whole: whole, test: test, verdict: verdict, findings: findings, alphabet: ("base36", 36),
            formatName: "ObjectId and cuid2", space: cuid2Space,
            spaceDescription: "cuid2: 26·36^23 (\(Self.bitsText(cuid2Space)) bits); ObjectId: unique by its fields",
            randomBits: cuid2Space.log2Magnitude)
    }

    /// The positions (0-based) where the cuid2s of an ObjectId–cuid2 mix are not uniform, seen where
    /// the ObjectIds cannot hide a fault. Empty when there are too few cuid2s to tell (fewer than 100).
    ///
    /// - The first position: every letter there is a cuid2's (an ObjectId's is a digit), so the c
    ///   letters are judged uniform over a–z by the audit's position test
    ///   (``classify(_:alphabetSize:distinct:inflation:)``, at its own level, as every position's).
    /// - After it, the letters `g`–`z`, which only cuid2s write: an honest cuid2 writes one of those 20
    ///   with probability 20/36, each as likely. Their count X ~ Bin(c, 20/36) is judged by Hoeffding's
    ///   bound P(|X − c·20/36| ≥ t) ≤ 2·exp(−2t²/c), their spread over the 20 by the position test.
    /// - The 16 symbols both write (`0`–`9`, `a`–`f`): the ObjectIds only add to a symbol's count, so
    ///   its count is at least the cuid2s' share, Bin(c, 1/36), judged by Chernoff's lower tail
    ///   (``belowFloor(count:draws:probability:level:)``). A cuid2 that writes only
    ///   `0` where it should write any of the 16 is caught wherever the ObjectIds write fewer of the
    ///   others than the cuid2s should (their time fields always; all positions when they are the
    ///   fewer); a fault the ObjectIds can fill is not seen, and no test could see it in the summary.
    ///
    /// Both bounds are rigorous; the two families share the verdict's threshold, half each, divided
    /// over their 23 positions and, for the floors, 16 symbols (a union bound).
    static func cuid2Positions(_ s: AuditSummary, cuid2s c: Int) -> [Int] {
        guard c >= 100, let head = s.positions.first else { return [] }
        var flagged: [Int] = []
        let firstLetters = head.filter { ("a"..."z").contains($0.key) }
        if case .uniform = classify(firstLetters, alphabetSize: 26, distinct: c) {} else { flagged.append(0) }
        let only = Set("ghijklmnopqrstuvwxyz".unicodeScalars)
        let shared = Array("0123456789abcdef".unicodeScalars)
        let countLevel = DuplicateTest.threshold / (2 * 23)
        let floorLevel = DuplicateTest.threshold / (2 * 23 * 16)
        let n = Double(c)
        for i in 1..<Swift.min(24, s.positions.count) {
            let counts = s.positions[i]
            let row = counts.filter { only.contains($0.key) }
            let x = Double(row.values.reduce(0, +))
            let t = abs(x - n * 20 / 36)
            let count = 2 * exp(-2 * t * t / n) < countLevel
            let spread: Bool
            switch classify(row, alphabetSize: 20, distinct: Int(x)) {
            case .uniform: spread = false
            default: spread = x > 0
            }
            let floor = shared.contains { belowFloor(count: counts[$0] ?? 0, draws: c, probability: 1.0 / 36, level: floorLevel) }
            if count || spread || floor { flagged.append(i) }
        }
        return flagged
    }
}
