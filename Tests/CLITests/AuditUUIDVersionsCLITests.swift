import Foundation
import TestSupport
import Testing

/// A log of several UUID versions — v1 or v6 hosts beside v4 and v7 services, a migration between
/// them — is judged version by version: honest, it passes; a repeated UUIDv1, which no RFC 9562
/// generator writes, fails.
@Suite(.oracles) struct AuditUUIDVersionsCLITests {
    /// UUIDv1 (RFC 9562 §5.1): 60-bit time in 100 ns since 1582 (split low, mid, high), a 14-bit clock
    /// sequence, a 48-bit node — one host's, so constant.
    static func uuid1s(_ n: Int) -> [String] {
        let start: UInt64 = 0x1EF_0000_0000_0000
        return (0..<n).map { i in
            let t = start + UInt64(i) * 10_000
            let high = (t & 0xFFFF_FFFF) << 32 | (t >> 32 & 0xFFFF) << 16 | 0x1000 | t >> 48 & 0x0FFF
            let low: UInt64 = 0x8000_0000_0000_0000 | 0x1234 << 48 | 0x0242_AC11_0002
            return Self.text(high, low)
        }
    }

    static func text(_ high: UInt64, _ low: UInt64) -> String {
        let c = Array(String(format: "%016llx%016llx", high, low))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
    }

    static func uuid4s(_ n: Int, seed: UInt64) -> [String] {
        var random = SplitMix(state: seed)
        return (0..<n).map { _ in
            Self.text(random.next() & ~0xF000 | 0x4000, random.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000)
        }
    }

    @Test func aLogOfUUIDv1V4AndV7PassesAndARepeatedV1Fails() throws {
        let lines = Self.uuid1s(3000) + Self.uuid4s(3000, seed: 5) + AuditPlaceholdersCLITests.uuid7s(3000, seed: 6)
        let (r, json) = try AuditPlaceholdersCLITests.audit(lines)
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        #expect(json["format"] as? String == "UUIDv7, UUIDv4 and UUIDv1")
        #expect((json["findings"] as? [String])?.contains { $0.hasPrefix("a mix of UUID versions") && $0.contains("3000 UUIDv1") } == true)
        let (again, j) = try AuditPlaceholdersCLITests.audit(lines + [lines[7]])
        #expect(again.status == 1 && j["verdict_code"] as? String == "too-many-duplicates", "\(j["findings"] ?? again.stderr)")
    }

    /// UUIDv6 (RFC 9562 §5.6): the UUIDv1's ticks high bits first.
    static func uuid6s(_ n: Int) -> [String] {
        let start: UInt64 = 0x1EF_1000_0000_0000
        return (0..<n).map { i in
            let t = start + UInt64(i) * 10_000
            let high = (t >> 12) << 16 | 0x6000 | t & 0x0FFF
            let low: UInt64 = 0x8000_0000_0000_0000 | 0x2345 << 48 | 0x0242_AC11_0003
            return Self.text(high, low)
        }
    }

    /// Without UUIDv7s there are no milliseconds to judge within, but the versions are still apart:
    /// UUIDv1 or v6 beside v4 (a host's old ids beside a service's new ones) pass; a copy fails.
    @Test func uuidV1OrV6BesideV4WithoutV7PassesAndACopyFails() throws {
        for lines in [Self.uuid1s(4000) + Self.uuid4s(4000, seed: 8), Self.uuid6s(3000) + Self.uuid4s(5000, seed: 9)] {
            let (r, json) = try AuditPlaceholdersCLITests.audit(["id"] + lines)
            #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
            #expect((json["format"] as? String)?.hasPrefix("UUIDv4 and UUIDv") == true, "\(json["format"] ?? "")")
            let (again, j) = try AuditPlaceholdersCLITests.audit(lines + [lines[5000]])
            #expect(again.status == 1 && j["verdict_code"] as? String == "too-many-duplicates", "\(j["findings"] ?? again.stderr)")
        }
        let (r, json) = try AuditPlaceholdersCLITests.audit(Self.uuid1s(3000) + Self.uuid6s(3000))
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
    }

    /// UUIDv8s (a vendor's clocked layout, as `uuid6.uuid8()` writes) beside UUIDv4s or UUIDv7s, past
    /// the strays: told apart by the version character, the v8s judged over their 122 bits with their
    /// positions left to their vendor; honest, they pass; a copied UUIDv4 or UUIDv8 fails.
    @Test func uuidV8BesideV4OrV7PassesAndACopyFails() throws {
        let v8s = AuditDeclaredCLITests.clockedUUIDv8s(3000, start: 0x0187_0000_0000, step: 7, seed: 31)
        for (others, name) in [
            (Self.uuid4s(5000, seed: 32), "UUIDv4 and UUIDv8"), (AuditPlaceholdersCLITests.uuid7s(5000, seed: 33), "UUIDv7 and UUIDv8"),
        ] {
            let lines = others + v8s
            let (r, json) = try AuditPlaceholdersCLITests.audit(["id"] + lines)
            #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
            #expect(json["format"] as? String == name, "\(json["format"] ?? "")")
            for copied in [lines[10], lines[6000]] {
                let (again, j) = try AuditPlaceholdersCLITests.audit(lines + [copied, copied])
                #expect(again.status == 1 && j["verdict_code"] as? String == "too-many-duplicates", "\(j["findings"] ?? again.stderr)")
            }
        }
    }

    /// A UUIDv4 generator stuck at one position beside UUIDv1s (whose node writes one symbol there)
    /// or clocked UUIDv8s (whose clock does): the versions' symbols are counted together and their
    /// positions are not tested, but the UUIDv4s' share of each symbol has a floor, and it fails.
    @Test func aStuckUUIDv4BesideV1sOrV8sFails() throws {
        let v4s = Self.uuid4s(4000, seed: 12)
        func stuck(_ at: Int) -> [String] {
            v4s.map { id in
                var c = Array(id)
                c[at] = "0"
                return String(c)
            }
        }
        let v8s = AuditDeclaredCLITests.clockedUUIDv8s(3000, start: 0x0187_0000_0000, step: 7, seed: 31)
        for lines in [Self.uuid1s(4000) + stuck(30), v8s + stuck(2)] {
            let (r, json) = try AuditPlaceholdersCLITests.audit(["id"] + lines)
            let findings = (json["findings"] as? [String] ?? []).joined(separator: " | ")
            #expect(r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions", "\(findings)")
            #expect(findings.contains("of the UUIDv4s is not uniform"), "\(findings)")
        }
        // With UUIDv7s too, the same where the v7s write one symbol as well (their timestamp's top);
        // at position 31 their random bits would fill the gap.
        let (r, json) = try AuditPlaceholdersCLITests.audit(
            Self.uuid1s(3000) + stuck(0) + AuditPlaceholdersCLITests.uuid7s(3000, seed: 13))
        #expect(r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions", "\(json["findings"] ?? r.stderr)")
        // UUIDv4s all starting `deadbeef` beside UUIDv7s: under the v7s' timestamp, which the usual
        // position test leaves alone, the v4s' floor still sees it.
        let prefixed = v4s.map { "deadbeef" + $0.dropFirst(8) }
        let (p, pj) = try AuditPlaceholdersCLITests.audit(AuditPlaceholdersCLITests.uuid7s(20000, seed: 14) + prefixed)
        #expect(p.status == 1 && pj["verdict_code"] as? String == "non-uniform-positions", "\(pj["findings"] ?? p.stderr)")
    }

    /// One test UUID among UUIDv4s (`…0001`, version 0) is a stray line: the version position is
    /// still the UUIDv4's `4`, not a biased one; many such lines are not strays.
    @Test func oneTestUUIDAmongV4sIsAStrayLine() throws {
        let v4s = Self.uuid4s(20000, seed: 11)
        let (r, json) = try AuditPlaceholdersCLITests.audit(v4s + ["00000000-0000-0000-0000-000000000001"])
        #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        #expect(json["format"] as? String == "UUIDv4")
        let tests = (1...200).map { String(format: "00000000-0000-0000-0000-%012x", $0) }
        #expect(
            (json["findings"] as? [String])?.contains { $0.contains("left out within the tolerance") } == true, "\(json["findings"] ?? "")")
        let (bad, j) = try AuditPlaceholdersCLITests.audit(v4s + tests)
        #expect(bad.status == 1 && j["verdict_code"] as? String == "non-uniform-positions", "\(j["findings"] ?? bad.stderr)")
        // A rare symbol in a field that uses most of the alphabet is a biased generator's, not a stray
        // line's: hex tokens whose last position shows 'f' in 1 id of 2,000 fail.
        var random = SplitMix(state: 12)
        let hexTokens = (0..<100_000).map { k -> String in
            let last = k % 2000 == 0 ? "f" : String(Array("0123456789abcde")[Int(random.next() % 15)])
            return String(format: "%016llx%015llx", random.next(), random.next() >> 4) + last
        }
        let (rare, rareJSON) = try AuditPlaceholdersCLITests.audit(hexTokens)
        #expect(
            rare.status == 1 && rareJSON["verdict_code"] as? String == "non-uniform-positions", "\(rareJSON["findings"] ?? rare.stderr)")
    }

    /// Firebase push ids (written here from the 2015 post's layout: 8 characters of milliseconds,
    /// 12 random, `-0-9A-Z_a-z`), one a millisecond or a burst within one and counted up: honest
    /// streams pass undeclared, behind a header too; a copied id fails; random base64url tokens of
    /// the same length are not read as them.
    @Test func firebasePushIDsUndeclared() throws {
        let symbols = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")
        var random = SplitMix(state: 21)
        func id(_ millis: UInt64, _ suffix: [Int]) -> String {
            String((0..<8).map { symbols[Int(millis >> (6 * (7 - UInt64($0))) & 63)] } + suffix.map { symbols[$0] })
        }
        func draw() -> [Int] { (0..<12).map { _ in Int(random.next() % 64) } }
        let spread = (0..<20000).map { id(1_704_067_200_000 + UInt64($0) * 40, draw()) }
        var burst: [String] = []
        for ms in 0..<20 {
            var suffix = draw()
            for _ in 0..<1000 {
                burst.append(id(1_704_067_200_000 + UInt64(ms), suffix))
                var i = 11
                while i >= 0 {
                    suffix[i] = (suffix[i] + 1) % 64
                    if suffix[i] != 0 { break }
                    i -= 1
                }
            }
        }
        for lines in [spread, ["id"] + spread, burst] {
            let (r, json) = try AuditPlaceholdersCLITests.audit(lines)
            #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
            #expect(json["format"] as? String == "Firebase push id")
        }
        // Declared, the honest streams pass too (a header is an invalid line there, not tolerated).
        for lines in [spread, burst] {
            let (r, json) = try AuditPlaceholdersCLITests.audit(lines, ["--scheme", "firebase"])
            #expect(r.status == 0 && json["verdict_code"] as? String == "consistent", "\(json["findings"] ?? r.stderr)")
        }
        let (again, j) = try AuditPlaceholdersCLITests.audit(spread + [spread[10]])
        #expect(again.status == 1 && j["verdict_code"] as? String == "too-many-duplicates", "\(j["findings"] ?? again.stderr)")
        // One client's ids, two in one millisecond (counted up) and then one a millisecond: the two
        // share their random symbols, and no other id does: not a stuck position (an outside tester's).
        let client = [
            "-OCyqM7-IWBdK2oo8CFc", "-OCyqM7-IWBdK2oo8CFd", "-OCyqM70wtoPOceeqAyn", "-OCyqM809PU3OB9NVZbV", "-OCyqM71JE1XSRT60aYG",
            "-OCyqM81etIYrJKnEFqg", "-OCyqM72RD5NrLL9D_-c", "-OCyqM82nu5KEue08CAe", "-OCyqM73V9a42NR0J2Gb", "-OCyqM83FpYClBQTORBa",
            "-OCyqM74FlG9ty-LNbnB", "-OCyqM84_PiaHB-Y6ljZ",
        ]
        let (few, fewJSON) = try AuditPlaceholdersCLITests.audit(client)
        #expect(few.status == 0 && fewJSON["verdict_code"] as? String == "consistent", "\(fewJSON["findings"] ?? few.stderr)")
        // A generator whose random part is stuck (on 'AAAA' at the end, or all of it) fails.
        let stuckTail = spread.map { String($0.prefix(16)) + "AAAA" }
        let (tail, tailJSON) = try AuditPlaceholdersCLITests.audit(stuckTail)
        #expect(
            tail.status == 1 && tailJSON["verdict_code"] as? String == "non-uniform-positions", "\(tailJSON["findings"] ?? tail.stderr)")
        let (whole, wholeJSON) = try AuditPlaceholdersCLITests.audit(spread.map { String($0.prefix(8)) + "AAAAAAAAAAAA" })
        #expect(
            whole.status == 1 && wholeJSON["verdict_code"] as? String == "non-uniform-positions", "\(wholeJSON["findings"] ?? whole.stderr)"
        )
        // Declared, a stuck random part fails as it does undeclared: a declaration never judges more
        // leniently (an outside tester found `--scheme firebase` passing what the bare audit caught).
        for lines in [stuckTail, spread.map { String($0.prefix(12)) + "Q" + String($0.dropFirst(13)) }] {
            let (r, json) = try AuditPlaceholdersCLITests.audit(lines, ["--scheme", "firebase"])
            #expect(r.status == 1 && json["verdict_code"] as? String == "non-uniform-positions", "\(json["findings"] ?? r.stderr)")
        }
        let (fewDeclared, fdj) = try AuditPlaceholdersCLITests.audit(client, ["--scheme", "firebase"])
        #expect(fewDeclared.status == 0, "\(fdj["findings"] ?? fewDeclared.stderr)")
        let tokens = (0..<20000).map { _ in String((0..<20).map { _ in symbols[Int(random.next() % 64)] }) }
        let (t, tj) = try AuditPlaceholdersCLITests.audit(tokens)
        #expect(t.status == 0 && tj["format"] as? String != "Firebase push id", "\(tj["format"] ?? t.stderr)")
    }
}
