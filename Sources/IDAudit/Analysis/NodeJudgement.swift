import Foundation
import IDBudget
import IDFormats
import Precise

extension AuditAnalysis {
    /// Lines a format may set aside as strays (a CSV header, a test id): one in a thousand, and at
    /// least one (a small export's header line).
    static func strayTolerance(_ ids: Int) -> Int { Swift.max(1, ids / 1000) }

    /// Lines shorter than this are words a log carries beside its ids (a header, `null`, `-`), which
    /// may be set aside uncounted as repeats; from it on a line is long enough to be an id (a
    /// 16-character token already holds 64 bits or more), and its copies are repeats of an id.
    static let wordLength = 16

    /// Whether lines of `length` written with `symbols` can be words a log carries beside its ids (a
    /// header, `null`, `-`, a `0` for no id) rather than a stuck generator's ids: under
    /// ``wordLength``, and a digit only in a line of one or two characters. A random 15-character
    /// base62 token holds a digit all but 7% of the time, so 900 copies of one among a million ids
    /// are repeats of an id, not a word set aside.
    static func isWord(length: Int, symbols: some Sequence<Unicode.Scalar>) -> Bool {
        length < wordLength && (length <= 2 || !symbols.contains { ("0"..."9").contains($0) })
    }

    /// The fewest ids a node-id layout is read from unasked: random numbers land on at most half as
    /// many nodes as ids (what a layout needs) once in 10^6 or less from 8 ids on, over 1,024 nodes.
    static let nodeMinimum = 8

    /// The node-id format the stream is, if any: with `scheme`, that one when every id but the strays
    /// (``strayTolerance(_:)``) reads as it; otherwise, of the formats all but the strays read as at
    /// plausible times, the one whose latest id is nearest the clock (a Discord id also reads as a
    /// Twitter Snowflake of four years earlier), with every format that fits.
    ///
    /// A layout whose nodes' ids come in order is preferred (the order tells the decimal layouts
    /// apart); when none does — a shuffled or merged log — the layouts that fit by their times and
    /// nodes alone are taken. Random numbers do not get in that way: a 63-bit number's top 41 bits
    /// put it anywhere in 69 years, and every id but the strays must lie between the layout's epoch
    /// and a day from now. The verdict of a node-id stream (no id may repeat) is the same in any of
    /// its layouts; only the nodes reported depend on the one chosen.
    static func nodeFormat(of s: AuditSummary, scheme: IDFormat?, now: Int) -> (IDFormat, fits: [IDFormat])? {
        // Undeclared, a layout is read from at least `nodeMinimum` ids: two random 18-digit numbers
        // on one of Discord's 1,024 nodes (one pair in 1,024) fit it as well as two Discord ids do.
        guard s.ids > 0, s.ids >= nodeMinimum || scheme != nil else { return nil }
        func fitting(ordered: Bool) -> [IDFormat] {
            NodeStats.formats.filter { f in
                guard let n = s.nodeFormats[f], s.ids - n.ids <= strayTolerance(s.ids) else { return false }
                return n.plausible(f, now: now, ordered: ordered, repeats: s.extraOccurrences) || f == scheme
            }
        }
        let inOrder = fitting(ordered: true)
        let fits = inOrder.isEmpty ? fitting(ordered: false) : inOrder
        if let scheme, fits.contains(scheme) { return (scheme, fits) }
        // Fewest distinct nodes first (a layout that misreads the ids takes sequence or time bits for
        // node bits), then the latest id nearest the clock.
        func rank(_ f: IDFormat) -> (Int, Int) {
            let n = s.nodeFormats[f] ?? NodeStats()
            return (n.nodesTruncated ? Int.max : n.nodes.count, abs(now - n.lastMillis))
        }
        guard let best = fits.min(by: { rank($0) < rank($1) }) else { return nil }
        return (best, fits)
    }

    /// Judges a node-id stream. No id is drawn at random, so none may repeat: one repeat means two
    /// live nodes shared a node value, or a node's clock went back into ticks it had used. The test
    /// is the duplicate test in a space past any stream's reach (2^4096): any repeat is "too many".
    /// `declared`: the lines not of the format are counted by the declaration's own finding.
    init(node format: IDFormat, stats n: NodeStats, fits: [IDFormat], summary s: AuditSummary, declared: Bool = false) {
        ids = s.ids
        distinct = s.distinct
        extraOccurrences = s.extraOccurrences
        duplicateIDs = s.duplicateIDs
        self.format = nil
        nodeFormat = format
        nodeStats = n
        nodeFits = fits
        let name = InspectableFormat(rawValue: format.rawValue)?.displayName ?? format.rawValue
        formatName = name
        alphabet = format.alphabet.name ?? format.encoding
        alphabetSize = format.alphabet.count
        positions = []
        randomBits = 0
        // No random bits: the space reported is 1; the test's is past any stream's reach, so that any
        // repeat is "too many".
        space = BigInt(1)
        let field = format.node?.name ?? "node"
        spaceDescription = "\(name): no random bits; unique while no two live nodes share a \(field)"
        buckets = nil
        test = DuplicateTest(
            cells: [.init(space: BigInt.power(2, Self.spaceCapBits), ids: s.ids)], observed: Self.repeats(of: format, in: s), tests: 1,
            judgeFewer: false)
        effectiveBits = 0
        effectiveBitsIsLowerBound = false
        effectiveBitsLower95 = 0
        var findings: [String] = []
        let layout = InspectableFormat(rawValue: format.rawValue)?.source ?? format.source
        findings.append("format: \(name) (\(layout)) — ids from \(Self.iso(n.firstMillis)) to \(Self.iso(n.lastMillis))")
        if n.ids < s.ids, !declared {
            let strays = s.ids - n.ids
            findings.append(
                "\(strays) of \(s.ids) lines \(strays == 1 ? "is" : "are") not \(name) (a header, a stray id): set aside, within the tolerance (one line, or one in a thousand); \(n.ids) ids judged"
            )
        }
        let others = fits.filter { $0 != format }
        if !others.isEmpty {
            findings.append(
                "the ids also fit the layout of \(others.map(\.rawValue).joined(separator: ", ")); read as \(format.rawValue): asked with --scheme, or else the one that finds the fewest nodes (then the latest id nearest the clock)"
            )
        }
        let nodes = n.nodesTruncated ? "more than \(NodeStats.nodeLimit)" : "\(n.nodes.count)"
        let bits = format.nodeBits ?? 0
        findings.append("\(nodes) distinct values of the \(field) (of 2^\(bits))")
        if let top = n.maxSequence, let perTick = format.node?.perTick {
            findings.append(
                "sequence: at most \(top + 1) ids in one tick from one node, of the \(perTick) the layout allows (\(String(format: "%.1f", 100 * Double(top + 1) / Double(perTick)))%)"
            )
        }
        findings.append(
            n.isNewestFirst
                ? "the ids come newest first (sorted descending): each of the \(n.regressions) steps back counts as a regression; audit them oldest first to count clocks set back"
                : n.isUnordered
                    ? "the ids are not in time order (\(n.regressions) steps back: a shuffled or merged log); audit them in the order they were minted to count clocks set back"
                    : n.regressions == 0
                        ? "no clock regressions: every node's ids come in time order"
                        : "\(n.regressions) clock regression\(n.regressions == 1 ? "" : "s"): an id earlier than the one before it from the same node (a clock set back; ids minted then can repeat earlier ones)"
        )
        let repeats = Self.repeats(of: format, in: s)
        if repeats > 0 {
            findings.append(
                "\(repeats) repeated id\(repeats == 1 ? "" : "s"): a node-id format never repeats an id unless two live nodes share a \(field) or a clock went back"
            )
        }
        if repeats < s.extraOccurrences {
            findings.append(
                "\(s.extraOccurrences - repeats) repeated line\(s.extraOccurrences - repeats == 1 ? "" : "s") of symbols no \(name) has (a header in every part of a merged export): not ids, set aside"
            )
        }
        verdict = repeats > 0 ? .tooMany : .consistent
        self.findings = findings
    }

    /// The repeats among lines that can be `format`'s ids: all of them, but for the lengths no id of
    /// it has (``lengths(of:)``: a header `id` among xids, a `0` among Snowflakes) and the lengths
    /// whose every line has a symbol the format never writes (a header line `request_id` among
    /// Snowflakes), repeated in each part of a merged export: no ids of it. Only words are set aside
    /// so (``isWord(length:symbols:)``, as everywhere in the audit): 20 copies of a 22-character token among
    /// Snowflakes are a stuck generator's, repeats of an id whatever its format.
    static func repeats(of format: IDFormat, in s: AuditSummary) -> Int {
        guard s.lengths.count > 1, !s.groups.isEmpty else { return s.extraOccurrences }
        let symbols = Set(format.alphabet.symbols.flatMap { "\($0)".lowercased().unicodeScalars + "\($0)".uppercased().unicodeScalars })
        let possible = lengths(of: format)
        var foreign = 0
        for (length, g) in s.groups where length <= AuditSummary.positionLimit {
            let n = s.lengths[length] ?? 0
            // Every line of this length has a foreign symbol when the foreign symbols at one position number all its lines.
            let alien = g.positions.contains { row in row.filter { !symbols.contains($0.key) }.values.reduce(0, +) == n }
            if alien || !possible.contains(length), isWord(length: length, symbols: g.positions.lazy.flatMap(\.keys)) {
                foreign += g.multiplicities.reduce(0) { $0 + ($1.key - 1) * $1.value }
            }
        }
        return Swift.max(0, s.extraOccurrences - foreign)
    }

    /// The lengths an id of a node-id format can have: its text form's, or, for the decimal Snowflake
    /// family, from the digits of the smallest id minted at ``NodeStats/earliest(_:)`` (the time in
    /// the top bits, node and sequence 0) to 19.
    static func lengths(of format: IDFormat) -> ClosedRange<Int> {
        guard format.isDecimal else { return format.length...format.length }
        let since = UInt64(Swift.max(0, NodeStats.earliest(format) - Int(format.defaultEpoch ?? 0)))
        let smallest: UInt64 =
            switch format {
            case .instagram: since << 23
            case .sonyflake: (since / 10) << 24
            default: since << 22
            }
        return String(smallest).count...format.length
    }

    static func iso(_ millis: Int) -> String { UTCTime.iso(millis: Int64(millis)) }
}
