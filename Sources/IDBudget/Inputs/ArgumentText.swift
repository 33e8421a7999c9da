import Foundation

/// Text that one argument cannot take: the argument (`--rate`, as the CLI names it) and what to give
/// instead. The CLI prints it as `idbudget: error: ARGUMENT: MESSAGE`; the server answers it as a 400.
public struct ArgumentError: Error, Equatable, CustomStringConvertible {
    public let argument: String
    public let message: String
    public init(_ argument: String, _ message: String) {
        self.argument = argument
        self.message = message
    }
    public var description: String { "\(argument): \(message)" }
}

/// The values the planner's options take, read from text as every front end reads them (the CLI's
/// options, the server's query parameters), with the refusal naming the argument.
public enum ArgumentText {
    /// Symbols per id: a whole number from 1.
    public static func length(_ text: String) throws(ArgumentError) -> Int {
        let text = text.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy({ ("0"..."9").contains($0) }), Int(text) == nil {
            throw ArgumentError("--length", "'\(text.prefix(40))' is absurdly long; give at most 1048576")
        }
        guard let n = wholeNumber(text) else {
            throw ArgumentError("--length", "'\(text)' is not a whole number; give one of at least 1, e.g. --length 22")
        }
        guard n >= 1 else { throw ArgumentError("--length", "'\(text)' must be at least 1; e.g. --length 22") }
        return n
    }

    /// A positive whole number written exactly: `1000000`, `3.1536e14`, `1_000`, `2^64`, `2^64-1`.
    /// Spaces around it are ignored, as in budgets and rates (a quoted `' 1000'` from a script).
    /// With `allowingZero`, 0 is taken too (`generate --count 0`: an empty batch).
    public static func integer(_ text: String, argument: String, example: String, allowingZero: Bool = false) throws(ArgumentError)
        -> BigInt
    {
        let minimum = BigInt(allowingZero ? 0 : 1)
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.contains("^") {
            // b^k, b^k±m, e.g. 2^64, 2^64-1: exact, as large as the counts the math accepts.
            guard let value = ExactDecimal(text), let n = value.integerValue, value.log10Magnitude < Double(Limits.maxCountDigits) else {
                throw ArgumentError(
                    argument,
                    "'\(text)' is not a power b^k or b^k±m (whole b from 1 to 1000000, k ≥ 0) below 1e\(Limits.maxCountDigits); e.g. 2^64 or 2^64-1"
                )
            }
            guard n >= minimum else { throw ArgumentError(argument, "'\(text)' must be at least 1; give e.g. \(example)") }
            return n
        }
        if text.hasPrefix("-") {
            throw ArgumentError(argument, "'\(text)' is negative; give a whole number ≥ \(allowingZero ? 0 : 1) such as \(example)")
        }
        guard let value = ExactDecimal(text) else {
            if let negative = ExactDecimal.exponentBeyondInt(text) ?? ExactDecimal.exponentOutOfRange(text).map({ !$0 }) {
                throw ArgumentError(
                    argument,
                    negative
                        ? "'\(text)' is not a whole number; give e.g. \(example)"
                        : "'\(text)' is absurdly large; give less than 1e\(Limits.maxCountDigits)")
            }
            throw ArgumentError(argument, "'\(text)' is not a number; give a whole number such as \(example)")
        }
        guard value.log10Magnitude < Double(Limits.maxCountDigits) else {
            throw ArgumentError(argument, "'\(text)' is absurdly large; give less than 1e\(Limits.maxCountDigits)")
        }
        guard let n = value.integerValue else { throw ArgumentError(argument, "'\(text)' is not a whole number; give e.g. \(example)") }
        guard n >= minimum else { throw ArgumentError(argument, "'\(text)' must be at least 1; give e.g. \(example)") }
        return n
    }

    /// A whole number in any form the other options take (`64`, `2^21`, `1e6`), when it fits an Int.
    public static func wholeNumber(_ text: String) -> Int? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let n = Int(text) { return n }
        guard text.count <= 64, let value = ExactDecimal(text), value.log10Magnitude < 18 else { return nil }
        return value.integerValue?.intValue
    }

    public static func rate(_ text: String, argument: String = "--rate") throws(ArgumentError) -> Rate {
        do { return try Rate(parsing: text) } catch { throw ArgumentError(argument, error.message) }
    }

    public static func lifetime(_ text: String) throws(ArgumentError) -> Lifetime {
        do { return try Lifetime(parsing: text) } catch { throw ArgumentError("--lifetime", error.message) }
    }

    public static func growth(_ text: String) throws(ArgumentError) -> Growth {
        do { return try Growth(parsing: text) } catch { throw ArgumentError("--growth", error.message) }
    }

    public static func arrivals(_ text: String) throws(ArgumentError) -> Arrivals {
        do { return try Arrivals(parsing: text) } catch { throw ArgumentError("--arrivals", error.message) }
    }

    /// `audit --scheme`: a node-id layout the audit reads ids in; none of them has random bits to
    /// claim, so not with `--bits`.
    public static func auditScheme(_ name: String, claimingBits: Bool) throws(ArgumentError) -> IDFormat {
        guard let format = IDFormat.named(name), NodeStats.formats.contains(format) else {
            throw ArgumentError(
                "--scheme",
                "'\(name.prefix(40))' is not a node-id layout the audit reads (\(NodeStats.formats.map(\.rawValue).joined(separator: ", "))); other formats are recognised without it"
            )
        }
        if claimingBits { throw ArgumentError("--scheme", "a node-id layout has no random bits to claim; drop --bits") }
        return format
    }

    /// `audit --alphabet A --length L [--max-invalid N]`: the shape every id must have (nil when none of
    /// the three is given); not with `--bits` or `--scheme`, which the declaration replaces.
    public static func declaredShape(
        alphabet: String?, length: String?, maxInvalid: String?, claimingBits: Bool, scheme: Bool
    ) throws(ArgumentError) -> DeclaredShape? {
        guard alphabet != nil || length != nil || maxInvalid != nil else { return nil }
        guard let alphabet else {
            throw ArgumentError(
                length != nil ? "--length" : "--max-invalid", "declares a shape with --alphabet; add e.g. --alphabet base62")
        }
        guard let named = Alphabet.named(alphabet) else {
            let names = Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")
            throw ArgumentError("--alphabet", "'\(alphabet.prefix(40))' is not an alphabet; give one of \(names)")
        }
        guard let length else { throw ArgumentError("--alphabet", "declares a shape with --length; add e.g. --length 22") }
        guard let l = Int(length), l >= 1, l <= 4096 else {
            throw ArgumentError("--length", "'\(length.prefix(40))' is not a length from 1 to 4096; e.g. --length 22")
        }
        var allowed = 0
        if let maxInvalid {
            guard let m = Int(maxInvalid), m >= 0 else {
                throw ArgumentError("--max-invalid", "'\(maxInvalid.prefix(40))' is not a count of lines from 0; e.g. --max-invalid 1")
            }
            allowed = m
        }
        if claimingBits { throw ArgumentError("--bits", "the declared --alphabet and --length are the space; leave --bits out") }
        if scheme { throw ArgumentError("--scheme", "the declared --alphabet and --length are the layout; leave --scheme out") }
        do { return try DeclaredShape(alphabet: named, length: l, maxInvalid: allowed) } catch {
            throw ArgumentError("--length", error.message)
        }
    }

    public static func budget(_ text: String) throws(ArgumentError) -> Budget {
        do { return try Budget(parsing: text) } catch { throw ArgumentError("--max-probability", error.message) }
    }
}

/// How many identifiers, as text: a count (or a count per scope), or a rate over a lifetime, with
/// scopes, nodes, growth, ids already stored, a peak rate and an arrivals model — the CLI's volume
/// options, read in the order its commands read them so the first refusal names the same argument.
public struct VolumeText: Sendable {
    public var count, countPerScope, rate, lifetime, scopes, nodes, growth, existing, peakRate, arrivals: String?

    public init(
        count: String? = nil, countPerScope: String? = nil, rate: String? = nil, lifetime: String? = nil, scopes: String? = nil,
        nodes: String? = nil, growth: String? = nil, existing: String? = nil, peakRate: String? = nil, arrivals: String? = nil
    ) {
        (self.count, self.countPerScope, self.rate, self.lifetime, self.scopes) = (count, countPerScope, rate, lifetime, scopes)
        (self.nodes, self.growth, self.existing, self.peakRate, self.arrivals) = (nodes, growth, existing, peakRate, arrivals)
    }

    /// The volume, for `scheme` when one is given (its buckets, its arrivals).
    public func volume(scheme: Scheme? = nil) throws(ArgumentError) -> Volume {
        if arrivals != nil, scheme?.bucket == nil || rate == nil {
            _ = try arrivals.map { (t: String) throws(ArgumentError) -> Arrivals in try ArgumentText.arrivals(t) }
            throw ArgumentError(
                "--arrivals",
                "arrivals matter only for time-bucketed schemes (uuid7, ulid, ksuid, typeid, firebase) with --rate and --lifetime")
        }
        let workload = try workload()
        do { return try workload.volume(scheme: scheme) } catch { throw ArgumentError("--\(error.field.rawValue)", error.message) }
    }

    /// The workload the text describes, before a scheme gives it buckets.
    public func workload() throws(ArgumentError) -> Workload {
        let arrivalModel = try arrivals.map { (t: String) throws(ArgumentError) -> Arrivals in try ArgumentText.arrivals(t) } ?? .poisson
        let growthValue = try growth.map { (t: String) throws(ArgumentError) -> Growth in try ArgumentText.growth(t) }
        let existingCount =
            try existing.map { (t: String) throws(ArgumentError) -> BigInt in
                try ArgumentText.integer(t, argument: "--existing", example: "1000000", allowingZero: true)
            } ?? BigInt(0)
        let scopes =
            try scopes.map { (t: String) throws(ArgumentError) -> BigInt in
                try ArgumentText.integer(t, argument: "--scopes", example: "100000000")
            } ?? BigInt(1)
        let nodes =
            try nodes.map { (t: String) throws(ArgumentError) -> BigInt in try ArgumentText.integer(t, argument: "--nodes", example: "12") }
            ?? BigInt(1)
        if countPerScope != nil && count != nil {
            throw ArgumentError("--count-per-scope", "give --count or --count-per-scope, not both")
        }
        let workload: Workload
        if let fixed = count ?? countPerScope {
            let argument = count != nil ? "--count" : "--count-per-scope"
            // Name what was given with the count, and only that.
            if rate != nil { throw ArgumentError(argument, "give \(argument) or --rate (with --lifetime), not both") }
            if lifetime != nil { throw ArgumentError("--lifetime", "a lifetime goes with --rate; with \(argument), leave --lifetime out") }
            if peakRate != nil { throw ArgumentError("--peak-rate", "a peak rate goes with --rate and --lifetime, not with \(argument)") }
            if growth != nil { throw ArgumentError("--growth", "a growth goes with --rate and --lifetime, not with \(argument)") }
            let n = try ArgumentText.integer(fixed, argument: argument, example: "1000000 or 3.1536e14")
            workload = Workload(count: n, nodes: nodes, scopes: scopes, existing: existingCount)
        } else {
            guard let rateText = rate else {
                if peakRate != nil {
                    throw ArgumentError("--rate", "--peak-rate needs the average rate too; add e.g. --rate 1e6/s --lifetime 10y")
                }
                throw ArgumentError("--count", "no volume given; add --count N, or --rate 1e6/s --lifetime 10y")
            }
            guard let lifetimeText = lifetime else { throw ArgumentError("--lifetime", "a rate needs a lifetime; add e.g. --lifetime 10y") }
            let lifetime = try ArgumentText.lifetime(lifetimeText)
            let peak = try peakRate.map { (t: String) throws(ArgumentError) -> Rate in try ArgumentText.rate(t, argument: "--peak-rate") }
            workload = Workload(
                rate: try ArgumentText.rate(rateText), lifetime: lifetime, nodes: nodes, peakRate: peak, scopes: scopes,
                growth: growthValue, arrivals: arrivalModel, existing: existingCount)
        }
        return workload
    }
}

/// `length`'s dates, as text: the day minting starts (`--from`, for the schedule's dates) and the day
/// the lifetime ends (`--until`, instead of `--lifetime`).
public struct DatesText: Sendable {
    public var until, from: String?

    public init(until: String? = nil, from: String? = nil) { (self.until, self.from) = (until, from) }

    /// Both days read, for a question that does not use them (a node-id format's): a value that is
    /// not a day is refused, not ignored.
    public func read() throws(ArgumentError) {
        for (name, text) in [("--from", from), ("--until", until)] {
            guard let text else { continue }
            do { _ = try Planner.startDate(parsing: text) } catch { throw ArgumentError(name, error.message) }
        }
    }

    /// `volume` with `--until` turned into its lifetime, and the start day (today, UTC, by default).
    public func resolve(_ volume: VolumeText) throws(ArgumentError) -> (volume: VolumeText, from: Date) {
        var start = Planner.today
        if let text = from {
            if volume.rate == nil { throw ArgumentError("--from", "a start date needs a rate; add e.g. --rate 1e6/s") }
            do { start = try Planner.startDate(parsing: text) } catch { throw ArgumentError("--from", error.message) }
        }
        var volume = volume
        if let text = until {
            guard volume.rate != nil else { throw ArgumentError("--until", "an end date needs a rate; add e.g. --rate 1e6/s") }
            guard volume.lifetime == nil else { throw ArgumentError("--until", "give --until or --lifetime, not both") }
            let end: Date
            do { end = try Planner.startDate(parsing: text) } catch { throw ArgumentError("--until", error.message) }
            let seconds = Int(end.timeIntervalSince(start).rounded())
            guard seconds > 0 else {
                throw ArgumentError("--until", "'\(text.prefix(40))' is not after the start day (--from, or today); give a later day")
            }
            volume.lifetime = "\(seconds)s"
        }
        return (volume, start)
    }
}
