import Foundation
import Precise

/// When to add a character: the lengths a service at a rate needs as its ids accumulate.
///
/// Length L is enough at time t while every id minted since the start (and any stored before it) fits
/// L's capacity, the largest count c_L with p(d_L, c_L) ≤ budget. So L serves from the moment the
/// length before it runs out until id c_L + 1 − existing is minted, at time t_L = (c_L + 1 −
/// existing)/rate (with growth: when the rate's integral reaches that count). The schedule starts at the
/// shortest length that lasts at least a day and ends at the length that lasts the whole lifetime, the
/// one `length` answers. Each row is budgeted over *all* ids since the start, so switching early is
/// conservative; ids of different lengths never collide, but a store that keeps every row's ids carries
/// up to one budget per row (divide the budget by the rows to bound the whole store).
public struct LengthSchedule: Codable, Sendable, Equatable {
    /// The start, `YYYY-MM-DD` (UTC), when a date was asked for.
    public let from: String?
    /// Shortest first; the last row lasts the lifetime.
    public let rows: [Row]
    /// The rule, in words.
    public let rule: String

    public struct Row: Codable, Sendable, Equatable {
        public let length: Int
        /// Seconds from the start when this length takes over ("0" for the first row), 30 digits.
        public let fromSeconds: String
        /// The start plus `fromSeconds`, ISO 8601 UTC, rounded down to the second.
        public let fromDate: String?
        /// Seconds from the start to the id that would take p over budget at this length, 30 digits;
        /// absent in the last row, which lasts the lifetime.
        public let toSeconds: String?
        public let toDate: String?
        /// The capacity of this length: ids stored (per scope, those stored before the start included)
        /// when it must give way; absent in the last row.
        public let switchCount: String?
    }

    /// Rows are kept only from the length that lasts this long: one breaking sooner is no plan.
    public static let shortestRowSeconds = 86_400
    /// At most this many shorter lengths are listed, the ones nearest the minimum (a two-symbol
    /// alphabet under steep growth would otherwise list thousands).
    public static let maxShorterRows = 64
}

extension Planner {
    /// The schedule for a volume with a rate and a lifetime (no time buckets), given the length that
    /// lasts it; nil when no shorter length lasts a day.
    static func schedule(
        finalLength: Int, space make: (Int) throws -> Space, volume: Volume, budget: Budget, from: Date?
    ) throws -> LengthSchedule? {
        guard let rate = volume.rate, volume.lifetime != nil, volume.buckets == BigInt(1), volume.poisson == nil else { return nil }
        var shorter: [(length: Int, seconds: ScientificDecimal, capacity: BigInt)] = []
        var length = finalLength - 1
        var cut = false
        while length >= 1 {
            if shorter.count == LengthSchedule.maxShorterRows {
                cut = true
                break
            }
            let capacity = try Birthday.capacity(space: make(length).size, scopes: volume.scopes, budget: budget)
            guard capacity >= volume.existing else { break }
            let seconds = try secondsToMint(capacity - volume.existing + BigInt(1), rate: rate, growth: volume.growth)
            guard seconds.doubleValue >= Double(LengthSchedule.shortestRowSeconds) else { break }
            shorter.insert((length, seconds, capacity), at: 0)
            length -= 1
        }
        guard !shorter.isEmpty else { return nil }
        var rows: [LengthSchedule.Row] = []
        var start = ScientificDecimal.zero
        for (length, seconds, capacity) in shorter {
            rows.append(
                LengthSchedule.Row(
                    length: length, fromSeconds: start.description, fromDate: from.flatMap { date($0, plus: start) },
                    toSeconds: seconds.description, toDate: from.flatMap { date($0, plus: seconds) },
                    switchCount: capacity.description))
            start = seconds
        }
        rows.append(
            LengthSchedule.Row(
                length: finalLength, fromSeconds: start.description, fromDate: from.flatMap { date($0, plus: start) },
                toSeconds: nil, toDate: nil, switchCount: nil))
        return LengthSchedule(
            from: from.map(dayText), rows: rows,
            rule:
                "each length serves until the id that takes p over the budget, counting every id since the start (and those stored before it); rows start at the shortest length lasting a day\(cut ? " (here only the \(LengthSchedule.maxShorterRows) lengths before the minimum are listed)" : ""). Ids of different lengths cannot collide, but a store that keeps every row's ids carries up to one budget per row."
        )
    }
}
