import Foundation
import IDBudget

/// A summary file that could not be opened or read at all (as opposed to one that was read and is
/// malformed or too large, which is an `InputError`).
public enum SummaryFileError: Error, Equatable, CustomStringConvertible {
    /// The file cannot be opened or read: missing, unreadable, a directory, an I/O error.
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot read '\(AuditSummary.displayable(path))': \(reason)"
        }
    }
}

extension AuditSummary {
    /// The largest summary file ``load(path:maxBytes:)`` reads by default: a quarter of the CLI's
    /// default `--memory` (1 GiB). Loading holds the file and what it parses into (a few times less
    /// than the file for maps of counts), so a quarter of the memory budget keeps the load within it.
    public static let defaultMaxFileBytes = 256 << 20

    /// The file-size cap for a memory budget: a quarter of it (at least 1 MiB).
    public static func maxFileBytes(memory: Int) -> Int { Swift.max(memory / 4, 1 << 20) }

    /// Reads and checks a summary file, refusing one larger than `maxBytes` before reading it whole.
    ///
    /// - Throws: ``SummaryFileError/cannotOpen(path:reason:)`` when the file cannot be opened or read;
    ///   `InputError` when it is larger than `maxBytes`, not a summary, or its counts are inconsistent
    ///   or overflow.
    public static func load(path: String, maxBytes: Int = defaultMaxFileBytes) throws -> AuditSummary {
        let data = try readCapped(path: path, maxBytes: maxBytes)
        return try AuditSummary(jsonText: data)
    }

    /// The bytes of a file, at most `maxBytes` of them (more is an `InputError`).
    static func readCapped(path: String, maxBytes: Int) throws -> Data {
        // "-" is standard input (a duplicate of it, closed like a file).
        let fd = path == "-" ? dup(0) : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SummaryFileError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SummaryFileError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw SummaryFileError.cannotOpen(path: path, reason: "it is a directory") }
        func tooLarge() -> InputError {
            InputError(
                "the summary file is larger than \(maxBytes) bytes (the cap for summaries); give a summary an audit emitted, or a larger memory limit",
                argument: "memory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > maxBytes { throw tooLarge() }
        // Regular files are read to their size (+1 to see growth); others (pipes, devices) in steps.
        let cap = maxBytes < Int.max ? maxBytes + 1 : maxBytes
        var capacity = (info.st_mode & S_IFMT) == S_IFREG ? Swift.min(Int(info.st_size) + 1, cap) : Swift.min(1 << 16, cap)
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(capacity, 1), alignment: 16)
        var filled = 0
        while true {
            if filled == capacity {
                if capacity >= cap {
                    buffer.deallocate()
                    throw tooLarge()
                }
                let grown = Swift.min(cap, capacity * 2)
                let bigger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
                bigger.copyMemory(from: buffer, byteCount: filled)
                buffer.deallocate()
                buffer = bigger
                capacity = grown
            }
            let n = read(fd, buffer + filled, capacity - filled)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                buffer.deallocate()
                throw SummaryFileError.cannotOpen(path: path, reason: reason)
            }
            if n == 0 { break }
            filled += n
        }
        if filled > maxBytes {
            buffer.deallocate()
            throw tooLarge()
        }
        return Data(bytesNoCopy: buffer, count: filled, deallocator: .custom { p, _ in p.deallocate() })
    }

    /// Text safe for a one-line message: control, format and non-ASCII characters escaped, at most
    /// `limit` characters.
    static func displayable<S: StringProtocol>(_ text: S, limit: Int = 60) -> String {
        var out = ""
        var n = 0
        for s in text.unicodeScalars {
            if n >= limit {
                out += "…"
                break
            }
            if s.value >= 0x20 && s.value < 0x7f { out.unicodeScalars.append(s) } else { out += "\\u{\(String(s.value, radix: 16))}" }
            n += 1
        }
        return out
    }
}

// MARK: - Writing

/// Pretty-printed JSON in the layout JSONSerialization used to write (two-space indents, `"key" : value`),
/// all ASCII: non-ASCII scalars as \uXXXX (UTF-16 units), so any tool reads it the same.
struct SummaryJSONWriter {
    var out: [UInt8] = []

    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    mutating func newline(_ indent: Int) {
        out.append(0x0A)
        for _ in 0..<indent { out.append(0x20) }
    }

    mutating func integer<T: BinaryInteger>(_ v: T) {
        if v < 0 { out.append(UInt8(ascii: "-")) }
        var m = v.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 24 digits
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(truncatingIfNeeded: m % 10) + 48
                m /= 10
                n += 1
            } while m > 0 && n < 24
            while n > 0 {
                n -= 1
                out.append(d[n])
            }
        }
    }

    /// A count as a JSON string of decimal digits.
    mutating func count<T: BinaryInteger>(_ v: T) {
        out.append(0x22)
        integer(v)
        out.append(0x22)
    }

    mutating func string<S: Sequence>(scalars: S) where S.Element == Unicode.Scalar {
        out.append(0x22)
        for s in scalars { scalar(s) }
        out.append(0x22)
    }

    mutating func string(_ s: String) { string(scalars: s.unicodeScalars) }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func unit(_ u: UInt16) {
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "u"))
        out.append(Self.hex[Int(u >> 12)])
        out.append(Self.hex[Int((u >> 8) & 15)])
        out.append(Self.hex[Int((u >> 4) & 15)])
        out.append(Self.hex[Int(u & 15)])
    }

    mutating func scalar(_ s: Unicode.Scalar) {
        switch s.value {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case 0..<0x20: unit(UInt16(s.value))
        case 0x20..<0x80: out.append(UInt8(s.value))
        case 0x80..<0x10000: unit(UInt16(s.value))
        default:
            let v = s.value - 0x10000
            unit(UInt16(0xD800 + (v >> 10)))
            unit(UInt16(0xDC00 + (v & 0x3FF)))
        }
    }

    /// `{ "key" : value, … }`, with the layout of an empty object JSONSerialization had (`{`, empty line, `}`).
    mutating func object(_ indent: Int, _ count: Int, _ entry: (inout SummaryJSONWriter, Int) -> Void) {
        out.append(UInt8(ascii: "{"))
        if count == 0 { newline(0) }
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            newline(indent + 2)
            entry(&self, i)
        }
        newline(indent)
        out.append(UInt8(ascii: "}"))
    }

    mutating func array(_ indent: Int, _ count: Int, _ element: (inout SummaryJSONWriter, Int) -> Void) {
        out.append(UInt8(ascii: "["))
        if count == 0 { newline(0) }
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            newline(indent + 2)
            element(&self, i)
        }
        newline(indent)
        out.append(UInt8(ascii: "]"))
    }

    mutating func key(_ k: StaticString) {
        out.append(0x22)
        raw(k)
        raw("\" : ")
    }

    /// `[{"c": "count", …}, …]`: symbol counts per position, keys by code point (the UTF-8 byte order).
    mutating func positionRows(_ indent: Int, _ rows: [[Unicode.Scalar: Int]]) {
        array(indent, rows.count) { w, r in
            let row = rows[r].sorted { $0.key.value < $1.key.value }
            w.object(indent + 2, row.count) { w, j in
                w.string(scalars: CollectionOfOne(row[j].key))
                w.raw(" : ")
                w.count(row[j].value)
            }
        }
    }

    /// `{"k": "count", …}` with keys in numeric order.
    mutating func countMap<K: BinaryInteger>(_ indent: Int, _ m: [K: Int]) {
        let entries = m.sorted { $0.key < $1.key }
        object(indent, entries.count) { w, i in
            w.count(entries[i].key)
            w.raw(" : ")
            w.count(entries[i].value)
        }
    }
}

extension SummaryJSONWriter {
    /// One format's ``NodeStats``, keys sorted; `max_sequence` and `tick_starts` only where the format
    /// has a sequence.
    mutating func nodeStats(_ n: NodeStats) {
        let nodes = n.nodes.sorted()
        var keys: [String] = ["first_ms", "ids", "last_ms"]
        if n.maxSequence != nil { keys.append("max_sequence") }
        keys += ["nodes", "nodes_truncated", "regressions"]
        if n.tickStarts != nil { keys.append("tick_starts") }
        object(4, keys.count) { w, k in
            switch keys[k] {
            case "first_ms":
                w.key("first_ms")
                w.count(n.firstMillis)
            case "ids":
                w.key("ids")
                w.count(n.ids)
            case "last_ms":
                w.key("last_ms")
                w.count(n.lastMillis)
            case "max_sequence":
                w.key("max_sequence")
                w.count(n.maxSequence ?? 0)
            case "nodes":
                w.key("nodes")
                w.array(6, nodes.count) { w, j in w.count(nodes[j]) }
            case "nodes_truncated":
                w.key("nodes_truncated")
                w.raw(n.nodesTruncated ? "true" : "false")
            case "tick_starts":
                w.key("tick_starts")
                w.count(n.tickStarts ?? 0)
            default:
                w.key("regressions")
                w.count(n.regressions)
            }
        }
    }
}

extension AuditSummary {
    /// The summary as JSON bytes (keys sorted, counts as decimal strings, ASCII only), written in one
    /// pass without building an intermediate object tree.
    public func jsonBytes() -> [UInt8] {
        var w = SummaryJSONWriter()
        let bucketCount = timeFormats.values.reduce(0) { $0 + Swift.min($1.buckets.count, 1 << 40) }
        w.out.reserveCapacity(4096 + 40 * bucketCount + 40 * (multiplicities.count + lengths.count))
        // Keys in sorted order, as JSONSerialization's .sortedKeys wrote them.
        let groupList = groups.sorted { $0.key < $1.key }
        let nodeList = nodeFormats.sorted { $0.key.rawValue < $1.key.rawValue }
        // Keys in sorted order; node_formats and declared only when there are some.
        var keys = [
            "crlf_lines", "empty_lines", "groups", "ids", "invalid_utf8_lines", "kind", "lengths", "lines", "max_line_bytes",
            "multiplicities", "overlong_lines", "positions", "sample", "schema_version", "shards", "symbols", "time_formats",
        ]
        if !nodeList.isEmpty { keys.append("node_formats") }
        if declared != nil { keys.append("declared") }
        // Only when there are some: a summary of ids like most is what it was before they were counted.
        if placeholderLines > 0 { keys.append("placeholder_lines") }
        if quotedLines > 0 { keys.append("quoted_lines") }
        if !ksuidPayloadBits.isEmpty { keys.append("ksuid_payload_bits") }
        keys.sort()
        w.object(0, keys.count) { w, entry in
            switch keys[entry] {
            case "declared":
                let d = declared ?? DeclaredLines(shape: "")
                w.key("declared")
                // Its counts in key order, then the shape.
                let counts: [(StaticString, Int)] = [
                    ("lines", d.lines), ("lines_other_case", d.linesOtherCase), ("other_length", d.otherLength),
                    ("other_symbols", d.otherSymbols),
                ]
                w.object(2, counts.count + 1) { w, k in
                    if k < counts.count {
                        w.key(counts[k].0)
                        w.count(counts[k].1)
                    } else {
                        w.key("shape")
                        w.string(d.shape)
                    }
                }
            case "node_formats":
                w.key("node_formats")
                w.object(2, nodeList.count) { w, j in
                    let (f, n) = nodeList[j]
                    w.string(f.rawValue)
                    w.raw(" : ")
                    w.nodeStats(n)
                }
            case "crlf_lines":
                w.key("crlf_lines")
                w.count(crlfLines)
            case "placeholder_lines":
                w.key("placeholder_lines")
                w.count(placeholderLines)
            case "quoted_lines":
                w.key("quoted_lines")
                w.count(quotedLines)
            case "ksuid_payload_bits":
                w.key("ksuid_payload_bits")
                w.array(2, ksuidPayloadBits.count) { w, j in w.count(ksuidPayloadBits[j]) }
            case "empty_lines":
                w.key("empty_lines")
                w.count(emptyLines)
            case "groups":
                w.key("groups")
                w.object(2, groupList.count) { w, j in
                    let (length, g) = groupList[j]
                    w.count(length)
                    w.raw(" : ")
                    w.object(4, 2) { w, k in
                        if k == 0 {
                            w.key("multiplicities")
                            w.countMap(6, g.multiplicities)
                        } else {
                            w.key("positions")
                            w.positionRows(6, g.positions)
                        }
                    }
                }

            case "ids":
                w.key("ids")
                w.count(ids)
            case "invalid_utf8_lines":
                w.key("invalid_utf8_lines")
                w.count(invalidUTF8Lines)
            case "kind":
                w.key("kind")
                w.string(Self.kind)
            case "lengths":
                w.key("lengths")
                w.countMap(2, lengths)
            case "lines":
                w.key("lines")
                w.count(lines)
            case "max_line_bytes":
                w.key("max_line_bytes")
                w.integer(maxLineBytes)
            case "multiplicities":
                w.key("multiplicities")
                w.countMap(2, multiplicities)
            case "overlong_lines":
                w.key("overlong_lines")
                w.count(overlongLines)
            case "positions":
                w.key("positions")
                w.positionRows(2, positions)
            case "sample":
                w.key("sample")
                w.array(2, sample.count) { w, j in w.string(sample[j]) }
            case "schema_version":
                w.key("schema_version")
                w.integer(Self.schemaVersion)
            case "shards":
                w.key("shards")
                w.object(2, 2) { w, j in
                    if j == 0 {
                        w.key("count")
                        w.integer(shardCount)
                    } else {
                        w.key("indexes")
                        w.array(4, shardIndexes.count) { w, k in w.integer(shardIndexes[k]) }
                    }
                }
            case "symbols":
                w.key("symbols")
                w.string(scalars: symbols.sorted { $0.value < $1.value })
            case "time_formats":
                w.key("time_formats")
                let formats = TimeFormat.allCases.sorted { $0.rawValue < $1.rawValue }
                w.object(2, formats.count) { w, j in
                    let f = formats[j]
                    let t = timeFormats[f] ?? TimeBuckets()
                    w.string(f.rawValue)
                    w.raw(" : ")
                    w.object(4, 3) { w, k in
                        switch k {
                        case 0:
                            w.key("buckets")
                            w.countMap(6, t.buckets)
                        case 1:
                            w.key("ids")
                            w.count(t.ids)
                        default:
                            w.key("truncated")
                            if t.truncated { w.raw("true") } else { w.raw("false") }
                        }
                    }
                }
            default: break
            }
        }
        return w.out
    }
}
