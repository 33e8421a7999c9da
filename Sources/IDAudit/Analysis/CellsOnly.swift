import IDBudget

extension AuditAnalysis {
    /// A stream judged by its duplicate test alone, its positions untested: a mix of formats whose
    /// symbols share every position (ObjectIds beside cuid2s, UUID versions without UUIDv7), or a
    /// format the summary keeps no buckets for (Firebase push ids). `s` holds the ids judged, `whole`
    /// the stream they came from (lines set aside included); the effective entropy is of `s`, capped
    /// by `randomBits`.
    init(
        cellsOnly s: AuditSummary, whole: AuditSummary, test: DuplicateTest, verdict: Verdict, findings: [String],
        alphabet: (name: String, size: Int), formatName: String, space: BigInt, spaceDescription: String, randomBits: Double
    ) {
        ids = whole.ids
        distinct = whole.distinct
        extraOccurrences = whole.extraOccurrences
        duplicateIDs = whole.duplicateIDs
        self.alphabet = alphabet.name
        alphabetSize = alphabet.size
        format = nil
        self.formatName = formatName
        self.space = space
        self.spaceDescription = spaceDescription
        positions = []
        self.randomBits = randomBits
        buckets = nil
        self.test = test
        let groups = [s.ids: 1]
        effectiveBits = Swift.min(Self.effectiveBits(groups: groups, duplicates: s.extraOccurrences), randomBits)
        effectiveBitsIsLowerBound = s.extraOccurrences == 0
        effectiveBitsLower95 = Swift.min(Self.effectiveBitsLower95(groups: groups, duplicates: s.extraOccurrences), effectiveBits)
        self.findings = findings
        self.verdict = verdict
        nodeFormat = nil
        nodeStats = nil
        nodeFits = []
    }
}
