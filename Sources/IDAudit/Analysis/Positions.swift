import Foundation
import IDBudget
import IDFormats

/// What each position holds, by a χ² test of its symbol counts, and what that says in words.
extension AuditAnalysis {
    /// The first 64 positions of the dominant length (none without one): the format's timestamp, or
    /// what ``classify(_:alphabetSize:)`` finds.
    /// In a time format, ids of one bucket may share their random symbols (a monotonic generator
    /// counts up from one draw a millisecond): a position's counts then come in clusters, and its χ²
    /// is divided by the clusters' design effect, Σk²/Σk over the buckets' sizes k (Rao and Scott's
    /// first-order correction): exact where a bucket's ids share the symbol, conservative where they
    /// do not. Without shared buckets (every id its own) it is 1.
    static func classifyPositions(of s: AuditSummary, length: Int?, format: TimeFormat?, alphabetSize: Int) -> [Position] {
        guard let length else { return [] }
        let inflation = format.map { designEffect(of: s, format: $0) } ?? 1
        return (0..<Swift.min(length, AuditSummary.positionLimit)).map { i in
            if format?.timePositions(length: length).contains(i) ?? false { return .time }
            return classify(
                i < s.positions.count ? s.positions[i] : [:], alphabetSize: alphabetSize, distinct: s.distinct, inflation: inflation)
        }
    }

    /// Σk²/Σk over the sizes k of format `f`'s buckets: 1 when every id has a bucket of its own, the
    /// ids per bucket when all buckets are alike; 1 when the buckets were not kept.
    static func designEffect(of s: AuditSummary, format f: TimeFormat) -> Double {
        guard let b = s.timeFormats[f], !b.truncated, !b.buckets.isEmpty else { return 1 }
        var sum = 0.0
        var squares = 0.0
        for k in b.buckets.values {
            sum += Double(k)
            squares += Double(k) * Double(k)
        }
        return sum > 0 ? Swift.max(1, squares / sum) : 1
    }

    /// χ² uniformity of one position's symbol counts over `alphabetSize` symbols, then over the symbols it uses.
    ///
    /// A position narrower than the alphabet (constant, a subset, biased) is structure only when that
    /// is significant among the `distinct` ids: copies of one id repeat its symbols, so a stuck
    /// generator's duplicates would otherwise shrink its own space until they explain themselves. When
    /// ``narrowIsSignificant(symbols:of:distinct:)`` says the distinct ids could show so few symbols by
    /// chance, the position is judged uniform over the alphabet.
    ///
    /// Symbols beyond the alphabet's size that a stray line brought (a header's letters, a UUID's `-`
    /// among TypeIDs) are left out when, the rarest first, they come to at most one id in a thousand
    /// (``strayTolerance(_:)``, as the strays themselves are tolerated): they are not the generator's.
    static func classify(_ all: [Unicode.Scalar: Int], alphabetSize a: Int, distinct: Int, inflation: Double = 1) -> Position {
        strayTrimmed(all, alphabetSize: a, distinct: distinct, inflation: inflation)?.position
            ?? classifyCounts(all, alphabetSize: a, distinct: distinct, inflation: inflation)
    }

    /// A position that would be biased only because of symbols a stray line put there (a `…0001`
    /// test UUID among UUIDv4s: a `0` where every other id has its version `4`, its variant `8`–`b`):
    /// the rarest symbols, together at most the stray tolerance, left out, when the rest is then a
    /// structured field — constant, or a subset of at most half the alphabet, evenly. nil otherwise,
    /// and for every position that is not biased.
    ///
    /// A fresh draw over a ≤ 1000 symbols shows each about n/a ≥ n/1000 times, so a uniform position
    /// never gets here; a field that uses more than half the alphabet with one symbol rare is a
    /// biased generator's, not structure plus a stray line, and stays biased.
    static func strayTrimmed(_ all: [Unicode.Scalar: Int], alphabetSize a: Int, distinct: Int, inflation: Double = 1) -> (
        position: Position, left: Int
    )? {
        guard all.count > 1, case .biased = classifyCounts(all, alphabetSize: a, distinct: distinct, inflation: inflation) else {
            return nil
        }
        let total = all.values.reduce(0, +)
        var rest = all
        var dropped = 0
        for (c, n) in all.sorted(by: { $0.value == $1.value ? $0.key.value < $1.key.value : $0.value < $1.value }).dropLast() {
            guard dropped + n <= strayTolerance(total) else { break }
            dropped += n
            rest[c] = nil
        }
        guard dropped > 0 else { return nil }
        switch classifyCounts(rest, alphabetSize: a, distinct: distinct, inflation: inflation) {
        case .constant(let c): return (.constant(c), dropped)
        case .subset(let k) where 2 * k <= a: return (.subset(symbols: k), dropped)
        default: return nil
        }
    }

    /// The positions of `length` (first 64) where a stray line's symbols were left out
    /// (``strayTrimmed(_:alphabetSize:distinct:inflation:)``), with the ids left out there, in words.
    static func strayPositionWords(of s: AuditSummary, length: Int?, format: TimeFormat?, alphabetSize: Int) -> String? {
        guard let length else { return nil }
        var trimmed: [(Int, Int)] = []
        let inflation = format.map { designEffect(of: s, format: $0) } ?? 1
        for i in 0..<Swift.min(length, AuditSummary.positionLimit, s.positions.count)
        where format?.timePositions(length: length).contains(i) != true {
            if let t = strayTrimmed(s.positions[i], alphabetSize: alphabetSize, distinct: s.distinct, inflation: inflation) {
                trimmed.append((i, t.left))
            }
        }
        guard !trimmed.isEmpty else { return nil }
        let most = trimmed.map(\.1).max() ?? 0
        return
            "position\(trimmed.count == 1 ? "" : "s") \(ranges(trimmed.map(\.0))): at most \(most) id\(most == 1 ? "" : "s") with a symbol hardly any other id has there (a test id, a stray line), left out within the tolerance (one line, or one in a thousand); the rest of each is a structured field"
    }

    private static func classifyCounts(_ all: [Unicode.Scalar: Int], alphabetSize a: Int, distinct: Int, inflation: Double) -> Position {
        var counts = all
        if counts.count > a {
            let total = counts.values.reduce(0, +)
            let rarest = counts.sorted { $0.value == $1.value ? $0.key.value < $1.key.value : $0.value < $1.value }.prefix(counts.count - a)
            if rarest.reduce(0, { $0 + $1.value }) <= strayTolerance(total) {
                for (c, _) in rarest { counts[c] = nil }
            }
        }
        let k = counts.count
        if k == 0 { return .uniform(symbols: a) }  // no draws at this position: nothing to judge
        if k < a, !narrowIsSignificant(symbols: k, of: a, distinct: distinct) { return .uniform(symbols: a) }
        if k == 1, let c = counts.keys.first { return .constant(c) }
        let total = Double(counts.values.reduce(0, +))
        func pUniform(over m: Int) -> Double {
            let e = total / Double(m)
            var chi = 0.0
            for o in counts.values { chi += (Double(o) - e) * (Double(o) - e) / e }
            chi += Double(m - k) * e  // symbols never seen
            return chiSquareUpperTail(chi / inflation, degrees: m - 1)
        }
        if k <= a, pUniform(over: a) >= DuplicateTest.threshold { return .uniform(symbols: a) }
        if pUniform(over: k) >= DuplicateTest.threshold { return .subset(symbols: k) }
        var h = 0.0
        for o in counts.values {
            let q = Double(o) / total
            h -= q * log2(q)
        }
        let top = counts.max { $0.value == $1.value ? $0.key.value > $1.key.value : $0.value < $1.value }!
        return .biased(bits: h, symbols: k, top: top.key, share: Double(top.value) / total)
    }

    /// Whether `d` ids drawn uniformly over `a` symbols show at most `k` symbols at one position with
    /// probability below ``DuplicateTest/threshold``. By the union bound over the C(a, k) sets of k
    /// symbols, P(at most k) ≤ C(a, k)·(k/a)^d; distinct ids are draws conditioned on differing
    /// somewhere, which only lowers the chance that they agree at one position, so the bound holds for
    /// them too. One id (d = 1) is never significant; hex needs 6 distinct ids to call a position
    /// constant, base62 5.
    static func narrowIsSignificant(symbols k: Int, of a: Int, distinct d: Int) -> Bool {
        guard k < a else { return true }
        guard d > 1 else { return false }
        let logChoose = lgamma(Double(a + 1)) - lgamma(Double(k + 1)) - lgamma(Double(a - k + 1))
        return logChoose + Double(d) * log(Double(k) / Double(a)) < log(DuplicateTest.threshold)
    }

    /// P(χ²_df ≥ x) by the Wilson–Hilferty cube-root normal approximation (ample at p = 10⁻⁶).
    static func chiSquareUpperTail(_ x: Double, degrees df: Int) -> Double {
        guard df > 0 else { return 1 }
        let d = Double(df)
        let z = (pow(x / d, 1.0 / 3) - (1 - 2 / (9 * d))) / (2 / (9 * d)).squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }

    /// Words for the positions of a stream without a time format: its constant and narrow positions,
    /// and the random bits they leave (`randomBits`) against what the symbols could hold.
    static func positionWords(_ positions: [Position], length: Int?, alphabetSize: Int, randomBits: Double, distinct: Int) -> [String] {
        guard !positions.isEmpty else { return [] }
        var words: [String] = []
        let constant = positions.indices.filter { if case .constant = positions[$0] { return true } else { return false } }
        if !constant.isEmpty, constant.count < positions.count {
            let text =
                String(
                    String.UnicodeScalarView(
                        constant.prefix(24).compactMap { if case .constant(let c) = positions[$0] { return c } else { return nil } }))
                + (constant.count > 24 ? "…" : "")
            words.append(
                "position\(constant.count > 1 ? "s" : "") \(Self.ranges(constant)) \(constant.count > 1 ? "are" : "is") constant ('\(text.escapingControlCharacters)'): structure, not randomness"
            )
        } else if constant.count == positions.count, distinct > 1 {
            words.append("every position is constant over the first 64 characters")
        }
        let subset = positions.indices.filter { if case .subset = positions[$0] { return true } else { return false } }
        if !subset.isEmpty {
            words.append(
                "position\(subset.count > 1 ? "s" : "") \(Self.ranges(subset)) use\(subset.count > 1 ? "" : "s") only some of the \(alphabetSize) symbols, evenly"
            )
        }
        words.append(
            String(
                format: "random bits per id, from its positions: %.1f (the symbols could hold %.1f)", randomBits,
                Double(length ?? 0) * log2(Double(alphabetSize))))
        return words
    }
}
