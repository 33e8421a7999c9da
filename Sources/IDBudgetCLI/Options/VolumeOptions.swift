import ArgumentParser
import Foundation
import IDBudget
import IDQuestions

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

    /// The options by the one layer's names (`IDQuestions`).
    var named: [(String, String?)] {
        [
            ("count", count), ("rate", rate), ("lifetime", lifetime), ("scopes", scopes), ("count-per-scope", countPerScope),
            ("nodes", nodes), ("growth", growth), ("existing", existing),
        ]
    }
}

/// `retries`' volume: one store's ids (a count, or a rate over a lifetime, from some nodes, growing), so
/// its help lists only what it takes — no scopes, no ids stored apart from the count.
struct StoreVolumeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Ids in the store, stored and new together, exact: 1000000, 3.1536e14 or 2^40.", valueName: "n"))
    var count: String?

    @Option(
        help: ArgumentHelp(
            "Ids inserted per unit of time: 1e6/s, 2000/min, 5/ms, 100/h, 10/d, 100/M (a month). Units are case-sensitive: m is minutes, M months.",
            valueName: "rate"))
    var rate: String?

    @Option(
        help: ArgumentHelp(
            "How long ids are inserted (and kept): 10y, 6M, 30d, 36h, 90m, 1.5y. Units (case-sensitive): us, ms, s, m or min, h, d, w, M or mo (months), y.",
            valueName: "time"))
    var lifetime: String?

    @Option(help: ArgumentHelp("Nodes that each insert the --count or --rate into the store.", valueName: "n"))
    var nodes: String?

    @Option(
        help: ArgumentHelp(
            "The rate grows, compounding continuously: 40%/y, 3%/mo, or 2x/y (doubling a year).", valueName: "growth"))
    var growth: String?

    // Not offered (a store is one space, its count every stored id), but taken so that the layer says
    // why, as it does to the API: not ArgumentParser's bare "Unknown option".
    @Option(help: .hidden) var existing: String?
    @Option(help: .hidden) var scopes: String?
    @Option(name: .customLong("count-per-scope"), help: .hidden) var countPerScope: String?

    var named: [(String, String?)] {
        [
            ("count", count), ("rate", rate), ("lifetime", lifetime), ("nodes", nodes), ("growth", growth), ("existing", existing),
            ("scopes", scopes), ("count-per-scope", countPerScope),
        ]
    }
}

/// The burst rate of a time-bucketed scheme: only `probability` (which takes `--scheme`) has it, so the
/// commands it means nothing to neither list nor take it.
struct PeakRateOptions: ParsableArguments {
    @Option(
        name: .customLong("peak-rate"),
        help: ArgumentHelp("For time-bucketed schemes: the burst rate (at least --rate) to budget every bucket at.", valueName: "rate"))
    var peakRate: String?

    var named: [(String, String?)] { [("peak-rate", peakRate)] }
}

/// How ids fall into time buckets: only the commands that take `--scheme` (`probability`, `capacity`, `length`)
/// list and take it.
struct ArrivalsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "For time-bucketed schemes (uuid7, ulid, ksuid, typeid, firebase): poisson (independent requests, the default) or even (ids spread evenly; below one per bucket none can collide).",
            valueName: "model"),
        completion: .list(Arrivals.allCases.map(\.rawValue)))
    var arrivals: String?

    var named: [(String, String?)] { [("arrivals", arrivals)] }
}
