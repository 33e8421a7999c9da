extension String {
    /// Control, format and line-separating characters as `\u{…}`, so that nothing read from input
    /// drives a terminal or splits a line of output. The one escaper of text shown to people.
    package var escapingControlCharacters: String {
        var out = ""
        for u in unicodeScalars {
            switch u.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator, .format:
                out += "\\u{\(String(u.value, radix: 16))}"
            default:
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
