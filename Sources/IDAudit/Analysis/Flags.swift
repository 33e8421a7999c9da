import Foundation
import IDBudget
import IDFormats

/// Positions that should hold fresh random symbols but do not: the evidence for a non-uniform verdict.
extension AuditAnalysis {
    /// Where a format expects fresh random symbols but the stream has none, or a biased position.
    /// In a time format, ids of one bucket may share random bits (monotonic generators count up
    /// from one draw a millisecond), so only buckets are independent draws: biased random fields
    /// count against the stream only when nearly every id has a bucket of its own; a field constant
    /// across many buckets always does (fresh draws would differ), and a narrow one does when its
    /// narrowness is significant among the buckets alone (one fresh draw each, at least: the symbols
    /// seen can only be more).
    struct PositionFlags {
        /// The positions that count against the stream.
        private(set) var flagged: [(Int, Position)] = []
        /// Random fields that vary less than fresh draws would, explained by ids sharing a bucket.
        private(set) var shared: [Int] = []

        /// `fresh`: the random fields are drawn afresh for every id whatever its bucket (a UUIDv7 whose
        /// rand_a is method 1's counter: its rand_b is random per id), so sharing is no excuse.
        init(
            _ positions: [Position], of s: AuditSummary, format: TimeFormat?, alphabetSize: Int, skipping: Set<Int> = [],
            fresh: Bool = false, findings: inout [String]
        ) {
            let bucketCount = format.flatMap { s.timeFormats[$0]?.buckets.count } ?? 0
            let independent = format == nil || fresh || 2 * bucketCount >= s.ids
            // The dominant length (positions are of it; they stop at 64).
            let length = s.lengths.max { $0.value < $1.value }?.key ?? positions.count
            for (i, p) in positions.enumerated() where !skipping.contains(i) {
                let random = format.map { AuditAnalysis.expectsRandom($0, at: i, length: length) } ?? false
                switch p {
                case .biased:
                    if format == nil || (random && independent) { flagged.append((i, p)) } else if random { shared.append(i) }
                case .constant:
                    if random && (independent || bucketCount >= 8) { flagged.append((i, p)) } else if random { shared.append(i) }
                case .subset(let k):
                    if random && (independent || AuditAnalysis.narrowIsSignificant(symbols: k, of: alphabetSize, distinct: bucketCount)) {
                        flagged.append((i, p))
                    } else if random {
                        shared.append(i)
                    }
                default: break
                }
            }
            if s.shardIndexes.count < s.shardCount, !flagged.isEmpty {
                // A shard holds the values whose fingerprints fall in it: in a small space, a subset that
                // need not be even position by position. Merge every shard to judge positions.
                flagged = []
                findings.append(
                    "positions are not judged in \(s.shardIndexes.count) of \(s.shardCount) shards: merge all shards to judge them")
            }
            if !shared.isEmpty, let format {
                findings.append(
                    "\(shared.count == 1 ? "position" : "positions") \(AuditAnalysis.ranges(shared)) \(shared.count == 1 ? "varies" : "vary") less than fresh random symbols would: ids within one \(format.bucketName) share random bits (a monotonic generator counts up from one draw)"
                )
            }
        }

        /// The flagged positions in words: constant and narrow ones grouped, biased ones one by one
        /// with the symbol that is over-represented.
        func words(format: TimeFormat?, alphabetSize: Int) -> [String] {
            var words: [String] = []
            let place = format.map { "where \($0.displayName) has random bits" } ?? ""
            let constantFlags = flagged.filter { if case .constant = $0.1 { return true } else { return false } }
            if !constantFlags.isEmpty {
                let text =
                    String(
                        String.UnicodeScalarView(
                            constantFlags.prefix(12).compactMap { if case .constant(let c) = $0.1 { return c } else { return nil } }))
                    + (constantFlags.count > 12 ? "…" : "")
                words.append(
                    "position\(constantFlags.count > 1 ? "s" : "") \(AuditAnalysis.ranges(constantFlags.map(\.0))) \(constantFlags.count > 1 ? "are" : "is") constant ('\(text.escapingControlCharacters)') \(place)"
                )
            }
            let narrowFlags = flagged.filter { if case .subset = $0.1 { return true } else { return false } }
            if !narrowFlags.isEmpty {
                words.append(
                    "position\(narrowFlags.count > 1 ? "s" : "") \(AuditAnalysis.ranges(narrowFlags.map(\.0))) use\(narrowFlags.count > 1 ? "" : "s") only a few symbols \(place)"
                )
            }
            let biasedFlags = flagged.filter { if case .biased = $0.1 { return true } else { return false } }
            for (i, p) in biasedFlags.prefix(8) {
                if case .biased(let bits, let k, let top, let share) = p {
                    words.append(
                        "position \(i + 1) is biased: '\(String(top).escapingControlCharacters)' in "
                            + String(
                                format: "%.2f%% of ids where %d symbols evenly would give %.2f%% (%.3f of %.3f bits; %d symbols seen)",
                                100 * share, alphabetSize, 100 / Double(alphabetSize), bits, log2(Double(alphabetSize)), k))
                }
            }
            if biasedFlags.count > 8 { words.append("… and \(biasedFlags.count - 8) more biased positions") }
            return words
        }
    }

    /// Fields a format fills with random symbols (so a constant or narrow one there is a defect).
    /// `length`: the ids' (TypeID's suffix is its last 26 characters: the 10 of the timestamp, then
    /// the version character, whose last bit only is random, and the variant character at 13, with
    /// 3 random bits of 5, are not counted).
    static func expectsRandom(_ f: TimeFormat, at i: Int, length: Int) -> Bool {
        switch f {
        case .typeid: i - (length - 26) >= 11 && i - (length - 26) != 13 && i < length
        case .uuid7: ![8, 13, 18, 23, 14, 19].contains(i) && !f.timePositions.contains(i)
        case .ulid: i >= 10
        case .ksuid, .uuid1, .uuid6: false
        }
    }
}
