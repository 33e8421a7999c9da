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
        try Data((headerRow == 1 ? "id\n" : "").utf8 + (try Data(contentsOf: URL(fileURLWithPath: file.path + ".ids")))).write(
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
}
