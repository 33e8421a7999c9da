import Foundation
import TestSupport
import Testing

/// A format's space as the format spells it, not rounded to a power of two: cuid2 is a letter and 23
/// base36 symbols, 26·36^23 ≈ 2^123.61 (Tests/Oracles/cuid2_ref.py: the one Python reference).
@Suite(.oracles) struct SchemeSpaceCLITests {
    @Test func cuid2IsTwentySixTimesThirtySixToTheTwentyThird() throws {
        let r = try CLI.run(["probability", "--scheme", "cuid2", "--rate", "1e6/s", "--lifetime", "10y", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        let count = try #require(CLI.at(json, "volume.count") as? String)
        let reference = try CLI.python("Tests/Oracles/cuid2_ref.py", [count])
        try #require(reference.status == 0, "\(reference.output)")
        #expect(CLI.at(json, "collision.probability") as? String == reference.output.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((CLI.at(json, "space.summary") as? String ?? "").contains("26·36^23"))
        #expect(CLI.at(json, "space.size") as? String == "16215519455311624673396319144961376256")  // 26 · 36^23
    }
}
