import Foundation
import IDBudget
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
    ///
    /// Ids whose timestamp no generator wrote (``implausible(_:in:now:)``) are named; when they are
    /// most of the format's, the stream is not of it: a "UUIDv7" whose 48 time bits are random is 122
    /// random bits with a version, judged as the symbols it is.
    static func timeFormat(of s: AuditSummary, now: Int, findings: inout [String]) -> TimeFormat? {
        guard s.ids > 0 else { return nil }
        let format = TimeFormat.allCases.first { f in
            let n = s.timeFormats[f]?.ids ?? 0
            return n == s.ids || (n > 0 && s.ids - n <= strayTolerance(s.ids))
        }
        guard let format, let t = s.timeFormats[format] else { return nil }
        let wrong = implausible(format, in: t, now: now)
        if wrong > 0 {
            let most = 2 * wrong > t.ids
            findings.append(
                "\(wrong) of \(s.ids) ids read as \(format.displayName) have a timestamp outside 2005 to tomorrow: "
                    + (most
                        ? "no \(format.displayName) generator wrote them, and they are judged as the symbols they are"
                        : "a wrong clock, or not \(format.displayName)s")
            )
            if most { return nil }
        }
        if t.ids < s.ids {
            findings.append("\(s.ids - t.ids) of \(s.ids) ids are not \(format.displayName); they are judged as if they were")
        }
        return format
    }

    /// The ids of a time format whose timestamp is before 2005 (KSUID: its 2014 epoch) or more than a
    /// day past `now` (Unix ms) — counted from the buckets, so 0 when they were truncated.
    static func implausible(_ format: TimeFormat, in t: AuditSummary.TimeBuckets, now: Int) -> Int {
        t.buckets.reduce(0) { $0 + (format.plausible(key: $1.key, now: now) ? 0 : $1.value) }
    }

    /// A stream of ULIDs that are TypeIDs without a prefix: 26 lower-case Crockford characters that
    /// hold a UUIDv7, the version character (position 11: `e` or `f`, 0111 and a random bit) and the
    /// variant character (position 14: `8 9 a b r s t v`: a random bit, 10, two random bits) narrowed
    /// as a UUIDv7 narrows them — significantly, among the distinct ids (``narrowIsSignificant``), so
    /// a few lower-case ULIDs that happen to fit are still ULIDs. Its buckets are the ULID reading's
    /// (the first 10 characters are the same 48-bit millisecond either way), moved to TypeID, whose
    /// random bits (74) are the ones the ids carry. nil for any other stream.
    static func asPrefixlessTypeIDs(_ s: AuditSummary) -> AuditSummary? {
        let tolerance = strayTolerance(s.ids)
        guard s.ids > 0, (s.timeFormats[.typeid]?.ids ?? 0) == 0, let ulid = s.timeFormats[.ulid], ulid.ids > 0,
            s.ids - ulid.ids <= tolerance, s.ids - (s.lengths[26] ?? 0) <= tolerance, s.positions.count >= 26
        else { return nil }
        func within(_ i: Int, _ allowed: String) -> Bool {
            let outside = s.positions[i].filter { !allowed.unicodeScalars.contains($0.key) }.values.reduce(0, +)
            return outside <= tolerance
        }
        let upper = (0..<26).reduce(0) { n, i in n + s.positions[i].filter { $0.key.properties.isUppercase }.values.reduce(0, +) }
        guard upper <= tolerance, within(10, "ef"), within(13, "89abrstv"),
            narrowIsSignificant(symbols: 2, of: 32, distinct: s.distinct)
        else { return nil }
        var t = s
        t.timeFormats[.typeid] = ulid
        t.timeFormats[.ulid] = AuditSummary.TimeBuckets()
        return t
    }
}

extension TimeFormat {
    /// Whether a bucket key of this format (``TimeFormat/parse(_:)``'s) holds a time some generator
    /// wrote: from 2005 (a KSUID from its 2014 epoch, all it can hold) to a day past `now` (Unix ms).
    func plausible(key: UInt64, now: Int) -> Bool {
        let millis =
            switch self {
            case .uuid7, .ulid, .typeid: Int(key & 0xFFFF_FFFF_FFFF)
            case .ksuid: 1_400_000_000_000 + Int(key & 0xFFFF_FFFF) * 1000
            case .uuid1, .uuid6: Int((key & 0x0FFF_FFFF_FFFF_FFFF) / 10_000) - 12_219_292_800_000
            }
        return (self == .ksuid || millis >= 1_104_537_600_000) && millis <= now + 86_400_000
    }
}
