import Foundation
import IDBudget
import IDFormats
import Precise

extension AuditAnalysis {
    /// The duplicate test's cells. Where the space is known only within a range, too many
    /// duplicates are judged against the smallest space the ids could come from (`more`), too few
    /// against the largest (`fewer`).
    struct DuplicateCells {
        private(set) var more: [DuplicateTest.Cell]
        private(set) var fewer: [DuplicateTest.Cell]
        /// Whether too few duplicates can be judged at all.
        private(set) var judgeFewer = true

        /// The cells of a stream, adjusted in turn for ids of other lengths or past the recorded
        /// positions, for shards, and for an alphabet that is only the symbols seen.
        init(
            _ s: AuditSummary, judged: SpaceJudgement, claimedBits: Int?, format: TimeFormat?, length single: Int?,
            positions: [Position], alphabet: ChosenAlphabet, findings: inout [String]
        ) {
            more = judged.groups.map { DuplicateTest.Cell(space: judged.space, ids: $0.key, groups: $0.value) }
            fewer = more
            if claimedBits == nil, format == nil, s.lengths.count > 1 {
                separateLengths(s, space: judged.space, length: single, alphabetSize: alphabet.size, findings: &findings)
            } else if let single, single > AuditSummary.positionLimit, format == nil, claimedBits == nil, let n = s.lengths[single] {
                headOnly(positions, ids: n, findings: &findings)
            }
            if s.shardIndexes.count < s.shardCount { shard(s, findings: &findings) }
            if alphabet.isObserved && format == nil && claimedBits == nil {
                judgeFewer = false
                findings.append("the alphabet is only the symbols these ids show: too few duplicates cannot be judged against it")
            }
        }

        /// Ids of other lengths never collide with these; without positions of their own, each
        /// length may use as few as 2 symbols, or the whole alphabet.
        private mutating func separateLengths(
            _ s: AuditSummary, space: BigInt, length single: Int?, alphabetSize: Int, findings: inout [String]
        ) {
            let others = s.lengths.filter { $0.key != single }
            more = single.flatMap { l in s.lengths[l].map { [DuplicateTest.Cell(space: space, ids: $0)] } } ?? []
            fewer = more
            more += others.map { DuplicateTest.Cell(space: Self.capped(2, $0.key), ids: $0.value) }
            fewer += others.map { DuplicateTest.Cell(space: Self.capped(alphabetSize, $0.key), ids: $0.value) }
            judgeFewer = false
            findings.append(
                "ids of \(others.count) length\(others.count == 1 ? "" : "s") without positions of their own: their duplicates are judged as if their alphabet had 2 symbols; too few are not judged"
            )
        }

        /// Positions past 64 are not recorded: they may be constant.
        private mutating func headOnly(_ positions: [Position], ids n: Int, findings: inout [String]) {
            let head = positions.reduce(BigInt(1)) { $0 * BigInt($1.size) }
            more = [DuplicateTest.Cell(space: Swift.max(head, BigInt(2)), ids: n)]
            findings.append(
                "positions past \(AuditSummary.positionLimit) are not recorded: too many duplicates are judged over the first \(AuditSummary.positionLimit) alone"
            )
        }

        /// Shards split the values by fingerprint: k of K shards hold about k/K of each space (within a
        /// few square roots of it in a small space).
        private mutating func shard(_ s: AuditSummary, findings: inout [String]) {
            let k = BigInt(s.shardIndexes.count)
            let total = BigInt(s.shardCount)
            func share(_ c: DuplicateTest.Cell, _ side: Double) -> DuplicateTest.Cell {
                var part = c.space * k / total
                let approx = part.doubleValue
                if approx < 1e15 {
                    part = BigInt(Int((approx + side * 8 * approx.squareRoot()).rounded(side < 0 ? .down : .up)))
                }
                return DuplicateTest.Cell(space: part < BigInt(1) ? BigInt(1) : part, ids: c.ids, groups: c.groups)
            }
            more = more.map { share($0, -1) }
            fewer = fewer.map { share($0, 1) }
            findings.append(
                "\(s.shardIndexes.count) of \(s.shardCount) shards: each holds about that share of the space's values, and is judged so")
        }

        /// base^length, or 2^4096 past it.
        static func capped(_ base: Int, _ length: Int) -> BigInt {
            Double(length) * log2(Double(base)) > Double(AuditAnalysis.spaceCapBits)
                ? BigInt.power(2, AuditAnalysis.spaceCapBits) : BigInt.power(base, length)
        }

        /// Ids of another space beside these, in both tails (a mix of formats in one stream).
        mutating func add(_ cell: DuplicateTest.Cell) {
            more.append(cell)
            fewer.append(cell)
        }

        /// One test where both tails see the same cells, else the conservative pair.
        func test(observed: Int, tests: Int) -> DuplicateTest {
            let sameCells =
                more.count == fewer.count
                && zip(more, fewer).allSatisfy { $0.space == $1.space && $0.ids == $1.ids && $0.groups == $1.groups }
            return sameCells
                ? DuplicateTest(cells: more, observed: observed, tests: tests, judgeFewer: judgeFewer)
                : DuplicateTest.conservative(forMore: more, forFewer: fewer, observed: observed, tests: tests, judgeFewer: judgeFewer)
        }
    }
}
