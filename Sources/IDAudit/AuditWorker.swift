import Dispatch
import Foundation
import IDBudget

extension AuditSummary {
    /// Adds the line counters of another worker's part of the same shard (the rest is merged field by field).
    mutating func addCounters(of other: AuditSummary) {
        lines += other.lines
        ids += other.ids
        emptyLines += other.emptyLines
        crlfLines += other.crlfLines
        invalidUTF8Lines += other.invalidUTF8Lines
        overlongLines += other.overlongLines
        placeholderLines += other.placeholderLines
        quotedLines += other.quotedLines
    }
}

/// One worker's share: counters, positions, time buckets, a sample, and the fingerprints of the
/// block it scanned, sorted into one list per table.
final class AuditWorker {
    let maxLineBytes: Int
    let shardIndex: Int
    let shardCount: Int
    var summary: AuditSummary
    /// ASCII symbol counts at positions 0…63: counts[i·128 + byte], for ids whose length has no
    /// table of its own.
    let counts: UnsafeMutablePointer<Int>
    /// Per length of ASCII ids (up to 4096), its own counts, while `lengthTableBudget` allows: a mixed
    /// stream's groups are judged each over its own positions.
    var lengthRow = [Int32](repeating: -1, count: 4097)
    var lengthTables: [(length: Int, counts: UnsafeMutablePointer<Int>)] = []
    var lengthTableBytes = 0
    static let lengthTableBudget = 8 << 20
    /// Lengths whose ids were counted in the pooled `counts` or `wide`: no positions of their own.
    var untracked = Set<Int>()
    var wide: [[Unicode.Scalar: Int]] = Array(repeating: [:], count: AuditSummary.positionLimit)
    var seen = [Bool](repeating: false, count: 128)
    var scalars = Set<Unicode.Scalar>()
    /// `TimeFormat.lengthMask`, read once (a global's accessor checks its initialisation at every call).
    private let timeLengths = TimeFormat.lengthMask
    /// Ids per length up to 4096 (a pointer: no uniqueness or exclusivity check per id).
    let lengthCounts: UnsafeMutablePointer<Int>
    var longLengths: [Int: Int] = [:]
    var sample: [[UInt8]] = []
    var sampleLastFirstByte: UInt8 = 255
    /// Fingerprints waiting to be counted, one list per table (boxes: each table's thread touches only its own).
    let outs: [PendingFingerprints]
    /// The same boxes unretained, for the per-line append: reading a class out of an array retains and
    /// releases it, 13% of a one-thread audit's time. `outs` keeps them alive.
    private let outRefs: UnsafeMutablePointer<Unmanaged<PendingFingerprints>>
    let tableCount: Int
    /// Per time format (by `TimeFormat.index`): its buckets, and the run of ids in the latest bucket.
    var buckets = [AuditSummary.TimeBuckets](repeating: .init(), count: TimeFormat.allCases.count)
    var runKeys = [UInt64](repeating: 0, count: TimeFormat.allCases.count)
    var runs = [Int](repeating: 0, count: TimeFormat.allCases.count)
    /// The ids read as each node-id format.
    let nodeIDs: NodeTally
    /// A declared shape's lines, counted as declared and in the other case (``DeclaredLines``).
    let matcher: ShapeMatcher?
    var matched = 0
    var matchedOtherCase = 0
    /// Lines set aside, not of the declared shape (by length, by symbol).
    var otherLength = 0
    var otherSymbols = 0
    /// Per bit of a KSUID's payload, from the top, the ids that have it set (``AuditSummary/ksuidPayloadBits``).
    let ksuidBits: UnsafeMutablePointer<Int>

    /// `now`: Unix ms the ids are read at (``Auditor/now``).
    init(maxLineBytes: Int, shardIndex: Int, shardCount: Int, tables: Int, matcher: ShapeMatcher? = nil, now: Int) {
        self.matcher = matcher
        self.nodeIDs = NodeTally(now: now)
        self.maxLineBytes = maxLineBytes
        self.shardIndex = shardIndex
        self.shardCount = shardCount
        summary = AuditSummary(maxLineBytes: maxLineBytes)
        lengthCounts = .allocate(capacity: 4097)
        lengthCounts.initialize(repeating: 0, count: 4097)
        counts = .allocate(capacity: AuditSummary.positionLimit * 128)
        counts.initialize(repeating: 0, count: AuditSummary.positionLimit * 128)
        ksuidBits = .allocate(capacity: AuditSummary.ksuidPayloadBitCount)
        ksuidBits.initialize(repeating: 0, count: AuditSummary.ksuidPayloadBitCount)
        tableCount = tables
        outs = (0..<Swift.max(1, tables)).map { _ in PendingFingerprints() }
        outRefs = .allocate(capacity: outs.count)
        outRefs.initialize(from: outs.map { Unmanaged.passUnretained($0) }, count: outs.count)
    }

    deinit {
        outRefs.deallocate()
        lengthCounts.deallocate()
        counts.deallocate()
        ksuidBits.deallocate()
        for t in lengthTables { t.counts.deallocate() }
    }

    /// The counts for ids of length n: its own table, made on first use while the budget allows.
    @inline(__always)
    private func positionCounts(length n: Int) -> UnsafeMutablePointer<Int> {
        if n == lastLength { return lastCounts }  // most streams: one length after another of the same
        let table = lookUpCounts(length: n)
        lastLength = n
        lastCounts = table
        return table
    }

    private var lastLength = -1
    private lazy var lastCounts: UnsafeMutablePointer<Int> = counts

    private func lookUpCounts(length n: Int) -> UnsafeMutablePointer<Int> {
        guard n <= 4096 else {
            untracked.insert(n)
            return counts
        }
        let r = lengthRow[n]
        if r >= 0 { return lengthTables[Int(r)].counts }
        if r == -2 { return counts }
        let size = Swift.min(n, AuditSummary.positionLimit) * 128
        guard lengthTableBytes + 8 * size <= Self.lengthTableBudget else {
            lengthRow[n] = -2
            untracked.insert(n)
            return counts
        }
        let table = UnsafeMutablePointer<Int>.allocate(capacity: size)
        table.initialize(repeating: 0, count: size)
        lengthTableBytes += 8 * size
        lengthRow[n] = Int32(lengthTables.count)
        lengthTables.append((n, table))
        return table
    }

    func overlong(countsHere: Bool) {
        if countsHere {
            summary.lines += 1
            summary.overlongLines += 1
        }
    }

    /// Scans complete lines (the last may lack its newline only when `final`).
    func scan(_ region: UnsafeRawBufferPointer, final: Bool) throws {
        guard var p = region.baseAddress else { return }
        let end = p + region.count
        let nonIDsHere = shardIndex == 0
        // Counted in a local and added once: a class's stored property costs an exclusivity check
        // at every access.
        var ids = 0
        defer {
            summary.lines += ids
            summary.ids += ids
        }
        while p < end {
            let nl = memchr(p, 0x0A, end - p).map { UnsafeRawPointer($0) }
            let lineEnd = nl ?? end
            var length = p.distance(to: lineEnd)
            var crlf = false
            if length > 0, p.load(fromByteOffset: length - 1, as: UInt8.self) == 0x0D {
                length -= 1
                crlf = true
            }
            defer { p = lineEnd + 1 }
            if nl == nil && !final { break }
            // A JSON string as `jq` prints one without -r: the id is between the quotes (none and no
            // escape inside, so its bytes are the id's own).
            var start = p
            var quoted = false
            if length >= 2, p.load(as: UInt8.self) == 0x22, p.load(fromByteOffset: length - 1, as: UInt8.self) == 0x22,
                memchr(p + 1, 0x22, length - 2) == nil, memchr(p + 1, 0x5C, length - 2) == nil
            {
                start = p + 1
                length -= 2
                quoted = true
            }
            if length == 0 {
                if nonIDsHere {
                    summary.lines += 1
                    summary.emptyLines += 1
                    if crlf { summary.crlfLines += 1 }
                    if quoted { summary.quotedLines += 1 }
                }
                continue
            }
            if length > maxLineBytes {
                if nonIDsHere {
                    summary.lines += 1
                    summary.overlongLines += 1
                    if crlf { summary.crlfLines += 1 }
                    if quoted { summary.quotedLines += 1 }
                }
                continue
            }
            let bytes = UnsafeRawBufferPointer(start: start, count: length)
            let ascii = Self.isASCII(bytes)
            var scalars = length
            if !ascii && !Self.forEachScalar(bytes, { _ in }) {
                if nonIDsHere {
                    summary.lines += 1
                    summary.invalidUTF8Lines += 1
                    if crlf { summary.crlfLines += 1 }
                    if quoted { summary.quotedLines += 1 }
                }
                continue
            }
            if !ascii {
                scalars = 0
                Self.forEachScalar(bytes) { _ in scalars += 1 }
            }
            // The nil and max UUIDs are placeholders, not ids. Under a declared shape they are lines
            // like any other: of the shape, or not (counted against --max-invalid, as a CI gate wants).
            if matcher == nil && Self.isPlaceholder(bytes) {
                if nonIDsHere {
                    summary.lines += 1
                    summary.placeholderLines += 1
                    if crlf { summary.crlfLines += 1 }
                    if quoted { summary.quotedLines += 1 }
                }
                continue
            }
            // Under a declared shape, a line of it in neither case is set aside before it is an id.
            var shape = (declared: false, other: false)
            if let matcher {
                shape = ascii ? matcher.match(ascii: bytes) : matcher.match(wide: bytes, scalars: scalars)
                if !shape.declared && !shape.other {
                    if nonIDsHere {
                        summary.lines += 1
                        if scalars == matcher.length { otherSymbols += 1 } else { otherLength += 1 }
                        if crlf { summary.crlfLines += 1 }
                        if quoted { summary.quotedLines += 1 }
                    }
                    continue
                }
            }
            let f = Fingerprint(bytes)
            if shardCount > 1 && Int(f.high % UInt64(shardCount)) != shardIndex { continue }
            ids &+= 1
            if crlf { summary.crlfLines += 1 }
            if quoted { summary.quotedLines += 1 }
            if shape.declared { matched &+= 1 }
            if shape.other { matchedOtherCase &+= 1 }
            // Keyed by length after the shard and the table are chosen: counts come out per length.
            let high = FingerprintTable.keyed(f.high, length: scalars)
            // The table: bits 40–47 of the fingerprint (bits 1–16 carry the length, the top 8 a spill
            // partition, the low ones the shard), scaled to the tables by a multiply — a division here
            // was a sixth of the two-thread scan.
            let byte = Int(truncatingIfNeeded: (f.high >> 40) & 0xFF)
            outRefs[(byte &* tableCount) &>> 8]._withUnsafeGuaranteedRef {
                $0.append(high, f.low)
            }
            if ascii { asciiID(bytes) } else { wideID(bytes) }
            if length <= AuditSummary.sampleMaxBytes { keepInSample(bytes) }
        }
    }

    /// Whether the line is the nil UUID or the max UUID (RFC 9562 §5.9, §5.10), in either case, with
    /// its hyphens or without (32 characters).
    @inline(__always)
    static func isPlaceholder(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        guard n == 36 || n == 32 else { return false }
        let first = b[0]
        guard first == 0x30 || first | 0x20 == 0x66 else { return false }
        for i in 0..<n {
            let c = b[i]
            if n == 36 && (i == 8 || i == 13 || i == 18 || i == 23) {
                guard c == 0x2D else { return false }
            } else if first == 0x30 {
                guard c == 0x30 else { return false }
            } else {
                guard c | 0x20 == 0x66 else { return false }
            }
        }
        return true
    }

    @inline(__always)
    static func isASCII(_ b: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = b.count
        while i + 8 <= n {
            if b.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < n {
            if b[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    @inline(__always)
    private func asciiID(_ b: UnsafeRawBufferPointer) {
        let n = b.count
        if n <= 4096 { lengthCounts[n] += 1 } else { longLengths[n, default: 0] += 1 }
        let head = Swift.min(n, AuditSummary.positionLimit)
        let counts = positionCounts(length: n)
        for i in 0..<head { counts[i &* 128 &+ Int(b[i])] &+= 1 }
        if n > head { for i in head..<n { seen[Int(b[i])] = true } }
        if n == IDFormat.ksuid.length {
            if let k = TimeFormat.ksuid(b) {
                addToBucket(.ksuid, k.seconds)
                // Each set bit of the payload, counted at its place from the top.
                var high = k.high
                while high != 0 {
                    ksuidBits[63 &- high.trailingZeroBitCount] &+= 1
                    high &= high &- 1
                }
                var low = k.low
                while low != 0 {
                    ksuidBits[127 &- low.trailingZeroBitCount] &+= 1
                    low &= low &- 1
                }
            }
        } else if (n < 64 && timeLengths >> UInt64(n) & 1 == 1)
            || (n > IDFormat.ksuid.length && n <= 27 + TypeID.maxPrefixLength && b[n - 27] == 0x5F),
            let (format, bucket) = TimeFormat.parse(b)
        {
            addToBucket(format, bucket)
        }
        if n <= 24 { nodeIDs.read(b) } else { nodeIDs.other(length: n) }
    }

    /// Calls `body` with each scalar of well-formed UTF-8; false (part-way) at the first error.
    /// No copy of the bytes: a 16 MiB id costs no 16 MiB string.
    @discardableResult
    static func forEachScalar(_ b: UnsafeRawBufferPointer, _ body: (Unicode.Scalar) -> Void) -> Bool {
        var parser = Unicode.UTF8.ForwardParser()
        var it = b.makeIterator()
        while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let e): body(Unicode.UTF8.decode(e))
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private func wideID(_ b: UnsafeRawBufferPointer) {
        var i = 0
        _ = Self.forEachScalar(b) { s in
            if s.value < 128 {
                if i < AuditSummary.positionLimit { counts[i * 128 + Int(s.value)] += 1 } else { seen[Int(s.value)] = true }
            } else {
                if i < AuditSummary.positionLimit { wide[i][s, default: 0] += 1 }
                scalars.insert(s)
            }
            i += 1
        }
        if i <= 4096 { lengthCounts[i] += 1 } else { longLengths[i, default: 0] += 1 }
        untracked.insert(i)
        nodeIDs.other(length: i)
    }

    private func addToBucket(_ format: TimeFormat, _ key: UInt64) {
        let f = format.index
        if runs[f] > 0 && runKeys[f] == key {
            runs[f] += 1
            return
        }
        flush(f)
        runKeys[f] = key
        runs[f] = 1
    }

    /// Adds the current run of one bucket, in place (copying the map per run was quadratic).
    private func flush(_ f: Int) {
        guard runs[f] > 0 else { return }
        let run = runs[f]
        runs[f] = 0
        buckets[f].ids += run
        if buckets[f].truncated { return }
        buckets[f].buckets[runKeys[f], default: 0] += run
        if buckets[f].buckets.count > AuditSummary.bucketLimit {
            buckets[f].buckets = [:]
            buckets[f].truncated = true
        }
    }

    func timeBuckets() -> [TimeFormat: AuditSummary.TimeBuckets] {
        var out: [TimeFormat: AuditSummary.TimeBuckets] = [:]
        for format in TimeFormat.allCases {
            flush(format.index)
            if buckets[format.index].ids > 0 { out[format] = buckets[format.index] }
        }
        return out
    }

    @inline(__always)
    private func keepInSample(_ b: UnsafeRawBufferPointer) {
        func less(_ a: UnsafeRawBufferPointer, _ x: [UInt8]) -> Int {  // −1, 0, 1
            x.withUnsafeBytes { xb in
                let c = memcmp(a.baseAddress!, xb.baseAddress!, Swift.min(a.count, xb.count))
                return c != 0 ? (c < 0 ? -1 : 1) : (a.count == xb.count ? 0 : (a.count < xb.count ? -1 : 1))
            }
        }
        if sample.count == AuditSummary.sampleSize {
            // Most ids lose on their first byte against the largest kept.
            if b[0] > sampleLastFirstByte { return }
            if less(b, sample[sample.count - 1]) >= 0 { return }
        }
        var lo = 0
        var hi = sample.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let c = less(b, sample[mid])
            if c == 0 { return }
            if c < 0 { hi = mid } else { lo = mid + 1 }
        }
        sample.insert(Array(b), at: lo)
        if sample.count > AuditSummary.sampleSize { sample.removeLast() }
        sampleLastFirstByte = sample[sample.count - 1][0]
    }

    var symbols: Set<Unicode.Scalar> {
        var s = scalars
        for c in 0..<128 where seen[c] { s.insert(Unicode.Scalar(UInt8(c))) }
        for i in 0..<AuditSummary.positionLimit * 128 where counts[i] > 0 { s.insert(Unicode.Scalar(UInt8(i % 128))) }
        for t in lengthTables {
            for i in 0..<Swift.min(t.length, AuditSummary.positionLimit) * 128 where t.counts[i] > 0 {
                s.insert(Unicode.Scalar(UInt8(i % 128)))
            }
        }
        return s
    }

    var lengths: [Int: Int] {
        var l = longLengths
        for n in 0...4096 where lengthCounts[n] > 0 { l[n, default: 0] += lengthCounts[n] }
        return l
    }

    static func positions(_ workers: [AuditWorker]) -> [[Unicode.Scalar: Int]] {
        var rows: [[Unicode.Scalar: Int]] = []
        for i in 0..<AuditSummary.positionLimit {
            var row: [Unicode.Scalar: Int] = [:]
            for w in workers {
                for c in 0..<128 where w.counts[i * 128 + c] > 0 { row[Unicode.Scalar(UInt8(c)), default: 0] += w.counts[i * 128 + c] }
                for t in w.lengthTables where i < t.length {
                    for c in 0..<128 where t.counts[i * 128 + c] > 0 { row[Unicode.Scalar(UInt8(c)), default: 0] += t.counts[i * 128 + c] }
                }
                row.merge(w.wide[i], uniquingKeysWith: +)
            }
            if row.isEmpty { break }
            rows.append(row)
        }
        return rows
    }

    /// Positions per length, for the lengths every worker kept a table of (or saw no id of).
    static func positionsByLength(_ workers: [AuditWorker]) -> [Int: [[Unicode.Scalar: Int]]] {
        let untracked = workers.reduce(into: Set<Int>()) { $0.formUnion($1.untracked) }
        var out: [Int: [[Unicode.Scalar: Int]]] = [:]
        for w in workers {
            for t in w.lengthTables where !untracked.contains(t.length) {
                var rows = out[t.length] ?? Array(repeating: [:], count: Swift.min(t.length, AuditSummary.positionLimit))
                for i in 0..<rows.count {
                    for c in 0..<128 where t.counts[i * 128 + c] > 0 {
                        rows[i][Unicode.Scalar(UInt8(c)), default: 0] += t.counts[i * 128 + c]
                    }
                }
                out[t.length] = rows
            }
        }
        return out
    }

    /// Fingerprints waiting in this worker's lists.
    var pendingCount: Int { outs.reduce(0) { $0 + $1.count } / 2 }

    /// Counts this worker's fingerprints of table `part` and forgets them.
    func drain(into table: FingerprintTable, part: Int) throws {
        let list = outs[part]
        try table.add(list.words, pairs: list.count / 2)
        list.count = 0
    }
}
