import Foundation
import IDFormats

/// Lines that stand where a log had no id, and KSUID payloads that are not random: what a stream's
/// characters alone can not show.
extension AuditAnalysis {
    /// The nil and max UUIDs set aside while summarising (``AuditSummary/placeholderLines``), named;
    /// more of them than the stray tolerance (one line, or one in a thousand) fail the stream as too
    /// many copies of one value — a generator, or a log, that writes a constant where ids belong.
    mutating func notePlaceholders(_ s: AuditSummary) {
        let n = s.placeholderLines
        guard n > 0 else { return }
        let lines = s.ids + n
        let tolerated = n <= Self.strayTolerance(lines)
        findings.append(
            "\(n) of \(lines) lines \(n == 1 ? "is" : "are") the nil or the max UUID (RFC 9562 §5.9, §5.10), what a log writes where it has no id: set aside, not judged as ids"
                + (tolerated
                    ? ", within the tolerance (one line, or one in a thousand)"
                    : "; more than the tolerance (one line, or one in a thousand): a constant written where ids belong")
        )
        if !tolerated {
            verdict = .tooMany
        }
    }

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
    /// when that bound is below ``DuplicateTest/threshold`` divided among the 128 bits and the
    /// stream's `tests` groups, so an honest stream is flagged here with probability at most that.
    /// A KSUID payload's low 16 bits (0-based from the top): segmentio's `Sequence` counts there,
    /// below one draw of 112 bits.
    static let ksuidCounterBits = 112..<128

    static func nonRandomPayloadBits(_ s: AuditSummary, tests: Int) -> [Int]? {
        guard let t = s.timeFormats[.ksuid], t.ids > 0, !t.truncated, s.ksuidPayloadBits.count == AuditSummary.ksuidPayloadBitCount
        else { return nil }
        let squares = t.buckets.values.reduce(0.0) { $0 + Double($1) * Double($1) }
        let level = DuplicateTest.threshold / Double(AuditSummary.ksuidPayloadBitCount) / Double(Swift.max(1, tests))
        // 2·exp(−2t²/Σw²) < level ⇔ t² > Σw²·ln(2/level)/2; widened by 10⁻⁹ for the doubles' rounding.
        let bar = squares * Foundation.log(2 / level) / 2 * (1 + 1e-9)
        let half = Double(t.ids) / 2
        return s.ksuidPayloadBits.indices.filter { i in
            let d = Double(s.ksuidPayloadBits[i]) - half
            return d * d > bar
        }
    }
}
