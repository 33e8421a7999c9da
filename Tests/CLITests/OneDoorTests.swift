import ArgumentParser
import IDQuestions
import Testing

@testable import IDBudgetCLI

/// The CLI's planning commands ask the one layer (`IDQuestions`) that the server and the page ask: this
/// holds, in process, that each command offers every parameter the layer takes for it, under the same
/// name, and passes it on unchanged — so a question asked on the command line and over HTTP is the
/// same question by construction (CLIAgreementTests in Server/ still run both end to end).
struct OneDoorTests {
    static let commands: [any (ParsableCommand & LayerCommand).Type] = [
        ProbabilityCommand.self, LengthCommand.self, CapacityCommand.self, PlanCommand.self, RetriesCommand.self,
    ]

    /// Parameters the layer reads for a command that its CLI does not offer: the layer refuses them by
    /// name with the reason (an API client may send them; the CLI's help does not list them).
    static let notOffered: [Question.Command: Set<String>] = [.retries: ["scopes", "count-per-scope", "existing"]]

    @Test(arguments: commands.map { ObjectIdentifier($0) })
    func everyParameterIsAnOptionOfTheSameName(_ id: ObjectIdentifier) throws {
        let type = try #require(Self.commands.first { ObjectIdentifier($0) == id })
        let command = type.question
        let offered = command.parameters.filter { !(Self.notOffered[command]?.contains($0) ?? false) }
        let argv = offered.flatMap { ["--\($0)", "value-of-\($0)"] }
        let parsed = try #require(try type.parse(argv) as? any LayerCommand)
        let named = Dictionary(parsed.named.compactMap { name, value in value.map { (name, $0) } }, uniquingKeysWith: { a, _ in a })
        #expect(named == Dictionary(uniqueKeysWithValues: offered.map { ($0, "value-of-\($0)") }), "\(command)")
        // Nothing the layer does not read: every name the command passes on is one of its parameters.
        #expect(Set(parsed.named.map(\.0)).isSubset(of: Set(command.parameters)), "\(command)")
        for name in Self.notOffered[command] ?? [] {
            #expect(throws: (any Error).self) { try type.parse(["--\(name)", "1"]) }
        }
    }
}
