import IDBudget

/// Values as people type them into a form, in the CLI's syntax: what the page's fields send, read
/// before the one layer reads them (the layer's own refusals then name what is wrong).
public enum TypedText {
    /// A value as people type it, in the CLI's syntax: digit groups (`1,000,000`, `1 000 000`)
    /// closed up, a unit after a space (`10 years`) joined to its number.
    public static func plain(_ text: String) -> String {
        String(
            text.unicodeScalars.filter { $0 != "," && $0 != " " && $0 != "\u{A0}" && $0 != "\u{202F}" && $0 != "\u{2009}" }.map(
                Character.init))
    }

    /// A budget as people write odds: `1 in 10^11` is 10^-11, `1 in 1,000,000` 1e-6 (any power of
    /// ten, and any other whole number whose reciprocal is a terminating decimal: `1 in 2^40`).
    /// Anything else is left as written, for the budget's own refusal.
    public static func budget(_ text: String) -> String {
        let t = plain(text).lowercased()
        guard t.hasPrefix("1in") else { return plain(text) }
        let odds = String(t.dropFirst(3))
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
