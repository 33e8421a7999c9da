import Foundation
import IDBudget

/// Counts how often each fingerprint occurs, in at most `memoryLimit` bytes whatever the input size.
///
/// One flat open-addressing table (linear probing, load ≤ 0.8) of 16-byte slots: the first word is
/// the fingerprint's high half with its lowest bit set (so an empty slot, 0, is never a fingerprint),
/// the second holds 56 bits of the low half and an 8-bit count (counts past 255 go to a side table).
/// While the table grows, the old one (half the size) is alive too, so its capacity stops where
/// 24 bytes a slot would pass the limit. Past that, every slot is appended to one of 256 partition
/// files chosen by the fingerprint's top 8 bits and the table starts empty again; at the end each
/// partition is counted on its own (a fingerprint always lands in the same partition, so its counts
/// add up exactly). Disk use: 16 bytes per distinct id per spill. When the size hint says the table
/// would spill anyway, fingerprints go to the partitions directly (``reserve(_:)``): 16 bytes per line.
final class FingerprintTable {
    static let partitions = 256

    let memoryLimit: Int
    private let maxCapacity: Int
    private var slots: UnsafeMutablePointer<UInt64>
    private var capacity: Int
    private(set) var count = 0
    private var overflow: [SIMD2<UInt64>: Int] = [:]
    private var spill: SpillFiles?
    /// Fingerprints go straight to the partitions (``reserve(_:)``).
    private var direct = false
    private(set) var peakBytes = 0
    private let spillDirectory: () throws -> URL
    private let name: String

    /// `spillDirectory` is asked for a directory only if the table ever spills.
    init(memoryLimit: Int, name: String, spillDirectory: @escaping () throws -> URL) {
        self.memoryLimit = memoryLimit
        self.name = name
        self.spillDirectory = spillDirectory
        var c = 1 << 12
        while 24 * (2 * c) <= memoryLimit { c *= 2 }
        maxCapacity = c
        capacity = Swift.min(1 << 14, c)
        slots = Self.zeroedSlots(2 * capacity)
        peakBytes = 16 * capacity
    }

    deinit { Self.release(slots, words: 2 * capacity) }

    /// Tables from this size on are mapped on their own, in huge pages where the kernel has them.
    private static let mappedBytes = 4 << 20

    /// `words` zero words. A large table is a fresh anonymous mapping (zero already) marked for
    /// transparent huge pages: an insert lands anywhere in it, so with 4 KiB pages nearly every insert
    /// also misses the TLB, and with 2 MiB pages almost none does; the kernel faults the table in
    /// 2 MiB at a time. Where there are none (or off Linux), plain zeroed memory.
    private static func zeroedSlots(_ words: Int) -> UnsafeMutablePointer<UInt64> {
        #if os(Linux)
            let bytes = words * MemoryLayout<UInt64>.stride
            if bytes >= mappedBytes, let raw = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                raw != UnsafeMutableRawPointer(bitPattern: -1)
            {
                _ = madvise(raw, bytes, 14)  // MADV_HUGEPAGE, which Glibc's module does not export
                return raw.bindMemory(to: UInt64.self, capacity: words)
            }
        #endif
        let p = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
        p.initialize(repeating: 0, count: words)
        return p
    }

    private static func release(_ p: UnsafeMutablePointer<UInt64>, words: Int) {
        #if os(Linux)
            let bytes = words * MemoryLayout<UInt64>.stride
            if bytes >= mappedBytes {
                munmap(p, bytes)
                return
            }
        #endif
        p.deallocate()
    }

    var bytesAllocated: Int { 16 * capacity }
    var spilled: Bool { spill != nil }

    /// Adds `n` fingerprints, (high, low) word pairs: each probed for from its slot (low bits 8 up),
    /// the count in its slot's low byte raised or a new slot taken. The table's fields are in locals (no class access per fingerprint) and each slot loaded `lookahead`
    /// fingerprints before its insert. The table is far larger than the caches, so an insert is a cache
    /// miss; loaded ahead, some 16 of them are in flight at once instead of one after another. Room is
    /// made a chunk at a time: the table grows (or spills) up to a chunk earlier, with the same counts.
    func add(_ words: UnsafePointer<UInt64>, pairs n: Int) throws {
        if direct {
            if spill == nil { spill = try SpillFiles(directory: spillDirectory(), name: name, memoryLimit: memoryLimit) }
            try spill?.write(fingerprints: words, pairs: n)
            return
        }
        let lookahead = 16
        var k = 0
        var sink: UInt64 = 0
        while k < n {
            let end = Swift.min(n, k + 1024)
            while (count + end - k) * 5 >= capacity * 4 { try makeRoom() }
            let slots = self.slots
            let mask = capacity - 1
            var added = 0
            while k < end {
                if k + lookahead < end {
                    sink &+= slots[2 * (Int(truncatingIfNeeded: words[2 * (k + lookahead) + 1] >> 8) & mask)]
                }
                let h = words[2 * k] | 1
                let low = words[2 * k + 1]
                let l = low & ~0xFF
                var i = Int(truncatingIfNeeded: low >> 8) & mask
                while true {
                    let s = slots[2 * i]
                    if s == 0 {
                        slots[2 * i] = h
                        slots[2 * i + 1] = l | 1
                        added += 1
                        break
                    }
                    if s == h {
                        let w = slots[2 * i + 1]
                        if w & ~0xFF == l {
                            if w & 0xFF == 0xFF { overflow[SIMD2(h, l), default: 0] += 1 } else { slots[2 * i + 1] = w + 1 }
                            break
                        }
                    }
                    i = (i + 1) & mask
                }
                k += 1
            }
            count += added
        }
        touched = sink
    }

    /// The sum of the slots ``add(_:pairs:)`` loaded ahead: kept, so the loads are not optimised away.
    private var touched: UInt64 = 0

    /// Adds records read back from a partition, (high, low) word pairs, each with a count 1…255 in
    /// the low byte. The table's fields in locals: no class access per record. false when the table
    /// is full (load 0.9) before every record is in.
    private func addRecords(_ records: UnsafeBufferPointer<UInt64>) -> Bool {
        let slots = self.slots
        let mask = capacity - 1
        let room = capacity / 10 * 9 - count
        var added = 0
        var r = 0
        var sink: UInt64 = 0
        let ahead = 2 * 16  // a partition's table can outgrow the caches too: load slots 16 records ahead
        while r + 1 < records.count {
            if r + ahead + 1 < records.count { sink &+= slots[2 * (Int(truncatingIfNeeded: records[r + ahead + 1] >> 8) & mask)] }
            let h = records[r]
            let w = records[r + 1]
            r += 2
            let l = w & ~0xFF
            var i = Int(truncatingIfNeeded: w >> 8) & mask
            while true {
                let s = slots[2 * i]
                if s == 0 {
                    guard added < room else {
                        count += added
                        return false
                    }
                    slots[2 * i] = h
                    slots[2 * i + 1] = w
                    added += 1
                    break
                }
                if s == h, slots[2 * i + 1] & ~0xFF == l {
                    let total = Int(slots[2 * i + 1] & 0xFF) + Int(w & 0xFF)
                    if total > 0xFF {
                        slots[2 * i + 1] = l | 0xFF
                        overflow[SIMD2(h, l), default: 0] += total - 0xFF
                    } else {
                        slots[2 * i + 1] = l | UInt64(total)
                    }
                    break
                }
                i = (i + 1) & mask
            }
        }
        count += added
        touched &+= sink
        return true
    }

    /// Sizes the table for about `distinct` fingerprints up front (within the limit), so that it does
    /// not hold an old and a new table at once while growing.
    ///
    /// When more are expected than the largest table holds, it would fill, spill and fill again, every
    /// insert a miss in memory far larger than the caches: instead each fingerprint goes straight to
    /// its partition (a sequential append), and each partition is counted at the end in a table that
    /// fits the caches. The counts are the same; a stream of many copies writes one record per line,
    /// not per distinct id.
    func reserve(_ distinct: Int) {
        if distinct * 5 >= maxCapacity * 4 {
            direct = true
            return
        }
        var c = capacity
        while c < maxCapacity && c * 4 < distinct * 5 { c *= 2 }
        if c > capacity { resize(to: c) }
    }

    private func makeRoom() throws {
        if capacity < maxCapacity {
            resize(to: capacity * 2)
        } else {
            try spillAll()
        }
    }

    private func resize(to newCapacity: Int) {
        let old = slots
        let oldCapacity = capacity
        capacity = newCapacity
        slots = Self.zeroedSlots(2 * capacity)
        peakBytes = Swift.max(peakBytes, 16 * (capacity + oldCapacity))
        let mask = capacity - 1
        for j in 0..<oldCapacity where old[2 * j] != 0 {
            var i = Int(truncatingIfNeeded: old[2 * j + 1] >> 8) & mask
            while slots[2 * i] != 0 { i = (i + 1) & mask }
            slots[2 * i] = old[2 * j]
            slots[2 * i + 1] = old[2 * j + 1]
        }
        Self.release(old, words: 2 * oldCapacity)
    }

    private func spillAll() throws {
        if spill == nil { spill = try SpillFiles(directory: spillDirectory(), name: name, memoryLimit: memoryLimit) }
        guard let spill else { return }
        let slots = self.slots
        for j in 0..<capacity where slots[2 * j] != 0 {
            let h = slots[2 * j]
            let w = slots[2 * j + 1]
            try spill.write(h, w)
            // Only a full count byte has more in the side table.
            if w & 0xFF == 0xFF, var extra = overflow[SIMD2(h, w & ~0xFF)] {
                while extra > 0 {
                    let c = Swift.min(extra, 0xFF)
                    try spill.write(h, (w & ~0xFF) | UInt64(c))
                    extra -= c
                }
            }
        }
        slots.update(repeating: 0, count: 2 * capacity)
        overflow.removeAll()
        count = 0
    }

    /// Bits 1…16 of a fingerprint's high word carry the id's length (``lengthKey(_:)``), so the counts
    /// come out per length: which ids collide is decided by the other 111 bits.
    static let lengthShift: UInt64 = 1
    static let lengthMask: UInt64 = 0xFFFF

    /// The high word with the length (capped at 65,535) in bits 1…16.
    @inline(__always)
    static func keyed(_ high: UInt64, length: Int) -> UInt64 {
        (high & ~(lengthMask << lengthShift)) | (UInt64(Swift.min(length, Int(lengthMask))) << lengthShift)
    }

    /// Per length, how many distinct fingerprints occur exactly m times, for every m. Ends the table's use.
    func multiplicities() throws -> [Int: [Int: Int]] {
        guard let spill else { return histogram() }
        try spillAll()
        try spill.finish()
        var total: [Int: [Int: Int]] = [:]
        for p in 0..<Self.partitions {
            let records = spill.records(in: p)
            if records == 0 { continue }
            // Sized for its records (distinct ones, or lines when they came directly), at most what
            // the limit holds: records that repeat share a slot, so only distinct ones past it fail.
            var c = 1 << 12
            while c * 4 < records * 5 && 16 * (2 * c) <= memoryLimit { c *= 2 }
            Self.release(slots, words: 2 * capacity)
            capacity = c
            slots = Self.zeroedSlots(2 * c)
            peakBytes = Swift.max(peakBytes, 16 * c)
            count = 0
            overflow.removeAll()
            var full = false
            try spill.read(partition: p) { records in if !full { full = !self.addRecords(records) } }
            if full {
                throw AuditError(
                    "one partition holds more distinct ids than the memory limit holds (\(records) records); give a larger memory limit")
            }
            for (length, h) in histogram() { total[length, default: [:]].merge(h, uniquingKeysWith: +) }
        }
        spill.remove()
        return total
    }

    private func histogram() -> [Int: [Int: Int]] {
        // Counts below 255 in one flat row of 256 per length seen, found by direct index.
        let rowOf = UnsafeMutablePointer<Int32>.allocate(capacity: Int(Self.lengthMask) + 1)
        rowOf.initialize(repeating: -1, count: Int(Self.lengthMask) + 1)
        defer { rowOf.deallocate() }
        var lengths: [Int] = []
        var flat = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        flat.initialize(repeating: 0, count: 256)
        defer { flat.deallocate() }
        var h: [Int: [Int: Int]] = [:]
        for j in 0..<capacity where slots[2 * j] != 0 {
            let length = Int((slots[2 * j] >> Self.lengthShift) & Self.lengthMask)
            let c = Int(slots[2 * j + 1] & 0xFF)
            if c < 0xFF {
                var r = Int(rowOf[length])
                if r < 0 {
                    r = lengths.count
                    rowOf[length] = Int32(r)
                    lengths.append(length)
                    if r > 0 {
                        let bigger = UnsafeMutablePointer<Int>.allocate(capacity: 256 * (r + 1))
                        bigger.update(from: flat, count: 256 * r)
                        (bigger + 256 * r).initialize(repeating: 0, count: 256)
                        flat.deallocate()
                        flat = bigger
                    }
                }
                flat[r &* 256 &+ c] &+= 1
                continue
            }
            h[length, default: [:]][0xFF + (overflow[SIMD2(slots[2 * j], slots[2 * j + 1] & ~0xFF)] ?? 0), default: 0] += 1
        }
        for (r, length) in lengths.enumerated() {
            for m in 0..<256 where flat[r * 256 + m] > 0 { h[length, default: [:]][m, default: 0] += flat[r * 256 + m] }
        }
        return h
    }
}

/// An audit could not use its spill files (a full disk, say).
public struct AuditError: Error, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// 256 append-only files of 16-byte records, with a write buffer each: one flat block of raw
/// memory, so an append is a store and a bump (no array in an array to check).
private final class SpillFiles {
    private let directory: URL
    private let name: String
    private let fds: UnsafeMutablePointer<Int32>
    /// Partition p's buffer: `bufferWords` words from `buffer + p * bufferWords`; `fill[p]` used.
    private let buffer: UnsafeMutablePointer<UInt64>
    private let fill: UnsafeMutablePointer<Int>
    private let counts: UnsafeMutablePointer<Int>
    private let bufferWords: Int

    /// The buffers take at most an eighth of the table's `memoryLimit`: from 64 records a partition
    /// (256 KiB in all) to 2,048 (8 MiB), so many threads' tables under a small limit stay within it.
    init(directory: URL, name: String, memoryLimit: Int) throws {
        self.directory = directory
        self.name = name
        let n = FingerprintTable.partitions
        bufferWords = 2 * Swift.max(64, Swift.min(2048, memoryLimit / 8 / n / 16))
        fds = .allocate(capacity: n)
        fds.initialize(repeating: -1, count: n)
        buffer = .allocate(capacity: n * bufferWords)
        fill = .allocate(capacity: n)
        fill.initialize(repeating: 0, count: n)
        counts = .allocate(capacity: n)
        counts.initialize(repeating: 0, count: n)
    }

    private func path(_ p: Int) -> String { directory.appendingPathComponent("\(name)-\(p)").path }

    @inline(__always)
    func write(_ h: UInt64, _ w: UInt64) throws {
        let p = Int(truncatingIfNeeded: h >> 56)
        let at = buffer + (p &* bufferWords &+ fill[p])
        at[0] = h
        at[1] = w
        fill[p] &+= 2
        counts[p] &+= 1
        if fill[p] == bufferWords { try flush(p) }
    }

    /// Appends fingerprints as they come from the workers, (high, low) pairs, each as a record of
    /// count 1: the high word's lowest bit set and the low word's low byte 1 (``FingerprintTable``'s slots).
    func write(fingerprints words: UnsafePointer<UInt64>, pairs n: Int) throws {
        for k in 0..<n {
            try write(words[2 * k] | 1, words[2 * k + 1] & ~0xFF | 1)
        }
    }

    private func flush(_ p: Int) throws {
        let used = fill[p]
        if used == 0 { return }
        if fds[p] < 0 {
            fds[p] = open(path(p), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fds[p] >= 0 else {
                throw AuditError(
                    "cannot create a spill file in \(directory.path): \(String(cString: strerror(errno))); set TMPDIR to a writable directory"
                )
            }
        }
        let raw = UnsafeRawPointer(buffer + p * bufferWords)
        let bytes = used * 8
        var offset = 0
        while offset < bytes {
            let n = Foundation.write(fds[p], raw + offset, bytes - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw AuditError("cannot write a spill file in \(directory.path): \(String(cString: strerror(errno)))")
            }
            offset += n
        }
        fill[p] = 0
    }

    func finish() throws {
        for p in 0..<FingerprintTable.partitions {
            try flush(p)
            if fds[p] >= 0 {
                close(fds[p])
                fds[p] = -1
            }
        }
    }

    func records(in p: Int) -> Int { counts[p] }

    /// Partition p's records, a chunk of whole (high, low) pairs at a time; then the file is gone.
    func read(partition p: Int, _ body: (UnsafeBufferPointer<UInt64>) -> Void) throws {
        let fd = open(path(p), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AuditError("cannot read a spill file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let chunk = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 1 << 16)
        defer { chunk.deallocate() }
        guard let base = chunk.baseAddress else { return }
        var pending = 0  // bytes carried over
        while true {
            let n = Foundation.read(fd, UnsafeMutableRawPointer(base) + pending, chunk.count * 8 - pending)
            if n < 0 {
                if errno == EINTR { continue }
                throw AuditError("cannot read a spill file: \(String(cString: strerror(errno)))")
            }
            let bytes = pending + n
            let whole = bytes / 16
            body(UnsafeBufferPointer(start: base, count: 2 * whole))
            pending = bytes - 16 * whole
            if pending > 0 { memmove(base, UnsafeRawPointer(base) + 16 * whole, pending) }
            if n == 0 { break }
        }
        unlink(path(p))
    }

    func remove() {
        for p in 0..<FingerprintTable.partitions { unlink(path(p)) }
    }

    deinit {
        for p in 0..<FingerprintTable.partitions where fds[p] >= 0 { close(fds[p]) }
        fds.deallocate()
        buffer.deallocate()
        fill.deallocate()
        counts.deallocate()
    }
}
