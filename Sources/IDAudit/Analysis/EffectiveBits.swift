import Foundation
import IDBudget

/// The effective entropy: the space a uniform generator would need to make the duplicates seen.
extension AuditAnalysis {
    /// log2 of the space a uniform generator would need to make this many duplicates in these groups
    /// (solving Σ E[dup](d) = D); with none seen, the 95% lower bound (Σ E[dup](d) = 3).
    static func effectiveBits(groups: [Int: Int], duplicates: Int) -> Double {
        bits(groups: groups, expecting: duplicates == 0 ? 3.0 : Double(duplicates))
    }

    /// The 95% lower bound: the space at which the expected duplicates reach the one-sided 95% upper
    /// Poisson limit of the count seen (3.0 for none, 4.74 for one, …); more expected duplicates
    /// would make seeing this few unlikely.
    static func effectiveBitsLower95(groups: [Int: Int], duplicates: Int) -> Double {
        // λ with P(Poisson(λ) ≤ D) = 0.05 = P(χ²(2D + 2) > 2λ). Past 10^4 duplicates, the
        // Wilson–Hilferty χ² quantile (relative error below 10^−8 there; bisection over Poisson sums
        // would take minutes for counts near 10^12).
        if duplicates > 10_000 {
            let nu = 2 * (Double(duplicates) + 1)
            let z95 = 1.6448536269514722
            let c = 1 - 2 / (9 * nu) + z95 * (2 / (9 * nu)).squareRoot()
            return bits(groups: groups, expecting: nu * c * c * c / 2)
        }
        var lo = Double(duplicates)
        var hi = Double(duplicates) * 2 + 10
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if DuplicateTest.poissonLower(duplicates, mid) > 0.05 { lo = mid } else { hi = mid }
        }
        return bits(groups: groups, expecting: (lo + hi) / 2)
    }

    /// log2 d solving Σ E[dup](d) = target.
    static func bits(groups: [Int: Int], expecting target: Double) -> Double {
        let total = groups.reduce(0) { $0 + $1.key * $1.value }
        guard total >= 2 else { return 0 }
        let maxPossible = groups.reduce(0.0) { $0 + Double($1.value) * Double(Swift.max(0, $1.key - 1)) }
        guard target < maxPossible else { return 0 }
        func expected(_ log2d: Double) -> Double {
            let d = exp2(log2d)
            return groups.reduce(0.0) { acc, g in
                let n = Double(g.key)
                return acc + Double(g.value) * (n + d * expm1(n * log1p(-1 / d)))  // n − d(1 − (1 − 1/d)^n)
            }
        }
        var lo = 0.0
        var hi = 2 * log2(Double(total)) + 8
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if expected(mid) > target { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}
