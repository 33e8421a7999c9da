internal import CMPFR
import Foundation

extension BigFloat {
    /// Bounds lo ≤ d(d−1)···(d−n+1) ≤ hi at `precision` bits, for 0 ≤ n ≤ d.
    ///
    /// The exact product has n·log2(d) bits (27 million for n = 2^20 at d = 2^26), but
    /// the bounds need only `precision`: runs of factors are multiplied exactly until they hold about
    /// that many bits, and those blocks are combined in two floating-point trees, every product rounded
    /// down in one and up in the other, so lo ≤ exact ≤ hi whatever the precision. Each tree keeps
    /// O(log n) values alive. The cost is linear in the bits of the exact product, with the range split
    /// over `threads`.
    public static func fallingProductBounds(_ d: BigInt, _ n: Int, precision: Int, threads: Int = 1) -> (lo: BigFloat, hi: BigFloat) {
        precondition(n >= 0 && BigInt(n) <= d)
        let q = Swift.max(precision, 2)
        guard n > 0 else { return (BigFloat(1, precision: q), BigFloat(1, precision: q)) }
        let parts = Swift.max(1, Swift.min(threads, n / 4096 + 1))
        if parts == 1 { return boundsOfRange(d, 0, n, q) }
        let slots = Slots<(lo: BigFloat, hi: BigFloat)>(parts)
        DispatchQueue.concurrentPerform(iterations: parts) { k in
            let start = n * k / parts
            let end = n * (k + 1) / parts
            slots[k] = boundsOfRange(d, start, end, q)
        }
        var lo = BigFloat(1, precision: q)
        var hi = BigFloat(1, precision: q)
        for k in 0..<parts {
            guard let (l, h) = slots[k] else { preconditionFailure("every part is written before concurrentPerform returns") }
            lo = lo.multiplied(by: l, precision: q, rounding: .down)
            hi = hi.multiplied(by: h, precision: q, rounding: .up)
        }
        return (lo, hi)
    }

    /// ∏_{start ≤ i < end} (d − i), bounded at q bits.
    private static func boundsOfRange(_ d: BigInt, _ start: Int, _ end: Int, _ q: Int) -> (lo: BigFloat, hi: BigFloat) {
        let perBlock = Swift.max(1, q / Swift.max(1, d.bitWidth))
        var lows = ProductStack(rounding: .down, precision: q)
        var highs = ProductStack(rounding: .up, precision: q)
        var i = start
        while i < end {
            let count = Swift.min(perBlock, end - i)
            let block = BigInt.fallingBlock(d, from: i, count: count)
            lows.push(BigFloat(block, precision: q, rounding: .down))
            highs.push(BigFloat(block, precision: q, rounding: .up))
            i += count
        }
        return (lows.product(), highs.product())
    }
}

/// A binary counter of partial products: operands stay balanced (GMP and MPFR multiply equal sizes
/// fastest) while only O(log n) values are alive.
private struct ProductStack {
    let rounding: Rounding
    let precision: Int
    private var entries: [(value: BigFloat, weight: Int)] = []

    init(rounding: Rounding, precision: Int) {
        self.rounding = rounding
        self.precision = precision
    }

    mutating func push(_ value: BigFloat) {
        var top = (value: value, weight: 1)
        while let last = entries.last, last.weight == top.weight {
            entries.removeLast()
            top = (last.value.multiplied(by: top.value, precision: precision, rounding: rounding), last.weight * 2)
        }
        entries.append(top)
    }

    func product() -> BigFloat {
        var result = BigFloat(1, precision: precision)
        for entry in entries.reversed() {
            result = result.multiplied(by: entry.value, precision: precision, rounding: rounding)
        }
        return result
    }
}

extension BigInt {
    /// ∏_{i=start}^{start+count−1} (d − i), exactly, by a balanced product tree over GMP integers held
    /// in a small stack: no allocation per factor.
    static func fallingBlock(_ d: BigInt, from start: Int, count: Int) -> BigInt {
        precondition(start >= 0 && count >= 1)
        // Slot k holds a product of 2^k factors (or the final ragged one); at most 64 are ever needed.
        let capacity = 64
        let slots = UnsafeMutablePointer<__mpz_struct>.allocate(capacity: capacity)
        var weights = [Int](repeating: 0, count: capacity)
        for k in 0..<capacity { __gmpz_init(slots + k) }
        defer {
            for k in 0..<capacity { __gmpz_clear(slots + k) }
            slots.deallocate()
        }
        var top = 0  // number of live slots
        for i in start..<(start + count) {
            __gmpz_sub_ui(slots + top, d.storage.z, UInt(i))
            weights[top] = 1
            top += 1
            while top >= 2 && weights[top - 2] == weights[top - 1] {
                __gmpz_mul(slots + (top - 2), slots + (top - 2), slots + (top - 1))
                weights[top - 2] *= 2
                top -= 1
            }
        }
        while top >= 2 {
            __gmpz_mul(slots + (top - 2), slots + (top - 2), slots + (top - 1))
            top -= 1
        }
        return make { __gmpz_swap($0, slots) }
    }
}
