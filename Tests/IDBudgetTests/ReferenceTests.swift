import IDBudget
import Precise
import Testing

/// Every digit idbudget prints, against values computed independently (Tests/Oracles/reference.py).
@Suite struct ReferenceTests {
    static let reference = Reference.shared

    @Test func usesThirtyDigits() {
        #expect(Self.reference.digits == Birthday.significantDigits)
        #expect(Self.reference.probability.count >= 30)
    }

    @Test(arguments: reference.probability.map { $0.label })
    func probability(label: String) throws {
        let r = Self.reference.probability.first { $0.label == label }!
        let d = BigInt(decimal: r.space)!
        let n = BigInt(decimal: r.count)!
        let (p, c) = try Birthday.probability(space: d, count: n)
        #expect(p.description == r.probability, "\(label)")
        #expect(c.description == r.complement, "\(label)")
        #expect(Birthday.expectedCollisions(space: d, count: n).description == r.expectedCollisions, "\(label)")
    }

    @Test(arguments: reference.capacity.map { $0.label })
    func capacity(label: String) throws {
        let r = Self.reference.capacity.first { $0.label == label }!
        let c = try Birthday.capacity(space: BigInt(decimal: r.space)!, budget: Budget(parsing: r.budget))
        #expect(c.description == r.capacity, "\(label)")
        // Asked again (a schedule asks the same capacities at every rate): the same, found or kept.
        let again = try Birthday.capacity(space: BigInt(decimal: r.space)!, budget: Budget(parsing: r.budget))
        #expect(again.description == r.capacity, "\(label), asked again")
        // And per scope: a kept capacity for one scope is not another scope count's.
        let scoped = try Birthday.capacity(space: BigInt(decimal: r.space)!, scopes: 2, budget: Budget(parsing: r.budget))
        #expect(scoped <= c, "\(label): two scopes hold no more than one")
    }

    @Test(arguments: reference.length.map { $0.label })
    func minimumLength(label: String) throws {
        let r = Self.reference.length.first { $0.label == label }!
        let length = try Birthday.minimumLength(
            alphabetSize: r.alphabetSize, count: BigInt(decimal: r.count)!, budget: Budget(parsing: r.budget))
        #expect(length == r.length, "\(label)")
    }

    @Test(arguments: reference.expectedDraws.map { $0.space })
    func expectedDraws(space: String) {
        let r = Self.reference.expectedDraws.first { $0.space == space }!
        #expect(Birthday.expectedDrawsToFirstCollision(space: BigInt(decimal: space)!).description == r.value)
    }

    @Test(arguments: reference.duplicates.indices)
    func duplicateStatistics(index: Int) {
        let r = Self.reference.duplicates[index]
        let (mean, variance) = Birthday.duplicateStatistics(space: BigInt(decimal: r.space)!, count: BigInt(decimal: r.count)!)
        #expect(abs(mean / Double(r.mean)! - 1) < 1e-12, "\(r.space) \(r.count)")
        #expect(abs(variance / Double(r.variance)! - 1) < 1e-12, "\(r.space) \(r.count)")
    }

    /// The seed article's question: 22 base62 characters break a 1e−11 budget, 23 hold it.
    @Test func articleNeeds23Base62Characters() throws {
        let n = BigInt(1_000_000) * BigInt(10 * 365 * 86_400)
        let budget = try Budget(parsing: "1e-11")
        #expect(try Birthday.minimumLength(alphabetSize: 62, count: n, budget: budget) == 23)
        #expect(try !Birthday.isWithin(space: BigInt.power(62, 22), count: n, budget: budget))
        #expect(try Birthday.isWithin(space: BigInt.power(62, 23), count: n, budget: budget))
    }

    /// The double-precision formula the calculators use underflows where idbudget does not.
    @Test func doubleApproximationUnderflows() throws {
        let d = BigInt.power(2, 128)
        let n = BigInt(1_000_000_000)
        #expect(Birthday.doubleApproximation(space: d, count: n) == 0)
        let (p, _) = try Birthday.probability(space: d, count: n)
        let r = Self.reference.probability.first { $0.label == "2^128, n = 1e9" }!
        #expect(p.description == r.probability)
        #expect(!p.isZero)
    }
}
