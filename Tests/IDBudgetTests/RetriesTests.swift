import Foundation
import Precise
import TestSupport
import Testing

@testable import IDBudget

/// The reference values for `idbudget retries`, made by Tests/Oracles/retries_ref.py (mpmath's digamma
/// and Bernoulli numbers, exact fractions): every printed digit.
struct RetriesReference: Decodable {
    struct Case: Decodable {
        let label: String
        let space: String
        let count: String
        let maxAttempts: Int
        let fill: String
        let expectedAttemptsNext: String
        let expectedAttemptsTotal: String
        let exhaustionProbability: String
        let budget: String?
        let capacity: String?
    }

    /// A store at or past its space (N ≥ d).
    struct Full: Decodable {
        let label: String
        let space: String
        let count: String
        let maxAttempts: Int
        let fill: String
        let expectedAttemptsTotal: String?
        let exhaustionProbability: String
    }

    /// A capacity past 2^4096 ids that the oracle proves is at least 2^4096 (space: base^exponent).
    struct AtLeast: Decodable {
        let label: String
        let space: String
        let maxAttempts: Int
        let budget: String
    }

    let digits: Int
    let cases: [Case]
    let full: [Full]
    let atLeast: [AtLeast]

    static let shared: RetriesReference = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference/retries.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try! decoder.decode(RetriesReference.self, from: Data(contentsOf: url))
    }()

    /// A decimal integer, or b^k.
    static func integer(_ text: String) -> BigInt {
        let parts = text.split(separator: "^")
        if parts.count == 2, let b = Int(parts[0]), let k = Int(parts[1]) { return BigInt.power(b, k) }
        return BigInt(decimal: text)!
    }
}

@Suite struct RetriesTests {
    static let reference = RetriesReference.shared

    @Test func coversTheRegimes() {
        #expect(Self.reference.digits == Birthday.significantDigits)
        let ks = Set(Self.reference.cases.map(\.maxAttempts))
        #expect([1, 2, 3, 10].allSatisfy(ks.contains))
        #expect(Self.reference.cases.filter { $0.capacity != nil }.count >= 6)
    }

    @Test(arguments: reference.cases.map(\.label))
    func everyDigit(label: String) throws {
        let r = Self.reference.cases.first { $0.label == label }!
        let d = RetriesReference.integer(r.space)
        let n = RetriesReference.integer(r.count)
        #expect(try Retries.fill(space: d, count: n).description == r.fill, "\(label)")
        #expect(try Retries.expectedAttemptsNext(space: d, count: n).description == r.expectedAttemptsNext, "\(label)")
        #expect(try Retries.expectedAttemptsTotal(space: d, count: n).description == r.expectedAttemptsTotal, "\(label)")
        #expect(
            try Retries.exhaustionProbability(space: d, count: n, maxAttempts: r.maxAttempts).description == r.exhaustionProbability,
            "\(label)")
        if let budget = r.budget, let capacity = r.capacity {
            #expect(
                try Retries.capacity(space: d, maxAttempts: r.maxAttempts, budget: Budget(parsing: budget)).description == capacity,
                "\(label)")
        }
    }

    /// k = 1: every collision fails the insert, so P is the birthday bound, digit for digit, against
    /// `probability` and against reference.py's values.
    @Test func oneAttemptIsTheBirthdayBound() throws {
        for row in Reference.shared.probability where !row.count.isEmpty {
            let d = BigInt(decimal: row.space)!
            let n = BigInt(decimal: row.count)!
            let p = try Retries.exhaustionProbability(space: d, count: n, maxAttempts: 1)
            #expect(p.description == row.probability, "\(row.label)")
            #expect(p == (try Birthday.probability(space: d, count: n)).probability)
        }
    }

    /// A wrong digit is caught: the reference is compared digit for digit, not approximately.
    @Test func aWrongDigitFails() throws {
        let r = Self.reference.cases.first { $0.label.hasPrefix("README") }!
        var wrong = Array(r.exhaustionProbability)
        wrong[10] = wrong[10] == "9" ? "8" : "9"
        let p = try Retries.exhaustionProbability(
            space: RetriesReference.integer(r.space), count: RetriesReference.integer(r.count), maxAttempts: 3)
        #expect(p.description != String(wrong))
    }

    @Test func fullSpaceIsRefusedByTheInfiniteFigures() {
        #expect(throws: InputError.self) { try Retries.expectedAttemptsNext(space: BigInt(10), count: BigInt(10)) }
        #expect(throws: InputError.self) { try Retries.expectedAttemptsTotal(space: BigInt(10), count: BigInt(11)) }
        #expect(throws: InputError.self) { try Retries.exhaustionProbability(space: BigInt(10), count: BigInt(5), maxAttempts: 0) }
    }

    /// A full store is answered: the next insert's attempts are infinite (nil), the total is d·H_d at
    /// N = d and infinite past it, the fill and the exhaustion probability as the oracle has them.
    @Test(arguments: reference.full.map(\.label))
    func aFullStoreIsAnswered(label: String) throws {
        let r = Self.reference.full.first { $0.label == label }!
        let d = RetriesReference.integer(r.space)
        let n = RetriesReference.integer(r.count)
        let a = try Planner.retries(
            space: try Space(size: d), volume: try Workload(count: n).volume(), maxAttempts: r.maxAttempts)
        #expect(a.retries.fill == r.fill, "\(label)")
        #expect(a.retries.expectedAttemptsNext == nil, "\(label)")
        #expect(a.retries.expectedAttemptsTotal == r.expectedAttemptsTotal, "\(label)")
        #expect(a.retries.exhaustionProbability == r.exhaustionProbability, "\(label)")
        #expect(a.notes.contains { $0.contains("never succeeds") }, "\(label)")
        let json = try a.jsonText()
        #expect(json.contains("\"expected_attempts_next\" : null"), "\(label)")
    }

    /// Past 2^4096 ids the capacity is "at least 2^4096", proven (the oracle checks that count is
    /// within the budget); the exact search would not end.
    @Test(arguments: reference.atLeast.map(\.label))
    func aCapacityPastTheSearchIsAtLeast(label: String) throws {
        let r = Self.reference.atLeast.first { $0.label == label }!
        let d = RetriesReference.integer(r.space)
        let budget = try Budget(parsing: r.budget)
        let limit = BigInt.power(2, Retries.capacityBitsLimit)
        #expect(try Retries.capacitySearch(space: d, maxAttempts: r.maxAttempts, budget: budget) == .atLeast(limit), "\(label)")
        #expect(throws: InputError.self) { try Retries.capacity(space: d, maxAttempts: r.maxAttempts, budget: budget) }
        let a = try Planner.retries(
            space: try Space(size: d), volume: try Workload(count: BigInt(10)).volume(), maxAttempts: r.maxAttempts, budget: budget)
        #expect(a.retries.capacity == nil && a.retries.capacityAtLeast == limit.description, "\(label)")
        #expect(try a.jsonText().contains("\"capacity_at_least\" : \"\(limit.description.prefix(20))"), "\(label)")
    }

    /// The typed entry answers as the CLI does.
    @Test func typedQuestion() throws {
        let a = try Planner.retries(for: .base62, length: 8, count: 1_000_000, maxAttempts: 3, budget: Budget(1e-9))
        let r = Self.reference.cases.first { $0.label.hasPrefix("README") }!
        #expect(a.retries.exhaustionProbability == r.exhaustionProbability)
        #expect(a.retries.capacity == r.capacity)
        #expect(a.retries.expectedAttemptsTotal == r.expectedAttemptsTotal)
        #expect(try a.jsonText().contains("\"exhaustion_probability\""))
    }

    // MARK: - Simulation

    /// Runs `trials` stores of `count` inserts into `space` values, each insert drawing up to `attempts`
    /// times (SplitMix64, fixed seed): the fraction of stores in which some insert ran out.
    static func simulate(space: Int, count: Int, attempts: Int, trials: Int, seed: UInt64) -> Double {
        var rng = SplitMix(state: seed)
        var taken = [Bool](repeating: false, count: space)
        var failures = 0
        for _ in 0..<trials {
            for i in taken.indices { taken[i] = false }
            var failed = false
            insert: for _ in 0..<count {
                for _ in 0..<attempts {
                    let v = Int(rng.next() % UInt64(space))
                    if !taken[v] {
                        taken[v] = true
                        continue insert
                    }
                }
                failed = true
                break
            }
            if failed { failures += 1 }
        }
        return Double(failures) / Double(trials)
    }

    /// Hoeffding: |p̂ − P| ≥ t with probability at most 2·exp(−2·trials·t²); t for a false-failure
    /// rate of 10^−6.
    static func tolerance(trials: Int) -> Double { (log(2e6) / (2 * Double(trials))).squareRoot() }

    /// The exhaustion probability against a simulation of the store where it is large; the neighbours
    /// k ± 1 are the control (they must fall outside the same tolerance).
    @Test(arguments: [(1000, 150, 2), (1000, 600, 10)])
    func simulationAgrees(space: Int, count: Int, attempts: Int) throws {
        let trials = 20_000
        let t = Self.tolerance(trials: trials)  // ≈ 0.019
        let simulated = Self.simulate(space: space, count: count, attempts: attempts, trials: trials, seed: 0x5EED_0000 + UInt64(attempts))
        let exact = try Retries.exhaustionProbability(space: BigInt(space), count: BigInt(count), maxAttempts: attempts).doubleValue
        #expect(abs(simulated - exact) < t, "simulated \(simulated), exact \(exact), tolerance \(t)")
        for wrong in [attempts - 1, attempts + 1] {
            let other = try Retries.exhaustionProbability(space: BigInt(space), count: BigInt(count), maxAttempts: wrong).doubleValue
            #expect(abs(simulated - other) >= t, "k = \(wrong) should be told apart: \(other)")
        }
    }
}

/// The Euler–Maclaurin power sums the retries series uses past small counts: their bounds hold the
/// exact Σ_{i<N} i^m (summed as integers here), narrow to the precision asked.
@Suite struct PowerSumBoundsTests {
    @Test(arguments: [(200, 2), (4_096, 17), (5_000, 100), (61_243, 300), (2_000, 125)])
    func boundsHoldTheExactSum(n: Int, m: Int) throws {
        var exact = BigInt(0)
        for i in 1..<n { exact = exact + BigInt(i).power(m) }
        var bernoulli = BernoulliNumbers()
        let (lo, hi) = try #require(Retries.powerSumBounds(BigInt(n), m, 200, &bernoulli))
        let e = BigFloat(exact, precision: 400, rounding: .nearest)
        #expect(lo <= e && e <= hi, "n \(n), m \(m)")
        let width = hi.subtracting(lo, precision: 64, rounding: .up).divided(by: lo, precision: 64, rounding: .up)
        #expect(width < BigFloat(1, precision: 8).timesPowerOfTwo(-190), "n \(n), m \(m): \(width.doubleValue)")
    }

    /// Past m = x/8 the expansion gains too little a term: the recurrence is used instead.
    @Test func refusedWhereItConvergesSlowly() {
        var bernoulli = BernoulliNumbers()
        #expect(Retries.powerSumBounds(BigInt(100), 20, 200, &bernoulli) == nil)
    }
}
