import IDBudget
import IDFormats

/// Firebase push ids undeclared: 20 characters of `-0-9A-Z_a-z` in ASCII order, the first 8 a
/// millisecond timestamp (48 bits, most significant first), then 72 random bits that the generator
/// increments, not redraws, within a millisecond. As tokens over base64url their timestamp reads as
/// biased positions and their incremented suffix as constant ones: an honest stream flagged.
extension AuditAnalysis {
    /// Whether `s` reads as Firebase push ids: one length, 20, every position within Firebase's 64
    /// symbols, the first character `-` (a millisecond below 2^42, before 2109) significantly among
    /// the distinct ids (random base64url shows it in one id of 64), and the second from `F` on (from
    /// 2005: 2^36 ms per step) — each but the stray lines (``strayTolerance(_:)``).
    static func isFirebaseStream(_ s: AuditSummary, length: Int?) -> Bool {
        let firebase = IDFormat.firebase
        guard length == firebase.length, s.ids > 0, s.positions.count >= firebase.length else { return false }
        let tolerance = strayTolerance(s.ids)
        let symbols = Alphabet.firebase.bytes ?? []
        func index(_ c: Unicode.Scalar) -> Int? { c.isASCII ? symbols.firstIndex(of: UInt8(c.value)) : nil }
        func outside(_ i: Int, _ allowed: (Int) -> Bool) -> Int {
            s.positions[i].filter { index($0.key).map(allowed) != true }.values.reduce(0, +)
        }
        guard outside(0, { $0 == 0 }) <= tolerance, narrowIsSignificant(symbols: 1, of: 64, distinct: s.distinct),
            outside(1, { $0 >= 16 }) <= tolerance
        else { return false }
        return (2..<firebase.length).allSatisfy { outside($0, { _ in true }) <= tolerance }
    }

    /// Firebase's random positions (9–20) stuck on one symbol, 0-based, with the milliseconds that
    /// shows it across. Each millisecond draws the random part afresh: across milliseconds no random
    /// position can stay on one symbol. The symbols the last timestamp character shows are at least
    /// that many milliseconds, the rarest of them left out up to the strays' ids (each stray can add
    /// one). Stuck: one symbol in every id but the strays (a burst counted up shares its symbols,
    /// but only its own ids), when that is significant across those milliseconds
    /// (``narrowIsSignificant(symbols:of:distinct:)``). `positions` counts the `ids` of length 20.
    static func firebaseStuckPositions(positions: [[Unicode.Scalar: Int]], ids: Int) -> (positions: [Int], milliseconds: Int) {
        let length = IDFormat.firebase.length
        guard positions.count >= length else { return ([], 0) }
        let tolerance = Self.strayTolerance(ids)
        var strays = 0
        var milliseconds = positions[7].count
        for n in positions[7].values.sorted() {
            guard strays + n <= tolerance else { break }
            strays += n
            milliseconds -= 1
        }
        let stuck = (8..<length).filter { i in
            ids - (positions[i].values.max() ?? 0) <= tolerance && Self.narrowIsSignificant(symbols: 1, of: 64, distinct: milliseconds)
        }
        return (stuck, milliseconds)
    }

    /// Judges Firebase push ids (``isFirebaseStream(_:length:)``). The summary keeps no buckets for
    /// them, so the duplicates are judged as if every id shared one millisecond over the 72 random
    /// bits — which overstates the duplicates to expect, so too many stays certified and too few is
    /// not judged. The positions are not tested: the timestamp is no random field, and the random
    /// part of ids sharing a millisecond is one draw counted up.
    init(firebase s: AuditSummary, tests: Int) {
        let bits = IDFormat.firebase.randomBits
        let space = BigInt.power(2, bits)
        let test = DuplicateTest(cells: [.init(space: space, ids: s.ids)], observed: s.extraOccurrences, tests: tests, judgeFewer: false)
        let (stuck, milliseconds) = Self.firebaseStuckPositions(positions: s.positions, ids: s.ids)
        var findings = [
            "format: Firebase push id — positions 1–8 are a millisecond timestamp (Firebase's 64 symbols in ASCII order), then \(bits) random bits, incremented within a millisecond; the random positions are tested only for staying on one symbol across milliseconds",
            "the summary keeps no millisecond buckets for Firebase push ids: duplicates are judged as if all ids shared one, over 2^\(bits), which overstates the duplicates to expect; too few are not judged",
        ]
        if !stuck.isEmpty {
            findings.append(
                "position\(stuck.count == 1 ? "" : "s") \(Self.ranges(stuck)) \(stuck.count == 1 ? "is" : "are") constant across at least \(milliseconds) milliseconds, where each millisecond draws Firebase's random part afresh: a stuck generator"
            )
        }
        let verdict = Self.decideVerdict(s, test: test, nonUniform: !stuck.isEmpty, findings: &findings)
        self.init(
            cellsOnly: s, whole: s, test: test, verdict: verdict, findings: findings, alphabet: ("firebase", 64),
            formatName: "Firebase push id", space: space,
            spaceDescription: "Firebase push id: 2^\(bits) per millisecond (all ids taken as one)", randomBits: Double(bits))
    }
}
