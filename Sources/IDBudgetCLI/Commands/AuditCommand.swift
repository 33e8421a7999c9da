import ArgumentParser
import Foundation
import IDAudit
import IDBudget
import IDQuestions
import IDTokens
import Precise

struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract:
            "Audit real ids (one per line, a CSV column or a JSON-lines field): format, positions, duplicates against uniform randomness.",
        discussion: """
            Streams the input on every core (--threads) into a summary (docs/audit-summary.md): counts, how often \
            each id repeats, lengths, per-position symbol counts, time buckets of UUIDv7/ULID/KSUID/UUIDv1. \
            Judges it: time-ordered formats within their buckets against their real random bits; each \
            position as random, structured, constant or biased; p-values for too many and too few \
            duplicates. Memory stays within --memory: past it, fingerprints spill to temporary files \
            ($TMPDIR) and are counted partition by partition, exactly. Summaries of shards (--shard) or \
            of other tools (examples/spark/audit_summary.py) merge with --summary.
            Each tail is judged by a rigorous upper bound on its p-value (Hoeffding, Bennett) or the \
            exact occupancy law, so an honest stream is flagged for its duplicates with probability at \
            most 1e-6 (position tests are chi-squared approximations; docs/audit.md).
            Exit status: 0 consistent; 1 suspicious, inconclusive or no ids (JSON or text still \
            printed); 64 bad usage; 65 a corrupt or oversized summary; 66 an input that cannot be \
            opened; 73 an --emit-summary file that cannot be created (checked before reading); 74 an \
            I/O error.
            Examples:
              idbudget generate --count 1000000 --length 6 | idbudget audit
              idbudget audit ids.txt || exit 1
              idbudget audit export.csv --column request_id
              idbudget audit app.log --field req.id
              idbudget audit ids.txt --shard 1/2 --emit-summary s1.json
              idbudget audit ids.txt --shard 2/2 --emit-summary s2.json
              idbudget audit --summary s1.json s2.json
            """
    )

    @Argument(
        help: ArgumentHelp("A file of ids, one per line; '-' or nothing reads standard input.", valueName: "file"), completion: .file())
    var file: String?

    @Option(
        name: .customLong("max-line-bytes"), help: ArgumentHelp("Longer lines are counted as overlong and skipped.", valueName: "bytes"))
    var maxLineBytes: String = "4096"

    @Option(help: ArgumentHelp("The space the ids claim, in random bits (instead of the one their symbols imply).", valueName: "bits"))
    var bits: String?

    @Option(
        help: ArgumentHelp(
            "With --length: the alphabet every id must be written in, every position uniform over it (a CI gate).", valueName: "name"),
        completion: .list(Alphabet.builtIns.compactMap(\.name)))
    var alphabet: String?

    @Option(help: ArgumentHelp("With --alphabet: the length every id must have.", valueName: "n"))
    var length: String?

    @Option(
        name: .customLong("max-invalid"),
        help: ArgumentHelp("With --alphabet and --length, or --scheme: lines allowed not of that shape (default 0).", valueName: "n"))
    var maxInvalid: String?

    @Option(
        help: ArgumentHelp(
            "Peak memory, e.g. 1G, 512M or max (the machine's memory); default 1G, at least 64M. Past it, ids spill to $TMPDIR.",
            valueName: "size"), completion: .list(["256M", "1G", "4G", "max"]))
    var memory: String = "1G"

    @Option(
        help: ArgumentHelp(
            "Audit only shard k of K (1-based), chosen by a fingerprint of the id; merge the shards' summaries with --summary.",
            valueName: "k/K"))
    var shard: String?

    @Option(
        name: .customLong("emit-summary"), help: ArgumentHelp("Also write the mergeable summary (JSON) to this file.", valueName: "file"),
        completion: .file())
    var emitSummary: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Judge these summaries (merged) instead of reading ids; '-' reads one from standard input.", valueName: "file"),
        completion: .file())
    var summary: [String] = []

    @Option(
        help: ArgumentHelp(
            "Worker threads, 1 to \(Auditor.maxThreads) (default: the usable cores); the answer is the same for any.", valueName: "n"))
    var threads: String?

    @Option(
        help: ArgumentHelp(
            "Declare the format every line must be (any scheme `idbudget schemes` lists but apns-collapse-id): lines of another shape fail the audit past --max-invalid, every random position must be uniform, duplicates are judged in the format's space (a node-id format's: none).",
            valueName: "name"),
        completion: .list(IDFormat.allCases.map(\.rawValue) + ["apns-id", "notification-request-id"]))
    var scheme: String?

    // Unconditional: a column named `-1` or `-id` is the value, not another option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Read the ids from this column of a CSV (RFC 4180 quoting, CRLF): a name from its header line, or a 1-based number (no header).",
            valueName: "name|n"))
    var column: String?

    @Option(
        help: ArgumentHelp("The CSV's field delimiter with --column: comma (default), tab, or one character.", valueName: "delimiter"),
        completion: .list(["comma", "tab", ";", "|"]))
    var delimiter: String?

    @Option(
        help: ArgumentHelp(
            "Read the ids from this field of a JSON-lines log: a path of keys, e.g. id or req.id (strings, or numbers as written).",
            valueName: "path"))
    var field: String?

    @OptionGroup var output: FormatOptions

    struct Settings {
        var maxLine: Int
        var claimed: Int?
        var declared: DeclaredShape? = nil
        var memory: Int
        var shard: (index: Int, count: Int)
        var threads: Int
        /// Where in each record the id is, when the input is CSV or JSON lines.
        var records: RecordReader.Source? = nil
    }

    /// The settings, read by the one layer (`AuditSettings`, as the server reads its audit's); the
    /// checks of what goes with `--summary` are this command's own.
    private func settings() throws -> Settings {
        if !summary.isEmpty {
            if file != nil {
                throw UsageError(
                    argument: "--summary",
                    message: "judges summaries instead of reading ids; give either a file of ids or --summary, not both")
            }
            if summary.filter({ $0 == "-" }).count > 1 {
                throw UsageError(argument: "--summary", message: "'-' (standard input) is given more than once; give it once")
            }
            if shard != nil || emitSummary != nil {
                // Named after the option that does not apply, not the one that is right.
                throw UsageError(
                    argument: shard != nil ? "--shard" : "--emit-summary",
                    message: "applies when reading ids, not with --summary; to merge shards give their summaries to --summary")
            }
            if column != nil || field != nil || delimiter != nil {
                throw UsageError(
                    argument: column != nil ? "--column" : field != nil ? "--field" : "--delimiter",
                    message: "reads ids from records; --summary reads summaries")
            }
        }
        let named: [(String, String?)] = [
            ("max-line-bytes", maxLineBytes), ("bits", bits), ("memory", memory), ("shard", shard), ("threads", threads),
            ("column", column), ("field", field), ("delimiter", delimiter), ("scheme", scheme), ("alphabet", alphabet),
            ("length", length), ("max-invalid", maxInvalid),
        ]
        var arguments = Arguments()
        for case (let name, let value?) in named { arguments[name] = value }
        let a = try usage { () throws(ArgumentError) in try AuditSettings(arguments) }
        return Settings(
            maxLine: a.maxLineBytes, claimed: a.claimedBits, declared: a.declared, memory: a.memory ?? 1 << 30,
            shard: a.shard, threads: a.threads ?? Swift.min(Auditor.maxThreads, Swift.max(1, Cores.usable)), records: a.records)
    }

    func run() throws {
        let s = try settings()
        SpillCleanup.onSignals()
        let summary: AuditSummary
        var table: (peak: Int, spilled: Bool, threads: Int)? = nil
        var records: AuditReport.Records?
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
            let input = try openInput()
            defer { if input != 0 { close(input) } }
            // The summary's file is created before any id is read: an endless stdin must not hide
            // that it can never be written. It must not be the input (a named file, or whatever
            // standard input is: `- < x`, `--emit-summary /dev/stdin`): creating it would empty it.
            if let emitSummary {
                guard !emitSummary.isEmpty else {
                    throw UsageError(argument: "--emit-summary", message: "the path is empty; give a file to write the summary to")
                }
                var a = stat()
                var b = stat()
                if fstat(input, &a) == 0, stat(emitSummary, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino,
                    (b.st_mode & S_IFMT) != S_IFCHR  // a terminal or /dev/null loses nothing
                {
                    throw UsageError(
                        argument: "--emit-summary",
                        message: "'\(emitSummary)' is the input the ids are read from; give another path for the summary")
                }
            }
            // Created now (73 before any id is read), filled only if the audit ends well.
            let out = try emitSummary.map { path throws(Failure) in try SummaryFile(path: path) }
            defer { out?.close() }
            let (auditor, reader) = try read(s, from: input)
            summary = try auditor.finish()
            table = (auditor.peakTableBytes, auditor.spilled, auditor.threads)
            records = reader.map { r in
                let source =
                    switch r.source {
                    case .csv(.name(let name), _): "CSV column '\(name)'"
                    case .csv(.number(let n), _): "CSV column \(n)"
                    case .jsonLines(let path): "JSON-lines field '\(path.joined(separator: "."))'"
                    }
                return AuditReport.Records(
                    source: source, read: r.records, withoutID: r.withoutID, unreadable: r.unreadable, repeatedHeaders: r.repeatedHeaders)
            }
            // Not one record holds the id: the column or the path is wrong for this input, which
            // is bad data (an empty input is only no ids).
            if let r = reader, r.records > r.repeatedHeaders, r.found == 0 {
                throw Failure(status: .dataError, argument: r.isCSV ? "--column" : "--field", message: r.nothingFound)
            }
            try out?.commit(try summary.jsonText() + "\n")
        }
        let resources = table.map {
            AuditReport.Resources(
                fingerprintTableBytes: $0.peak, spilled: $0.spilled, peakRSSBytes: PeakMemory.bytes(), memoryLimitBytes: s.memory,
                threads: $0.threads)
        }
        var r = try AuditReport(summary: summary, claimedBits: s.claimed, declared: s.declared, resources: resources)
        r.records = records
        try show(r)
        if !r.passes { Output.status = ExitStatus.fails.rawValue }
    }

    /// The file of ids, opened; standard input (0) for '-' or none.
    private func openInput() throws -> Int32 {
        var fd: Int32 = 0
        if let file, file != "-" {
            fd = open(file, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw Failure(
                    status: .noInput, argument: "FILE",
                    message: "cannot open '\(file)': \(String(cString: strerror(errno))); give a readable file or - for standard input")
            }
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            if fd != 0 { close(fd) }
            throw Failure(status: .noInput, argument: "FILE", message: "'\(file ?? "-")' is a directory; give a file of ids, one per line")
        }
        return fd
    }

    /// A CSV whose header lacks the column: bad data, naming the argument.
    private func extract(_ body: () throws -> Void) throws {
        do { try body() } catch let error as RecordReader.Failure {
            throw Failure(status: .dataError, argument: "--column", message: error.description)
        }
    }

    private func read(_ s: Settings, from fd: Int32) throws -> (Auditor, RecordReader?) {
        let reader = s.records.map(RecordReader.init)
        var info = stat()
        let known = fstat(fd, &info) == 0
        let size = known && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        let auditor = try Auditor(
            maxLineBytes: s.maxLine, shard: s.shard, memoryLimit: s.memory, threads: s.threads, sizeHint: size, declared: s.declared)
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
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[..<n])
            if let reader { try extract { try reader.consume(bytes) { try auditor.consume($0) } } } else { try auditor.consume(bytes) }
            progress?.update(bytes: auditor.bytesRead, lines: auditor.lines)
        }
        if let reader { try extract { try reader.finish { try auditor.consume($0) } } }
        progress?.clear()
        return (auditor, reader)
    }

    private func show(_ r: AuditReport) throws {
        guard output.format == .text else { return Output.print(try r.jsonText()) }
        let lengths = r.lengths.sorted { $0.key < $1.key }
        var report = Report()
        if r.shards.count > 1 {
            report.add("shards", "\(r.shards.indexes.map { String($0 + 1) }.joined(separator: ",")) of \(r.shards.count)")
        }
        if let records = r.records {
            report.add("records", "\(records.read) (\(records.source))")
            report.add("records without the id", String(records.withoutID))
            report.add("unreadable records", String(records.unreadable))
            if records.repeatedHeaders > 0 { report.add("header lines repeated", String(records.repeatedHeaders)) }
        }
        report.add("lines read", String(r.lines))
        report.add("ids", String(r.ids))
        report.add("distinct", String(r.distinct))
        report.add("ids seen more than once", String(r.duplicateIDs))
        report.add("extra occurrences", String(r.extraOccurrences))
        report.add("empty lines", String(r.emptyLines))
        report.add("CRLF lines", String(r.crlfLines))
        report.add("invalid UTF-8 lines", String(r.invalidUTF8Lines))
        report.add("overlong lines (> \(r.maxLineBytes) B)", String(r.overlongLines))
        if r.placeholderLines > 0 { report.add("nil/max UUID lines", String(r.placeholderLines)) }
        if r.quotedLines > 0 { report.add("quoted lines (JSON strings)", String(r.quotedLines)) }
        report.add("symbols seen", "\(r.observedSymbols.unicodeScalars.count): \(r.observedSymbols.escapingControlCharacters.prefix(80))")
        report.add("format", r.format)
        report.add("alphabet", "\(r.alphabet) (\(r.alphabetSize) symbols)")
        report.add("lengths", lengths.prefix(8).map { "\($0.key): \($0.value)" }.joined(separator: ", ") + (lengths.count > 8 ? ", …" : ""))
        report.add("implied space", r.nodes == nil ? "\(r.space.summary) (\(String(format: "%.1f", r.space.bits)) bits)" : r.space.summary)
        for (i, f) in r.findings.enumerated() { report.add(i == 0 ? "findings" : "", f.escapingControlCharacters) }
        if let n = r.nodes {
            report.add("nodes", (n.distinct.map { "\($0)" } ?? "more than \(NodeStats.nodeLimit)") + " distinct (\(n.field))")
            if let top = n.maxPerTick { report.add("busiest tick", "\(top) ids from one node, of \(n.perTick) allowed") }
            report.add("clock regressions", String(n.regressions))
            report.add("verdict", r.verdict)
            if let m = r.resources {
                report.add(
                    "memory", "peak RSS \(m.peakRSSBytes >> 20) MiB (--memory \(m.memoryLimitBytes >> 20) MiB), \(m.threads) threads")
            }
            return Output.print(report.renderText())
        }
        report.add("expected if uniform", String(format: "%.4g ± %.3g", r.expectedDuplicates, r.sd))
        report.add("z-score", r.z.map { String(format: "%+.2f", $0) } ?? "off the scale (the spread is all but 0)")
        report.add(
            "p-values",
            String(
                format: "more duplicates ≤ %.3g, fewer ≤ %.3g (estimates %.3g, %.3g)", r.pValueHigh, r.pValueLow, r.pValueHighEstimate,
                r.pValueLowEstimate))
        report.add("test", r.methodDescription)
        let per = r.timeFormat.map { " per \($0.bucketName)" } ?? ""
        report.add(
            r.effectiveBitsLowerBound ? "effective entropy (95% lower bound)" : "effective entropy",
            r.effectiveBitsLowerBound
                ? String(format: "≥ %.1f bits", r.effectiveBits) + per
                : String(format: "%.1f bits", r.effectiveBits) + per + String(format: ", ≥ %.1f (95%% lower bound)", r.effectiveBits95Lower)
        )
        report.add("verdict", r.verdict)
        if let m = r.resources {
            report.add(
                "memory",
                "peak RSS \(m.peakRSSBytes >> 20) MiB (--memory \(m.memoryLimitBytes >> 20) MiB), fingerprint tables \(m.fingerprintTableBytes >> 20) MiB, \(m.threads) threads"
                    + (m.spilled ? ", spilled to \(FileManager.default.temporaryDirectory.path)" : ""))
        }
        Output.print(report.renderText())
    }
}

/// Interrupted (Ctrl-C, a job's SIGTERM), the audit removes its spill files before it goes: the
/// signal is taken on a queue of its own, the files removed, and the signal raised again with its
/// default action, so the exit status is still the signal's.
enum SpillCleanup {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func onSignals() {
        guard sources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                Auditor.removeSpillFiles()
                // Dispatch keeps the signal blocked in its threads: unblocked here, with its default
                // action, and raised on this thread, it ends the process.
                signal(sig, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, sig)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(sig)
                _exit(128 + sig)  // not reached
            }
            source.resume()
            sources.append(source)
        }
    }
}
