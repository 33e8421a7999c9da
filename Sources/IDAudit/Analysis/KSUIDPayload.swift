import Foundation
import IDFormats

/// A KSUID's random payload: 32 bits of seconds above 128 random bits, written together as one
/// 27-character base62 number. Its bits and its low characters are tested, each with a certified
/// bound; the two share the false-alarm budget.
extension AuditAnalysis {
    /// The bits of a KSUID payload that are not random, 0-based from the top (0 is bit 127); nil when
    /// the summary does not count them or dropped the KSUIDs' buckets.
    ///
    /// A KSUID is 32 bits of seconds above 128 random bits, written together as one base62 number:
    /// no character position shows the payload (a counter in its low bits changes every character),
    /// its bits do (``AuditSummary/ksuidPayloadBits``). Ids of one second may share a draw (a
    /// generator that counts up from one), so the independent draws are the seconds: bit i's count c
    /// is a sum over seconds b of a count in [0, w_b] whose mean is w_b/2 when the bit is random,
    /// whatever the ids of one second share. Hoeffding's inequality bounds its tail,
    /// P(|c − n/2| ≥ t) ≤ 2·exp(−2t² / Σ w_b²) — certified, no approximation — and a bit is flagged
    /// when that bound is below half ``DuplicateTest/threshold`` (the other half is the characters',
    /// ``unevenKSUIDCharacters(_:tests:)``) divided among the 128 bits and the stream's `tests`
    /// groups, so an honest stream is flagged here with probability at most that.
    /// A KSUID payload's low 16 bits (0-based from the top): segmentio's `Sequence` counts there,
    /// below one draw of 112 bits.
    static let ksuidCounterBits = 112..<128

    static func nonRandomPayloadBits(_ s: AuditSummary, tests: Int) -> [Int]? {
        guard let t = s.timeFormats[.ksuid], t.ids > 0, !t.truncated, s.ksuidPayloadBits.count == AuditSummary.ksuidPayloadBitCount
        else { return nil }
        let squares = t.buckets.values.reduce(0.0) { $0 + Double($1) * Double($1) }
        let level = DuplicateTest.threshold / 2 / Double(AuditSummary.ksuidPayloadBitCount) / Double(Swift.max(1, tests))
        // 2·exp(−2t²/Σw²) < level ⇔ t² > Σw²·ln(2/level)/2; widened by 10⁻⁹ for the doubles' rounding.
        let bar = squares * Foundation.log(2 / level) / 2 * (1 + 1e-9)
        let half = Double(t.ids) / 2
        return s.ksuidPayloadBits.indices.filter { i in
            let d = Double(s.ksuidPayloadBits[i]) - half
            return d * d > bar
        }
    }

    /// The 0-based character positions of a KSUID tested for evenness: the last 20 (digit k from
    /// the right, k ≤ 19), whose symbols the payload sets all but evenly.
    static let ksuidTestedCharacters = 7..<27

    /// The KSUID character positions (of ``ksuidTestedCharacters``) whose symbols are not even; nil
    /// when the summary does not count the KSUIDs per second.
    ///
    /// Digit k from the right of v = t·2^128 + p is ⌊v / 62^k⌋ mod 62. Among any M consecutive
    /// integers each digit value occurs M/62 times up to 62^k, so with p uniform every symbol has
    /// probability 1/62 within δ_k = 62^k / 2^128 (3.3·10⁻⁵ at k = 19, 10⁻³⁸ at k = 0), whatever t
    /// — and whatever ids of one second share, each id's payload alone is uniform (a draw counted
    /// up). So, as for the bits, symbol c's count at a position is a sum over seconds of a count in
    /// [0, w] with mean within w·δ_k of w/62: Hoeffding's P(|x − n/62| ≥ nδ_k + t) ≤ 2·exp(−2t²/Σw²),
    /// certified. And a symbol no id shows: each of the B seconds has an id of its own whose symbol
    /// there is c with probability at least 1/62 − δ_k, whatever the others share, so c is absent from
    /// all with probability at most (61/62 + δ_k)^B — what finds a position narrowed to part of
    /// base62 once there are about 1,400 seconds. Lines of the stream that are no KSUID (strays of
    /// other lengths) each add at most one to a count, allowed for in both. Flagged when a bound is
    /// below half ``DuplicateTest/threshold`` divided among the two tests, the 20 positions' 62
    /// symbols and the `tests` groups. This is what catches a character stuck or narrowed
    /// mid-string, which constrains no single bit.
    static func unevenKSUIDCharacters(_ s: AuditSummary, tests: Int) -> [Int]? {
        guard let t = s.timeFormats[.ksuid], t.ids > 0, !t.truncated, s.positions.count >= IDFormat.ksuid.length else { return nil }
        let symbols = (Alphabet.base62.bytes ?? []).map { Unicode.Scalar($0) }
        let squares = t.buckets.values.reduce(0.0) { $0 + Double($1) * Double($1) }
        let level = DuplicateTest.threshold / 4 / Double(ksuidTestedCharacters.count * symbols.count) / Double(Swift.max(1, tests))
        let seconds = Double(t.buckets.values.filter { $0 > 0 }.count)
        // 2·exp(−2t²/Σw²) < level ⇔ t > √(Σw²·ln(2/level)/2); widened by 10⁻⁹ for the doubles' rounding.
        let bar = (squares * Foundation.log(2 / level) / 2).squareRoot() * (1 + 1e-9)
        let n = Double(t.ids)
        let strays = Double(Swift.max(0, s.ids - t.ids))
        return ksuidTestedCharacters.filter { j in
            let k = IDFormat.ksuid.length - 1 - j
            let delta = Foundation.pow(62, Double(k)) / Foundation.pow(2, 128) * (1 + 1e-9)
            let allowed = n * delta + strays
            let absent = Foundation.pow(61.0 / 62 + delta, seconds) * (1 + 1e-9) < level
            return symbols.contains { c in
                let count = Double(s.positions[j][c] ?? 0)
                return abs(count - n / 62) - allowed > bar || (absent && count <= strays)
            }
        }
    }
}
