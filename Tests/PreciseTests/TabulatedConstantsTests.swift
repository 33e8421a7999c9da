import Testing

@testable import Precise

/// π and ln 2 come from a table (written by Tools/constants.py from mpmath) up to 1,310,656 bits;
/// MPFR, computing them itself, must give the same correctly rounded values at every precision.
@Suite struct TabulatedConstantsTests {
    @Test func tabulatedConstantsAgreeWithMPFR() {
        let top = Tabulated.bits - 64
        for q in [top, 1_114_177, 65_536, 20_001, 4_096, 200, 53, 2] {
            for r in [Rounding.down, .up, .nearest] {
                let (pi, ln2) = BigFloat.computedConstants(precision: q, rounding: r)
                #expect(Tabulated.pi.rounded(precision: q, rounding: r) == pi, "π at \(q) bits, \(r)")
                #expect(Tabulated.ln2.rounded(precision: q, rounding: r) == ln2, "ln 2 at \(q) bits, \(r)")
                #expect(BigFloat.pi(precision: q, rounding: r) == pi)
                #expect(BigFloat.ln2(precision: q, rounding: r) == ln2)
            }
        }
        // Beyond the table, MPFR answers.
        #expect(Tabulated.pi.rounded(precision: top + 1, rounding: .down) == nil)
    }
}
