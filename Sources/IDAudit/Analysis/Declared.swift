import Foundation
import IDBudget
import IDFormats
import Precise

/// The shape a team says its ids have — `idbudget audit --alphabet A --length L`, or `--scheme F` for
/// any format `idbudget schemes` lists: a gate for CI, which asks "are these the ids we meant to
/// mint?" rather than "what are these ids?".
///
/// * Every line must have the shape: L symbols of A; or format F's text form (a UUIDv4's hyphens,
///   version and variant, a cuid2's leading letter, a Snowflake's 64-bit decimal, …). A line of
///   another shape — empty, overlong or not UTF-8 too — is invalid; more than `maxInvalid` of them
///   fail (`invalid-ids`), and they are counted and named in the findings.
/// * Every position the declaration calls random must be uniform over its symbols: a stuck position,
///   or one that uses fewer symbols (a base58 generator declared base62), fails
///   (`non-uniform-positions`), by the test `AuditAnalysis.classify` makes, narrowness significant
///   among the distinct ids. Fixed positions (a UUID's hyphens and version) are checked as shape.
/// * Duplicates are judged over the declared space: A^L, or the product of the random positions'
///   symbol counts (a UUIDv4: 2^122). A time-ordered format (UUIDv7, ULID, KSUID, TypeID, UUIDv1/v6)
///   is judged within its time buckets, as the audit judges it undeclared; a node-id format
///   (Snowflake, xid, ObjectId, …) allows no repeat at all.
///
/// Hex is one alphabet in either case (`UUID().uuidString` is upper case), and so is any declared
/// alphabet whose letters are all of one case (Crockford's base32 is read in either; TypeID writes it
/// in lower case): such a declaration takes the case most of the ids are written in, and counts ids
/// in the other case as invalid. A format's declaration other than hex keeps its case (a TypeID or
/// cuid2 in upper case is not one).
public struct DeclaredShape: Sendable, Equatable {
    /// The alphabet of the random positions (a format's main alphabet).
    public let alphabet: Alphabet
    /// Characters in an id (a TypeID's suffix; its prefix varies).
    public let length: Int
    public let maxInvalid: Int
    /// The format declared, when `--scheme` declared it.
    public let scheme: IDFormat?
    /// The name the declaration was given (`apns-id` reads as a UUIDv4).
    let label: String?
    /// Per position: the symbols allowed and whether they are drawn at random (empty for the
    /// time-ordered and node-id formats, which the audit reads by their own parsers).
    var slots: [Slot]

    struct Slot: Sendable, Equatable {
        var symbols: Set<Unicode.Scalar>
        /// Symbols a random position is uniform over (an alphabet's size).
        var size: Int
        /// Counted in the space.
        var random: Bool
        /// Tested for uniformity over the whole stream (not Firebase's random part, which a client
        /// increments within a millisecond).
        var tested: Bool = true
    }

    /// Throws for a length outside 1…4096 or a negative `maxInvalid`.
    public init(alphabet: Alphabet, length: Int, maxInvalid: Int = 0) throws(InputError) {
        guard length >= 1, length <= 4096 else { throw InputError("a declared length must be from 1 to 4096, got \(length)") }
        guard maxInvalid >= 0 else { throw InputError("the invalid lines allowed cannot be negative, got \(maxInvalid)") }
        self.alphabet = alphabet
        self.length = length
        self.maxInvalid = maxInvalid
        scheme = nil
        label = nil
        let all = Slot(symbols: Set(alphabet.symbols.flatMap(\.unicodeScalars)), size: alphabet.count, random: true)
        slots = Array(repeating: all, count: length)
    }

    /// Declares format `format`'s text form; `name` is what the declaration was called (a scheme
    /// such as `apns-id` whose ids are UUIDv4s). Throws for a negative `maxInvalid`.
    public init(scheme format: IDFormat, named name: String? = nil, maxInvalid: Int = 0) throws(InputError) {
        guard maxInvalid >= 0 else { throw InputError("the invalid lines allowed cannot be negative, got \(maxInvalid)") }
        alphabet = format.alphabet
        length = format.length
        self.maxInvalid = maxInvalid
        scheme = format
        label = name
        slots = Self.slots(of: format)
    }

    var name: String { label ?? scheme?.rawValue ?? "\(alphabet.name ?? "custom")×\(length)" }
    /// The shape's own name, whatever the declaration was called (`apns-id` is a `uuid4`): what a
    /// summary's line count (``DeclaredLines``) is kept under.
    var key: String { scheme?.rawValue ?? name }

    /// The positions of a format whose text form is fixed and whose random part is uniform over its
    /// symbols; empty for the formats the audit parses (time-ordered, node-id).
    static func slots(of format: IDFormat) -> [Slot] {
        func uniform(_ a: Alphabet) -> Slot { Slot(symbols: Set(a.symbols.flatMap(\.unicodeScalars)), size: a.count, random: true) }
        func fixed(_ text: String) -> Slot { Slot(symbols: Set(text.unicodeScalars), size: text.unicodeScalars.count, random: false) }
        switch format {
        case .uuid4, .uuid8:
            // 8-4-4-4-12 hex; the version character (position 15) fixed, the variant (position 20)
            // two random bits: 122 in all. A UUIDv8's 122 bits are the vendor's to define (RFC 9562
            // §5.8: a nanosecond clock in some, random in others): checked as shape, not tested.
            var hex = uniform(.hex)
            hex.tested = format == .uuid4
            var s = Array(repeating: hex, count: 36)
            for i in [8, 13, 18, 23] { s[i] = fixed("-") }
            s[14] = fixed(format == .uuid4 ? "4" : "8")
            s[19] = Slot(symbols: Set("89ab".unicodeScalars), size: 4, random: true, tested: format == .uuid4)
            return s
        case .nanoid: return Array(repeating: uniform(.nanoid), count: 21)
        case .cuid2:
            // A letter, then 23 of base36 (the model the formats' table counts: 26·36^23).
            let letters = Set(Alphabet.base36.symbols.filter(\.isLetter).flatMap(\.unicodeScalars))
            return [Slot(symbols: letters, size: letters.count, random: true)] + Array(repeating: uniform(.base36), count: 23)
        case .firebase:
            // Eight characters of milliseconds since 1970, then twelve random. The first holds bits
            // 42–47: `-` (0) until 2109, `0` (1) until 2248 — which tells a Firebase id from other
            // 20-character ids (an xid's first character is a letter from 2003 to 2106).
            let time = Slot(symbols: Set(Alphabet.firebase.symbols.flatMap(\.unicodeScalars)), size: 64, random: false)
            let first = Slot(symbols: Set("-0".unicodeScalars), size: 2, random: false)
            var random = uniform(.firebase)
            random.tested = false
            return [first] + Array(repeating: time, count: 7) + Array(repeating: random, count: 12)
        case .uuid7, .ulid, .ksuid, .typeid, .uuid1, .uuid6, .xid, .objectid, .snowflake, .discord, .instagram, .sonyflake, .tsid:
            return []
        }
    }

    /// The declaration with its letters in the other case, where case does not make another id: over
    /// hex, or over a declared alphabet whose letters are all of one case. Nil otherwise (base62 has
    /// both cases; a TypeID's or cuid2's case is its format's).
    func otherCased() -> DeclaredShape? {
        let hexLetters = Set("abcdef".unicodeScalars)
        let hex = slots.contains {
            !$0.symbols.isDisjoint(with: hexLetters) && $0.symbols.isSubset(of: Set("0123456789abcdef".unicodeScalars))
        }
        let oneCase = !letters.isEmpty && (letters.allSatisfy { $0.value >= 0x61 } || letters.allSatisfy { $0.value < 0x61 })
        guard hex || (scheme == nil && oneCase) else { return nil }
        var d = self
        d.slots = slots.map { slot in
            var other = slot
            other.symbols = Set(slot.symbols.map(Self.swappingCase))
            return other
        }
        return d
    }

    /// The ASCII letters any position allows.
    var letters: Set<Unicode.Scalar> { slots.reduce(into: []) { $0.formUnion($1.symbols.filter(Self.isLetter)) } }

    static func isLetter(_ c: Unicode.Scalar) -> Bool { (0x41...0x5A).contains(c.value) || (0x61...0x7A).contains(c.value) }
    static func swappingCase(_ c: Unicode.Scalar) -> Unicode.Scalar {
        guard isLetter(c) else { return c }
        return Unicode.Scalar(UInt8(c.value ^ 0x20))
    }

    /// Where case does not make another id, the case most of `s`'s letters are written in: the
    /// declaration in it, and whether it is the other one.
    func matchingCase(of s: AuditSummary) -> (shape: DeclaredShape, swapped: Bool) {
        guard let other = otherCased() else { return (self, false) }
        let mine = letters
        let theirs = Set(mine.map(Self.swappingCase))
        var declared = 0
        var swapped = 0
        for row in s.positions {
            for (c, k) in row {
                if mine.contains(c) { declared += k }
                if theirs.contains(c) { swapped += k }
            }
        }
        return swapped > declared ? (other, true) : (self, false)
    }

    /// Whether the declaration's letters are upper case.
    var upperCase: Bool { letters.contains { $0.value < 0x61 } }
}

extension AuditAnalysis {
    /// A position's counts with hex letters written in one case.
    static func caseMoved(_ row: [Unicode.Scalar: Int], into d: DeclaredShape) -> [Unicode.Scalar: Int] {
        let letters = d.letters
        var out: [Unicode.Scalar: Int] = [:]
        for (c, k) in row {
            let other = DeclaredShape.swappingCase(c)
            out[!letters.contains(c) && letters.contains(other) ? other : c, default: 0] += k
        }
        return out
    }

    /// Judges `s` against the declared shape `d` (see ``DeclaredShape``), one with positions of its own
    /// (an alphabet and length, or a format whose text form is fixed).
    init(declared given: DeclaredShape, summary s: AuditSummary) {
        let (d, swapped) = given.matchingCase(of: s)
        // Whether case makes no other id here (hex, a one-case alphabet): lines in the other case are invalid.
        let caseFree = given.otherCased() != nil
        let n = s.lengths[d.length] ?? 0
        // Lines of the shape, counted one by one while summarising (when it was made under this
        // declaration); else bounded below by the worst position.
        let mine = s.declared.flatMap { $0.shape == given.key ? $0 : nil }
        let counted = mine.map { swapped ? $0.linesOtherCase : $0.lines }
        // The ids of the declared length: positions and repeats of their own where the summary has
        // them. Without a group of its own (a line of that length with a symbol past ASCII is not
        // tracked apart), the whole stream's, which the lines of other lengths share.
        let own = s.groups[d.length]
        let group = own ?? .init(multiplicities: s.multiplicities, positions: s.positions)
        // Where case makes no other id, the lines in the other case are invalid (counted above) but
        // drawn all the same: their letters count as the declared case's, or their digits alone
        // would bias every position.
        let rows = caseFree ? group.positions.map { Self.caseMoved($0, into: d) } : group.positions
        let head = Swift.min(d.length, AuditSummary.positionLimit)
        // Lines set aside while summarising were never ids; a summary made without the declaration
        // keeps lines of other lengths among its ids.
        let otherLengths = s.ids - n + (mine?.otherLength ?? 0)
        // Lines with a symbol outside a position's own: at least as many as any one position shows
        // (less the lines of other lengths, where the rows hold theirs too).
        let outside = (0..<head).map { i in i < rows.count ? rows[i].filter { !d.slots[i].symbols.contains($0.key) }.values.reduce(0, +) : 0
        }
        let shown = Swift.max(0, (outside.max() ?? 0) - (own == nil ? s.ids - n : 0))
        // Never below what the positions show: a summary's count can not hide a bad symbol they hold.
        // Ids of the length not of the shape as declared: over hex, in the other case (every id of a
        // summary made under the declaration is of the shape in one case or the other).
        let unmatched = counted.map { Swift.max(0, n - $0) } ?? 0
        let otherCase = caseFree ? unmatched : 0
        let badSymbols = Swift.max(unmatched - otherCase, shown) + (mine?.otherSymbols ?? 0)
        let foreign = s.setAside(notUnder: given.key)
        // Nil and max UUIDs set aside by a summary made without the declaration: not known to be of it.
        let invalid =
            otherLengths + otherCase + badSymbols + s.emptyLines + s.overlongLines + s.invalidUTF8Lines + (foreign?.lines ?? 0)
            + s.placeholderLines
        var findings: [String] = []
        let random = d.slots.filter(\.random)
        // The product of the random positions' sizes, 2^4096 past it (as an undeclared space is capped).
        let bits = random.reduce(0.0) { $0 + log2(Double($1.size)) }
        let space =
            bits > Double(Self.spaceCapBits)
            ? BigInt.power(2, Self.spaceCapBits) : random.reduce(BigInt(1)) { $0 * BigInt($1.size) }
        let sizes = Set(random.map(\.size))
        let a = d.alphabet.count
        let described =
            d.scheme == nil
            ? "every position uniform over \(a) symbols; space \(a)^\(d.length)"
            : "\(random.count) random positions\(sizes.count == 1 ? " of \(sizes.first ?? a) symbols" : "")\(random.count < d.slots.count ? ", the others fixed" : ""); space 2^\(Self.bitsText(space))"
        findings.append("declared: \(d.name), \(described)\(d.scheme == nil ? " (\(Self.bitsText(space)) bits)" : "")")
        if invalid > 0 {
            var parts: [String] = []
            if otherLengths > 0 { parts.append("\(otherLengths) of another length") }
            if otherCase > 0 { parts.append("\(otherCase) in \(d.upperCase ? "lower" : "upper") case") }
            if badSymbols > 0 {
                parts.append("\(counted == nil ? "at least " : "")\(badSymbols) with a symbol not of \(d.name) at its position")
            }
            if s.emptyLines > 0 { parts.append("\(s.emptyLines) empty") }
            if s.placeholderLines > 0 { parts.append("\(s.placeholderLines) nil or max UUIDs") }
            if s.overlongLines > 0 { parts.append("\(s.overlongLines) overlong") }
            if s.invalidUTF8Lines > 0 { parts.append("\(s.invalidUTF8Lines) not UTF-8") }
            if let foreign { parts.append("\(foreign.lines) set aside as not \(foreign.shape)") }
            findings.append(
                "\(invalid) line\(invalid == 1 ? " is" : "s are") not \(d.name) (\(parts.joined(separator: ", "))); \(d.maxInvalid) allowed"
                    + (s.sample.first { $0.unicodeScalars.count != d.length }.map {
                        ", e.g. '\(String($0.prefix(40)).escapingControlCharacters)'"
                    } ?? ""))
        }
        // Firebase's random part, counted up within a millisecond, is no uniform draw per id; but each
        // millisecond draws it afresh, so a position on one symbol across many is a stuck generator
        // (as undeclared: a declaration never judges more leniently).
        var stuck: [Int] = []
        if d.scheme == .firebase {
            let found = own != nil && n > 0 ? Self.firebaseStuckPositions(positions: rows, ids: n) : (positions: [], milliseconds: 0)
            stuck = found.positions
            findings.append(
                "firebase's random part is incremented within a millisecond, not drawn afresh: its positions are checked as shape and for staying on one symbol across milliseconds, not tested for uniformity"
            )
            if !stuck.isEmpty {
                findings.append(
                    "position\(stuck.count == 1 ? "" : "s") \(Self.ranges(stuck)) \(stuck.count == 1 ? "is" : "are") constant across at least \(found.milliseconds) milliseconds, where each millisecond draws Firebase's random part afresh: a stuck generator"
                )
            }
        }
        if d.scheme == .uuid8 {
            findings.append(
                "a UUIDv8's 122 bits are its vendor's to define (a clock, a hash or random): checked as shape, not tested for uniformity; duplicates judged over 2^122 at most"
            )
        }
        if d.length > AuditSummary.positionLimit {
            findings.append("positions past \(AuditSummary.positionLimit) are not recorded: they are not tested")
        }
        // Every random position uniform over its symbols: the declared symbols' counts, tested as
        // `classify` tests them. No id of the declared length: no position to test.
        let positions: [Position] =
            n == 0
            ? []
            : (0..<head).map { i in
                let slot = d.slots[i]
                let counts = i < rows.count ? rows[i].filter { slot.symbols.contains($0.key) } : [:]
                guard slot.random, slot.tested else {
                    if slot.size == 1, let c = slot.symbols.first { return .constant(c) }
                    return .time
                }
                return Self.classify(counts, alphabetSize: slot.size, distinct: s.distinct)
            }
        let flagged = positions.indices.filter { i in
            guard d.slots[i].random, d.slots[i].tested else { return false }
            if case .uniform = positions[i] { return false } else { return true }
        }
        if !flagged.isEmpty {
            let words = flagged.prefix(8).map { i -> String in
                switch positions[i] {
                case .constant(let c): "\(i + 1) is constant ('\(String(c).escapingControlCharacters)')"
                case .subset(let k): "\(i + 1) uses \(k) of the \(d.slots[i].size) symbols"
                case .biased(_, let k, let top, let share):
                    "\(i + 1) is biased ('\(String(top).escapingControlCharacters)' in \(String(format: "%.2f", 100 * share))%, \(k) symbols seen)"
                default: "\(i + 1)"
                }
            }
            findings.append(
                "not uniform over \(d.scheme == nil ? d.alphabet.name ?? "the alphabet" : "its symbols"), where the declaration says random: position "
                    + words.joined(separator: "; ") + (flagged.count > 8 ? "; … \(flagged.count - 8) more" : ""))
        }
        let multiplicities = group.multiplicities
        let extra = multiplicities.reduce(0) { $0 + ($1.key - 1) * $1.value }
        // Firebase ids collide only within a millisecond, which the summary does not keep, and a
        // UUIDv8's bits need not be random: judged over their random part alone, the expected
        // duplicates are an upper bound, so too few is no finding.
        let test = DuplicateTest(
            cells: [DuplicateTest.Cell(space: space, ids: n)], observed: extra, tests: 1,
            judgeFewer: !d.slots.contains { $0.random && !$0.tested })
        var verdict = Self.decideVerdict(
            s, test: test, nonUniform: !flagged.isEmpty || !stuck.isEmpty, positionsFirst: true, findings: &findings)
        if invalid > d.maxInvalid, verdict != .tooMany {
            verdict = .invalid
        } else if n == 0, s.ids > 0 {
            // Only lines of other shapes, all allowed: still nothing of the declared shape to judge.
            verdict = .empty
            findings.append("no ids of the declared shape: nothing to judge")
        }

        ids = s.ids
        distinct = s.distinct
        extraOccurrences = s.extraOccurrences
        duplicateIDs = s.duplicateIDs
        alphabet = d.alphabet.name ?? String(d.alphabet.symbols)
        alphabetSize = a
        format = nil
        formatName = "declared \(d.name)"
        self.space = space
        spaceDescription = d.scheme == nil ? "declared \(a)^\(d.length)" : "declared \(d.name): \(Self.bitsText(space)) random bits"
        self.positions = positions
        randomBits = space.log2Magnitude
        buckets = nil
        self.test = test
        let groups = n > 0 ? [n: 1] : [:]
        effectiveBits = Swift.min(Self.effectiveBits(groups: groups, duplicates: extra), space.log2Magnitude)
        effectiveBitsIsLowerBound = extra == 0
        effectiveBitsLower95 = Swift.min(Self.effectiveBitsLower95(groups: groups, duplicates: extra), effectiveBits)
        self.findings = findings
        self.verdict = verdict
        nodeFormat = nil
        nodeStats = nil
        nodeFits = []
    }
}
