import Foundation
import IDBudget
import Precise

/// Labelled rows and a table for people (the text form of an answer).
struct Report {
    var fields: [(label: String, text: String)] = []
    var table: (headers: [String], rows: [[String]])?
    /// Tables after the first, each under a title line.
    var moreTables: [(title: String, headers: [String], rows: [[String]])] = []
    var notes: [String] = []

    mutating func add(_ label: String, _ text: String) { fields.append((label, text)) }

    func renderText() -> String {
        var lines: [String] = []
        let width = fields.map(\.label.count).max() ?? 0
        for f in fields { lines.append(f.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + f.text) }
        if let table {
            if !lines.isEmpty { lines.append("") }
            lines += TextTable.render(headers: table.headers, rows: table.rows)
        }
        for t in moreTables {
            lines += ["", t.title] + TextTable.render(headers: t.headers, rows: t.rows)
        }
        if !notes.isEmpty {
            lines.append("")
            lines += notes
        }
        return lines.joined(separator: "\n")
    }
}

enum TextTable {
    /// Columns padded to their widest cell; numbers right-aligned.
    static func render(headers: [String], rows: [[String]]) -> [String] {
        let widths = headers.indices.map { i in ([headers[i]] + rows.map { $0[i] }).map(\.count).max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let gap = String(repeating: " ", count: widths[i] - c.count)
                return isNumeric(c) && i > 0 ? gap + c : c + gap
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        return [line(headers), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
    }

    /// A number (`22`, `-0.59`, `9.133e-12`) or odds (`1 in 1.09e11`): right-aligned. Text that only
    /// starts with a digit or a hyphen (`64 symbols: -0-9A-Z…`) is not.
    static func isNumeric(_ c: String) -> Bool {
        if c.hasPrefix("1 in ") { return true }
        guard let first = c.first, first.isNumber || first == "-" else { return false }
        return c.allSatisfy { "0123456789.,e+-×%".contains($0) }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
