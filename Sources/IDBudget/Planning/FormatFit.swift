import Foundation
import IDFormats
import Precise

/// Whether a fixed format (`Scheme`) is long enough for a workload and a budget.
///
/// A format's length is not a choice, so the question `length` asks of it is turned around: the fewest
/// whole bits its collision model needs, against the bits it has.
///
/// - Random formats: `bits_needed` is the least b with p ≤ budget when each id (each id of a bucket,
///   for time-ordered formats) draws b random bits, with the volume's model: the birthday bound over
///   2^b per scope or bucket, or Poisson arrivals into buckets of 2^b values (see
///   <doc:ArrivalModels>). p falls as b grows, so the format is within budget exactly when its random
///   bits are at least `bits_needed`.
/// - Node-id formats: `bits_needed` is the least node field in which `nodes` nodes drawing their value
///   at random share none with p ≤ budget (the birthday bound over 2^b), or ⌈log2 nodes⌉ when the values
///   are assigned.
///
/// Every comparison is decided with certified bounds, as `length` decides its minimum.
public struct FormatFit: Codable, Sendable, Equatable {
    public let scheme: String
    /// `per id`, `per millisecond`, `per second`, or `by node`.
    public let collide: String
    /// Characters and bytes of one id in its usual text form.
    public let length: Int
    public let bytes: Int
    /// The format's random bits (per bucket for time-ordered formats), or its node bits.
    public let bits: Int
    /// The fewest bits that keep p within budget.
    public let bitsNeeded: Int
    /// p at the format's own bits.
    public let collision: CollisionFigures
    public let withinBudget: Bool
    public let maxBytes: Int?
    public let fitsMaxBytes: Bool?
    /// For a format that is a run of uniform symbols (Nano ID): the shortest length in its alphabet.
    public var shortestLength: Int? = nil
}

/// `idbudget length --scheme F`: whether the format is long enough, and by how many bits.
public struct FormatLengthAnswer: Answer {
    public var schemaVersion = outputSchemaVersion
    public var command = "length"
    public let format: FormatFit
    public let volume: VolumeFigures
    public let budget: String
    public var notes: [String]
}

extension Planner {
    /// Whether the random format `scheme` keeps p for `volume` (resolved for that scheme, so with its
    /// buckets and arrivals) within `budget`, and the fewest random bits that would.
    public static func length(scheme: Scheme, volume: Volume, budget: Budget, maxBytes: Int? = nil) throws -> FormatLengthAnswer {
        let fit = try fit(scheme: scheme, volume: volume, budget: budget, maxBytes: maxBytes)
        var notes = volume.notes
        notes.append(fitNote(fit))
        if let shortest = fit.shortestLength {
            notes.append("shortest_length: \(scheme.name) with \(shortest) of its \(nanoidSymbols) symbols is the shortest within budget.")
        }
        if fit.collision.doubleApproximation == nil { notes.append(doubleRangeNote) }
        notes.append("\(scheme.name): \(scheme.notes) [\(scheme.source)]")
        return FormatLengthAnswer(format: fit, volume: VolumeFigures(volume), budget: budget.text, notes: notes)
    }

    /// Whether the node field of the node-id format `scheme` keeps p that two of `nodes` live nodes
    /// share a value within `budget`, and the fewest node bits that would (see
    /// ``nodeProbability(scheme:nodes:assigned:ratePerNode:)``).
    public static func length(
        scheme: Scheme, nodes: BigInt, assigned: Bool? = nil, ratePerNode: Rate? = nil, budget: Budget, maxBytes: Int? = nil
    ) throws -> FormatLengthAnswer {
        guard let node = scheme.node else {
            throw InputError("\(scheme.name) ids are random, not kept apart by a node field; leave it out", argument: "node-ids")
        }
        let isAssigned = assigned ?? node.assignedByDefault
        guard nodes >= BigInt(1) else { throw InputError("nodes must be at least 1", argument: "nodes") }
        let values = BigInt.power(2, node.bits)
        if isAssigned && nodes > values {
            // More nodes than values: two share one whatever the assignment (p = 1, exactly).
            let fit = FormatFit(
                scheme: scheme.name, collide: "by node", length: scheme.length, bytes: scheme.bytes, bits: node.bits,
                bitsNeeded: (nodes - BigInt(1)).bitWidth,
                collision: sharedValues(nodes: nodes, values: values), withinBudget: false,
                maxBytes: maxBytes, fitsMaxBytes: maxBytes.map { scheme.bytes <= $0 })
            let volume = Volume(count: nodes, nodes: nodes, notes: ["\(nodes) live nodes"])
            return FormatLengthAnswer(
                format: fit, volume: VolumeFigures(volume), budget: budget.text,
                notes: [
                    fitNote(fit),
                    "node ids assigned: \(nodes) nodes cannot each have one of the 2^\(node.bits) \(node.name) values, so two share one (p = 1).",
                    "\(scheme.name): \(scheme.notes) [\(scheme.source)]",
                ])
        }
        let p = try nodeProbability(scheme: scheme, nodes: nodes, assigned: assigned, ratePerNode: ratePerNode)
        // One node (or none) shares with no one: no bits are needed.
        let needed =
            isAssigned || nodes <= BigInt(1)
            ? (nodes - BigInt(1)).bitWidth
            : try Birthday.minimumLength(alphabetSize: 2, count: nodes, budget: budget)
        let fit = FormatFit(
            scheme: scheme.name, collide: "by node", length: scheme.length, bytes: scheme.bytes, bits: node.bits,
            bitsNeeded: needed, collision: p.collision, withinBudget: node.bits >= needed, maxBytes: maxBytes,
            fitsMaxBytes: maxBytes.map { scheme.bytes <= $0 })
        return FormatLengthAnswer(
            format: fit, volume: p.volume, budget: budget.text, notes: [fitNote(fit)] + p.notes)
    }

    /// What ``length(scheme:volume:budget:maxBytes:)`` and a format row of `plan` share.
    static func fit(scheme: Scheme, volume: Volume, budget: Budget, maxBytes: Int?) throws -> FormatFit {
        try check(volume)
        let space = try Space(scheme: scheme)
        let collision =
            try volume.poisson.map { try CollisionFigures(poisson: $0) } ?? volume.even.map { try CollisionFigures(even: $0) }
            ?? CollisionFigures(space: space.size, count: volume.total, groups: volume.groups)
        let needed: Int
        if let poisson = volume.poisson {
            needed = try poissonBitsNeeded(poisson, budget: budget, start: scheme.randomBits)
        } else if let even = volume.even {
            needed = try bitsNeeded(start: scheme.randomBits) { b throws in
                try even.with(space: BigInt.power(2, b)).isWithin(budget: budget)
            }
        } else if volume.total <= BigInt(1) {
            needed = 0  // one id (or none) never collides: a space of one value will do
        } else {
            needed = try Birthday.minimumLength(alphabetSize: 2, count: volume.total, scopes: volume.groups, budget: budget)
        }
        var shortest: Int?
        if scheme.format == .nanoid {
            shortest = try Birthday.minimumLength(alphabetSize: nanoidSymbols, count: volume.total, scopes: volume.groups, budget: budget)
        }
        return FormatFit(
            scheme: scheme.name, collide: scheme.bucket.map { "per \($0.rawValue)" } ?? "per id", length: scheme.length,
            bytes: scheme.bytes, bits: scheme.randomBits, bitsNeeded: needed, collision: collision,
            withinBudget: scheme.randomBits >= needed, maxBytes: maxBytes, fitsMaxBytes: maxBytes.map { scheme.bytes <= $0 },
            shortestLength: shortest)
    }

    static let nanoidSymbols = 64

    /// The least b ≥ 0 with p ≤ budget for Poisson arrivals into buckets of 2^b values: p falls as b
    /// grows. Where p can not be evaluated because a steep growth puts more than d/2 ids in the busiest
    /// buckets, p is near 1: over any budget.
    private static func poissonBitsNeeded(_ model: PoissonBuckets, budget: Budget, start: Int) throws -> Int {
        try bitsNeeded(start: start) { b throws in
            do { return try model.with(space: BigInt.power(2, b)).isWithin(budget: budget) } catch let error as InputError
                where error.message.contains("more than d/2")
            {
                return false
            }
        }
    }

    /// The least b ≥ 0 with `within(b)`, which holds from some b on: doubling from `start`, then bisection.
    private static func bitsNeeded(start: Int, _ within: (Int) throws -> Bool) throws -> Int {
        if try within(0) { return 0 }
        var lo = 0  // over budget
        var hi = Swift.max(1, start)
        while try !within(hi) {
            lo = hi
            guard hi < Limits.maxSpaceBits else {
                throw InputError("no format within \(Limits.maxSpaceBits) bits keeps p within budget", argument: "max-probability")
            }
            hi = Swift.min(hi * 2, Limits.maxSpaceBits)
        }
        // Shrink from the start: a format usually has more bits than it needs.
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if try within(mid) { hi = mid } else { lo = mid }
        }
        return hi
    }

    static func fitNote(_ f: FormatFit) -> String {
        let unit = f.collide == "by node" ? "node bits" : "random bits\(f.collide == "per id" ? "" : " \(f.collide)")"
        let margin = f.bits - f.bitsNeeded
        return f.withinBudget
            ? "within budget: \(f.scheme) has \(f.bits) \(unit); \(f.bitsNeeded) would do (\(margin) to spare)."
            : "over budget: \(f.scheme) has \(f.bits) \(unit); the budget needs \(f.bitsNeeded) (\(-margin) more)."
    }
}
