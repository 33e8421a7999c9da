import ArgumentParser
import Foundation
import IDBudget

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

struct FormatOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Output format: text (a table) or json (schema docs/schema/idbudget-output.schema.json).", valueName: "format"))
    var format: OutputFormat = .text
}
