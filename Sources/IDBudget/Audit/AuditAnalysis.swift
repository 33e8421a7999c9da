import Foundation
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

    public private(set) var ids: Int
    public private(set) var distinct: Int
    public private(set) var extraOccurrences: Int
    public private(set) var duplicateIDs: Int
    public let alphabet: String
    public let alphabetSize: Int
    public let format: TimeFormat?
    /// "UUIDv4", "UUIDv7", "tokens", …
    public let formatName: String
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
    public private(set) var findings: [String]
    /// A mixed stream's groups (by id length), each judged in its own space; empty for one group.
    public private(set) var groups: [GroupResult] = []

    /// One group of a mixed stream and its judgement.
    public struct GroupResult: Sendable {
        public let length: Int?
        public let ids: Int
        public let report: AuditAnalysis
    }
    public private(set) var verdict: Verdict

    /// Spaces beyond this many bits are taken as 2^4096 (no statistic can tell them apart).
    static let spaceCapBits = 4096

    public var expectedDuplicates: Double { test.mean }
    public var sd: Double { test.sd }
    public var z: Double { test.z }
    /// A verdict against the stream: too many or too few duplicates, or positions that are not random.
    public var suspicious: Bool { verdict == .tooMany || verdict == .tooFew || verdict == .nonUniform }
    /// The stream passes the audit: ids, and nothing against them (what a CI gate asks).
    public var passes: Bool { verdict == .consistent }

    /// Alphabets an audit recognises: the built-ins and the upper-case forms of hex and base36.
    static let candidates: [Alphabet] =
        Alphabet.builtIns
        + [
            (try? Alphabet(symbols: "0123456789ABCDEF", name: "HEX")),
            (try? Alphabet(symbols: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", name: "BASE36")),
        ].compactMap { $0 }

    /// Judges a summary. A stream whose ids have several lengths (none holding 999 in 1000) is judged
    /// group by group — ids of one length form a group, over the alphabet and positions of its own —
    /// with the false-alarm budget divided among the groups (Bonferroni); the verdict is the worst
    /// group's.
    public init(summary s: AuditSummary, claimedBits: Int? = nil) {
        guard claimedBits == nil, let parts = Self.split(s), parts.count > 1 else {
            self.init(single: s, claimedBits: claimedBits, tests: 1)
            return
        }
        let tests = Swift.max(1, parts.filter { $0.summary.ids >= 2 }.count)
        let results = parts.map {
            GroupResult(length: $0.length, ids: $0.summary.ids, report: AuditAnalysis(single: $0.summary, claimedBits: nil, tests: tests))
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
        let lines = results.map { g in
            "\(g.length.map { "length \($0)" } ?? "other lengths") (\(g.report.formatName), n = \(g.ids)): \(g.report.verdict.rawValue)"
        }
        findings =
            [
                "\(results.count) groups by id length, each judged in its own space, the false-alarm budget divided among \(tests): "
                    + lines.joined(separator: "; ")
            ]
            + decisive.report.findings.map { "\(decisive.length.map { "length \($0)" } ?? "other lengths"): \($0)" }
        verdict = decisive.report.verdict
    }

    /// The summary split into groups by id length: one per length with positions of its own, and one
    /// for the rest. nil for one length, or a summary without groups (judged as one stream, its
    /// lengths still apart in the duplicate test).
    static func split(_ s: AuditSummary) -> [(length: Int?, summary: AuditSummary)]? {
        guard s.ids > 0, s.lengths.count > 1, !s.groups.isEmpty else { return nil }
        let formatLength: [TimeFormat: Int] = [.uuid7: 36, .uuid1: 36, .ulid: 26, .ksuid: 27]
        var parts: [(length: Int?, summary: AuditSummary)] = []
        var rest = s
        rest.groups = [:]
        for (length, group) in s.groups.sorted(by: { $0.key < $1.key }) {
            guard let n = s.lengths[length], n > 0 else { continue }
            var g = AuditSummary(maxLineBytes: s.maxLineBytes)
            g.lines = n
            g.ids = n
            g.lengths = [length: n]
            g.multiplicities = group.multiplicities
            g.positions = group.positions
            g.symbols = Set(group.positions.flatMap { $0.keys })
            if length > AuditSummary.positionLimit { g.symbols.formUnion(s.symbols) }
            for (f, t) in s.timeFormats where formatLength[f] == length { g.timeFormats[f] = t }
            g.sample = s.sample.filter { $0.unicodeScalars.count == length }
            parts.append((length, g))
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
            for (f, l) in formatLength where l == length { rest.timeFormats[f] = AuditSummary.TimeBuckets() }
            rest.sample = rest.sample.filter { $0.unicodeScalars.count != length }
        }
        while let last = rest.positions.last, last.isEmpty { rest.positions.removeLast() }
        if rest.ids > 0 { parts.append((nil, rest)) }
        return parts
    }

    init(single s: AuditSummary, claimedBits: Int?, tests: Int) {
        ids = s.ids
        distinct = s.distinct
        extraOccurrences = s.extraOccurrences
        duplicateIDs = s.duplicateIDs
        var findings: [String] = []
        let lengths = s.lengths.keys.sorted()
        // One length, or one holding all but one id in a thousand (a stray line must not hide the
        // positions); the others still count in every position they reach.
        let dominant = s.lengths.max { $0.value < $1.value }
        let single = dominant.flatMap { d in lengths.count == 1 || s.ids - d.value <= s.ids / 1000 ? d.key : nil }
        if let single, lengths.count > 1 {
            findings.append("\(s.ids - (s.lengths[single] ?? 0)) of \(s.ids) ids are not \(single) symbols long")
        }

        // A time format, when every id has its shape.
        var format: TimeFormat? = nil
        if s.ids > 0 {
            // All ids, or all but one in a thousand (a stray test id must not hide the format).
            format = TimeFormat.allCases.first { f in
                let n = s.timeFormats[f]?.ids ?? 0
                return n == s.ids || (n > 0 && s.ids - n <= s.ids / 1000)
            }
            if let format, let n = s.timeFormats[format]?.ids, n < s.ids {
                findings.append("\(s.ids - n) of \(s.ids) ids are not \(format.displayName); they are judged as if they were")
            }
        }
        self.format = format

        // Symbols at positions that vary choose the alphabet (a constant prefix or a UUID's hyphens don't).
        let maxLength = lengths.last ?? 0
        var varying = Set<Unicode.Scalar>()
        for (i, p) in s.positions.enumerated() where p.count > 1 && !(format?.timePositions.contains(i) ?? false) {
            varying.formUnion(p.keys)
        }
        if maxLength > AuditSummary.positionLimit || varying.isEmpty { varying = s.symbols }
        let observed = String(String.UnicodeScalarView(varying.sorted { $0.value < $1.value }))
        var alphabetName = "observed symbols"
        var alphabetSize = Swift.max(varying.count, 2)
        if let a = Self.candidates.filter({ a in observed.allSatisfy { a.symbols.contains($0) } }).min(by: { $0.count < $1.count }) {
            alphabetName = a.name ?? "observed symbols"
            alphabetSize = a.count
            // A named alphabet only where its unseen symbols could be chance: k of its a symbols in N
            // uniform draws has probability at most C(a, k)·(k/a)^N. Binary strings are not decimal.
            let k = Double(varying.count)
            var draws = 0.0
            for (i, p) in s.positions.enumerated() where p.count > 1 && !(format?.timePositions.contains(i) ?? false) {
                draws += Double(p.values.reduce(0, &+))
            }
            let logChance = lgamma(Double(a.count) + 1) - lgamma(k + 1) - lgamma(Double(a.count) - k + 1) + draws * log(k / Double(a.count))
            if k >= 1, k < Double(a.count), logChance < log(1e-9) {
                alphabetName = "observed symbols"
                alphabetSize = Swift.max(varying.count, 2)
            }
        }
        if format == .ulid {
            alphabetName = "Crockford base32"
            alphabetSize = 32
        }
        if format == .ksuid {
            alphabetName = "base62"
            alphabetSize = 62
        }
        alphabet = alphabetName
        self.alphabetSize = alphabetSize

        // Positions.
        var positions: [Position] = []
        if let single {
            for i in 0..<Swift.min(single, AuditSummary.positionLimit) {
                let counts = i < s.positions.count ? s.positions[i] : [:]
                if format?.timePositions.contains(i) ?? false {
                    positions.append(.time)
                    continue
                }
                positions.append(Self.classify(counts, alphabetSize: alphabetSize))
            }
        }
        self.positions = positions

        // Where a format expects fresh random symbols but the stream has none, or a biased position.
        // In a time format, ids of one bucket may share random bits (monotonic generators count up
        // from one draw a millisecond), so only buckets are independent draws: narrow or biased random
        // fields count against the stream only when nearly every id has a bucket of its own; a field
        // constant across many buckets always does (fresh draws would differ).
        var flagged: [(Int, Position)] = []
        var shared: [Int] = []
        let bucketCount = format.flatMap { s.timeFormats[$0]?.buckets.count } ?? 0
        let independent = format == nil || 2 * bucketCount >= s.ids
        for (i, p) in positions.enumerated() {
            let random = format.map { Self.expectsRandom($0, at: i) } ?? false
            switch p {
            case .biased:
                if format == nil || (random && independent) { flagged.append((i, p)) } else if random { shared.append(i) }
            case .constant:
                if random && (independent || bucketCount >= 8) { flagged.append((i, p)) } else if random { shared.append(i) }
            case .subset:
                if random && independent { flagged.append((i, p)) } else if random { shared.append(i) }
            default: break
            }
        }
        if s.shardIndexes.count < s.shardCount, !flagged.isEmpty {
            // A shard holds the values whose fingerprints fall in it: in a small space, a subset that
            // need not be even position by position. Merge every shard to judge positions.
            flagged = []
            findings.append("positions are not judged in \(s.shardIndexes.count) of \(s.shardCount) shards: merge all shards to judge them")
        }
        if !shared.isEmpty, let format {
            findings.append(
                "positions \(Self.ranges(shared)) vary less than fresh random symbols would: ids within one \(format.bucketName) share random bits (a monotonic generator counts up from one draw)"
            )
        }

        var formatName = "tokens over \(alphabetName)"
        var space: BigInt
        var spaceText: String
        var groups: [Int: Int] = [:]
        var bucketStats: (Int, Int)? = nil
        var randomBits: Double
        if let claimedBits {
            space = BigInt.power(2, claimedBits)
            spaceText = "claimed 2^\(claimedBits)"
            randomBits = Double(claimedBits)
            groups = [s.ids: 1]
        } else if let format, let t = s.timeFormats[format] {
            formatName = format.displayName
            space = BigInt.power(2, format.randomBits)
            spaceText = "\(format.displayName): 2^\(format.randomBits) per \(format.bucketName)"
            randomBits = Double(format.randomBits)
            if t.truncated || t.buckets.isEmpty {
                groups = [s.ids: 1]
                findings.append(
                    "more than \(AuditSummary.bucketLimit) \(format.bucketName)s: judged as one bucket, which overstates the duplicates to expect"
                )
            } else {
                for (_, n) in t.buckets { groups[n, default: 0] += 1 }
                bucketStats = (t.buckets.count, t.buckets.values.max() ?? 0)
            }
            let timeText =
                format == .ksuid
                ? "the top 32 bits of its base62 value are seconds"
                : "positions \(Self.ranges(format.timePositions.sorted())) are a \(format == .uuid1 ? "60-bit 100 ns" : "millisecond") timestamp"
            findings.insert(
                "format: \(format.displayName) — \(timeText); \(format.randomBits) random bits per \(format.bucketName)"
                    + (bucketStats.map { "; \($0.0) \(format.bucketName)\($0.0 == 1 ? "" : "s"), up to \($0.1) ids in one" } ?? ""), at: 0)
        } else if let single {
            // The product of what the positions hold; positions past 64 count as the whole alphabet.
            // Past 2^4096 a space changes no printed statistic; ids thousands of symbols long would
            // otherwise make numbers of millions of digits.
            let bits =
                positions.reduce(0.0) { $0 + log2(Double($1.size)) }
                + Double(Swift.max(0, single - AuditSummary.positionLimit)) * log2(Double(alphabetSize))
            space = BigInt(1)
            if bits > Double(Self.spaceCapBits) {
                space = BigInt.power(2, Self.spaceCapBits)
                findings.append(
                    String(
                        format: "ids of %d symbols: the space (%.0f bits) is taken as 2^%d, which changes no figure", single, bits,
                        Self.spaceCapBits))
            } else {
                for p in positions { space = space * BigInt(p.size) }
                if single > AuditSummary.positionLimit { space = space * BigInt.power(alphabetSize, single - AuditSummary.positionLimit) }
            }
            if single == 36, positions.count == 36, positions[14] == .constant("4"),
                [8, 13, 18, 23].allSatisfy({ positions[$0] == .constant("-") })
            {
                formatName = "UUIDv4"
            } else if single == 21, alphabetName == "base64url" {
                formatName = "Nano ID (base64url^21)"
            }
            if bits > Double(Self.spaceCapBits) {
                spaceText = "\(alphabetName)^\(single), taken as 2^\(Self.spaceCapBits)"
                randomBits = bits
            } else {
                spaceText =
                    space == BigInt.power(alphabetSize, single)
                    ? "\(alphabetName)^\(single)"
                    : formatName == "UUIDv4" && space == BigInt.power(2, 122)
                        ? "UUIDv4: 2^122"
                        : "\(alphabetName)^\(single) less its fixed positions"
                randomBits = space.log2Magnitude
            }
            groups = [s.ids: 1]
        } else {
            if let longest = lengths.last, Double(longest) * log2(Double(alphabetSize)) > Double(Self.spaceCapBits) {
                space = BigInt.power(2, Self.spaceCapBits)
                findings.append("ids up to \(longest) symbols: the space is taken as 2^\(Self.spaceCapBits), which changes no figure")
            } else {
                space = lengths.reduce(BigInt(0)) { $0 + BigInt.power(alphabetSize, $1) }
            }
            spaceText = lengths.isEmpty ? "none" : "Σ \(alphabetName)^L over lengths \(lengths.map(String.init).joined(separator: ","))"
            randomBits = space.log2Magnitude
            groups = [s.ids: 1]
            if lengths.count > 1 { findings.append("\(lengths.count) different lengths: positions are not compared") }
        }
        if space < BigInt(2) { space = BigInt(2) }
        self.formatName = formatName
        self.space = space
        spaceDescription = spaceText
        buckets = bucketStats
        // No ids, no bits (the sum over no lengths is no space at all).
        self.randomBits = s.ids == 0 ? 0 : randomBits

        // Words for the positions.
        if format == nil, !positions.isEmpty {
            let constant = positions.indices.filter { if case .constant = positions[$0] { return true } else { return false } }
            if !constant.isEmpty, constant.count < positions.count {
                let text =
                    String(
                        String.UnicodeScalarView(
                            constant.prefix(24).compactMap { if case .constant(let c) = positions[$0] { return c } else { return nil } }))
                    + (constant.count > 24 ? "…" : "")
                findings.append(
                    "position\(constant.count > 1 ? "s" : "") \(Self.ranges(constant)) \(constant.count > 1 ? "are" : "is") constant ('\(text.escapingControlCharacters)'): structure, not randomness"
                )
            } else if constant.count == positions.count, s.distinct > 1 {
                findings.append("every position is constant over the first 64 characters")
            }
            let subset = positions.indices.filter { if case .subset = positions[$0] { return true } else { return false } }
            if !subset.isEmpty {
                findings.append(
                    "position\(subset.count > 1 ? "s" : "") \(Self.ranges(subset)) use\(subset.count > 1 ? "" : "s") only some of the \(alphabetSize) symbols, evenly"
                )
            }
            findings.append(
                String(
                    format: "random bits per id, from its positions: %.1f (the symbols could hold %.1f)", randomBits,
                    Double(single ?? 0) * log2(Double(alphabetSize))))
        }
        // Constant and narrow positions grouped, biased ones one by one with the symbol that is over-represented.
        let place = format.map { "where \($0.displayName) has random bits" } ?? ""
        let constantFlags = flagged.filter { if case .constant = $0.1 { return true } else { return false } }
        if !constantFlags.isEmpty {
            let text =
                String(
                    String.UnicodeScalarView(
                        constantFlags.prefix(12).compactMap { if case .constant(let c) = $0.1 { return c } else { return nil } }))
                + (constantFlags.count > 12 ? "…" : "")
            findings.append(
                "position\(constantFlags.count > 1 ? "s" : "") \(Self.ranges(constantFlags.map(\.0))) \(constantFlags.count > 1 ? "are" : "is") constant ('\(text.escapingControlCharacters)') \(place)"
            )
        }
        let narrowFlags = flagged.filter { if case .subset = $0.1 { return true } else { return false } }
        if !narrowFlags.isEmpty {
            findings.append(
                "position\(narrowFlags.count > 1 ? "s" : "") \(Self.ranges(narrowFlags.map(\.0))) use\(narrowFlags.count > 1 ? "" : "s") only a few symbols \(place)"
            )
        }
        let biasedFlags = flagged.filter { if case .biased = $0.1 { return true } else { return false } }
        for (i, p) in biasedFlags.prefix(8) {
            if case .biased(let bits, let k, let top, let share) = p {
                findings.append(
                    "position \(i + 1) is biased: '\(String(top).escapingControlCharacters)' in "
                        + String(
                            format: "%.2f%% of ids where %d symbols evenly would give %.2f%% (%.3f of %.3f bits; %d symbols seen)",
                            100 * share, alphabetSize, 100 / Double(alphabetSize), bits, log2(Double(alphabetSize)), k))
            }
        }
        if biasedFlags.count > 8 { findings.append("… and \(biasedFlags.count - 8) more biased positions") }

        // The duplicate test's cells. Where the space is known only within a range, too many
        // duplicates are judged against the smallest space the ids could come from (`more`), too few
        // against the largest (`fewer`).
        var more = groups.map { DuplicateTest.Cell(space: space, ids: $0.key, groups: $0.value) }
        var fewer = more
        var judgeFewer = true
        func capped(_ base: Int, _ length: Int) -> BigInt {
            Double(length) * log2(Double(base)) > Double(Self.spaceCapBits)
                ? BigInt.power(2, Self.spaceCapBits) : BigInt.power(base, length)
        }
        if claimedBits == nil, format == nil, lengths.count > 1 {
            // Ids of other lengths never collide with these; without positions of their own, each
            // length may use as few as 2 symbols, or the whole alphabet.
            let others = s.lengths.filter { $0.key != single }
            more = single.flatMap { l in s.lengths[l].map { [DuplicateTest.Cell(space: space, ids: $0)] } } ?? []
            fewer = more
            more += others.map { DuplicateTest.Cell(space: capped(2, $0.key), ids: $0.value) }
            fewer += others.map { DuplicateTest.Cell(space: capped(alphabetSize, $0.key), ids: $0.value) }
            judgeFewer = false
            findings.append(
                "ids of \(others.count) length\(others.count == 1 ? "" : "s") without positions of their own: their duplicates are judged as if their alphabet had 2 symbols; too few are not judged"
            )
        } else if let single, single > AuditSummary.positionLimit, format == nil, claimedBits == nil, let n = s.lengths[single] {
            // Positions past 64 are not recorded: they may be constant.
            let head = positions.reduce(BigInt(1)) { $0 * BigInt($1.size) }
            more = [DuplicateTest.Cell(space: Swift.max(head, BigInt(2)), ids: n)]
            findings.append(
                "positions past \(AuditSummary.positionLimit) are not recorded: too many duplicates are judged over the first \(AuditSummary.positionLimit) alone"
            )
        }
        // Shards split the values by fingerprint: k of K shards hold about k/K of each space (within a
        // few square roots of it in a small space).
        if s.shardIndexes.count < s.shardCount {
            let k = BigInt(s.shardIndexes.count)
            let total = BigInt(s.shardCount)
            func share(_ c: DuplicateTest.Cell, _ side: Double) -> DuplicateTest.Cell {
                var part = c.space * k / total
                let approx = part.doubleValue
                if approx < 1e15 {
                    part = BigInt(Int((approx + side * 8 * approx.squareRoot()).rounded(side < 0 ? .down : .up)))
                }
                return DuplicateTest.Cell(space: part < BigInt(1) ? BigInt(1) : part, ids: c.ids, groups: c.groups)
            }
            more = more.map { share($0, -1) }
            fewer = fewer.map { share($0, 1) }
            findings.append(
                "\(s.shardIndexes.count) of \(s.shardCount) shards: each holds about that share of the space's values, and is judged so")
        }
        let alphabetSeen = alphabetName == "observed symbols" && format == nil && claimedBits == nil
        if alphabetSeen {
            judgeFewer = false
            findings.append("the alphabet is only the symbols these ids show: too few duplicates cannot be judged against it")
        }
        let sameCells =
            more.count == fewer.count && zip(more, fewer).allSatisfy { $0.space == $1.space && $0.ids == $1.ids && $0.groups == $1.groups }
        let test =
            sameCells
            ? DuplicateTest(cells: more, observed: s.extraOccurrences, tests: tests, judgeFewer: judgeFewer)
            : DuplicateTest.conservative(forMore: more, forFewer: fewer, observed: s.extraOccurrences, tests: tests, judgeFewer: judgeFewer)
        self.test = test
        // A uniform generator cannot have more entropy than the space it draws from.
        let eff = Self.effectiveBits(groups: groups, duplicates: s.extraOccurrences)
        effectiveBits = Swift.min(eff, space.log2Magnitude)
        effectiveBitsIsLowerBound = s.extraOccurrences == 0
        // The 95% bound is at most the point estimate (both are capped by the space).
        effectiveBitsLower95 = Swift.min(Self.effectiveBitsLower95(groups: groups, duplicates: s.extraOccurrences), effectiveBits)

        let verdict: Verdict
        if s.ids == 0 {
            verdict = .empty
            findings.append("no ids: an empty stream is not evidence that ids are random")
        } else if test.verdict == .tooMany {
            verdict = .tooMany
        } else if !flagged.isEmpty {
            verdict = .nonUniform
        } else if test.verdict == .tooFew {
            verdict = .tooFew
        } else if test.verdict == .inconclusive {
            verdict = .inconclusive
            findings.append(
                String(
                    format:
                        "the duplicates look off (estimated p = %.3g) but no bound proves it below the threshold within the cost limit: not vouched for",
                    Swift.min(test.estimateHigh, test.estimateLow)))
        } else {
            verdict = .consistent
        }
        if test.verdict == .tooFew {
            findings.append(
                String(
                    format: "no more than %d duplicates where %.4g are expected: sequential, counter-based or deduplicated ids?",
                    s.extraOccurrences, test.mean))
        }
        self.verdict = verdict
        self.findings = findings
    }

    /// Fields a format fills with random symbols (so a constant or narrow one there is a defect).
    static func expectsRandom(_ f: TimeFormat, at i: Int) -> Bool {
        switch f {
        case .uuid7: ![8, 13, 18, 23, 14, 19].contains(i) && !f.timePositions.contains(i)
        case .ulid: i >= 10
        case .ksuid, .uuid1: false
        }
    }

    /// χ² uniformity of one position's symbol counts over `alphabetSize` symbols, then over the symbols it uses.
    static func classify(_ counts: [Unicode.Scalar: Int], alphabetSize a: Int) -> Position {
        let k = counts.count
        if k == 1, let c = counts.keys.first { return .constant(c) }
        if k == 0 { return .constant(" ") }
        let total = Double(counts.values.reduce(0, +))
        func pUniform(over m: Int) -> Double {
            let e = total / Double(m)
            var chi = 0.0
            for o in counts.values { chi += (Double(o) - e) * (Double(o) - e) / e }
            chi += Double(m - k) * e  // symbols never seen
            return chiSquareUpperTail(chi, degrees: m - 1)
        }
        if k <= a, pUniform(over: a) >= DuplicateTest.threshold { return .uniform(symbols: a) }
        if pUniform(over: k) >= DuplicateTest.threshold { return .subset(symbols: k) }
        var h = 0.0
        for o in counts.values {
            let q = Double(o) / total
            h -= q * log2(q)
        }
        let top = counts.max { $0.value == $1.value ? $0.key.value > $1.key.value : $0.value < $1.value }!
        return .biased(bits: h, symbols: k, top: top.key, share: Double(top.value) / total)
    }

    /// P(χ²_df ≥ x) by the Wilson–Hilferty cube-root normal approximation (ample at p = 10⁻⁶).
    static func chiSquareUpperTail(_ x: Double, degrees df: Int) -> Double {
        guard df > 0 else { return 1 }
        let d = Double(df)
        let z = (pow(x / d, 1.0 / 3) - (1 - 2 / (9 * d))) / (2 / (9 * d)).squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }

    /// log2 of the space a uniform generator would need to make this many duplicates in these groups
    /// (solving Σ E[dup](d) = D); with none seen, the 95% lower bound (Σ E[dup](d) = 3).
    static func effectiveBits(groups: [Int: Int], duplicates: Int) -> Double {
        bits(groups: groups, expecting: duplicates == 0 ? 3.0 : Double(duplicates))
    }

    /// The 95% lower bound: the space at which the expected duplicates reach the one-sided 95% upper
    /// Poisson limit of the count seen (3.0 for none, 4.74 for one, …); more expected duplicates
    /// would make seeing this few unlikely.
    static func effectiveBitsLower95(groups: [Int: Int], duplicates: Int) -> Double {
        // λ with P(Poisson(λ) ≤ D) = 0.05 = P(χ²(2D + 2) > 2λ). Past 10^4 duplicates, the
        // Wilson–Hilferty χ² quantile (relative error below 10^−8 there; bisection over Poisson sums
        // would take minutes for counts near 10^12).
        if duplicates > 10_000 {
            let nu = 2 * (Double(duplicates) + 1)
            let z95 = 1.6448536269514722
            let c = 1 - 2 / (9 * nu) + z95 * (2 / (9 * nu)).squareRoot()
            return bits(groups: groups, expecting: nu * c * c * c / 2)
        }
        var lo = Double(duplicates)
        var hi = Double(duplicates) * 2 + 10
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if DuplicateTest.poissonLower(duplicates, mid) > 0.05 { lo = mid } else { hi = mid }
        }
        return bits(groups: groups, expecting: (lo + hi) / 2)
    }

    /// log2 d solving Σ E[dup](d) = target.
    static func bits(groups: [Int: Int], expecting target: Double) -> Double {
        let total = groups.reduce(0) { $0 + $1.key * $1.value }
        guard total >= 2 else { return 0 }
        let maxPossible = groups.reduce(0.0) { $0 + Double($1.value) * Double(Swift.max(0, $1.key - 1)) }
        guard target < maxPossible else { return 0 }
        func expected(_ log2d: Double) -> Double {
            let d = exp2(log2d)
            return groups.reduce(0.0) { acc, g in
                let n = Double(g.key)
                return acc + Double(g.value) * (n + d * expm1(n * log1p(-1 / d)))  // n − d(1 − (1 − 1/d)^n)
            }
        }
        var lo = 0.0
        var hi = 2 * log2(Double(total)) + 8
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if expected(mid) > target { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
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
