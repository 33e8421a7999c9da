import Foundation
import IDFormats
import Precise
import Synchronization

/// The version of the JSON every answer encodes to (`docs/schema/idbudget-output.schema.json`). Exact
/// values are strings (30 significant digits, or whole integers); JSON numbers appear only where the
/// schema marks a value approximate (`bits`, `double_approximation`) or small (lengths, bytes).
public let outputSchemaVersion = 1

/// A space of identifiers, as an answer reports it.
public struct SpaceFigures: Codable, Sendable, Equatable {
    /// The number of values, exactly (a decimal integer string). Written when first read: at the top
    /// of the range it has 631,306 digits, and a `plan` in text shows none of its rows' sizes.
    public var size: String { decimal.text(of: exact) }
    /// log2(size), approximate.
    public let bits: Double
    /// How the space was given: `base62^22`, `2^128`, `uuid7: 2^74 per millisecond`.
    public var summary: String { given ?? size }

    private let exact: BigInt
    private let given: String?
    private let decimal = WrittenOnce()

    public static func == (a: SpaceFigures, b: SpaceFigures) -> Bool {
        a.exact == b.exact && a.bits == b.bits && a.given == b.given
    }

    public init(_ space: Space) {
        exact = space.size
        bits = (space.bits * 10_000).rounded() / 10_000
        given = space.given
    }

    /// A space known by its size, described as `summary`.
    public init(size: BigInt, summary: String) {
        exact = size
        bits = (size.log2Magnitude * 10_000).rounded() / 10_000
        given = summary
    }

    private enum CodingKeys: String, CodingKey { case size, bits, summary }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .size)
        guard let size = BigInt(decimal: text) else {
            throw DecodingError.dataCorruptedError(forKey: .size, in: c, debugDescription: "not a decimal integer")
        }
        exact = size
        bits = try c.decode(Double.self, forKey: .bits)
        let summary = try c.decode(String.self, forKey: .summary)
        given = summary == text ? nil : summary
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let text = size
        try c.encode(text, forKey: .size)
        try c.encode(bits, forKey: .bits)
        try c.encode(given ?? text, forKey: .summary)
    }
}

/// A number's decimal text, written the first time it is asked for and kept (one conversion of a
/// 631,306-digit size costs ~0.15 s).
private final class WrittenOnce: Sendable {
    private let cache = Mutex<String?>(nil)

    func text(of value: BigInt) -> String {
        cache.withLock { cached in
            if let cached { return cached }
            let text = value.description
            cached = text
            return text
        }
    }
}

/// A volume, as an answer reports it. Counts are exact decimal strings.
public struct VolumeFigures: Codable, Sendable, Equatable {
    public let count: String
    public let scopes: String
    public let buckets: String
    public let nodes: String
    public let rate: String?
    public let lifetime: String?
    public let summary: String
    /// Ids already stored, when given: `count` is then the new ones.
    public let existing: String?
    /// `poisson` or `even`, where time buckets apply.
    public let arrivals: String?
    /// The growth of the rate, when given.
    public let growth: String?

    public init(_ volume: Volume) {
        existing = volume.existing.signum > 0 ? volume.existing.description : nil
        arrivals = volume.arrivals?.rawValue
        growth = volume.growth?.text
        count = volume.count.description
        scopes = volume.scopes.description
        buckets = volume.buckets.description
        nodes = volume.nodes.description
        rate = volume.rate?.text
        lifetime = volume.lifetime?.text
        summary = volume.summary(count: count)
    }
}

/// The collision figures for `count` ids in each of `groups` independent groups of a space.
public struct CollisionFigures: Codable, Sendable, Equatable {
    /// p that some two ids collide in any group: 30 certified significant digits (fewer, as many as
    /// are certain, only for xid/ObjectId counters past K(m − 1) ≥ 2^24: see `CounterOverlap`).
    public let probability: ScientificDecimal
    /// 1 − p, 30 certified digits.
    public let complement: ScientificDecimal
    /// p as odds, rounded: `1 in 5.45e10`.
    public let oneIn: String
    /// Expected colliding pairs over all groups, C(n, 2)/d × groups.
    public let expectedCollisions: ScientificDecimal
    /// p within one scope or bucket, when there are several.
    public let groupProbability: ScientificDecimal?
    /// What double-precision calculators print, 1 − exp(−n(n−1)/2d × groups): approximate, and absent
    /// where doubles cannot hold the space.
    public let doubleApproximation: Double?

    /// The figures for Poisson arrivals into time buckets (see ``PoissonBuckets``).
    public init(poisson model: PoissonBuckets) throws {
        let (p, c) = try model.probability()
        probability = p
        complement = c
        oneIn = p.oneIn
        let pairs = try model.expectedCollisions()
        expectedCollisions = pairs
        groupProbability =
            model.growth == nil && (model.buckets > BigInt(1) || model.scopes > BigInt(1))
            ? try model.bucketProbability().probability : nil
        let approx = 1 - exp(-pairs.doubleValue)
        doubleApproximation = approx.isFinite && model.space.bitWidth <= 1024 ? approx : nil
    }

    /// The figures for even arrivals into time buckets (see ``EvenBuckets``).
    public init(even model: EvenBuckets) throws {
        let (p, c) = try model.probability()
        probability = p
        complement = c
        oneIn = p.oneIn
        let pairs = model.expectedCollisions()
        expectedCollisions = pairs
        groupProbability = model.buckets * model.scopes > BigInt(1) ? try model.bucketProbability().probability : nil
        let approx = 1 - exp(-pairs.doubleValue)
        doubleApproximation = approx.isFinite && model.space.bitWidth <= 1024 ? approx : nil
    }

    /// Figures worked out elsewhere (`CounterOverlap`): p, 1 − p, the expected colliding pairs and what
    /// a double-precision calculator prints.
    init(probability p: ScientificDecimal, complement c: ScientificDecimal, expected: ScientificDecimal, approx: Double) {
        probability = p
        complement = c
        oneIn = p.oneIn
        expectedCollisions = expected
        groupProbability = nil
        doubleApproximation = approx.isFinite ? approx : nil
    }

    public init(space: BigInt, count: BigInt, groups: BigInt) throws {
        let (p, c) = try Birthday.probability(space: space, count: count, scopes: groups)
        probability = p
        complement = c
        oneIn = p.oneIn
        expectedCollisions = Birthday.expectedCollisions(space: space, count: count, scopes: groups)
        groupProbability = groups > BigInt(1) ? try Birthday.probability(space: space, count: count).probability : nil
        // A double cannot hold d ≥ 2^1024: what a calculator prints there (0, nan) is noise, not a figure.
        let approx = Birthday.doubleApproximation(space: space, count: count, scopes: groups)
        doubleApproximation = approx.isFinite && space.bitWidth <= 1024 ? approx : nil
    }
}

/// `idbudget probability`: p for a space and a volume.
public struct ProbabilityAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "probability"
    public let space: SpaceFigures
    public let volume: VolumeFigures
    public let collision: CollisionFigures
    /// Expected ids drawn until the first collision in one group (scope or bucket); 15 digits.
    public let expectedDrawsToFirstCollision: String
    public var notes: [String]
}

/// `idbudget length`: the shortest length within budget.
public struct LengthAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "length"
    public let alphabet: String
    public let alphabetSize: Int
    public let length: Int
    /// UTF-8 bytes of one id at that length; nil (JSON `null`) when only the alphabet's size is known
    /// and it is over 95 symbols, so a symbol's bytes are unknown.
    public let bytes: Int?
    public let space: SpaceFigures
    public let volume: VolumeFigures
    public let budget: String
    public let collision: CollisionFigures
    /// p one symbol shorter: over budget, which is why `length` is the minimum.
    public let shorterProbability: String?
    public let maxBytes: Int?
    public let fitsMaxBytes: Bool?
    public let notes: [String]
    /// With a rate and a lifetime: the shorter lengths that would serve for a while, and when each must
    /// give way (see ``LengthSchedule``); nil when none lasts a day.
    public var schedule: LengthSchedule? = nil

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, command, alphabet, alphabetSize, length, bytes, space, volume, budget, collision
        case shorterProbability, maxBytes, fitsMaxBytes, notes, schedule
    }

    /// As synthesized, except that unknown `bytes` is written as `null`, not left out (the schema
    /// requires the field).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(command, forKey: .command)
        try c.encode(alphabet, forKey: .alphabet)
        try c.encode(alphabetSize, forKey: .alphabetSize)
        try c.encode(length, forKey: .length)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(space, forKey: .space)
        try c.encode(volume, forKey: .volume)
        try c.encode(budget, forKey: .budget)
        try c.encode(collision, forKey: .collision)
        try c.encodeIfPresent(shorterProbability, forKey: .shorterProbability)
        try c.encodeIfPresent(maxBytes, forKey: .maxBytes)
        try c.encodeIfPresent(fitsMaxBytes, forKey: .fitsMaxBytes)
        try c.encode(notes, forKey: .notes)
        try c.encodeIfPresent(schedule, forKey: .schedule)
    }
}

/// How long a capacity lasts at a rate.
public struct DurationFigures: Codable, Sendable, Equatable {
    /// Seconds, exact to 30 significant digits; absent when the ids can never collide ("for ever").
    public let seconds: String?
    /// The same in the largest sensible unit: `9.42e8 years`.
    public let text: String
    /// What the duration means, in words.
    public let meaning: String
}

/// `idbudget capacity`: the most ids within budget, and how long they last.
public struct CapacityAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "capacity"
    public let space: SpaceFigures
    public let budget: String
    public let scopes: String
    /// The largest count per scope (per bucket, for bucketed schemes) with p ≤ budget.
    public let capacity: String
    public let collision: CollisionFigures
    /// p with one more id: over budget, which is why `capacity` is the maximum.
    public let nextProbability: String
    public let rate: String?
    public let lasts: DurationFigures?
    public let notes: [String]
    /// Ids already stored, when given: `capacity` is then how many more fit.
    public var existing: String? = nil
    /// `poisson` or `even`, for a time-bucketed scheme with a rate.
    public var arrivals: String? = nil
    /// The rate's growth, when given.
    public var growth: String? = nil
    /// With a rate: when the budget breaks, and the median and mean time to the first collision.
    public var when: WhenFigures? = nil
}

/// One alphabet's row of `idbudget plan`.
public struct PlanRow: Codable, Sendable {
    public let alphabet: String
    public let length: Int
    public let bytes: Int
    public let space: SpaceFigures
    public let collision: CollisionFigures
    public let shorterProbability: String?
    public let maxBytes: Int
    public let fitsMaxBytes: Bool
}

/// `idbudget plan`: the minimum length in every named alphabet.
public struct PlanAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "plan"
    public let volume: VolumeFigures
    public let budget: String
    public let rows: [PlanRow]
    /// Each random format: whether it is within budget for this volume, with its own model (absent
    /// when no format was asked about).
    public var formats: [FormatFit]? = nil
    public let notes: [String]
}

/// One format of `idbudget schemes`.
public struct SchemeRow: Codable, Sendable {
    public let name: String
    /// Random bits drawn fresh for each id (per bucket for time-ordered formats): the space is 2^bits.
    public let bits: Int
    /// Random bits a minting process draws once and shares with all its ids (a random node, a clock
    /// sequence, a counter's random start): the same definition as `inspect`'s.
    public let processBits: Int
    public let bucket: String?
    public let encoding: String
    public let length: Int
    /// Bytes of the text form (the longest, for decimal ids).
    public let bytes: Int
    /// Bytes of the binary form; nil for text-only formats.
    public let binaryBytes: Int?
    public let notes: String
    public let source: String
    /// Whether `idbudget generate --scheme NAME` mints it.
    public let mintable: Bool
    /// For node-id formats: the field that keeps nodes apart and one node's ceiling, in words.
    public var node: String? = nil
}

/// `idbudget schemes`.
public struct SchemesAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "schemes"
    public let rows: [SchemeRow]
    public let notes: [String]

    public init() {
        rows = Scheme.all.map {
            SchemeRow(
                name: $0.name, bits: $0.randomBits, processBits: $0.processRandomBits, bucket: $0.bucket?.rawValue,
                encoding: $0.encoding, length: $0.length, bytes: $0.bytes, binaryBytes: $0.binaryBytes, notes: $0.notes, source: $0.source,
                mintable: IDFormat.named($0.name) != nil,
                node: $0.node.map { "\($0.name): 2^\($0.bits) values; \($0.perTick) ids per \(Planner.tickText($0.tick)) a node" })
        }
        notes = []
    }
}

/// An answer idbudget prints: a `Codable` value whose JSON (``jsonText()``) is the CLI's
/// `--format json` output, under ``outputSchemaVersion``; ``init(jsonText:)`` reads that JSON back.
/// Use these two rather than a bare `JSONEncoder`/`JSONDecoder`: the keys are snake_case only
/// through them.
public protocol Answer: Codable, Sendable {
    /// How this answer's JSON keys map to its properties when read back.
    static var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy { get }
}

extension Answer {
    /// This answer as idbudget's JSON: snake_case keys, sorted, pretty-printed (Foundation's
    /// `JSONEncoder` output, written by idbudget's own encoder where that can match it byte for byte).
    public func jsonText() throws -> String {
        if let text = AnswerEncoder.text(self, pretty: true) { return text }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// Reads this answer from idbudget's JSON (what ``jsonText()`` and `--format json` write).
    public init(jsonText: String) throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = Self.keyDecodingStrategy
        self = try decoder.decode(Self.self, from: Data(jsonText.utf8))
    }

    public static var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy { .convertFromSnakeCase }
}
