internal import CMPFR
import Foundation

/// Owns one GMP integer. Only `BigInt` holds it, so C memory never escapes this module.
final class MPZStorage: @unchecked Sendable {
    let z: UnsafeMutablePointer<__mpz_struct>

    init() {
        z = .allocate(capacity: 1)
        __gmpz_init(z)
    }

    deinit {
        __gmpz_clear(z)
        z.deallocate()
    }
}

/// An exact, arbitrary-size signed integer on GMP, with value semantics.
public struct BigInt: Sendable {
    var storage: MPZStorage

    init(storage: MPZStorage) { self.storage = storage }

    /// Builds a fresh value by letting `body` write into a new GMP integer.
    static func make(_ body: (UnsafeMutablePointer<__mpz_struct>) -> Void) -> BigInt {
        let s = MPZStorage()
        body(s.z)
        return BigInt(storage: s)
    }

    public init(_ value: Int) {
        storage = MPZStorage()
        __gmpz_set_si(storage.z, value)
    }

    /// Any Swift integer, exactly (`UInt64.max`, an `Int128`): beyond `Int`, built from its words,
    /// least significant first, as two's complement.
    public init(_ value: some BinaryInteger) {
        if let small = Int(exactly: value) {
            self.init(small)
            return
        }
        var z = BigInt(0)
        for (i, word) in value.words.enumerated() {
            z = z + BigInt.make { __gmpz_set_ui($0, word) }.shifted(i * UInt.bitWidth)
        }
        if value < 0 { z = z - BigInt(1).shifted(value.words.count * UInt.bitWidth) }
        self = z
    }

    /// Parses an optionally signed run of decimal digits; `nil` for anything else.
    public init?(decimal text: some StringProtocol) {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        guard !body.isEmpty, body.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let s = MPZStorage()
        guard __gmpz_set_str(s.z, String(text.first == "+" ? Substring(body) : Substring(text)), 10) == 0 else { return nil }
        storage = s
    }

    /// Hexadecimal digits; whitespace between them is ignored (as GMP does).
    init?(hex text: String) {
        let s = MPZStorage()
        guard __gmpz_set_str(s.z, text, 16) == 0 else { return nil }
        storage = s
    }

    /// `base^exponent`.
    public static func power(_ base: Int, _ exponent: Int) -> BigInt {
        precondition(base >= 0 && exponent >= 0)
        return make { __gmpz_ui_pow_ui($0, UInt(base), UInt(exponent)) }
    }

    /// The binomial coefficient C(n, k).
    public static func binomial(_ n: Int, _ k: Int) -> BigInt {
        precondition(n >= 0 && k >= 0)
        return make { __gmpz_bin_uiui($0, UInt(n), UInt(k)) }
    }

    /// `d · (d−1) ··· (d−n+1)`, the number of injective sequences of length `n` from `d` values.
    public static func fallingFactorial(_ d: BigInt, _ n: Int) -> BigInt {
        precondition(n >= 0)
        // Pairwise products keep operands balanced, which GMP multiplies much faster than a running product.
        var factors: [BigInt] = (0..<n).map { d - BigInt($0) }
        if factors.isEmpty { return BigInt(1) }
        while factors.count > 1 {
            var next: [BigInt] = []
            next.reserveCapacity((factors.count + 1) / 2)
            var i = 0
            while i + 1 < factors.count {
                next.append(factors[i] * factors[i + 1])
                i += 2
            }
            if i < factors.count { next.append(factors[i]) }
            factors = next
        }
        return factors[0]
    }

    public var signum: Int { Int(idb_mpz_sgn(storage.z)) }
    public var isZero: Bool { signum == 0 }

    /// Number of bits in |self| (0 for zero).
    public var bitWidth: Int { isZero ? 0 : Int(__gmpz_sizeinbase(storage.z, 2)) }

    /// Number of decimal digits in |self| (1 for zero).
    public var decimalDigitCount: Int {
        // GMP's size in base 10 is exact or one too many; only then is 10^(n − 1) worth building
        // (writing the whole number out would cost far more at hundreds of thousands of digits).
        let n = __gmpz_sizeinbase(storage.z, 10)
        if n <= 1 { return 1 }
        let power = BigInt.make { __gmpz_ui_pow_ui($0, 10, UInt(n - 1)) }
        return __gmpz_cmpabs(storage.z, power.storage.z) < 0 ? n - 1 : n
    }

    /// The value as an `Int`, or `nil` when it does not fit.
    public var intValue: Int? {
        guard __gmpz_fits_slong_p(storage.z) != 0 else { return nil }
        return __gmpz_get_si(storage.z)
    }

    /// The nearest `Double` toward zero; ±infinity beyond its range.
    public var doubleValue: Double {
        if bitWidth > 1023 { return signum > 0 ? .infinity : -.infinity }
        return __gmpz_get_d(storage.z)
    }

    /// log2(|self|) as a `Double`, usable for any size; `-infinity` for zero.
    public var log2Magnitude: Double {
        if isZero { return -.infinity }
        var exponent = 0
        let mantissa = __gmpz_get_d_2exp(&exponent, storage.z)
        return Double(exponent) + Foundation.log2(Swift.abs(mantissa))
    }

    public static func + (a: BigInt, b: BigInt) -> BigInt { make { __gmpz_add($0, a.storage.z, b.storage.z) } }
    public static func - (a: BigInt, b: BigInt) -> BigInt { make { __gmpz_sub($0, a.storage.z, b.storage.z) } }
    public static func * (a: BigInt, b: BigInt) -> BigInt { make { __gmpz_mul($0, a.storage.z, b.storage.z) } }
    public static prefix func - (a: BigInt) -> BigInt { make { __gmpz_neg($0, a.storage.z) } }

    /// Floor division.
    public static func / (a: BigInt, b: BigInt) -> BigInt {
        precondition(!b.isZero, "division by zero")
        return make { __gmpz_fdiv_q($0, a.storage.z, b.storage.z) }
    }

    /// Floor remainder, with the sign of the divisor.
    public static func % (a: BigInt, b: BigInt) -> BigInt {
        precondition(!b.isZero, "division by zero")
        return make { __gmpz_fdiv_r($0, a.storage.z, b.storage.z) }
    }

    /// `a / b` when `b` is known to divide `a`.
    public static func exactQuotient(_ a: BigInt, _ b: BigInt) -> BigInt {
        make { __gmpz_divexact($0, a.storage.z, b.storage.z) }
    }

    /// self = q·f^k with f ∤ q, for f ≥ 2 (GMP's mpz_remove: fast even for thousands of factors).
    public func removingFactor(_ f: Int) -> (quotient: BigInt, count: Int) {
        var count = 0
        let factor = BigInt(f)
        let q = BigInt.make { count = Int(__gmpz_remove($0, storage.z, factor.storage.z)) }
        return (q, count)
    }

    /// |self|.
    public var magnitude: BigInt { signum < 0 ? -self : self }

    /// The greatest common divisor of |a| and |b| (GMP's subquadratic gcd).
    public static func gcd(_ a: BigInt, _ b: BigInt) -> BigInt {
        make { __gmpz_gcd($0, a.storage.z, b.storage.z) }
    }

    /// Ceiling division.
    public static func ceilingQuotient(_ a: BigInt, _ b: BigInt) -> BigInt {
        precondition(!b.isZero, "division by zero")
        return make { __gmpz_cdiv_q($0, a.storage.z, b.storage.z) }
    }

    /// ⌊√self⌋ for self ≥ 0.
    public var squareRootFloor: BigInt {
        precondition(signum >= 0)
        return BigInt.make { __gmpz_sqrt($0, storage.z) }
    }

    public func power(_ exponent: Int) -> BigInt {
        precondition(exponent >= 0)
        return BigInt.make { __gmpz_pow_ui($0, storage.z, UInt(exponent)) }
    }

    /// Multiplies by 2^k (k ≥ 0) or floor-divides by 2^−k (k < 0).
    public func shifted(_ k: Int) -> BigInt {
        BigInt.make { k >= 0 ? __gmpz_mul_2exp($0, storage.z, UInt(k)) : __gmpz_fdiv_q_2exp($0, storage.z, UInt(-k)) }
    }
}

extension BigInt: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self.init(value) }
}

extension BigInt: Comparable, Hashable {
    public static func == (a: BigInt, b: BigInt) -> Bool { __gmpz_cmp(a.storage.z, b.storage.z) == 0 }
    public static func < (a: BigInt, b: BigInt) -> Bool { __gmpz_cmp(a.storage.z, b.storage.z) < 0 }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

extension BigInt: CustomStringConvertible {
    /// The exact decimal representation.
    public var description: String {
        let size = __gmpz_sizeinbase(storage.z, 10) + 2
        var buffer = [CChar](repeating: 0, count: size)
        buffer.withUnsafeMutableBufferPointer { _ = __gmpz_get_str($0.baseAddress, 10, storage.z) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
