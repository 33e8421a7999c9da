import Foundation
import TestSupport
import Testing

/// What a stream's characters alone do not show: nil and max UUIDs written where a log had no id
/// (set aside and named, never ids; past the tolerance, a failure), and a KSUID payload that counts
/// instead of drawing (its bits, not its base62 characters, give it away).
@Suite(.oracles) struct AuditPlaceholdersCLITests {
    static func audit(_ lines: [String], _ arguments: [String] = []) throws -> (CLI.Result, [String: Any]) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("placeholders-\(UUID().uuidString)")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let r = try CLI.run(["audit", url.path, "--format", "json"] + arguments)
        let json = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
        return (r, json)
    }

    /// UUIDv7s written by hand (RFC 9562 §5.7): a millisecond each from 2024 on, random bits from SplitMix.
    static func uuid7s(_ n: Int, seed: UInt64) -> [String] {
        var random = SplitMix(state: seed)
        return (0..<n).map { i in
            let millis = UInt64(1_704_067_200_000 + i)
            let high = millis << 16 | 0x7000 | random.next() & 0x0FFF
            let low = 0x8000_0000_0000_0000 | random.next() >> 2
            let hex = String(format: "%016llx%016llx", high, low)
            let c = Array(hex)
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
        }
    }

    static let nilUUID = "00000000-0000-0000-0000-000000000000"

    /// Words beside TypeIDs — two `null`s, a header twice — are set aside and named, with a prefix
    /// or without, of one prefix or two: no repeated TypeID. A TypeID copied among them still fails.
    @Test(arguments: [["--prefix", "user"], [], ["--prefix", "session_token"]])
    func wordsBesideTypeIDsAreSetAside(prefix: [String]) throws {
        let made = try CLI.run(["generate", "--scheme", "typeid", "--count", "5000"] + prefix)
        var ids = made.stdout.split(separator: "\n").map(String.init)
        if prefix == ["--prefix", "session_token"] {
            ids += try CLI.run(["generate", "--scheme", "typeid", "--prefix", "user", "--count", "3000"]).stdout.split(separator: "\n")
                .map(String.init)
        }
        for words in [["null", "null"], ["id", "id"], ["NULL", "-", "NULL", "-"]] {
            let (r, json) = try Self.audit(ids + words)
            #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(prefix) \(words): \(json["findings"] ?? r.stderr)")
            #expect((json["findings"] as? [String])?.contains { $0.contains("set aside") } == true, "\(json["findings"] ?? "")")
        }
        let (copied, json) = try Self.audit(ids + ids.prefix(3) + ["null", "null"])
        #expect(copied.status == 1 && json["verdict_code"] as? String == "too-many-duplicates", "\(json["findings"] ?? copied.stderr)")
    }

    @Test func nilAndMaxUUIDsAmongUUIDv7sAreSetAsideAndNamed() throws {
        var lines = Self.uuid7s(20000, seed: 3)
        lines.insert(contentsOf: Array(repeating: Self.nilUUID, count: 5), at: 10000)
        lines += ["FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "ffffffff-ffff-ffff-ffff-ffffffffffff", String(repeating: "0", count: 32)]
        let (r, json) = try Self.audit(lines)
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        #expect(json["placeholder_lines"] as? String == "8" && json["ids"] as? String == "20000" && json["lines"] as? String == "20008")
        #expect((json["findings"] as? [String])?.contains { $0.hasPrefix("8 of 20008 lines are the nil or the max UUID") } == true)
        #expect(try CLI.python("validate_json.py", input: r.stdout).status == 0)
        // A planted duplicate among them still fails.
        let (planted, pj) = try Self.audit(lines + [lines[0]])
        #expect(planted.status == 1 && pj["verdict_code"] as? String == "too-many-duplicates")
    }

    /// A log of nothing but the nil UUID (a generator that returns it) is no empty, passing stream.
    @Test func placeholdersPastTheToleranceFail() throws {
        for copies in [2, 21] {
            let (r, json) = try Self.audit(Array(repeating: Self.nilUUID, count: copies))
            #expect(r.status == 1 && json["verdict_code"] as? String == "too-many-duplicates", "\(copies): \(json["findings"] ?? r.stderr)")
        }
        var lines = Self.uuid7s(2000, seed: 4)
        lines += Array(repeating: Self.nilUUID, count: 10)  // 10 of 2010: past one in a thousand
        let (r, json) = try Self.audit(lines)
        #expect(r.status == 1 && json["verdict_code"] as? String == "too-many-duplicates")
    }

    /// A KSUID (segmentio/ksuid): 32 bits of seconds since 2014-05-13 above a 128-bit payload, one
    /// base62 number of 27 characters.
    static func ksuid(seconds: UInt32, high: UInt64, low: UInt64) -> String {
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var limbs = [UInt64(seconds), high, low]  // big-endian
        var out: [Character] = []
        for _ in 0..<27 {
            var remainder: UInt64 = 0
            for i in limbs.indices {
                let (q, r) = UInt64(62).dividingFullWidth((high: remainder, low: limbs[i]))
                limbs[i] = q
                remainder = r
            }
            out.append(digits[Int(remainder)])
        }
        return String(out.reversed())
    }

    /// 20,000 KSUIDs over 200 seconds: a payload that counts fails (its top bits never set); fresh
    /// draws pass; so does segmentio's Sequence (one draw a second, a 16-bit counter below it).
    @Test func aKSUIDPayloadThatCountsFails() throws {
        var random = SplitMix(state: 9)
        let start: UInt32 = 300_000_000
        let counter = (0..<20000).map { i in Self.ksuid(seconds: start + UInt32(i / 100), high: 0, low: UInt64(i)) }
        let (r, json) = try Self.audit(counter)
        #expect(r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions", "\(json["findings"] ?? r.stderr)")
        #expect(
            (json["findings"] as? [String])?.contains { $0.hasPrefix("KSUID payload bits 1–114 (of 128, from the top) are not random") }
                == true)
        let fresh = (0..<20000).map { i in Self.ksuid(seconds: start + UInt32(i / 100), high: random.next(), low: random.next()) }
        let (f, fj) = try Self.audit(fresh)
        #expect(f.status == 0 && fj["verdict_code"] as? String == "consistent", "\(fj["findings"] ?? f.stderr)")
        var seeds: [(UInt64, UInt64)] = []
        for _ in 0..<200 { seeds.append((random.next(), random.next() & ~0xFFFF)) }
        let sequence = (0..<20000).map { (i: Int) -> String in
            let seed = seeds[i / 100]
            return Self.ksuid(seconds: start + UInt32(i / 100), high: seed.0, low: seed.1 | UInt64(i % 100))
        }
        let (q, qj) = try Self.audit(sequence)
        #expect(q.status == 0 && qj["verdict_code"] as? String == "consistent", "\(qj["findings"] ?? q.stderr)")
        // Declared as KSUIDs, the counter fails the same way.
        let (d, dj) = try Self.audit(counter, ["--scheme", "ksuid"])
        #expect(d.status == 1 && dj["verdict_code"] as? String == "non-uniform-positions", "\(dj["findings"] ?? d.stderr)")
        // Declared, the honest streams pass.
        for honest in [fresh, sequence] {
            let (h, hj) = try Self.audit(honest, ["--scheme", "ksuid"])
            #expect(h.status == 0 && hj["verdict_code"] as? String == "consistent", "\(hj["findings"] ?? h.stderr)")
        }
    }

    /// A KSUID generator with a character stuck mid-string, or narrowed to half of base62 there (no
    /// one payload bit shows either), fails undeclared and declared: its low characters are tested
    /// symbol by symbol over the seconds (an outside tester's case). The honest spread passes.
    @Test(arguments: [15, 24])
    func aKSUIDCharacterStuckOrNarrowedFails(position: Int) throws {
        var random = SplitMix(state: 40 + UInt64(position))
        let start: UInt32 = 300_000_000
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        let fresh = (0..<20000).map { i in Array(Self.ksuid(seconds: start + UInt32(i / 100), high: random.next(), low: random.next())) }
        let stuck = fresh.map { c in String(c[..<position]) + "Q" + String(c[(position + 1)...]) }
        // Narrowed, one id a second for 5,000 seconds: half of base62 never shows there.
        let spread = (0..<5000).map { i in Array(Self.ksuid(seconds: start + UInt32(i), high: random.next(), low: random.next())) }
        let narrowed = spread.map { c in
            String(c[..<position]) + String(digits[(digits.firstIndex(of: c[position]) ?? 0) / 2 * 2]) + String(c[(position + 1)...])
        }
        let (h, hj) = try Self.audit(spread.map { String($0) }, ["--scheme", "ksuid"])
        #expect(h.status == 0 && hj["verdict_code"] as? String == "consistent", "\(hj["findings"] ?? h.stderr)")
        for (name, lines) in [("stuck", stuck), ("narrowed", narrowed)] {
            for arguments in [[], ["--scheme", "ksuid"]] {
                let (r, json) = try Self.audit(lines, arguments)
                #expect(
                    r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions",
                    "\(name) \(arguments): \(json["findings"] ?? r.stderr)")
                #expect((json["findings"] as? [String])?.contains { $0.hasPrefix("KSUID character \(position + 1) is not even") } == true)
            }
        }
    }
}

extension AuditPlaceholdersCLITests {
    /// The new counts are checked as the others are: placeholder lines that do not add up to the lines,
    /// or payload bits set in more ids than are KSUIDs, make a corrupt summary (exit 65).
    @Test func impossibleCountsAreCorrupt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("placeholders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let ids = dir.appendingPathComponent("ids.txt")
        let lines = (0..<300).map { i in
            Self.ksuid(seconds: 300_000_000 + UInt32(i / 10), high: UInt64(i) &* 0x9E37_79B9_7F4A_7C15, low: UInt64(i))
        }
        try Data(([Self.nilUUID] + lines).joined(separator: "\n").utf8).write(to: ids)
        let summary = dir.appendingPathComponent("s.json")
        let made = try CLI.run(["audit", ids.path, "--emit-summary", summary.path])
        #expect(made.status == 0 || made.status == 1, "\(made.stderr)")
        let text = try String(contentsOf: summary, encoding: .utf8)
        #expect(text.contains("\"placeholder_lines\" : \"1\"") && text.contains("\"ksuid_payload_bits\""))
        #expect(try CLI.run(["audit", "--summary", summary.path]).status != 65)
        // An empty list is no list of 128: the payload test must not be silenced by it.
        let empty = dir.appendingPathComponent("empty.json")
        let list = try #require(text.range(of: "\"ksuid_payload_bits\" : ["))
        let close = try #require(text.range(of: "]", range: list.upperBound..<text.endIndex))
        try (text[..<list.upperBound] + text[close.lowerBound...]).write(to: empty, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["audit", "--summary", empty.path]).status == 65)
        for (from, to) in [
            ("\"placeholder_lines\" : \"1\"", "\"placeholder_lines\" : \"2\""),
            ("\"ksuid_payload_bits\" : [\n    \"", "\"ksuid_payload_bits\" : [\n    \"9"),
        ] {
            #expect(text.contains(from), "\(from)")
            let bad = dir.appendingPathComponent("bad.json")
            try text.replacingOccurrences(of: from, with: to).write(to: bad, atomically: true, encoding: .utf8)
            let r = try CLI.run(["audit", "--summary", bad.path])
            #expect(r.status == 65 && r.stderr.split(separator: "\n").count == 1, "\(from): \(r.status) \(r.stderr)")
        }
    }
}

extension AuditPlaceholdersCLITests {
    /// Under a declared shape a placeholder is a line not of it, counted against --max-invalid alike
    /// from the file, from a summary made without the declaration, and under a node-id layout.
    @Test func underADeclarationPlaceholdersAreInvalidLines() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("placeholders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for scheme in ["uuid4", "objectid"] {
            let ids = try CLI.run(["generate", "--scheme", scheme, "--count", "5000"]).stdout
            let file = dir.appendingPathComponent("\(scheme).txt")
            try Data((ids + Self.nilUUID + "\n").utf8).write(to: file)
            let summary = dir.appendingPathComponent("\(scheme).json")
            #expect(try CLI.run(["audit", file.path, "--emit-summary", summary.path]).status == 0)
            for source in [[file.path], ["--summary", summary.path]] {
                let r = try CLI.run(["audit"] + source + ["--scheme", scheme, "--format", "json"])
                let json = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
                #expect(
                    r.status == 1 && json["verdict_code"] as? String == "invalid-ids",
                    "\(scheme) \(source): \(json["findings"] ?? r.stderr)")
                #expect(try CLI.run(["audit"] + source + ["--scheme", scheme, "--max-invalid", "1"]).status == 0, "\(scheme) \(source)")
            }
        }
    }

    /// Words and placeholders share one tolerance: 15 words of 10 lines each beside 10,000 ids are no
    /// stray lines, however few each word's are.
    @Test func wordsAndPlaceholdersShareOneTolerance() throws {
        let words = (1...15).flatMap { k in Array(repeating: String(repeating: "x", count: k), count: 10) }
        let (r, json) = try Self.audit(Self.uuid7s(10000, seed: 12) + words)
        #expect(r.status == 1, "\(json["findings"] ?? r.stderr)")
        let (n, nj) = try Self.audit(
            Self.uuid7s(10000, seed: 13) + Array(repeating: "null", count: 6) + Array(repeating: Self.nilUUID, count: 6))
        #expect(n.status == 1, "\(nj["findings"] ?? n.stderr)")
        let (ok, oj) = try Self.audit(
            Self.uuid7s(10000, seed: 14) + Array(repeating: "null", count: 5) + Array(repeating: Self.nilUUID, count: 5))
        #expect(ok.status == 0, "\(oj["findings"] ?? ok.stderr)")
    }

    /// A word is a word by its symbols, not its length alone: 15 copies of a 15-character token with
    /// digits (a stuck generator's) among 20,000 UUIDv7s or Snowflakes are repeats of an id and fail;
    /// 15 copies of a header `request_id`, or of `0` for no id, are set aside.
    @Test func aShortTokenIsNoWord() throws {
        let snowflakes = try CLI.run(["generate", "--scheme", "snowflake", "--count", "20000"]).stdout.split(separator: "\n")
            .map(String.init)
        for ids in [Self.uuid7s(20000, seed: 15), snowflakes] {
            let (r, json) = try Self.audit(ids + Array(repeating: "3fA9kQ2mZx81LpW", count: 15))
            #expect(r.status == 1 && json["verdict_code"] as? String == "too-many-duplicates", "\(json["findings"] ?? r.stderr)")
            for word in ["request_id", "0"] {
                let (w, wj) = try Self.audit(ids + Array(repeating: word, count: 15))
                #expect(w.status == 0, "\(word): \(wj["findings"] ?? w.stderr)")
            }
        }
        // A header in each of 30 parts joined with `cat`, past the tolerance: copies of one value,
        // and the findings say what it likely is and how to read such an export.
        let (h, hj) = try Self.audit(Self.uuid7s(2000, seed: 16) + Array(repeating: "request_id", count: 30))
        let findings = (hj["findings"] as? [String] ?? []).joined(separator: " | ")
        #expect(h.status == 1 && findings.contains("one word written 30 times") && findings.contains("--column NAME"), "\(findings)")
    }
}
