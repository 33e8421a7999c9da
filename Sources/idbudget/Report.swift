import Foundation
import IDBudget
import Precise

/// A JSON value with ordered keys, so the output is byte-for-byte stable.
indirect enum JSON {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSON])
    case object([(String, JSON)])

    func render(indent: Int = 0) -> String {
        let pad = String(repeating: "  ", count: indent + 1), end = String(repeating: "  ", count: indent)
        switch self {
        case .string(let s): return JSON.quote(s)
        case .int(let i): return String(i)
        case .number(let x): return x.isFinite ? "\(x)" : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { pad + $0.render(indent: indent + 1) }.joined(separator: ",\n") + "\n\(end)]"
        case .object(let fields):
            if fields.isEmpty { return "{}" }
            return "{\n" + fields.map { pad + JSON.quote($0.0) + ": " + $0.1.render(indent: indent + 1) }
                .joined(separator: ",\n") + "\n\(end)}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}

/// A command's answer: labelled rows for people, keyed values for scripts.
struct Report {
    struct Field {
        let key: String
        let label: String
        let json: JSON
        let text: String?
    }

    var fields: [Field] = []
    var table: (headers: [String], rows: [[String]], json: [JSON])?
    var notes: [String] = []

    mutating func add(_ key: String, _ label: String, _ json: JSON, text: String? = nil) {
        fields.append(Field(key: key, label: label, json: json, text: text))
    }

    func render(_ format: OutputFormat) -> String {
        switch format {
        case .json:
            var object = fields.map { ($0.key, $0.json) }
            if let table { object.append(("rows", .array(table.json))) }
            return JSON.object(object).render()
        case .text:
            var lines: [String] = []
            let width = fields.filter { $0.text != nil }.map(\.label.count).max() ?? 0
            for f in fields {
                guard let text = f.text else { continue }
                lines.append(f.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text)
            }
            if let table {
                if !lines.isEmpty { lines.append("") }
                lines += TextTable.render(headers: table.headers, rows: table.rows)
            }
            if !notes.isEmpty {
                lines.append("")
                lines += notes
            }
            return lines.joined(separator: "\n")
        }
    }
}

enum TextTable {
    /// Columns padded to their widest cell; numbers right-aligned.
    static func render(headers: [String], rows: [[String]]) -> [String] {
        let widths = headers.indices.map { i in ([headers[i]] + rows.map { $0[i] }).map(\.count).max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let gap = String(repeating: " ", count: widths[i] - c.count)
                return c.first.map { $0.isNumber || $0 == "-" } == true && i > 0 ? gap + c : c + gap
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        return [line(headers), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}


/// Shared renderings of the math core's answers.
enum Render {
    static func probabilityFields(_ report: inout Report, space: Space, count: BigInt, scopes: BigInt = BigInt(1), prefix: String = "") throws {
        if scopes > BigInt(1) {
            let (one, _) = try Birthday.probability(space: space.size, count: count)
            report.add("\(prefix)scope_probability", "p in one scope/bucket", .string(one.description), text: "\(one)  (\(one.oneIn))")
        }
        let (p, c) = try Birthday.probability(space: space.size, count: count, scopes: scopes)
        let e = Birthday.expectedCollisions(space: space.size, count: count, scopes: scopes)
        report.add("\(prefix)probability", "collision probability", .string(p.description), text: "\(p)  (\(p.oneIn))")
        report.add("\(prefix)complement", "no collision (1 - p)", .string(c.description), text: c.description)
        report.add("\(prefix)expected_collisions", "expected colliding pairs", .string(e.description), text: e.description)
        let approx = Birthday.doubleApproximation(space: space.size, count: count, scopes: scopes)
        report.add("\(prefix)double_approximation", "double 1-exp(-n(n-1)/2d)", .number(approx),
                   text: "\(approx)  (what double-precision calculators print)")
    }

    static func volumeFields(_ report: inout Report, _ volume: Volume) {
        report.add("count", "count", .string(volume.count.description), text: volume.summary)
        if volume.groups > BigInt(1) {
            report.add("scopes", "scopes", .string(volume.scopes.description))
            report.add("buckets", "buckets", .string(volume.buckets.description))
        }
        report.notes += volume.notes
    }

    static func spaceFields(_ report: inout Report, _ space: Space) {
        report.add("space", "space", .string(space.size.description),
                   text: space.summary == space.size.description ? space.summary : "\(space.summary) = \(abbreviated(space.size))")
        report.add("space_bits", "bits", .number(roundTo(space.bits, 4)), text: String(format: "%.2f", space.bits))
    }

    static func abbreviated(_ n: BigInt) -> String {
        let s = n.description
        return s.count <= 60 ? s : "\(s.prefix(25))…\(s.suffix(25)) (\(s.count) digits)"
    }

    static func roundTo(_ x: Double, _ places: Int) -> Double {
        let f = pow(10.0, Double(places))
        return (x * f).rounded() / f
    }

    /// Seconds as the largest sensible unit: `3.17 years`, `14.2 days`.
    static func duration(seconds: Double) -> String {
        let units: [(String, Double)] = [("years", 31_536_000), ("days", 86_400), ("hours", 3600), ("minutes", 60), ("seconds", 1)]
        for (name, size) in units where seconds >= size {
            return "\(String(format: "%.3g", seconds / size)) \(name)"
        }
        return String(format: "%.3g seconds", seconds)
    }
}
