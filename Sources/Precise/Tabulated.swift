/// π and ln 2 read from a table instead of computed: at a million bits MPFR's constants cost about as
/// much as the AGM itself (and its cache lives per thread and per process), and `log` by the AGM
/// needs both.
///
/// The table holds M = ⌊c·2^(bits − e)⌋ (e = 2 for π, 0 for ln 2), so c lies strictly inside
/// (M, M + 1)·2^(e − bits), c being irrational. Rounding is monotone: when M and M + 1 round to the
/// same q-bit value, so does c, and that value is c correctly rounded. When they do not (a run of
/// ~bits − q ones or zeros in c), the answer comes from MPFR instead.
enum Tabulated {
    struct Constant: Sendable {
        let m: BigInt, next: BigInt
        let exponent: Int

        init(hex: String, exponent: Int) {
            guard let m = BigInt(hex: hex) else { preconditionFailure("the tabulated constants are hexadecimal") }
            self.m = m
            next = m + BigInt(1)
            self.exponent = exponent
        }

        /// c correctly rounded to `precision` bits, or nil beyond the table or at an undecided rounding.
        func rounded(precision: Int, rounding: Rounding) -> BigFloat? {
            guard precision <= bits - 64 else { return nil }
            let scale = exponent - bits
            let lo = BigFloat(m, precision: precision, rounding: rounding).timesPowerOfTwo(scale)
            let hi = BigFloat(next, precision: precision, rounding: rounding).timesPowerOfTwo(scale)
            return lo == hi ? lo : nil
        }
    }

    static let pi = Constant(hex: piHex, exponent: 2)
    static let ln2 = Constant(hex: ln2Hex, exponent: 0)
}
