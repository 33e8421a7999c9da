import ArgumentParser
import Foundation
import IDBudget
import IDTokens
import Precise

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Audit real ids (one per line): format, positions, duplicates against uniform randomness.",
        discussion: """
            Streams the input on two cores into a summary (docs/audit-summary.md): counts, how often \
            each id repeats, lengths, per-position symbol counts, time buckets of UUIDv7/ULID/KSUID/UUIDv1. \
            Judges it: time-ordered formats within their buckets against their real random bits; each \
            position as random, structured, constant or biased; p-values for too many and too few \
            duplicates. Memory stays within --memory: past it, fingerprints spill to temporary files \
            ($TMPDIR) and are counted partition by partition, exactly. Summaries of shards (--shard) or \
            of other tools (examples/spark/audit_summary.py) merge with --summary.
            Each tail is judged by a rigorous upper bound on its p-value (Hoeffding, Bennett) or the \
            exact occupancy law, so an honest stream is flagged with probability at most 1e-6.
            Exit status: 0 consistent; 1 suspicious, inconclusive or no ids (JSON or text still \
            printed); 64 bad usage; 65 a corrupt or oversized summary; 66 an input that cannot be \
            opened; 73 an --emit-summary file that cannot be created (checked before reading); 74 an \
            I/O error.
            Examples:
              idbudget generate --count 1000000 --length 6 | idbudget audit
              idbudget audit ids.txt || exit 1
              idbudget audit ids.txt --shard 1/2 --emit-summary s1.json
              idbudget audit ids.txt --shard 2/2 --emit-summary s2.json
              idbudget audit --summary s1.json s2.json
            """
    )

    @Argument(help: ArgumentHelp("A file of ids, one per line; '-' or nothing reads standard input.", valueName: "file"), completion: .file())
    var file: String?

    @Option(name: .customLong("max-line-bytes"), help: ArgumentHelp("Longer lines are counted as overlong and skipped.", valueName: "bytes"))
    var maxLineBytes: String = "4096"

    @Option(help: ArgumentHelp("The space the ids claim, in random bits (instead of the one their symbols imply).", valueName: "bits"))
    var bits: String?

    @Option(help: ArgumentHelp("Peak memory, e.g. 1G, 512M or max (the machine's memory); default 1G, at least 64M. Past it, ids spill to $TMPDIR.", valueName: "size"), completion: .list(["256M", "1G", "4G", "max"]))
    var memory: String = "1G"

    @Option(help: ArgumentHelp("Audit only shard k of K (1-based), chosen by a fingerprint of the id; merge the shards' summaries with --summary.", valueName: "k/K"))
    var shard: String?

    @Option(name: .customLong("emit-summary"), help: ArgumentHelp("Also write the mergeable summary (JSON) to this file.", valueName: "file"), completion: .file())
    var emitSummary: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Judge these summaries (merged) instead of reading ids.", valueName: "file"), completion: .file())
    var summary: [String] = []

    @Option(help: ArgumentHelp("Worker threads: 1 or 2 (default: 2 when there are two cores).", valueName: "n"), completion: .list(["1", "2"]))
    var threads: String?

    @OptionGroup var output: FormatOptions

    struct Settings {
        var maxLine: Int
        var claimed: Int?
        var memory: Int
        var shard: (index: Int, count: Int)
        var threads: Int
    }

    func validate() throws { _ = try settings() }

    private func settings() throws -> Settings {
        guard let maxLine = Int(maxLineBytes), maxLine >= 1, maxLine <= 1 << 24 else {
            throw UsageError(argument: "--max-line-bytes", message: "'\(maxLineBytes)' is not a whole number from 1 to 16777216; e.g. --max-line-bytes 4096")
        }
        var claimed: Int?
        if let bits {
            guard let b = wholeNumber(bits), b >= 1, b <= Limits.maxSpaceBits else {
                throw UsageError(argument: "--bits", message: "'\(bits)' is not a whole number of bits from 1 to \(Limits.maxSpaceBits); e.g. --bits 122")
            }
            claimed = b
        }
        guard let bytes = memory == "max" ? Int(clamping: ProcessInfo.processInfo.physicalMemory) : Self.size(memory), bytes >= 64 << 20 else {
            throw UsageError(argument: "--memory", message: "'\(memory)' is not a size of at least 64M; e.g. --memory 1G, --memory 512M or --memory max")
        }
        var shardValue = (index: 0, count: 1)
        if let shard {
            let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1 << 20, k >= 1, k <= n else {
                throw UsageError(argument: "--shard", message: "'\(shard)' is not k/K with 1 ≤ k ≤ K; e.g. --shard 1/4")
            }
            shardValue = (k - 1, n)
        }
        var threadCount = Cores.usable >= 2 ? 2 : 1
        if let threads {
            guard let t = Int(threads), t == 1 || t == 2 else { throw UsageError(argument: "--threads", message: "'\(threads)' is not 1 or 2; e.g. --threads 2") }
            threadCount = t
        }
        if !summary.isEmpty {
            if file != nil { throw UsageError(argument: "--summary", message: "judges summaries instead of reading ids; give either a file of ids or --summary, not both") }
            if shard != nil || emitSummary != nil {
                throw UsageError(argument: "--summary", message: "--shard and --emit-summary apply when reading ids; to merge shards give their summaries to --summary")
            }
        }
        return Settings(maxLine: maxLine, claimed: claimed, memory: bytes, shard: shardValue, threads: threadCount)
    }

    /// The process's peak resident set, from the kernel: VmHWM of /proc/self/status (getrusage's
    /// ru_maxrss keeps the high-water mark of whatever process ran before exec).
    static func peakRSS() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kb = Int(line.dropFirst(6).filter(\.isNumber)) {
            return kb * 1024
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }

    /// `1G`, `512M`, `64MiB`, `1073741824`: bytes.
    static func size(_ text: String) -> Int? {
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

    func run() throws {
        let s = try settings()
        let summary: AuditSummary
        var table: (peak: Int, spilled: Bool)? = nil
        if !self.summary.isEmpty {
            var merged: AuditSummary?
            for path in self.summary {
                do {
                    let one = try AuditSummary.load(path: path, maxBytes: AuditSummary.maxFileBytes(memory: s.memory))
                    merged = try merged.map { try $0.merged(with: one) } ?? one
                } catch let error as SummaryFileError {
                    throw Failure(status: .noInput, argument: "--summary", message: "\(error); give a summary written by --emit-summary")
                } catch let error as InputError {
                    throw Failure(status: .dataError, argument: "--summary", message: "\(path): \(error.message)")
                }
            }
            guard let merged else { throw UsageError(argument: "--summary", message: "give at least one summary file") }
            summary = merged
        } else {
            // The summary's file is created before any id is read: an endless stdin must not hide
            // that it can never be written.
            if let emitSummary, let file, file != "-" {
                // The summary must not overwrite the ids it summarises.
                var a = stat(), b = stat()
                if stat(file, &a) == 0, stat(emitSummary, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino {
                    throw UsageError(argument: "--emit-summary", message: "'\(emitSummary)' is the input file; give another path for the summary")
                }
            }
            let out = try emitSummary.map { path in
                let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                guard fd >= 0 else {
                    throw Failure(status: .cannotCreate, argument: "--emit-summary", message: "cannot create '\(path)': \(String(cString: strerror(errno))); give a writable path")
                }
                return (fd: fd, path: path)
            }
            defer { if let out { close(out.fd) } }
            let auditor = try read(s)
            summary = try auditor.finish()
            table = (auditor.peakTableBytes, auditor.spilled)
            if let out {
                var text = try summary.jsonText() + "\n"
                do { try text.withUTF8 { try Output.write(UnsafeRawBufferPointer($0), to: out.fd) } } catch let error as WriteError {
                    throw WriteError(code: error.code, target: "'\(out.path)' (--emit-summary)")
                }
            }
        }
        let r = AuditReport(summary: summary, claimedBits: s.claimed)
        show(r, summary, table, s)
        if !r.passes { Output.status = ExitStatus.fails.rawValue }
    }

    private func read(_ s: Settings) throws -> Auditor {
        let fd: Int32
        if let file, file != "-" {
            fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw Failure(status: .noInput, argument: "FILE", message: "cannot open '\(file)': \(String(cString: strerror(errno))); give a readable file or - for standard input")
            }
        } else {
            fd = 0
        }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        let known = fstat(fd, &info) == 0
        if known && (info.st_mode & S_IFMT) == S_IFDIR {
            throw Failure(status: .noInput, argument: "FILE", message: "'\(file ?? "-")' is a directory; give a file of ids, one per line")
        }
        let size = known && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        let auditor = Auditor(maxLineBytes: s.maxLine, shard: s.shard, memoryLimit: s.memory, threads: s.threads, sizeHint: size)
        let progress = output.format == .text && isatty(2) != 0 ? Progress(total: size) : nil
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { chunk.deallocate() }
        while true {
            let n = Foundation.read(fd, chunk.baseAddress, chunk.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(status: .ioError, argument: "FILE", message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            try auditor.consume(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            progress?.update(bytes: auditor.bytesRead, lines: auditor.lines)
        }
        progress?.clear()
        return auditor
    }

    private func show(_ r: AuditReport, _ s: AuditSummary, _ table: (peak: Int, spilled: Bool)?, _ settings: Settings) {
        let symbols = String(String.UnicodeScalarView(s.symbols.sorted { $0.value < $1.value }))
        let lengths = s.lengths.sorted { $0.key < $1.key }
        let verdict: String
        switch r.verdict {
        case .tooMany: verdict = "SUSPICIOUS: more duplicates than a uniform generator over this space makes (p ≤ \(String(format: "%.3g", r.test.pValueHigh)))"
        case .tooFew: verdict = "SUSPICIOUS: fewer duplicates than uniform random ids over this space would show (p ≤ \(String(format: "%.3g", r.test.pValueLow))): structured, sequential or counter-based ids?"
        case .nonUniform: verdict = "SUSPICIOUS: positions that should be random are not (see findings)"
        case .inconclusive: verdict = "INCONCLUSIVE: the duplicates look off, but no bound proves it within the cost limit"
        case .empty: verdict = "NO IDS: nothing to judge"
        case .consistent: verdict = "consistent with uniform random ids over this space"
        }
        let method: String
        switch r.test.method {
        case .exact: method = "exact occupancy law, error ≤ \(String(format: "%.2g", r.test.errorBound ?? 0)); each tail judged at p < \(String(format: "%.2g", r.test.tailThreshold))"
        case .bounds: method = "certified upper bounds on both tails (Hoeffding's binomial, Bennett); each tail judged at p < \(String(format: "%.2g", r.test.tailThreshold))"
        }
        let shards = s.shardCount > 1 ? "\(s.shardIndexes.map { String($0 + 1) }.joined(separator: ",")) of \(s.shardCount)" : nil
        switch output.format {
        case .text:
            var report = Report()
            if let shards { report.add("shards", shards) }
            report.add("lines read", String(s.lines))
            report.add("ids", String(s.ids))
            report.add("distinct", String(s.distinct))
            report.add("ids seen more than once", String(s.duplicateIDs))
            report.add("extra occurrences", String(s.extraOccurrences))
            report.add("empty lines", String(s.emptyLines))
            report.add("CRLF lines", String(s.crlfLines))
            report.add("invalid UTF-8 lines", String(s.invalidUTF8Lines))
            report.add("overlong lines (> \(s.maxLineBytes) B)", String(s.overlongLines))
            report.add("symbols seen", "\(s.symbols.count): \(symbols.escapingControlCharacters.prefix(80))")
            report.add("format", r.formatName)
            report.add("alphabet", "\(r.alphabet) (\(r.alphabetSize) symbols)")
            report.add("lengths", lengths.prefix(8).map { "\($0.key): \($0.value)" }.joined(separator: ", ") + (lengths.count > 8 ? ", …" : ""))
            report.add("implied space", "\(r.spaceDescription) (\(String(format: "%.1f", r.space.log2Magnitude)) bits)")
            for (i, f) in r.findings.enumerated() { report.add(i == 0 ? "findings" : "", f.escapingControlCharacters) }
            report.add("expected if uniform", String(format: "%.4g ± %.3g", r.expectedDuplicates, r.sd))
            report.add("z-score", r.z.isFinite ? String(format: "%+.2f", r.z) : "off the scale (the spread is all but 0)")
            report.add("p-values", String(format: "more duplicates ≤ %.3g, fewer ≤ %.3g (estimates %.3g, %.3g)", r.test.pValueHigh, r.test.pValueLow, r.test.estimateHigh, r.test.estimateLow))
            report.add("test", method)
            let per = r.format.map { " per \($0.bucketName)" } ?? ""
            report.add(r.effectiveBitsIsLowerBound ? "effective entropy (95% lower bound)" : "effective entropy",
                       r.effectiveBitsIsLowerBound ? String(format: "≥ %.1f bits", r.effectiveBits) + per
                           : String(format: "%.1f bits", r.effectiveBits) + per + String(format: ", ≥ %.1f (95%% lower bound)", r.effectiveBitsLower95))
            report.add("verdict", verdict)
            if let table {
                report.add("memory", "peak RSS \(Self.peakRSS() >> 20) MiB (--memory \(settings.memory >> 20) MiB), fingerprint tables \(table.peak >> 20) MiB" + (table.spilled ? ", spilled to \(FileManager.default.temporaryDirectory.path)" : ""))
            }
            Output.print(report.renderText())
        case .json:
            let count = { (n: Int) in JSON.string(String(n)) }
            var fields: [(String, JSON)] = [
                ("schema_version", .int(outputSchemaVersion)), ("command", .string("audit")),
                ("lines", count(s.lines)), ("ids", count(s.ids)), ("distinct", count(s.distinct)),
                ("duplicate_ids", count(s.duplicateIDs)), ("extra_occurrences", count(s.extraOccurrences)),
                ("empty_lines", count(s.emptyLines)), ("crlf_lines", count(s.crlfLines)),
                ("invalid_utf8_lines", count(s.invalidUTF8Lines)), ("overlong_lines", count(s.overlongLines)),
                ("observed_symbols", .string(symbols)), ("alphabet", .string(r.alphabet)),
                ("format", .string(r.formatName)), ("time_format", r.format.map { .string($0.rawValue) } ?? .null),
                ("lengths", .object(lengths.map { (String($0.key), count($0.value)) })),
                ("space", .object([("size", .string(r.space.description)), ("bits", .number(Render.round(r.space.log2Magnitude))),
                                   ("summary", .string(r.spaceDescription))])),
                ("random_bits", .number(Render.round(r.randomBits))),
                ("findings", .array(r.findings.map { .string($0) })),
                ("expected_duplicates", .number(r.expectedDuplicates)), ("sd", .number(r.sd)),
                ("z", r.z.isFinite ? .number(r.z) : .null), ("p_value_high", .number(r.test.pValueHigh)),
                ("p_value_low", .number(r.test.pValueLow)),
                ("p_value_high_estimate", .number(r.test.estimateHigh)), ("p_value_low_estimate", .number(r.test.estimateLow)),
                ("tail_threshold", .number(r.test.tailThreshold)), ("passes", .bool(r.passes)),
                ("test_method", .string(r.test.method.rawValue)),
                ("error_bound", r.test.errorBound.map { .number($0) } ?? .null), ("verdict_code", .string(r.verdict.rawValue)),
                ("effective_bits", .number(Render.round(r.effectiveBits))), ("effective_bits_lower_bound", .bool(r.effectiveBitsIsLowerBound)),
                ("effective_bits_95_lower", .number(Render.round(r.effectiveBitsLower95))),
                ("suspicious", .bool(r.suspicious)), ("verdict", .string(verdict)),
                ("shards", .object([("count", .int(s.shardCount)), ("indexes", .array(s.shardIndexes.map { .int($0) }))])),
            ]
            if let b = r.buckets { fields.append(("buckets", .object([("count", count(b.count)), ("largest", count(b.largest))]))) }
            if !r.groups.isEmpty {
                fields.append(("groups", .array(r.groups.map { g in
                    let t = g.report
                    return .object([
                        ("length", g.length.map { .int($0) } ?? .null), ("ids", count(g.ids)), ("format", .string(t.formatName)),
                        ("alphabet", .string(t.alphabet)),
                        ("space", .object([("size", .string(t.space.description)), ("bits", .number(Render.round(t.space.log2Magnitude))),
                                           ("summary", .string(t.spaceDescription))])),
                        ("extra_occurrences", count(t.extraOccurrences)), ("expected_duplicates", .number(t.expectedDuplicates)),
                        ("p_value_high", .number(t.test.pValueHigh)), ("p_value_low", .number(t.test.pValueLow)),
                        ("test_method", .string(t.test.method.rawValue)), ("verdict_code", .string(t.verdict.rawValue)),
                    ])
                })))
            }
            if let table {
                fields.append(("fingerprint_table_bytes", count(table.peak)))
                fields.append(("spilled", .bool(table.spilled)))
                fields.append(("peak_rss_bytes", count(Self.peakRSS())))
                fields.append(("memory_limit_bytes", count(settings.memory)))
            }
            fields.append(("notes", .array([.string("p_value_high/low are certified upper bounds on the tails (the verdict uses them); the *_estimate fields, expected_duplicates, sd, z, random_bits and effective_bits are approximate (doubles); z is null when infinite. Test: \(method).")])))
            Output.print((try? JSON.object(fields).jsonText()) ?? "{}")
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
            let width = 30, filled = Swift.min(width, Int(f * Double(width)))
            text = "\r  [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(Int(f * 100))%" + text.dropFirst()
        }
        Output.standardError(text)
    }

    func clear() {
        Output.standardError("\r\u{1B}[K")
    }
}
