internal import CMPFR

/// Direction in which an inexact result is rounded.
///
/// Directed rounding is what makes interval arithmetic sound: computing a lower bound with `.down` and
/// an upper bound with `.up` keeps the true value between them.
public enum Rounding: Sendable {
    /// Toward −∞.
    case down
    /// Toward +∞.
    case up
    /// To nearest, ties to even.
    case nearest

    var mpfr: mpfr_rnd_t {
        switch self {
        case .down: MPFR_RNDD
        case .up: MPFR_RNDU
        case .nearest: MPFR_RNDN
        }
    }

}

/// Owns one MPFR float; cleared when the last `BigFloat` sharing it goes away.
final class MPFRStorage: @unchecked Sendable {
    let x: UnsafeMutablePointer<__mpfr_struct>

    init(precision: Int) {
        x = .allocate(capacity: 1)
        mpfr_init2(x, mpfr_prec_t(precision))
    }

    deinit {
        mpfr_clear(x)
        x.deallocate()
    }
}

/// An immutable binary floating-point number of chosen precision on MPFR.
///
/// Every operation takes the precision of its result and a rounding direction, and MPFR rounds the
/// exact mathematical result once, correctly, in that direction: the error is at most one unit in the
/// last place (half a unit with `.nearest`). Exponents range over MPFR's default (about ±2^30 bits).
public struct BigFloat: Sendable {
    let storage: MPFRStorage

    /// The precision in bits.
    public var precision: Int { Int(idb_mpfr_get_prec(storage.x)) }

    static func make(_ precision: Int, _ body: (UnsafeMutablePointer<__mpfr_struct>) -> Void) -> BigFloat {
        let s = MPFRStorage(precision: Swift.max(precision, 2))
        body(s.x)
        return BigFloat(storage: s)
    }

    init(storage: MPFRStorage) { self.storage = storage }

    public init(_ z: BigInt, precision: Int, rounding: Rounding) {
        self = .make(precision) { _ = mpfr_set_z($0, z.storage.z, rounding.mpfr) }
    }

    public init(_ value: Int, precision: Int, rounding: Rounding = .nearest) {
        self = .make(precision) { _ = mpfr_set_si($0, value, rounding.mpfr) }
    }

    /// `numerator / denominator`, correctly rounded.
    ///
    /// Big operands are held exactly and divided once (MPFR rounds the quotient correctly) rather than
    /// reduced as a fraction, which for numbers of a million bits would cost a gcd.
    public init(numerator: BigInt, denominator: BigInt, precision: Int, rounding: Rounding) {
        precondition(!denominator.isZero)
        if numerator.bitWidth <= 4096 && denominator.bitWidth <= 4096 {
            let q = UnsafeMutablePointer<__mpq_struct>.allocate(capacity: 1)
            __gmpq_init(q)
            defer {
                __gmpq_clear(q)
                q.deallocate()
            }
            __gmpq_set_num(q, numerator.storage.z)
            __gmpq_set_den(q, denominator.storage.z)
            __gmpq_canonicalize(q)
            self = .make(precision) { _ = mpfr_set_q($0, q, rounding.mpfr) }
            return
        }
        let a = BigFloat(numerator, precision: Swift.max(numerator.bitWidth, 2), rounding: .nearest)
        let b = BigFloat(denominator, precision: Swift.max(denominator.bitWidth, 2), rounding: .nearest)
        self = a.divided(by: b, precision: precision, rounding: rounding)
    }

    /// numerator/denominator rounded down and up, from one division: the upper end is the next value
    /// up unless the quotient is exact (one division saved).
    public static func bounds(numerator: BigInt, denominator: BigInt, precision: Int) -> (lo: BigFloat, hi: BigFloat) {
        precondition(denominator.signum > 0)
        let a = BigFloat(numerator, precision: Swift.max(numerator.bitWidth, 2), rounding: .nearest)
        let b = BigFloat(denominator, precision: Swift.max(denominator.bitWidth, 2), rounding: .nearest)
        var inexact: Int32 = 0
        let lo = BigFloat.make(precision) { inexact = mpfr_div($0, a.storage.x, b.storage.x, MPFR_RNDD) }
        return (lo, inexact == 0 ? lo : lo.nextUp)
    }

    /// ln 2, correctly rounded: from a table up to 1,310,656 bits, else MPFR's binary splitting.
    public static func ln2(precision: Int, rounding: Rounding) -> BigFloat {
        Tabulated.ln2.rounded(precision: precision, rounding: rounding)
            ?? .make(precision) { _ = mpfr_const_log2($0, rounding.mpfr) }
    }

    /// ln 10.
    public static func ln10(precision: Int, rounding: Rounding) -> BigFloat {
        let ten = BigFloat(10, precision: 8)
        return ten.log(precision: precision, rounding: rounding)
    }

    // MARK: - Queries

    public var signum: Int { Int(idb_mpfr_sgn(storage.x)) }
    public var isZero: Bool { mpfr_zero_p(storage.x) != 0 }
    public var isFinite: Bool { mpfr_number_p(storage.x) != 0 }
    public var doubleValue: Double { mpfr_get_d(storage.x, MPFR_RNDN) }

    /// ⌊self⌋ (or ⌈self⌉ with `.up`) as an exact integer.
    public func integer(rounding: Rounding) -> BigInt {
        precondition(isFinite)
        return BigInt.make { _ = mpfr_get_z($0, storage.x, rounding.mpfr) }
    }

    /// The value rounded to `digits` significant decimal digits (to nearest) as (digits, e):
    /// value ≈ 0.d₁d₂…d_digits × 10^e. The sign is dropped; zero gives `nil`.
    public func decimalDigits(_ digits: Int) -> (digits: String, exponent: Int)? {
        guard isFinite, !isZero else { return nil }
        var exponent: mpfr_exp_t = 0
        guard let raw = mpfr_get_str(nil, &exponent, 10, digits, storage.x, MPFR_RNDN) else { return nil }
        defer { mpfr_free_str(raw) }
        var text = String(cString: raw)
        if text.hasPrefix("-") { text.removeFirst() }
        return (text, Int(exponent))
    }

    // MARK: - Arithmetic

    private func unary(
        _ precision: Int, _ rounding: Rounding,
        _ f: (UnsafeMutablePointer<__mpfr_struct>, UnsafePointer<__mpfr_struct>, mpfr_rnd_t) -> Int32
    ) -> BigFloat {
        BigFloat.make(precision) { _ = f($0, storage.x, rounding.mpfr) }
    }

    private func binary(
        _ other: BigFloat, _ precision: Int, _ rounding: Rounding,
        _ f: (UnsafeMutablePointer<__mpfr_struct>, UnsafePointer<__mpfr_struct>, UnsafePointer<__mpfr_struct>, mpfr_rnd_t) -> Int32
    ) -> BigFloat {
        BigFloat.make(precision) { _ = f($0, storage.x, other.storage.x, rounding.mpfr) }
    }

    public func adding(_ b: BigFloat, precision: Int, rounding: Rounding) -> BigFloat { binary(b, precision, rounding, mpfr_add) }
    public func subtracting(_ b: BigFloat, precision: Int, rounding: Rounding) -> BigFloat { binary(b, precision, rounding, mpfr_sub) }
    public func multiplied(by b: BigFloat, precision: Int, rounding: Rounding) -> BigFloat { binary(b, precision, rounding, mpfr_mul) }
    public func divided(by b: BigFloat, precision: Int, rounding: Rounding) -> BigFloat { binary(b, precision, rounding, mpfr_div) }
    /// The arithmetic-geometric mean of self and b (both positive).
    public func agm(_ b: BigFloat, precision: Int, rounding: Rounding) -> BigFloat { binary(b, precision, rounding, mpfr_agm) }

    /// self·2^k, exactly (the precision is kept).
    public func timesPowerOfTwo(_ k: Int) -> BigFloat {
        BigFloat.make(precision) { _ = mpfr_mul_2si($0, storage.x, k, MPFR_RNDN) }
    }

    /// e with 2^(e−1) ≤ |self| < 2^e, for a nonzero finite self.
    public var binaryExponent: Int { Int(idb_mpfr_get_exp(storage.x)) }

    public func multiplied(by z: BigInt, precision: Int, rounding: Rounding) -> BigFloat {
        BigFloat.make(precision) { _ = mpfr_mul_z($0, storage.x, z.storage.z, rounding.mpfr) }
    }

    public func divided(by z: BigInt, precision: Int, rounding: Rounding) -> BigFloat {
        BigFloat.make(precision) { _ = mpfr_div_z($0, storage.x, z.storage.z, rounding.mpfr) }
    }

    /// The next representable number above self at the same precision.
    public var nextUp: BigFloat {
        BigFloat.make(precision) { r in
            _ = mpfr_set(r, storage.x, MPFR_RNDN)
            mpfr_nextabove(r)
        }
    }

    /// −self, exactly.
    public var negated: BigFloat { unary(precision, .nearest, mpfr_neg) }

    public func power(_ k: Int, precision: Int, rounding: Rounding) -> BigFloat {
        BigFloat.make(precision) { _ = mpfr_pow_ui($0, storage.x, UInt(k), rounding.mpfr) }
    }

    // MARK: - Elementary functions (each correctly rounded by MPFR)

    public func log(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_log) }
    public func log1p(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_log1p) }
    public func expm1(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_expm1) }
    public func exp10(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_exp10) }
    public func exp(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_exp) }
    /// erfc(x) = (2/√π)∫_x^∞ e^(−t²) dt.
    public func erfc(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_erfc) }
    /// The exponential integral Ei(x); for x < 0 it is −E₁(−x), E₁(y) = ∫_y^∞ e^(−t)/t dt (MPFR ≥ 4.0).
    public func eint(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_eint) }

    /// log|Γ(self)|.
    public func lgamma(precision: Int, rounding: Rounding) -> BigFloat {
        BigFloat.make(precision) { r in
            var sign: Int32 = 0
            _ = mpfr_lgamma(r, &sign, storage.x, rounding.mpfr)
        }
    }
}

extension BigFloat: Comparable {
    public static func == (a: BigFloat, b: BigFloat) -> Bool { mpfr_equal_p(a.storage.x, b.storage.x) != 0 }
    public static func < (a: BigFloat, b: BigFloat) -> Bool { mpfr_less_p(a.storage.x, b.storage.x) != 0 }
}

extension BigFloat {
    public func squareRoot(precision: Int, rounding: Rounding) -> BigFloat { unary(precision, rounding, mpfr_sqrt) }

    /// π, correctly rounded: from a table up to 1,310,656 bits, else MPFR.
    public static func pi(precision: Int, rounding: Rounding) -> BigFloat {
        Tabulated.pi.rounded(precision: precision, rounding: rounding)
            ?? BigFloat.make(precision) { _ = mpfr_const_pi($0, rounding.mpfr) }
    }

    /// The most bits `pi` and `ln2` read from their table (beyond, MPFR computes them).
    public static var tabulatedPrecision: Int { Tabulated.bits - 64 }

    /// π and ln 2 computed by MPFR, bypassing the table: for checking the table.
    static func computedConstants(precision: Int, rounding: Rounding) -> (pi: BigFloat, ln2: BigFloat) {
        (BigFloat.make(precision) { _ = mpfr_const_pi($0, rounding.mpfr) }, .make(precision) { _ = mpfr_const_log2($0, rounding.mpfr) })
    }
}
