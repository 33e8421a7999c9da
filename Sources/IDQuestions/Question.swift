import Foundation
import IDBudget

/// The planner's questions as every front end asks them — the CLI's commands, the server's API, the
/// page's form: ``Arguments`` named as the CLI's options, resolved once, in one order (so the first
/// refusal names the same argument wherever it is asked), answered by one `Planner` call. Resolving
/// is cheap; `answer()` is the computation.
public enum Question: Sendable {
    case probability(space: Space, volume: Volume, scheme: Scheme?)
    /// A node-id scheme: p that two of `nodes` live nodes share a node value (the CLI's `probability
    /// --scheme snowflake --nodes 50`).
    case nodeProbability(scheme: Scheme, nodes: BigInt, assigned: Bool?, rate: Rate?, ignored: [String])
    case length(symbols: Symbols, volume: Volume, budget: Budget, maxBytes: Int?, from: Date)
    /// `length --scheme F`: whether a random format is within budget.
    case formatLength(scheme: Scheme, volume: Volume, budget: Budget, maxBytes: Int?)
    /// `length --scheme F --nodes K` for a node-id format: whether its node field is wide enough.
    case nodeLength(scheme: Scheme, nodes: BigInt, assigned: Bool?, rate: Rate?, ignored: [String], budget: Budget, maxBytes: Int?)
    case capacity(CapacityQuestion)
    case retries(RetriesQuestion)
    case plan(volume: Volume, budget: Budget, maxBytes: Int, formats: [(scheme: Scheme, volume: Volume)], formatNotes: [String])
    case schemes
    case inspect(id: String, formats: [InspectableFormat])

    /// The commands, by the name the API's path uses.
    public enum Command: String, CaseIterable, Sendable {
        case probability, length, capacity, plan, retries, schemes, inspect

        /// The parameters each takes (the CLI's options, without `--format`).
        public var parameters: [String] {
            switch self {
            case .probability: Self.space + Self.volume + ["peak-rate", "node-ids", "arrivals"]
            case .length:
                Self.alphabet + ["scheme"] + Self.volume + ["max-probability", "max-bytes", "until", "from", "arrivals", "node-ids"]
            case .capacity: Self.space + ["max-probability", "rate", "scopes", "growth", "existing", "arrivals", "from"]
            case .plan: Self.volume + ["max-probability", "max-bytes"]
            case .retries: Self.space + Self.volume + ["max-attempts", "max-probability"]
            case .schemes: []
            case .inspect: ["id", "scheme"]
            }
        }

        static let alphabet = ["alphabet", "symbols", "alphabet-size"]
        static let space = alphabet + ["length", "bits", "space-size", "scheme"]
        static let volume = ["count", "rate", "lifetime", "scopes", "count-per-scope", "nodes", "growth", "existing"]
    }

    /// The question `command` asks with `arguments`, or the refusal the CLI would give.
    public init(_ command: Command, _ arguments: Arguments) throws(ArgumentError) {
        try arguments.check(known: command.parameters, command: command.rawValue)
        switch command {
        case .probability:
            if let scheme = try resolveScheme(arguments), scheme.node != nil {
                self = try Self.nodeQuestion(scheme, arguments)
                return
            }
            if arguments["node-ids"] != nil { throw Self.nodeIDsRefusal }
            let space = try resolveSpace(arguments)
            let scheme = try resolveScheme(arguments)
            let volume = try resolveVolume(arguments, scheme: scheme, peakRate: arguments["peak-rate"])
            self = .probability(space: space, volume: volume, scheme: scheme)
        case .length:
            let budgetText = try arguments["max-probability"].orUsage(
                "--max-probability", "missing; give a maximum collision probability, e.g. 1e-11")
            if let scheme = try resolveScheme(arguments) {
                self = try Self.formatLength(scheme, arguments, budgetText: budgetText)
                return
            }
            if arguments["node-ids"] != nil { throw Self.nodeIDsRefusal }
            let symbols = try Symbols(
                alphabet: arguments["alphabet"], symbols: arguments["symbols"], alphabetSize: arguments["alphabet-size"])
            let (volume, from) = try resolveDatedVolume(arguments)
            let budget = try ArgumentText.budget(budgetText)
            let limit = try ArgumentText.maxBytes(arguments["max-bytes"])
            if limit != nil, case .size(let n) = symbols, n > Planner.printableASCIICount {
                throw ArgumentError(
                    "--max-bytes",
                    "the bytes of \(n) symbols are unknown (printable ASCII holds \(Planner.printableASCIICount)); give \(arg: "symbols") to check a byte limit"
                )
            }
            self = .length(symbols: symbols, volume: volume, budget: budget, maxBytes: limit, from: from)
        case .capacity:
            let budgetText = try arguments["max-probability"].orUsage(
                "--max-probability", "missing; give a maximum collision probability, e.g. 1e-11")
            let space = try resolveSpace(arguments)
            let text = CapacityText(
                maxProbability: budgetText, rate: arguments["rate"], scopes: arguments["scopes"], growth: arguments["growth"],
                existing: arguments["existing"], arrivals: arguments["arrivals"], from: arguments["from"])
            let scheme = try resolveScheme(arguments)
            self = .capacity(try text.question(space: space, scheme: scheme))
        case .plan:
            let budgetText = try arguments["max-probability"].orUsage(
                "--max-probability", "missing; give a maximum collision probability, e.g. 1e-11")
            let volume = try resolveVolume(arguments)
            let budget = try ArgumentText.budget(budgetText)
            let limit = try ArgumentText.maxBytes(arguments["max-bytes"])
            let (formats, notes) = try volumeText(arguments).workload().formatVolumes()
            self = .plan(volume: volume, budget: budget, maxBytes: limit ?? Self.apnsCollapseIDBytes, formats: formats, formatNotes: notes)
        case .retries:
            let space = try resolveSpace(arguments)
            let text = RetriesText(
                volume: volumeText(arguments), maxAttempts: arguments["max-attempts"], maxProbability: arguments["max-probability"])
            let scheme = try resolveScheme(arguments)
            self = .retries(try text.question(space: space, scheme: scheme))
        case .schemes:
            self = .schemes
        case .inspect:
            guard let id = arguments["id"] else {
                throw ArgumentError("id", operand: true, "missing; give one, e.g. user_01h455vb4pex5vsknk084sn02q")
            }
            self = .inspect(id: id, formats: try Self.inspectFormats(arguments["scheme"]))
        }
    }

    /// The formats `inspect` reads an id as: the one `scheme` names, or all of them.
    public static func inspectFormats(_ scheme: String?) throws(ArgumentError) -> [InspectableFormat] {
        guard let scheme else { return InspectableFormat.allCases }
        // In any case, as every other command takes a scheme (`UUID7`).
        let format = try InspectableFormat(rawValue: scheme.lowercased()).orUsage(
            "--scheme",
            "'\(scheme)' is not a format inspect reads; use one of \(InspectableFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        return [format]
    }

    /// A node-id scheme's question, refused as the CLI's `probability` refuses it: the nodes are
    /// needed, the rate is per node, a peak rate has no meaning; a count, lifetime or scopes are noted
    /// as not used.
    static func nodeQuestion(_ scheme: Scheme, _ arguments: Arguments) throws(ArgumentError) -> Question {
        for other in ["alphabet", "symbols", "alphabet-size", "length", "bits", "space-size"] where arguments[other] != nil {
            throw ArgumentError(
                secondSpaceArgument(arguments),
                "give one space: \(arg: "alphabet")/\(arg: "symbols")/\(arg: "alphabet-size") with \(arg: "length"), or \(arg: "bits"), \(arg: "space-size") or \(arg: "scheme")"
            )
        }
        let nodesText = try arguments["nodes"].orUsage(
            "--nodes",
            "\(scheme.name) ids are kept apart by their \(scheme.node?.name ?? "node"); say how many nodes mint them, e.g. \(arg: "nodes", "50")"
        )
        let nodes = try ArgumentText.integer(nodesText, argument: "--nodes", example: "50")
        let rate = try arguments["rate"].map { (text: String) throws(ArgumentError) -> Rate in try ArgumentText.rate(text) }
        // A bucket's figures mean nothing to a node-id format (the CLI refuses them first).
        for name in ["peak-rate", "arrivals"] where arguments[name] != nil {
            throw ArgumentError(
                "--\(name)", "\(scheme.name) ids are kept apart by their node field, not by random bits per bucket; leave it out")
        }
        var assigned: Bool?
        if let how = arguments["node-ids"] {
            guard how == "random" || how == "assigned" else {
                throw ArgumentError("--node-ids", "'\(how.prefix(40))' is not random or assigned; e.g. \(arg: "node-ids", "assigned")")
            }
            assigned = how == "assigned"
        }
        // Not used, but still read, as the CLI reads them: a value that is not one (`growth=5C`) is refused, not ignored.
        for (name, example) in [("count", "1e9"), ("scopes", "10"), ("existing", "1e9"), ("count-per-scope", "1e6")] {
            if let text = arguments[name] {
                _ = try ArgumentText.integer(text, argument: "--\(name)", example: example, allowingZero: name == "existing")
            }
        }
        if let text = arguments["lifetime"] { _ = try ArgumentText.lifetime(text) }
        if let text = arguments["growth"] { _ = try ArgumentText.growth(text) }
        let ignored = ["count", "lifetime", "scopes", "existing", "count-per-scope", "growth"].filter { arguments[$0] != nil }
        return .nodeProbability(scheme: scheme, nodes: nodes, assigned: assigned, rate: rate, ignored: ignored)
    }

    static let nodeIDsRefusal = ArgumentError(
        "--node-ids",
        "node ids matter only for node-id schemes (\(Scheme.all.filter { $0.node != nil }.map(\.name).joined(separator: ", "))); leave it out"
    )

    /// `length --scheme F`, refused as the CLI's `length` refuses it.
    static func formatLength(_ scheme: Scheme, _ arguments: Arguments, budgetText: String) throws(ArgumentError) -> Question {
        for other in ["alphabet", "symbols", "alphabet-size"] where arguments[other] != nil {
            throw ArgumentError(
                "--scheme",
                "give \(arg: "scheme") or an alphabet (\(arg: "alphabet"), \(arg: "symbols"), \(arg: "alphabet-size")), not both")
        }
        let budget = try ArgumentText.budget(budgetText)
        let limit = try ArgumentText.maxBytes(arguments["max-bytes"])
        if scheme.node != nil {
            guard case .nodeProbability(_, let nodes, let assigned, let rate, let ignored) = try nodeQuestion(scheme, arguments) else {
                throw ArgumentError("--scheme", "not a node-id scheme")
            }
            if arguments["arrivals"] != nil {
                throw ArgumentError(
                    "--arrivals", "\(scheme.name) ids are kept apart by their node field, not by random bits per bucket; leave it out")
            }
            // `length`'s dates mean nothing to a node-id format either (named after the rest, as the CLI
            // does), but are read.
            try DatesText(until: arguments["until"], from: arguments["from"]).read()
            let dates = ["until", "from"].filter { arguments[$0] != nil }
            return .nodeLength(
                scheme: scheme, nodes: nodes, assigned: assigned, rate: rate, ignored: ignored + dates, budget: budget, maxBytes: limit)
        }
        if arguments["node-ids"] != nil { throw nodeIDsRefusal }
        let (volume, _) = try resolveDatedVolume(arguments, scheme: scheme)
        return .formatLength(scheme: scheme, volume: volume, budget: budget, maxBytes: limit)
    }

    /// The volume asked about, where the question has one.
    var volume: Volume? {
        switch self {
        case .probability(_, let volume, _), .length(_, let volume, _, _, _), .formatLength(_, let volume, _, _),
            .plan(let volume, _, _, _, _):
            volume
        default: nil
        }
    }

    /// `plan`'s default byte limit: an `apns-collapse-id`.
    public static let apnsCollapseIDBytes = 64

    /// The answer, as the CLI computes it; a refusal names the argument the CLI names.
    public func answer() throws(ArgumentError) -> any Answer {
        do {
            switch self {
            case .probability(let space, let volume, let scheme):
                return try Planner.probability(space: space, volume: volume, scheme: scheme)
            case .nodeProbability(let scheme, let nodes, let assigned, let rate, let ignored):
                var answer: ProbabilityAnswer
                do {
                    answer = try Planner.nodeProbability(scheme: scheme, nodes: nodes, assigned: assigned, ratePerNode: rate)
                } catch let error as InputError {
                    throw ArgumentError(blaming: error, else: "nodes")
                }
                if !ignored.isEmpty {
                    answer.notes.append("\(ignored.joined(separator: ", ")): not used; for a node-id format p depends on the nodes alone.")
                }
                return answer
            case .length(let symbols, let volume, let budget, let maxBytes, let from):
                switch symbols {
                case .alphabet(let a):
                    return try Planner.length(alphabet: a, volume: volume, budget: budget, maxBytes: maxBytes, from: from)
                case .size(let n):
                    return try Planner.length(alphabetSize: n, volume: volume, budget: budget, maxBytes: maxBytes, from: from)
                }
            case .capacity(let question):
                return try question.answer()
            case .formatLength(let scheme, let volume, let budget, let maxBytes):
                do { return try Planner.length(scheme: scheme, volume: volume, budget: budget, maxBytes: maxBytes) } catch let error
                    as InputError
                {
                    throw ArgumentError(blaming: error, else: volume.growth != nil ? "growth" : "max-probability")
                }
            case .nodeLength(let scheme, let nodes, let assigned, let rate, let ignored, let budget, let maxBytes):
                var answer: FormatLengthAnswer
                do {
                    answer = try Planner.length(
                        scheme: scheme, nodes: nodes, assigned: assigned, ratePerNode: rate, budget: budget, maxBytes: maxBytes)
                } catch let error as InputError {
                    throw ArgumentError(blaming: error, else: "nodes")
                }
                if !ignored.isEmpty {
                    answer.notes.append("\(ignored.joined(separator: ", ")): not used; for a node-id format p depends on the nodes alone.")
                }
                return answer
            case .plan(let volume, let budget, let maxBytes, let formats, let formatNotes):
                return try Planner.plan(volume: volume, budget: budget, maxBytes: maxBytes, formats: formats, formatNotes: formatNotes)
            case .retries(let question):
                return try question.answer()
            case .schemes:
                return SchemesAnswer()
            case .inspect(let id, let formats):
                return InspectAnswer(inspecting: id, as: formats)
            }
        } catch let error as ArgumentError {
            throw error
        } catch var error as InputError {
            // A count the library refuses: the ids stored before when they are most of it, else the
            // rate when the count was a rate times a lifetime.
            if error.argument == "count", let volume {
                if volume.existing > volume.count {
                    error = InputError(error.message, argument: "existing")
                } else if volume.rate != nil {
                    error = InputError(error.message, argument: "rate")
                }
            }
            // The input the library names; else, for a probability the count, for the others the budget.
            if case .probability = self { throw ArgumentError(blaming: error, else: "count") }
            throw ArgumentError(blaming: error, else: "max-probability")
        } catch {
            throw ArgumentError("--max-probability", "\(error)")
        }
    }
}

func resolveScheme(_ arguments: Arguments) throws(ArgumentError) -> Scheme? {
    guard let scheme = arguments["scheme"] else { return nil }
    return try Scheme.named(scheme).orUsage(
        "--scheme", "unknown scheme '\(scheme)'; use one of \(Scheme.all.map(\.name).joined(separator: ", "))")
}

/// The argument a refusal of two spaces names, as the CLI names it: the second form given, in the
/// order scheme, bits, space size, alphabet/length (`--bits` when none is).
func secondSpaceArgument(_ arguments: Arguments) -> String {
    let alphabetGiven = arguments["alphabet"] != nil || arguments["symbols"] != nil || arguments["alphabet-size"] != nil
    let given = [
        ("--scheme", arguments["scheme"] != nil), ("--bits", arguments["bits"] != nil), ("--space-size", arguments["space-size"] != nil),
        (arguments["length"] != nil ? "--length" : "--alphabet", alphabetGiven || arguments["length"] != nil),
    ]
    let named = given.filter(\.1).map(\.0)
    return named.count > 1 ? named[1] : "--bits"
}

/// The identifier space: an alphabet and length, a number of bits, an explicit size, or a scheme.
func resolveSpace(_ arguments: Arguments) throws(ArgumentError) -> Space {
    let alphabetGiven = arguments["alphabet"] != nil || arguments["symbols"] != nil || arguments["alphabet-size"] != nil
    let length = arguments["length"]
    let bits = arguments["bits"]
    let spaceSize = arguments["space-size"]
    let forms = [alphabetGiven || length != nil, bits != nil, spaceSize != nil, arguments["scheme"] != nil].filter { $0 }.count
    guard forms == 1 else {
        throw ArgumentError(
            secondSpaceArgument(arguments),
            forms == 0
                ? "no identifier space given; add \(arg: "alphabet", "base62") \(arg: "length", "22"), or \(arg: "bits", "122"), \(arg: "space-size") N or \(arg: "scheme", "uuid4")"
                : "give one space: \(arg: "alphabet")/\(arg: "symbols")/\(arg: "alphabet-size") with \(arg: "length"), or \(arg: "bits"), \(arg: "space-size") or \(arg: "scheme")"
        )
    }
    if let scheme = try resolveScheme(arguments) {
        if let node = scheme.node {
            throw ArgumentError(
                "--scheme",
                "\(scheme.name) ids are kept apart by their \(node.name), not by random bits; ask instead for the chance two nodes share one: probability with \(arg: "scheme", scheme.name) \(arg: "nodes", "50")"
            )
        }
        do { return try Space(scheme: scheme) } catch { throw ArgumentError("--scheme", error.message) }
    }
    do {
        if let bits {
            guard let b = ArgumentText.wholeNumber(bits), b >= 1 else {
                throw ArgumentError("--bits", "'\(bits)' is not a whole number of bits ≥ 1; e.g. \(arg: "bits", "122")")
            }
            return try Space(bits: b)
        }
        if let spaceSize {
            return try Space(size: try ArgumentText.integer(spaceSize, argument: "--space-size", example: "1e12"))
        }
        let symbols = try Symbols(
            alphabet: arguments["alphabet"], symbols: arguments["symbols"], alphabetSize: arguments["alphabet-size"])
        let n = try ArgumentText.length(try length.orUsage("--length", "no length given; add e.g. \(arg: "length", "22")"))
        return try symbols.space(length: n)
    } catch let error as InputError {
        throw ArgumentError(bits != nil ? "--bits" : spaceSize != nil ? "--space-size" : "--length", error.message)
    } catch let error as ArgumentError {
        throw error
    } catch {
        throw ArgumentError("--length", "\(error)")
    }
}

/// How many identifiers: a count, or a rate over a lifetime; optionally per scope, per node, growing,
/// on top of ids already stored; read by the library as the CLI reads its volume options.
func resolveVolume(_ arguments: Arguments, scheme: Scheme? = nil, peakRate: String? = nil) throws(ArgumentError) -> Volume {
    var text = volumeText(arguments)
    (text.peakRate, text.arrivals) = (peakRate, arguments["arrivals"])
    return try text.volume(scheme: scheme)
}

/// `length`'s volume: `until` as its lifetime, and the start day (`from`, today by default).
func resolveDatedVolume(_ arguments: Arguments, scheme: Scheme? = nil) throws(ArgumentError) -> (Volume, Date) {
    let dates = DatesText(until: arguments["until"], from: arguments["from"])
    var (text, from) = try dates.resolve(volumeText(arguments))
    text.arrivals = arguments["arrivals"]
    let volume = try text.volume(scheme: scheme)
    return (volume, from)
}

/// The volume's parameters as text (without a peak rate or arrivals, which only some commands take).
func volumeText(_ arguments: Arguments) -> VolumeText {
    VolumeText(
        count: arguments["count"], countPerScope: arguments["count-per-scope"], rate: arguments["rate"], lifetime: arguments["lifetime"],
        scopes: arguments["scopes"], nodes: arguments["nodes"], growth: arguments["growth"], existing: arguments["existing"])
}
