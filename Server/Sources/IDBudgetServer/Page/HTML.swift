import Foundation

/// Text made safe inside HTML element content and double-quoted attribute values.
enum HTML {
    static func escape(_ text: some StringProtocol) -> String {
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
                    out += "\\u{\(String(c.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
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
