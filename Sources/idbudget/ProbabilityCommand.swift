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
    @OptionGroup var output: FormatOptions

    func validate() throws {
        _ = try space.resolve()
        _ = try volume.resolve(scheme: space.resolveScheme())
    }

    func run() throws {
        let scheme = try space.resolveScheme()
        let space = try space.resolve()
        let volume = try volume.resolve(scheme: scheme)
        var report = Report()
        Render.spaceFields(&report, space)
        Render.volumeFields(&report, volume)
        try Render.probabilityFields(&report, space: space, count: volume.count, scopes: volume.groups)
        let draws = Birthday.expectedDrawsToFirstCollision(space: space.size)
        report.add("expected_draws_to_first_collision", "expected ids to first collision", .string(draws.description),
                   text: draws.short(6))
        if let scheme { report.notes.append("\(scheme.name): \(scheme.notes) [\(scheme.source)]") }
        Output.print(report.render(output.format))
    }
}
