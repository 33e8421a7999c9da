import ArgumentParser
import IDBudget
import Precise

/// How nodes of a node-id scheme get their node value, and the question such a scheme asks: how many
/// nodes, at what rate each (`probability` and `length` with a node-id `--scheme`).
struct NodeIDsOptions: ParsableArguments {
    @Option(
        name: .customLong("node-ids"),
        help: ArgumentHelp(
            "Node-id schemes: how nodes get their worker/machine id, random (drawn by each node) or assigned (unique by construction).",
            valueName: "how"), completion: .list(["random", "assigned"]))
    var nodeIDs: String?

    /// True for assigned, false for random, nil when not given.
    func assigned() throws -> Bool? {
        guard let nodeIDs else { return nil }
        guard nodeIDs == "random" || nodeIDs == "assigned" else {
            throw UsageError(argument: "--node-ids", message: "'\(nodeIDs.prefix(40))' is not random or assigned; e.g. --node-ids assigned")
        }
        return nodeIDs == "assigned"
    }

    /// Refuses `--node-ids` for a scheme that has no node field.
    func refuse() throws {
        guard nodeIDs != nil else { return }
        throw UsageError(
            argument: "--node-ids",
            message:
                "node ids matter only for node-id schemes (\(Scheme.all.filter { $0.node != nil }.map(\.name).joined(separator: ", "))); leave it out"
        )
    }

    /// A node-id scheme's question: the nodes and the per-node rate. `refused` options (given or not)
    /// mean nothing to it; the count, lifetime, scopes and stored ids are not used (`ignored`).
    func question(_ scheme: Scheme, volume: VolumeOptions, refused: [(String, String?)] = []) throws -> (
        nodes: BigInt, rate: Rate?, ignored: [String]
    ) {
        guard let nodesText = volume.nodes else {
            throw UsageError(
                argument: "--nodes",
                message:
                    "\(scheme.name) ids are kept apart by their \(scheme.node?.name ?? "node"); say how many nodes mint them, e.g. --nodes 50"
            )
        }
        let nodes = try parseInteger(nodesText, argument: "--nodes", example: "50")
        let rate = try volume.rate.map { try parseRate($0) }
        _ = try assigned()
        if let (name, _) = refused.first(where: { $0.1 != nil }) {
            throw UsageError(
                argument: name,
                message: "\(scheme.name) ids are kept apart by their node field, not by random bits per bucket; leave it out")
        }
        // Not used, but still read: a value that is not one (`--count abc`) is refused, not ignored.
        for (name, text, example) in [
            ("--count", volume.count, "1e9"), ("--scopes", volume.scopes, "10"), ("--existing", volume.existing, "1e9"),
            ("--count-per-scope", volume.countPerScope, "1e6"),
        ] {
            if let text { _ = try parseInteger(text, argument: name, example: example, allowingZero: name == "--existing") }
        }
        if let text = volume.lifetime { _ = try usage { () throws(ArgumentError) in try ArgumentText.lifetime(text) } }
        if let text = volume.growth { _ = try parseGrowth(text) }
        let ignored = [
            ("--count", volume.count), ("--lifetime", volume.lifetime), ("--scopes", volume.scopes), ("--existing", volume.existing),
            ("--count-per-scope", volume.countPerScope), ("--growth", volume.growth),
        ]
        .filter { $0.1 != nil }.map(\.0)
        return (nodes, rate, ignored)
    }
}
