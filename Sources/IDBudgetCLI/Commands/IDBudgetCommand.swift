import ArgumentParser
import IDTokens

struct IDBudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idbudget",
        abstract: "How long must a random identifier be? Exact birthday-bound capacity planning.",
        discussion: """
            Every probability is computed exactly (GMP/MPFR, adaptive precision) and printed with 30 \
            correct significant digits. Examples (each line fits 80 columns; copy it whole):
              idbudget plan --rate 1e6/s --lifetime 10y --max-probability 1e-11
              idbudget probability --alphabet base62 --length 22 --count 1e9
              idbudget length --alphabet base62 --count 500 --max-probability 1e-12
              idbudget capacity --bits 122 --max-probability 1e-18 --rate 1e6/s
              idbudget generate --scheme uuid7 --count 1000
              idbudget inspect user_01h455vb4pex5vsknk084sn02q
            """,
        version: "\(IDBudgetVersion.current) (generator system layer: \(SecureRandom.systemLayer)) (kernels: \(SecureRandom.kernels))",
        subcommands: [
            ProbabilityCommand.self, LengthCommand.self, CapacityCommand.self, PlanCommand.self, SchemesCommand.self, GenerateCommand.self,
            RetriesCommand.self, InspectCommand.self,
            AuditCommand.self,
        ]
    )
}
