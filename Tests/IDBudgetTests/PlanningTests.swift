import Foundation
import IDBudget
import Precise
import TestSupport
import Testing

/// The planning models of issue 24 (Poisson arrivals into time buckets, growth, ids already stored,
/// time to mint) at every printed digit, against Tests/Oracles/planning_ref.py (mpmath, exact fractions,
/// the Poisson sum taken term by term for small spaces).
@Suite struct PlanningTests {
    struct Poisson: Decodable {
        let label: String
        let space: String
        let rate: String
        let bucket: String
        let buckets: String
        let scopes: String
        let growth: String?
        let probability: String
        let complement: String
        let expectedCollisions: String
        let bucketProbability: String
    }

    struct GrowthCount: Decodable {
        let rate: String
        let lifetime: String
        let growth: String?
        let count: String
    }

    struct Existing: Decodable {
        let label: String
        let space: String
        let new: String
        let existing: String
        let probability: String
        let complement: String
        let expectedCollisions: String
    }

    struct Mint: Decodable {
        let rate: String
        let count: String
        let growth: String?
        let seconds: String
    }

    struct Lasting: Decodable {
        let space: String
        let rate: String
        let bucket: String
        let budget: String
        let growth: String?
        let buckets: String
    }

    struct File: Decodable {
        let digits: Int
        let poisson: [Poisson]
        let growthCounts: [GrowthCount]
        let existing: [Existing]
        let secondsToMint: [Mint]
        let lastingBuckets: [Lasting]
    }

    static let reference: File = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference/planning.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do { return try decoder.decode(File.self, from: Data(contentsOf: url)) } catch {
            fatalError("Reference/planning.json: \(error)")
        }
    }()

    static func model(_ r: Poisson) throws -> PoissonBuckets {
        try PoissonBuckets(
            space: BigInt(decimal: r.space)!, rate: Rate(parsing: r.rate), bucketSeconds: Lifetime(parsing: r.bucket).seconds,
            buckets: BigInt(decimal: r.buckets)!, scopes: BigInt(decimal: r.scopes)!, growth: r.growth.map { try Growth(parsing: $0) })
    }

    @Test func coversTheRegimes() {
        #expect(Self.reference.digits == Birthday.significantDigits)
        #expect(Self.reference.poisson.count >= 15)
        #expect(Self.reference.poisson.contains { $0.label.contains("term by term") })
    }

    @Test(arguments: reference.poisson.map(\.label))
    func poisson(label: String) throws {
        let r = Self.reference.poisson.first { $0.label == label }!
        let m = try Self.model(r)
        let (p, c) = try m.probability()
        #expect(p.description == r.probability, "\(label)")
        #expect(c.description == r.complement, "\(label)")
        #expect(try m.expectedCollisions().description == r.expectedCollisions, "\(label)")
        if r.growth == nil {
            #expect(try m.bucketProbability().probability.description == r.bucketProbability, "\(label)")
        }
    }

    /// A control: one wrong digit in the rate moves the answer.
    @Test func control() throws {
        let r = Self.reference.poisson[0]
        let m = try PoissonBuckets(
            space: BigInt(decimal: r.space)!, rate: Rate(parsing: "501/s"), bucketSeconds: Lifetime(parsing: r.bucket).seconds,
            buckets: BigInt(decimal: r.buckets)!)
        #expect(try m.probability().probability.description != r.probability)
    }

    @Test(arguments: reference.growthCounts.map { "\($0.rate) \($0.lifetime) \($0.growth ?? "-")" })
    func growthCount(key: String) throws {
        let r = Self.reference.growthCounts.first { "\($0.rate) \($0.lifetime) \($0.growth ?? "-")" == key }!
        let rate = try Rate(parsing: r.rate)
        let lifetime = try Lifetime(parsing: r.lifetime)
        let n = try r.growth.map { try Growth(parsing: $0).count(rate: rate, over: lifetime) } ?? rate.count(over: lifetime)
        #expect(n.description == r.count, "\(key)")
        // The same through the workload the CLI builds.
        let volume = try Workload(rate: rate, lifetime: lifetime, growth: r.growth.map { try Growth(parsing: $0) }).volume()
        #expect(volume.count.description == r.count, "\(key)")
    }

    @Test(arguments: reference.existing.map(\.label))
    func existing(label: String) throws {
        let r = Self.reference.existing.first { $0.label == label }!
        let volume = try Workload(count: BigInt(decimal: r.new)!, existing: BigInt(decimal: r.existing)!).volume()
        let answer = try Planner.probability(space: Space(size: BigInt(decimal: r.space)!), volume: volume)
        #expect(answer.collision.probability.description == r.probability, "\(label)")
        #expect(answer.collision.complement.description == r.complement, "\(label)")
        #expect(answer.collision.expectedCollisions.description == r.expectedCollisions, "\(label)")
        #expect(answer.volume.count == r.new)
        #expect(answer.volume.existing == r.existing)
    }

    @Test(arguments: reference.secondsToMint.map { "\($0.rate) \($0.count) \($0.growth ?? "-")" })
    func secondsToMint(key: String) throws {
        let r = Self.reference.secondsToMint.first { "\($0.rate) \($0.count) \($0.growth ?? "-")" == key }!
        let s = try Planner.secondsToMint(
            BigInt(decimal: r.count)!, rate: Rate(parsing: r.rate), growth: r.growth.map { try Growth(parsing: $0) })
        #expect(s.description == r.seconds, "\(key)")
    }

    @Test(arguments: reference.lastingBuckets.map { "\($0.rate) \($0.budget) \($0.growth ?? "-")" })
    func lastingBuckets(key: String) throws {
        let r = Self.reference.lastingBuckets.first { "\($0.rate) \($0.budget) \($0.growth ?? "-")" == key }!
        let m = try PoissonBuckets(
            space: BigInt(decimal: r.space)!, rate: Rate(parsing: r.rate), bucketSeconds: Lifetime(parsing: r.bucket).seconds,
            buckets: BigInt(1), growth: r.growth.map { try Growth(parsing: $0) })
        #expect(try m.lastingBuckets(budget: Budget(parsing: r.budget)).description == r.buckets, "\(key)")
    }

    @Test func growthParsing() throws {
        #expect(try Growth(parsing: "40%/y").factor == (BigInt(140), BigInt(100)))
        #expect(try Growth(parsing: "2x/y").factor == (BigInt(2), BigInt(1)))
        #expect(try Growth(parsing: "3%/mo").period == (BigInt(2_628_000), BigInt(1)))
        #expect(try Growth(parsing: "0%/y").isNone)
        for bad in ["40%", "40/y", "-5%/y", "0.5x/y", "2x/q", "abc%/y", "2x/Y"] {
            #expect(throws: InputError.self, "\(bad)") { try Growth(parsing: bad) }
        }
        #expect(try Arrivals(parsing: "poisson") == .poisson)
        #expect(throws: InputError.self) { try Arrivals(parsing: "uniform") }
    }

    struct When: Decodable {
        let space: String
        let rate: String
        let growth: String?
        let medianSeconds: String
        /// At a constant rate: E[N]/r to 30 digits.
        let meanSeconds: String?
        /// Under growth: E[t(N)] to 40 digits (Tests/Oracles/mean_time_ref.py), of which idbudget prints
        /// the digits its bounds share.
        let meanTimeReference: String?
    }

    struct WhenFile: Decodable { let when: [When] }

    static let whenReference: [When] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Reference/planning.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do { return try decoder.decode(WhenFile.self, from: Data(contentsOf: url)).when } catch { fatalError("\(error)") }
    }()

    /// Median and mean time to the first collision, against mpmath (the mean from the integral
    /// ∫e^−x(1 + x/d)^d dx, not idbudget's sum or expansion).
    @Test(arguments: whenReference.map { $0.space })
    func whenFigures(space: String) throws {
        let r = Self.whenReference.first { $0.space == space }!
        let answer = try Planner.capacity(
            space: Space(size: BigInt(decimal: r.space)!), budget: Budget(parsing: "1e-6"), rate: Rate(parsing: r.rate),
            growth: r.growth.map { try Growth(parsing: $0) })
        #expect(answer.when?.medianSeconds == r.medianSeconds, "\(space)")
        if let reference = r.meanTimeReference {
            let printed = try #require(answer.when?.meanSeconds, "\(space)")
            let parts = printed.split(separator: "e")
            let digits = parts[0].replacingOccurrences(of: ".", with: "")
            #expect(digits.count >= 5, "\(space): \(printed)")
            #expect(DecimalText.rounded(reference, to: digits.count) == (digits, Int(parts[1]) ?? 0), "\(space): \(printed), \(reference)")
        } else {
            #expect(answer.when?.meanSeconds == r.meanSeconds, "\(space)")
        }
    }

}
