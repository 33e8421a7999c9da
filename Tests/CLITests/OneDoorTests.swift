import ArgumentParser
import IDQuestions
import Testing

@testable import IDBudgetCLI

/// The CLI's planning commands ask the one layer (`IDQuestions`) that the server and the page ask: this
/// holds, in process, that each command offers every parameter the layer takes for it, under the same
/// name, and passes it on unchanged — so a question asked on the command line and over HTTP is the
/// same question by construction (CLIAgreementTests in Server/ hold the API's half in process;
/// CLIEndToEndTests run the real binary beside the server).
struct OneDoorTests {
    static let commands: [any (ParsableCommand & LayerCommand).Type] = [
        ProbabilityCommand.self, LengthCommand.self, CapacityCommand.self, PlanCommand.self, RetriesCommand.self,
    ]

    /// Parameters the layer reads for a command that its CLI does not offer (none now: `retries`'
    /// `existing`, `scopes` and `count-per-scope` are hidden options, refused by the layer with the
    /// reason, on the command line as in the API).
    static let notOffered: [Question.Command: Set<String>] = [:]

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

extension OneDoorTests {
    /// A name the command does not read is refused by the layer too (the API refuses it before, the
    /// CLI's parser likewise): a library caller's typo is not silently ignored.
    @Test func unknownNamesAreRefused() {
        do {
            _ = try Question(.length, ["alphabet": "base62", "count": "1e6", "max-probability": "1e-9", "bogus": "x"])
            Issue.record("an unknown name was taken")
        } catch {
            #expect(error.argument == "bogus" && error.message.hasPrefix("unknown parameter; length takes"))
        }
        do {
            _ = try AuditSettings(["threads": "2", "rate": "1/s"])
            Issue.record("an unknown audit setting was taken")
        } catch {
            #expect(error.argument == "rate")
        }
    }

    /// A scheme in any case is the scheme, for inspect as for every other command.
    @Test func schemesInAnyCase() throws {
        #expect(try Question.inspectFormats("UUID7") == [.uuid7])
        _ = try Question(.probability, ["scheme": "UUID7", "count": "1e6"])
        #expect(throws: ArgumentError.self) { try Question.inspectFormats("uuid9") }
    }

    /// A negative value: the CLI refuses it before its parser sees it (`Entry.checkArguments`), the
    /// layer before it reads any value; the two refusals are one.
    @Test(arguments: [
        ("probability", "count"), ("probability", "length"), ("capacity", "scopes"), ("plan", "max-bytes"), ("probability", "rate"),
        ("retries", "max-attempts"), ("probability", "alphabet-size"), ("length", "existing"), ("probability", "peak-rate"),
    ])
    func negativesAreRefusedAlike(command: String, name: String) throws {
        let asked = try #require(Question.Command(rawValue: command))
        let layer: ArgumentError
        do {
            _ = try Question(asked, Arguments([name: "-5"]))
            Issue.record("-5 was taken")
            return
        } catch {
            layer = error
        }
        #expect(throws: Never.self) { try Entry.checkArguments([command, "--alphabet", "base62"]) }
        do {
            try Entry.checkArguments([command, "--\(name)", "-5"])
            Issue.record("the CLI took -5")
        } catch let error as UsageError {
            #expect(error.argument == layer.flag && error.message == layer.message, "\(command) --\(name)")
        }
        do {
            _ = try AuditSettings(["max-line-bytes": "-1"])
            Issue.record("-1 was taken")
        } catch {
            #expect(error.message == "'-1' is negative; it must be at least 1")
        }
    }
}

extension OneDoorTests {
    /// `generate` reads its options through the layer too (`GenerateSettings`): each one it offers is
    /// a parameter of the layer's, passed on unchanged, and a refusal is the layer's.
    @Test func generateAsksTheLayer() throws {
        let valued = GenerateSettings.parameters.filter { !["allow-whitespace", "monotonic"].contains($0) }
        let parsed = try GenerateCommand.parse(valued.flatMap { ["--\($0)", "value-of-\($0)"] } + ["--allow-whitespace", "--monotonic"])
        let named = Dictionary(parsed.named.compactMap { name, value in value.map { (name, $0) } }, uniquingKeysWith: { a, _ in a })
        var want = Dictionary(uniqueKeysWithValues: valued.map { ($0, "value-of-\($0)") })
        want["allow-whitespace"] = "true"
        want["monotonic"] = "true"
        #expect(named == want)
        let off = try GenerateCommand.parse(["--no-monotonic"]).named.first { $0.0 == "monotonic" }?.1
        #expect(off == "false")
        do {
            _ = try GenerateSettings(["scheme": "uuid4", "node": "3"], now: 0)
            Issue.record("a node was taken for uuid4")
        } catch {
            #expect(error.argument == "node" && error.message == "uuid4 ids have no node field; drop --node")
        }
        let settings = try GenerateSettings(["alphabet": "hex", "length": "8", "count": "3", "prefix": "k_"], now: 0)
        guard case .tokens(let symbols, let length, nil) = settings.kind else {
            Issue.record("not tokens: \(settings.kind)")
            return
        }
        #expect(symbols == Array("0123456789abcdef".utf8) && length == 8 && settings.count == 3 && settings.prefix == Array("k_".utf8))
    }
}

extension OneDoorTests {
    /// People's spellings, read into the CLI's syntax by the layer (the page sends them so): odds as a
    /// budget exactly, digit groups closed up; anything else left for the layer's own refusal.
    @Test func typedTextReadsPeoplesSpellings() {
        #expect(TypedText.budget("1 in 10^11") == "10^-11" && TypedText.budget("1 in 2^40") == "2^-40")
        // In the fewest decimals (1/n exactly; the references are Python's Decimal).
        #expect(TypedText.budget("1 in 1,000,000") == "0.000001" && TypedText.budget("1 in 8") == "0.125")
        #expect(TypedText.budget("1 in 1099511627776") == "0.0000000000009094947017729282379150390625")
        #expect(TypedText.budget("1 in 20") == "0.05" && TypedText.budget("1 in 40") == "0.025")
        // Powers typeset in superscripts, as people paste them.
        #expect(TypedText.budget("1 in 10¹¹") == "10^-11" && TypedText.budget("1 in 2⁴⁰") == "2^-40")
        #expect(TypedText.plain("10⁻¹¹") == "10^-11" && TypedText.plain("10⁶/s") == "10^6/s" && TypedText.plain("x²y") == "x^2y")
        #expect(TypedText.budget("1 in 3") == "1in3" && TypedText.budget("1e-9") == "1e-9")
        // The odds in the words the page prints them in (short scale), and a typeset minus sign.
        #expect(TypedText.budget("1 in 100 billion") == "0.00000000001")
        #expect(TypedText.budget("1 in 1 million") == TypedText.budget("1 in 1,000,000"))
        #expect(TypedText.budget("1 in 3.4 trillion") == "1in3.4trillion" && TypedText.budget("1 in 10 zillion") == "1in10zillion")
        #expect(TypedText.budget("1e\u{2212}11") == "1e-11" && TypedText.plain("\u{2212}5") == "-5")
        #expect(TypedText.plain("1,000,000") == "1000000" && TypedText.plain("10 years") == "10years")
        // A decimal comma is not a digit group: left for the layer to refuse, not read as 15.
        #expect(TypedText.plain("1,5") == "1,5" && TypedText.plain("0,000001") == "0,000001" && TypedText.plain("1,0000") == "1,0000")
        #expect(TypedText.plain("12,345,678.5") == "12345678.5" && TypedText.plain("1,000/s") == "1000/s")
    }
}

extension OneDoorTests {
    /// A refusal found only while computing blames the input the library names
    /// (`InputError.argument`), not a guess by command: a growth too steep for a UUIDv7's
    /// milliseconds is the growth's fault, though `probability` once blamed `count`, which was not
    /// given. The message names no flag.
    @Test(arguments: [
        (Question.Command.probability, ["scheme": "uuid7", "rate": "1e3/s", "lifetime": "1d", "growth": "1000x/s"], "growth"),
        (.probability, ["scheme": "uuid7", "rate": "1e3/s", "lifetime": "1d", "growth": "1e6x/ms"], "growth"),
        (.length, ["scheme": "uuid7", "rate": "1e3/s", "lifetime": "1d", "growth": "1000x/s", "max-probability": "1e-6"], "growth"),
    ])
    func computingRefusalsBlameWhatTheLibraryNames(command: Question.Command, named: [String: String], argument: String) throws {
        do {
            _ = try Question(command, Arguments(named)).answer()
            Issue.record("\(named) was answered")
        } catch {
            #expect(error.argument == argument, "\(error)")
            #expect(!error.message.contains("--"), "\(error.message)")
        }
    }
}

extension OneDoorTests {
    /// The layer's refusals name the arguments they mention as names (`Words`), never in one front
    /// end's syntax: the CLI writes them `--nodes 50`, a query `nodes=50`, and no text of the layer's
    /// own carries a flag.
    @Test(arguments: [
        (Question.Command.probability, ["scheme": "snowflake", "rate": "1e9/s", "lifetime": "1d"], "nodes", "nodes=50", "--nodes 50"),
        (.probability, [:], "bits", "alphabet=base62 length=22", "--alphabet base62 --length 22"),
        (.retries, ["bits": "10", "count": "500", "max-probability": "1e-11"], "max-probability", "max-attempts=3", "--max-attempts 3"),
        (.plan, ["rate": "1e3/s", "max-probability": "1e-11"], "lifetime", "lifetime=10y", "--lifetime 10y"),
        (.length, ["alphabet": "base62", "symbols": "ab", "count": "5", "max-probability": "1e-6"], "alphabet", "symbols", "--symbols"),
        (
            .capacity, ["scheme": "snowflake", "max-probability": "1e-6"], "scheme", "scheme=snowflake nodes=50",
            "--scheme snowflake --nodes 50"
        ),
        (.retries, ["scheme": "xid", "count": "1000"], "scheme", "scheme=xid nodes=50", "--scheme xid --nodes 50"),
    ])
    func refusalsNameArgumentsNotFlags(
        command: Question.Command, named: [String: String], argument: String, query: String, commandLine: String
    ) throws {
        do {
            _ = try Question(command, Arguments(named)).answer()
            Issue.record("\(named) was answered")
        } catch {
            #expect(error.argument == argument, "\(error)")
            #expect(error.words.written(.query).contains(query), "\(error.words.written(.query))")
            #expect(error.message.contains(commandLine) && error.message == error.words.written(.commandLine), "\(error.message)")
            #expect(!error.words.arguments.isEmpty)
            for case .text(let text) in error.words.parts {
                #expect(text.range(of: #"--[a-z]"#, options: .regularExpression) == nil, "flag syntax in the layer's text: \(text)")
            }
            #expect(!error.words.written(.query).contains("--"), "\(error.words.written(.query))")
        }
    }

    /// More ids than any length of the alphabet holds: the volume is blamed, not the budget — the
    /// count, the rate it came from, or the ids stored before when they are most of it.
    @Test(arguments: [
        (Question.Command.length, ["alphabet": "base62", "count": "1e400000", "max-probability": "0.999999"], "count"),
        (.length, ["alphabet": "base62", "rate": "1e399990/s", "lifetime": "10y", "max-probability": "0.5"], "rate"),
        (.plan, ["count": "1e9", "existing": "1e639999", "max-probability": "1e-9"], "existing"),
    ])
    func tooManyIdsBlameTheVolume(command: Question.Command, named: [String: String], blamed: String) throws {
        let error = #expect(throws: ArgumentError.self) { try Question(command, Arguments(named)).answer() }
        #expect(error?.argument == blamed, "\(error?.description ?? "answered")")
    }

    /// Two negative values: the first by name is blamed, on the command line in either spelling as by
    /// the layer (a query's parameters have no order).
    @Test(arguments: [
        (["--nodes", "-3", "--count", "-5"], ["nodes": "-3", "count": "-5"], "count"),
        (["--nodes", "-3", "--count=-5"], ["nodes": "-3", "count": "-5"], "count"),
        (["--scopes", "-1", "--existing", "-2"], ["scopes": "-1", "existing": "-2"], "existing"),
    ])
    func twoNegativesBlameTheFirstByName(cli: [String], named: [String: String], blamed: String) throws {
        do {
            try Entry.checkArguments(["probability", "--alphabet", "base62", "--length", "22"] + cli)
            Issue.record("the CLI took \(cli)")
        } catch let error as UsageError {
            #expect(error.argument == "--" + blamed, "\(cli)")
        }
        let layer = #expect(throws: ArgumentError.self) {
            try Question(.probability, Arguments(named.merging(["alphabet": "base62", "length": "22"]) { a, _ in a }))
        }
        #expect(layer?.argument == blamed)
    }

    /// Only options of the command that take numbers are refused as negative: a text that starts with
    /// `-1` is the text it is, and an option the command lacks is left to be called unknown (as the
    /// layer calls it); a value that is no number is not called negative.
    @Test func onlyNumbersAreNegative() throws {
        for taken in [
            ["generate", "--count", "2", "--prefix=-1_"], ["audit", "ids.txt", "--field=-1"],
            ["audit", "ids.txt", "--emit-summary=-1.json"],
            ["capacity", "--bits", "64", "--max-probability", "1e-9", "--nodes", "-3"], ["schemes", "--count", "-5"],
        ] {
            #expect(throws: Never.self, "\(taken)") { try Entry.checkArguments(taken) }
        }
        let notANumber = #expect(throws: ArgumentError.self) { try Question(.probability, ["bits": "64", "count": "-x"]) }
        #expect(notANumber?.message.contains("is not a number") == true, "\(notANumber?.message ?? "")")
    }

    @Test func wordsAreWrittenInEachStyle() {
        let words: Words = "'\("--x")' is not a count; give \(arg: "count", "5") or \(arg: "--rate") with \(arg: "lifetime")"
        #expect(words.written(.commandLine) == "'--x' is not a count; give --count 5 or --rate with --lifetime")
        #expect(words.written(.query) == "'--x' is not a count; give count=5 or rate with lifetime")
        #expect(words.arguments == ["count", "rate", "lifetime"])
        #expect(Words("leave --x as sent").written(.query) == "leave --x as sent")
    }
}
