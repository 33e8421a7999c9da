import Foundation
import IDBudget
import IDFormats
import Precise

/// What an audit concludes from a summary: the format, what each position holds, the space the ids
/// really draw from, and whether the duplicates fit it.
///
/// * **Formats.** When every id parses as UUIDv7, ULID, KSUID or UUIDv1, duplicates are judged within
///   the format's time buckets against its random bits (two ids of different buckets cannot collide).
/// * **Positions.** Each of the first 64 positions is tested for uniformity (χ², Wilson–Hilferty, at
///   p < 10⁻⁶): over the whole alphabet (random), over the symbols it uses (a structured field such
///   as a UUID's variant), constant (a prefix, a version, zero bits), or neither (biased). The space
///   is the product of what the positions hold, so a constant prefix adds nothing, and a stream whose
///   positions are all uniform but whose ids never repeat where they should (a counter) shows as too
///   few duplicates.
/// * **Duplicates.** ``DuplicateTest``: both tails, exact moments, Poisson with a stated bound.
public struct AuditAnalysis: Sendable {
    public enum Verdict: String, Sendable, Codable {
        case consistent
        case tooMany = "too-many-duplicates"
        case tooFew = "too-few-duplicates"
        case nonUniform = "non-uniform-positions"
        /// The estimate says the duplicates are off, but no bound proves it within the cost limit.
        case inconclusive
        /// No ids: nothing to judge, and not evidence of anything.
        case empty
        /// More lines than allowed are not of the declared shape (``DeclaredShape``).
        case invalid = "invalid-ids"
    }

    /// What one position holds.
    public enum Position: Sendable, Equatable {
        case uniform(symbols: Int)  // every symbol of the alphabet, evenly
        case subset(symbols: Int)  // a few symbols, evenly: structure (a UUID variant, say)
        case constant(Unicode.Scalar)
        /// `top`: the most over-represented symbol, at `share` of the ids where uniform would give 1/symbols.
        case biased(bits: Double, symbols: Int, top: Unicode.Scalar, share: Double)
        case time  // part of the format's timestamp

        /// The values it contributes to the space.
        var size: Int {
            switch self {
            case .uniform(let s), .subset(let s), .biased(_, let s, _, _): s
            case .constant, .time: 1
            }
        }
    }

    public internal(set) var ids: Int
    public internal(set) var distinct: Int
    public internal(set) var extraOccurrences: Int
    public internal(set) var duplicateIDs: Int
    public internal(set) var alphabet: String
    public internal(set) var alphabetSize: Int
    public let format: TimeFormat?
    /// "UUIDv4", "UUIDv7", "tokens", …
    public internal(set) var formatName: String
    /// The space one id (or one bucket's ids) is drawn from.
    public let space: BigInt
    public let spaceDescription: String
    /// Per position (0-based, first 64), for single-length streams.
    public let positions: [Position]
    /// Random bits one id carries, from its positions (or its format's random bits).
    public let randomBits: Double
    /// Buckets and the largest, for time formats.
    public let buckets: (count: Int, largest: Int)?
    public let test: DuplicateTest
    public let effectiveBits: Double
    public let effectiveBitsIsLowerBound: Bool
    /// The effective entropy's 95% lower bound (with no duplicates it is ``effectiveBits``).
    public let effectiveBitsLower95: Double
    /// What was found, in words.
    public internal(set) var findings: [String]
    /// A mixed stream's groups (by id length), each judged in its own space; empty for one group.
    public internal(set) var groups: [GroupResult] = []

    /// One group of a mixed stream and its judgement.
    public struct GroupResult: Sendable {
        public let length: Int?
        public let ids: Int
        public let report: AuditAnalysis
    }
    public internal(set) var verdict: Verdict
    /// The node-id format the ids read as (``NodeStats``), its statistics, and every format whose
    /// layout also fits them (the Snowflake family's decimal numbers can fit several).
    public let nodeFormat: IDFormat?
    public let nodeStats: NodeStats?
    public let nodeFits: [IDFormat]

    /// Spaces beyond this many bits are taken as 2^4096 (no statistic can tell them apart).
    static let spaceCapBits = 4096

    public var expectedDuplicates: Double { test.mean }
    public var sd: Double { test.sd }
    public var z: Double { test.z }
    /// A verdict against the stream: too many or too few duplicates, or positions that are not random.
    public var suspicious: Bool { verdict == .tooMany || verdict == .tooFew || verdict == .nonUniform || verdict == .invalid }
    /// The stream passes the audit: ids, and nothing against them (what a CI gate asks).
    public var passes: Bool { verdict == .consistent }

    /// Judges a summary. A stream whose ids have several lengths (none holding 999 in 1000) is judged
    /// group by group — ids of one length form a group, over the alphabet and positions of its own —
    /// with the false-alarm budget divided among the groups (Bonferroni); the verdict is the worst
    /// group's.
    /// Throws when `claimedBits` is outside 1…`Limits.maxSpaceBits` (as `idbudget audit --bits`).
    /// With `scheme` (a node-id format), the ids are read in its layout when every one fits it; without,
    /// the fitting layout whose latest id is nearest the clock.
    /// With `declared`, the ids are judged against that shape instead (``DeclaredShape``), and
    /// `claimedBits` and `scheme` must be nil.
    /// `now`: the time they are judged at — a timestamp more than a day past it is no generator's, and
    /// of the node-id layouts that fit, the one whose latest id is nearest it is taken (default: the
    /// clock; pass one, the summary's own time, for a verdict that does not move from day to day).
    public init(
        summary original: AuditSummary, claimedBits: Int? = nil, scheme: IDFormat? = nil, declared: DeclaredShape? = nil,
        now: Date = Date()
    ) throws(InputError) {
        let now = now.unixMilliseconds
        if let claimedBits, claimedBits < 1 || claimedBits > Limits.maxSpaceBits {
            throw InputError("claimed bits must be from 1 to \(Limits.maxSpaceBits), got \(claimedBits)")
        }
        if let declared {
            guard claimedBits == nil, scheme == nil else {
                throw InputError("a declared shape is the space and the layout both: give it without claimed bits or a scheme")
            }
            if let f = declared.scheme, declared.slots.isEmpty {
                self.init(declaredFormat: f, declared: declared, summary: original, now: now)
            } else {
                self.init(declared: declared, summary: original)
            }
            noteQuoted(original)
            return
        }
        self.init(reading: original, claimedBits: claimedBits, scheme: scheme, now: now)
        notePlaceholders(original)
        noteQuoted(original)
        if let d = original.declared, d.setAside > 0 {
            findings.append(
                "\(d.setAside) line\(d.setAside == 1 ? " was" : "s were") set aside while summarising, as not \(d.shape): not ids, not judged"
            )
        }
    }

    /// Judges a summary as the public initialiser does, its arguments checked.
    init(reading original: AuditSummary, claimedBits: Int?, scheme: IDFormat?, now: Int) {
        // TypeIDs without a prefix read as ULIDs too; their version and variant characters tell them apart.
        let prefixless = claimedBits == nil ? Self.asPrefixlessTypeIDs(original) : nil
        let s = prefixless ?? original
        if claimedBits == nil, let (format, fits) = Self.nodeFormat(of: s, scheme: scheme, now: now), let stats = s.nodeFormats[format] {
            self.init(node: format, stats: stats, fits: fits, summary: s)
            if let scheme, scheme != format {
                findings.insert(
                    "--scheme \(scheme.rawValue): not every id reads as \(scheme.rawValue); read as \(format.rawValue), which fits", at: 0)
            }
            return
        }
        defer {
            if prefixless != nil, format == .typeid { findings.insert(Self.prefixlessWords, at: Swift.min(1, findings.count)) }
            if let scheme, s.ids > 0 {
                findings.insert("--scheme \(scheme.rawValue): not every id reads as \(scheme.rawValue); judged as the ids they are", at: 0)
            }
        }
        // TypeIDs of several prefix lengths are one stream: judged by their buckets, not split by
        // length, when all but one line in a thousand are TypeIDs (a stray id) and every length
        // holds them. Strays of other lengths split off below, where words (a header, `null`s) are
        // set aside: two `null`s beside TypeIDs are no repeated TypeID.
        let typeIDs = s.timeFormats[.typeid]?.ids ?? 0
        let allTypeIDs =
            s.ids > 0 && typeIDs > 0 && s.ids - typeIDs <= Self.strayTolerance(s.ids)
            && Self.typeIDLengths(s).count == s.lengths.count
        guard claimedBits == nil, !allTypeIDs, var parts = Self.split(s), parts.count > 1 else {
            self.init(single: s, claimedBits: claimedBits, tests: 1, now: now)
            return
        }
        // Words a log carries beside its ids — a header repeated in each part of a merged export,
        // `null`, `-`: a length of words (``isWord(length:symbols:)``: under 16, no digit past two
        // characters) holding no more lines than the stray tolerance is set aside and named, not
        // judged as ids (ten `null`s are no ten copies of an id).
        // Together with the nil and max UUIDs set aside while summarising, within one tolerance.
        var words = parts.filter { p in
            p.length.map { Self.isWord(length: $0, symbols: p.summary.symbols) } == true && p.summary.ids <= Self.strayTolerance(s.ids)
        }
        if words.reduce(s.placeholderLines, { $0 + $1.summary.ids }) > Self.strayTolerance(s.ids + s.placeholderLines) { words = [] }
        var setAside: String?
        if !words.isEmpty, words.count < parts.count {
            parts.removeAll { p in words.contains { $0.length == p.length } }
            let n = words.reduce(0) { $0 + $1.summary.ids }
            let lengths = words.compactMap(\.length).map(String.init).joined(separator: ", ")
            setAside =
                "\(n) of \(s.ids) lines \(n == 1 ? "is" : "are") \(lengths) characters long (a header in each part of an export, a placeholder such as null): set aside, within the tolerance (one line, or one in a thousand)"
        }
        if parts.count == 1 {
            self = Self.judging(part: parts[0].summary, tests: 1, now: now)
            ids = s.ids
            distinct = s.distinct
            extraOccurrences = s.extraOccurrences
            duplicateIDs = s.duplicateIDs
            if let setAside { findings.append(setAside) }
            return
        }
        defer { if let setAside { findings.append(setAside) } }
        let tests = Swift.max(1, parts.filter { $0.summary.ids >= 2 }.count)
        let results = parts.map {
            GroupResult(
                length: $0.length, ids: $0.summary.ids, report: Self.judging(part: $0.summary, tests: tests, now: now))
        }
        // The group that decides: the first by severity, else the largest.
        let order: [Verdict] = [.tooMany, .nonUniform, .tooFew, .inconclusive]
        let decisive = order.lazy.compactMap { v in results.first { $0.report.verdict == v } }.first ?? results.max { $0.ids < $1.ids }!
        self = decisive.report
        ids = s.ids
        distinct = s.distinct
        extraOccurrences = s.extraOccurrences
        duplicateIDs = s.duplicateIDs
        groups = results
        let lines = results.map { g in "\(Self.label(g)) (\(g.report.formatName), n = \(g.ids)): \(g.report.verdict.rawValue)" }
        findings =
            [
                "\(results.count) groups by id length, each judged in its own space, the false-alarm budget divided among \(tests): "
                    + lines.joined(separator: "; ")
            ]
            + decisive.report.findings.map { "\(Self.label(decisive)): \($0)" }
        verdict = decisive.report.verdict
        // One word repeated past the tolerance (a header in each of 5,000 parts joined with `cat`, a
        // `null` in every tenth line): judged as copies of one value, as it must be — but say what it
        // likely is, and how to read such a log.
        for p in parts {
            guard let length = p.length, Self.isWord(length: length, symbols: p.summary.symbols), p.summary.distinct == 1,
                p.summary.ids > Self.strayTolerance(s.ids)
            else { continue }
            findings.append(
                "length \(length): one word written \(p.summary.ids) times, past the tolerance (one line in a thousand) — a header in each part of a merged export, or a placeholder where a line had no id: judged as copies of one value, which a log of ids must not hold; a CSV export read with --column NAME sets its repeated header and its SQL nulls aside"
            )
        }
    }

    /// A group's name in the findings: its length, or TypeIDs of several prefix lengths, or decimal
    /// node ids of several lengths, or the rest.
    static func label(_ g: GroupResult) -> String {
        g.length.map { "length \($0)" }
            ?? (g.report.format == .typeid ? "TypeIDs" : g.report.nodeFormat != nil ? "\(g.report.formatName) ids" : "other lengths")
    }

    /// The summary split into groups by id length: one per length with positions of its own, and one
    /// for the rest. nil for one length, or a summary without groups (judged as one stream, its
    /// lengths still apart in the duplicate test). TypeIDs have the length of their prefix: the
    /// lengths that hold them (``typeIDLengths(_:)``) form one group, with no length (`user_…` and
    /// `order_…` beside other ids are one TypeID stream, judged by its prefixes' buckets).
    static func split(_ s: AuditSummary) -> [(length: Int?, summary: AuditSummary)]? {
        guard s.ids > 0, s.lengths.count > 1, !s.groups.isEmpty else { return nil }
        var parts: [(length: Int?, summary: AuditSummary)] = []
        var rest = s
        rest.groups = [:]
        // Lengths judged together: TypeIDs' (their prefixes vary), decimal node ids' (a Snowflake
        // has 17 to 19 digits as its clock grows).
        var merged: Set<Int> = []
        var typeIDs = typeIDLengths(s)
        // Prefixless TypeIDs (read as such: ``asPrefixlessTypeIDs(_:)``) are every id of 26 characters.
        if typeIDs.isEmpty, let read = s.timeFormats[.typeid]?.ids, read > 0, s.lengths[26] == read { typeIDs = [26] }
        if typeIDs.count < s.lengths.count, var g = lengthGroups(of: s, where: typeIDs.contains) {
            g.timeFormats[.typeid] = s.timeFormats[.typeid]
            rest.timeFormats[.typeid] = AuditSummary.TimeBuckets()
            parts.append((typeIDs.count == 1 ? typeIDs.first : nil, g))
            merged = typeIDs
        }
        // Their own group when other lengths are left, or when the TypeIDs took the others (the
        // decimal lengths then being all that is left, their layout must still come with them).
        let decimals = decimalNodeLengths(s).subtracting(merged)
        if !decimals.isEmpty, !merged.isEmpty || decimals.count < s.lengths.count,
            var g = lengthGroups(of: s, where: decimals.contains)
        {
            for f in NodeStats.formats where f.isDecimal { g.nodeFormats[f] = s.nodeFormats[f] }
            parts.append((decimals.count == 1 ? decimals.first : nil, g))
            merged.formUnion(decimals)
        }
        // The node ids are in their groups; what is left has none.
        rest.nodeFormats = [:]
        for (length, group) in s.groups.sorted(by: { $0.key < $1.key }) {
            guard let n = s.lengths[length] else { continue }
            if !merged.contains(length) {
                guard let g = lengthGroup(of: s, length: length) else { continue }
                parts.append((length, g))
            }
            // What is left: subtract the group.
            rest.ids -= n
            rest.lengths[length] = nil
            for (m, k) in group.multiplicities {
                let left = (rest.multiplicities[m] ?? 0) - k
                rest.multiplicities[m] = left > 0 ? left : nil
            }
            for (i, row) in group.positions.enumerated() where i < rest.positions.count {
                for (c, k) in row {
                    let left = (rest.positions[i][c] ?? 0) - k
                    rest.positions[i][c] = left > 0 ? left : nil
                }
            }
            for f in TimeFormat.allCases where f.length == length { rest.timeFormats[f] = AuditSummary.TimeBuckets() }
            if length == IDFormat.ksuid.length { rest.ksuidPayloadBits = [] }
            rest.sample = rest.sample.filter { $0.unicodeScalars.count != length }
        }
        while let last = rest.positions.last, last.isEmpty { rest.positions.removeLast() }
        if rest.ids > 0 { parts.append((nil, rest)) }
        return parts
    }

    /// The lengths whose ids are the TypeIDs the summary read: every length past 27 whose ids all but
    /// one in a thousand have the `_` before a 26-character suffix, when together they hold the
    /// TypeIDs read and no more than one line in a thousand besides. Empty when there are none, or
    /// the lengths do not account for them (the summary keeps no link from a TypeID to its length).
    static func typeIDLengths(_ s: AuditSummary) -> Set<Int> {
        lengths(of: s, holding: s.timeFormats[.typeid]?.ids ?? 0) { length, g in
            // How many of the length's ids lack the `_` before the suffix.
            length > 27 && length - 27 < g.positions.count ? (s.lengths[length] ?? 0) - (g.positions[length - 27]["_"] ?? 0) : nil
        }
    }

    /// The lengths whose ids are the decimal node ids the summary read (the Snowflake family's):
    /// every length up to 20 whose ids are digits but for one in a thousand, when together they hold
    /// the ids a decimal layout read and no more than one line in a thousand besides. Empty when no
    /// decimal layout read ids, or the lengths do not account for them.
    static func decimalNodeLengths(_ s: AuditSummary) -> Set<Int> {
        let digits = Set("0123456789".unicodeScalars)
        let read = NodeStats.formats.filter(\.isDecimal).compactMap { s.nodeFormats[$0]?.ids }.max() ?? 0
        return lengths(of: s, holding: read) { length, g in
            // At least as many of the length's ids have a symbol other than a digit as any position shows.
            length <= 20 ? g.positions.prefix(length).map { $0.filter { !digits.contains($0.key) }.values.reduce(0, +) }.max() ?? 0 : nil
        }
    }

    /// The lengths whose ids are the `read` ids a format's reader took (the summary keeps no link from
    /// an id to its length): every length whose group `strays` calls the format's — nil for a length
    /// that can not be, else how many of its ids are not — but for one in a thousand and holding at
    /// least one of the format's, when together
    /// they hold the `read` ids and no more than one line in a thousand besides. Empty otherwise.
    static func lengths(
        of s: AuditSummary, holding read: Int, strays: (Int, AuditSummary.Group) -> Int?
    ) -> Set<Int> {
        guard read > 0 else { return [] }
        var lengths: Set<Int> = []
        var n = 0
        for (length, g) in s.groups {
            // A length none of whose ids is the format's is strays, however few (a lone line of 45
            // characters beside TypeIDs is within one length's tolerance, yet no TypeID).
            guard let k = s.lengths[length], let off = strays(length, g), off <= strayTolerance(k), off < k else { continue }
            lengths.insert(length)
            n += k
        }
        return n >= read && n - read <= strayTolerance(n) ? lengths : []
    }

    /// A part of a split stream judged as its own stream: in a node-id layout when one fits its ids
    /// (xids, ObjectIds, TSIDs or Snowflakes beside other ids), else as ``init(single:claimedBits:tests:forcing:now:)``.
    static func judging(part s: AuditSummary, tests: Int, now: Int) -> AuditAnalysis {
        if let (format, fits) = nodeFormat(of: s, scheme: nil, now: now), let stats = s.nodeFormats[format] {
            return AuditAnalysis(node: format, stats: stats, fits: fits, summary: s)
        }
        // TypeIDs without a prefix beside ids of other lengths: read as such in their own group.
        if let typeIDs = asPrefixlessTypeIDs(s) {
            var r = AuditAnalysis(single: typeIDs, claimedBits: nil, tests: tests, now: now)
            if r.format == .typeid { r.findings.insert(prefixlessWords, at: Swift.min(1, r.findings.count)) }
            return r
        }
        return AuditAnalysis(single: s, claimedBits: nil, tests: tests, now: now)
    }

    static let prefixlessWords =
        "read as TypeIDs without a prefix, not ULIDs: lower case, with a UUIDv7's version and variant characters (positions 11 and 14) in every id"

    /// The ids of one length, as a summary of their own: the length's group (multiplicities and
    /// positions of its own), its time formats and sample. nil when the summary has no group for it.
    static func lengthGroup(of s: AuditSummary, length: Int) -> AuditSummary? {
        lengthGroups(of: s) { $0 == length }
    }

    /// The ids of the lengths `keep` takes, as a summary of their own: their groups' multiplicities
    /// and positions summed, the time formats of those lengths, their sample. nil when none has ids
    /// or one has no group.
    static func lengthGroups(of s: AuditSummary, where keep: (Int) -> Bool) -> AuditSummary? {
        let lengths = s.lengths.filter { keep($0.key) && $0.value > 0 }
        guard !lengths.isEmpty else { return nil }
        var g = AuditSummary(maxLineBytes: s.maxLineBytes)
        for (length, n) in lengths {
            guard let group = s.groups[length] else { return nil }
            g.ids += n
            g.multiplicities.merge(group.multiplicities, uniquingKeysWith: +)
            for (i, row) in group.positions.enumerated() {
                if i == g.positions.count { g.positions.append([:]) }
                g.positions[i].merge(row, uniquingKeysWith: +)
            }
            if length > AuditSummary.positionLimit { g.symbols.formUnion(s.symbols) }
        }
        g.lines = g.ids
        g.lengths = lengths
        g.symbols.formUnion(g.positions.flatMap { $0.keys })
        for (f, t) in s.timeFormats where f.length.map(keep) == true { g.timeFormats[f] = t }
        if keep(IDFormat.ksuid.length) { g.ksuidPayloadBits = s.ksuidPayloadBits }
        // A node-id format of one length (xid, ObjectId, TSID) read only ids of that length.
        for (f, n) in s.nodeFormats where !f.isDecimal && keep(f.length) { g.nodeFormats[f] = n }
        g.sample = s.sample.filter { keep($0.unicodeScalars.count) }
        return g
    }

    /// Judges one stream, step by step: its shape (dominant length, time format), its alphabet, what
    /// each position holds and which ones count against it, the space it is drawn from, the duplicate
    /// test in that space, its effective entropy, and the verdict. Findings come in that order, the
    /// time format's description first.
    /// `forcing` a time format judges the ids as it (a declared format, ``DeclaredShape``), however
    /// many lines are not of it.
    init(single original: AuditSummary, claimedBits: Int?, tests: Int, forcing forced: TimeFormat? = nil, now: Int) {
        if claimedBits == nil, forced == nil, let mix = Self.objectIDMix(original) {
            self = AuditAnalysis(objectIDMix: mix, summary: original, tests: tests)
            return
        }
        ids = original.ids
        distinct = original.distinct
        extraOccurrences = original.extraOccurrences
        duplicateIDs = original.duplicateIDs
        var findings: [String] = []
        let s = Self.caseFolded(original, findings: &findings) ?? original
        let single =
            forced.flatMap(\.length).flatMap { s.lengths[$0] != nil ? $0 : nil }
            ?? Self.dominantLength(of: s, findings: &findings)
        var format = forced ?? Self.timeFormat(of: s, now: now, findings: &findings)
        // UUIDv7s beside UUIDv4s, v1s or v6s (a migration's log): each judged where its ids can collide.
        let mix = claimedBits == nil && format == nil ? Self.uuidVersionMix(s, length: single) : nil
        if claimedBits == nil, format == nil, Self.isFirebaseStream(s, length: single) {
            self = AuditAnalysis(firebase: s, tests: tests)
            return
        }
        if let mix, mix.uuid7s == 0 {
            self = AuditAnalysis(uuidMix: mix, summary: s, tests: tests)
            return
        }
        if let mix {
            format = .uuid7
            findings.append(mix.words(strayTolerance: Self.strayTolerance(s.ids)))
        }
        let unjudged = mix.map { $0.untestedPositions(strayTolerance: Self.strayTolerance(s.ids)) } ?? []
        let floors = mix.map { $0.uuid4Floors(s) } ?? []
        if let mix, !floors.isEmpty { findings.append(mix.floorWords(floors)) }
        let alphabet = Self.chooseAlphabet(for: s, format: format)
        if !alphabet.strays.isEmpty {
            let shown = alphabet.strays.map { "'\(String($0.symbol).escapingControlCharacters)'" }.joined(separator: ", ")
            let most = alphabet.strays.map(\.ids).max() ?? 0
            findings.append(
                "\(shown) not of \(alphabet.name), in at most \(most) id\(most == 1 ? "" : "s") at any position: a stray line's, left out (within the tolerance, one line in a thousand)"
            )
        }
        let positions = Self.classifyPositions(of: s, length: single, format: format, alphabetSize: alphabet.size)
        if let strays = Self.strayPositionWords(of: s, length: single, format: format, alphabetSize: alphabet.size) {
            findings.append(strays)
        }
        // A UUIDv7 whose rand_a would count against it is read as method 1's counter instead (a
        // monotonic generator's rand_a, explained by ids sharing a millisecond, stays random). Method 1
        // draws rand_b afresh for every id: a rand_b that varies less than that counts against it.
        // A UUIDv8's 122 bits are laid out as its vendor chose (RFC 9562 §5.8): a clock, a counter or
        // a node there is its layout, not a biased generator. Only its duplicates are judged.
        let vendorLaid: [Int] =
            claimedBits == nil && format == nil && Self.isUUIDv8(positions, length: single)
            ? positions.indices.filter { if case .biased = positions[$0] { true } else { false } } : []
        if !vendorLaid.isEmpty {
            findings.append(
                "UUIDv8: its 122 bits are laid out as its vendor chose (RFC 9562 §5.8); position\(vendorLaid.count == 1 ? "" : "s") \(Self.ranges(vendorLaid)), not uniform, \(vendorLaid.count == 1 ? "is" : "are") taken as that layout (a clock, a counter, a node), not as bias: only duplicates are judged"
            )
        }
        var probe: [String] = []
        var flags = PositionFlags(
            positions, of: s, format: format, alphabetSize: alphabet.size, skipping: Set(vendorLaid).union(unjudged), findings: &probe)
        let randA = format.flatMap { Self.randAPositions(of: $0, length: single) } ?? []
        let counter = claimedBits == nil && flags.flagged.contains { randA.contains($0.0) }
        if counter {
            flags = PositionFlags(
                positions, of: s, format: format, alphabetSize: alphabet.size, skipping: randA.union(vendorLaid).union(unjudged),
                fresh: true,
                findings: &findings)
        } else {
            findings += probe
        }
        let judged = SpaceJudgement(
            s, claimedBits: claimedBits, format: format, length: single, positions: positions, alphabet: alphabet, counter: counter,
            findings: &findings)
        if counter {
            findings.append(
                "positions \(Self.ranges(randA.sorted())) (rand_a) are not fresh random symbols: read as RFC 9562's method 1 counter (or method 3's finer clock) within the millisecond; duplicates judged over rand_b's \(Self.randBBits) bits"
            )
        }
        if format == nil {
            findings += Self.positionWords(
                positions, length: single, alphabetSize: alphabet.size, randomBits: judged.randomBits, distinct: s.distinct)
        }
        findings += flags.words(format: format, alphabetSize: alphabet.size)
        // A format known by its layout, not its time: every position it draws at random must be
        // uniform — a stuck one is a broken generator, not structure that shrinks the space.
        let stuck = Self.stuckRandomPositions(positions, of: judged.recognised)
        if !stuck.isEmpty {
            findings.append(
                "position\(stuck.count == 1 ? "" : "s") \(Self.ranges(stuck)) \(stuck.count == 1 ? "is" : "are") not uniform where \(judged.formatName) has random symbols"
            )
        }
        // A KSUID's payload, bit by bit: no character position shows it.
        var payload = format == .ksuid ? Self.nonRandomPayloadBits(s, tests: tests) : nil
        if let flagged = payload, !flagged.isEmpty, flagged.allSatisfy(Self.ksuidCounterBits.contains) {
            findings.append(
                "KSUID payload bit\(flagged.count == 1 ? "" : "s") \(Self.ranges(flagged)) (of 128, from the top) \(flagged.count == 1 ? "is" : "are") not random, all in the low 16 bits: read as a counter below 112 random bits (segmentio's Sequence: one draw, then up to 65,536 ids), not as bias"
            )
            payload = []
        } else if let payload, !payload.isEmpty {
            findings.append(
                "KSUID payload bit\(payload.count == 1 ? "" : "s") \(Self.ranges(payload)) (of 128, from the top) \(payload.count == 1 ? "is" : "are") not random: set in too many or too few ids for fresh draws each second (Hoeffding's bound, certified) — a counter, or a narrowed or stuck generator"
            )
        } else if format == .ksuid && payload == nil && s.ids > 0 {
            findings.append("KSUID payload bits not tested: the summary does not count them per second")
        }
        // Its low characters, symbol by symbol: a character stuck mid-string constrains no one bit.
        let uneven = format == .ksuid ? Self.unevenKSUIDCharacters(s, tests: tests) ?? [] : []
        if !uneven.isEmpty {
            findings.append(
                "KSUID character\(uneven.count == 1 ? "" : "s") \(Self.ranges(uneven)) \(uneven.count == 1 ? "is" : "are") not even over base62, where the random payload sets every symbol equally often (Hoeffding's bound over the seconds, certified) — a stuck or narrowed generator"
            )
        }
        var cells = DuplicateCells(
            s, judged: judged, claimedBits: claimedBits, format: format, length: single, positions: positions, alphabet: alphabet,
            findings: &findings)
        for cell in mix?.cells ?? [] { cells.add(cell) }
        let test = cells.test(observed: s.extraOccurrences, tests: tests)

        self.format = format
        self.alphabet = alphabet.name
        alphabetSize = alphabet.size
        self.positions = positions
        formatName = mix?.name ?? judged.formatName
        space = judged.space
        spaceDescription = judged.text
        buckets = judged.buckets
        // No ids, no bits (the sum over no lengths is no space at all).
        randomBits = s.ids == 0 ? 0 : judged.randomBits
        self.test = test
        // A uniform generator cannot have more entropy than the space it draws from.
        effectiveBits = Swift.min(Self.effectiveBits(groups: judged.groups, duplicates: s.extraOccurrences), judged.space.log2Magnitude)
        effectiveBitsIsLowerBound = s.extraOccurrences == 0
        // The 95% bound is at most the point estimate (both are capped by the space).
        effectiveBitsLower95 = Swift.min(Self.effectiveBitsLower95(groups: judged.groups, duplicates: s.extraOccurrences), effectiveBits)
        verdict = Self.decideVerdict(
            s, test: test,
            nonUniform: !flags.flagged.isEmpty || !stuck.isEmpty || !(payload ?? []).isEmpty || !uneven.isEmpty || !floors.isEmpty,
            findings: &findings)
        if let format, let repeats = Self.clockedRepeats(s, format: format) {
            verdict = .tooMany
            findings.append(
                "\(repeats) repeated \(format.displayName) id\(repeats == 1 ? "" : "s"): a \(format.displayName) is unique by construction (RFC 9562: its clock sequence changes whenever the clock may have gone back, its node tells generators apart), so no repeat is chance — a copied id or a broken clock"
            )
        }
        self.findings = findings
        nodeFormat = nil
        nodeStats = nil
        nodeFits = []
    }

    /// Whether the positions of ids of `length` are a UUIDv8's: 36 characters, the hyphens in place,
    /// the version character `8`.
    static func isUUIDv8(_ positions: [Position], length: Int?) -> Bool {
        length == IDFormat.uuid8.length && positions.count == IDFormat.uuid8.length
            && positions[IDFormat.uuidVersionPosition] == .constant("8")
            && IDFormat.uuidHyphenPositions.allSatisfy { positions[$0] == .constant("-") }
    }

    /// A UUIDv7's rand_a, positions 15–17 (0-based): RFC 9562 lets method 1 fill it with a counter
    /// that restarts each millisecond (method 3 with finer clock bits). When those positions would
    /// count against the stream, it is judged as the RFC allows: on rand_b's 62 random bits.
    static let randAPositions: Set<Int> = [15, 16, 17]
    static let randBBits = 62

    /// The positions a UUIDv4 or a Nano ID draws at random that are not uniform (constant, narrow,
    /// biased): a UUIDv4's but its hyphens, version and variant (which must keep its two random bits:
    /// 4 symbols), every one of a Nano ID's. Empty for other streams.
    static func stuckRandomPositions(_ positions: [Position], of format: IDFormat?) -> [Int] {
        func uniform(_ p: Position) -> Bool { if case .uniform = p { true } else { false } }
        switch format {
        case .uuid4:
            let fixed = Set(IDFormat.uuidHyphenPositions + [IDFormat.uuidVersionPosition])
            let variant = 19
            return positions.indices.filter { i in
                !fixed.contains(i) && !(uniform(positions[i]) || (i == variant && positions[i] == .subset(symbols: 4)))
            }
        case .nanoid:
            return positions.indices.filter { !uniform(positions[$0]) }
        default: return []
        }
    }

    /// The extra occurrences among a UUIDv1's or v6's ids (the ids of their length, when the summary
    /// keeps it apart from stray lines'), when there are any; nil for other formats. The 14 bits of
    /// clock sequence are no random space to judge them in: an RFC 9562 generator never repeats.
    static func clockedRepeats(_ s: AuditSummary, format: TimeFormat) -> Int? {
        guard format == .uuid1 || format == .uuid6 else { return nil }
        let multiplicities = s.groups[36]?.multiplicities ?? s.multiplicities
        let extra = multiplicities.reduce(0) { $0 + ($1.key - 1) * $1.value }
        return extra > 0 ? extra : nil
    }

    /// The positions holding a UUIDv7's rand_a in `format`'s text of `length` characters: a UUIDv7's
    /// ``randAPositions``; in a TypeID's suffix (bit 3 + 5(i − 1) starts character i ≥ 1 of the 26),
    /// rand_a's bits 52–63 fall in characters 10–13, the version's and the variant's characters
    /// sharing one bit each — after the prefix and `_`, when every id has the one `length`.
    static func randAPositions(of format: TimeFormat, length: Int?) -> Set<Int>? {
        switch format {
        case .uuid7: randAPositions
        case .typeid: length.map { n in Set((10...13).map { n - 26 + $0 }) }
        default: nil
        }
    }

    /// "1–8, 10–13" from 0-based positions.
    static func ranges(_ positions: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        let p = positions.sorted()
        while i < p.count {
            var j = i
            while j + 1 < p.count && p[j + 1] == p[j] + 1 { j += 1 }
            parts.append(i == j ? "\(p[i] + 1)" : "\(p[i] + 1)–\(p[j] + 1)")
            i = j + 1
        }
        return parts.joined(separator: ", ")
    }

    static func bitsText(_ x: BigInt) -> String { String(format: "%.1f", x.log2Magnitude) }
}
