import Foundation
import IDFormats
import Precise

/// The set of values an identifier is drawn from, with its exact size `d`.
public struct Space: Sendable, CustomStringConvertible {
    /// The number of distinct identifiers, exactly.
    public let size: BigInt
    /// How the space was described: `base62^22`, `2^128`, or the integer itself.
    public var summary: String { given ?? size.description }
    /// The description, when it is not the decimal integer: that one (631,306 digits at the top of the
    /// range) is written only when asked for.
    let given: String?
    /// The alphabet and length, when the space is one.
    public let alphabet: Alphabet?
    public let length: Int?

    private init(size: BigInt, summary: String?, alphabet: Alphabet? = nil, length: Int? = nil) {
        self.size = size
        self.given = summary
        self.alphabet = alphabet
        self.length = length
    }

    /// alphabet.count^length.
    public init(alphabet: Alphabet, length: Int) throws(InputError) {
        try self.init(alphabetSize: alphabet.count, length: length, name: alphabet.name)
        self = Space(size: size, summary: summary, alphabet: alphabet, length: length)
    }

    /// alphabetSize^length.
    public init(alphabetSize: Int, length: Int, name: String? = nil) throws(InputError) {
        guard alphabetSize >= 2 else { throw InputError("an alphabet needs at least 2 symbols") }
        guard length >= 1 else { throw InputError("length must be at least 1") }
        let bits = Double(length) * log2(Double(alphabetSize))
        guard bits <= Double(Limits.maxSpaceBits) else {
            throw InputError(
                "\(name ?? String(alphabetSize))^\(length) is about 2^\(String(format: "%.3g", bits)), beyond the 2^\(Limits.maxSpaceBits) idbudget handles; use a shorter length"
            )
        }
        self.init(size: BigInt.power(alphabetSize, length), summary: "\(name ?? String(alphabetSize))^\(length)")
    }

    /// 2^bits, described as `summary` (default `2^bits`).
    public init(bits: Int, summary: String? = nil) throws(InputError) {
        guard bits >= 1 else { throw InputError("bits must be at least 1") }
        guard bits <= Limits.maxSpaceBits else {
            throw InputError("2^\(bits) is beyond the 2^\(Limits.maxSpaceBits) idbudget handles; use fewer bits")
        }
        self.init(size: BigInt.power(2, bits), summary: summary ?? "2^\(bits)")
    }

    /// The space a scheme's collisions are drawn from: 2^randomBits (per bucket for time-ordered ones),
    /// described as the CLI describes it (`uuid7: 2^74 per millisecond`).
    /// Node-id formats have none: their risk is two nodes sharing a node value (`Planner.nodeProbability`).
    public init(scheme: Scheme) throws(InputError) {
        if let node = scheme.node {
            throw InputError(
                "\(scheme.name) ids are kept apart by their \(node.name), not by random bits; ask instead for the chance two nodes share one (a probability, given how many nodes mint)",
                argument: "scheme")
        }
        if scheme.space != BigInt.power(2, scheme.randomBits) {
            self.init(size: scheme.space, summary: "\(scheme.name): 26·36^23 (2^\(String(format: "%.2f", scheme.space.log2Magnitude)))")
            return
        }
        try self.init(
            bits: scheme.randomBits, summary: "\(scheme.name): 2^\(scheme.randomBits)\(scheme.bucket.map { " per \($0.rawValue)" } ?? "")")
    }

    /// An explicit size.
    public init(size: BigInt) throws(InputError) {
        guard size >= BigInt(1) else { throw InputError("a space must hold at least 1 value") }
        // Up to 2^maxSpaceBits itself (2^2097152 + 1 is one value too many, as --bits 2097153 is).
        guard
            size.bitWidth <= Limits.maxSpaceBits
                || (size.bitWidth == Limits.maxSpaceBits + 1 && size == BigInt.power(2, Limits.maxSpaceBits))
        else {
            throw InputError("the space is beyond the 2^\(Limits.maxSpaceBits) idbudget handles")
        }
        self.init(size: size, summary: nil)
    }

    /// log2(d): the identifier's entropy in bits.
    public var bits: Double { size.log2Magnitude }

    /// The most UTF-8 bytes one identifier takes, when the space is an alphabet and length.
    public var maxBytes: Int? {
        guard let alphabet, let length else { return nil }
        return alphabet.maxBytes(length: length)
    }

    public var description: String { summary }
}
