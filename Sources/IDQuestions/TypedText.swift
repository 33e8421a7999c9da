import IDBudget

/// Values as people type them into a form, in the CLI's syntax: what the page's fields send, read
/// before the one layer reads them (the layer's own refusals then name what is wrong).
public enum TypedText {
    /// A value as people type it, in the CLI's syntax: digit groups (`1,000,000`, `1 000 000`)
    /// closed up, a unit after a space (`10 years`) joined to its number, the minus sign people
    /// copy from typeset text (`1e−11`, U+2212) a hyphen-minus, a power in superscripts (`10¹¹`,
    /// `10⁻¹¹`, `2⁴⁰`) the CLI's `^`. A comma closes up only between a digit and a group of exactly
    /// three: `1,5` (a decimal comma) is left for the layer to refuse, not read as 15.
    public static func plain(_ text: String) -> String {
        let s = Array(text.unicodeScalars)
        func digit(_ i: Int) -> Bool { i >= 0 && i < s.count && ("0"..."9").contains(s[i]) }
        var out = String.UnicodeScalarView()
        var inPower = false
        for (i, c) in s.enumerated() {
            if let d = superscripts[c] {
                if !inPower { out.append("^") }
                inPower = true
                out.append(d)
                continue
            }
            inPower = false
            if c == " " || c == "\u{A0}" || c == "\u{202F}" || c == "\u{2009}" { continue }
            if c == ",", digit(i - 1), digit(i + 1), digit(i + 2), digit(i + 3), !digit(i + 4) { continue }
            out.append(c == "\u{2212}" ? "-" : c)
        }
        return String(out)
    }

    /// The characters past ASCII that ``plain(_:)`` reads (spaces, the minus sign, superscripts):
    /// what a form may send beside printable ASCII.
    public static let typeset: Set<Unicode.Scalar> = Set(superscripts.keys).union(["\u{2212}", "\u{A0}", "\u{202F}", "\u{2009}"])

    /// Superscript digits and minus, as typeset powers write them, and what they stand for.
    static let superscripts: [Unicode.Scalar: Unicode.Scalar] = [
        "\u{2070}": "0", "\u{00B9}": "1", "\u{00B2}": "2", "\u{00B3}": "3", "\u{2074}": "4", "\u{2075}": "5", "\u{2076}": "6",
        "\u{2077}": "7", "\u{2078}": "8", "\u{2079}": "9", "\u{207B}": "-",
    ]

    /// A budget as people write odds: `1 in 10^11` is 10^-11, `1 in 1,000,000` 1e-6 (any power of
    /// ten, and any other whole number whose reciprocal is a terminating decimal: `1 in 2^40`), and
    /// in the words the page prints them in, short scale: `1 in 100 billion` is 1e-11, `1 in 3.4
    /// trillion` is refused (its reciprocal does not terminate). Anything else is left as written,
    /// for the budget's own refusal.
    public static func budget(_ text: String) -> String {
        let t = plain(text).lowercased()
        guard t.hasPrefix("1in") else { return plain(text) }
        var odds = String(t.dropFirst(3))
        let scales = [("thousand", 3), ("million", 6), ("billion", 9), ("trillion", 12), ("quadrillion", 15), ("quintillion", 18)]
        if let (word, power) = scales.first(where: { odds.hasSuffix($0.0) }), let x = ExactDecimal(String(odds.dropLast(word.count))) {
            guard let n = ExactDecimal(significand: x.significand, exponent: x.exponent + power).integerValue else {
                return plain(text)
            }
            odds = n.description
        }
        if odds.hasPrefix("10^"), let k = Int(odds.dropFirst(3)), k > 0 { return "10^-\(k)" }
        if odds.hasPrefix("2^"), let k = Int(odds.dropFirst(2)), k > 0 { return "2^-\(k)" }
        guard let x = ExactDecimal(odds), let n = x.integerValue, n > BigInt(1) else { return plain(text) }
        // 1/n terminates when n = 2^a·5^b: then, with k = max(a, b), 1/n = 2^(k−a)·5^(k−b) / 10^k
        // exactly, in the fewest decimals (1 in 1,000,000 is 0.000001, not 0.000001000000).
        let (q2, a) = n.removingFactor(2)
        let (q5, b) = q2.removingFactor(5)
        guard q5 == BigInt(1) else { return plain(text) }
        let k = Swift.max(a, b)
        let digits = (BigInt.power(2, k - a) * BigInt.power(5, k - b)).description
        return digits.count > k ? digits : "0." + String(repeating: "0", count: k - digits.count) + digits
    }
}
