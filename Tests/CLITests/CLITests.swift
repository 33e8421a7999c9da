import Foundation
import Testing

@Suite struct CLITests {
    @Test func planAnswersTheArticle() throws {
        let r = try CLI.run(["plan", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"])
        #expect(r.status == 0)
        let base62 = r.stdout.split(separator: "\n").first { $0.hasPrefix("base62 ") }
        let cells = base62?.split(separator: " ").map(String.init) ?? []
        #expect(cells.count > 4 && cells[1] == "23", "\(r.stdout)")
        #expect(r.stderr.isEmpty)
    }

    @Test func planJSON() throws {
        let json = try CLI.json(["plan", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11"])
        #expect(CLI.at(json, "volume.count") as? String == "315360000000000")
        #expect(json["schema_version"] as? Int == 1 && json["command"] as? String == "plan")
        let rows = json["rows"] as! [[String: Any]]
        let base62 = rows.first { $0["alphabet"] as? String == "base62" }!
        #expect(base62["length"] as? Int == 23)
        #expect(base62["bytes"] as? Int == 23)
        #expect(base62["fits_max_bytes"] as? Bool == true && base62["max_bytes"] as? Int == 64)
        let ref23 = CLI.referenceProbability("article: base62^23, 1e6/s x 10y")
        let ref22 = CLI.referenceProbability("article: base62^22, 1e6/s x 10y")
        #expect(CLI.at(base62, "collision.probability") as? String == ref23["probability"])
        #expect(base62["shorter_probability"] as? String == ref22["probability"])
    }

    @Test func probabilityJSONContract() throws {
        let ref = CLI.referenceProbability("article: base62^22, 1e6/s x 10y")
        let json = try CLI.json(["probability", "--alphabet", "base62", "--length", "22", "--rate", "1e6/s", "--lifetime", "10y"])
        #expect(CLI.at(json, "collision.probability") as? String == ref["probability"])
        #expect(CLI.at(json, "collision.complement") as? String == ref["complement"])
        #expect(CLI.at(json, "collision.expected_collisions") as? String == ref["expected_collisions"])
        #expect(CLI.at(json, "space.size") as? String == ref["space"])
        #expect(CLI.at(json, "volume.count") as? String == ref["count"])
        // 30 significant digits in scientific notation.
        let p = CLI.at(json, "collision.probability") as! String
        #expect(p.range(of: #"^[1-9]\.[0-9]{29}e[+-][0-9]+$"#, options: .regularExpression) != nil)
    }

    @Test func hugeSpacesAndCounts() throws {
        let ref = CLI.referenceProbability("2^65536, n = 1e40")
        let json = try CLI.json(["probability", "--bits", "65536", "--count", "1e40"])
        #expect(CLI.at(json, "collision.probability") as? String == ref["probability"])
        let near1 = CLI.referenceProbability("2^64, n = 3e11 (1 - p near 1e-1060)")
        let j2 = try CLI.json(["probability", "--bits", "64", "--count", "3e11"])
        #expect(CLI.at(j2, "collision.complement") as? String == near1["complement"])
    }

    /// Spaces around a number are ignored wherever a number is taken, as they are in budgets and rates.
    @Test func spacesAroundNumbersAreIgnoredAlike() throws {
        let plain = try CLI.json(["probability", "--bits", "64", "--count", "1000"])
        let spaced = try CLI.json(["probability", "--bits", " 64 ", "--count", " 1000"])
        #expect(CLI.at(plain, "collision.probability") as? String == CLI.at(spaced, "collision.probability") as? String)
        let budget = try CLI.json(["length", "--alphabet", "base62", "--count", "1e9 ", "--max-probability", " 1e-6"])
        #expect(
            budget["length"] as? Int == (try CLI.json(["length", "--alphabet", "base62", "--count", "1e9", "--max-probability", "1e-6"]))[
                "length"] as? Int)
        #expect(try CLI.run(["probability", "--bits", "64", "--count", "1 000"]).status == 64)
    }

    /// A CI job can act on the answer: `length`/`plan` with --max-bytes exit 1 when nothing fits.
    @Test func byteLimitsHaveExitStatuses() throws {
        let fits = try CLI.run(["length", "--alphabet", "hex", "--count", "1e9", "--max-probability", "1e-12", "--max-bytes", "64"])
        let tooLong = try CLI.run(["length", "--alphabet", "hex", "--count", "1e9", "--max-probability", "1e-12", "--max-bytes", "16"])
        #expect(fits.status == 0 && tooLong.status == 1 && tooLong.stdout.contains("fits"), "\(fits.status) \(tooLong.status)")
        #expect(try CLI.run(["length", "--alphabet", "hex", "--count", "1e9", "--max-probability", "1e-12"]).status == 0)
        let none = try CLI.run(["plan", "--count", "1e9", "--max-probability", "1e-12", "--max-bytes", "8"])
        let some = try CLI.run(["plan", "--count", "1e9", "--max-probability", "1e-12", "--max-bytes", "17"])
        #expect(none.status == 1 && some.status == 0 && none.stdout.contains("≤ 8 bytes"), "\(none.status) \(some.status)")
        #expect(try CLI.run(["plan", "--count", "1e9", "--max-probability", "1e-12"]).status == 0)
        #expect(try CLI.run(["plan", "--count", "1e9", "--max-probability", "1e-12", "--max-bytes", "0"]).status == 64)
    }

    @Test func lengthReportsBytes() throws {
        let json = try CLI.json(["length", "--symbols", "🍎🍌🍒🍇", "--count", "1000", "--max-probability", "1e-6", "--max-bytes", "64"])
        let length = json["length"] as! Int
        #expect(json["bytes"] as? Int == 4 * length)
        #expect(json["fits_max_bytes"] as? Bool == (4 * length <= 64))
    }

    @Test func capacityJSON() throws {
        let rows = CLI.reference["capacity"] as! [[String: String]]
        let ref = rows.first { $0["label"] == "2^64 at 1e-11" }!
        let json = try CLI.json(["capacity", "--bits", "64", "--max-probability", "1e-11", "--rate", "1000/s"])
        #expect(json["capacity"] as? String == ref["capacity"])
        #expect(CLI.at(json, "lasts.seconds") as? String != nil && CLI.at(json, "lasts.text") as? String != nil)
    }

    static let badInputs: [([String], String)] = [
        (["probability", "--alphabet", "nope", "--length", "3", "--count", "5"], "--alphabet"),
        (["probability", "--symbols", "abca", "--length", "3", "--count", "5"], "--symbols"),
        (["probability", "--symbols", "a", "--length", "3", "--count", "5"], "--symbols"),
        (["probability", "--symbols", "", "--length", "3", "--count", "5"], "--symbols"),
        (["probability", "--alphabet", "base62", "--length", "0", "--count", "5"], "--length"),
        (["probability", "--alphabet", "base62", "--length", "5", "--count", "0"], "--count"),
        (["probability", "--alphabet", "base62", "--length", "5", "--count=-5"], "--count"),
        (["probability", "--alphabet", "base62", "--length", "5", "--count", "1.5"], "--count"),
        (["probability", "--alphabet", "base62", "--length", "5", "--count", "many"], "--count"),
        (["probability", "--alphabet", "base62", "--length", "5", "--count", "1e700000"], "--count"),
        (["probability", "--alphabet", "base62", "--length", "5", "--rate", "5/fortnight", "--lifetime", "1y"], "--rate"),
        (["probability", "--alphabet", "base62", "--length", "5", "--rate", "1e6/s", "--lifetime", "10 eons"], "--lifetime"),
        (["probability", "--alphabet", "base62", "--length", "5", "--rate", "1e6/s"], "--lifetime"),
        (["probability", "--bits", "1000000000", "--count", "5"], "--bits"),
        (["probability", "--alphabet", "base62", "--length", "99999999", "--count", "5"], "--length"),
        (["length", "--alphabet", "base62", "--count", "5", "--max-probability", "1"], "--max-probability"),
        (["length", "--alphabet", "base62", "--count", "5", "--max-probability", "0"], "--max-probability"),
        (["length", "--alphabet", "base62", "--count", "5", "--max-probability=-0.5"], "--max-probability"),
        (["length", "--alphabet", "base62", "--count", "5", "--max-probability", "2"], "--max-probability"),
        (["length", "--alphabet", "base62", "--count", "5", "--max-probability", "often"], "--max-probability"),
        (["length", "--alphabet", "base62", "--count", "5", "--max-probability", "1e-11", "--max-bytes", "0"], "--max-bytes"),
        (["capacity", "--bits", "64", "--max-probability", "1e-11", "--rate", "fast"], "--rate"),
        (["plan", "--rate", "1e6/s", "--lifetime", "10y", "--max-probability", "1e-11", "--format", "xml"], "--format"),
        (["plan", "--rate", "1e6/s", "--lifetime", "10y"], "--max-probability"),
    ]

    @Test(arguments: badInputs.indices)
    func badInputIsOneLineAndExit64(index: Int) throws {
        let (arguments, argument) = Self.badInputs[index]
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(arguments)")
        #expect(r.stdout.isEmpty, "\(arguments)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(argument), "\(r.stderr)")
    }

    @Test func helpExitsZero() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("plan"))
    }
}

@Suite struct GenerateCLITests {
    @Test func generatesTheRequestedTokens() throws {
        let r = try CLI.run(["generate", "--alphabet", "base58", "--length", "12", "--count", "5000"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 5000)
        let allowed = Set("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        #expect(lines.allSatisfy { $0.count == 12 && $0.allSatisfy { allowed.contains($0) } })
        #expect(Set(lines).count == 5000)
    }

    @Test func seedIsReproducibleAndLoudlyInsecure() throws {
        let a = try CLI.run(["generate", "--symbols", "ACGT", "--length", "16", "--count", "3", "--seed", "7"])
        let b = try CLI.run(["generate", "--symbols", "ACGT", "--length", "16", "--count", "3", "--seed", "7"])
        #expect(a.stdout == b.stdout && a.stdout.count == 3 * 17)
        #expect(a.stderr.contains("NOT SECURE"))
    }

    /// `idbudget generate --count 1e12 | head -1` must stop at once, quietly.
    @Test func closedPipeStopsCleanly() throws {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["generate", "--count", "1000000000000"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let first = out.fileHandleForReading.readData(ofLength: 23)
        try out.fileHandleForReading.close()
        process.waitUntilExit()
        #expect(first.count == 23)
        #expect(process.terminationStatus == 0)
        #expect(err.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }

    @Test(arguments: [
        (["generate", "--length", "0"], "--length"),
        (["generate", "--count", "-3"], "--count"),
        (["generate", "--count", "lots"], "--count"),
        (["generate", "--symbols", "aab"], "--symbols"),
        (["generate", "--symbols", "é🍎"], "--symbols"),
        (["generate", "--alphabet", "base99"], "--alphabet"),
        (["generate", "--seed", "-1"], "--seed"),
        (["generate", "--seed", "x"], "--seed"),
    ])
    func badInput(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }
}

@Suite struct SchemeCLITests {
    static func scoped(_ label: String) -> [String: String] {
        (CLI.reference["scoped"] as! [[String: String]]).first { $0["label"] == label }!
    }

    @Test func uuid7BucketsByMillisecond() throws {
        let ref = Self.scoped("uuid7 at 1e6/s for 10y (1000 per ms)")
        let json = try CLI.json(["probability", "--scheme", "uuid7", "--rate", "1e6/s", "--lifetime", "10y", "--arrivals", "even"])
        #expect(CLI.at(json, "collision.probability") as? String == ref["probability"])
        #expect(CLI.at(json, "volume.arrivals") as? String == "even")
        #expect(CLI.at(json, "volume.buckets") as? String == "315360000000")
        #expect(CLI.at(json, "volume.count") as? String == "1000")
    }

    @Test func peakRateBudgetsBursts() throws {
        let ref = Self.scoped("uuid7 peak 1e8/s for 1y (1e5 per ms)")
        let json = try CLI.json([
            "probability", "--scheme", "uuid7", "--rate", "1e6/s", "--peak-rate", "1e8/s", "--lifetime", "1y", "--arrivals", "even",
        ])
        #expect(CLI.at(json, "collision.probability") as? String == ref["probability"])
    }

    @Test func collapseIDsPerDevice() throws {
        let ref = Self.scoped("collapse ids: 1e8 devices x 500, base62^8")
        let json = try CLI.json(["probability", "--alphabet", "base62", "--length", "8", "--scopes", "1e8", "--count-per-scope", "500"])
        #expect(CLI.at(json, "collision.probability") as? String == ref["probability"])
        let one = CLI.referenceProbability("base62^8, n = 500 (collapse ids on one device)")
        #expect(CLI.at(json, "collision.group_probability") as? String == one["probability"])
        let length = try CLI.json([
            "length", "--alphabet", "base62", "--scopes", "1e8", "--count-per-scope", "500", "--max-probability", "1e-6",
        ])
        let refLength = (CLI.reference["scoped_length"] as! [[String: Any]]).first { ($0["budget"] as? String) == "1e-6" }!
        #expect(length["length"] as? Int == refLength["length"] as? Int)
    }

    @Test func nodesMultiplyTheRate() throws {
        let one = try CLI.json(["probability", "--bits", "64", "--rate", "4000/s", "--lifetime", "1d", "--nodes", "250"])
        let fleet = try CLI.json(["probability", "--bits", "64", "--rate", "1e6/s", "--lifetime", "1d"])
        #expect(CLI.at(one, "volume.count") as? String == CLI.at(fleet, "volume.count") as? String)
        #expect(CLI.at(one, "collision.probability") as? String == CLI.at(fleet, "collision.probability") as? String)
    }

    @Test func schemesListIsMachineReadable() throws {
        let json = try CLI.json(["schemes"])
        let rows = json["rows"] as! [[String: Any]]
        let names = rows.compactMap { $0["name"] as? String }
        #expect(names.contains("uuid7") && names.contains("apns-collapse-id") && names.contains("ksuid"))
        #expect(rows.allSatisfy { ($0["source"] as? String)?.isEmpty == false })
    }

    @Test(arguments: [
        (["probability", "--scheme", "uuid9", "--count", "5"], "--scheme"),
        (["probability", "--scheme", "uuid4", "--bits", "12", "--count", "5"], "--bits"),
        (["probability", "--bits", "64", "--scopes", "0", "--count-per-scope", "5"], "--scopes"),
        (["probability", "--bits", "64", "--count", "5", "--count-per-scope", "5"], "--count-per-scope"),
        (["probability", "--bits", "64", "--rate", "1/s", "--lifetime", "1y", "--nodes", "x"], "--nodes"),
        (["probability", "--bits", "64", "--rate", "1/s", "--lifetime", "1y", "--peak-rate", "5/s"], "--peak-rate"),
    ])
    func badInput(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }
}

@Suite struct AuditCLITests {
    @Test func auditsAFileInJSON() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-audit-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ids = try CLI.run(["generate", "--alphabet", "base36", "--length", "9", "--count", "20000", "--seed", "5"]).stdout
        let lines = ids.split(separator: "\n")
        let planted = ids + lines[0...9].joined(separator: "\n") + "\n" + lines[3] + "\r\n\n"
        try planted.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try CLI.run(["audit", path, "--format", "json"])
        #expect(r.status == 1)  // suspicious: the answer fails its check
        #expect(r.stderr.isEmpty)  // no progress bar when not a terminal or in JSON
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(json["ids"] as? String == "20011")
        #expect(json["distinct"] as? String == "20000")
        #expect(json["duplicate_ids"] as? String == "10")
        #expect(json["extra_occurrences"] as? String == "11")
        #expect(json["crlf_lines"] as? String == "1")
        #expect(json["empty_lines"] as? String == "1")
        #expect(json["alphabet"] as? String == "base36")
        #expect(json["suspicious"] as? Bool == true)
    }

    @Test func missingFileIsNoInput() throws {
        let r = try CLI.run(["audit", "/nonexistent/ids.txt"])
        #expect(r.status == 66 && r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("FILE"))
        let bad = try CLI.run(["audit", "--max-line-bytes", "0"])
        #expect(bad.status == 64 && bad.stderr.contains("--max-line-bytes"))
    }
}

/// `generate` at the end of the formats' time (an injected clock): one line, exit status 70, never an
/// id that wrapped to timestamp 0; the last millisecond itself still works.
@Suite struct GenerateEndOfTimeTests {
    static let last = "281474976710655"  // 2^48 - 1 ms

    @Test(arguments: ["uuid7", "ulid"])
    func pastTheLastMillisecondExits70(scheme: String) throws {
        let r = try CLI.run(["generate", "--scheme", scheme, "--count", "5"], environment: ["IDBUDGET_TEST_CLOCK_MS": "281474976710656"])
        #expect(r.status == 70)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("10889"), "\(r.stderr)")
    }

    @Test(arguments: ["uuid7", "ulid"])
    func theLastMillisecondWorks(scheme: String) throws {
        let r = try CLI.run(
            ["generate", "--scheme", scheme, "--monotonic", "--count", "1000"], environment: ["IDBUDGET_TEST_CLOCK_MS": Self.last])
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let ids = r.stdout.split(separator: "\n")
        #expect(ids.count == 1000 && ids == ids.sorted() && Set(ids).count == 1000)
        #expect(ids.allSatisfy { $0.hasPrefix(scheme == "uuid7" ? "ffffffff-ffff-7" : "7ZZZZZZZZZ") })
    }
}

/// `generate`'s counts, lengths and symbols: an empty batch is valid; 0 and negative lengths are
/// refused saying the same minimum; whitespace in --symbols only when asked for, control characters never.
@Suite struct GenerateInputTests {
    static func refused(_ arguments: [String], naming argument: String) throws -> String {
        try CLI.expectUsageError(["generate"] + arguments, naming: argument).stderr
    }

    @Test(arguments: [["--count", "0"], ["--count", "0", "--scheme", "uuid7"], ["--count", "0", "--symbols", "ACGT", "--seed", "3"]])
    func countZeroIsAnEmptyBatch(arguments: [String]) throws {
        let r = try CLI.run(["generate"] + arguments)
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(!r.stderr.contains("error"), "\(r.stderr)")
    }

    @Test func negativeCountSaysZeroOrMore() throws {
        let message = try Self.refused(["--count", "-1"], naming: "--count")
        #expect(message.contains("0 or more"), "\(message)")
    }

    @Test(arguments: [["--length", "0"], ["--length", "-1"], ["--length=-1"], ["--length", "-0.5"]])
    func lengthBelowOneSaysAtLeastOne(arguments: [String]) throws {
        let message = try Self.refused(arguments, naming: "--length")
        #expect(message.contains("at least 1"), "\(message)")
        #expect(!message.contains("0 or more"), "\(message)")
    }

    @Test(arguments: [" A", "AB ", "A\tB", "\tAB"])
    func whitespaceInSymbolsIsRefused(symbols: String) throws {
        let message = try Self.refused(["--symbols", symbols, "--count", "3"], naming: "--symbols")
        #expect(message.contains("--allow-whitespace"), "\(message)")
        #expect(!message.unicodeScalars.contains { $0 == "\t" }, "raw tab echoed")
    }

    @Test(arguments: [" A", "A\tB", " \tAB"])
    func whitespaceInSymbolsWhenAllowed(symbols: String) throws {
        let r = try CLI.run(["generate", "--symbols", symbols, "--allow-whitespace", "--length", "40", "--count", "500"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 500 && lines.allSatisfy { $0.utf8.count == 40 })
        #expect(r.stdout.utf8.allSatisfy(Set(symbols.utf8).union([10]).contains))
        #expect(Set(symbols.utf8).isSubset(of: Set(r.stdout.utf8)))
    }

    @Test(arguments: ["ab\ncd", "ab\rcd", "abc\u{1b}", "ab\u{7f}", "ab\u{0b}", "a b\u{0c}"])
    func controlCharactersStayRefusedWithTheFlag(symbols: String) throws {
        _ = try Self.refused(["--symbols", symbols, "--allow-whitespace", "--count", "3"], naming: "--symbols")
    }

    @Test(arguments: [["--allow-whitespace"], ["--allow-whitespace", "--alphabet", "hex"], ["--allow-whitespace", "--scheme", "uuid4"]])
    func allowWhitespaceNeedsSymbols(arguments: [String]) throws {
        _ = try Self.refused(arguments + ["--count", "3"], naming: "--allow-whitespace")
    }
}
