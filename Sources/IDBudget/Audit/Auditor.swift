import Dispatch
import Foundation

/// Streams identifiers, one per line, into an ``AuditSummary``.
///
/// Feed it raw chunks with ``consume(_:)`` and call ``finish()`` at the end. Lines are gathered into
/// 1 MiB blocks; each block is split at a newline between two workers, which classify the lines,
/// count lengths, symbols, positions and time buckets, and fingerprint the ids; then each worker counts
/// the fingerprints of its half of the fingerprint space in its own table. Memory: the tables stay
/// within `memoryLimit` (see `FingerprintTable`: past it they spill to temporary files and finish
/// partition by partition, with exact results), plus the block, the time-bucket maps (at most
/// 2^20 buckets a format) and small counters. A line costs time in proportion to its bytes.
public final class Auditor {
    public let maxLineBytes: Int
    public let shardIndex: Int
    public let shardCount: Int
    public let memoryLimit: Int

    private let blockSize: Int
    private var block: UnsafeMutableRawPointer
    private var filled = 0
    private var skippingOverlong = false
    private var workers: [AuditWorker]
    private var tables: [FingerprintTable]
    private let spillDirectory: SpillDirectory
    public private(set) var bytesRead = 0
    private var finished: AuditSummary?
    private var sizeHint: Int?

    /// - Parameters:
    ///   - maxLineBytes: longer lines (after a trailing CR) are counted as overlong and skipped.
    ///   - shard: audit only the ids whose fingerprint falls in shard `index` of `count` (0-based);
    ///     other lines (empty, overlong, …) are counted by shard 0.
    ///   - memoryLimit: bytes for the whole audit (default 1 GiB): the tables get it less 40 MiB.
    ///   - threads: 1 or 2 workers (default: 2 where this process may run on two cores).
    ///   - sizeHint: the input's size in bytes, when known: the tables are sized for it from the first
    ///     block's line lengths.
    /// - Throws: ``InputError`` for what `idbudget audit` would refuse: `maxLineBytes` outside
    ///   1…16,777,216, a shard index outside 0..<count, a memory limit under 1 MiB, threads other than
    ///   1 or 2.
    public init(
        maxLineBytes: Int = 4096, shard: (index: Int, count: Int) = (0, 1), memoryLimit: Int = 1 << 30,
        threads: Int? = nil, sizeHint: Int? = nil
    ) throws(InputError) {
        guard maxLineBytes >= 1, maxLineBytes <= 1 << 24 else {
            throw InputError("maxLineBytes must be from 1 to 16777216, got \(maxLineBytes)")
        }
        guard shard.count >= 1, shard.index >= 0, shard.index < shard.count else {
            throw InputError("a shard index must be in 0..<count with count ≥ 1, got \(shard.index) of \(shard.count)")
        }
        guard memoryLimit >= 1 << 20 else { throw InputError("memoryLimit must be at least 1 MiB (1048576), got \(memoryLimit)") }
        if let threads, threads != 1 && threads != 2 { throw InputError("threads must be 1 or 2, got \(threads)") }
        self.sizeHint = sizeHint
        self.maxLineBytes = maxLineBytes
        shardIndex = shard.index
        shardCount = Swift.max(1, shard.count)
        self.memoryLimit = memoryLimit
        // Room for the longest line and a read's worth more (a partial line is at most maxLineBytes + 1).
        blockSize = Swift.max(1 << 20, maxLineBytes + 2 + (1 << 20))
        block = .allocate(byteCount: blockSize, alignment: 64)
        let n = (threads ?? Cores.usable) >= 2 ? 2 : 1
        workers = (0..<n).map { _ in
            AuditWorker(maxLineBytes: maxLineBytes, shardIndex: shard.index, shardCount: Swift.max(1, shard.count), tables: n)
        }
        // What the process needs besides the tables — runtime, blocks, pending fingerprints, spill
        // buffers, a partition's table at the end — is about 40 MiB; time-bucket maps come on top.
        let tableBudget = Swift.max(memoryLimit / 4, memoryLimit - (40 << 20) - blockSize)
        tables = []
        let spillDirectory = SpillDirectory()
        self.spillDirectory = spillDirectory
        for t in 0..<n {
            tables.append(FingerprintTable(memoryLimit: tableBudget / n, name: "t\(t)", spillDirectory: { try spillDirectory.url() }))
        }
    }

    deinit {
        block.deallocate()
        spillDirectory.remove()
    }

    /// Whether ``finish()`` has run.
    var hasFinished: Bool { finished != nil }

    /// Lines so far (for progress displays).
    public var lines: Int { workers.reduce(0) { $0 + $1.summary.lines } }
    /// Bytes the fingerprint tables hold now, and at most so far.
    public var tableBytes: Int { tables.reduce(0) { $0 + $1.bytesAllocated } }
    public var peakTableBytes: Int { tables.reduce(0) { $0 + $1.peakBytes } }
    public var spilled: Bool { tables.contains { $0.spilled } }

    /// Consumes a chunk of input; lines may span chunks.
    public func consume(_ chunk: UnsafeRawBufferPointer) throws {
        bytesRead += chunk.count
        guard var base = chunk.baseAddress else { return }
        var rest = chunk.count
        while rest > 0 {
            if skippingOverlong {
                // Inside a line already known to be too long: drop bytes up to its newline.
                guard let nl = memchr(base, 0x0A, rest) else { return }
                let skip = base.distance(to: UnsafeRawPointer(nl)) + 1
                workers[0].overlong(countsHere: shardIndex == 0)
                skippingOverlong = false
                base += skip
                rest -= skip
                continue
            }
            let n = Swift.min(rest, blockSize - filled)
            memcpy(block + filled, base, n)
            filled += n
            base += n
            rest -= n
            if filled == blockSize { try processBlock(final: false) }
        }
    }

    /// Ends the input (a last line without a newline still counts) and returns the summary.
    @discardableResult
    public func finish() throws -> AuditSummary {
        if let finished { return finished }
        try processBlock(final: true)
        if skippingOverlong {
            workers[0].overlong(countsHere: shardIndex == 0)
            skippingOverlong = false
        }
        var summary = workers[0].summary
        for w in workers.dropFirst() { summary.addCounters(of: w.summary) }
        summary.shardCount = shardCount
        summary.shardIndexes = [shardIndex]
        summary.positions = AuditWorker.positions(workers)
        summary.symbols = workers.reduce(into: Set<Unicode.Scalar>()) { $0.formUnion($1.symbols) }
        summary.lengths = workers.reduce(into: [Int: Int]()) { $0.merge($1.lengths, uniquingKeysWith: +) }
        summary.sample = AuditSummary.smallest(workers.flatMap { $0.sample.map { String(decoding: $0, as: UTF8.self) } })
        for w in workers {
            for (f, t) in w.timeBuckets() { try summary.timeFormats[f, default: .init()].add(t) }
        }
        // A node-id layout is the stream's only if it read every id of every worker.
        var nodes: [IDFormat: NodeStats]?
        for w in workers where w.summary.ids > 0 {
            let mine = w.nodeIDs.stats()
            guard var merged = nodes else {
                nodes = mine
                continue
            }
            for f in merged.keys {
                if let n = mine[f] { try merged[f]?.add(n, "node_formats.\(f.rawValue)") } else { merged[f] = nil }
            }
            nodes = merged
        }
        summary.nodeFormats = nodes ?? [:]
        let tables = self.tables
        let results = UnsafeMutablePointer<[Int: [Int: Int]]>.allocate(capacity: tables.count)
        results.initialize(repeating: [:], count: tables.count)
        defer {
            results.deinitialize(count: tables.count)
            results.deallocate()
        }
        try parallel(tables.count) { t in results[t] = try tables[t].multiplicities() }
        var byLength: [Int: [Int: Int]] = [:]
        for t in 0..<tables.count {
            for (length, m) in results[t] { byLength[length, default: [:]].merge(m, uniquingKeysWith: +) }
        }
        summary.multiplicities = byLength.values.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: +) }
        // Groups by length: multiplicities and positions of their own, where every id of the length was
        // tracked (ASCII, at most 4096 symbols, within the tables' budget).
        let positionsByLength = AuditWorker.positionsByLength(workers)
        summary.groups = [:]
        for (length, positions) in positionsByLength where summary.lengths.count <= AuditSummary.groupLengthLimit {
            summary.groups[length] = AuditSummary.Group(multiplicities: byLength[length] ?? [:], positions: positions)
        }
        spillDirectory.remove()
        finished = summary
        return summary
    }
    /// Hands the complete lines in the block to the workers; keeps a partial last line.
    private func processBlock(final: Bool) throws {
        var end = filled  // bytes of complete lines
        if !final {
            var last = filled - 1
            let bytes = block.assumingMemoryBound(to: UInt8.self)
            while last >= 0 && bytes[last] != 0x0A { last -= 1 }
            guard last >= 0 else {
                // No newline in a whole block: the line is longer than any limit allows.
                filled = 0
                skippingOverlong = true
                return
            }
            end = last + 1
        }
        if end > 0 {
            let region = UnsafeRawBufferPointer(start: block, count: end)
            let final = final
            if workers.count == 1 {
                try workers[0].scan(region, final: final)
            } else {
                // Split at the first newline past the middle.
                var split = end
                if end > 4096, let nl = memchr(block + end / 2, 0x0A, end - end / 2) {
                    split = block.distance(to: nl) + 1
                }
                let parts = [
                    UnsafeRawBufferPointer(start: block, count: split),
                    UnsafeRawBufferPointer(start: block + split, count: end - split),
                ]
                let workers = self.workers
                let lastPart = parts[1].count > 0 ? 1 : 0
                try parallel(2) { w in try workers[w].scan(parts[w], final: final && w == lastPart) }
            }
            if let hint = sizeHint {
                // Lines in this block predict the rest: reserve once, before the first fingerprints land.
                sizeHint = nil
                let lines = workers.reduce(0) { $0 + $1.pendingCount }
                if lines > 0 {
                    let expected = Int(Double(hint) / Double(end) * Double(lines) * 1.05) / shardCount
                    for t in tables { t.reserve(expected / tables.count + 1024) }
                }
            }
            try count()
        }
        let tail = filled - end
        if tail > 0 { memmove(block, block + end, tail) }
        filled = tail
        if filled > maxLineBytes + 1 {  // + 1: a trailing CR
            filled = 0
            skippingOverlong = true
        }
    }

    /// Each table takes the fingerprints of its half from every worker.
    private func count() throws {
        let workers = self.workers
        let tables = self.tables
        if tables.count == 1 {
            try workers[0].drain(into: tables[0], part: 0)
            return
        }
        try parallel(2) { t in for w in workers { try w.drain(into: tables[t], part: t) } }
    }
}
