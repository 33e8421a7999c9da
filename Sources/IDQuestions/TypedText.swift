import IDBudget

/// Values as people type them into a form, in the CLI's syntax: what the page's fields send, read
/// before the one layer reads them (the layer's own refusals then name what is wrong).
public enum TypedText {
    /// A value as people type it, in the CLI's syntax: digit groups (`1,000,000`, `1 000 000`)
    /// closed up, a unit after a space (`10 years`) joined to its number, the minus sign people
    /// copy from typeset text (`1e−11`, U+2212) a hyphen-minus. A comma closes up only between a
    /// digit and a group of exactly three: `1,5` (a decimal comma) is left for the layer to refuse,
    /// not read as 15.
    public static func plain(_ text: String) -> String {
        let s = Array(text.unicodeScalars)
        func digit(_ i: Int) -> Bool { i >= 0 && i < s.count && ("0"..."9").contains(s[i]) }
        var out = String.UnicodeScalarView()
        for (i, c) in s.enumerated() {
            if c == " " || c == "\u{A0}" || c == "\u{202F}" || c == "\u{2009}" { continue }
            if c == ",", digit(i - 1), digit(i + 1), digit(i + 2), digit(i + 3), !digit(i + 4) { continue }
            out.append(c == "\u{2212}" ? "-" : c)
        }
        return String(out)
    }

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
        // 1/n terminates when n = 2^a·5^b: then 1/n = 2^b·5^a / 10^(a+b) exactly.
        let (q2, a) = n.removingFactor(2)
        let (q5, b) = q2.removingFactor(5)
        guard q5 == BigInt(1) else { return plain(text) }
        let digits = (BigInt.power(2, b) * BigInt.power(5, a)).description
        let k = a + b
        return digits.count > k ? digits : "0." + String(repeating: "0", count: k - digits.count) + digits
    }
}
