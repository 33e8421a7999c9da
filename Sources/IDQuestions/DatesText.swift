import Foundation
import IDBudget

/// `length`'s dates, as text: the day minting starts (`--from`, for the schedule's dates) and the day
/// the lifetime ends (`--until`, instead of `--lifetime`).
public struct DatesText: Sendable {
    public var until, from: String?

    public init(until: String? = nil, from: String? = nil) { (self.until, self.from) = (until, from) }

    /// Both days read, for a question that does not use them (a node-id format's): a value that is
    /// not a day is refused, not ignored.
    public func read() throws(ArgumentError) {
        for (name, text) in [("--from", from), ("--until", until)] {
            guard let text else { continue }
            do { _ = try Planner.startDate(parsing: text) } catch { throw ArgumentError(name, error.message) }
        }
    }

    /// `volume` with `--until` turned into its lifetime, and the start day (today, UTC, by default).
    public func resolve(_ volume: VolumeText) throws(ArgumentError) -> (volume: VolumeText, from: Date) {
        var start = Planner.today
        if let text = from {
            if volume.rate == nil { throw ArgumentError("--from", "a start date needs a rate; add e.g. \(arg: "rate", "1e6/s")") }
            do { start = try Planner.startDate(parsing: text) } catch { throw ArgumentError("--from", error.message) }
        }
        var volume = volume
        if let text = until {
            guard volume.rate != nil else { throw ArgumentError("--until", "an end date needs a rate; add e.g. \(arg: "rate", "1e6/s")") }
            guard volume.lifetime == nil else { throw ArgumentError("--until", "give \(arg: "until") or \(arg: "lifetime"), not both") }
            let end: Date
            do { end = try Planner.startDate(parsing: text) } catch { throw ArgumentError("--until", error.message) }
            let seconds = Int(end.timeIntervalSince(start).rounded())
            guard seconds > 0 else {
                throw ArgumentError(
                    "--until", "'\(text.prefix(40))' is not after the start day (\(arg: "from"), or today); give a later day")
            }
            volume.lifetime = "\(seconds)s"
        }
        return (volume, start)
    }
}
