import Dispatch
import Foundation
import IDBudget
import Synchronization

/// Streams identifiers, one per line, into an ``AuditSummary``.
///
/// Feed it raw chunks with ``consume(_:)`` and call ``finish()`` at the end. Lines are gathered into
/// 1 MiB blocks; each block is split at newlines among the workers (one a thread), which classify the
/// lines, count lengths, symbols, positions and time buckets, and fingerprint the ids; then each
/// thread counts the fingerprints of its share of the fingerprint space in its own table. Every count
/// is a sum, and what depends on order (node ids' clock regressions) is stitched across the parts in
/// input order, so the summary is the same for any number of threads. Memory: the tables stay
/// within `memoryLimit` (see `FingerprintTable`: past it they spill to temporary files and finish
/// partition by partition, with exact results), plus the block, the time-bucket maps (at most
/// 2^20 buckets a format) and small counters. A line costs time in proportion to its bytes.
public final class Auditor {
    public let maxLineBytes: Int
    public let shardIndex: Int
    public let shardCount: Int
    public let memoryLimit: Int

    private let blockSize: Int
    /// The block being filled, and the one the workers read: the next block fills while the last is
    /// counted (``processBlock(final:)``), so reading the input costs the workers no time.
    private var block: UnsafeMutableRawPointer
    private var spare: UnsafeMutableRawPointer
    /// Counts one block at a time, in input order.
    private let pipeline = DispatchQueue(label: "idbudget.audit.block")
    private let inFlight = DispatchGroup()
    /// What the block being counted threw, rethrown at the next wait.
    private let failure = Mutex<(any Error)?>(nil)
    /// Lines of the blocks counted so far, for progress displays while one is counted.
    private let linesCounted = Atomic<Int>(0)
    private var filled = 0
    private var skippingOverlong = false
    private var workers: [AuditWorker]
    private var tables: [FingerprintTable]
    private let spillDirectory: SpillDirectory
    public private(set) var bytesRead = 0
    private var finished: AuditSummary?
    private var sizeHint: Int?
    /// Per node-id format: each node's latest key so far (in input order), and the regressions found
    /// between one part and the next.
    /// Whether the input's first bytes are still to come.
    private var atStart = true
    /// The declared node-id format's reader, never stopped.
    private let keepReading: Int?
    private var nodeLast = [[UInt64: NodeTally.Key]](repeating: [:], count: NodeStats.formats.count)
    private var nodeBetween = [Int](repeating: 0, count: NodeStats.formats.count)

    /// The time the ids are read at (see ``init(maxLineBytes:shard:memoryLimit:threads:sizeHint:declared:now:)``).
    public let now: Date

    /// The most worker threads taken.
    public static let maxThreads = 64

    /// The worker threads this audit runs on: the threads asked for, fewer when the memory limit
    /// cannot pay for them.
    public var threads: Int { workers.count }

    /// Removes the spill files of every audit in this process: for a front end's signal handler,
    /// which ends the process without the auditors' deinit (exits remove them by themselves).
    public static func removeSpillFiles() { SpillDirectory.removeAll() }

    /// - Parameters:
    ///   - maxLineBytes: longer lines (after a trailing CR) are counted as overlong and skipped.
    ///   - shard: audit only the ids whose fingerprint falls in shard `index` of `count` (0-based);
    ///     other lines (empty, overlong, …) are counted by shard 0.
    ///   - memoryLimit: bytes for the whole audit (default 1 GiB): the tables get it less 40 MiB.
    ///   - threads: worker threads, 1 to ``maxThreads`` (default: the cores this process may run on).
    ///   - sizeHint: the input's size in bytes, when known: the tables are sized for it from the first
    ///     block's line lengths.
    ///   - declared: the shape the ids are declared to have (`idbudget audit --scheme`): its lines are
    ///     counted one by one (``DeclaredLines``), and a declared node-id format is read to the end
    ///     however many lines it misses, so every invalid line is counted.
    ///   - now: the time the ids are read at: a timestamp more than a day past it is no generator's
    ///     (default: the clock when the auditor is made; pass one for an answer that does not move).
    /// - Throws: `InputError` for what `idbudget audit` would refuse: `maxLineBytes` outside
    ///   1…16,777,216, a shard index outside 0..<count, a memory limit under 1 MiB, threads outside
    ///   1…``maxThreads``.
    public init(
        maxLineBytes: Int = 4096, shard: (index: Int, count: Int) = (0, 1), memoryLimit: Int = 1 << 30,
        threads: Int? = nil, sizeHint: Int? = nil, declared: DeclaredShape? = nil, now: Date = Date()
    ) throws(InputError) {
        self.now = now
        guard maxLineBytes >= 1, maxLineBytes <= 1 << 24 else {
            throw InputError("maxLineBytes must be from 1 to 16777216, got \(maxLineBytes)")
        }
        guard shard.count >= 1, shard.index >= 0, shard.index < shard.count else {
            throw InputError("a shard index must be in 0..<count with count ≥ 1, got \(shard.index) of \(shard.count)")
        }
        guard memoryLimit >= 1 << 20 else { throw InputError("memoryLimit must be at least 1 MiB (1048576), got \(memoryLimit)") }
        if let threads, threads < 1 || threads > Self.maxThreads {
            throw InputError("threads must be from 1 to \(Self.maxThreads), got \(threads)")
        }
        self.sizeHint = sizeHint
        keepReading = declared?.scheme.flatMap { NodeTally.index[$0] }
        self.maxLineBytes = maxLineBytes
        shardIndex = shard.index
        shardCount = Swift.max(1, shard.count)
        self.memoryLimit = memoryLimit
        // Room for the longest line and a read's worth more (a partial line is at most maxLineBytes + 3).
        blockSize = Swift.max(1 << 20, maxLineBytes + 4 + (1 << 20))
        block = .allocate(byteCount: blockSize, alignment: 64)
        spare = .allocate(byteCount: blockSize, alignment: 64)
        // A thread costs about a MiB besides its table (its counters, its pending fingerprints, its
        // spill buffers, its stack): no more threads than the limit pays for past the fixed 40 MiB.
        let affordable = Swift.max(1, (memoryLimit - (40 << 20)) / (1 << 20))
        let n = Swift.min(Self.maxThreads, affordable, Swift.max(1, threads ?? Cores.usable))
        workers = (0..<n).map { _ in
            AuditWorker(
                maxLineBytes: maxLineBytes, shardIndex: shard.index, shardCount: Swift.max(1, shard.count), tables: n,
                matcher: declared.flatMap { ShapeMatcher($0, now: now.unixMilliseconds) }, now: now.unixMilliseconds)
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
        inFlight.wait()
        block.deallocate()
        spare.deallocate()
        spillDirectory.remove()
    }

    /// Whether ``finish()`` has run.
    var hasFinished: Bool { finished != nil }

    /// Lines counted so far (for progress displays: the block being counted is not in it yet).
    public var lines: Int { linesCounted.load(ordering: .relaxed) }
    /// Bytes the fingerprint tables hold now, and at most so far.
    public var tableBytes: Int { tables.reduce(0) { $0 + $1.bytesAllocated } }
    public var peakTableBytes: Int { tables.reduce(0) { $0 + $1.peakBytes } }
    public var spilled: Bool { tables.contains { $0.spilled } }

    /// Consumes a chunk of input; lines may span chunks. A UTF-8 byte-order mark that opens the
    /// input (Windows tools write one) is not part of the first id.
    public func consume(_ chunk: UnsafeRawBufferPointer) throws {
        bytesRead += chunk.count
        var chunk = chunk
        if atStart, !chunk.isEmpty {
            if chunk.count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF {
                chunk = UnsafeRawBufferPointer(rebasing: chunk[3...])
            }
            atStart = false
        }
        guard var base = chunk.baseAddress else { return }
        var rest = chunk.count
        while rest > 0 {
            if skippingOverlong {
                // Inside a line already known to be too long: drop bytes up to its newline.
                guard let nl = memchr(base, 0x0A, rest) else { return }
                let skip = base.distance(to: UnsafeRawPointer(nl)) + 1
                try waitForBlock()
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
        try waitForBlock()
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
        if (summary.timeFormats[.ksuid]?.ids ?? 0) > 0 {
            summary.ksuidPayloadBits = (0..<AuditSummary.ksuidPayloadBitCount).map { i in workers.reduce(0) { $0 + $1.ksuidBits[i] } }
        }
        // A node-id layout is the stream's only if no worker stopped reading it.
        summary.nodeFormats = try NodeTally.merged(workers.map(\.nodeIDs), between: nodeBetween)
        summary.declared = workers[0].matcher.map {
            DeclaredLines(
                shape: $0.name, lines: workers.reduce(0) { $0 + $1.matched },
                linesOtherCase: workers.reduce(0) { $0 + $1.matchedOtherCase },
                otherLength: workers.reduce(0) { $0 + $1.otherLength }, otherSymbols: workers.reduce(0) { $0 + $1.otherSymbols })
        }
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
    /// Hands the complete lines in the block to the workers; keeps a partial last line. The block is
    /// counted on the pipeline while the caller goes on reading into the spare one (its partial last
    /// line moved there); the last block (`final`) is counted before this returns. A block waits for
    /// the one before it, so blocks are counted one at a time and in input order.
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
        try waitForBlock()
        let full = block
        let tail = filled - end
        // The partial last line starts the next block.
        if tail > 0 { memcpy(spare, full + end, tail) }
        block = spare
        spare = full
        filled = tail
        if filled > maxLineBytes + 3 {  // + 3: a trailing CR, and a JSON string's quotes
            filled = 0
            skippingOverlong = true
        }
        guard end > 0 else { return }
        let region = UnsafeRawBufferPointer(start: full, count: end)
        if final {
            try countBlock(region, final: true)
            return
        }
        inFlight.enter()
        let job = BlockJob(auditor: self, region: region)
        pipeline.async {
            defer { job.auditor.inFlight.leave() }
            do { try job.auditor.countBlock(job.region, final: false) } catch { job.auditor.failure.withLock { $0 = $0 ?? error } }
        }
    }

    /// A block and its auditor, handed to the pipeline. Not shared while it runs: the caller touches
    /// neither the block nor the workers and tables again before it waits (``waitForBlock()``).
    private struct BlockJob: @unchecked Sendable {
        let auditor: Auditor
        let region: UnsafeRawBufferPointer
    }

    /// Waits for the block being counted; throws what counting it threw.
    private func waitForBlock() throws {
        inFlight.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// The workers read the block's complete lines, a part each, then the tables count their fingerprints.
    private func countBlock(_ region: UnsafeRawBufferPointer, final: Bool) throws {
        let end = region.count
        guard let start = region.baseAddress else { return }
        let block = UnsafeMutableRawPointer(mutating: start)
        for w in workers { w.nodeIDs.beginPart() }
        if workers.count == 1 {
            try workers[0].scan(region, final: final)
        } else {
            // Split at the first newline past each n-th of the block (a small block stays whole).
            let n = workers.count
            var bounds = [0]
            for k in 1..<n {
                let previous = bounds[k - 1]
                let target = Swift.max(previous, k * end / n)
                if end <= 4096 || target >= end {
                    bounds.append(end)
                } else if let nl = memchr(block + target, 0x0A, end - target) {
                    bounds.append(block.distance(to: nl) + 1)
                } else {
                    bounds.append(end)
                }
            }
            bounds.append(end)
            let parts = (0..<n).map { UnsafeRawBufferPointer(start: block + bounds[$0], count: bounds[$0 + 1] - bounds[$0]) }
            let workers = self.workers
            let lastPart = parts.lastIndex { $0.count > 0 } ?? 0
            try parallel(n) { w in try workers[w].scan(parts[w], final: final && w == lastPart) }
        }
        stitchNodeIDs()
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
        linesCounted.store(workers.reduce(0) { $0 + $1.summary.lines }, ordering: .relaxed)
    }

    /// Each table takes the fingerprints of its share from every worker.
    private func count() throws {
        let workers = self.workers
        let tables = self.tables
        if tables.count == 1 {
            try workers[0].drain(into: tables[0], part: 0)
            return
        }
        try parallel(tables.count) { t in for w in workers { try w.drain(into: tables[t], part: t) } }
    }

    /// After a block: the node ids' regressions from one part to the next, in input order (worker w
    /// read part w), then the formats whose misses, over every worker, passed 1,000 and outnumber the
    /// ids they read stop reading — decided on the whole block's counts, the same for any threads.
    /// Misses merely past a thousandth of the lines so far keep a format reading: the tolerance is the
    /// whole stream's (``AuditAnalysis/strayTolerance(_:)``), and 1,100 strays at the front of 1.5
    /// million Snowflakes are within it though not within the first block's thousandth.
    private func stitchNodeIDs() {
        for w in workers {
            let edges = w.nodeIDs.endPart()
            for i in nodeLast.indices where !edges.first[i].isEmpty {
                for (node, key) in edges.first[i] {
                    if let previous = nodeLast[i][node], key < previous { nodeBetween[i] += 1 }
                }
                for (node, key) in edges.last[i] where nodeLast[i][node] != nil || nodeLast[i].count < NodeStats.nodeLimit {
                    nodeLast[i][node] = key
                }
            }
        }
        for i in nodeLast.indices where workers[0].nodeIDs.readers[i].alive && i != keepReading {
            let misses = workers.reduce(0) { $0 + $1.nodeIDs.readers[i].misses }
            let ids = workers.reduce(0) { $0 + $1.nodeIDs.readers[i].stats.ids }
            if misses > 1000 && misses > ids {
                for w in workers { w.nodeIDs.stop(i) }
                nodeLast[i] = [:]
            }
        }
    }
}
