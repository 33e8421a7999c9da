import Foundation
import IDTokens
import Precise

/// Streams identifiers, one per line, and reports duplicates against what uniform randomness predicts.
///
/// Feed it raw chunks of input with ``consume(_:)`` and call ``finish()`` at the end; memory stays
/// bounded by the fingerprint table (see `FingerprintSet`) plus one line of at most `maxLineBytes`.
public final class Auditor {
    public let maxLineBytes: Int

    public private(set) var lines = 0
    public private(set) var ids = 0
    public private(set) var emptyLines = 0
    public private(set) var crlfLines = 0
    public private(set) var invalidUTF8Lines = 0
    public private(set) var overlongLines = 0
    /// Distinct ids seen more than once.
    public private(set) var duplicateIDs = 0
    /// Occurrences beyond the first: ids − distinct.
    public private(set) var extraOccurrences = 0
    /// Ids by length in characters.
    public private(set) var lengths: [Int: Int] = [:]
    public private(set) var bytesRead = 0

    private let fingerprints = FingerprintSet()
    private var bytesSeen = [Bool](repeating: false, count: 256)
    private var scalarsSeen = Set<UInt32>()
    private var pending: [UInt8] = []
    private var skippingOverlong = false
    private var allUUIDv4 = true

    public init(maxLineBytes: Int = 4096) {
        self.maxLineBytes = maxLineBytes
        pending.reserveCapacity(maxLineBytes + 1)
    }

    public var distinct: Int { fingerprints.count }
    public var tableBytes: Int { fingerprints.bytesAllocated }

    /// Consumes a chunk of input; lines may span chunks.
    public func consume(_ chunk: UnsafeRawBufferPointer) {
        bytesRead += chunk.count
        guard let base = chunk.baseAddress else { return }
        var start = 0
        let n = chunk.count
        while start < n {
            let rest = n - start
            if let hit = memchr(base + start, 0x0A, rest) {
                let end = base.distance(to: UnsafeRawPointer(hit))
                take(UnsafeRawBufferPointer(start: base + start, count: end - start), complete: true)
                start = end + 1
            } else {
                take(UnsafeRawBufferPointer(start: base + start, count: rest), complete: false)
                start = n
            }
        }
    }

    /// Ends the input: a last line without a newline still counts.
    public func finish() {
        if !pending.isEmpty || skippingOverlong {
            take(UnsafeRawBufferPointer(start: nil, count: 0), complete: true)
        }
    }

    private func take(_ piece: UnsafeRawBufferPointer, complete: Bool) {
        if skippingOverlong {
            if complete { skippingOverlong = false; lines += 1; overlongLines += 1 }
            return
        }
        if pending.isEmpty && complete {
            line(piece)
            return
        }
        if pending.count + piece.count > maxLineBytes + 1 {  // +1: a trailing CR
            pending.removeAll(keepingCapacity: true)
            if complete { lines += 1; overlongLines += 1 } else { skippingOverlong = true }
            return
        }
        pending.append(contentsOf: piece)
        if complete {
            pending.withUnsafeBytes { line($0) }
            pending.removeAll(keepingCapacity: true)
        }
    }

    private func line(_ raw: UnsafeRawBufferPointer) {
        lines += 1
        var bytes = raw
        if let last = bytes.last, last == 0x0D {
            crlfLines += 1
            bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast())
        }
        if bytes.isEmpty { emptyLines += 1; return }
        if bytes.count > maxLineBytes { overlongLines += 1; return }
        var ascii = true
        for b in bytes where b >= 0x80 { ascii = false; break }
        let length: Int
        if ascii {
            for b in bytes { bytesSeen[Int(b)] = true }
            length = bytes.count
            if allUUIDv4 { allUUIDv4 = Self.isUUIDv4(bytes) }
        } else {
            guard let text = String(validating: bytes, as: UTF8.self) else { invalidUTF8Lines += 1; return }
            allUUIDv4 = false
            var count = 0
            for s in text.unicodeScalars {
                count += 1
                if s.value < 0x80 { bytesSeen[Int(s.value)] = true } else if scalarsSeen.count < 65_536 { scalarsSeen.insert(s.value) }
            }
            length = count
        }
        ids += 1
        lengths[length, default: 0] += 1
        switch fingerprints.insert(Fingerprint(bytes)) {
        case .new: break
        case .firstRepeat: duplicateIDs += 1; extraOccurrences += 1
        case .laterRepeat: extraOccurrences += 1
        }
    }

    /// xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx in hex.
    private static func isUUIDv4(_ b: UnsafeRawBufferPointer) -> Bool {
        guard b.count == 36 else { return false }
        for (i, c) in b.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !((c >= 48 && c <= 57) || (c | 0x20 >= 97 && c | 0x20 <= 102)) {
                return false
            }
        }
        return b[14] == UInt8(ascii: "4") && "89abAB".utf8.contains(b[19])
    }

    /// The symbols seen, as a string (ASCII first, in byte order).
    public var observedSymbols: String {
        var s = String(decoding: (0..<128).filter { bytesSeen[$0] }.map { UInt8($0) }, as: UTF8.self)
        for v in scalarsSeen.sorted() { s.unicodeScalars.append(Unicode.Scalar(v)!) }
        return s
    }

    /// What the ids imply, and how far the observed duplicates are from it.
    public func report(claimedSpace: BigInt? = nil, claim: String? = nil) -> AuditReport {
        let observed = observedSymbols
        let count = observed.unicodeScalars.count + (0..<256).filter { $0 >= 128 && bytesSeen[$0] }.count
        var alphabetName = "observed symbols"
        var alphabetSize = Swift.max(count, 2)
        var space: BigInt
        var spaceText: String
        if let claimedSpace {
            space = claimedSpace
            spaceText = claim ?? claimedSpace.description
        } else if ids > 0 && allUUIDv4 {
            space = BigInt.power(2, 122)
            spaceText = "UUIDv4: 2^122"
            alphabetName = "hex (UUID)"
            alphabetSize = 16
        } else {
            // The smallest alphabet that holds every symbol seen (a sample may miss a few symbols), case
            // included: upper-case hex is 16 symbols, not Crockford base32's 32.
            if let a = Self.candidates.filter({ a in observed.allSatisfy { a.symbols.contains($0) } }).min(by: { $0.count < $1.count }) {
                alphabetName = a.name!
                alphabetSize = a.count
            }
            space = lengths.keys.reduce(BigInt(0)) { $0 + BigInt.power(alphabetSize, $1) }
            let ls = lengths.keys.sorted()
            spaceText = ls.count == 1 ? "\(alphabetName)^\(ls[0])" : "Σ \(alphabetName)^L over lengths \(ls.map(String.init).joined(separator: ","))"
        }
        if space < BigInt(2) { space = BigInt(2) }
        let test = DuplicateTest(space: space, count: ids, observed: extraOccurrences)
        return AuditReport(
            alphabet: alphabetName, alphabetSize: alphabetSize, space: space, spaceDescription: spaceText, test: test,
            // A uniform generator cannot have more entropy than the space it draws from.
            effectiveBits: Swift.min(Self.effectiveBits(ids: ids, duplicates: extraOccurrences), space.log2Magnitude),
            effectiveBitsIsLowerBound: extraOccurrences == 0)
    }

    /// Alphabets an audit recognises: the built-ins and the upper-case forms of hex and base36.
    static let candidates: [Alphabet] = Alphabet.builtIns + [
        (try? Alphabet(symbols: "0123456789ABCDEF", name: "HEX")),
        (try? Alphabet(symbols: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", name: "BASE36")),
    ].compactMap { $0 }

    /// log2 of the space a uniform generator would need to make this many duplicates among n ids
    /// (solving E[dup](d) = D); with none seen, the 95% lower bound (E[dup](d) = 3).
    static func effectiveBits(ids n: Int, duplicates: Int) -> Double {
        guard n >= 2 else { return 0 }
        let target = duplicates == 0 ? 3.0 : Double(duplicates)
        let nd = Double(n)
        func expected(_ log2d: Double) -> Double {
            let d = exp2(log2d)
            return nd + d * expm1(nd * log1p(-1 / d))  // n − d(1 − (1 − 1/d)^n)
        }
        guard target < nd - 1 else { return 0 }
        var lo = 0.0, hi = 2 * log2(nd) + 8
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if expected(mid) > target { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}

/// What an audit concluded.
public struct AuditReport: Sendable {
    public let alphabet: String
    public let alphabetSize: Int
    public let space: BigInt
    public let spaceDescription: String
    /// The duplicate count judged against uniform draws from `space`, both tails.
    public let test: DuplicateTest
    /// Effective entropy in bits implied by the duplicate rate (never above log2 of the space).
    public let effectiveBits: Double
    public let effectiveBitsIsLowerBound: Bool

    public var expectedDuplicates: Double { test.mean }
    public var sd: Double { test.sd }
    public var z: Double { test.z }
    /// Too many or too few duplicates for a uniform generator over this space.
    public var suspicious: Bool { test.verdict != .consistent }
}
