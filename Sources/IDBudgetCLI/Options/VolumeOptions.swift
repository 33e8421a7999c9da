import ArgumentParser
import Foundation
import IDBudget

/// How many identifiers: a count, or a rate over a lifetime; optionally per scope, per node, per bucket.
struct VolumeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Number of identifiers, exact: 1000000, 3.1536e14 or 2^40.", valueName: "n"))
    var count: String?

    @Option(
        help: ArgumentHelp(
            "Identifiers per unit of time: 1e6/s, 2000/min, 5/ms, 100/h, 10/d, 100/M (a month). Units are case-sensitive: m is minutes, M months.",
            valueName: "rate"))
    var rate: String?

    @Option(
        help: ArgumentHelp(
            "How long identifiers live (or must stay unique): 10y, 6M, 30d, 36h, 90m, 1.5y. Units (case-sensitive): us, ms, s, m or min, h, d, w, M or mo (months), y. A year is 365 days, a month a twelfth of it.",
            valueName: "time"))
    var lifetime: String?

    @Option(
        help: ArgumentHelp(
            "Independent scopes that each hold the volume (devices, tenants): p is that any of them collides.", valueName: "n"))
    var scopes: String?

    @Option(name: .customLong("count-per-scope"), help: ArgumentHelp("Identifiers live in each scope (with --scopes).", valueName: "n"))
    var countPerScope: String?

    @Option(
        help: ArgumentHelp("Nodes that each mint the --count or --rate into the same space (fleet volume = nodes × it).", valueName: "n"))
    var nodes: String?

    @Option(
        help: ArgumentHelp(
            "The rate grows, compounding continuously: 40%/y, 3%/mo, or 2x/y (doubling a year). The count over the lifetime is the rate's integral.",
            valueName: "growth"))
    var growth: String?

    @Option(
        help: ArgumentHelp(
            "Ids already stored (in each scope) that new ones can collide with: p is over stored and new ids together.", valueName: "n"))
    var existing: String?

    /// The volume; `peakRate` is the text of `--peak-rate`, which only `probability` takes (see
    /// ``PeakRateOptions``).
    func resolve(scheme: Scheme? = nil, peakRate: String? = nil, arrivals: String? = nil) throws -> Volume {
        let arrivalModel = try arrivals.map(parseArrivals) ?? .poisson
        if arrivals != nil, scheme?.bucket == nil || rate == nil {
            throw UsageError(
                argument: "--arrivals",
                message: "arrivals matter only for time-bucketed schemes (uuid7, ulid, ksuid, typeid) with --rate and --lifetime")
        }
        let growthValue = try growth.map(parseGrowth)
        let existingCount =
            try existing.map { try parseInteger($0, argument: "--existing", example: "1000000", allowingZero: true) } ?? BigInt(0)
        let scopes = try scopes.map { try parseInteger($0, argument: "--scopes", example: "100000000") } ?? BigInt(1)
        let nodes = try nodes.map { try parseInteger($0, argument: "--nodes", example: "12") } ?? BigInt(1)
        if countPerScope != nil && count != nil {
            throw UsageError(argument: "--count-per-scope", message: "give --count or --count-per-scope, not both")
        }
        let workload: Workload
        if let fixed = count ?? countPerScope {
            let argument = count != nil ? "--count" : "--count-per-scope"
            // Name what was given with the count, and only that.
            if rate != nil {
                throw UsageError(argument: argument, message: "give \(argument) or --rate (with --lifetime), not both")
            }
            if lifetime != nil {
                throw UsageError(argument: "--lifetime", message: "a lifetime goes with --rate; with \(argument), leave --lifetime out")
            }
            if peakRate != nil {
                throw UsageError(argument: "--peak-rate", message: "a peak rate goes with --rate and --lifetime, not with \(argument)")
            }
            if growth != nil {
                throw UsageError(argument: "--growth", message: "a growth goes with --rate and --lifetime, not with \(argument)")
            }
            let n = try parseInteger(fixed, argument: argument, example: "1000000 or 3.1536e14")
            workload = Workload(count: n, nodes: nodes, scopes: scopes, existing: existingCount)
        } else {
            guard let rateText = rate else {
                if peakRate != nil {
                    throw UsageError(
                        argument: "--rate", message: "--peak-rate needs the average rate too; add e.g. --rate 1e6/s --lifetime 10y")
                }
                throw UsageError(argument: "--count", message: "no volume given; add --count N, or --rate 1e6/s --lifetime 10y")
            }
            guard let lifetimeText = lifetime else {
                throw UsageError(argument: "--lifetime", message: "a rate needs a lifetime; add e.g. --lifetime 10y")
            }
            let lifetime: Lifetime
            do { lifetime = try Lifetime(parsing: lifetimeText) } catch {
                throw UsageError(argument: "--lifetime", message: error.message)
            }
            var peak: Rate?
            if let text = peakRate {
                do { peak = try Rate(parsing: text) } catch { throw UsageError(argument: "--peak-rate", message: error.message) }
            }
            workload = Workload(
                rate: try parseRate(rateText), lifetime: lifetime, nodes: nodes, peakRate: peak, scopes: scopes, growth: growthValue,
                arrivals: arrivalModel, existing: existingCount)
        }
        do { return try workload.volume(scheme: scheme) } catch {
            throw UsageError(argument: "--\(error.field.rawValue)", message: error.message)
        }
    }
}

/// The burst rate of a time-bucketed scheme: only `probability` (which takes `--scheme`) has it, so the
/// commands it means nothing to neither list nor take it.
struct PeakRateOptions: ParsableArguments {
    @Option(
        name: .customLong("peak-rate"),
        help: ArgumentHelp("For time-bucketed schemes: the burst rate (at least --rate) to budget every bucket at.", valueName: "rate"))
    var peakRate: String?
}

/// How ids fall into time buckets: only the commands that take `--scheme` (`probability`, `capacity`)
/// list and take it.
struct ArrivalsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "For time-bucketed schemes (uuid7, ulid, ksuid, typeid): poisson (independent requests, the default) or even (ids spread evenly; below one per bucket none can collide).",
            valueName: "model"),
        completion: .list(Arrivals.allCases.map(\.rawValue)))
    var arrivals: String?
}
