import ArgumentParser
import IDBudget

struct ProbabilityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probability",
        abstract: "The exact chance that some two of N identifiers collide.",
        discussion: "Example:\n  idbudget probability --alphabet base62 --length 22 --rate 1e6/s --lifetime 10y"
    )

    @OptionGroup var space: SpaceOptions
    @OptionGroup var volume: VolumeOptions
    @OptionGroup var peak: PeakRateOptions
    @OptionGroup var arrivals: ArrivalsOptions
    @OptionGroup var output: FormatOptions

    func validate() throws {
        _ = try space.resolve()
        _ = try volume.resolve(scheme: space.resolveScheme(), peakRate: peak.peakRate, arrivals: arrivals.arrivals)
    }

    func run() throws {
        let scheme = try space.resolveScheme()
        let resolved = try volume.resolve(scheme: scheme, peakRate: peak.peakRate, arrivals: arrivals.arrivals)
        let answer: ProbabilityAnswer
        do { answer = try Planner.probability(space: try space.resolve(), volume: resolved, scheme: scheme) } catch let error as InputError
        {
            throw UsageError(argument: volume.growth != nil ? "--growth" : "--rate", message: error.message)
        }
        try Text.emit(answer, output.format, text: Text.render)
    }
}
