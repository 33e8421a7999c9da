import Foundation

/// Text made safe inside HTML element content and double-quoted attribute values.
enum HTML {
    /// `keepingControls`: control characters become numeric references, which a browser reads back
    /// as the characters themselves — for a form field's value (the pasted ids), which must come back
    /// as typed; elsewhere they are shown as their escape, `\u{1}`.
    static func escape(_ text: some StringProtocol, keepingControls: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters (but tab and newline) would be invalid in HTML: shown as U+FFFD's kin, the escape.
                if (c.value < 0x20 && c != "\n" && c != "\t") || c.value == 0x7F {
                    out += keepingControls ? "&#x\(String(c.value, radix: 16));" : "\\u{\(String(c.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    /// `escape(text)` with a line-break opportunity (`<wbr>`) after every `every` digits of each run
    /// of more than `longerThan` digits: a number too long for a phone's line wraps between groups of
    /// digits, never at an arbitrary digit, and a shorter one not at all. An exponent is kept on one
    /// line with its sign.
    static func breakable(_ text: some StringProtocol, longerThan: Int = 30, every: Int = 10) -> String {
        var out = ""
        var run: [Character] = []
        func flush() {
            if run.count > longerThan, run.contains(",") {
                // Grouped as typed: a break after each group's comma, never inside a group.
                for c in run {
                    out.append(c)
                    if c == "," { out += "<wbr>" }
                }
            } else if run.count > longerThan {
                for (i, c) in run.enumerated() {
                    if i > 0 && i % every == 0 { out += "<wbr>" }
                    out.append(c)
                }
            } else {
                out += String(run)
            }
            run.removeAll()
        }
        let chars = Array(String(text))
        var i = 0
        while i < chars.count {
            let c = chars[i]
            // An exponent (`e-11`, `e+300`) stays whole: a line must not end at its sign.
            if c == "e" || c == "E", i + 2 < chars.count, chars[i + 1] == "-" || chars[i + 1] == "+", chars[i + 2].isASCII,
                chars[i + 2].isNumber
            {
                flush()
                var j = i + 2
                while j < chars.count, chars[j].isASCII, chars[j].isNumber { j += 1 }
                // A long exponent (a p of 10^−10^37) keeps its sign with its first digits and breaks
                // between groups after them: whole, it would be wider than a phone.
                let whole = Swift.min(j, i + 2 + every)
                out += "<span class=\"nb\">\(escape(String(chars[i..<whole])))</span>"
                var k = whole
                while k < j {
                    let end = Swift.min(j, k + every)
                    out += "<wbr>" + escape(String(chars[k..<end]))
                    k = end
                }
                i = j
                continue
            }
            if c.isASCII && c.isNumber {
                run.append(c)
            } else if c == ",", !run.isEmpty, i + 1 < chars.count, chars[i + 1].isASCII, chars[i + 1].isNumber {
                // A digit group's comma (`1,000,000,…` as typed): the number goes on, and may break after it.
                run.append(c)
            } else {
                flush()
                out += escape(String(c))
            }
            i += 1
        }
        flush()
        return out
    }
}

extension HTML {
    /// `escape(text)` for running prose (the answer's sentence): a number of up to 30 characters
    /// (`1e-11`, `1,000,000`, `3.38`) is kept on one line — a browser would break `1e-11` after its
    /// hyphen — and a longer one (a figure pasted into the form) wraps between groups of digits.
    static func prose(_ text: String) -> String {
        // Not the digits of a word (`base62`, `uuid7`).
        let pattern = #"(?<![\p{L}\p{N}_])[0-9][0-9.,]*(?:[eE][-+]?[0-9]+)?(?:\^-?[0-9]+)?(?![\p{L}_])"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return escape(text) }
        let ns = text as NSString
        var out = ""
        var at = 0
        for m in regex.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            out += escape(ns.substring(with: NSRange(location: at, length: m.range.location - at)))
            let number = ns.substring(with: m.range)
            out += number.count <= 30 ? "<span class=\"nb\">\(escape(number))</span>" : breakable(number)
            at = m.range.location + m.range.length
        }
        return out + escape(ns.substring(from: at))
    }
}

/// log10 of a decimal the answers print: `8.47e-12`, `0.5`, `1`, `315360000000000` (any number of digits).
func log10Decimal(_ text: String) -> Double? {
    let parts = text.lowercased().split(separator: "e", maxSplits: 1)
    guard let mantissaText = parts.first, !mantissaText.isEmpty else { return nil }
    var exponent = 0.0
    if parts.count == 2 {
        guard let e = Int(parts[1]) else { return nil }
        exponent = Double(e)
    }
    // The integer part's extra digits, beyond what a double keeps.
    let integerPart = mantissaText.prefix { $0 != "." }
    let keep = 17
    var mantissa = String(mantissaText)
    if integerPart.count > keep, integerPart.allSatisfy({ ("0"..."9").contains($0) }) {
        exponent += Double(integerPart.count - keep)
        mantissa = String(integerPart.prefix(keep))
    }
    guard let m = Double(mantissa), m > 0, m.isFinite else { return nil }
    return Foundation.log10(m) + exponent
}

/// "1 in 5.45e10" in words: "about 1 in 54.5 billion" (short scale, to the quintillions; past them,
/// "1 in 10^N"); "never" and small odds as they are.
func oddsInWords(_ oneIn: String) -> String {
    guard oneIn.hasPrefix("1 in ") else { return oneIn }
    let x = oneIn.dropFirst(5)
    if x.hasPrefix("10^") { return "1 in \(x)" }
    guard let log = log10Decimal(String(x)) else { return oneIn }
    // Small odds as a plain number (`1 in 10`, not `1 in 1e+1`).
    if log < 3 { return "1 in \(String(format: "%.3g", pow(10, log)))" }
    let names = [(3, "thousand"), (6, "million"), (9, "billion"), (12, "trillion"), (15, "quadrillion"), (18, "quintillion")]
    guard let (power, name) = names.last(where: { Double($0.0) <= log }), log < 21 else {
        let exponent = log.rounded(.down)
        return "about 1 in \(String(format: "%.2f", pow(10, log - exponent))) × 10^\(Int(exponent))"
    }
    let scaled = pow(10, log - Double(power))
    let shown =
        scaled >= 100 ? String(format: "%.0f", scaled) : scaled >= 10 ? String(format: "%.1f", scaled) : String(format: "%.2f", scaled)
    return "about 1 in \(shown) \(name)"
}
