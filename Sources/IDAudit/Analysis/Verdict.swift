import Foundation
import IDBudget

extension AuditAnalysis {
    /// The verdict, most serious first: no ids, too many duplicates, positions that are not random,
    /// too few duplicates, a test that could not decide, else consistent. Too few duplicates get
    /// words whatever the verdict. Under a declared shape (`positionsFirst`) a position that is not
    /// uniform comes before the duplicates: a stuck position narrows the space, and the duplicates
    /// over the declared one are its consequence, not another fault.
    static func decideVerdict(
        _ s: AuditSummary, test: DuplicateTest, nonUniform: Bool, positionsFirst: Bool = false, findings: inout [String]
    ) -> Verdict {
        let verdict: Verdict
        if s.ids == 0 {
            verdict = .empty
            findings.append("no ids: an empty stream is not evidence that ids are random")
        } else if nonUniform && positionsFirst {
            verdict = .nonUniform
        } else if test.verdict == .tooMany {
            verdict = .tooMany
        } else if nonUniform {
            verdict = .nonUniform
        } else if test.verdict == .tooFew {
            verdict = .tooFew
        } else if test.verdict == .inconclusive {
            verdict = .inconclusive
            findings.append(
                String(
                    format:
                        "the duplicates look off (estimated p = %.3g) but no bound proves it below the threshold within the cost limit: not vouched for",
                    Swift.min(test.estimateHigh, test.estimateLow)))
        } else {
            verdict = .consistent
        }
        if test.verdict == .tooFew {
            findings.append(
                String(
                    format: "no more than %d duplicates where %.4g are expected: sequential, counter-based or deduplicated ids?",
                    s.extraOccurrences, test.mean))
        }
        return verdict
    }
}
