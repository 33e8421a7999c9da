import IDFormats

/// The shape of a stream before its symbols are looked at: the length whose positions are judged, and
/// the time format its ids are written in.
extension AuditAnalysis {
    /// The length whose positions are judged: the only one, or one holding all but one id in a
    /// thousand (a stray line must not hide the positions); the others still count in every position
    /// they reach. nil when no length dominates.
    static func dominantLength(of s: AuditSummary, findings: inout [String]) -> Int? {
        let dominant = s.lengths.max { $0.value < $1.value }
        let single = dominant.flatMap { d in s.lengths.count == 1 || s.ids - d.value <= s.ids / 1000 ? d.key : nil }
        if let single, s.lengths.count > 1 {
            findings.append("\(s.ids - (s.lengths[single] ?? 0)) of \(s.ids) ids are not \(single) symbols long")
        }
        return single
    }

    /// A time format, when every id has its shape: all ids, or all but the strays
    /// (``strayTolerance(_:)``: a header line, a stray test id must not hide the format).
    static func timeFormat(of s: AuditSummary, findings: inout [String]) -> TimeFormat? {
        guard s.ids > 0 else { return nil }
        let format = TimeFormat.allCases.first { f in
            let n = s.timeFormats[f]?.ids ?? 0
            return n == s.ids || (n > 0 && s.ids - n <= strayTolerance(s.ids))
        }
        if let format, let n = s.timeFormats[format]?.ids, n < s.ids {
            findings.append("\(s.ids - n) of \(s.ids) ids are not \(format.displayName); they are judged as if they were")
        }
        return format
    }
}
