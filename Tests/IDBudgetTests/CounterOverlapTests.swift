import Precise
import Testing

@testable import IDBudget

/// The counter-start model (xid, ObjectId) against brute force on small fields: each ring's count of
/// j labelled points pairwise ≥ m apart is enumerated cell by cell, the V rings are combined by exact
/// counting (which nodes go to which ring), and p = 1 − valid/(V·M)^K is an exact fraction. The
/// one-ring product `CounterOverlap` prints must be that p to 30 digits while K(m − 1) < M, and to the
/// digits it prints past that.
@Suite struct CounterOverlapTests {
    /// Placements of j labelled points on a ring of `ring` cells, no two closer than m (cyclic).
    static func ringCount(_ ring: Int, _ m: Int, _ j: Int) -> BigInt {
        var count = 0
        var cells = [Int](repeating: 0, count: j)
        func place(_ i: Int) {
            if i == j {
                count += 1
                return
            }
            for c in 0..<ring {
                var ok = true
                for e in 0..<i {
                    let gap = (c - cells[e] + ring) % ring
                    if Swift.min(gap, ring - gap) < m {
                        ok = false
                        break
                    }
                }
                if ok {
                    cells[i] = c
                    place(i + 1)
                }
            }
        }
        place(0)
        return BigInt(count)
    }

    /// The exact p for K nodes over V rings of M cells at m ids a tick.
    static func exact(values v: Int, ring: Int, m: Int, nodes k: Int) -> (numerator: BigInt, denominator: BigInt) {
        let counts = (0...k).map { ringCount(ring, m, $0) }
        // Labelled placements combine by the binomial convolution (exponential generating functions
        // multiply): V rings are the row's counts to the V-th power, by squaring.
        func times(_ a: [BigInt], _ b: [BigInt]) -> [BigInt] {
            (0...k).map { total in
                (0...total).reduce(BigInt(0)) { sum, j in sum + BigInt.binomial(total, j) * a[j] * b[total - j] }
            }
        }
        var f = [BigInt(1)] + [BigInt](repeating: BigInt(0), count: k)
        var base = counts
        var e = v
        while e > 0 {
            if e & 1 == 1 { f = times(f, base) }
            base = times(base, base)
            e >>= 1
        }
        let all = BigInt(v * ring).power(k)
        return (all - f[k], all)
    }

    @Test(arguments: [(5, 16, 3, 4), (7, 16, 4, 5), (1000, 12, 2, 6), (3, 9, 2, 5), (2, 7, 3, 3), (40, 12, 1, 6)])
    func oneRingIsExact(values: Int, ring: Int, m: Int, nodes: Int) throws {
        let (num, den) = Self.exact(values: values, ring: ring, m: m, nodes: nodes)
        let want = ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: 30)
        let got = try #require(
            try CounterOverlap.figures(values: BigInt(values), counter: BigInt(ring), perTick: BigInt(m), nodes: BigInt(nodes)))
        #expect(got.digits == 30)
        #expect(got.figures.probability.description == want.description, "V \(values), M \(ring), m \(m), K \(nodes)")
    }

    /// Past K(m − 1) < M the rings that would hold too many points differ from one ring: the answer is
    /// bounded, and its printed digits are the exact p's.
    @Test(arguments: [(100_000, 8, 3, 5), (1_000_000, 9, 4, 4), (50_000, 6, 2, 6)])
    func pastTheRingIsBounded(values: Int, ring: Int, m: Int, nodes: Int) throws {
        #expect(nodes * (m - 1) >= ring)
        let (num, den) = Self.exact(values: values, ring: ring, m: m, nodes: nodes)
        let got = try #require(
            try CounterOverlap.figures(values: BigInt(values), counter: BigInt(ring), perTick: BigInt(m), nodes: BigInt(nodes)))
        let want = ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: got.digits)
        #expect(got.digits >= 5, "V \(values), M \(ring), m \(m), K \(nodes)")
        #expect(
            got.figures.probability.description == want.description,
            "V \(values), M \(ring), m \(m), K \(nodes): \(got.figures.probability)")
    }
}
