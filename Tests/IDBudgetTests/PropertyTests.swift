import IDBudget
import Precise
import PropertyBased
import Testing

/// Laws the math must obey for any input, checked on random spaces, counts and budgets.
@Suite struct PropertyTests {
    /// A space of 2^bits·m for varied magnitudes, from tiny (direct sums) to 2^4000 (series).
    static let spaces = Gen.int(in: 1...4000).map { bits in BigInt.power(2, bits) + BigInt(bits % 7) }
    static let budgets = Gen.int(in: 1...300).map { e in try! Budget(parsing: "\(1 + e % 9)e-\(e / 3 + 1)") }

    @Test func probabilityRisesWithCount() async {
        await propertyCheck(count: 60, input: Self.spaces, Gen.int(in: 0...80)) { d, k in
            // n spread over every regime: tiny, ≪ d, near and beyond d.
            let n = (d.squareRootFloor * BigInt(k)) / BigInt(10) + BigInt(k)
            let (p1, c1) = try! Birthday.probability(space: d, count: n)
            let (p2, c2) = try! Birthday.probability(space: d, count: n + BigInt(1 + k))
            #expect(p1 <= p2)
            #expect(c2 <= c1)
        }
    }

    @Test func probabilityFallsWithSpace() async {
        await propertyCheck(count: 60, input: Self.spaces, Gen.int(in: 2...100_000)) { d, count in
            let n = BigInt(count)
            let (p1, _) = try! Birthday.probability(space: d, count: n)
            let (p2, _) = try! Birthday.probability(space: d + d / BigInt(3) + BigInt(1), count: n)
            #expect(p2 <= p1)
        }
    }

    /// p and 1 − p agree: their digits add up to one within the last printed place.
    @Test func probabilityAndComplementSumToOne() async {
        await propertyCheck(count: 60, input: Self.spaces, Gen.int(in: 2...1_000_000)) { d, count in
            let (p, c) = try! Birthday.probability(space: d, count: BigInt(count))
            let sum = p.doubleValue + c.doubleValue
            #expect(abs(sum - 1) < 1e-15)
        }
    }

    @Test func lengthIsMinimal() async {
        await propertyCheck(count: 40, input: Gen.int(in: 2...100), Gen.int(in: 2...1_000_000_000), Self.budgets) { a, count, budget in
            let n = BigInt(count)
            let length = try! Birthday.minimumLength(alphabetSize: a, count: n, budget: budget)
            let bound = ScientificDecimal(budget.text)!
            let (p, _) = try! Birthday.probability(space: BigInt.power(a, length), count: n, digits: 60)
            #expect(p <= bound)
            if length > 1 {
                let (shorter, _) = try! Birthday.probability(space: BigInt.power(a, length - 1), count: n, digits: 60)
                #expect(shorter > bound)
            }
        }
    }

    @Test func capacityIsMaximal() async {
        await propertyCheck(count: 40, input: Self.spaces, Self.budgets) { d, budget in
            let capacity = try! Birthday.capacity(space: d, budget: budget)
            let bound = ScientificDecimal(budget.text)!
            // One more identifier moves p by about n/d: print enough digits to see that step.
            let digits = 40 + d.decimalDigitCount
            let (p, _) = try! Birthday.probability(space: d, count: capacity, digits: digits)
            let (next, _) = try! Birthday.probability(space: d, count: capacity + BigInt(1), digits: digits)
            #expect(p <= bound)
            #expect(next > bound)
        }
    }
}
