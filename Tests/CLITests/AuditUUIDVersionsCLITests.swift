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
}
