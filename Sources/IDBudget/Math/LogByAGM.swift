import Dispatch
import Precise

/// Rigorous bounds on −log(C/D) for whole numbers 0 < C < D, from the arithmetic-geometric mean.
///
/// For k = 4/s ≤ 10^−3 (Borwein & Borwein, *Pi and the AGM*, Theorem 7.2):
///
///     |log s − π/(2·AGM(1, k))| ≤ 4k²(8 + |log k|),
///
/// so with s = c̃·2^m ≥ 2^(q/2+32), log c̃ = π/(2·AGM(1, k)) − m·ln 2 to 2^−q (q: p and guard bits).
/// Here k is 4/(c⁻·2^m) rounded to nearest, c⁻ is c = C/D rounded down, and c̃ = 2^(2−m)/k, so
/// c̃ = c·(1 − δ₂)/(1 + δ₁) with 0 ≤ δ₂ < 2^(1−q), |δ₁| ≤ 2^−q, and |log c − log c̃| < 2^(2−q).
/// The AGM is correctly rounded by MPFR (at 10⁶ bits about 40 % of MPFR's own log); π and
/// ln 2 come from a table. This is the path for budgets whose ratio has too many digits for binary
/// splitting (a budget of 400 digits or more at 2^(2^21) values).
enum LogByAGM {
    static func negatedLogBounds(_ c: BigInt, over d: BigInt, precision p: Int) -> (lo: BigFloat, hi: BigFloat) {
        // m·ln 2 ≈ p/2·ln 2 cancels against log s: ~log2(p) bits, and some to spare; and λ ≈ 1 − c
        // for c near 1 is computed to absolute accuracy, so its leading zeros too.
        let leadingZeros = Swift.max(0, Int((d.log2Magnitude - (d - c).log2Magnitude).rounded(.up)))
        let q = p + 64 + leadingZeros
        let cLo = BigFloat(numerator: c, denominator: d, precision: q, rounding: .down)
        // s = c·2^m ≥ 2^(q/2 + 32) (c ≥ 2^(e−1)), so the AGM formula's error is far below 2^−q.
        let m = q / 2 + 34 - cLo.binaryExponent
        let k = BigFloat(4, precision: q).divided(by: cLo.timesPowerOfTwo(m), precision: q, rounding: .nearest)

        // π and ln 2 (tabulated) beside the AGM: both threads are busy only beyond the table.
        enum Value {
            case agm(BigFloat)
            case constants(BigFloat, BigFloat, BigFloat)
        }
        let slots = Slots<Value>(2)
        let one = BigFloat(1, precision: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            if i == 0 {
                slots[i] = .agm(one.agm(k, precision: q, rounding: .down))
            } else {
                slots[i] = .constants(
                    BigFloat.pi(precision: q, rounding: .down), BigFloat.ln2(precision: q, rounding: .down),
                    BigFloat.ln2(precision: q, rounding: .up))
            }
        }
        guard case .agm(let aLo)? = slots[0], case .constants(let piLo, let ln2Lo, let ln2Hi)? = slots[1] else {
            preconditionFailure("every slot is written before concurrentPerform returns")
        }
        let aHi = aLo.nextUp  // aLo ≤ AGM < next(aLo)

        // E = 4k²(8 + |log k|) ≤ 2^(2e+2)·(9 + |e|) for k < 2^e (|log k| ≤ (|e| + 1)·ln 2 < |e| + 1).
        let e = k.binaryExponent
        let tail = BigFloat(numerator: BigInt(9 + Swift.abs(e)), denominator: BigInt.power(2, -2 * e - 2), precision: 64, rounding: .up)
        // log s̃ = π/(2·AGM) for s̃ = 4/k lies in [π⁻/(2A⁺), π⁺/(2A⁻)]; π⁺ ≤ π⁻(1 + ε) and A⁺ ≤ A⁻(1 + ε)
        // with ε = 2^(1−q), and the quotient is rounded down by at most ε, so the upper end is within
        // a factor (1 + ε)²/(1 − ε) < 1 + 4ε of the lower: one division instead of two.
        let quotient = piLo.divided(by: aHi.timesPowerOfTwo(1), precision: q, rounding: .down)
        let logSLo = quotient.subtracting(tail, precision: q, rounding: .down)
        let logSHi = quotient.adding(quotient.timesPowerOfTwo(3 - q), precision: q, rounding: .up).adding(tail, precision: q, rounding: .up)
        // log c = log s̃ − m·ln 2 (m > 0), within 2^(2−q) (see above).
        let shift = BigFloat(1, precision: 2).timesPowerOfTwo(2 - q)
        let logCLo = logSLo.subtracting(ln2Hi.multiplied(by: BigInt(m), precision: q, rounding: .up), precision: q, rounding: .down)
            .subtracting(shift, precision: q, rounding: .down)
        let logCHi = logSHi.subtracting(ln2Lo.multiplied(by: BigInt(m), precision: q, rounding: .down), precision: q, rounding: .up)
            .adding(shift, precision: q, rounding: .up)
        // λ = −log c.
        return (logCHi.negated, logCLo.negated)
    }
}
