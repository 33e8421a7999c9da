import ArgumentParser
import Foundation
import IDBudget
import IDTokens
import Precise

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Audit real ids (one per line): duplicates against what uniform randomness predicts.",
        discussion: """
            Streams the input; memory grows with the distinct ids (a 16-byte fingerprint each: 2 GiB \
            for 10^8 distinct ids, 3 GiB while the table last grows). Reports ids, distinct, duplicates, \
            the alphabet and length mix, the space they imply, the duplicates expected if ids were \
            uniform over it, p-values for too many and too few duplicates (Poisson tails with an error \
            bound, or a normal approximation, as it says), and the effective entropy. Empty lines, \
            CRLF endings, invalid UTF-8 and overlong lines are counted, never fatal.
            Example:
              idbudget generate --count 1000000 --length 6 | idbudget audit
            """
    )

    @Argument(help: ArgumentHelp("A file of ids, one per line; '-' or nothing reads standard input.", valueName: "file"), completion: .file())
    var file: String?

    @Option(name: .customLong("max-line-bytes"), help: ArgumentHelp("Longer lines are counted as overlong and skipped.", valueName: "bytes"))
    var maxLineBytes: String = "4096"

    @Option(help: ArgumentHelp("The space the ids claim, in random bits (instead of the one their symbols imply).", valueName: "bits"))
    var bits: String?

    @OptionGroup var output: FormatOptions

    func validate() throws { _ = try settings() }

    private func settings() throws -> (maxLine: Int, claimed: Int?) {
        guard let maxLine = Int(maxLineBytes), maxLine >= 1, maxLine <= 1 << 24 else {
            throw UsageError(argument: "--max-line-bytes", message: "'\(maxLineBytes)' is not a whole number from 1 to 16777216; e.g. --max-line-bytes 4096")
        }
        var claimed: Int?
        if let bits {
            guard let b = Int(bits), b >= 1, b <= Limits.maxSpaceBits else {
                throw UsageError(argument: "--bits", message: "'\(bits)' is not a whole number of bits from 1 to \(Limits.maxSpaceBits); e.g. --bits 122")
            }
            claimed = b
        }
        return (maxLine, claimed)
    }

    func run() throws {
        let (maxLine, claimed) = try settings()
        let fd: Int32
        if let file, file != "-" {
            fd = open(file, O_RDONLY)
            guard fd >= 0 else {
                throw UsageError(argument: "FILE", message: "cannot read '\(file)': \(String(cString: strerror(errno))); give a readable file or - for standard input")
            }
        } else {
            fd = 0
        }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        let size = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil

        let auditor = Auditor(maxLineBytes: maxLine)
        let progress = output.format == .text && isatty(2) != 0 ? Progress(total: size) : nil
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { chunk.deallocate() }
        while true {
            let n = read(fd, chunk.baseAddress, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw UsageError(argument: "FILE", message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            auditor.consume(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            progress?.update(bytes: auditor.bytesRead, lines: auditor.lines)
        }
        auditor.finish()
        progress?.clear()

        let r = auditor.report(claimedSpace: claimed.map { BigInt.power(2, $0) }, claim: claimed.map { "claimed 2^\($0)" })
        let symbols = auditor.observedSymbols.escapingControlCharacters
        let lengths = auditor.lengths.sorted { $0.key < $1.key }
        let verdict: String
        switch r.test.verdict {
        case .tooMany: verdict = "SUSPICIOUS: more duplicates than a uniform generator over this space makes (p = \(String(format: "%.3g", r.test.pValueHigh)))"
        case .tooFew: verdict = "SUSPICIOUS: fewer duplicates than uniform random ids over this space would show (p = \(String(format: "%.3g", r.test.pValueLow))): structured, sequential or counter-based ids?"
        case .consistent: verdict = "consistent with uniform random ids over this space"
        }
        let method = r.test.method == .poisson
            ? "Poisson tails, error ≤ \(String(format: "%.2g", r.test.errorBound ?? 0)) (Chen–Stein)"
            : "normal approximation with the exact mean and variance (n is not small against the space; no error bound)"
        var report = Report()
        report.add("lines read", String(auditor.lines))
        report.add("ids", String(auditor.ids))
        report.add("distinct", String(auditor.distinct))
        report.add("ids seen more than once", String(auditor.duplicateIDs))
        report.add("extra occurrences", String(auditor.extraOccurrences))
        report.add("empty lines", String(auditor.emptyLines))
        report.add("CRLF lines", String(auditor.crlfLines))
        report.add("invalid UTF-8 lines", String(auditor.invalidUTF8Lines))
        report.add("overlong lines (> \(maxLine) B)", String(auditor.overlongLines))
        report.add("symbols seen", "\(auditor.observedSymbols.unicodeScalars.count): \(symbols.prefix(80))")
        report.add("alphabet", "\(r.alphabet) (\(r.alphabetSize) symbols)")
        report.add("lengths", lengths.prefix(8).map { "\($0.key): \($0.value)" }.joined(separator: ", ") + (lengths.count > 8 ? ", …" : ""))
        report.add("implied space", "\(r.spaceDescription) (\(String(format: "%.1f", r.space.log2Magnitude)) bits)")
        report.add("expected if uniform", String(format: "%.4g ± %.3g", r.expectedDuplicates, r.sd))
        report.add("z-score", r.z.isFinite ? String(format: "%+.2f", r.z) : "off the scale (the spread is all but 0)")
        report.add("p-values", String(format: "more duplicates: %.3g, fewer: %.3g", r.test.pValueHigh, r.test.pValueLow))
        report.add("test", method)
        report.add(r.effectiveBitsIsLowerBound ? "effective entropy (95% lower bound)" : "effective entropy",
                   (r.effectiveBitsIsLowerBound ? "≥ " : "") + String(format: "%.1f bits", r.effectiveBits))
        report.add("verdict", verdict)
        report.add("fingerprint table", "\(auditor.tableBytes / 1_048_576) MiB")
        switch output.format {
        case .text: Output.print(report.renderText())
        case .json:
            let count = { (n: Int) in JSON.string(String(n)) }
            let json = JSON.object([
                ("schema_version", .int(outputSchemaVersion)), ("command", .string("audit")),
                ("lines", count(auditor.lines)), ("ids", count(auditor.ids)), ("distinct", count(auditor.distinct)),
                ("duplicate_ids", count(auditor.duplicateIDs)), ("extra_occurrences", count(auditor.extraOccurrences)),
                ("empty_lines", count(auditor.emptyLines)), ("crlf_lines", count(auditor.crlfLines)),
                ("invalid_utf8_lines", count(auditor.invalidUTF8Lines)), ("overlong_lines", count(auditor.overlongLines)),
                ("observed_symbols", .string(auditor.observedSymbols)), ("alphabet", .string(r.alphabet)),
                ("lengths", .object(lengths.map { (String($0.key), count($0.value)) })),
                ("space", .object([("size", .string(r.space.description)), ("bits", .number(Render.round(r.space.log2Magnitude))),
                                   ("summary", .string(r.spaceDescription))])),
                ("expected_duplicates", .number(r.expectedDuplicates)), ("sd", .number(r.sd)),
                ("z", r.z.isFinite ? .number(r.z) : .null), ("p_value_high", .number(r.test.pValueHigh)),
                ("p_value_low", .number(r.test.pValueLow)), ("test_method", .string(r.test.method.rawValue)),
                ("error_bound", r.test.errorBound.map { .number($0) } ?? .null), ("verdict_code", .string(r.test.verdict.rawValue)),
                ("effective_bits", .number(Render.round(r.effectiveBits))), ("effective_bits_lower_bound", .bool(r.effectiveBitsIsLowerBound)),
                ("suspicious", .bool(r.suspicious)), ("verdict", .string(verdict)),
                ("fingerprint_table_bytes", count(auditor.tableBytes)),
                ("notes", .array([.string("expected_duplicates, sd, z, p_value_high/low and effective_bits are approximate (doubles); z is null when infinite. Test: \(method).")])),
            ])
            Output.print(try json.jsonText())
        }
    }
}

enum Render {
    static func round(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
}

/// A one-line progress display on stderr, redrawn at most ten times a second.
final class Progress {
    let total: Int?
    var last = Date.distantPast
    let start = Date()

    init(total: Int?) { self.total = total }

    func update(bytes: Int, lines: Int) {
        let now = Date()
        guard now.timeIntervalSince(last) >= 0.1 else { return }
        last = now
        let rate = Double(bytes) / Swift.max(now.timeIntervalSince(start), 1e-3) / 1_048_576
        var text = "\r  \(lines) lines, \(bytes / 1_048_576) MiB, \(Int(rate)) MiB/s"
        if let total, total > 0 {
            let f = Double(bytes) / Double(total)
            let width = 30, filled = Int(f * Double(width))
            text = "\r  [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(Int(f * 100))%" + text.dropFirst()
        }
        Output.standardError(text)
    }

    func clear() {
        Output.standardError("\r\u{1B}[K")
    }
}
