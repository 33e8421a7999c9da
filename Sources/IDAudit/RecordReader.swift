import Foundation
import IDBudget

/// Ids inside records, as logs hold them: one column of a CSV (or TSV) export, or one field of a
/// JSON-lines log. The reader takes the input in chunks of any size and writes each record's id as a
/// line, which is what ``Auditor`` reads; records without the id, or that cannot be read, are counted
/// and not audited.
///
/// * **CSV** (RFC 4180): fields split by the delimiter, records by LF or CRLF; a field in double
///   quotes may hold delimiters, line breaks and `""` for a quote. With a column name, the first
///   record is the header that names it (a UTF-8 byte-order mark before it is dropped); with a column
///   number, every record is data. A blank line is no record. A record equal to the header (exports
///   merged with `cat` repeat it) is set aside and counted, not read as an id; so is a later part's
///   own header — a field exactly the column's name, and no other field or another a header already
///   named — whose columns may have moved: the column is looked up in it afresh.
/// * **JSON lines**: one JSON object a line; the field is a path of keys (`req.id` is the key `id` of
///   the object under `req`). A string is read with its escapes (`\"`, `\u00e9`, surrogate pairs); a
///   number is taken as it is written (Snowflakes are often numbers). A blank line is no record.
///
/// A record whose id holds a line break (a quoted CSV field), a JSON line that is not an object, or
/// whose field is an object, an array, `true` or `false`, counts as unreadable; a record that lacks
/// the column or the field, or has no value there — JSON's `null`; a CSV field empty, `NULL` or `\N`
/// (SQL's null as MySQL, PostgreSQL and spreadsheet exports write it) — counts as without it: a
/// record with no id, not an id repeated. A record that ends in CRLF
/// passes its id on ending in CRLF, so the audit's `crlf_lines` counts it as it counts a plain line's.
///
/// **Speed.** Records are found with `memchr` (line breaks, then quotes): a CSV record with no quote
/// is split where it lies, and only a quoted one goes through the RFC 4180 state machine; a JSON line
/// is scanned in place, keys compared without copying, and a big chunk of JSON lines is cut at line
/// breaks into a part a core, read at once. A record cut by the end of a chunk waits, alone, for the
/// next.
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
        /// The first record holds a carriage return outside quotes: records that end in CR alone (an
        /// old Mac export), which would be read as one record.
        case carriageReturns
        /// The input ended before the CSV header did.
        case noHeader(String)
        /// The CSV header names the column more than once (`id,id`): which one is meant is the
        /// user's to say, by number (1-based).
        case ambiguousColumn(String, columns: [Int])

        public var description: String {
            switch self {
            case .noSuchColumn(let name, let header):
                let shown = header.prefix(12).map { "'\($0.prefix(40))'" }.joined(separator: ", ") + (header.count > 12 ? ", …" : "")
                return "the CSV header has no column '\(name)'; its columns are \(shown)"
            case .noHeader(let name): return "the input has no header line to find the column '\(name)' in"
            case .ambiguousColumn(let name, let columns):
                let shown = columns.prefix(8).map(String.init).joined(separator: ", ") + (columns.count > 8 ? ", …" : "")
                return "the CSV header names '\(name)' in columns \(shown); give the one meant by number (--column \(columns[0]))"
            case .carriageReturns:
                return "the records end in a carriage return alone (an old Mac export), not LF or CRLF: convert them first (tr '\\r' '\\n')"
            }
        }
    }

    public let source: Source
    /// Records read (blank lines are none), and of them those without the id and those unreadable.
    public private(set) var records = 0
    public private(set) var withoutID = 0
    public private(set) var unreadable = 0
    /// Records equal to the header line, after the first (a merged export's), set aside.
    public private(set) var repeatedHeaders = 0

    /// The CSV column's 0-based index (-1 until the header names it), and its delimiter.
    private var target = -1
    private var delimiter: UInt8 = 0x2C
    private var readingHeader = false
    /// The header's fields, once read: a later record equal to them is the header again.
    private var headerFields: [[UInt8]]? = nil
    /// The column's name, as bytes (nil for a column number), and every header's field names so far.
    private var columnName: [UInt8]? = nil
    private var headerNames = Set<[UInt8]>()
    /// The JSON path's keys, as bytes.
    private var path: [[UInt8]] = []
    /// The start of a record the last chunk cut.
    private var carry: [UInt8] = []
    /// Ids found, a line each, passed on at the end of each chunk.
    private var out: [UInt8] = []

    public init(_ source: Source) {
        self.source = source
        switch source {
        case .csv(let column, let d):
            delimiter = d
            switch column {
            case .number(let n): target = n - 1
            case .name(let name):
                readingHeader = true
                columnName = Array(name.utf8)
            }
        case .jsonLines(let keys):
            path = keys.map { Array($0.utf8) }
        }
    }

    /// The longest record kept whole (a quoted field that never closes must not hold the input in
    /// memory): past it the record is unreadable and skipped to its end — for a CSV, the first line
    /// break outside quotes, its quotes still followed.
    public static let maxRecordBytes = 16 << 20
    /// Skipping the rest of a record past ``maxRecordBytes``: nil when not, else whether a CSV quote
    /// is open.
    private var skipping: Bool?
    /// Whether the input's first bytes are still to come (a byte-order mark there is dropped).
    private var atStart = true

    /// Reads `bytes`, passing the ids of the records they complete to `emit`, a line each (`id\n`).
    public func consume(_ chunk: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var bytes = chunk
        if atStart, !bytes.isEmpty {
            // A UTF-8 byte-order mark, as spreadsheets write before a CSV's header.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                bytes = UnsafeRawBufferPointer(rebasing: bytes[3...])
            }
            atStart = false
        }
        if let open = skipping {
            guard let end = Self.recordEnd(bytes, quoted: open, csv: isCSV) else {
                skipping = Self.quoteState(bytes, from: open, csv: isCSV)
                return
            }
            skipping = nil
            bytes = UnsafeRawBufferPointer(rebasing: bytes[end...])
        }
        if carry.isEmpty {
            let done = try records(in: bytes, final: false)
            if done < bytes.count { carry = Array(bytes[done...]) }
        } else {
            carry += bytes
            let done = try carry.withUnsafeBytes { try records(in: $0, final: false) }
            carry.removeFirst(done)
        }
        if carry.count > Self.maxRecordBytes {
            // One record past the limit: unreadable, and skipped to its end.
            records += 1
            unreadable += 1
            skipping = carry.withUnsafeBytes { Self.quoteState($0, from: false, csv: isCSV) }
            carry = []
        }
        try flush(emit)
    }

    /// Whether the records are a CSV's (else JSON lines).
    public var isCSV: Bool {
        if case .csv = source { return true }
        return false
    }

    /// The most fields a CSV record without the column had.
    private var widest = 0

    /// Records an id was taken from.
    public var found: Int { records - withoutID - unreadable - repeatedHeaders }

    /// Why not one record held the id, for when none did (``found`` is 0): what the input holds instead.
    public var nothingFound: String {
        let unread = unreadable > 0 ? ", \(unreadable) could not be read" : ""
        switch source {
        case .csv(.number(let n), _):
            return
                "none of the \(records) records has a column \(n) (the widest has \(widest)\(unread)); give a number from 1 to \(Swift.max(1, widest))"
        case .csv(.name(let name), _):
            return "none of the \(records) records has a value in the header's column '\(name)' (the widest has \(widest) fields\(unread))"
        case .jsonLines(let keys):
            return
                "none of the \(records) JSON lines has the field '\(keys.joined(separator: "."))'\(unread.isEmpty ? " (or it is null in every one)" : " (\(unread.dropFirst(2)))"); give the path of keys to the id, e.g. req.id"
        }
    }

    /// Whether a CSV quote is open after `b`, from `open` (a doubled quote opens and closes).
    private static func quoteState(_ b: UnsafeRawBufferPointer, from open: Bool, csv: Bool) -> Bool {
        guard csv else { return false }
        var open = open
        for c in b where c == 0x22 { open.toggle() }
        return open
    }

    /// Where the record being skipped ends in `b` (past its line break), or nil.
    private static func recordEnd(_ b: UnsafeRawBufferPointer, quoted: Bool, csv: Bool) -> Int? {
        var open = quoted
        for (i, c) in b.enumerated() {
            if c == 0x22 && csv { open.toggle() } else if c == 0x0A && !open { return i + 1 }
        }
        return nil
    }

    /// The last record, when the input does not end with a line break.
    public func finish(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        if !carry.isEmpty {
            _ = try carry.withUnsafeBytes { try records(in: $0, final: true) }
            carry = []
        }
        if readingHeader, case .csv(.name(let name), _) = source { throw Failure.noHeader(name) }
        try flush(emit)
    }

    private func flush(_ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        if !out.isEmpty { try out.withUnsafeBytes { try emit($0) } }
        out.removeAll(keepingCapacity: true)
    }

    /// Reads the whole records in `b` (with `final`, the last one too, though no line break ends it);
    /// returns where the first one not read starts.
    private func records(in b: UnsafeRawBufferPointer, final: Bool) throws -> Int {
        guard let base = b.baseAddress else { return 0 }
        if case .jsonLines = source { return jsonLines(in: b, final: final) }
        let end = b.count
        var at = 0
        while at < end {
            let rest = end - at
            let nl = memchr(base + at, 0x0A, rest).map { UnsafeRawPointer($0) - base } ?? (final ? end : -1)
            if nl >= 0, memchr(base + at, 0x22, nl - at) == nil {
                try csvRecord(UnsafeRawBufferPointer(start: base + at, count: nl - at))
                at = nl + 1
                continue
            }
            // A quote: the record may go on past this line break.
            guard let next = try quotedRecord(b, from: at, final: final) else { return at }
            at = next
        }
        return at
    }

    // MARK: - CSV

    /// A record without quotes, its line break excluded.
    private func csvRecord(_ r: UnsafeRawBufferPointer) throws {
        var line = r
        let crlf = line.last == 0x0D
        if crlf { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
        if line.isEmpty { return }  // a blank line
        // The first record with a CR inside: the input's records end in CR alone and this is all of them.
        if readingHeader || records == 0, line.contains(0x0D) { throw Failure.carriageReturns }
        if readingHeader {
            try header(split(line))
            return
        }
        records += 1
        if let headerFields, isHeader(Self.droppingBOM(line), headerFields) {
            repeatedHeaders += 1
            return
        }
        if namesColumn(line), try laterHeader(split(Self.droppingBOM(line))) { return }
        guard let base = line.baseAddress else { return }
        var field = 0
        var start = 0
        let n = line.count
        while field < target {
            guard let d = memchr(base + start, Int32(delimiter), n - start) else {
                withoutID += 1
                widest = Swift.max(widest, field + 1)
                return
            }
            start = UnsafeRawPointer(d) - base + 1
            field += 1
        }
        let stop = memchr(base + start, Int32(delimiter), n - start).map { UnsafeRawPointer($0) - base } ?? n
        let value = UnsafeRawBufferPointer(start: base + start, count: stop - start)
        if memchr(base + start, 0x0D, stop - start) != nil {
            unreadable += 1
            return
        }
        if Self.isNull(value) {
            withoutID += 1
            return
        }
        // One copy of the bytes, no per-byte generic append: this is the whole cost of a record.
        out.append(contentsOf: value)
        endLine(crlf)
    }

    /// A line break after an id: CRLF when its record ended so.
    private func endLine(_ crlf: Bool) {
        if crlf { out.append(0x0D) }
        out.append(0x0A)
    }

    /// `line` without a UTF-8 byte-order mark before it (a merged export's second header has one).
    private static func droppingBOM(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF else { return line }
        return UnsafeRawBufferPointer(rebasing: line[3...])
    }

    /// An unquoted record's fields.
    private func split(_ line: UnsafeRawBufferPointer) -> [[UInt8]] {
        var fields: [[UInt8]] = []
        var start = 0
        for (i, c) in line.enumerated() where c == delimiter {
            fields.append(Array(line[start..<i]))
            start = i + 1
        }
        fields.append(Array(line[start...]))
        return fields
    }

    /// Whether an unquoted record is the header again: its bytes are the header's fields joined by
    /// the delimiter (checked without splitting it).
    private func isHeader(_ line: UnsafeRawBufferPointer, _ fields: [[UInt8]]) -> Bool {
        guard line.count == fields.reduce(fields.count - 1, { $0 + $1.count }) else { return false }
        var at = 0
        for (k, f) in fields.enumerated() {
            if k > 0 {
                guard line[at] == delimiter else { return false }
                at += 1
            }
            for c in f {
                guard line[at] == c else { return false }
                at += 1
            }
        }
        return true
    }

    /// A CSV field that holds no value: empty, or SQL's null as exports write it (`NULL`; `\N`, MySQL's
    /// `SELECT … INTO OUTFILE` and PostgreSQL's `COPY`).
    static func isNull<C: Collection<UInt8>>(_ field: C) -> Bool {
        switch field.count {
        case 0: return true
        case 2: return field.elementsEqual("\\N".utf8)
        case 4: return field.elementsEqual("NULL".utf8)
        default: return false
        }
    }

    /// The header's field names: where the column is.
    private func header(_ fields: [[UInt8]]) throws {
        var names = fields.map { String(decoding: $0, as: UTF8.self) }
        if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
        guard case .csv(.name(let name), _) = source else { return }
        let all = names.indices.filter { names[$0] == name }
        guard let i = all.first else { throw Failure.noSuchColumn(name, header: names) }
        guard all.count == 1 else { throw Failure.ambiguousColumn(name, columns: all.map { $0 + 1 }) }
        target = i
        readingHeader = false
        headerFields = fields
        headerNames = Set(fields)
        if let first = fields.first, first.starts(with: [0xEF, 0xBB, 0xBF]) { headerNames.insert(Array(first.dropFirst(3))) }
    }

    /// Whether the record has the column's name as one of its fields, by its bytes: a cheap test
    /// (`memmem`) before a record is split to be tried as a later header.
    private func namesColumn(_ line: UnsafeRawBufferPointer) -> Bool {
        guard let name = columnName, !name.isEmpty, let base = line.baseAddress else { return false }
        var from = 0
        while from < line.count {
            guard let hit = memchr(base + from, Int32(name[0]), line.count - from) else { return false }
            let at = UnsafeRawPointer(hit) - base
            let end = at + name.count
            guard end <= line.count else { return false }
            guard memcmp(base + at, name, name.count) == 0 else {
                from = at + 1
                continue
            }
            let opens = at == 0 || line[at - 1] == delimiter || (at == 3 && Self.droppingBOM(line).count == line.count - 3)
            if opens && (end == line.count || line[end] == delimiter) { return true }
            from = at + 1
        }
        return false
    }

    /// Whether a record is a later part's header, differing from the first: exports merged with `cat`
    /// from versions of a system whose columns changed. It is one when a field is exactly the column's
    /// name and it is the record's only field, or another of its fields is a name some header already
    /// gave — two names at once, so a data record holding the column's name as a value (a `kind`
    /// column whose value is `request_id`) stays data. Such a record is set aside and counted as a
    /// repeated header, and the column is found in it: records after it are read by its columns. A
    /// later header naming the column twice is bad data, as a first one is.
    private func laterHeader(_ fields: [[UInt8]]) throws -> Bool {
        guard let name = columnName, headerFields != nil else { return false }
        let hits = fields.indices.filter { fields[$0] == name }
        guard let first = hits.first else { return false }
        guard fields.count == 1 || fields.indices.contains(where: { $0 != first && fields[$0] != name && headerNames.contains(fields[$0]) })
        else { return false }
        guard hits.count == 1 else {
            throw Failure.ambiguousColumn(String(decoding: name, as: UTF8.self), columns: hits.map { $0 + 1 })
        }
        target = first
        headerFields = fields
        headerNames.formUnion(fields)
        repeatedHeaders += 1
        return true
    }

    /// A record with a quote, by RFC 4180's rules, from `start`; returns where the next one starts,
    /// or nil when the record does not end in `b` (and `final` is false).
    private func quotedRecord(_ b: UnsafeRawBufferPointer, from start: Int, final: Bool) throws -> Int? {
        enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
        var state = State.fieldStart
        var fields: [[UInt8]] = [[]]
        var quoted = false
        var i = start
        // A byte-order mark before the record: `cat` of spreadsheet exports puts one before each header
        // after the first, and a quote after it still opens a quoted field.
        if b.count - start >= 3, b[start] == 0xEF, b[start + 1] == 0xBB, b[start + 2] == 0xBF { i += 3 }
        var ended = false
        while i < b.count {
            let c = b[i]
            i += 1
            switch state {
            case .quoted:
                if c == 0x22 { state = .quoteInQuoted } else { fields[fields.count - 1].append(c) }
                continue
            case .quoteInQuoted:
                if c == 0x22 {  // "" inside quotes: one quote
                    fields[fields.count - 1].append(c)
                    state = .quoted
                    continue
                }
                state = .unquoted  // the closing quote; what follows is read as unquoted
            case .fieldStart:
                if c == 0x22 {
                    state = .quoted
                    quoted = true
                    continue
                }
                state = .unquoted
            case .unquoted:
                break
            }
            if c == 0x0A {
                ended = true
                break
            }
            if c == delimiter {
                fields.append([])
                state = .fieldStart
            } else {
                fields[fields.count - 1].append(c)
            }
        }
        if !ended && !final { return nil }
        if state == .quoted {
            // An unclosed quote: the record never ended.
            records += 1
            unreadable += 1
            return i
        }
        // CRLF: the CR belongs to the line break, not to the last field.
        let crlf = ended && fields[fields.count - 1].last == 0x0D
        if crlf { fields[fields.count - 1].removeLast() }
        if fields.count == 1 && fields[0].isEmpty && !quoted { return i }  // a blank line (`""` is one empty field)
        if readingHeader {
            try header(fields)
            return i
        }
        records += 1
        if let headerFields, fields == headerFields {
            repeatedHeaders += 1
        } else if try laterHeader(fields) {
            // counted as a repeated header, the column found in it
        } else if fields.count <= target {
            withoutID += 1
            widest = Swift.max(widest, fields.count)
        } else if fields[target].contains(0x0A) || fields[target].contains(0x0D) {
            unreadable += 1
        } else if Self.isNull(fields[target]) {
            withoutID += 1
        } else {
            out += fields[target]
            endLine(crlf)
        }
        return i
    }

    // MARK: - JSON lines

    /// One line, its line break excluded.
    /// The whole JSON lines in `b` (with `final`, the last one too); returns where the first one not
    /// read starts. A big chunk is cut at a line break into a part a core, read at once and joined in
    /// order: the lines are independent, and one thread reading them was the audit's slowest stage.
    private func jsonLines(in b: UnsafeRawBufferPointer, final: Bool) -> Int {
        guard let base = b.baseAddress else { return 0 }
        let n = b.count >= 1 << 18 ? Swift.min(Cores.usable, 8) : 1
        var bounds = [0]
        for k in 1..<Swift.max(n, 1) {
            let target = Swift.max(bounds[k - 1], k * b.count / n)
            guard target < b.count, let nl = memchr(base + target, 0x0A, b.count - target) else { break }
            bounds.append(UnsafeRawPointer(nl) - base + 1)
        }
        bounds.append(b.count)
        let parts = (0..<(bounds.count - 1)).map { UnsafeRawBufferPointer(start: base + bounds[$0], count: bounds[$0 + 1] - bounds[$0]) }
        let path = self.path
        let results = JSONParts(parts.count)
        let read = { (k: Int) in
            // Each part its own copy of the keys: the scanner retains them at each line, and two threads
            // counting references on one array fight over its cache line.
            let own = k == 0 ? path : path.map { $0.map { $0 } }
            results.slots[k] = Self.jsonPart(parts[k], path: own, final: final && k == parts.count - 1)
        }
        if parts.count == 1 { read(0) } else { try? parallel(parts.count) { read($0) } }
        for k in parts.indices {
            let r = results.slots[k]
            out.append(contentsOf: r.ids)
            records += r.read
            withoutID += r.without
            unreadable += r.bad
        }
        return bounds[parts.count - 1] + results.slots[parts.count - 1].consumed
    }

    /// One part's lines, read alone: its ids (a line each), its counts, and where its first line not
    /// read starts. Everything in locals: a class's stored properties cost an exclusivity check at each
    /// use, a third of a line's time.
    private static func jsonPart(_ b: UnsafeRawBufferPointer, path: [[UInt8]], final: Bool) -> JSONParts.Result {
        var r = JSONParts.Result()
        guard let base = b.baseAddress else { return r }
        r.ids.reserveCapacity(b.count / 2)
        let end = b.count
        var at = 0
        while at < end {
            let nl = memchr(base + at, 0x0A, end - at).map { UnsafeRawPointer($0) - base } ?? (final ? end : -1)
            guard nl >= 0 else { break }
            var line = UnsafeRawBufferPointer(start: base + at, count: nl - at)
            at = nl + 1
            let crlf = line.last == 0x0D
            if crlf { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
            // A blank line (a line's first byte is nearly always its `{`).
            guard let first = line.first, first != 0x20 && first != 0x09 || line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else {
                continue
            }
            r.read += 1
            var scanner = JSONScanner(line)
            switch scanner.find(path, into: &r.ids) {
            case .found:
                if crlf { r.ids.append(0x0D) }
                r.ids.append(0x0A)
            case .missing: r.without += 1
            case .unreadable: r.bad += 1
            }
        }
        r.consumed = Swift.min(at, end)
        return r
    }
}

/// The parts of a chunk of JSON lines read at once, a slot each (each written by one thread).
final class JSONParts: @unchecked Sendable {
    struct Result {
        var ids: [UInt8] = []
        var read = 0
        var without = 0
        var bad = 0
        var consumed = 0
    }
    let slots: UnsafeMutablePointer<Result>
    let count: Int
    init(_ n: Int) {
        count = n
        slots = .allocate(capacity: n)
        slots.initialize(repeating: Result(), count: n)
    }
    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }
}

/// Just enough of JSON (RFC 8259) to find one field in one line, in place: the line is checked to be
/// one JSON object (strictly: no trailing commas or text, numbers as the grammar writes them, nesting
/// at most ``maxDepth`` deep) in the same pass that finds the path's first key, then the rest of the
/// path is followed, taking the last member of a repeated
/// key as Python's `json` does; keys are compared as they are written, decoded only when they hold an
/// escape. Unlike Python, `NaN`, `Infinity` and unpaired surrogates are refused (they are not JSON).
struct JSONScanner {
    enum Found { case found, missing, unreadable }

    static let maxDepth = 512
    private let b: UnsafeRawBufferPointer
    private var i = 0

    init(_ bytes: UnsafeRawBufferPointer) { b = bytes }

    /// Appends the value at `path` to `out` (a string decoded, a number as written).
    mutating func find(_ path: [[UInt8]], into out: inout [UInt8]) -> Found {
        skipSpace()
        guard peek == 0x7B, let first = path.first else { return .unreadable }
        var at = i
        // One pass checks the line by JSON's grammar and keeps the last member named by the first key.
        var top: Int?
        guard object(depth: 0, finding: first, at: &top) else { return .unreadable }
        skipSpace()
        guard i == b.count else { return .unreadable }
        for (depth, key) in path.enumerated() {
            // `at` is a checked object.
            guard let value = depth == 0 ? top : lastMember(of: at, key) else { return .missing }
            i = value
            let c = peek ?? 0
            if c == 0x6E { return .missing }  // null
            if depth < path.count - 1 {
                guard c == 0x7B else { return .unreadable }
                at = value
                continue
            }
            switch c {
            case 0x22:
                let mark = out.count
                let start = i
                guard string(into: &out) else {
                    out.removeSubrange(mark...)
                    return .unreadable
                }
                // A line break in the id can only come from an escape (a raw one is refused), and an
                // escape always decodes shorter than it is written: a string as long as its text has none.
                if out.count - mark != i - start - 2 && (out[mark...].contains(0x0A) || out[mark...].contains(0x0D)) {
                    out.removeSubrange(mark...)
                    return .unreadable
                }
                return .found
            case 0x2D, 0x30...0x39:
                let start = i
                guard number() else { return .unreadable }
                out += b[start..<i]
                return .found
            default: return .unreadable
            }
        }
        return .unreadable
    }

    /// Checks the object at `i` (`depth` deep) and moves past it, keeping in `found` where the value of
    /// its last member named `key` starts (no key: only checked); false when it is not an object by
    /// JSON's grammar.
    private mutating func object(depth: Int, finding key: [UInt8]?, at found: inout Int?) -> Bool {
        i += 1
        skipSpace()
        if peek == 0x7D {
            i += 1
            return true
        }
        while true {
            skipSpace()
            let matched: Bool
            if let key {
                guard let m = self.key(key) else { return false }
                matched = m
            } else {
                guard skipString() else { return false }
                matched = false
            }
            skipSpace()
            guard peek == 0x3A else { return false }
            i += 1
            skipSpace()
            if matched { found = i }
            guard skipValue(depth: depth + 1) else { return false }
            skipSpace()
            if peek == 0x2C {
                i += 1
                continue
            }
            guard peek == 0x7D else { return false }
            i += 1
            return true
        }
    }

    /// Where the value of the last member named `key` of the (checked) object at `at` starts.
    private mutating func lastMember(of at: Int, _ key: [UInt8]) -> Int? {
        i = at + 1
        var found: Int?
        skipSpace()
        if peek == 0x7D { return nil }
        while true {
            skipSpace()
            guard let matched = self.key(key) else { return found }
            skipSpace()
            i += 1  // the colon
            skipSpace()
            if matched { found = i }
            guard skipValue(depth: 1) else { return found }
            skipSpace()
            guard peek == 0x2C else { return found }
            i += 1
        }
    }

    @inline(__always)
    private var peek: UInt8? { i < b.count ? b.load(fromByteOffset: i, as: UInt8.self) : nil }

    private mutating func skipSpace() {
        var j = i
        while j < b.count {
            let c = b[j]
            guard c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D else { break }
            j += 1
        }
        i = j
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count, let base = b.baseAddress, memcmp(base + i, word.utf8Start, n) == 0 else { return false }
        i += n
        return true
    }

    /// A number by JSON's grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    private mutating func number() -> Bool {
        func digits() -> Int {
            let start = i
            while let c = peek, (0x30...0x39).contains(c) { i += 1 }
            return i - start
        }
        if peek == 0x2D { i += 1 }
        if peek == 0x30 {
            i += 1
        } else {
            guard digits() > 0 else { return false }
        }
        if peek == 0x2E {
            i += 1
            guard digits() > 0 else { return false }
        }
        if peek == 0x65 || peek == 0x45 {
            i += 1
            if peek == 0x2B || peek == 0x2D { i += 1 }
            guard digits() > 0 else { return false }
        }
        return true
    }

    /// A key at `i`: whether it is `wanted`; nil when there is no string there.
    private mutating func key(_ wanted: [UInt8]) -> Bool? {
        guard peek == 0x22 else { return nil }
        // Unescaped keys compare in place.
        let start = i + 1
        var j = start
        while j < b.count, b[j] != 0x22, b[j] != 0x5C, b[j] >= 0x20 { j += 1 }
        if j < b.count, b[j] == 0x22, let base = b.baseAddress {
            i = j + 1
            return j - start == wanted.count && wanted.withUnsafeBytes { memcmp(base + start, $0.baseAddress!, wanted.count) == 0 }
        }
        var decoded: [UInt8] = []
        guard string(into: &decoded) else { return nil }
        return decoded == wanted
    }

    /// A string at `i`, its escapes decoded to UTF-8, appended to `out`; false when it is not one.
    private mutating func string(into out: inout [UInt8]) -> Bool {
        guard peek == 0x22 else { return false }
        // Most strings have no escape: copied whole, not byte by byte.
        let j = plainEnd(from: i + 1)
        if j < b.count, b[j] == 0x22 {
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[(i + 1)..<j]))
            i = j + 1
            return true
        }
        i += 1
        while let c = peek {
            i += 1
            switch c {
            case 0x22: return true
            case 0x5C:
                guard let e = peek else { return false }
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F: out.append(e)
                case 0x62: out.append(0x08)
                case 0x66: out.append(0x0C)
                case 0x6E: out.append(0x0A)
                case 0x72: out.append(0x0D)
                case 0x74: out.append(0x09)
                case 0x75:
                    guard var u = hex4() else { return false }
                    if (0xD800..<0xDC00).contains(u) {
                        // A high surrogate: its low half must follow.
                        guard peek == 0x5C, i + 1 < b.count, b[i + 1] == 0x75 else { return false }
                        i += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return false }
                        u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(u) {
                        return false
                    }
                    guard let scalar = Unicode.Scalar(u) else { return false }
                    out += Array(String(Character(scalar)).utf8)
                default: return false
                }
            default:
                if c < 0x20 { return false }
                out.append(c)
            }
        }
        return false
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

    /// Where the bytes from `start` stop being a string's plain text: the first quote, backslash or
    /// control byte, or the end. (Swift's SIMD16 compares, tried here, ran the audit 3× slower.)
    @inline(__always)
    private func plainEnd(from start: Int) -> Int {
        var j = start
        while j < b.count {
            let c = b[j]
            if c == 0x22 || c == 0x5C || c < 0x20 { return j }
            j += 1
        }
        return j
    }

    /// Skips a string at `i` without keeping it; false when it is not one.
    private mutating func skipString() -> Bool {
        guard peek == 0x22 else { return false }
        // The common case, no escape, in a local index.
        let j = plainEnd(from: i + 1)
        if j < b.count, b[j] == 0x22 {
            i = j + 1
            return true
        }
        i += 1
        while i < b.count {
            let c = b[i]
            i += 1
            if c == 0x22 { return true }
            if c < 0x20 { return false }
            if c == 0x5C {
                guard let e = peek else { return false }
                i += 1
                switch e {
                case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74: continue
                case 0x75: guard hex4() != nil else { return false }
                default: return false
                }
            }
        }
        return false
    }

    /// Skips one value at `i`, checking it by JSON's grammar; false when it is not one.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth < Self.maxDepth, let c = peek else { return false }
        switch c {
        case 0x22: return skipString()
        case 0x7B:
            var none: Int?
            return object(depth: depth, finding: nil, at: &none)
        case 0x5B:
            i += 1
            skipSpace()
            if peek == 0x5D {
                i += 1
                return true
            }
            while true {
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                if peek == 0x2C {
                    i += 1
                    continue
                }
                guard peek == 0x5D else { return false }
                i += 1
                return true
            }
        case 0x74: return literal("true")
        case 0x66: return literal("false")
        case 0x6E: return literal("null")
        default: return number()
        }
    }
}
