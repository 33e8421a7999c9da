/// Ids inside records, as logs hold them: one column of a CSV (or TSV) export, or one field of a
/// JSON-lines log. The reader takes the input in chunks of any size and writes each record's id as a
/// line, which is what ``Auditor`` reads; records without the id, or that cannot be read, are counted
/// and not audited.
///
/// * **CSV** (RFC 4180): fields split by the delimiter, records by LF or CRLF; a field in double
///   quotes may hold delimiters, line breaks and `""` for a quote. With a column name, the first
///   record is the header that names it (a UTF-8 byte-order mark before it is dropped); with a column
///   number, every record is data. A blank line is no record.
/// * **JSON lines**: one JSON object a line; the field is a path of keys (`req.id` is the key `id` of
///   the object under `req`). A string is read with its escapes (`\"`, `\u00e9`, surrogate pairs); a
///   number is taken as it is written (Snowflakes are often numbers). A blank line is no record.
///
/// A record whose id holds a line break (a quoted CSV field), a JSON line that is not an object, or
/// whose field is an object, an array, `true` or `false`, counts as unreadable; a record that lacks
/// the column or the field (or has `null` there) counts as without it.
public final class RecordReader {
    /// Where the id is.
    public enum Source: Sendable, Equatable {
        /// A CSV column: by its header name, or its 1-based number.
        case csv(column: Column, delimiter: UInt8)
        /// A JSON-lines field, by its path of keys.
        case jsonLines(path: [String])
    }

    public enum Column: Sendable, Equatable {
        case name(String)
        case number(Int)
    }

    /// Why the input cannot be read at all.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The CSV header has no column of this name; its columns, as written.
        case noSuchColumn(String, header: [String])
        /// The input ended before the CSV header did.
        case noHeader(String)

        public var description: String {
            switch self {
            case .noSuchColumn(let name, let header):
                let shown = header.prefix(12).map { "'\($0.prefix(40))'" }.joined(separator: ", ") + (header.count > 12 ? ", …" : "")
                return "the CSV header has no column '\(name)'; its columns are \(shown)"
            case .noHeader(let name): return "the input has no header line to find the column '\(name)' in"
            }
        }
    }

    public let source: Source
    /// Records read (blank lines are none), and of them those without the id and those unreadable.
    public private(set) var records = 0
    public private(set) var withoutID = 0
    public private(set) var unreadable = 0

    public init(_ source: Source) {
        self.source = source
        if case .csv(.number(let n), _) = source { target = n - 1 }
        if case .csv(.name, _) = source { readingHeader = true }
    }

    // CSV state.
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
    private var state = State.fieldStart
    /// The column's 0-based index (-1 until the header names it).
    private var target = -1
    private var field = 0
    private var value: [UInt8] = []
    private var recordHasBytes = false
    private var valueHasBreak = false
    /// Whether the record being read is the header, and its fields so far.
    private var readingHeader = false
    private var header: [[UInt8]] = [[]]
    // JSON-lines state: the line so far.
    private var line: [UInt8] = []

    /// Reads `bytes`, passing the ids of the records they complete to `emit`, a line each (`id\n`).
    public func consume(_ bytes: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var out: [UInt8] = []
        out.reserveCapacity(Swift.min(bytes.count, 1 << 20))
        switch source {
        case .csv(_, let delimiter): try csv(bytes, delimiter: delimiter, into: &out)
        case .jsonLines(let path):
            for b in bytes {
                if b == 0x0A {
                    json(path, into: &out)
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(b)
                }
            }
        }
        if !out.isEmpty { try out.withUnsafeBytes { try emit($0) } }
    }

    /// The last record, when the input does not end with a line break.
    public func finish(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var out: [UInt8] = []
        switch source {
        case .csv:
            if state == .quoted {
                // An unclosed quote: the record never ended.
                records += 1
                unreadable += 1
            } else if recordHasBytes || field > 0 {
                try endRecord(into: &out)
            } else if readingHeader, case .csv(.name(let name), _) = source {
                throw Failure.noHeader(name)
            }
        case .jsonLines(let path):
            if !line.isEmpty { json(path, into: &out) }
        }
        state = .fieldStart
        if !out.isEmpty { try out.withUnsafeBytes { try emit($0) } }
    }

    // MARK: - CSV

    private func csv(_ bytes: UnsafeRawBufferPointer, delimiter: UInt8, into out: inout [UInt8]) throws {
        for b in bytes {
            switch state {
            case .quoted:
                if b == 0x22 {
                    state = .quoteInQuoted
                } else {
                    if (b == 0x0A || b == 0x0D) && field == target { valueHasBreak = true }
                    keep(b)
                }
                continue
            case .quoteInQuoted:
                if b == 0x22 {  // "" inside quotes: one quote
                    keep(b)
                    state = .quoted
                    continue
                }
                state = .unquoted  // the closing quote; what follows is read as unquoted
            case .fieldStart:
                if b == 0x22 {
                    state = .quoted
                    recordHasBytes = true
                    continue
                }
                state = .unquoted
            case .unquoted:
                break
            }
            // Unquoted.
            if b == 0x0A {
                try endRecord(into: &out)
            } else if b == delimiter {
                field += 1
                recordHasBytes = true
                state = .fieldStart
                if readingHeader { header.append([]) }
            } else {
                if b != 0x0D { recordHasBytes = true }
                keep(b)
            }
        }
    }

    @inline(__always)
    private func keep(_ b: UInt8) {
        if readingHeader {
            header[header.count - 1].append(b)
        } else if field == target {
            value.append(b)
        }
    }

    private func endRecord(into out: inout [UInt8]) throws {
        defer {
            field = 0
            value.removeAll(keepingCapacity: true)
            recordHasBytes = false
            valueHasBreak = false
            state = .fieldStart
        }
        // CRLF: the CR belongs to the line break, not to the last field.
        if readingHeader {
            guard recordHasBytes || field > 0 else { return }  // a blank line before the header
            var names = header.map { String(decoding: $0, as: UTF8.self) }
            if let last = names.last, last.hasSuffix("\r") { names[names.count - 1] = String(last.dropLast()) }
            if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
            header = [[]]
            guard case .csv(.name(let name), _) = source else { return }
            guard let i = names.firstIndex(of: name) else { throw Failure.noSuchColumn(name, header: names) }
            target = i
            readingHeader = false
            return
        }
        guard recordHasBytes || field > 0 else { return }  // a blank line
        if field == target, value.last == 0x0D { value.removeLast() }
        records += 1
        if field < target {
            withoutID += 1
        } else if valueHasBreak || value.contains(0x0A) || value.contains(0x0D) {
            unreadable += 1
        } else {
            out += value
            out.append(0x0A)
        }
    }

    // MARK: - JSON lines

    private func json(_ path: [String], into out: inout [UInt8]) {
        if line.last == 0x0D { line.removeLast() }
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }  // a blank line
        records += 1
        var scanner = JSONScanner(line)
        switch scanner.find(path) {
        case .string(let bytes), .number(let bytes):
            if bytes.contains(0x0A) || bytes.contains(0x0D) {
                unreadable += 1
            } else {
                out += bytes
                out.append(0x0A)
            }
        case .missing: withoutID += 1
        case .unreadable: unreadable += 1
        }
    }
}

/// Just enough of JSON (RFC 8259) to find one field in one line: keys and strings decoded, other
/// values skipped by their structure.
struct JSONScanner {
    enum Found {
        case string([UInt8])
        case number([UInt8])
        case missing, unreadable
    }

    private let b: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { b = bytes }

    mutating func find(_ path: [String]) -> Found {
        let wanted = path.map { Array($0.utf8) }
        var depth = 0
        skipSpace()
        guard peek == 0x7B else { return .unreadable }
        while true {
            // At an object's `{`: look for the key at this depth.
            i += 1
            skipSpace()
            if peek == 0x7D { return .missing }  // {}
            while true {
                guard let key = string() else { return .unreadable }
                skipSpace()
                guard peek == 0x3A else { return .unreadable }
                i += 1
                skipSpace()
                if key == wanted[depth] { break }
                guard skipValue() else { return .unreadable }
                skipSpace()
                if peek == 0x2C {
                    i += 1
                    skipSpace()
                    continue
                }
                if peek == 0x7D { return .missing }
                return .unreadable
            }
            if depth == wanted.count - 1 {
                switch peek ?? 0 {
                case 0x22: return string().map { .string($0) } ?? .unreadable
                case 0x6E: return literal("null") ? .missing : .unreadable
                case 0x2D, 0x30...0x39:
                    let start = i
                    while let c = peek, c == 0x2D || c == 0x2B || c == 0x2E || c == 0x65 || c == 0x45 || (0x30...0x39).contains(c) {
                        i += 1
                    }
                    return .number(Array(b[start..<i]))
                default: return .unreadable
                }
            }
            if peek == 0x6E { return literal("null") ? .missing : .unreadable }
            guard peek == 0x7B else { return .unreadable }
            depth += 1
        }
    }

    private var peek: UInt8? { i < b.count ? b[i] : nil }

    private mutating func skipSpace() {
        while let c = peek, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
    }

    private mutating func literal(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= b.count, Array(b[i..<(i + w.count)]) == w else { return false }
        i += w.count
        return true
    }

    /// A string at `i`, its escapes decoded to UTF-8; nil when it is not one.
    private mutating func string() -> [UInt8]? {
        guard peek == 0x22 else { return nil }
        i += 1
        var out: [UInt8] = []
        while let c = peek {
            i += 1
            switch c {
            case 0x22: return out
            case 0x5C:
                guard let e = peek else { return nil }
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    guard var u = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(u) {
                        // A high surrogate: its low half must follow.
                        guard peek == 0x5C, i + 1 < b.count, b[i + 1] == 0x75 else { return nil }
                        i += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(u) {
                        return nil
                    }
                    guard let scalar = Unicode.Scalar(u) else { return nil }
                    out += Array(String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                if c < 0x20 { return nil }
                out.append(c)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard i + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for c in b[i..<(i + 4)] {
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: return nil
            }
            v = v << 4 | d
        }
        i += 4
        return v
    }

    /// Skips any value at `i`; false when there is none.
    private mutating func skipValue() -> Bool {
        guard let c = peek else { return false }
        switch c {
        case 0x22: return string() != nil
        case 0x7B, 0x5B:
            var depth = 0
            while let d = peek {
                if d == 0x22 {
                    guard string() != nil else { return false }
                    continue
                }
                i += 1
                if d == 0x7B || d == 0x5B { depth += 1 }
                if d == 0x7D || d == 0x5D {
                    depth -= 1
                    if depth == 0 { return true }
                }
            }
            return false
        default:
            let start = i
            while let d = peek, d != 0x2C, d != 0x7D, d != 0x5D, d != 0x20, d != 0x09 { i += 1 }
            return i > start
        }
    }
}
