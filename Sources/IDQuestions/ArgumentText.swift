import Foundation
import IDAudit
import IDBudget

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
            throw ArgumentError("--length", "'\(text)' is not a whole number; give one of at least 1, e.g. \(arg: "length", "22")")
        }
        guard n >= 1 else { throw ArgumentError("--length", "'\(text)' must be at least 1; e.g. \(arg: "length", "22")") }
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
        if text.hasPrefix("-"), ExactDecimal(String(text.dropFirst())) != nil {
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

    /// `audit --alphabet A --length L` or `audit --scheme F`, with `--max-invalid N`: the shape every
    /// id must have (nil when none is given); not with `--bits`, which the declaration replaces. F is
    /// any scheme `idbudget schemes` lists but `apns-collapse-id` (any string: no shape to declare);
    /// `apns-id` and `notification-request-id` declare a UUIDv4.
    public static func declaredShape(
        alphabet: String?, length: String?, maxInvalid: String?, scheme: String?, claimingBits: Bool
    ) throws(ArgumentError) -> DeclaredShape? {
        guard alphabet != nil || length != nil || maxInvalid != nil || scheme != nil else { return nil }
        var allowed = 0
        if let maxInvalid {
            // Digits only, as the API's schema writes it: no sign, no spaces.
            guard maxInvalid.utf8.count <= 18, maxInvalid == "0" || maxInvalid.first != "0",
                maxInvalid.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let m = Int(maxInvalid)
            else {
                throw ArgumentError(
                    "--max-invalid", "'\(maxInvalid.prefix(40))' is not a count of lines from 0; e.g. \(arg: "max-invalid", "1")")
            }
            allowed = m
        }
        if let scheme {
            if alphabet != nil || length != nil {
                throw ArgumentError(
                    alphabet != nil ? "--alphabet" : "--length",
                    "a declared \(arg: "scheme") is the alphabet and length both; leave this out")
            }
            let format: IDFormat
            switch scheme.lowercased() {
            case "apns-id", "notification-request-id": format = .uuid4
            case "apns-collapse-id":
                throw ArgumentError(
                    "--scheme",
                    "apns-collapse-id is any string up to 64 bytes: declare what yours are with \(arg: "alphabet") and \(arg: "length")")
            default:
                guard let f = IDFormat.named(scheme) else {
                    let names = IDFormat.allCases.map(\.rawValue) + ["apns-id", "notification-request-id"]
                    throw ArgumentError("--scheme", "'\(scheme.prefix(40))' is not a scheme; give one of \(names.joined(separator: ", "))")
                }
                format = f
            }
            if claimingBits {
                throw ArgumentError("--bits", "a declared \(arg: "scheme") has the random bits of its format; leave \(arg: "bits") out")
            }
            do { return try DeclaredShape(scheme: format, named: scheme.lowercased(), maxInvalid: allowed) } catch {
                throw ArgumentError("--max-invalid", error.message)
            }
        }
        guard let alphabet else {
            throw ArgumentError(
                length != nil ? "--length" : "--max-invalid",
                "declares a shape with \(arg: "alphabet") (or \(arg: "scheme")); add e.g. \(arg: "alphabet", "base62")")
        }
        guard let named = Alphabet.named(alphabet) else {
            let names = Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")
            throw ArgumentError("--alphabet", "'\(alphabet.prefix(40))' is not an alphabet; give one of \(names)")
        }
        guard let length else {
            throw ArgumentError("--alphabet", "declares a shape with \(arg: "length"); add e.g. \(arg: "length", "22")")
        }
        guard length.first != "0", length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let l = Int(length), l >= 1, l <= 4096 else {
            throw ArgumentError("--length", "'\(length.prefix(40))' is not a length from 1 to 4096; e.g. \(arg: "length", "22")")
        }
        if claimingBits {
            throw ArgumentError("--bits", "the declared \(arg: "alphabet") and \(arg: "length") are the space; leave \(arg: "bits") out")
        }
        do { return try DeclaredShape(alphabet: named, length: l, maxInvalid: allowed) } catch {
            throw ArgumentError("--length", error.message)
        }
    }

    /// A byte limit (`--max-bytes 64`): a whole number from 1; nil when none is given.
    public static func maxBytes(_ text: String?) throws(ArgumentError) -> Int? {
        guard let text else { return nil }
        guard let n = wholeNumber(text), n >= 1 else {
            throw ArgumentError("--max-bytes", "'\(text)' is not a whole number of bytes ≥ 1; e.g. \(arg: "max-bytes", "64")")
        }
        return n
    }

    public static func budget(_ text: String) throws(ArgumentError) -> Budget {
        do { return try Budget(parsing: text) } catch { throw ArgumentError("--max-probability", error.message) }
    }
}

extension ArgumentText {
    /// The parameters whose values are numbers (counts, sizes, rates, times, budgets): the only ones a
    /// value written negative (`-5`) is refused for as negative. A text (`prefix=-1_`, `field=-1`) is
    /// read as the text it is.
    public static let numeric: Set<String> = [
        "count", "length", "bits", "max-bytes", "scopes", "nodes", "space-size", "max-line-bytes", "alphabet-size", "existing",
        "count-per-scope", "rate", "peak-rate", "lifetime", "growth", "max-probability", "max-attempts", "threads", "max-invalid",
        "seed", "epoch", "node", "memory",
    ]

    /// The parameters `command` takes, by the one layer's names (nil for a command the layer does not
    /// know).
    public static func parameters(of command: String?) -> Set<String>? {
        switch command {
        case "generate": Set(GenerateSettings.parameters)
        case "audit": Set(AuditSettings.parameters)
        default: Question.Command(rawValue: command ?? "").map { Set($0.parameters) }
        }
    }

    /// Whether `option` (`--count`) of `command` takes a number, so that a value written negative
    /// is refused as negative; false for an option the command does not take (refused as unknown).
    public static func takesNumber(_ option: String, command: String?) -> Bool {
        let name = String(option.drop { $0 == "-" })
        return numeric.contains(name) && parameters(of: command)?.contains(name) ?? false
    }

    /// The smallest value an option takes when that is more than 0 (nil: 0 or more).
    public static func smallest(_ option: String, command: String?) -> Int? {
        switch option {
        case "--count": command == "generate" ? nil : 1  // `generate --count 0` is an empty batch
        case "--length", "--bits", "--max-bytes", "--scopes", "--nodes", "--space-size", "--max-line-bytes", "--max-attempts", "--threads":
            1
        case "--alphabet-size": 2
        default: nil
        }
    }

    /// The refusal of a value written as a negative number (`-5`, `-0.5`, `-5/s`) for `argument` of
    /// `command`, or nil when `value` is not one. Every front end refuses these first and alike (the
    /// CLI must: its parser would read `--count -5` as a missing value and an unknown option `-5`).
    public static func negative(_ value: String, argument: String, command: String?) -> ArgumentError? {
        let body = value.utf8.dropFirst()
        guard value.hasPrefix("-"), let first = body.first, (first >= 48 && first <= 57) || first == 46 else { return nil }
        let rule = smallest(argument, command: command).map { "it must be at least \($0)" } ?? "every number idbudget takes is 0 or more"
        return ArgumentError(argument, "'\(value.prefix(40))' is negative; \(rule)")
    }
}

extension Arguments {
    /// Refuses a name `known` does not hold, then a value written negative (but `symbols` and `id`,
    /// which are any text), names in order: what a front end's own reader refuses before any value is
    /// read, so every front end refuses them alike.
    func check(known: [String], command: String) throws(ArgumentError) {
        let allowed = Set(known)
        for (name, _) in sortedPairs where !allowed.contains(name) {
            throw ArgumentError("--\(name.prefix(40))", "unknown parameter; \(command) takes \(known.sorted().joined(separator: ", "))")
        }
        for (name, value) in sortedPairs where ArgumentText.numeric.contains(name) {
            if let refusal = ArgumentText.negative(value, argument: "--\(name)", command: command) { throw refusal }
        }
    }
}
