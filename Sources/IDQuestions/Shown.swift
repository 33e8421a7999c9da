import IDBudget

/// Text read from outside — a value echoed in a refusal, a path in a log line — as every front end
/// shows it: control, format and line-separating characters written `\u{…}`, so that nothing a
/// client sends drives a terminal, splits a line, or turns text around (U+202E). The CLI, the server
/// and the page use this one rule.
public enum Shown {
    public static func escaped(_ text: some StringProtocol) -> String { String(text).escapingControlCharacters }
}
