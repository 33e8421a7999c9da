import Foundation
import IDBudget

/// A strict JSON reader for summaries: reads the fields it knows straight into typed maps (no
/// intermediate object tree), with checked integers, caps on every collection, and a nesting limit
/// for values it skips. Every failure is an `InputError`; nothing it reads can trap.
struct SummaryParser {
    let b: UnsafeRawBufferPointer
    var i = 0
    /// The bytes of the last string read (UTF-8, escapes resolved).
    var scratch: [UInt8] = []
    /// Values nested deeper than this (in fields idbudget does not know) are refused.
    static let depthLimit = 64

    init(_ b: UnsafeRawBufferPointer) {
        self.b = b
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3 }  // a leading byte order mark
    }

    func fail(_ what: String) -> InputError { AuditSummary.malformed(what) }
    func syntax(_ what: String) -> InputError {
        i >= b.count ? fail("the JSON ends early, at byte \(b.count): truncated?") : fail("\(what) at byte \(i)")
    }

    mutating func ws() {
        while i < b.count {
            let c = b[i]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            i += 1
        }
    }

    enum Kind { case object, array, string, number, literal }

    /// The kind of the next value (whitespace skipped).
    mutating func kind() throws(InputError) -> Kind {
        ws()
        guard i < b.count else { throw syntax("") }
        switch b[i] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return .literal
        default: throw syntax("not a JSON value")
        }
    }

    mutating func expect(_ c: UInt8) throws(InputError) {
        ws()
        guard i < b.count, b[i] == c else { throw syntax("expected '\(Character(Unicode.Scalar(c)))'") }
        i += 1
    }

    /// Consumes `{` or `[` after checking the value is one (`what` names the field otherwise).
    mutating func open(_ k: Kind, _ what: String) throws(InputError) {
        guard try kind() == k else { throw fail("\(what) is not \(k == .object ? "an object" : "an array")") }
        i += 1
    }

    /// The next member or element of an open object or array: false at its end.
    mutating func next(_ close: UInt8, _ first: inout Bool) throws(InputError) -> Bool {
        ws()
        guard i < b.count else { throw syntax("") }
        if b[i] == close {
            i += 1
            return false
        }
        if !first {
            guard b[i] == UInt8(ascii: ",") else { throw syntax("expected ',' or '\(Character(Unicode.Scalar(close)))'") }
            i += 1
        }
        first = false
        return true
    }

    /// An object key into `scratch`, and its colon.
    mutating func key() throws(InputError) {
        guard try kind() == .string else { throw syntax("expected a key") }
        try stringBytes()
        try expect(UInt8(ascii: ":"))
    }

    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - 48)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - 87)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - 55)
        default: nil
        }
    }

    private mutating func hex4() throws(InputError) -> UInt32 {
        guard i + 4 <= b.count else {
            i = b.count
            throw syntax("")
        }
        var v: UInt32 = 0
        for k in 0..<4 {
            guard let h = hexValue(b[i + k]) else { throw syntax("a bad \\u escape") }
            v = v << 4 | h
        }
        i += 4
        return v
    }

    private mutating func append(scalar v: UInt32) {
        switch v {
        case 0..<0x80: scratch.append(UInt8(v))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | v >> 6))
            scratch.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | v >> 12))
            scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | v >> 18))
            scratch.append(UInt8(0x80 | (v >> 12) & 0x3F))
            scratch.append(UInt8(0x80 | (v >> 6) & 0x3F))
            scratch.append(UInt8(0x80 | v & 0x3F))
        }
    }

    /// A string's bytes into `scratch` (the value must be a string), checked to be UTF-8.
    mutating func stringBytes() throws(InputError) {
        scratch.removeAll(keepingCapacity: true)
        i += 1  // the opening quote
        var nonASCII = false
        while true {
            // A run of plain bytes.
            let start = i
            while i < b.count {
                let c = b[i]
                if c == 0x22 || c == 0x5C || c < 0x20 { break }
                if c >= 0x80 { nonASCII = true }
                i += 1
            }
            if i > start { scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[start..<i])) }
            guard i < b.count else { throw syntax("") }
            let c = b[i]
            if c == 0x22 {
                i += 1
                break
            }
            if c < 0x20 { throw syntax("a raw control character in a string") }
            // An escape.
            i += 1
            guard i < b.count else { throw syntax("") }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): scratch.append(0x22)
            case UInt8(ascii: "\\"): scratch.append(0x5C)
            case UInt8(ascii: "/"): scratch.append(0x2F)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var v = try hex4()
                if v >= 0xDC00 && v < 0xE000 { throw syntax("a lone low surrogate") }
                if v >= 0xD800 && v < 0xDC00 {
                    guard i + 2 <= b.count, b[i] == 0x5C, b[i + 1] == UInt8(ascii: "u") else { throw syntax("a lone high surrogate") }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw syntax("a high surrogate without its low one") }
                    v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                }
                append(scalar: v)
            default:
                i -= 1
                throw syntax("a bad escape")
            }
        }
        if nonASCII, !Self.isUTF8(scratch) { throw fail("a string that is not UTF-8 near byte \(i)") }
    }

    static func isUTF8(_ bytes: [UInt8]) -> Bool {
        var it = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&it) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The one Unicode scalar `scratch` holds, or nil when it holds none or more.
    func singleScalar() -> Unicode.Scalar? {
        guard (1...4).contains(scratch.count) else { return nil }
        var it = scratch.makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let c) = decoder.decode(&it), case .emptyInput = decoder.decode(&it) else { return nil }
        return c
    }

    /// A string value (`what` names the field when it is not one).
    mutating func string(_ what: String) throws(InputError) -> String {
        guard try kind() == .string else { throw fail("\(what) is not a string") }
        try stringBytes()
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Digits in `scratch` as a non-negative integer of type T, nil when not all digits or too large.
    func digits<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard !scratch.isEmpty else { return nil }
        var v: T = 0
        for c in scratch {
            guard c >= 48 && c <= 57 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(T(c - 48))
            if o1 || o2 { return nil }
            v = a
        }
        return v
    }

    /// A count: a JSON string of decimal digits that fits an Int.
    mutating func count(_ what: String) throws(InputError) -> Int {
        guard try kind() == .string else { throw fail("\(what) is not a count written as a string of digits") }
        try stringBytes()
        guard !scratch.isEmpty, scratch.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw fail("\(what) is not a count written as a string of digits")
        }
        guard let n = digits(Int.self) else { throw fail("\(what) is larger than \(Int.max)") }
        return n
    }

    /// The bytes of a JSON number, checked against the grammar; nil parts when absent.
    private mutating func numberLexeme() throws(InputError) -> (negative: Bool, digits: Range<Int>, whole: Bool) {
        var negative = false
        if b[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        let start = i
        while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
        guard i > start else { throw syntax("a bad number") }
        if i - start > 1, b[start] == 48 { throw syntax("a number with a leading zero") }
        let digits = start..<i
        var whole = true
        if i < b.count, b[i] == UInt8(ascii: ".") {
            whole = false
            i += 1
            let f = i
            while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
            guard i > f else { throw syntax("a bad number") }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            whole = false
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            let f = i
            while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
            guard i > f else { throw syntax("a bad number") }
        }
        return (negative, digits, whole)
    }

    /// A JSON number that is a whole number from `range` (as `max_line_bytes`, `schema_version`, shards are written).
    mutating func wholeNumber(_ what: String, in range: ClosedRange<Int>) throws(InputError) -> Int {
        guard try kind() == .number else { throw fail("\(what) is not a number") }
        let (negative, digits, whole) = try numberLexeme()
        guard whole else { throw fail("\(what) is not a whole number") }
        var v = 0
        for k in digits {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(b[k] - 48))
            if o1 || o2 { throw fail("\(what) is not a whole number from \(range.lowerBound) to \(range.upperBound)") }
            v = a
        }
        if negative { v = -v }
        guard range.contains(v) else { throw fail("\(what) is not a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return v
    }

    mutating func bool(_ what: String) throws(InputError) -> Bool {
        guard try kind() == .literal else { throw fail("\(what) is not true or false") }
        if matches("true") { return true }
        if matches("false") { return false }
        throw fail("\(what) is not true or false")
    }

    private mutating func matches(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        let ok = word.withUTF8Buffer { w in (0..<n).allSatisfy { b[i + $0] == w[$0] } }
        if ok { i += n }
        return ok
    }

    /// Skips any value (of a field idbudget does not read), at most `depthLimit` deep.
    mutating func skipValue(depth: Int = 0) throws(InputError) {
        guard depth < Self.depthLimit else { throw fail("values nested more than \(Self.depthLimit) deep") }
        switch try kind() {
        case .object:
            i += 1
            var first = true
            while try next(UInt8(ascii: "}"), &first) {
                try key()
                try skipValue(depth: depth + 1)
            }
        case .array:
            i += 1
            var first = true
            while try next(UInt8(ascii: "]"), &first) { try skipValue(depth: depth + 1) }
        case .string: try stringBytes()
        case .number: _ = try numberLexeme()
        case .literal:
            guard matches("true") || matches("false") || matches("null") else { throw syntax("not a JSON value") }
        }
    }

    /// `{"k": "count", …}` with keys of decimal digits, at most `limit` of them, none twice.
    mutating func countMap<K: FixedWidthInteger>(_ what: String, _: K.Type, limit: Int) throws(InputError) -> [K: Int] {
        try open(.object, what)
        var out: [K: Int] = [:]
        var first = true
        while try next(UInt8(ascii: "}"), &first) {
            try key()
            guard let k = digits(K.self) else {
                throw fail(
                    "\(what) has the key '\(AuditSummary.displayable(String(decoding: scratch.prefix(80), as: UTF8.self), limit: 40))'")
            }
            guard out.count < limit else { throw fail("\(what) has more than \(limit) keys") }
            let n = try count(what)
            guard out.updateValue(n, forKey: k) == nil else { throw fail("\(what) has the key \(k) twice") }
        }
        return out
    }
}

extension AuditSummary {
    static func malformed(_ what: String) -> InputError {
        InputError("not an idbudget audit summary (\(what)); make one with idbudget audit FILE --emit-summary S.json")
    }

    /// Parses summary JSON into a summary whose fields are within the caps (not yet checked for consistency).
    static func parse(_ raw: UnsafeRawBufferPointer) throws(InputError) -> AuditSummary {
        var p = SummaryParser(raw)
        guard try p.kind() == .object else { throw malformed("not a JSON object") }
        var s = AuditSummary(maxLineBytes: 1)
        let required = [
            "kind", "schema_version", "max_line_bytes", "shards", "lines", "ids", "empty_lines", "crlf_lines",
            "invalid_utf8_lines", "overlong_lines", "multiplicities", "lengths", "symbols", "positions",
            "time_formats", "sample",
        ]
        // groups, declared and node_formats are optional: summaries without them (older ones, other
        // tools) are judged as one stream, with no declaration, reading no node-id format; so are
        // placeholder_lines and quoted_lines (none) and ksuid_payload_bits (the payload's bits not tested).
        let optional = ["groups", "declared", "node_formats", "placeholder_lines", "quoted_lines", "ksuid_payload_bits"]
        try p.members("", known: required + optional, required: required) {
            p, name throws(InputError) in
            switch name {
            case "placeholder_lines": s.placeholderLines = try p.count(name)
            case "quoted_lines": s.quotedLines = try p.count(name)
            case "ksuid_payload_bits":
                try p.open(.array, name)
                var g = true
                while try p.next(UInt8(ascii: "]"), &g) {
                    guard s.ksuidPayloadBits.count < ksuidPayloadBitCount else {
                        throw malformed("ksuid_payload_bits has more than \(ksuidPayloadBitCount) counts")
                    }
                    s.ksuidPayloadBits.append(try p.count(name))
                }
                // Given, it is all 128 (absent is "not counted"; an empty one would silence the test).
                guard s.ksuidPayloadBits.count == ksuidPayloadBitCount else {
                    throw malformed("ksuid_payload_bits has \(s.ksuidPayloadBits.count) counts, not \(ksuidPayloadBitCount)")
                }
            case "groups": s.groups = try p.groups()
            case "declared": s.declared = try p.declaredLines("declared")
            case "node_formats": s.nodeFormats = try p.nodeFormats()
            case "kind":
                guard try p.kind() == .string, try p.string("kind") == Self.kind else { throw malformed("kind is not \(Self.kind)") }
            case "schema_version":
                guard try p.kind() == .number, (try? p.wholeNumber("", in: schemaVersion...schemaVersion)) != nil else {
                    throw malformed("schema_version is not \(schemaVersion)")
                }
            case "max_line_bytes": s.maxLineBytes = try p.wholeNumber("max_line_bytes", in: 1...Int.max)
            case "shards": (s.shardCount, s.shardIndexes) = try p.shards()
            case "lines": s.lines = try p.count(name)
            case "ids": s.ids = try p.count(name)
            case "empty_lines": s.emptyLines = try p.count(name)
            case "crlf_lines": s.crlfLines = try p.count(name)
            case "invalid_utf8_lines": s.invalidUTF8Lines = try p.count(name)
            case "overlong_lines": s.overlongLines = try p.count(name)
            case "multiplicities": s.multiplicities = try p.countMap(name, Int.self, limit: multiplicityKeyLimit)
            case "lengths": s.lengths = try p.countMap(name, Int.self, limit: lengthKeyLimit)
            case "symbols":
                guard try p.kind() == .string else { throw malformed("symbols") }
                try p.stringBytes()
                var it = p.scratch.makeIterator()
                var decoder = UTF8()
                while case .scalarValue(let c) = decoder.decode(&it) { s.symbols.insert(c) }  // checked UTF-8 already
            case "positions": s.positions = try p.positionRows("positions")
            case "time_formats": s.timeFormats = try p.timeFormats()
            default: s.sample = try p.sample()
            }
        }
        p.ws()
        guard p.i == p.b.count else { throw p.syntax("text after the summary object") }
        return s
    }
}

extension SummaryParser {
    /// The members of the object at `place` (the whole summary when it is empty): each key of `known`
    /// handed once to `read`, a key given twice refused, keys idbudget does not know skipped (nesting
    /// counted from the place's depth), and every key of `required` present at the end.
    ///
    /// The one reader of fixed-key objects, so a repeated key means the same refusal everywhere.
    mutating func members(
        _ place: String, known: [String], required: [String],
        _ read: (inout SummaryParser, String) throws(InputError) -> Void
    ) throws(InputError) {
        let path = { (name: String) in place.isEmpty ? name : "\(place).\(name)" }
        try open(.object, place.isEmpty ? "the summary" : place)
        let depth = place.isEmpty ? 1 : place.split(separator: ".").count + 1
        var seen = Set<String>()
        var first = true
        while try next(UInt8(ascii: "}"), &first) {
            try key()
            let name = String(decoding: scratch, as: UTF8.self)
            guard known.contains(name) else {
                try skipValue(depth: depth)
                continue
            }
            guard seen.insert(name).inserted else { throw fail("\(path(name)) is given twice") }
            try read(&self, name)
        }
        if let missing = required.first(where: { !seen.contains($0) }) { throw fail("\(path(missing)) is missing") }
    }

    /// `groups`: per-length multiplicities and positions, keyed by the length in decimal.
    mutating func groups() throws(InputError) -> [Int: AuditSummary.Group] {
        try open(.object, "groups")
        var groups: [Int: AuditSummary.Group] = [:]
        var f = true
        while try next(UInt8(ascii: "}"), &f) {
            try key()
            let text = String(decoding: scratch, as: UTF8.self)
            guard let length = Int(text), length >= 1, String(length) == text else {
                throw fail("groups has the key '\(AuditSummary.displayable(text.prefix(40)))'")
            }
            guard groups.count < AuditSummary.lengthKeyLimit else { throw fail("groups has more than \(AuditSummary.lengthKeyLimit) keys") }
            let place = "groups.\(length)"
            var multiplicities: [Int: Int] = [:]
            var rows: [[Unicode.Scalar: Int]] = []
            try members(place, known: ["multiplicities", "positions"], required: ["multiplicities", "positions"]) {
                p, name throws(InputError) in
                if name == "multiplicities" {
                    multiplicities = try p.countMap("\(place).multiplicities", Int.self, limit: AuditSummary.multiplicityKeyLimit)
                } else {
                    rows = try p.positionRows("\(place).positions")
                }
            }
            guard groups.updateValue(AuditSummary.Group(multiplicities: multiplicities, positions: rows), forKey: length) == nil else {
                throw fail("\(place) is given twice")
            }
        }
        return groups
    }

    /// `node_formats`: the node-id formats idbudget knows, others skipped.
    mutating func nodeFormats() throws(InputError) -> [IDFormat: NodeStats] {
        try open(.object, "node_formats")
        var formats: [IDFormat: NodeStats] = [:]
        var f = true
        while try next(UInt8(ascii: "}"), &f) {
            try key()
            guard let format = IDFormat(rawValue: String(decoding: scratch, as: UTF8.self)), NodeStats.formats.contains(format) else {
                try skipValue(depth: 2)
                continue
            }
            guard formats[format] == nil else { throw fail("node_formats.\(format.rawValue) is given twice") }
            formats[format] = try nodeStats("node_formats.\(format.rawValue)")
        }
        return formats
    }

    /// `shards`: their count and the indexes this summary holds (sorted, each below the count).
    mutating func shards() throws(InputError) -> (count: Int, indexes: [Int]) {
        var count = 0
        var indexes: [Int] = []
        try members("shards", known: ["count", "indexes"], required: ["count", "indexes"]) { p, name throws(InputError) in
            if name == "count" {
                count = try p.wholeNumber("shards.count", in: 1...AuditSummary.shardLimit)
                return
            }
            try p.open(.array, "shards.indexes")
            var set = Set<Int>()
            var g = true
            while try p.next(UInt8(ascii: "]"), &g) {
                let k = try p.wholeNumber("a shard index", in: 0...(AuditSummary.shardLimit - 1))
                guard set.insert(k).inserted else { throw p.fail("a shard index twice") }
                indexes.append(k)
            }
        }
        guard !indexes.isEmpty, indexes.allSatisfy({ $0 < count }) else { throw fail("shards") }
        return (count, indexes.sorted())
    }

    /// `time_formats`: each time format's id count and buckets; formats idbudget does not know skipped.
    mutating func timeFormats() throws(InputError) -> [TimeFormat: AuditSummary.TimeBuckets] {
        try open(.object, "time_formats")
        var formats: [TimeFormat: AuditSummary.TimeBuckets] = [:]
        var f = true
        while try next(UInt8(ascii: "}"), &f) {
            try key()
            guard let format = TimeFormat(rawValue: String(decoding: scratch, as: UTF8.self)) else {
                try skipValue(depth: 2)
                continue
            }
            let place = "time_formats.\(format.rawValue)"
            guard formats[format] == nil else { throw fail("\(place) is given twice") }
            var ids = 0
            var buckets: [UInt64: Int] = [:]
            var truncated = false
            let keys = ["ids", "buckets", "truncated"]
            try members(place, known: keys, required: keys) { p, name throws(InputError) in
                switch name {
                case "ids": ids = try p.count("\(place).ids")
                case "buckets": buckets = try p.countMap("\(place).buckets", UInt64.self, limit: AuditSummary.bucketLimit)
                default: truncated = try p.bool("\(place).truncated")
                }
            }
            formats[format] = AuditSummary.TimeBuckets(ids: ids, buckets: truncated ? [:] : buckets, truncated: truncated)
        }
        // typeid and uuid6 came later: a summary without them has none.
        if let missing = TimeFormat.allCases.first(where: { formats[$0] == nil && $0 != .typeid && $0 != .uuid6 }) {
            throw fail("time_formats.\(missing.rawValue) is missing")
        }
        for format in TimeFormat.allCases where formats[format] == nil {
            formats[format] = AuditSummary.TimeBuckets()
        }
        return formats
    }

    /// `sample`: at most ``AuditSummary/sampleEntryLimit`` ids, the smallest kept.
    mutating func sample() throws(InputError) -> [String] {
        try open(.array, "sample")
        var list: [String] = []
        var f = true
        while try next(UInt8(ascii: "]"), &f) {
            guard list.count < AuditSummary.sampleEntryLimit else {
                throw fail("sample has more than \(AuditSummary.sampleEntryLimit) entries")
            }
            guard try kind() == .string else { throw fail("a sample entry is not a string") }
            try stringBytes()
            // No tool samples ids longer than sampleMaxBytes: such an entry is not a summary's.
            guard scratch.count <= AuditSummary.sampleMaxBytes else {
                throw fail("a sample entry is longer than \(AuditSummary.sampleMaxBytes) bytes")
            }
            list.append(String(decoding: scratch, as: UTF8.self))
        }
        return AuditSummary.smallest(list)
    }
}

extension SummaryParser {
    /// `[{"c": "count", …}, …]`: at most 64 rows of symbol counts.
    mutating func positionRows(_ what: String) throws(InputError) -> [[Unicode.Scalar: Int]] {
        func fail(_ m: String) -> InputError { AuditSummary.malformed(m) }
        try open(.array, what)
        var rows: [[Unicode.Scalar: Int]] = []
        var f = true
        while try next(UInt8(ascii: "]"), &f) {
            guard rows.count < AuditSummary.positionLimit else { throw fail("\(what) has more than \(AuditSummary.positionLimit) rows") }
            try open(.object, "\(what)[\(rows.count)]")
            var row: [Unicode.Scalar: Int] = [:]
            var g = true
            while try next(UInt8(ascii: "}"), &g) {
                try key()
                guard let c = singleScalar() else {
                    throw fail(
                        "\(what) has the key '\(AuditSummary.displayable(String(decoding: scratch.prefix(160), as: UTF8.self).prefix(40)))'"
                    )
                }
                let n = try count(what)
                guard row.updateValue(n, forKey: c) == nil else { throw fail("\(what)[\(rows.count)] has a key twice") }
            }
            rows.append(row)
        }
        return rows
    }
}
