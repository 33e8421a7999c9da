import Foundation
import TestSupport
import Testing

/// `idbudget audit --alphabet A --length L [--max-invalid N]`, or `--scheme F`: CI's gate on the shape
/// it meant to mint. Honest streams pass; a header line, a narrowed or stuck position, and copies of one id fail,
/// each with its verdict and exit status 1; the JSON against the schema.
@Suite(.oracles) struct AuditDeclaredCLITests {
    static func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("declared-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func audit(_ text: String, _ arguments: [String]) throws -> (CLI.Result, [String: Any]) {
        let url = try file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try CLI.run(["audit", url.path, "--format", "json"] + arguments)
        let json = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
        return (r, json)
    }

    static let tokens = (try? CLI.run(["generate", "--alphabet", "base62", "--length", "22", "--count", "20000"]).stdout) ?? ""

    @Test func anHonestStreamPasses() throws {
        let (r, json) = try Self.audit(Self.tokens, ["--alphabet", "base62", "--length", "22"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(json["verdict_code"] as? String == "consistent" && json["format"] as? String == "declared base62×22")
        #expect(try CLI.python("validate_json.py", input: r.stdout).status == 0)
    }

    /// A header line is not an id of the shape: invalid, exit 1 — unless allowed.
    @Test func aHeaderLineFailsUnlessAllowed() throws {
        let (r, json) = try Self.audit("id\n" + Self.tokens, ["--alphabet", "base62", "--length", "22"])
        #expect(r.status == 1 && json["verdict_code"] as? String == "invalid-ids", "\(json["findings"] ?? "")")
        #expect((json["findings"] as? [String])?.contains { $0.hasPrefix("1 line is not base62×22") } == true)
        #expect(try CLI.python("validate_json.py", input: r.stdout).status == 0)
        let (allowed, _) = try Self.audit("id\n" + Self.tokens, ["--alphabet", "base62", "--length", "22", "--max-invalid", "1"])
        #expect(allowed.status == 0)
        // A symbol outside the alphabet in an id of the right length is invalid too.
        let (dash, j) = try Self.audit("abcdefghij-klmnopqrstu\n" + Self.tokens, ["--alphabet", "base62", "--length", "22"])
        #expect(dash.status == 1 && j["verdict_code"] as? String == "invalid-ids")
    }

    /// `n` hex×8 ids, one a line, whose character `at` (0-based) is always `0`.
    static func stuckHex8(_ n: Int, at: Int, seed: UInt64) -> String {
        var random = SplitMix(state: seed)
        let hex = Array("0123456789abcdef")
        return (0..<n).map { _ in String((0..<8).map { i in i == at ? "0" : hex[Int(random.next() % 16)] }) }.joined(separator: "\n") + "\n"
    }

    /// A base58 generator declared base62 (58 of 62 symbols at every position), and hex ids whose
    /// fifth character is stuck: positions not uniform over the declared alphabet.
    @Test func aNarrowedOrStuckPositionFails() throws {
        let base58 = try CLI.run(["generate", "--alphabet", "base58", "--length", "22", "--count", "20000"]).stdout
        let (r, json) = try Self.audit(base58, ["--alphabet", "base62", "--length", "22"])
        #expect(r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions", "\(json["findings"] ?? "")")
        let (s, sj) = try Self.audit(Self.stuckHex8(5000, at: 4, seed: 8), ["--alphabet", "hex", "--length", "8"])
        #expect(s.status == 1 && sj["verdict_code"] as? String == "non-uniform-positions", "\(sj["findings"] ?? "")")
        #expect((sj["findings"] as? [String])?.contains { $0.contains("position 5 is constant ('0')") } == true)
    }

    /// A stuck position among enough ids that the duplicates it causes over the declared space are
    /// also proven (hex×8, 10^5 ids): the verdict names the cause, the position, not its consequence.
    @Test func aStuckPositionIsTheVerdictEvenWhenItsDuplicatesAreProven() throws {
        let (r, json) = try Self.audit(Self.stuckHex8(100_000, at: 5, seed: 9), ["--alphabet", "hex", "--length", "8"])
        #expect(r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions", "\(json["findings"] ?? "")")
        #expect((json["p_value_high"] as? Double ?? 1) < 1e-6, "the duplicates are significant too: \(json["p_value_high"] ?? "")")
    }

    /// Crockford's base32 is read in either case (TypeID and many ULID libraries write it in lower
    /// case): a lower-case stream declared `--alphabet base32` passes; a mix counts the minority case
    /// as invalid lines, named.
    @Test func crockfordBase32InLowerCaseIsTheAlphabet() throws {
        let upper = try CLI.run(["generate", "--alphabet", "base32", "--length", "26", "--count", "6000"]).stdout.split(separator: "\n")
        let lower = upper.map { $0.lowercased() }.joined(separator: "\n") + "\n"
        let (r, json) = try Self.audit(lower, ["--alphabet", "base32", "--length", "26"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        let mixed =
            upper.enumerated().map { $0.offset % 3 == 0 ? String($0.element) : $0.element.lowercased() }.joined(separator: "\n") + "\n"
        let (m, mj) = try Self.audit(mixed, ["--alphabet", "base32", "--length", "26"])
        #expect(m.status == 1 && mj["verdict_code"] as? String == "invalid-ids", "\(mj["findings"] ?? m.stderr)")
        #expect(
            (mj["findings"] as? [String])?.contains { $0.hasPrefix("2000 lines are not base32×26 (2000 in upper case)") } == true,
            "\(mj["findings"] ?? "")")
        // base62 has both cases: a lower-cased base62 stream is narrowed, not another case.
        let b62 = try CLI.run(["generate", "--alphabet", "base62", "--length", "22", "--count", "6000"]).stdout.lowercased()
        let (n, nj) = try Self.audit(b62, ["--alphabet", "base62", "--length", "22"])
        #expect(n.status == 1 && nj["verdict_code"] as? String == "non-uniform-positions", "\(nj["findings"] ?? n.stderr)")
    }

    /// No id of the declared shape — an empty input, or only a header that is allowed — is nothing to
    /// judge: `empty`, exit 1, and no finding about positions.
    @Test(arguments: ["", "id\n"])
    func nothingOfTheShapeIsEmpty(text: String) throws {
        let (r, json) = try Self.audit(text, ["--alphabet", "base62", "--length", "22", "--max-invalid", "1"])
        #expect(r.status == 1 && json["verdict_code"] as? String == "empty", "\(json["findings"] ?? "")")
        #expect((json["findings"] as? [String])?.contains { $0.contains("not uniform") } == false)
    }

    /// 2 to 21 copies of one id: too many duplicates over the declared space.
    @Test(arguments: [2, 5, 21])
    func copiesOfOneIdFail(copies: Int) throws {
        let (r, json) = try Self.audit(
            String(repeating: "3fA9kQ2mZx81LpWcVb7NtR\n", count: copies), ["--alphabet", "base58", "--length", "22"])
        #expect(r.status == 1 && json["verdict_code"] as? String == "too-many-duplicates", "\(json["findings"] ?? "")")
    }

    /// `--scheme F` declares any format `schemes` lists: the CLI's own ids of it pass; a header line
    /// makes them invalid (exit 1) unless `--max-invalid 1` allows it.
    @Test(arguments: [
        "uuid4", "uuid7", "ulid", "ksuid", "nanoid", "typeid", "cuid2", "firebase", "uuid8", "uuid1", "uuid6", "xid", "objectid",
        "snowflake", "discord", "instagram", "sonyflake", "tsid", "apns-id", "notification-request-id",
    ])
    func aDeclaredSchemePassesItsOwnIds(scheme: String) throws {
        let minted = ["apns-id", "notification-request-id"].contains(scheme) ? "uuid4" : scheme
        let ids = try CLI.run(["generate", "--scheme", minted, "--count", "3000"]).stdout
        let (r, json) = try Self.audit(ids, ["--scheme", scheme])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(scheme): \(json["findings"] ?? r.stderr)")
        #expect((json["findings"] as? [String])?.first?.hasPrefix("declared: \(scheme)") == true)
        #expect(try CLI.python("validate_json.py", input: r.stdout).status == 0)
        let (h, hj) = try Self.audit("request_id\n" + ids, ["--scheme", scheme])
        #expect(h.status == 1 && hj["verdict_code"] as? String == "invalid-ids", "\(scheme): \(hj["findings"] ?? h.stderr)")
        #expect((hj["findings"] as? [String])?.contains { $0.hasPrefix("1 line is not \(scheme)") } == true)
        let (allowed, aj) = try Self.audit("request_id\n" + ids, ["--scheme", scheme, "--max-invalid", "1"])
        #expect(allowed.status == 0, "\(scheme): \(aj["findings"] ?? allowed.stderr)")
    }

    /// A declared UUIDv4: `UUID().uuidString`'s upper case passes; a stuck character, a v4→v7
    /// migration's UUIDv7s, and copies of one UUID fail, each with its verdict.
    @Test func aDeclaredUUIDv4() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "5000"]).stdout
        let (upper, uj) = try Self.audit(ids.uppercased(), ["--scheme", "notification-request-id"])
        #expect(upper.status == 0, "\(uj["findings"] ?? upper.stderr)")
        // Hex declared as an alphabet is hex in either case too; a line in the other case is invalid.
        let tokens = try CLI.run(["generate", "--alphabet", "hex", "--length", "32", "--count", "5000"]).stdout
        let (hex, hj) = try Self.audit(tokens.uppercased(), ["--alphabet", "hex", "--length", "32"])
        #expect(hex.status == 0, "\(hj["findings"] ?? hex.stderr)")
        let (mixed, mj0) = try Self.audit(
            tokens.uppercased() + "0123456789abcdef0123456789abcdef\n", ["--alphabet", "hex", "--length", "32"])
        #expect(mixed.status == 1 && mj0["verdict_code"] as? String == "invalid-ids", "\(mj0["findings"] ?? mixed.stderr)")
        let stuck = ids.split(separator: "\n").map { $0.prefix(5) + "0" + $0.dropFirst(6) }.joined(separator: "\n") + "\n"
        let (s, sj) = try Self.audit(stuck, ["--scheme", "uuid4"])
        #expect(s.status == 1 && sj["verdict_code"] as? String == "non-uniform-positions", "\(sj["findings"] ?? s.stderr)")
        #expect((sj["findings"] as? [String])?.contains { $0.contains("position 6 is constant ('0')") } == true)
        let v7 = try CLI.run(["generate", "--scheme", "uuid7", "--count", "1000"]).stdout
        let (m, mj) = try Self.audit(ids + v7, ["--scheme", "uuid4"])
        #expect(m.status == 1 && mj["verdict_code"] as? String == "invalid-ids", "\(mj["findings"] ?? m.stderr)")
        let (m7, m7j) = try Self.audit(v7 + ids, ["--scheme", "uuid7"])
        #expect(m7.status == 1 && m7j["verdict_code"] as? String == "invalid-ids", "\(m7j["findings"] ?? m7.stderr)")
        let one = String(ids.prefix(37))
        for copies in [2, 21] {
            let (c, cj) = try Self.audit(String(repeating: one, count: copies), ["--scheme", "uuid4"])
            #expect(c.status == 1 && cj["verdict_code"] as? String == "too-many-duplicates", "\(copies): \(cj["findings"] ?? c.stderr)")
        }
    }

    /// Lines allowed by `--max-invalid` are set aside, however many: a time-ordered format is still
    /// judged as itself (30 header lines before 3,000 ids, past the 1-in-1,000 strays an undeclared
    /// audit sets aside), and a node-id format's reader counts every line it misses (2,000 here, past
    /// the 1,000 at which an undeclared reading gives a layout up).
    @Test(arguments: ["uuid7", "uuid1", "uuid6", "ulid", "typeid", "ksuid", "snowflake", "tsid", "xid"])
    func allowedLinesAreSetAside(scheme: String) throws {
        let ids = try CLI.run(["generate", "--scheme", scheme, "--count", "3000"]).stdout
        // A header in each of 30 merged exports: its repeats are no ids' repeats.
        let header = String(repeating: "id\n", count: 30)
        let (r, json) = try Self.audit(header + ids, ["--scheme", scheme, "--max-invalid", "30"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(scheme): \(json["findings"] ?? r.stderr)")
        let (f, fj) = try Self.audit(header + ids, ["--scheme", scheme, "--max-invalid", "29"])
        #expect(f.status == 1 && fj["verdict_code"] as? String == "invalid-ids", "\(scheme): \(fj["findings"] ?? f.stderr)")
        // Nothing of it (UUIDv4s, random base62): named by the declaration, not as an empty stream.
        let other = scheme == "uuid7" ? (0..<300).map { _ in UUID().uuidString.lowercased() + "\n" }.joined() : "id\n"
        let (none, nj) = try Self.audit(other, ["--scheme", scheme])
        #expect(none.status == 1 && nj["format"] as? String == "declared \(scheme)", "\(scheme): \(nj["format"] ?? none.stderr)")
        if scheme == "typeid" {
            // Prefixed and prefixless TypeIDs in one log, behind a header twice: all TypeIDs.
            let users = try CLI.run(["generate", "--scheme", "typeid", "--prefix", "user", "--count", "2000"]).stdout
            let mixed = "id\nid\n" + users + ids.split(separator: "\n").prefix(1000).joined(separator: "\n") + "\n"
            let (m, mj) = try Self.audit(mixed, ["--scheme", scheme, "--max-invalid", "2"])
            #expect(m.status == 0 && mj["verdict_code"] as? String == "consistent", "\(mj["findings"] ?? m.stderr)")
            #expect(try Self.audit(mixed, ["--scheme", scheme, "--max-invalid", "1"]).0.status == 1)
        }
        guard scheme == "snowflake" else { return }
        // A repeated line of the format's own symbols, of a length no id of it has, is no repeat of an id.
        let zeros = String(repeating: "0\n", count: 30)
        let (z, zj) = try Self.audit(zeros + ids, ["--scheme", scheme, "--max-invalid", "30"])
        #expect(z.status == 0 && zj["verdict_code"] as? String == "consistent", "\(zj["findings"] ?? z.stderr)")
        let junk = (0..<2000).map { "junk\($0)\n" }.joined()
        let (many, mj) = try Self.audit(junk + ids, ["--scheme", scheme, "--max-invalid", "2000"])
        #expect(many.status == 0 && mj["verdict_code"] as? String == "consistent", "\(mj["findings"] ?? many.stderr)")
        let (over, oj) = try Self.audit(junk + ids, ["--scheme", scheme, "--max-invalid", "1999"])
        #expect(over.status == 1 && oj["verdict_code"] as? String == "invalid-ids", "\(oj["findings"] ?? over.stderr)")
        #expect((oj["findings"] as? [String])?.contains { $0.hasPrefix("2000 lines are not snowflake") } == true)
        // A header and nothing else, allowed: nothing to judge.
        let (h, hj) = try Self.audit("id\n", ["--scheme", scheme, "--max-invalid", "1"])
        #expect(h.status == 1 && hj["verdict_code"] as? String == "empty", "\(hj["findings"] ?? h.stderr)")
    }

    /// Invalid lines are counted one by one, not bounded by the worst position: 100 UUIDs with one
    /// bad character each, at positions spread over the id, are 100 invalid lines (a per-position
    /// count shows at most a few at any one). The count travels in the emitted summary, and a summary
    /// that claims more lines of the shape than ids is refused.
    @Test func invalidLinesAreCountedExactly() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "3000"]).stdout.split(separator: "\n")
        let spots = (0..<36).filter { ![8, 13, 14, 18, 19, 23].contains($0) }
        let bad = ids.enumerated().map { i, id in
            i < 100 ? String(id.prefix(spots[i % spots.count])) + "g" + String(id.dropFirst(spots[i % spots.count] + 1)) : String(id)
        }
        let text = bad.joined(separator: "\n") + "\n"
        let (r, json) = try Self.audit(text, ["--scheme", "uuid4", "--max-invalid", "5", "--threads", "2"])
        #expect(r.status == 1 && json["verdict_code"] as? String == "invalid-ids", "\(json["findings"] ?? r.stderr)")
        #expect((json["findings"] as? [String])?.contains { $0.hasPrefix("100 lines are not uuid4 (100 with a symbol") } == true)
        let (ok, _) = try Self.audit(text, ["--scheme", "uuid4", "--max-invalid", "100"])
        #expect(ok.status == 0)
        let summary = FileManager.default.temporaryDirectory.appendingPathComponent("declared-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: summary) }
        let (e, _) = try Self.audit(text, ["--scheme", "uuid4", "--emit-summary", summary.path])
        #expect(e.status == 1)
        let again = try CLI.run(["audit", "--summary", summary.path, "--scheme", "uuid4", "--max-invalid", "99"])
        #expect(again.status == 1 && again.stdout.contains("100 lines are not uuid4"), "\(again.stdout)")
        // Kept under the shape, whatever the declaration is called: apns-id is a uuid4.
        let alias = try CLI.run(["audit", "--summary", summary.path, "--scheme", "apns-id", "--max-invalid", "99"])
        #expect(alias.status == 1 && alias.stdout.contains("100 lines are not apns-id"), "\(alias.stdout)")
        let json0 = try String(contentsOf: summary, encoding: .utf8)
        #expect(json0.contains("\"other_symbols\" : \"100\""), "\(json0.prefix(600))")
        // The lines set aside are not ids: a count that hides them, or claims more lines of the shape
        // than ids, does not add up.
        for (field, forged) in [
            ("\"other_symbols\" : \"100\"", "\"other_symbols\" : \"0\""), ("\"lines\" : \"2900\"", "\"lines\" : \"2901\""),
        ] {
            try Data(json0.replacingOccurrences(of: field, with: forged).utf8).write(to: summary)
            let r = try CLI.run(["audit", "--summary", summary.path, "--scheme", "uuid4"])
            #expect(r.status == 65 && r.stderr.contains("not an idbudget audit summary"), "\(forged): \(r.stderr)")
        }
    }

    /// Undeclared too, a UUIDv4 or Nano ID with a stuck position is a broken generator, not structure
    /// that shrinks its space (the CI line `idbudget audit ids.txt || exit 1` must catch it).
    @Test(arguments: [("uuid4", 30), ("uuid4", 19), ("nanoid", 5)]) func aStuckPositionFailsUndeclared(scheme: String, at: Int) throws {
        let ids = try CLI.run(["generate", "--scheme", scheme, "--count", "20000"]).stdout.split(separator: "\n")
        let (honest, hj) = try Self.audit(ids.joined(separator: "\n") + "\n", [])
        #expect(honest.status == 0, "\(hj["findings"] ?? honest.stderr)")
        let stuck = ids.map { String($0.prefix(at)) + "8" + String($0.dropFirst(at + 1)) }.joined(separator: "\n") + "\n"
        let (r, json) = try Self.audit(stuck, [])
        #expect(r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions", "\(json["findings"] ?? r.stderr)")
    }

    /// Words a log carries beside its ids (`null` ten times, a header in each of four merged parts)
    /// are set aside and named, up to one line in a thousand; 21 copies of a 22-character token are
    /// still 21 copies of an id.
    @Test func wordsBesideIdsAreSetAside() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid7", "--count", "50000"]).stdout
        for words in [Array(repeating: "null", count: 10), Array(repeating: "request_id", count: 4)] {
            let (r, json) = try Self.audit(words.joined(separator: "\n") + "\n" + ids, [])
            #expect(r.status == 0, "\(words[0]): \(json["findings"] ?? r.stderr)")
            #expect((json["findings"] as? [String])?.contains { $0.contains("set aside") } == true, "\(json["findings"] ?? "")")
        }
        let copies = String(repeating: "3fA9kQ2mZx81LpWcVb7NtR\n", count: 21)
        let (c, cj) = try Self.audit(copies + ids, [])
        #expect(c.status == 1 && cj["verdict_code"] as? String == "too-many-duplicates", "\(cj["findings"] ?? c.stderr)")
        // Beside node-id formats too: copies of a token within the strays are repeats of an id, not
        // a header's; a header's repeats are still set aside.
        for scheme in ["snowflake", "objectid", "xid"] {
            let nodes = try CLI.run(["generate", "--scheme", scheme, "--count", "20000"]).stdout
            let (n, nj) = try Self.audit(nodes + String(repeating: "3fA9kQ2mZx81LpWcVb7NtR\n", count: 20), [])
            #expect(n.status == 1 && nj["verdict_code"] as? String == "too-many-duplicates", "\(scheme): \(nj["findings"] ?? n.stderr)")
            let (h, hj) = try Self.audit(String(repeating: "request_id\n", count: 4) + nodes, [])
            #expect(h.status == 0, "\(scheme) behind headers: \(hj["findings"] ?? h.stderr)")
        }
    }

    /// Under a declared time format, lines its parser does not read at a plausible time (nil UUIDs, a
    /// ULID of zeros) are set aside as headers are: allowed, their copies are no duplicates.
    @Test(arguments: [("uuid7", "00000000-0000-0000-0000-000000000000"), ("ulid", "00000000000000000000000000")])
    func placeholdersOfADeclaredTimeFormatAreSetAside(scheme: String, placeholder: String) throws {
        let ids = try CLI.run(["generate", "--scheme", scheme, "--count", "20000"]).stdout
        let text = ids + String(repeating: placeholder + "\n", count: 5)
        let (r, json) = try Self.audit(text, ["--scheme", scheme, "--max-invalid", "5"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        let (f, fj) = try Self.audit(text, ["--scheme", scheme, "--max-invalid", "4"])
        #expect(f.status == 1 && fj["verdict_code"] as? String == "invalid-ids", "\(fj["findings"] ?? f.stderr)")
    }

    /// Lines none of which is of the declared format are invalid-ids, their repeats no finding about it.
    @Test func repeatedLinesOfAnotherFormatAreInvalid() throws {
        let v7 = try CLI.run(["generate", "--scheme", "uuid7", "--count", "3"]).stdout
        for scheme in ["ulid", "uuid1", "ksuid", "typeid"] {
            let (r, json) = try Self.audit(v7 + v7, ["--scheme", scheme])
            #expect(r.status == 1 && json["verdict_code"] as? String == "invalid-ids", "\(scheme): \(json["findings"] ?? r.stderr)")
        }
    }

    /// A UUIDv1 or v6 never repeats from an RFC 9562 generator: one repeated id fails, declared or
    /// not, where its 14-bit clock sequence alone would call one repeat chance; a header repeated
    /// beside them is no repeat of an id.
    @Test(arguments: ["uuid1", "uuid6"]) func aClockedUUIDNeverRepeats(scheme: String) throws {
        let ids = try CLI.run(["generate", "--scheme", scheme, "--count", "3000"]).stdout
        let again = String(ids.split(separator: "\n")[5]) + "\n"
        for declared in [[], ["--scheme", scheme]] {
            let (r, json) = try Self.audit(ids + again, declared)
            #expect(r.status == 1 && json["verdict_code"] as? String == "too-many-duplicates", "\(json["findings"] ?? r.stderr)")
            let (h, hj) = try Self.audit("id\n" + ids + "id\n", declared + (declared.isEmpty ? [] : ["--max-invalid", "2"]))
            #expect(h.status == 0 && hj["verdict_code"] as? String == "consistent", "\(hj["findings"] ?? h.stderr)")
        }
    }

    /// A "UUIDv7" whose 48 time bits are random (a UUIDv4 with its version character changed) holds
    /// timestamps no generator wrote: undeclared, it is judged as the 122 random bits it is, and
    /// says so; declared, its lines are not UUIDv7s.
    @Test func timestampsOutsideAnyClockAreNotAFormat() throws {
        let v4 = try CLI.run(["generate", "--scheme", "uuid4", "--count", "3000"]).stdout.split(separator: "\n")
        let fake = v4.map { String($0.prefix(14)) + "7" + String($0.dropFirst(15)) }.joined(separator: "\n") + "\n"
        let (r, json) = try Self.audit(fake, [])
        #expect(r.status == 0 && json["format"] as? String == "tokens over hex", "\(json["findings"] ?? r.stderr)")
        #expect((json["findings"] as? [String])?.contains { $0.contains("have a timestamp outside 2005 to tomorrow") } == true)
        let (d, dj) = try Self.audit(fake, ["--scheme", "uuid7"])
        #expect(d.status == 1 && dj["verdict_code"] as? String == "invalid-ids", "\(dj["findings"] ?? d.stderr)")
        #expect((dj["findings"] as? [String])?.contains { $0.contains("do not read as uuid7 with a timestamp from 2005") } == true)
        // Real UUIDv7s pass, declared or not.
        let v7 = try CLI.run(["generate", "--scheme", "uuid7", "--count", "3000"]).stdout
        #expect(try Self.audit(v7, ["--scheme", "uuid7"]).0.status == 0)
    }

    /// Crockford's base32 is one alphabet in either case: ULIDs (upper-case by the spec) beside a
    /// library's lower-case ones, 1 in 100 or 1 in 3, are no bias, declared or not; a ULID copied
    /// among them still fails.
    @Test(arguments: [100, 3]) func ulidsInBothCasesAreOneAlphabet(every: Int) throws {
        let ids = try CLI.run(["generate", "--scheme", "ulid", "--count", "20000"]).stdout.split(separator: "\n")
        let lines = ids.enumerated().map { $0.offset % every == 0 ? $0.element.lowercased() : String($0.element) }
        for declared in [[], ["--scheme", "ulid"]] {
            let (r, json) = try Self.audit(lines.joined(separator: "\n") + "\n", declared)
            #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(declared): \(json["findings"] ?? r.stderr)")
            #expect(
                (json["findings"] as? [String])?.contains { $0.hasPrefix("Crockford's base32 in both cases") } == true,
                "\(json["findings"] ?? "")")
        }
        let (copied, json) = try Self.audit((lines + lines.prefix(2)).joined(separator: "\n") + "\n", [])
        #expect(copied.status == 1 && json["verdict_code"] as? String == "too-many-duplicates", "\(json["findings"] ?? copied.stderr)")
    }

    /// Hex is one alphabet in either case: UUIDs from two producers (`UUID().uuidString` beside
    /// Python's `str(uuid4())`) are no bias, declared or not; declared, the lines in the case fewer
    /// ids use are counted as such, not as bad symbols.
    @Test(arguments: ["uuid7", "uuid4"]) func hexInBothCasesIsOneAlphabet(scheme: String) throws {
        let ids = try CLI.run(["generate", "--scheme", scheme, "--count", "3000"]).stdout.split(separator: "\n")
        let text = ids.enumerated().map { $0.offset % 3 == 0 ? $0.element.uppercased() : String($0.element) }.joined(separator: "\n") + "\n"
        let (r, json) = try Self.audit(text, [])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        #expect((json["findings"] as? [String])?.contains { $0.hasPrefix("hex in both cases") } == true, "\(json["findings"] ?? "")")
        let allowed = scheme == "uuid4" ? ["--max-invalid", "1000"] : []
        let (d, dj) = try Self.audit(text, ["--scheme", scheme] + allowed)
        #expect(d.status == 0 && dj["verdict_code"] as? String == "consistent", "\(dj["findings"] ?? d.stderr)")
        if scheme == "uuid4" {
            #expect((dj["findings"] as? [String])?.contains { $0.hasPrefix("1000 lines are not uuid4 (1000 in upper case)") } == true)
            let (f, _) = try Self.audit(text, ["--scheme", scheme, "--max-invalid", "999"])
            #expect(f.status == 1)
        }
    }

    /// One corrupted line among thousands (a space where a hex digit was) is a stray line's symbol,
    /// named and left out, not a new alphabet that makes every position look narrow.
    @Test func aStraySymbolDoesNotChooseTheAlphabet() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "3000"]).stdout
        let (r, json) = try Self.audit("a2112 31-cd61-465d-b2c6-d47e147764ef\n" + ids, [])
        #expect(r.status == 0 && json["alphabet"] as? String == "hex", "\(json["findings"] ?? r.stderr)")
        #expect((json["findings"] as? [String])?.contains { $0.hasPrefix("' ' not of hex, in at most 1 id") } == true)
        // Not past the tolerance: a symbol in 4 of 3,000 ids is the stream's.
        let four = Array(repeating: "a2112 31-cd61-465d-b2c6-d47e147764ef", count: 4).enumerated().map {
            String($0.element.dropLast(1)) + String($0.offset)
        }
        let (m, mj) = try Self.audit(four.joined(separator: "\n") + "\n" + ids, [])
        #expect(m.status == 1 && mj["alphabet"] as? String != "hex", "\(mj["findings"] ?? m.stderr)")
    }

    /// Lines set aside are not ids: 30 copies of the nil UUID and a header repeated per export,
    /// allowed, are no duplicates and no symbols at any position; past the allowance, invalid.
    @Test func allowedLinesTakeNoPartInDuplicates() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "3000"]).stdout
        let junk = Array(repeating: "00000000-0000-0000-0000-000000000000", count: 30) + ["request_id", "request_id"]
        let text = junk.joined(separator: "\n") + "\n" + ids
        let (r, json) = try Self.audit(text, ["--scheme", "uuid4", "--max-invalid", "32"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        #expect(json["ids"] as? String == "3000" && json["lines"] as? String == "3032", "\(json)")
        #expect(
            (json["findings"] as? [String])?.contains { $0.hasPrefix("32 lines are not uuid4 (2 of another length, 30 with a symbol") }
                == true)
        let (f, fj) = try Self.audit(text, ["--scheme", "uuid4", "--max-invalid", "31"])
        #expect(f.status == 1 && fj["verdict_code"] as? String == "invalid-ids", "\(fj["findings"] ?? f.stderr)")
        // The same under an alphabet: a header repeated 25 times is not 25 copies of a token.
        let tokens = Array(repeating: "id", count: 25).joined(separator: "\n") + "\n" + Self.tokens
        let (t, tj) = try Self.audit(tokens, ["--alphabet", "base62", "--length", "22", "--max-invalid", "25"])
        #expect(t.status == 0 && tj["verdict_code"] as? String == "consistent", "\(tj["findings"] ?? t.stderr)")
        // Judged undeclared, a summary says what it set aside; merged with a part made under another
        // declaration, refused: the two did not count the same lines as ids.
        let dir = FileManager.default.temporaryDirectory
        let a = dir.appendingPathComponent("aside-\(UUID().uuidString).json")
        let b = dir.appendingPathComponent("aside-\(UUID().uuidString).json")
        defer { for u in [a, b] { try? FileManager.default.removeItem(at: u) } }
        let input = try Self.file(text)
        defer { try? FileManager.default.removeItem(at: input) }
        let shard1 = ["--scheme", "uuid4", "--max-invalid", "32", "--shard", "1/2", "--emit-summary", a.path]
        #expect(try CLI.run(["audit", input.path] + shard1).status == 0)
        #expect(try CLI.run(["audit", input.path, "--scheme", "nanoid", "--shard", "2/2", "--emit-summary", b.path]).status == 1)
        let plain = try CLI.run(["audit", "--summary", a.path])
        #expect(plain.stdout.contains("32 lines were set aside while summarising, as not uuid4"), "\(plain.stdout)")
        // In either order; and a part made under no declaration is another declaration too.
        let c = dir.appendingPathComponent("aside-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: c) }
        #expect(try CLI.run(["audit", input.path, "--shard", "2/2", "--emit-summary", c.path]).status == 1)
        for parts in [[a, b], [b, a], [a, c], [c, a]] {
            let merged = try CLI.run(["audit", "--summary"] + parts.map(\.path))
            #expect(merged.status == 65 && merged.stderr.contains("different declarations"), "\(merged.stderr)")
        }
    }

    /// A line of the declared length with a symbol past ASCII leaves that length without positions of
    /// its own: the stream's are judged instead, not positions that hold nothing ("constant ' '").
    @Test func aNonASCIILineOfTheDeclaredLengthIsOneInvalidLine() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "3000"]).stdout
        let text = "request_id\na2112é31-cd61-465d-b2c6-d47e147764ef\n" + ids
        let (r, json) = try Self.audit(text, ["--scheme", "uuid4", "--max-invalid", "2"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        let (f, fj) = try Self.audit(text, ["--scheme", "uuid4", "--max-invalid", "1"])
        #expect(f.status == 1 && fj["verdict_code"] as? String == "invalid-ids", "\(fj["findings"] ?? f.stderr)")
    }

    /// A file that opens with a UTF-8 byte-order mark (as Windows tools write) has no invalid first line.
    @Test func aByteOrderMarkIsNotPartOfTheFirstId() throws {
        let ids = try CLI.run(["generate", "--scheme", "uuid4", "--count", "2000"]).stdout
        let (r, json) = try Self.audit("\u{FEFF}" + ids, ["--scheme", "uuid4"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
    }

    /// A UUIDv8 is its vendor's: one whose first 48 bits are a clock (as `uuid6.uuid8()` writes a
    /// nanosecond one) passes as shape; a wrong version character does not.
    /// `count` UUIDv8s whose first 48 bits are a clock from `start`, `step` a tick, the rest random
    /// hex from a fixed SplitMix stream (`seed`), with variants 8, 9, a and b in turn.
    static func clockedUUIDv8s(_ count: Int, start: UInt64, step: UInt64, seed: UInt64) -> [String] {
        var random = SplitMix(state: seed)
        let hex = Array("0123456789abcdef")
        func h(_ n: Int) -> String { String((0..<n).map { _ in hex[Int(random.next() % 16)] }) }
        return (0..<count).map { i -> String in
            let t = String(start + UInt64(i) * step, radix: 16)
            let clock = String(repeating: "0", count: 12 - t.count) + t
            return "\(clock.prefix(8))-\(clock.dropFirst(8))-8\(h(3))-\(["8", "9", "a", "b"][i % 4])\(h(3))-\(h(12))"
        }
    }

    @Test func aClockedUUIDv8Passes() throws {
        let ids = Self.clockedUUIDv8s(3000, start: 0x0187_0000_0000, step: 7, seed: 88)
        let (r, json) = try Self.audit(ids.joined(separator: "\n") + "\n", ["--scheme", "uuid8"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        let (v4, _) = try Self.audit(
            ids.map { $0.replacingOccurrences(of: "-8", with: "-4") }.joined(separator: "\n"), ["--scheme", "uuid8"])
        #expect(v4.status == 1)
    }

    /// Undeclared, the same clocked UUIDv8s (time-ordered: their clock's digits are far from uniform)
    /// are read as a UUIDv8, whose layout is its vendor's: not biased, consistent; with 3 of them
    /// copied, too many duplicates. A UUIDv4 stream with the same clock in its first 48 bits is still
    /// biased: only version 8 leaves its layout to the vendor.
    @Test func anUndeclaredClockedUUIDv8IsItsVendors() throws {
        let ids = Self.clockedUUIDv8s(20_000, start: 0x019a_0000_0000, step: 3, seed: 89)
        let (r, json) = try Self.audit(ids.joined(separator: "\n") + "\n", [])
        let findings = json["findings"] as? [String] ?? []
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(findings) \(r.stderr)")
        #expect(findings.contains { $0.hasPrefix("UUIDv8: its 122 bits are laid out as its vendor chose") }, "\(findings)")
        let (copied, copiedJSON) = try Self.audit((ids + ids.prefix(3)).joined(separator: "\n") + "\n", [])
        #expect(copied.status == 1 && copiedJSON["verdict_code"] as? String == "too-many-duplicates", "\(copiedJSON["findings"] ?? "")")
        let v4s = ids.map { id in String(id.prefix(14)) + "4" + id.dropFirst(15) }
        let (v4, v4JSON) = try Self.audit(v4s.joined(separator: "\n") + "\n", [])
        #expect(v4.status == 1 && v4JSON["verdict_code"] as? String == "non-uniform-positions", "\(v4JSON["findings"] ?? "")")
    }

    /// xids are 20 characters of Firebase's alphabet too; their first character, a time 2^42 ms
    /// past any Firebase id's, tells them apart.
    @Test func xidsAreNotFirebase() throws {
        let xids = try CLI.run(["generate", "--scheme", "xid", "--count", "3000"]).stdout
        let (r, json) = try Self.audit(xids, ["--scheme", "firebase"])
        #expect(r.status == 1 && json["verdict_code"] as? String == "invalid-ids", "\(json["findings"] ?? r.stderr)")
    }

    @Test(arguments: [
        (["audit", "--alphabet", "base62"], "--alphabet"),
        (["audit", "--length", "22"], "--length"),
        (["audit", "--alphabet", "base99", "--length", "22"], "--alphabet"),
        (["audit", "--alphabet", "base62", "--length", "0"], "--length"),
        (["audit", "--alphabet", "base62", "--length", "22", "--max-invalid", "-1"], "--max-invalid"),
        (["audit", "--alphabet", "base62", "--length", "22", "--bits", "64"], "--bits"),
        (["audit", "--alphabet", "base62", "--length", "22", "--scheme", "xid"], "--alphabet"),
        (["audit", "--length", "22", "--scheme", "xid"], "--length"),
        (["audit", "--scheme", "uuid4", "--bits", "64"], "--bits"),
        (["audit", "--scheme", "uuid4", "--max-invalid", "x"], "--max-invalid"),
        (["audit", "--scheme", "apns-collapse-id"], "--scheme"),
    ])
    func badDeclarationsNameTheArgument(arguments: [String], argument: String) throws {
        try CLI.expectUsageError(arguments, naming: argument)
    }
}
