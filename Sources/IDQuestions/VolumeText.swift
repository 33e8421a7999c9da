import Foundation
import IDBudget

/// How many identifiers, as text: a count (or a count per scope), or a rate over a lifetime, with
/// scopes, nodes, growth, ids already stored, a peak rate and an arrivals model — the CLI's volume
/// options, read in the order its commands read them so the first refusal names the same argument.
public struct VolumeText: Sendable {
    public var count, countPerScope, rate, lifetime, scopes, nodes, growth, existing, peakRate, arrivals: String?

    public init(
        count: String? = nil, countPerScope: String? = nil, rate: String? = nil, lifetime: String? = nil, scopes: String? = nil,
        nodes: String? = nil, growth: String? = nil, existing: String? = nil, peakRate: String? = nil, arrivals: String? = nil
    ) {
        (self.count, self.countPerScope, self.rate, self.lifetime, self.scopes) = (count, countPerScope, rate, lifetime, scopes)
        (self.nodes, self.growth, self.existing, self.peakRate, self.arrivals) = (nodes, growth, existing, peakRate, arrivals)
    }

    /// The volume, for `scheme` when one is given (its buckets, its arrivals).
    public func volume(scheme: Scheme? = nil) throws(ArgumentError) -> Volume {
        if arrivals != nil, scheme?.bucket == nil || rate == nil {
            _ = try arrivals.map { (t: String) throws(ArgumentError) -> Arrivals in try ArgumentText.arrivals(t) }
            throw ArgumentError(
                "--arrivals",
                "arrivals matter only for time-bucketed schemes (uuid7, ulid, ksuid, typeid, firebase) with \(arg: "rate") and \(arg: "lifetime")"
            )
        }
        let workload = try workload()
        do { return try workload.volume(scheme: scheme) } catch { throw ArgumentError(blaming: error, else: "count") }
    }

    /// The workload the text describes, before a scheme gives it buckets.
    public func workload() throws(ArgumentError) -> Workload {
        let arrivalModel = try arrivals.map { (t: String) throws(ArgumentError) -> Arrivals in try ArgumentText.arrivals(t) } ?? .poisson
        let growthValue = try growth.map { (t: String) throws(ArgumentError) -> Growth in try ArgumentText.growth(t) }
        let existingCount =
            try existing.map { (t: String) throws(ArgumentError) -> BigInt in
                try ArgumentText.integer(t, argument: "--existing", example: "1000000", allowingZero: true)
            } ?? BigInt(0)
        let scopes =
            try scopes.map { (t: String) throws(ArgumentError) -> BigInt in
                try ArgumentText.integer(t, argument: "--scopes", example: "100000000")
            } ?? BigInt(1)
        let nodes =
            try nodes.map { (t: String) throws(ArgumentError) -> BigInt in try ArgumentText.integer(t, argument: "--nodes", example: "12") }
            ?? BigInt(1)
        if countPerScope != nil && count != nil {
            throw ArgumentError("--count-per-scope", "give \(arg: "count") or \(arg: "count-per-scope"), not both")
        }
        let workload: Workload
        if let fixed = count ?? countPerScope {
            let argument = count != nil ? "--count" : "--count-per-scope"
            // Name what was given with the count, and only that.
            if rate != nil { throw ArgumentError(argument, "give \(arg: argument) or \(arg: "rate") (with \(arg: "lifetime")), not both") }
            if lifetime != nil {
                throw ArgumentError(
                    "--lifetime", "a lifetime goes with \(arg: "rate"); with \(arg: argument), leave \(arg: "lifetime") out")
            }
            if peakRate != nil {
                throw ArgumentError("--peak-rate", "a peak rate goes with \(arg: "rate") and \(arg: "lifetime"), not with \(arg: argument)")
            }
            if growth != nil {
                throw ArgumentError("--growth", "a growth goes with \(arg: "rate") and \(arg: "lifetime"), not with \(arg: argument)")
            }
            let n = try ArgumentText.integer(fixed, argument: argument, example: "1000000 or 3.1536e14")
            workload = Workload(count: n, nodes: nodes, scopes: scopes, existing: existingCount)
        } else {
            guard let rateText = rate else {
                if peakRate != nil {
                    throw ArgumentError(
                        "--rate",
                        "\(arg: "peak-rate") needs the average rate too; add e.g. \(arg: "rate", "1e6/s") \(arg: "lifetime", "10y")")
                }
                throw ArgumentError(
                    "--count", "no volume given; add \(arg: "count") N, or \(arg: "rate", "1e6/s") \(arg: "lifetime", "10y")")
            }
            guard let lifetimeText = lifetime else {
                throw ArgumentError("--lifetime", "a rate needs a lifetime; add e.g. \(arg: "lifetime", "10y")")
            }
            let lifetime = try ArgumentText.lifetime(lifetimeText)
            let peak = try peakRate.map { (t: String) throws(ArgumentError) -> Rate in try ArgumentText.rate(t, argument: "--peak-rate") }
            workload = Workload(
                rate: try ArgumentText.rate(rateText), lifetime: lifetime, nodes: nodes, peakRate: peak, scopes: scopes,
                growth: growthValue, arrivals: arrivalModel, existing: existingCount)
        }
        return workload
    }
}
