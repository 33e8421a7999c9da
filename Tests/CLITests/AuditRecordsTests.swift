import Foundation
import TestSupport
import Testing

/// `idbudget audit --column` and `--field`: ids taken out of CSV, TSV and JSON-lines logs as Python's
/// csv and json modules take them (Tests/Oracles/records_ref.py writes the logs — a header with a
/// byte-order mark, quoted commas and quotes, line breaks inside fields, CRLF, rows without the
/// column, escapes, nested objects, numbers, nulls, lines that are not JSON — and the ids it reads).
/// The summary of the log equals the summary of Python's ids, and the records it counts agree.
@Suite(.serialized, .oracles) struct AuditRecordsTests {
    static let made: URL? = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("records-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        guard let r = try? CLI.python("Tests/Oracles/records_ref.py", [dir.path]), r.status == 0 else { return nil }
        return dir
    }()

    @Test(arguments: [
        ("t.csv", ["--column", "id"]), ("t.tsv", ["--column", "id", "--delimiter", "tab"]), ("t.csv", ["--column", "3"]),
        ("t3.csv", ["--column", "id"]), ("t.jsonl", ["--field", "req.id"]),
    ])
    func idsAreThoseParsersRead(log: String, arguments: [String]) throws {
        let dir = try #require(Self.made, "records_ref.py did not run")
        let file = dir.appendingPathComponent(log)
        let mine = dir.appendingPathComponent("\(log)-\(arguments.joined()).mine.json")
        let theirs = dir.appendingPathComponent("\(log)-\(arguments.joined()).theirs.json")
        let r = try CLI.run(["audit", file.path, "--format", "json", "--emit-summary", mine.path] + arguments)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
        let answer = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        // With a column number the header row is data: its "id" is one more id.
        let headerRow = arguments == ["--column", "3"] ? 1 : 0
        let reference = dir.appendingPathComponent("\(log)-\(arguments.joined()).ids")
        try Data((headerRow == 1 ? "id\r\n" : "").utf8 + (try Data(contentsOf: URL(fileURLWithPath: file.path + ".ids")))).write(
            to: reference)
        let ref = try CLI.run(["audit", reference.path, "--format", "json", "--emit-summary", theirs.path])
        #expect(ref.status == 0 || ref.status == 1, "\(ref.stderr)")
        let a = try JSONSerialization.jsonObject(with: Data(contentsOf: mine)) as? [String: Any] ?? [:]
        let b = try JSONSerialization.jsonObject(with: Data(contentsOf: theirs)) as? [String: Any] ?? [:]
        #expect(
            !a.isEmpty && NSDictionary(dictionary: a).isEqual(to: b),
            "summaries differ in \(a.keys.filter { "\(a[$0]!)" != "\(b[$0] ?? "")" })")
        let counts = try String(contentsOf: URL(fileURLWithPath: file.path + ".counts"), encoding: .utf8).split(separator: " ")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let records = answer["records"] as? [String: Any] ?? [:]
        #expect(records["read"] as? String == String(counts[0] + headerRow), "\(records)")
        #expect(
            records["without_id"] as? String == String(counts[1]) && records["unreadable"] as? String == String(counts[2]), "\(records)")
        let v = try SchemaTests.validate(r.stdout)
        #expect(v.status == 0, "\(v.output)")
    }

    /// Mistakes in the options: one line naming the argument, exit 64; a header without the column: 65.
    @Test(arguments: [
        (["--column", ""], "--column"), (["--column", "0"], "--column"), (["--column", "99999999999999999999999"], "--column"),
        (["--column", "id", "--field", "id"], "--field"),
        (["--field", "a..b"], "--field"), (["--delimiter", "tab"], "--delimiter"),
        (["--column", "id", "--delimiter", "ab"], "--delimiter"),
        (["--field", "id", "--delimiter", "tab"], "--delimiter"), (["--summary", "x.json", "--column", "id"], "--column"),
        (["--column", "-1"], "--column"), (["--column", "+2"], "--column"),
    ])
    func badOptionsNameTheArgument(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(["audit"] + arguments, naming: argument)
    }

    /// A record past 16 MiB (a quoted field that runs on) is unreadable, and skipped to its end with
    /// its quotes followed: the lines inside the quotes never become ids.
    @Test func anOverlongRecordIsSkippedWhole() throws {
        let dir = try #require(Self.made, "records_ref.py did not run")
        let file = dir.appendingPathComponent("long.csv")
        var text = "id,trace\nr1,\""
        text.reserveCapacity(18 << 20)
        var j = 0
        while text.utf8.count < 17 << 20 {
            text += "line\(j),inj\(j)\n"
            j += 1
        }
        text += "\"\nr2,x\nr3,y\n"
        try Data(text.utf8).write(to: file)
        let r = try CLI.run(["audit", file.path, "--column", "id", "--format", "json"])
        let answer = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        let records = answer["records"] as? [String: Any] ?? [:]
        #expect(records["read"] as? String == "3" && records["unreadable"] as? String == "1", "\(records)")
        #expect(answer["ids"] as? String == "2", "\(answer["ids"] ?? "")")
    }

    @Test func aHeaderWithoutTheColumnIsBadData() throws {
        let dir = try #require(Self.made, "records_ref.py did not run")
        let r = try CLI.run(["audit", dir.appendingPathComponent("t.csv").path, "--column", "uuid"])
        #expect(r.status == 65 && r.stdout.isEmpty && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("--column") && r.stderr.contains("'user, name'"), "\(r.stderr)")
    }

    /// `jq .id` without `-r` prints each id as a JSON string, quotes and all: read as the ids between
    /// the quotes (counted in `quoted_lines` and named), the format recognised as unquoted, declared or
    /// not, through a summary too; a line with a quote or a backslash inside is left as it is.
    @Test(arguments: ["ulid", "uuid7", "ksuid", "typeid", "objectid", "xid"])
    func quotedIdsAreReadAsTheirContent(scheme: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quoted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ids = try CLI.run(["generate", "--scheme", scheme, "--count", "3000"]).stdout.split(separator: "\n")
        let plain = dir.appendingPathComponent("plain.txt")
        try Data(ids.map { "\($0)\n" }.joined().utf8).write(to: plain)
        let quoted = dir.appendingPathComponent("quoted.txt")
        try Data(ids.map { "\"\($0)\"\r\n" }.joined().utf8).write(to: quoted)
        let summary = dir.appendingPathComponent("s.json").path
        let p = try CLI.run(["audit", plain.path, "--format", "json"])
        let q = try CLI.run(["audit", quoted.path, "--format", "json", "--threads", "3", "--emit-summary", summary])
        let pj = try JSONSerialization.jsonObject(with: Data(p.stdout.utf8)) as? [String: Any] ?? [:]
        let qj = try JSONSerialization.jsonObject(with: Data(q.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(q.status == 0 && qj["verdict_code"] as? String == "consistent", "\(qj["findings"] ?? q.stderr)")
        #expect(qj["format"] as? String == pj["format"] as? String && qj["quoted_lines"] as? String == "3000", "\(qj)")
        #expect(qj["distinct"] as? String == "3000" && qj["crlf_lines"] as? String == "3000")
        #expect((qj["findings"] as? [String])?.contains { $0.hasPrefix("3000 of 3000 lines were JSON strings") } == true)
        #expect(try SchemaTests.validate(q.stdout).status == 0)
        let d = try CLI.run(["audit", quoted.path, "--scheme", scheme])
        #expect(d.status == 0, "\(d.stdout)")
        let again = try CLI.run(["audit", "--summary", summary, "--format", "json"])
        let aj = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(again.status == 0 && aj["quoted_lines"] as? String == "3000" && aj["format"] as? String == qj["format"] as? String)
        // A quote or a backslash inside: no JSON string of an id's own bytes, kept whole.
        let odd = dir.appendingPathComponent("odd.txt")
        try Data("\"a\"b\"\n\"a\\b\"\n\"\"\n".utf8).write(to: odd)
        let o = try CLI.run(["audit", odd.path, "--format", "json"])
        let oj = try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(oj["quoted_lines"] as? String == "1" && oj["ids"] as? String == "2" && oj["empty_lines"] as? String == "1", "\(oj)")
    }

    /// A header that names the column twice (`id,id`, a join's export): which column is meant is the
    /// user's to say — bad data naming both, not one of them taken silently.
    @Test func aColumnNamedTwiceIsBadData() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("twice-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(("ts,id,id\n" + (0..<300).map { _ in "1,\(UUID().uuidString),\(UUID().uuidString)\n" }.joined()).utf8).write(to: file)
        let r = try CLI.run(["audit", file.path, "--column", "id"])
        #expect(r.status == 65 && r.stdout.isEmpty && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("--column") && r.stderr.contains("columns 2, 3"), "\(r.stderr)")
        #expect(try CLI.run(["audit", file.path, "--column", "3"]).status == 0)
    }

    /// Records ending in a carriage return alone (an old Mac export, which Python's csv reads) would be
    /// one record: bad data, saying what to do, by name or by number — not an empty stream.
    @Test func recordsEndingInCRAloneAreBadData() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cr-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(("id,x\r" + (0..<300).map { _ in "\(UUID().uuidString),1\r" }.joined()).utf8).write(to: file)
        for column in ["id", "1"] {
            let r = try CLI.run(["audit", file.path, "--column", column])
            #expect(r.status == 65 && r.stdout.isEmpty && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("--column") && r.stderr.contains("carriage return"), "\(r.stderr)")
        }
    }

    /// Exports merged with `cat` repeat their header (a byte-order mark before each, as a spreadsheet
    /// writes it): the repeats are set aside and counted, not ids; CRLF records are counted as the
    /// audit counts CRLF lines, for CSV and JSON lines alike; the threads used are reported. The header
    /// quoted or not, its first field too (a quote right after the mark still opens a quoted field).
    @Test(arguments: ["request_id,\"user\"", "\"request_id\",user", "request_id,user", "\"request_id\",\"user\""])
    func aMergedExportsHeadersAreNotIds(header: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("merged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ids = try CLI.run(["generate", "--alphabet", "base62", "--length", "22", "--count", "3000"]).stdout.split(separator: "\n")
        var csv = ""
        for part in 0..<3 {
            csv += "\u{FEFF}\(header)\r\n"
            for i in 0..<1000 { csv += "\(ids[part * 1000 + i]),u\(i)\r\n" }
        }
        let file = dir.appendingPathComponent("merged.csv")
        try Data(csv.utf8).write(to: file)
        let r = try CLI.run(["audit", file.path, "--column", "request_id", "--format", "json", "--threads", "3"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        let records = json["records"] as? [String: Any] ?? [:]
        #expect(r.status == 0 && json["ids"] as? String == "3000" && json["verdict_code"] as? String == "consistent", "\(json)")
        #expect(records["repeated_headers"] as? String == "2" && records["read"] as? String == "3002", "\(records)")
        #expect(json["crlf_lines"] as? String == "3000" && json["threads"] as? Int == 3, "\(json)")
        #expect(try SchemaTests.validate(r.stdout).status == 0)
        let jsonl = ids.map { "{\"id\":\"\($0)\"}\r\n" }.joined()
        let log = dir.appendingPathComponent("crlf.jsonl")
        try Data(jsonl.utf8).write(to: log)
        let j = try CLI.run(["audit", log.path, "--field", "id", "--format", "json"])
        let jj = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(j.status == 0 && jj["crlf_lines"] as? String == "3000", "\(jj)")
    }

    /// Exports merged with `cat` from two versions of a system: the second part's header moved the
    /// column, dropped one and added one (quoted or not), or is the id column alone. It is set aside
    /// as a header and the column is read where it now is; a record that holds the column's name only
    /// as a value (a `kind` column) stays data.
    @Test(arguments: ["ts,request_id,user", "\"ts\",\"request_id\",\"user\"", "request_id"])
    func aLaterPartsOwnHeaderIsNotAnId(later: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("later-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ids = try CLI.run(["generate", "--alphabet", "base62", "--length", "22", "--count", "3000"]).stdout.split(separator: "\n")
        var csv = "request_id,user,kind\n"
        for i in 0..<1000 { csv += "\(ids[i]),u\(i),\(i % 10 == 0 ? "request_id" : "k")\n" }
        csv += "\u{FEFF}\(later)\n"
        let moved =
            later.hasPrefix("request_id") ? { (id: Substring, i: Int) in "\(id)" } : { (id: Substring, i: Int) in "\(i),\(id),u\(i)" }
        for i in 1000..<3000 { csv += moved(ids[i], i) + "\n" }
        let file = dir.appendingPathComponent("merged.csv")
        try Data(csv.utf8).write(to: file)
        for threads in ["1", "3"] {
            let r = try CLI.run(["audit", file.path, "--column", "request_id", "--format", "json", "--threads", threads])
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
            let records = json["records"] as? [String: Any] ?? [:]
            #expect(r.status == 0 && json["ids"] as? String == "3000" && json["verdict_code"] as? String == "consistent", "\(json)")
            #expect(records["repeated_headers"] as? String == "1" && records["read"] as? String == "3001", "\(records)")
        }
        // The later header naming the column twice is bad data, as a first one would be.
        try Data((csv + "request_id,ts,request_id\nx,1,y\n").utf8).write(to: file)
        let twice = try CLI.run(["audit", file.path, "--column", "request_id"])
        #expect(later == "request_id" || (twice.status == 65 && twice.stderr.contains("columns 1, 3")), "\(twice.stderr)")
    }

    /// A column that is SQL's null in one row of ten (`NULL`, `\N`, empty: what MySQL, PostgreSQL and
    /// spreadsheets export for no value) holds no id there: those records are without the id, not
    /// 2,000 copies of a four-character token that fail the stream as duplicates.
    @Test func sqlNullsAreRecordsWithoutAnID() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nulls-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let nulls = ["NULL", "\\N", ""]
        var csv = "id,x\n"
        for i in 0..<20_000 { csv += "\(i % 10 == 0 ? nulls[i / 10 % 3] : UUID().uuidString.lowercased()),1\n" }
        try Data(csv.utf8).write(to: file)
        let r = try CLI.run(["audit", file.path, "--column", "id", "--format", "json"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        let records = json["records"] as? [String: Any] ?? [:]
        #expect(r.status == 0 && json["ids"] as? String == "18000" && json["verdict_code"] as? String == "consistent", "\(json)")
        #expect(records["without_id"] as? String == "2000" && json["empty_lines"] as? String == "0", "\(records)")
    }

    /// A column or a field that no record holds is the wrong one for this input: bad data (65), one
    /// line naming the argument and what the records hold; no summary file is left behind.
    @Test(arguments: [(["--column", "99"], "the widest has 4"), (["--field", "nope"], "'nope'")])
    func aColumnNoRecordHoldsIsBadData(arguments: [String], says: String) throws {
        let dir = try #require(Self.made, "records_ref.py did not run")
        let log = dir.appendingPathComponent(arguments[0] == "--field" ? "t.jsonl" : "t.csv")
        let summary = dir.appendingPathComponent("never-\(UUID().uuidString).json")
        let r = try CLI.run(["audit", log.path, "--emit-summary", summary.path] + arguments)
        #expect(r.status == 65 && r.stdout.isEmpty && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(arguments[0]) && r.stderr.contains(says), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: summary.path))
    }
}
