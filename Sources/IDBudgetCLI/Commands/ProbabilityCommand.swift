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
    @OptionGroup var nodeIDs: NodeIDsOptions

    @OptionGroup var output: FormatOptions

    func validate() throws {
        if let scheme = try space.resolveScheme(), scheme.node != nil {
            _ = try nodeQuestion(scheme)
            return
        }
        try nodeIDs.refuse()
        _ = try space.resolve()
        _ = try volume.resolve(scheme: space.resolveScheme(), peakRate: peak.peakRate, arrivals: arrivals.arrivals)
    }

    /// A node-id scheme's question: the nodes and the per-node rate; the count, lifetime and the rest do not change p.
    func nodeQuestion(_ scheme: Scheme) throws -> (nodes: BigInt, rate: Rate?, ignored: [String]) {
        try nodeIDs.question(scheme, volume: volume, refused: [("--peak-rate", peak.peakRate), ("--arrivals", arrivals.arrivals)])
    }

    func run() throws {
        let scheme = try space.resolveScheme()
        if let scheme, scheme.node != nil {
            let (nodes, rate, ignored) = try nodeQuestion(scheme)
            var answer: ProbabilityAnswer
            do {
                answer = try Planner.nodeProbability(
                    scheme: scheme, nodes: nodes, assigned: try nodeIDs.assigned(), ratePerNode: rate)
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
