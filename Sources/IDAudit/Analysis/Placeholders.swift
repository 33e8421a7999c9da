import Foundation
import IDFormats

/// Lines that stand where a log had no id: the nil and max UUIDs.
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
}
