import IDBudget
import IDFormats

/// ObjectIds beside cuid2s: both 24 characters, one hex, the other base36 — a log of two services, or
/// of one moving from MongoDB's ids to cuid2. As one stream their positions look biased (an ObjectId's
/// timestamp, a cuid2's letters where an ObjectId has none); apart, each is honest.
extension AuditAnalysis {
    /// The ObjectIds and cuid2s of `s`, when every 24-character id is one or the other: its first
    /// character a digit (an ObjectId's seconds until 2055) or a letter (a cuid2's always), every
    /// digit-first id read by the ObjectId layout at a plausible time, and at least 8 of them. nil
    /// for any other stream (the summary keeps no per-line link between the first character and the
    /// rest, so the ObjectId reader's count is what confirms the split; a summary whose reader gave
    /// up — past 1,000 lines not ObjectIds — is not split).
    /// Lines of other lengths (a header), up to the stray tolerance, are set aside: the ids of length
    /// 24 are judged as their own summary, which is returned.
    static func objectIDMix(_ whole: AuditSummary) -> (objectIDs: Int, cuid2s: Int, ids: AuditSummary)? {
        guard let n = whole.lengths[24], whole.ids - n <= strayTolerance(whole.ids),
            let s = whole.lengths.count == 1 ? whole : lengthGroup(of: whole, length: 24), let first = s.positions.first,
            let read = s.nodeFormats[.objectid]?.ids, read >= 8
        else { return nil }
        let base36 = Set("0123456789abcdefghijklmnopqrstuvwxyz".unicodeScalars)
        guard s.symbols.isSubset(of: base36) else { return nil }
        let digits = first.filter { ("0"..."9").contains($0.key) }.values.reduce(0, +)
        let letters = first.filter { ("a"..."z").contains($0.key) }.values.reduce(0, +)
        guard digits + letters == n, digits == read, letters > 0 else { return nil }
        return (digits, letters, s)
    }

    /// Judges a mix of ObjectIds and cuid2s (``objectIDMix(_:)``): no id may repeat — an ObjectId is
    /// unique by construction (a process's counter within a second), a cuid2 repeats once in 2^123 —
    /// so duplicates are judged in a cell per format: the cuid2s over 26·36^23, the ObjectIds over
    /// their 2^96 values (an upper bound on what chance could repeat; too few is no finding). Their
    /// positions are not tested: the two formats' symbols share every position.
    init(objectIDMix mix: (objectIDs: Int, cuid2s: Int, ids: AuditSummary), summary whole: AuditSummary, tests: Int) {
        let s = mix.ids
        let cuid2Space = BigInt(26) * BigInt.power(36, 23)
        let cells = [
            DuplicateTest.Cell(space: cuid2Space, ids: mix.cuid2s), DuplicateTest.Cell(space: BigInt.power(2, 96), ids: mix.objectIDs),
        ]
        let test = DuplicateTest(cells: cells, observed: s.extraOccurrences, tests: tests, judgeFewer: false)
        var findings = [
            "a mix of ObjectIds and cuid2s (24 characters each, by the first: a digit, an ObjectId's seconds; a letter, a cuid2's): \(mix.objectIDs) ObjectIds read by their fields, \(mix.cuid2s) cuid2s over 26·36^23; no id may repeat, and the positions, which the two share, are not tested"
        ]
        if whole.ids > s.ids {
            let other = whole.ids - s.ids
            findings.append(
                "\(other) of \(whole.ids) lines \(other == 1 ? "is" : "are") not 24 characters (a header, a stray id): set aside, within the tolerance (one line, or one in a thousand)"
            )
        }
        let verdict = Self.decideVerdict(s, test: test, nonUniform: false, findings: &findings)
        self.init(
            cellsOnly: s, whole: whole, test: test, verdict: verdict, findings: findings, alphabet: ("base36", 36),
            formatName: "ObjectId and cuid2", space: cuid2Space,
            spaceDescription: "cuid2: 26·36^23 (\(Self.bitsText(cuid2Space)) bits); ObjectId: unique by its fields",
            randomBits: cuid2Space.log2Magnitude)
    }
}
