import ArgumentParser
import IDBudget
import IDQuestions

/// How nodes of a node-id scheme get their node value, and the question such a scheme asks: how many
/// nodes, at what rate each (`probability` and `length` with a node-id `--scheme`).
struct NodeIDsOptions: ParsableArguments {
    @Option(
        name: .customLong("node-ids"),
        help: ArgumentHelp(
            "Node-id schemes: how nodes get their worker/machine id, random (drawn by each node) or assigned (unique by construction).",
            valueName: "how"), completion: .list(["random", "assigned"]))
    var nodeIDs: String?

    var named: [(String, String?)] { [("node-ids", nodeIDs)] }
}
