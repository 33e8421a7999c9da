import Foundation
import IDAudit
import IDBudget

/// How to audit, read from named arguments as `idbudget audit` and `POST /api/v1/audit` take them:
/// `max-line-bytes`, `bits`, `alphabet`/`length` or `scheme` with `max-invalid` (a declared shape), `memory`,
/// `shard`, `threads`, and where the id is in a record (`column` with `delimiter`, or `field`). What a
/// front end does not take is simply not given; each value is checked as the CLI checks it.
public struct AuditSettings: Sendable {
    /// Longer lines are overlong and skipped (default 4096 bytes).
    public var maxLineBytes = 4096
    /// The space the ids claim, in random bits, instead of the one their symbols imply.
    public var claimedBits: Int?
    /// `alphabet` with `length`, or `scheme` (and `max-invalid`): the shape every id must have.
    public var declared: DeclaredShape?
    /// Peak memory for the fingerprint tables; nil when not given (the front end's default).
    public var memory: Int?
    /// Shard `index` (0-based) of `count`.
    public var shard = (index: 0, count: 1)
    /// Worker threads; nil when not given.
    public var threads: Int?
    /// Where in each record the id is, for a CSV or JSON lines.
    public var records: RecordReader.Source?

    /// The defaults: lines up to 4096 bytes, the space the ids imply, every line an id.
    public init() {}

    /// The names an audit's settings take.
    public static let parameters = [
        "max-line-bytes", "bits", "scheme", "alphabet", "length", "max-invalid", "memory", "shard", "threads", "column", "delimiter",
        "field",
    ]

    public init(_ arguments: Arguments) throws(ArgumentError) {
        try arguments.check(known: Self.parameters, command: "audit")
        if let text = arguments["max-line-bytes"] {
            guard let n = Int(text), n >= 1, n <= 1 << 24 else {
                throw ArgumentError(
                    "--max-line-bytes", "'\(text)' is not a whole number from 1 to 16777216; e.g. \(arg: "max-line-bytes", "4096")")
            }
            maxLineBytes = n
        }
        if let bits = arguments["bits"] {
            guard let b = ArgumentText.wholeNumber(bits), b >= 1, b <= Limits.maxSpaceBits else {
                throw ArgumentError(
                    "--bits", "'\(bits)' is not a whole number of bits from 1 to \(Limits.maxSpaceBits); e.g. \(arg: "bits", "122")")
            }
            claimedBits = b
        }
        if let text = arguments["memory"] {
            guard let bytes = text == "max" ? Int(clamping: ProcessInfo.processInfo.physicalMemory) : Self.size(text), bytes >= 64 << 20
            else {
                throw ArgumentError(
                    "--memory",
                    "'\(text)' is not a size of at least 64M; e.g. \(arg: "memory", "1G"), \(arg: "memory", "512M") or \(arg: "memory", "max")"
                )
            }
            memory = bytes
        }
        if let text = arguments["shard"] {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1 << 20, k >= 1, k <= n else {
                throw ArgumentError("--shard", "'\(text)' is not k/K with 1 ≤ k ≤ K; e.g. \(arg: "shard", "1/4")")
            }
            shard = (k - 1, n)
        }
        if let text = arguments["threads"] {
            guard let t = Int(text), t >= 1, t <= Auditor.maxThreads else {
                throw ArgumentError(
                    "--threads", "'\(text)' is not a number of threads from 1 to \(Auditor.maxThreads); e.g. \(arg: "threads", "4")")
            }
            threads = t
        }
        records = try Self.records(column: arguments["column"], field: arguments["field"], delimiter: arguments["delimiter"])
        declared = try ArgumentText.declaredShape(
            alphabet: arguments["alphabet"], length: arguments["length"], maxInvalid: arguments["max-invalid"],
            scheme: arguments["scheme"], claimingBits: arguments["bits"] != nil)
    }

    /// Where the id is in a record: `column` (a header's name or a 1-based number) of a CSV split at
    /// `delimiter` (comma, tab or one printable character), or `field` (a path of keys) of JSON lines.
    static func records(column: String?, field: String?, delimiter: String?) throws(ArgumentError) -> RecordReader.Source? {
        guard column != nil || field != nil || delimiter != nil else { return nil }
        if column != nil && field != nil {
            throw ArgumentError("--field", "give \(arg: "column") for a CSV or \(arg: "field") for JSON lines, not both")
        }
        if let field {
            let path = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.contains(where: \.isEmpty), path.count <= 64 else {
                throw ArgumentError("--field", "'\(field)' is not a path of keys; e.g. \(arg: "field", "id") or \(arg: "field", "req.id")")
            }
            if delimiter != nil { throw ArgumentError("--delimiter", "applies to \(arg: "column") (CSV), not \(arg: "field")") }
            return .jsonLines(path: path)
        }
        guard let column else { throw ArgumentError("--delimiter", "applies to \(arg: "column") (CSV); give \(arg: "column") too") }
        let trimmed = column.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw ArgumentError("--column", "give a column name from the header line or a 1-based number; e.g. \(arg: "column", "id")")
        }
        var separator: UInt8 = 0x2C
        if let delimiter {
            switch delimiter {
            case "comma", ",": separator = 0x2C
            case "tab", "\t": separator = 0x09
            default:
                guard delimiter.utf8.count == 1, let b = delimiter.utf8.first, b >= 0x20, b < 0x7F, b != 0x22 else {
                    throw ArgumentError("--delimiter", "'\(delimiter)' is not comma, tab or one printable character other than \"")
                }
                separator = b
            }
        }
        if trimmed.hasPrefix("-") || trimmed.hasPrefix("+"), trimmed.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw ArgumentError("--column", "'\(column)' is not a column number from 1; e.g. \(arg: "column", "2") for the second")
        }
        if trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let n = Int(trimmed), n >= 1, n <= 1 << 20 else {
                throw ArgumentError("--column", "'\(column)' is not a column number from 1; e.g. \(arg: "column", "2")")
            }
            return .csv(column: .number(n), delimiter: separator)
        }
        return .csv(column: .name(column), delimiter: separator)
    }

    /// `1G`, `512M`, `64MiB`, `1073741824`: bytes.
    public static func size(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let digits = t.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard let value = Double(digits), value > 0, value < 1e15 else { return nil }
        let unit = t.dropFirst(digits.count).lowercased()
        let scale: Double
        switch unit {
        case "", "b": scale = 1
        case "k", "kb", "kib": scale = 1024
        case "m", "mb", "mib": scale = 1024 * 1024
        case "g", "gb", "gib": scale = 1024 * 1024 * 1024
        case "t", "tb", "tib": scale = 1024 * 1024 * 1024 * 1024
        default: return nil
        }
        let bytes = value * scale
        return bytes < 1e18 ? Int(bytes) : nil
    }
}
