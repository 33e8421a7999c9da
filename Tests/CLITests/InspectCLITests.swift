import Foundation
import TestSupport
import Testing

/// `idbudget inspect` against the formats' own libraries (Tests/Oracles/inspect_ref.py): ids they mint
/// read here with the fields they report, and ids idbudget mints read there with the fields idbudget
/// reports; one schema-valid JSON object a line; exit 1 when an id is valid in no format.
@Suite(.oracles) struct InspectCLITests {
    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Runs `inspect` with `ids` on standard input.
    static func inspect(_ arguments: [String], stdin ids: [String]) throws -> CLI.Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try Data((ids.joined(separator: "\n") + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try CLI.run(["inspect"] + arguments, input: try FileHandle(forReadingFrom: file))
    }

    /// Every field the reference reports, equal; `-` when the reading lacks it.
    static func compare(_ fields: [String: Any], _ reference: [String: Any], _ label: String) {
        for (key, want) in reference {
            #expect("\(fields[key] ?? "-")" == "\(want)", "\(label): \(key)")
        }
    }

    @Test func idsTheirLibrariesMintReadTheSame() throws {
        let minted = try Oracle.run("inspect_ref.py", ["mint"], mergeErrors: false)
        try #require(minted.status == 0, "\(minted.output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(minted.output.utf8)) as? [String: Any])
        let cases = try #require(json["cases"] as? [[String: Any]])
        #expect(cases.count >= 60)
        let formats = Set(cases.compactMap { $0["format"] as? String })
        #expect(formats.count == 20, "\(formats.sorted())")
        for format in formats.sorted() {
            let mine = cases.filter { $0["format"] as? String == format }
            let ids = mine.compactMap { $0["id"] as? String }
            let r = try Self.inspect(["--scheme", format, "--format", "json"], stdin: ids)
            #expect(r.status == 0, "\(format): \(r.stderr)")
            let answers = Self.lines(r.stdout)
            try #require(answers.count == ids.count, "\(format)")
            for (answer, ref) in zip(answers, mine) {
                let reading = (answer["readings"] as? [[String: Any]])?.first
                let fields = reading?["fields"] as? [String: Any] ?? [:]
                Self.compare(fields, ref["fields"] as? [String: Any] ?? [:], "\(format) \(ref["id"] ?? "")")
            }
        }
        // Without --scheme each is still read as its own format (among any others it is valid in).
        let all = try Self.inspect(["--format", "json"], stdin: cases.compactMap { $0["id"] as? String })
        for (answer, ref) in zip(Self.lines(all.stdout), cases) {
            let names = (answer["readings"] as? [[String: Any]] ?? []).compactMap { $0["format"] as? String }
            #expect(names.contains(ref["format"] as? String ?? "?"), "\(ref["id"] ?? "") read as \(names)")
        }
    }

    @Test(arguments: [
        ["--scheme", "uuid4"], ["--scheme", "uuid7"], ["--scheme", "ulid"], ["--scheme", "ksuid"],
        ["--scheme", "typeid", "--prefix", "user"],
        ["--scheme", "typeid"], ["--scheme", "nanoid"],
        ["--scheme", "uuid1"], ["--scheme", "uuid6"], ["--scheme", "uuid8"], ["--scheme", "xid"], ["--scheme", "objectid"],
        ["--scheme", "tsid"], ["--scheme", "cuid2"], ["--scheme", "firebase"], ["--scheme", "snowflake"],
        ["--scheme", "discord"], ["--scheme", "instagram"], ["--scheme", "sonyflake"],
    ])
    func idsIdbudgetMintsReadThere(generate: [String]) throws {
        let format = generate[1]
        let ids = try CLI.run(["generate", "--count", "20"] + generate).stdout.split(separator: "\n").map(String.init)
        try #require(ids.count == 20)
        let r = try Self.inspect(["--scheme", format, "--format", "json"], stdin: ids)
        let answers = Self.lines(r.stdout)
        try #require(answers.count == 20)
        let read = try Oracle.run(
            "inspect_ref.py", ["read"], input: ids.map { "\(format) \($0)" }.joined(separator: "\n") + "\n", mergeErrors: false)
        let references = Self.lines(read.output)
        try #require(references.count == 20, "\(read.output)")
        for (answer, ref) in zip(answers, references) {
            #expect(ref["error"] == nil, "\(ref)")
            let fields = (answer["readings"] as? [[String: Any]])?.first?["fields"] as? [String: Any] ?? [:]
            Self.compare(fields, ref, "\(format) \(answer["id"] ?? "")")
        }
    }

    /// Crockford's aliases in TSIDs (O for 0, I and L for 1, either case) read as tsidpy reads them;
    /// U stays refused.
    @Test func tsidAliasesReadAsTsidpyReadsThem() throws {
        let minted = try CLI.run(["generate", "--scheme", "tsid", "--count", "60"]).stdout.split(separator: "\n").map(String.init)
        let aliases: [Character: [Character]] = ["0": ["O", "o"], "1": ["I", "L", "i", "l"]]
        var n = 0
        let mutated = minted.map { id in
            String(
                id.map { c -> Character in
                    guard let choices = aliases[c] else { return c }
                    n += 1
                    return choices[n % choices.count]
                })
        }
        let changed = zip(minted, mutated).filter { $0 != $1 }.count
        #expect(changed >= 30, "only \(changed) ids hold a 0 or 1")
        let reference = try Oracle.run(
            "inspect_ref.py", ["read"], input: mutated.map { "tsid \($0)" }.joined(separator: "\n") + "\n", mergeErrors: false)
        try #require(reference.status == 0, "\(reference.output)")
        let wanted = Self.lines(reference.output).map { $0["value"] as? String ?? "\($0)" }
        let r = try Self.inspect(["--scheme", "tsid", "--format", "json"], stdin: mutated)
        #expect(r.status == 0, "\(r.stdout.prefix(400))")
        let got = Self.lines(r.stdout).map { answer in
            ((answer["readings"] as? [[String: Any]])?.first?["fields"] as? [String: Any])?["value"] as? String ?? "none"
        }
        #expect(got == wanted)
        // The originals read as the same numbers.
        let plain = Self.lines(try Self.inspect(["--scheme", "tsid", "--format", "json"], stdin: minted).stdout).map { answer in
            ((answer["readings"] as? [[String: Any]])?.first?["fields"] as? [String: Any])?["value"] as? String ?? "none"
        }
        #expect(plain == got)
        #expect(try CLI.run(["inspect", "--scheme", "tsid", "0SCD3N27S7UXF"]).status == 1)
    }

    /// Bytes that are not UTF-8 are named as such, by offset, and echoed as `\xNN`: never rewritten
    /// to U+FFFD and then described as other bytes.
    @Test func invalidUTF8IsNamedByItsBytes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bytes-\(UUID().uuidString)")
        try Data([0xFF, 0xFE, 0xC3, 0x28, 0x0A]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["inspect", "--format", "json"], input: try FileHandle(forReadingFrom: file))
        #expect(r.status == 1)
        let answer = try #require(Self.lines(r.stdout).first)
        #expect(answer["id"] as? String == "\\xff\\xfe\\xc3(")
        let reason = (answer["rejections"] as? [[String: Any]])?.first?["reason"] as? String ?? ""
        #expect(reason.contains("not UTF-8") && reason.contains("1 (0xff), 2 (0xfe), 3 (0xc3)") && !reason.contains("0xef"), "\(reason)")
    }

    /// Text that is UTF-8 but not ASCII is described in characters, not bytes: its length (with its
    /// bytes beside), and the character at fault; a backslash of a line that is not UTF-8 is echoed
    /// doubled, so a typed `\xff` is not taken for the byte.
    @Test func charactersAreCountedAsCharacters() throws {
        func reason(_ line: String) throws -> String {
            let answer = try #require(Self.lines(try Self.inspect(["--scheme", "ulid", "--format", "json"], stdin: [line]).stdout).first)
            return (answer["rejections"] as? [[String: Any]])?.first?["reason"] as? String ?? ""
        }
        let ascii = "is not ASCII, and every character of these ids is"
        #expect(try reason("café") == "character 4 ('é') \(ascii)")
        #expect(try reason("cafe\u{301}") == "character 4 ('e\u{301}') \(ascii)")
        #expect(try reason("01M8éG32EH949Y3V0G4YYKBJRX") == "character 5 ('é') \(ascii)")
        #expect(try reason("01M8MC0H195HFF484BCWYRRY😀1") == "character 25 ('😀') \(ascii)")
        #expect(try reason("01M8\u{200F}G32EH949Y3V0G4YYKBJRX") == "character 5 (U+200F) \(ascii)")
        #expect(try reason("01M8MC0H195HFF484BCWYRRY") == "a ULID is 26 characters; this has 24")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bytes-\(UUID().uuidString)")
        try Data(Array("\\xff".utf8) + [0xFF, 0x0A]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try CLI.run(["inspect", "--format", "json"], input: try FileHandle(forReadingFrom: file))
        #expect(try #require(Self.lines(r.stdout).first)["id"] as? String == "\\\\xff\\xff")
    }

    /// One definition of random bits: for every format idbudget mints, `schemes` and `inspect` of a
    /// minted id give the same bits per id and per process (absent in `inspect` when none), and so does
    /// `audit` of 3,000 of them (its `judged_bits` says what the duplicate test weighed, where that
    /// differs); the `bytes` column is the text's (the binary form's is `binary_bytes`). Prefixless
    /// TypeIDs and Firebase ids are not yet told apart by the audit (read as ULID, as base64url tokens).
    @Test func schemesAndInspectCountTheSameRandomBits() throws {
        let schemes = try JSONSerialization.jsonObject(with: Data(CLI.run(["schemes", "--format", "json"]).stdout.utf8)) as? [String: Any]
        let rows = try #require(schemes?["rows"] as? [[String: Any]])
        for row in rows where row["mintable"] as? Bool == true {
            let name = try #require(row["name"] as? String)
            let id = try CLI.run(["generate", "--scheme", name, "--count", "1"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let answer = try #require(Self.lines(try Self.inspect(["--scheme", name, "--format", "json"], stdin: [id]).stdout).first)
            let fields = try #require((answer["readings"] as? [[String: Any]])?.first?["fields"] as? [String: Any], "\(name) \(id)")
            #expect(fields["random_bits"] as? Int == row["bits"] as? Int, "\(name): per id")
            let perProcess = row["process_bits"] as? Int ?? -1
            #expect((fields["process_random_bits"] as? Int ?? 0) == perProcess, "\(name): per process")
            #expect(row["bytes"] as? Int == row["length"] as? Int, "\(name): bytes are the text's")
            guard name != "typeid" && name != "firebase" else { continue }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("ids-\(name)-\(UUID().uuidString)")
            try Data(CLI.run(["generate", "--scheme", name, "--count", "3000"]).stdout.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let audit = try CLI.run(["audit", "--format", "json", file.path])
            let report = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any], "\(name)")
            let bits = try #require(report["random_bits"] as? Double, "\(name)")
            #expect(abs(bits - Double(row["bits"] as? Int ?? -1)) < 1, "\(name): audit's random_bits \(bits)")
            if let process = report["process_random_bits"] as? Int {
                #expect(process == perProcess, "\(name): audit's process_random_bits")
            } else {
                #expect(perProcess == 0, "\(name): the audit gives no process bits")
            }
        }
        let snowflake = try #require(rows.first { $0["name"] as? String == "snowflake" })
        #expect(snowflake["bytes"] as? Int == 19 && snowflake["binary_bytes"] as? Int == 8 && snowflake["process_bits"] as? Int == 10)
    }

    @Test func jsonLinesMatchTheSchema() throws {
        let r = try Self.inspect(
            ["--format", "json"],
            stdin: [
                "user_01h455vb4pex5vsknk084sn02q", "175928847299117063", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ",
                "60ed9e1c-e92e-11f1-9339-02fc00000001", "x\u{7}y",
            ])
        #expect(r.status == 1)  // 8ZZZ… and x\u{7}y are valid in no format
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 5)
        for line in lines {
            let v = try SchemaTests.validate(String(line))
            #expect(v.status == 0, "\(v.output)")
        }
    }

    @Test func exitStatusesAndHostileInput() throws {
        #expect(try CLI.run(["inspect", "01h455vb4pex5vsknk084sn02q"]).status == 0)
        let bad = try CLI.run(["inspect", "01h455vb4pex5vsknk084sn02q", "not an id\u{1b}[31m"])
        #expect(bad.status == 1)
        #expect(!bad.stdout.contains("\u{1b}"), "a control character reached the terminal")
        #expect(try Self.inspect([], stdin: []).status == 1)  // nothing to inspect
        let empty = try CLI.run(["inspect"], input: FileHandle(forReadingAtPath: "/dev/null"))
        #expect(empty.status == 1 && empty.stderr.contains("standard input was empty"))
        let blank = try Self.inspect([], stdin: ["", "\r", ""])
        #expect(blank.status == 1 && blank.stderr.contains("only blank lines"), "\(blank.stderr)")
        // A 100,000-byte line and invalid UTF-8: refused, one answer each, no trap.
        let huge = String(repeating: "z", count: 100_000)
        let r = try Self.inspect(["--format", "json"], stdin: [huge, "\u{FFFD}\u{FFFD}", "01h455vb4pex5vsknk084sn02q"])
        #expect(r.status == 1)
        let answers = Self.lines(r.stdout)
        #expect(answers.count == 3 && answers[2]["valid"] as? Bool == true)
        #expect(
            (answers[0]["rejections"] as? [[String: Any]])?.first?["reason"] as? String == "100000 bytes, longer than 4096; no id format is"
        )
    }

    @Test(arguments: [
        (["inspect", "--scheme", "uuid9", "x"], "--scheme"),
        (["inspect", "-", "-"], "id"),
    ])
    func badUsageNamesTheArgument(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }

    @Test func aFullDiskIsAnIOError() throws {
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let r = try CLI.run(["inspect", "01h455vb4pex5vsknk084sn02q"], output: full)
        #expect(r.status == 74)
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    /// `| head`: the reader stops, inspect stops quietly — never a death by SIGPIPE (the outside tester's case).
    @Test func aClosedPipeEndsQuietly() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "100000"]).stdout
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-pipe-\(UUID().uuidString)")
        try Data(ids.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "'\(CLI.executable.path)' inspect < '\(file.path)' | head -1 >/dev/null; echo ${PIPESTATUS[0]}"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// A line past 4096 bytes is reported with its real size, not the 4097 bytes kept.
    @Test func anOverlongLineKeepsItsSize() throws {
        let r = try Self.inspect(["--format", "json"], stdin: [String(repeating: "a", count: 1_000_000)])
        let answer = try #require(Self.lines(r.stdout).first)
        #expect((answer["id"] as? String)?.hasSuffix("… (1000000 bytes)") == true)
        #expect(
            (answer["rejections"] as? [[String: Any]])?.first?["reason"] as? String == "1000000 bytes, longer than 4096; no id format is")
    }
}
