import Foundation
import TestSupport
import Testing

/// `idbudget audit` at its surface: summaries against an independent reference, shards that merge,
/// memory that holds, errors that name the argument.
@Suite(.serialized, .oracles) struct AuditContractTests {
    static func temp(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-\(name)-\(UUID().uuidString)")
    }

    /// The JSON answer; exit status 0 exactly when the verdict is consistent, else 1.
    static func json(_ r: CLI.Result) throws -> [String: Any] {
        guard r.status == 0 || r.status == 1 else { throw CLI.CLIFailure(message: r.stderr) }
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect((r.status == 0) == (json["verdict_code"] as? String == "consistent"), "\(r.status) \(json["verdict_code"] ?? "")")
        return json
    }

    /// Every line rule and time format, byte for byte, against Tests/Oracles/audit_summary_ref.py (plain
    /// Python, no idbudget code): the two summaries must be equal field by field.
    @Test func summaryEqualsThePythonReference() throws {
        var text: [UInt8] = Array("\u{FEFF}first\n".utf8)
        let tokens = try CLI.run(["generate", "--alphabet", "base62", "--length", "8", "--count", "3000", "--seed", "2"]).stdout
        let ids = tokens.split(separator: "\n").map(String.init)
        text += Array(tokens.utf8)
        for i in 0..<40 { text += Array((ids[i] + (i % 3 == 0 ? "\r\n" : "\n")).utf8) }  // duplicates, some with CRLF
        text += Array("\n\r\n".utf8) + [0xC3, 0x28, 0x0A] + [0xED, 0xA0, 0x80, 0x0A]  // empty, invalid UTF-8
        text += Array(String(repeating: "L", count: 4096).utf8) + [0x0A] + Array(String(repeating: "M", count: 4097).utf8) + [0x0A]
        text += Array("héllo\n🍎🍌\na\u{2028}b\nx\ry\n".utf8)
        for scheme in ["uuid7", "ulid", "ksuid", "uuid4"] {
            text += Array(try CLI.run(["generate", "--scheme", scheme, "--count", "200"]).stdout.utf8)
        }
        text += Array("c232ab00-9414-11ec-b3c8-9f6bdeced846\nC232AB00-9414-11EC-B3C8-9F6BDECED846\n".utf8)  // UUIDv1
        text += Array("c232ab00-9414-11ec-c3c8-9f6bdeced846\n01ARZ3NDEKTSV4RRFFQ69G5FAV\n7ZZZZZZZZZZZZZZZZZZZZZZZZZ\n".utf8)
        text += Array("aWgEPTl1tmebfsQzFP4bxwgy80V\n".utf8)  // KSUID spec example
        // Placeholders (the nil and the max UUID, either case, hyphens or not) and near misses, which are ids.
        text += Array("00000000-0000-0000-0000-000000000000\nFFFFFFFF-ffff-FFFF-ffff-FFFFFFFFFFFF\nffffffffffffffffffffffffffffffff\n".utf8)
        text += Array("00000000-0000-0000-0000-000000000001\n0000000000000000000000000000000\n00000000_0000-0000-0000-000000000000\n".utf8)
        for prefix in ["user", "abcdefghi", "pre_fix"] {  // TypeIDs; a 9-character prefix makes 36 characters
            text += Array(try CLI.run(["generate", "--scheme", "typeid", "--prefix", prefix, "--count", "100"]).stdout.utf8)
        }
        // TypeID traps: not a v7, upper case, a prefix ending in _, the spec's v7 vector, no prefix (a ULID).
        text += Array("prefix_00000000000000000000000000\nprefix_01H455VB4PEX5VSKNK084SN02Q\n".utf8)
        text += Array("prefix__01h455vb4pex5vsknk084sn02q\nprefix_01h455vb4pex5vsknk084sn02q\n01h455vb4pex5vsknk084sn02q\n".utf8)
        text += Array("no-newline-at-the-end".utf8)
        let file = Self.temp("ref")
        let ours = Self.temp("ours")
        let theirs = Self.temp("theirs")
        defer { for u in [file, ours, theirs] { try? FileManager.default.removeItem(at: u) } }
        try Data(text).write(to: file)
        for threads in ["1", "2", "3", "8"] {
            let r = try CLI.run(["audit", file.path, "--threads", threads, "--emit-summary", ours.path, "--format", "json"])
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            let ref = try CLI.python("audit_summary_ref.py", ["summarise", file.path, "-o", theirs.path])
            #expect(ref.status == 0, "\(ref.output)")
            let diff = try CLI.python("audit_summary_ref.py", ["compare", ours.path, theirs.path])
            #expect(diff.status == 0, "\(diff.output)")
        }
        // The control: a summary with one count changed is told apart.
        var changed = try String(contentsOf: ours, encoding: .utf8)
        changed = changed.replacingOccurrences(of: "\"empty_lines\" : \"2\"", with: "\"empty_lines\" : \"3\"")
        try changed.write(to: ours, atomically: true, encoding: .utf8)
        #expect(try CLI.python("audit_summary_ref.py", ["compare", ours.path, theirs.path]).status != 0)
    }

    /// Shards by fingerprint, merged with --summary, give the unsharded answer.
    @Test func shardsMergeToTheWhole() throws {
        let file = Self.temp("shards")
        defer { try? FileManager.default.removeItem(at: file) }
        var ids = try CLI.run(["generate", "--alphabet", "hex", "--length", "7", "--count", "60000", "--seed", "8"]).stdout
        ids += ids.split(separator: "\n").prefix(500).joined(separator: "\n") + "\n\n"
        try Data(ids.utf8).write(to: file)
        let whole = try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))
        var paths: [String] = []
        for k in 1...3 {
            let s = Self.temp("shard\(k)")
            paths.append(s.path)
            let part = try Self.json(try CLI.run(["audit", file.path, "--shard", "\(k)/3", "--emit-summary", s.path, "--format", "json"]))
            #expect((part["ids"] as? String).flatMap(Int.init)! < 60_500)
        }
        defer { for p in paths { try? FileManager.default.removeItem(atPath: p) } }
        let merged = try Self.json(try CLI.run(["audit", "--summary"] + paths + ["--format", "json"]))
        for key in [
            "lines", "ids", "distinct", "duplicate_ids", "extra_occurrences", "empty_lines", "verdict_code", "p_value_high", "p_value_low",
            "format", "alphabet", "findings",
        ] {
            #expect(String(describing: merged[key]) == String(describing: whole[key]), "\(key)")
        }
        #expect(CLI.at(merged, "shards.count") as? Int == 3)
        let twice = try CLI.run(["audit", "--summary", paths[0], paths[0]])
        #expect(twice.status == 65 && twice.stderr.contains("--summary") && twice.stderr.split(separator: "\n").count == 1)
    }

    /// 2,000,000 distinct ids under --memory 64M: spilled, within the limit, and the same counts.
    @Test func memoryHoldsAndSpillingIsExact() throws {
        let file = Self.temp("memory")
        defer { try? FileManager.default.removeItem(at: file) }
        var ids = try CLI.run(["generate", "--alphabet", "base62", "--length", "16", "--count", "2000000", "--seed", "11"]).stdout
        ids += ids.split(separator: "\n").prefix(1000).joined(separator: "\n") + "\n"
        try Data(ids.utf8).write(to: file)
        let small = try Self.json(try CLI.run(["audit", file.path, "--memory", "64M", "--format", "json"]))
        let large = try Self.json(try CLI.run(["audit", file.path, "--memory", "1G", "--format", "json"]))
        #expect(small["spilled"] as? Bool == true && large["spilled"] as? Bool == false)
        let rss = (small["peak_rss_bytes"] as? String).flatMap(Int.init) ?? .max
        #expect(rss <= 64 << 20, "peak RSS \(rss >> 20) MiB")
        for key in ["ids", "distinct", "duplicate_ids", "extra_occurrences", "p_value_high", "verdict_code"] {
            #expect(String(describing: small[key]) == String(describing: large[key]), "\(key)")
        }
        #expect(small["distinct"] as? String == "2000000")
        // Many threads under a small limit: no more threads than it pays for, and the same counts.
        let many = try Self.json(try CLI.run(["audit", file.path, "--memory", "64M", "--threads", "64", "--format", "json"]))
        let manyRSS = (many["peak_rss_bytes"] as? String).flatMap(Int.init) ?? .max
        #expect(manyRSS <= 64 << 20, "peak RSS \(manyRSS >> 20) MiB at --threads 64")
        for key in ["ids", "distinct", "duplicate_ids", "extra_occurrences", "p_value_high", "verdict_code"] {
            #expect(String(describing: many[key]) == String(describing: large[key]), "\(key)")
        }
        // Interrupted while it spills, the audit removes its spill files and ends by the signal.
        let spillRoot = Self.temp("spill-root")
        try FileManager.default.createDirectory(at: spillRoot, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: spillRoot) }
        // From standard input (the tables spill as they go) and from the file (the fingerprints go
        // straight to the partitions, many threads writing while the signal lands).
        for (signal, fromFile, threads) in [(SIGTERM, false, "2"), (SIGINT, false, "2"), (SIGTERM, true, "8"), (SIGHUP, true, "3")] {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["audit", fromFile ? file.path : "-", "--memory", "64M", "--threads", threads]
            process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": spillRoot.path]) { $1 }
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Standard input, with no size to go by: the tables fill, then spill; the input stays open.
            let writer = input.fileHandleForWriting
            if !fromFile { writer.write(Data(ids.utf8)) }
            var spilling = false
            for _ in 0..<200 where !spilling {
                spilling = !((try? FileManager.default.contentsOfDirectory(atPath: spillRoot.path)) ?? []).isEmpty
                if !spilling { usleep(50_000) }
            }
            #expect(spilling, "no spill directory appeared")
            if fromFile { usleep(20_000) }  // the threads writing
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            try? writer.close()
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
            let left = (try? FileManager.default.contentsOfDirectory(atPath: spillRoot.path)) ?? []
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    @Test(arguments: [
        (["audit", "--memory", "10M"], "--memory"),
        (["audit", "--memory", "lots"], "--memory"),
        (["audit", "--shard", "0/2"], "--shard"),
        (["audit", "--shard", "3/2"], "--shard"),
        (["audit", "--shard", "1"], "--shard"),
        (["audit", "--threads", "0"], "--threads"),
        (["audit", "--threads", "65"], "--threads"),
        (["audit", "--threads", "two"], "--threads"),
        (["audit", "some-file", "--summary", "/nonexistent.json"], "--summary"),
        // The option that does not go with --summary is the one named.
        (["audit", "--summary", "s.json", "--shard", "1/2"], "--shard"),
        (["audit", "--summary", "s.json", "--emit-summary", "z.json"], "--emit-summary"),
    ])
    func badOptionsNameTheArgument(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }

    /// sysexits.h: an input that cannot be opened is 66, a corrupt summary 65, an --emit-summary path
    /// that cannot be created 73 — before any input is read (stdin here never ends).
    @Test(arguments: [
        (["audit", "--summary", "/nonexistent.json"], Int32(66), "--summary"),
        (["audit", "/nonexistent/ids.txt"], Int32(66), "FILE"),
        (["audit", "--summary", "/dev/null"], Int32(65), "--summary"),
        (["audit", "--summary", "/etc/hostname"], Int32(65), "--summary"),
        (["audit", "-", "--emit-summary", "/nonexistent-dir/s.json"], Int32(73), "--emit-summary"),
    ])
    func failuresHaveTheirStatus(arguments: [String], status: Int32, argument: String) throws {
        let r = try CLI.run(arguments, input: FileHandle(forReadingAtPath: "/dev/zero"))
        #expect(r.status == status && r.stdout.isEmpty, "\(r.status) \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(argument), "\(r.stderr)")
    }

    /// A mixed stream is judged group by group: UUIDv4 plus 6-character hex codes (each honest) is
    /// consistent, where pooling them over one space called the hex codes' duplicates impossible.
    /// Streams from Python's uuid and random (not idbudget's generator).
    @Test func mixedStreamsAreJudgedPerGroup() throws {
        let file = Self.temp("mixed")
        defer { try? FileManager.default.removeItem(at: file) }
        let made = try CLI.python("Tools/fuzz/audit_calibration.py", ["--dump", "mixed-uuid4-hex6", "60000", "7"])
        #expect(made.status == 0, "\(made.output.prefix(300))")
        try Data(made.output.utf8).write(to: file)
        let json = try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))
        #expect(json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? "")")
        let groups = json["groups"] as? [[String: Any]] ?? []
        #expect(Set(groups.compactMap { $0["length"] as? Int }) == [6, 36])
        #expect(groups.first { $0["length"] as? Int == 36 }?["format"] as? String == "UUIDv4")
        #expect(Int(json["extra_occurrences"] as? String ?? "") ?? 0 > 0)  // the hex codes do collide
        #expect(try SchemaTests.validate(try CLI.run(["audit", file.path, "--format", "json"]).stdout).status == 0)
        // Planted repeats of the UUIDs are still found, in their group.
        let lines = made.output.split(separator: "\n")
        let uuid = lines.first { $0.count == 36 }.map(String.init) ?? ""
        try Data((made.output + uuid + "\n").utf8).write(to: file)
        let planted = try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))
        #expect(planted["verdict_code"] as? String == "too-many-duplicates")
    }

    /// Audits `lines` written to `file`: the exit status and the verdict code (stderr when no JSON).
    static func verdict(_ lines: [String], in file: URL, _ extra: [String] = []) throws -> (Int32, String) {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let r = try CLI.run(["audit", file.path, "--format", "json"] + extra)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (r.status, json?["verdict_code"] as? String ?? r.stderr)
    }

    /// An outside tester's honest streams that were flagged, each now consistent (exit 0): one-symbol
    /// ids over an alphabet read off the ids, 65 lengths of hex (no groups kept), a few 2-digit codes
    /// among UUIDv4s, and one shard of two.
    @Test func honestStreamsTheTesterFlagged() throws {
        var rng = SplitMix(state: 0x9E37_79B9_7F4A_7C15)
        let hex = Array("0123456789abcdef")
        let file = Self.temp("tester")
        defer { try? FileManager.default.removeItem(at: file) }
        func audit(_ lines: [String], _ extra: [String] = []) throws -> (Int32, String) { try Self.verdict(lines, in: file, extra) }
        let printable = (33..<127).map { String(UnicodeScalar(UInt8($0))) }
        #expect(try audit((0..<60).map { _ in printable[Int(rng.next() % 94)] }) == (0, "consistent"))
        let cjk = (0..<500).map { _ in String(UnicodeScalar(UInt32(0x4E00) + UInt32(rng.next() % 1000))!) }
        #expect(try audit(cjk) == (0, "consistent"))
        #expect(try audit((3..<68).flatMap { length in (0..<200).map { _ in rng.token(hex, length) } }) == (0, "consistent"))
        let uuids = (0..<100_000).map { _ in
            rng.token(hex, 8) + "-" + rng.token(hex, 4) + "-4" + rng.token(hex, 3) + "-" + rng.token(Array("89ab"), 1) + rng.token(hex, 3)
                + "-" + rng.token(hex, 12)
        }
        #expect(try audit(uuids + (0..<30).map { _ in String(format: "%02d", Int(rng.next() % 100)) }) == (0, "consistent"))
        let codes = (0..<30_000).map { _ in rng.token(hex, 4) }
        #expect(try audit(codes) == (0, "consistent"))
        #expect(try audit(codes, ["--shard", "1/2"]) == (0, "consistent"))
        let directory = try CLI.run(["audit", FileManager.default.temporaryDirectory.path])
        #expect(directory.status == 66 && directory.stderr.split(separator: "\n").count == 1, "\(directory.status) \(directory.stderr)")
    }

    /// The second round's honest shapes: binary strings (not decimal ones), one shard of a small
    /// space, a long constant prefix past 64 positions, two non-ASCII alphabets of two lengths; and a
    /// summary that would overwrite its input is refused.
    @Test func honestStreamsTheTesterFlaggedAgain() throws {
        var rng = SplitMix(state: 0x1234_5678_9ABC_DEF1)
        let file = Self.temp("tester2")
        defer { try? FileManager.default.removeItem(at: file) }
        func audit(_ lines: [String], _ extra: [String] = []) throws -> (Int32, String) { try Self.verdict(lines, in: file, extra) }
        func token(_ symbols: [Character], _ n: Int) -> String { rng.token(symbols, n) }
        // 7 binary strings with one honest duplicate: over 2^8, not 10^8.
        #expect(try audit(["11010000", "00100111", "01101000", "01010101", "01101000", "11100001", "00011110"]) == (0, "consistent"))
        let decimal = Array("0123456789")
        let small = (0..<5000).map { _ in token(decimal, 3) }
        #expect(try audit(small, ["--shard", "1/2"]) == (0, "consistent"))
        let hex = Array("0123456789abcdef")
        let prefixed = (0..<200_000).map { _ in
            "https://files.example.com/customer-uploads/2024/archive/by-tenant/acme/obj/" + token(hex, 8)
        }
        #expect(try audit(prefixed) == (0, "consistent"))
        let greek = Array("αβγδ")
        let cyrillic = Array("абвгдежзийклмнопрстуфхцчшщъыьэюя")
        #expect(try audit((0..<100).map { _ in token(greek, 2) } + (0..<100).map { _ in token(cyrillic, 10) }) == (0, "consistent"))
        try Data("a1\nb2\n".utf8).write(to: file)
        let same = try CLI.run(["audit", file.path, "--emit-summary", file.path])
        let kept = try String(contentsOf: file, encoding: .utf8)
        #expect(same.status == 64 && kept == "a1\nb2\n", "\(same.status) \(same.stderr)")
    }

    /// The summary is never written over the ids it reads: not when standard input is that file
    /// (`- < x`), not through /dev/stdin. Exit 64, the file untouched.
    @Test func theInputIsNeverOverwritten() throws {
        let file = Self.temp("keep")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("a1\nb2\n".utf8).write(to: file)
        for arguments in [["audit", "-", "--emit-summary", file.path], ["audit", "--emit-summary", "/dev/stdin"]] {
            let r = try CLI.run(arguments, input: try FileHandle(forReadingFrom: file))
            let kept = try String(contentsOf: file, encoding: .utf8)
            #expect(r.status == 64 && kept == "a1\nb2\n", "\(arguments): \(r.status) \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("--emit-summary"), "\(r.stderr)")
        }
    }

    /// A failed run leaves the `--emit-summary` path as it found it: an earlier summary is neither
    /// emptied nor removed by bad data (65) or a read that fails (74), and a new path gets no empty
    /// file; a run that ends well replaces it whole, through a symbolic link to the file it names,
    /// leaving no temporary beside it.
    @Test func aFailedRunKeepsTheSummaryItFound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("emit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("h.csv")
        let empty = directory.appendingPathComponent("empty.csv")
        let keep = directory.appendingPathComponent("keep.json")
        let fresh = directory.appendingPathComponent("new.json")
        try Data("a,b\n1,2\n".utf8).write(to: csv)
        try Data().write(to: empty)
        for (arguments, status) in [
            (["audit", csv.path, "--column", "id"], Int32(65)), (["audit", csv.path, "--column", "99"], 65),
            (["audit", empty.path, "--column", "id"], 65), (["audit", directory.path], 66),
        ] {
            try Data("precious\n".utf8).write(to: keep)
            let r = try CLI.run(arguments + ["--emit-summary", keep.path])
            #expect(r.status == status, "\(arguments): \(r.status) \(r.stderr)")
            #expect((try? String(contentsOf: keep, encoding: .utf8)) == "precious\n", "\(arguments)")
            let other = try CLI.run(arguments + ["--emit-summary", fresh.path])
            #expect(other.status == status && !FileManager.default.fileExists(atPath: fresh.path), "\(arguments)")
        }
        let link = directory.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: keep.path)
        let ids = directory.appendingPathComponent("ids.txt")
        try Data((0..<100).map { _ in UUID().uuidString.lowercased() + "\n" }.joined().utf8).write(to: ids)
        let r = try CLI.run(["audit", ids.path, "--emit-summary", link.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == keep.path)
        #expect(try String(contentsOf: keep, encoding: .utf8).contains("\"schema_version\""))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["empty.csv", "h.csv", "ids.txt", "keep.json", "link.json"], "\(names)")
    }

    /// A node-id summary whose largest sequence is past its layout's field (a Snowflake millisecond
    /// holds 4,096) was never read from ids: corrupt, exit 65; the sequence as written is judged.
    @Test func aSequencePastItsFieldIsCorrupt() throws {
        let ids = Self.temp("sf-ids")
        let summary = Self.temp("sf-summary")
        defer { for f in [ids, summary] { try? FileManager.default.removeItem(at: f) } }
        let made = try CLI.run(["generate", "--scheme", "snowflake", "--count", "5000"])
        try Data(made.stdout.utf8).write(to: ids)
        #expect(try CLI.run(["audit", ids.path, "--emit-summary", summary.path]).status == 0)
        let written = try Data(contentsOf: summary)
        for (top, status) in [("4095", Int32(0)), ("4096", 65), ("5000000", 65)] {
            var json = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
            var nodes = try #require(json["node_formats"] as? [String: Any])
            var snowflake = try #require(nodes["snowflake"] as? [String: Any])
            snowflake["max_sequence"] = top
            nodes["snowflake"] = snowflake
            json["node_formats"] = nodes
            try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]).write(to: summary)
            let r = try CLI.run(["audit", "--summary", summary.path])
            #expect(r.status == status, "max_sequence \(top): \(r.status) \(r.stderr)")
        }
    }

    /// `--summary -` reads the summary from standard input; a summary whose counts are impossible
    /// (more distinct ids than its symbols can spell) is corrupt, exit 65, where the same summary with
    /// possible counts is judged.
    @Test func summariesFromStandardInputAndImpossibleCounts() throws {
        let ids = Self.temp("ids6")
        let summary = Self.temp("s6")
        defer { for f in [ids, summary] { try? FileManager.default.removeItem(at: f) } }
        let tokens = try CLI.run(["generate", "--alphabet", "base62", "--length", "6", "--count", "1000", "--seed", "5"]).stdout
        try Data(tokens.utf8).write(to: ids)
        let direct = try Self.json(try CLI.run(["audit", ids.path, "--emit-summary", summary.path, "--format", "json"]))
        let piped = try Self.json(
            try CLI.run(["audit", "--summary", "-", "--format", "json"], input: try FileHandle(forReadingFrom: summary)))
        #expect(piped["verdict_code"] as? String == direct["verdict_code"] as? String && piped["distinct"] as? String == "1000")
        // Every count times `factor`: 10^12 distinct base62×6 ids, where 62^6 ≈ 5.7·10^10 exist.
        let original = try JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as! [String: Any]
        func scaled(_ value: Any, by factor: Int) -> Any {
            if let text = value as? String, let n = Int(text) { return String(n * factor) }
            if let list = value as? [Any] { return list.map { scaled($0, by: factor) } }
            if let object = value as? [String: Any] { return object.mapValues { scaled($0, by: factor) } }
            return value
        }
        for (factor, status) in [(1_000_000_000, Int32(65)), (10, Int32(1))] {
            var json = original
            for key in ["ids", "lines", "lengths", "multiplicities", "positions", "groups"] { json[key] = scaled(json[key]!, by: factor) }
            try JSONSerialization.data(withJSONObject: json).write(to: summary)
            let r = try CLI.run(["audit", "--summary", summary.path])
            #expect(r.status == status, "×\(factor): \(r.status) \(r.stderr)")
            if status == 65 { #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("distinct"), "\(r.stderr)") }
        }
        // One id seen 1,000 times, its positions still showing some 60 symbols each: no log's counts.
        var one = original
        one["multiplicities"] = ["1000": "1"]
        if var groups = one["groups"] as? [String: Any] {
            for (k, g) in groups {
                guard var g = g as? [String: Any] else { continue }
                g["multiplicities"] = ["1000": "1"]
                groups[k] = g
            }
            one["groups"] = groups
        }
        try JSONSerialization.data(withJSONObject: one).write(to: summary)
        let r = try CLI.run(["audit", "--summary", summary.path])
        #expect(r.status == 65 && r.stderr.contains("more symbols than the summary has distinct ids"), "\(r.status) \(r.stderr)")
    }

    /// A generator stuck on one id: 2 to 25 copies fail as too many duplicates (its copies must not
    /// make every position look constant and shrink the space until they explain themselves); a few
    /// honest ids are still consistent.
    @Test(arguments: [2, 3, 21, 25])
    func copiesOfOneIdFail(copies: Int) throws {
        let file = Self.temp("stuck")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(String(repeating: "3fA9kQ2mZx81LpWcVb7NtR\n", count: copies).utf8).write(to: file)
        let json = try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))
        #expect(json["verdict_code"] as? String == "too-many-duplicates", "\(json["findings"] ?? "")")
        try Data("3fA9kQ2mZx81LpWcVb7NtR\nQ7pLm2ZxW9cVb4NtR8kA1s\nk2ZxW9cV3fA9bNtR8Lp7mQ\n".utf8).write(to: file)
        #expect(try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))["verdict_code"] as? String == "consistent")
    }

    /// TypeIDs in the logs they share: beside a UUIDv4, behind a CSV header, beside base62 tokens of
    /// another length, two prefixes and a header, three prefix lengths beside UUIDv4s and a header,
    /// prefixless TypeIDs beside UUIDv4s or prefixed ones: each judged by its buckets, consistent; a repeated TypeID among them still fails.
    @Test func typeIDsInMixedLogs() throws {
        let file = Self.temp("typeid")
        defer { try? FileManager.default.removeItem(at: file) }
        let user = try CLI.run(["generate", "--scheme", "typeid", "--prefix", "user", "--count", "10000"]).stdout
        let order = try CLI.run(["generate", "--scheme", "typeid", "--prefix", "order", "--count", "5000"]).stdout
        let uuid = try CLI.run(["generate", "--scheme", "uuid4", "--count", "1"]).stdout
        let tokens = try CLI.run(["generate", "--alphabet", "base62", "--length", "22", "--count", "5000"]).stdout
        let line = try CLI.run(["generate", "--scheme", "typeid", "--prefix", "invoice_line", "--count", "3000"]).stdout
        let uuids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "3000"]).stdout
        let bare = try CLI.run(["generate", "--scheme", "typeid", "--count", "5000"]).stdout  // no prefix: 26 characters
        for (name, text) in [
            ("a UUIDv4", user + uuid), ("a header", "id\n" + user), ("tokens", user + tokens), ("two prefixes", user + order + "id\n"),
            ("two prefix lengths and tokens", user + order + tokens),
            ("three prefix lengths, UUIDv4s", "id\n" + user + order + line + uuids),
            ("prefixless beside UUIDv4s", bare + uuids), ("prefixless beside user_", bare + user),
        ] {
            try Data(text.utf8).write(to: file)
            let json = try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))
            let groups = (json["groups"] as? [[String: Any]] ?? []).compactMap { $0["format"] as? String }
            #expect(json["verdict_code"] as? String == "consistent", "\(name): \(json["findings"] ?? "")")
            #expect(json["format"] as? String == "TypeID" || groups.contains("TypeID"), "\(name): \(json["format"] ?? "") \(groups)")
        }
        for mixed in [user + tokens, user + order + tokens] {
            let repeated =
                mixed + (order.split(separator: "\n").first.map { $0 + "\n" } ?? "")
                + (user.split(separator: "\n").first.map { $0 + "\n" } ?? "")
            try Data(repeated.utf8).write(to: file)
            #expect(
                try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))["verdict_code"] as? String == "too-many-duplicates")
        }
    }

    /// `--memory max` is the machine's memory; the entropy's lower bound never exceeds its estimate.
    @Test func memoryMaxAndEntropyBounds() throws {
        let file = Self.temp("max")
        defer { try? FileManager.default.removeItem(at: file) }
        var ids = try CLI.run(["generate", "--alphabet", "hex", "--length", "6", "--count", "30000", "--seed", "8"]).stdout
        ids += ids.split(separator: "\n").prefix(40).joined(separator: "\n") + "\n"
        try Data(ids.utf8).write(to: file)
        let json = try Self.json(try CLI.run(["audit", file.path, "--memory", "max", "--format", "json"]))
        #expect((json["memory_limit_bytes"] as? String).flatMap(Int.init) ?? 0 >= 1 << 30)
        let bits = json["effective_bits"] as? Double ?? .nan
        let lower = json["effective_bits_95_lower"] as? Double ?? .nan
        #expect(lower <= bits, "\(lower) > \(bits)")
    }

    /// The exit status a CI job acts on: 0 consistent, 1 otherwise, with the JSON printed either way.
    @Test func verdictsHaveExitStatuses() throws {
        let file = Self.temp("verdicts")
        defer { try? FileManager.default.removeItem(at: file) }
        func audit(_ text: String) throws -> (Int32, String) {
            try Data(text.utf8).write(to: file)
            let r = try CLI.run(["audit", file.path, "--format", "json"])
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            return (r.status, json?["verdict_code"] as? String ?? "no JSON: \(r.stderr)")
        }
        let ids = try CLI.run(["generate", "--alphabet", "base62", "--length", "16", "--count", "20000", "--seed", "4"]).stdout
        #expect(try audit(ids) == (0, "consistent"))
        let lines = ids.split(separator: "\n")
        #expect(try audit(ids + lines[0...2].joined(separator: "\n") + "\n") == (1, "too-many-duplicates"))
        #expect(try audit((0..<100_000).map { String(format: "%05d", $0) }.joined(separator: "\n") + "\n") == (1, "too-few-duplicates"))
        #expect(try audit("") == (1, "empty"))
        #expect(try audit("\n\n") == (1, "empty"))
    }

    /// A summary to a full disk, spill files where none can be written: one line, exit 74.
    @Test func writeFailuresAreExit74() throws {
        let file = Self.temp("full")
        defer { try? FileManager.default.removeItem(at: file) }
        let ids = try CLI.run(["generate", "--alphabet", "base62", "--length", "12", "--count", "1200000", "--seed", "12"]).stdout
        try Data(ids.utf8).write(to: file)
        let full = try CLI.run(["audit", file.path, "--emit-summary", "/dev/full"])
        #expect(full.status == 74 && full.stderr.split(separator: "\n").count == 1, "\(full.status) \(full.stderr)")
        let spill = try CLI.run(["audit", file.path, "--memory", "64M"], environment: ["TMPDIR": "/nonexistent-dir"])
        #expect(
            spill.status == 74 && spill.stderr.split(separator: "\n").count == 1 && spill.stderr.contains("TMPDIR"),
            "\(spill.status) \(spill.stderr)")
    }

    /// `--emit-summary` with a one-character relative name (it trapped in Foundation's path split) is
    /// written like any other; an empty path is bad usage before any id is read.
    @Test func summaryPathsShortAndEmpty() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-short-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("6b1e1c1a-3d2f-4c5b-9a8e-1f2e3d4c5b6a\n".utf8).write(to: dir.appendingPathComponent("ids.txt"))
        for name in ["s", "-"] {
            let r = try CLI.run(["audit", "ids.txt", "--emit-summary", name], directory: dir)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(name): \(r.status) \(r.stderr)")
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains("\"ids\""), "\(name): \(text.prefix(200))")
        }
        try CLI.expectUsageError(["audit", dir.appendingPathComponent("ids.txt").path, "--emit-summary", ""], naming: "--emit-summary")
    }

    /// README's example: a UUIDv7 stream read as UUIDv7, judged per millisecond.
    @Test func aTimeOrderedStream() throws {
        let file = Self.temp("uuid7")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try CLI.run(["generate", "--scheme", "uuid7", "--count", "100000"]).stdout.utf8).write(to: file)
        let json = try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))
        #expect(json["format"] as? String == "UUIDv7" && json["time_format"] as? String == "uuid7")
        #expect(json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? "")")
        #expect(CLI.at(json, "space.summary") as? String == "UUIDv7: 2^74 per millisecond")
        #expect(try SchemaTests.validate(try CLI.run(["audit", file.path, "--format", "json"]).stdout).status == 0)
    }

    /// A cuid2 stream is named cuid2, its space exactly 26·36^23, and its random bits per id as `schemes`
    /// counts them (123, whole bits); a stream of UUIDv1 says its bits per id and per process.
    @Test func cuid2AndUUIDv1AreNamed() throws {
        let file = Self.temp("cuid2")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try CLI.run(["generate", "--scheme", "cuid2", "--count", "20000"]).stdout.utf8).write(to: file)
        let json = try Self.json(try CLI.run(["audit", file.path, "--format", "json"]))
        #expect((json["format"] as? String)?.hasPrefix("cuid2") == true, "\(json["format"] ?? "")")
        #expect(CLI.at(json, "space.summary") as? String == "cuid2: 26·36^23")
        #expect(Int((json["random_bits"] as? Double ?? 0).rounded(.down)) == 123)
        #expect(json["verdict_code"] as? String == "consistent")
        let v1 = Self.temp("uuid1")
        defer { try? FileManager.default.removeItem(at: v1) }
        try Data(try CLI.run(["generate", "--scheme", "uuid1", "--count", "20000"]).stdout.utf8).write(to: v1)
        let findings = try Self.json(try CLI.run(["audit", v1.path, "--format", "json"]))["findings"] as? [String] ?? []
        #expect(findings.first?.contains("0 random bits per id (per 100 ns tick), 61 per process") == true, "\(findings.first ?? "")")
    }
}
