import ArgumentParser
import IDBudget

struct ProbabilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probability",
        abstract: "The exact chance that some two of N identifiers collide.",
        discussion: """
            Examples:
              idbudget probability --alphabet base62 --length 22 --rate 1e6/s --lifetime 10y
              idbudget probability --scheme snowflake --nodes 50 --rate 1000/s
            For a node-id scheme (\(Scheme.all.filter { $0.node != nil }.map(\.name).joined(separator: ", "))), p is
            that two of --nodes live nodes share a node value; --rate is per node, checked against its ceiling.
            """
    )

    @OptionGroup var space: SpaceOptions
    @OptionGroup var volume: VolumeOptions
    @OptionGroup var peak: PeakRateOptions
    @OptionGroup var arrivals: ArrivalsOptions
    @Option(
        name: .customLong("node-ids"),
        help: ArgumentHelp(
            "Node-id schemes: how nodes get their worker/machine id, random (drawn by each node) or assigned (unique by construction).",
            valueName: "how"), completion: .list(["random", "assigned"]))
    var nodeIDs: String?

    @OptionGroup var output: FormatOptions

    /// `--node-ids`: true for assigned, false for random, nil when not given.
    func assignedNodeIDs() throws -> Bool? {
        guard let nodeIDs else { return nil }
        guard nodeIDs == "random" || nodeIDs == "assigned" else {
            throw UsageError(argument: "--node-ids", message: "'\(nodeIDs.prefix(40))' is not random or assigned; e.g. --node-ids assigned")
        }
        return nodeIDs == "assigned"
    }

    func validate() throws {
        if let scheme = try space.resolveScheme(), scheme.node != nil {
            _ = try nodeQuestion(scheme)
            return
        }
        if nodeIDs != nil {
            throw UsageError(
                argument: "--node-ids",
                message:
                    "node ids matter only for node-id schemes (\(Scheme.all.filter { $0.node != nil }.map(\.name).joined(separator: ", "))); leave it out"
            )
        }
        _ = try space.resolve()
        _ = try volume.resolve(scheme: space.resolveScheme(), peakRate: peak.peakRate, arrivals: arrivals.arrivals)
    }

    /// A node-id scheme's question: the nodes and the per-node rate; the count, lifetime and the rest do not change p.
    func nodeQuestion(_ scheme: Scheme) throws -> (nodes: BigInt, rate: Rate?, ignored: [String]) {
        guard let nodesText = volume.nodes else {
            throw UsageError(
                argument: "--nodes",
                message:
                    "\(scheme.name) ids are kept apart by their \(scheme.node?.name ?? "node"); say how many nodes mint them, e.g. --nodes 50"
            )
        }
        let nodes = try parseInteger(nodesText, argument: "--nodes", example: "50")
        let rate = try volume.rate.map { try parseRate($0) }
        _ = try assignedNodeIDs()
        if peak.peakRate != nil || arrivals.arrivals != nil {
            throw UsageError(
                argument: peak.peakRate != nil ? "--peak-rate" : "--arrivals",
                message: "\(scheme.name) ids are kept apart by their node field, not by random bits per bucket; leave it out")
        }
        let ignored = [
            ("--count", volume.count), ("--lifetime", volume.lifetime), ("--scopes", volume.scopes), ("--existing", volume.existing),
        ]
        .filter { $0.1 != nil }.map(\.0)
        return (nodes, rate, ignored)
    }

    func run() throws {
        let scheme = try space.resolveScheme()
        if let scheme, scheme.node != nil {
            let (nodes, rate, ignored) = try nodeQuestion(scheme)
            var answer: ProbabilityAnswer
            do {
                answer = try Planner.nodeProbability(
                    scheme: scheme, nodes: nodes, assigned: try assignedNodeIDs(), ratePerNode: rate)
            } catch let error as InputError {
                throw UsageError(argument: "--nodes", message: error.message)
            }
            if !ignored.isEmpty {
                answer.notes.append(
                    "\(ignored.joined(separator: ", ")): not used; for a node-id format p depends on the nodes alone.")
            }
            try Text.emit(answer, output.format, text: Text.render)
            return
        }
        let resolved = try volume.resolve(scheme: scheme, peakRate: peak.peakRate, arrivals: arrivals.arrivals)
        let answer: ProbabilityAnswer
        do { answer = try Planner.probability(space: try space.resolve(), volume: resolved, scheme: scheme) } catch let error as InputError
        {
            throw UsageError(argument: volume.growth != nil ? "--growth" : "--rate", message: error.message)
        }
        try Text.emit(answer, output.format, text: Text.render)
    }
}
