import Foundation
import IDBudget
import IDFormats

/// The lines of a declared shape (``DeclaredShape``), counted one by one while summarising: a line
/// counts when it has the declared length and every symbol is one its position allows. The analysis
/// then knows exactly how many lines are not of the shape — per-position counts give only a lower
/// bound (one bad symbol each in 10 lines, at 10 different positions, shows as 1 at every position).
///
/// A line of the shape in neither case is set aside: counted here (by why), in the summary's `lines`,
/// and nowhere else — not an id, so it takes no part in duplicates, lengths, symbols or positions.
/// Thirty copies of a header or of the nil UUID, allowed by `--max-invalid`, are not thirty copies of
/// an id.
///
/// Where case makes no other id (hex; a declared alphabet whose letters are all of one case, as
/// Crockford's base32), a line in the other case is counted apart (`linesOtherCase`): the analysis
/// takes the case most ids are written in (`UUID().uuidString` is upper case), and counts a line in
/// the other case as invalid.
public struct DeclaredLines: Sendable, Equatable {
    /// The shape declared (`uuid4`, also for `apns-id`; `base62×22`): counts are used only under the same one.
    public var shape: String
    /// Lines of the shape, as declared.
    public var lines: Int
    /// Lines of the shape in the other case (hex letters upper-cased); 0 where case does not apply.
    public var linesOtherCase: Int
    /// Lines set aside for their length (in symbols): not the declared one.
    public var otherLength: Int
    /// Lines set aside of the declared length, with a symbol its position does not allow (in either case).
    public var otherSymbols: Int

    /// The lines set aside, not ids.
    public var setAside: Int { otherLength &+ otherSymbols }

    public init(shape: String, lines: Int = 0, linesOtherCase: Int = 0, otherLength: Int = 0, otherSymbols: Int = 0) {
        self.shape = shape
        self.lines = lines
        self.linesOtherCase = linesOtherCase
        self.otherLength = otherLength
        self.otherSymbols = otherSymbols
    }

    /// Two parts' counts; nil when they were made under different declarations (or one under none)
    /// and set nothing aside. Parts that set lines aside under different declarations do not count the
    /// same lines as ids: refused.
    func merged(with other: DeclaredLines?) throws(InputError) -> DeclaredLines? {
        guard let other, other.shape == shape else {
            if setAside > 0 || (other?.setAside ?? 0) > 0 {
                throw AuditSummary.malformed(
                    "the parts were made under different declarations (\(shape) and \(other?.shape ?? "none")), and lines were set aside")
            }
            return nil
        }
        func sum(_ a: Int, _ b: Int, _ name: String) throws(InputError) -> Int {
            try AuditSummary.sum(a, b, "merged declared.\(name)")
        }
        return DeclaredLines(
            shape: shape, lines: try sum(lines, other.lines, "lines"),
            linesOtherCase: try sum(linesOtherCase, other.linesOtherCase, "lines_other_case"),
            otherLength: try sum(otherLength, other.otherLength, "other_length"),
            otherSymbols: try sum(otherSymbols, other.otherSymbols, "other_symbols"))
    }
}

/// A declared shape as the summariser checks it: per position, the ASCII bytes allowed (a 128-bit
/// mask) and, for symbols past ASCII, the set.
///
/// A declared time-ordered format has no positions of its own: a line matches when the format's own
/// parser reads it as that format (a TypeID also as a ULID, which a TypeID without a prefix parses
/// as) at a time some generator wrote (2005 to tomorrow), so a nil UUID under `--scheme uuid7`, or
/// a ULID of zeros, is set aside as the header is.
struct ShapeMatcher {
    let name: String
    let length: Int
    private let masks: [(low: UInt64, high: UInt64)]
    private let otherMasks: [(low: UInt64, high: UInt64)]?
    private let sets: [Set<Unicode.Scalar>]
    private let otherSets: [Set<Unicode.Scalar>]?
    /// Whether any allowed symbol is past ASCII (a custom alphabet): only then can a wide line match.
    let allowsWide: Bool
    /// The declared time-ordered format, matched by its parser at a time some generator wrote.
    private let time: TimeFormat?
    /// Unix ms the lines are read at (``Auditor/now``): a time past a day after it is no generator's.
    private let now: Int

    /// nil for a node-id format (its own reader counts its lines).
    init?(_ d: DeclaredShape, now: Int) {
        self.now = now
        if d.slots.isEmpty {
            guard let f = d.scheme.flatMap({ TimeFormat(rawValue: $0.rawValue) }) else { return nil }
            name = d.key
            length = f.length ?? IDFormat.ulid.length
            (masks, otherMasks, sets, otherSets, allowsWide, time) = ([], nil, [], nil, false, f)
            return
        }
        time = nil
        name = d.key
        length = d.length
        sets = d.slots.map(\.symbols)
        otherSets = d.otherCased()?.slots.map(\.symbols)
        func mask(_ s: Set<Unicode.Scalar>) -> (low: UInt64, high: UInt64) {
            var m: (low: UInt64, high: UInt64) = (0, 0)
            for c in s where c.value < 128 {
                if c.value < 64 { m.low |= 1 << UInt64(c.value) } else { m.high |= 1 << UInt64(c.value - 64) }
            }
            return m
        }
        masks = sets.map(mask)
        otherMasks = otherSets?.map(mask)
        allowsWide = sets.contains { $0.contains { $0.value >= 128 } }
    }

    @inline(__always)
    private static func allows(_ masks: [(low: UInt64, high: UInt64)], _ b: UnsafeRawBufferPointer) -> Bool {
        for i in 0..<b.count {
            let c = UInt64(b[i])
            let m = masks[i]
            if (c < 64 ? m.low >> c : m.high >> (c &- 64)) & 1 == 0 { return false }
        }
        return true
    }

    /// An ASCII line of `length` bytes: (of the shape as declared, in the other case).
    @inline(__always)
    func match(ascii b: UnsafeRawBufferPointer) -> (declared: Bool, other: Bool) {
        if let time {
            guard let (f, key) = TimeFormat.parse(b) else { return (false, false) }
            return ((f == time || (time == .typeid && f == .ulid)) && f.plausible(key: key, now: now), false)
        }
        guard b.count == length else { return (false, false) }
        return (Self.allows(masks, b), otherMasks.map { Self.allows($0, b) } ?? false)
    }

    /// A well-formed UTF-8 line with symbols past ASCII, `count` of them.
    func match(wide b: UnsafeRawBufferPointer, scalars count: Int) -> (declared: Bool, other: Bool) {
        guard allowsWide, time == nil, count == length else { return (false, false) }
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(count)
        AuditWorker.forEachScalar(b) { scalars.append($0) }
        let declared = scalars.indices.allSatisfy { sets[$0].contains(scalars[$0]) }
        let other = otherSets.map { o in scalars.indices.allSatisfy { o[$0].contains(scalars[$0]) } } ?? false
        return (declared, other)
    }
}

extension SummaryParser {
    /// `{"shape": "uuid4", "lines": "n", "lines_other_case": "n", "other_length": "n", "other_symbols": "n"}`.
    mutating func declaredLines(_ place: String) throws(InputError) -> DeclaredLines {
        var d = DeclaredLines(shape: "")
        let keys = ["shape", "lines", "lines_other_case", "other_length", "other_symbols"]
        try members(place, known: keys, required: keys) { p, name throws(InputError) in
            switch name {
            case "shape": d.shape = try p.string("\(place).shape")
            case "lines": d.lines = try p.count("\(place).lines")
            case "lines_other_case": d.linesOtherCase = try p.count("\(place).lines_other_case")
            case "other_length": d.otherLength = try p.count("\(place).other_length")
            default: d.otherSymbols = try p.count("\(place).other_symbols")
            }
        }
        return d
    }
}
