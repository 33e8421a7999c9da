import Foundation
import IDBudget
import IDFormats

/// UUIDs of several versions in one stream — a migration's log (v4 → v7, v1 → v7), or services that
/// mint different versions — told apart by the version character and each judged where its ids can
/// collide.
extension AuditAnalysis {
    struct UUIDVersionMix {
        let uuid7s: Int
        /// 122 random bits each: judged among themselves.
        let uuid4s: Int
        /// Unique by construction (RFC 9562: the clock sequence changes whenever the clock may have
        /// gone back, the node tells generators apart): no random space makes a repeat chance.
        let uuid1s: Int
        let uuid6s: Int
        /// 122 bits laid out as their vendor chose (RFC 9562 §5.8: random in some, a clock or a
        /// counter in others): judged among themselves over 2^122, an upper bound on what chance
        /// repeats; their positions are theirs to define.
        var uuid8s = 0

        /// The versions present, in words: "UUIDv7, UUIDv4 and UUIDv1".
        var name: String {
            let present = [("UUIDv7", uuid7s), ("UUIDv4", uuid4s), ("UUIDv1", uuid1s), ("UUIDv6", uuid6s), ("UUIDv8", uuid8s)]
                .filter { $0.1 > 0 }.map(\.0)
            return present.dropLast().joined(separator: ", ") + " and " + (present.last ?? "")
        }

        /// What the other versions add to the duplicate test beside the UUIDv7s' milliseconds: the
        /// UUIDv4s' 2^122; the UUIDv1s' and v6s' a space past any (2^4096), where no repeat is
        /// expected, so any repeat among them counts against the stream.
        var cells: [DuplicateTest.Cell] {
            var out: [DuplicateTest.Cell] = []
            if uuid4s > 0 { out.append(.init(space: BigInt.power(2, IDFormat.uuid4.randomBits), ids: uuid4s)) }
            if uuid8s > 0 { out.append(.init(space: BigInt.power(2, IDFormat.uuid8.randomBits), ids: uuid8s)) }
            if uuid1s + uuid6s > 0 { out.append(.init(space: BigInt.power(2, AuditAnalysis.spaceCapBits), ids: uuid1s + uuid6s)) }
            return out
        }

        /// The positions not tested beyond UUIDv7's timestamp: all of them when more UUIDv1s, v6s and
        /// v8s than the stray tolerance take part — a UUIDv1's clock sequence and node are not random,
        /// a UUIDv8's bits are its vendor's, and the summary counts the versions' symbols together.
        func untestedPositions(strayTolerance: Int) -> Set<Int> {
            uuid1s + uuid6s + uuid8s > strayTolerance ? Set(0..<IDFormat.uuid7.length) : []
        }

        /// The positions (0-based) where the UUIDv4s, beside other versions, write a symbol rarer than
        /// their own draws allow: the test that reaches where the usual one does not (a UUIDv7's
        /// timestamp; every position beside UUIDv1s, v6s or v8s, ``untestedPositions(strayTolerance:)``).
        /// Every other version only adds to a count, so each hex symbol at a UUIDv4's random position
        /// must appear at least as often as Bin(v4s, 1/16) allows, and each of the variant's 8, 9, a
        /// and b as Bin(v4s, 1/4) (``belowFloor(count:draws:probability:level:)``, rigorous, at the
        /// verdict's level over the 484 counts). A UUIDv4 stuck or narrowed where the others write one
        /// symbol (a v7's or v8's clock, a v1's node and clock sequence) is caught; where the others
        /// draw at random too, their symbols fill the gap and no summary shows it. Empty below 100
        /// UUIDv4s.
        func uuid4Floors(_ s: AuditSummary) -> [Int] {
            guard uuid4s >= 100, uuid4s < uuid4s + uuid7s + uuid1s + uuid6s + uuid8s, s.positions.count >= 36 else { return [] }
            let level = DuplicateTest.threshold / 484
            let hex = Array("0123456789abcdef".unicodeScalars)
            let variant = Array("89ab".unicodeScalars)
            let skipped = Set(IDFormat.uuidHyphenPositions).union([IDFormat.uuidVersionPosition])
            return (0..<36).filter { i in
                guard !skipped.contains(i) else { return false }
                let (symbols, p) = i == 19 ? (variant, 0.25) : (hex, 1.0 / 16)
                return symbols.contains {
                    AuditAnalysis.belowFloor(count: s.positions[i][$0] ?? 0, draws: uuid4s, probability: p, level: level)
                }
            }
        }

        /// The finding for ``uuid4Floors(_:)``'s positions.
        func floorWords(_ flagged: [Int]) -> String {
            "position\(flagged.count == 1 ? "" : "s") \(AuditAnalysis.ranges(flagged)) of the UUIDv4s \(flagged.count == 1 ? "is" : "are") not uniform: a symbol there is rarer than \(uuid4s) UUIDv4s alone would write it (the other versions only add to its count; Chernoff's bound) — a stuck or narrowed generator"
        }

        func words(strayTolerance: Int) -> String {
            var parts = uuid7s > 0 ? ["\(uuid7s) UUIDv7 judged within their milliseconds"] : []
            if uuid4s > 0 { parts.append("\(uuid4s) UUIDv4 over 2^122") }
            for (n, v) in [(uuid1s, "UUIDv1"), (uuid6s, "UUIDv6")] where n > 0 {
                parts.append("\(n) \(v), which never repeat from an RFC 9562 generator (a repeat among them counts against the stream)")
            }
            if uuid8s > 0 {
                parts.append(
                    "\(uuid8s) UUIDv8 over 2^122 (their bits laid out as their vendor chose, RFC 9562 §5.8: an upper bound on chance repeats)"
                )
            }
            let positions =
                untestedPositions(strayTolerance: strayTolerance).isEmpty
                ? "positions 1–13, UUIDv7's timestamp, are not tested"
                : "positions are not tested: \(uuid8s > 0 ? "a UUIDv8's bits are its vendor's to lay out" : "a UUIDv1's or v6's clock sequence and node are not random")"
            return "a mix of UUID versions (by the version character, position 15): " + parts.joined(separator: ", ") + "; " + positions
        }
    }

    /// The UUIDs of several versions in one length-36 stream, when every id is a UUIDv7, v4, v1 or v6
    /// and two versions or more take part: the hyphens in place, the variant character 8, 9, a or b,
    /// and every UUIDv7, v1 and v6 parsed as one (its timestamp read). Without UUIDv7s, only when
    /// more UUIDv1s and v6s than the stray tolerance take part (a few among UUIDv4s are stray lines,
    /// and the UUIDv4s' positions are still tested). nil otherwise. With UUIDv7s and UUIDv4s only,
    /// the positions random in both are still tested (a mix of uniform symbols is uniform).
    static func uuidVersionMix(_ s: AuditSummary, length: Int?) -> UUIDVersionMix? {
        guard length == 36, s.lengths.count == 1, s.positions.count >= 36 else { return nil }
        for i in IDFormat.uuidHyphenPositions where s.positions[i] != ["-": s.ids] { return nil }
        guard s.positions[19].keys.allSatisfy({ "89abAB".unicodeScalars.contains($0) }) else { return nil }
        let version = s.positions[IDFormat.uuidVersionPosition]
        guard version.keys.allSatisfy({ "14678".unicodeScalars.contains($0) }), version.count >= 2 else { return nil }
        let mix = UUIDVersionMix(
            uuid7s: version["7"] ?? 0, uuid4s: version["4"] ?? 0, uuid1s: version["1"] ?? 0, uuid6s: version["6"] ?? 0,
            uuid8s: version["8"] ?? 0)
        guard mix.uuid7s == s.timeFormats[.uuid7]?.ids ?? 0, mix.uuid1s == s.timeFormats[.uuid1]?.ids ?? 0,
            mix.uuid6s == s.timeFormats[.uuid6]?.ids ?? 0,
            mix.uuid7s > 0 || mix.uuid1s + mix.uuid6s + mix.uuid8s > strayTolerance(s.ids)
        else { return nil }
        return mix
    }

    /// Judges UUIDv4s beside UUIDv1s or v6s, without UUIDv7s (``uuidVersionMix(_:length:)``): no
    /// time buckets to judge within, so each version in its cell — the UUIDv4s over 2^122, the v1s
    /// and v6s past any space, where no repeat is chance. Their positions are not tested: a UUIDv1's
    /// clock sequence and node are not random, and the summary counts the versions' symbols together.
    /// Too few duplicates are no finding (none are expected).
    init(uuidMix mix: UUIDVersionMix, summary s: AuditSummary, tests: Int) {
        var cells = mix.cells
        if cells.isEmpty { cells = [.init(space: BigInt.power(2, AuditAnalysis.spaceCapBits), ids: s.ids)] }
        let test = DuplicateTest(cells: cells, observed: s.extraOccurrences, tests: tests, judgeFewer: false)
        var findings = [mix.words(strayTolerance: Self.strayTolerance(s.ids))]
        let floors = mix.uuid4Floors(s)
        if !floors.isEmpty { findings.append(mix.floorWords(floors)) }
        var verdict = Self.decideVerdict(s, test: test, nonUniform: !floors.isEmpty, findings: &findings)
        if let repeats = Self.clockedRepeats(s, format: .uuid1), mix.uuid4s + mix.uuid8s == 0 {
            verdict = .tooMany
            findings.append(
                "\(repeats) repeated UUIDv1 or v6 id\(repeats == 1 ? "" : "s"): unique by construction (RFC 9562), so no repeat is chance — a copied id or a broken clock"
            )
        }
        let random = mix.uuid4s + mix.uuid8s > 0
        let space = random ? BigInt.power(2, IDFormat.uuid4.randomBits) : BigInt.power(2, AuditAnalysis.spaceCapBits)
        self.init(
            cellsOnly: s, whole: s, test: test, verdict: verdict, findings: findings, alphabet: ("hex", 16), formatName: mix.name,
            space: space,
            spaceDescription: [
                mix.uuid4s > 0 ? "UUIDv4: 2^\(IDFormat.uuid4.randomBits)" : nil,
                mix.uuid8s > 0 ? "UUIDv8: 2^\(IDFormat.uuid8.randomBits)" : nil,
                mix.uuid1s + mix.uuid6s > 0 ? "UUIDv1 and v6: unique by their clock and node" : nil,
            ].compactMap { $0 }.joined(separator: "; "),
            randomBits: space.log2Magnitude)
    }
}
