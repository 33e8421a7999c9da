import Dispatch
import Precise

/// Rigorous bounds on −log(C/D) for whole numbers 0 < C < D, from the arithmetic-geometric mean, with
/// its three costly parts on two threads.
///
/// For k = 4/s ≤ 10^−3 (Borwein & Borwein, *Pi and the AGM*, Theorem 7.2):
///
///     |log s − π/(2·AGM(1, k))| ≤ 4k²(8 + |log k|),
///
/// so with s = c̃·2^m ≥ 2^(q/2+32), log c̃ = π/(2·AGM(1, k)) − m·ln 2 to 2^−q (q: p and guard bits). c̃ = 2^(2−m)/k is the value
/// of the rounded k actually used; |log c − log c̃| ≤ |c − c̃|/min(c, c̃) covers the rest. AGM, π and ln 2
/// are each correctly rounded by MPFR; the AGM (0.33 s at 10⁶ bits) runs beside π and ln 2 (0.19 + 0.29
/// s), where MPFR's log takes 0.85 s on one thread. This is the path for budgets whose ratio has too
/// many digits for binary splitting (a budget of 400 digits or more at 2^(2^21) values).
enum LogByAGM {
    static func negatedLogBounds(_ c: BigInt, over d: BigInt, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        // m·ln 2 ≈ p/2·ln 2 cancels against log s: ~log2(p) bits, and some to spare; and λ ≈ 1 − c
        // for c near 1 is computed to absolute accuracy, so its leading zeros too.
        let leadingZeros = Swift.max(0, Int((d.log2Magnitude - (d - c).log2Magnitude).rounded(.up)))
        let q = p + 64 + leadingZeros
        let cLo = BigFloat(numerator: c, denominator: d, precision: q, rounding: .down)
        let cHi = BigFloat(numerator: c, denominator: d, precision: q, rounding: .up)
        // s = c·2^m ≥ 2^(q/2 + 32) (c ≥ 2^(e−1)), so the AGM formula's error is far below 2^−q.
        let m = q / 2 + 34 - cLo.binaryExponent
        let k = BigFloat(4, precision: q).divided(by: cLo.timesPowerOfTwo(m), precision: q, rounding: .nearest)

        enum Value { case agm(BigFloat), pi(BigFloat, BigFloat), ln2(BigFloat, BigFloat) }
        let slots = Slots<Value>(3)
        let one = BigFloat(1, precision: 2)
        DispatchQueue.concurrentPerform(iterations: 3) { i in
            switch i {
            case 0: slots[i] = .agm(one.agm(k, precision: q, rounding: .down))
            case 1: slots[i] = .pi(BigFloat.pi(precision: q, rounding: .down), BigFloat.pi(precision: q, rounding: .up))
            default: slots[i] = .ln2(BigFloat.ln2(precision: q, rounding: .down), BigFloat.ln2(precision: q, rounding: .up))
            }
        }
        guard case let .agm(aLo)? = slots[0], case let .pi(piLo, piHi)? = slots[1], case let .ln2(ln2Lo, ln2Hi)? = slots[2] else {
            preconditionFailure("every slot is written before concurrentPerform returns")
        }
        let aHi = aLo.nextUp  // aLo ≤ AGM < next(aLo)

        // E = 4k²(8 + |log k|) ≤ 2^(2e+2)·(9 + |e|) for k < 2^e (|log k| ≤ (|e| + 1)·ln 2 < |e| + 1).
        let e = k.binaryExponent
        let tail = BigFloat(numerator: BigInt(9 + Swift.abs(e)), denominator: BigInt.power(2, -2 * e - 2), precision: 64, rounding: .up)
        // log s̃ for s̃ = 4/k: π/(2A), falling in A.
        let logSLo = piLo.divided(by: aHi.timesPowerOfTwo(1), precision: q, rounding: .down).subtracting(tail, precision: q, rounding: .down)
        let logSHi = piHi.divided(by: aLo.timesPowerOfTwo(1), precision: q, rounding: .up).adding(tail, precision: q, rounding: .up)
        // log c̃ = log s̃ − m·ln 2 (m > 0).
        let logCLo = logSLo.subtracting(ln2Hi.multiplied(by: BigInt(m), precision: q, rounding: .up), precision: q, rounding: .down)
        let logCHi = logSHi.subtracting(ln2Lo.multiplied(by: BigInt(m), precision: q, rounding: .down), precision: q, rounding: .up)
        // c̃ = 2^(2−m)/k against the exact c.
        let four = BigFloat(4, precision: 8).timesPowerOfTwo(-m)
        let ctLo = four.divided(by: k, precision: q, rounding: .down), ctHi = four.divided(by: k, precision: q, rounding: .up)
        let gap = Swift.max(cHi.subtracting(ctLo, precision: 64, rounding: .up), ctHi.subtracting(cLo, precision: 64, rounding: .up))
        let shift = gap.divided(by: Swift.min(cLo, ctLo), precision: 64, rounding: .up)
        // λ = −log c.
        return (logCHi.adding(shift, precision: q, rounding: .up).negated, logCLo.subtracting(shift, precision: q, rounding: .down).negated)
    }
}
