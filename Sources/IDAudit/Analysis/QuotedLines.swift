/// Lines that were JSON strings: `jq .id` without `-r` prints `"01J…"`, quotes and all. Read as the
/// ids between the quotes while summarising (``AuditSummary/quotedLines``) — as quoted text a ULID or
/// a UUIDv7 is no format at all, and its two constant quotes would be judged as structure — and
/// named here, so nothing is changed silently.
extension AuditAnalysis {
    mutating func noteQuoted(_ s: AuditSummary) {
        let n = s.quotedLines
        guard n > 0 else { return }
        findings.append(
            "\(n) of \(s.lines) line\(s.lines == 1 ? "" : "s") \(n == 1 ? "was a JSON string" : "were JSON strings") (a double quote at each end — `jq` without -r): read as the id\(n == 1 ? "" : "s") between the quotes"
        )
    }
}
