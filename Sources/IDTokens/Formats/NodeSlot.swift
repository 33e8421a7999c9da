internal import CTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One node-id identity of this process — xid's machine id and pid, ObjectId's process value, the
/// node of a Snowflake-family or TSID format — with the tick and sequence its ids have reached.
///
/// **One process, one identity.** Every generator of a format (and epoch, and assigned node) in a
/// process mints through the same slot (``ProcessNodes``), as rs/xid keeps one counter per process
/// and the MongoDB drivers one process value: a generator reserves its ids' sequence numbers with one
/// compare-and-swap on the slot's word (`fill` reserves a block at a time), so no two generators of a
/// process, on any threads, mint the same id. A node drawn per generator instead let two xid
/// generators share machine, pid and second, and two Snowflake generators share a 10-bit node.
///
/// **After a fork** the child draws the slot's node again (never the one its parent drew) and starts
/// its ticks afresh: the slot's pages are wiped in the child (`MADV_WIPEONFORK`), or, where the kernel
/// lacks wipe-on-fork, each use compares the process id with the one that drew the node. An xid
/// child takes its own pid; an assigned node stays the same (it belongs to one process: a child
/// minting with it mints its parent's ids).
final class NodeSlot: @unchecked Sendable {
    // @unchecked: the words are read and written only with atomic operations, or under the slot's
    // lock (`previousNode`, the node's draw).
    let format: IDFormat
    let assignedNode: UInt64?
    let machineID: UInt64
    /// Ids per tick (a power of two): the sequence's range.
    let perTick: UInt64
    private let sequenceBits: UInt64
    private let region: StateRegion
    /// [0] (the last id's tick + 1) << sequenceBits | its sequence, 0 before the first id; [1] the
    /// node + 1, 0 until drawn (and in a forked child); [2] the counter start (xid, ObjectId); [3] the
    /// draw's lock; [4] the pid that drew the node.
    private let words: UnsafeMutablePointer<UInt64>
    /// Each use compares the pid (pages not wiped on fork).
    private let checksPID: Bool
    /// The node drawn last, kept in ordinary memory a fork copies: a child draws another.
    private var previousNode: UInt64?

    /// The process's slot for its key (``ProcessNodes``), not a test's private one.
    let shared: Bool

    init(format: IDFormat, assignedNode: UInt64?, machineID: UInt64, shared: Bool) {
        self.shared = shared
        self.format = format
        self.assignedNode = assignedNode
        self.machineID = machineID
        perTick = UInt64(format.node?.perTick ?? 1)
        sequenceBits = UInt64(perTick.trailingZeroBitCount)
        region = StateRegion(bytes: 64, protection: .automatic)
        words = region.body.assumingMemoryBound(to: UInt64.self)
        checksPID = !region.wipesOnFork
    }

    /// The ids one reservation may mint: `count` consecutive sequences from `sequence` in `tick`,
    /// with the node and counter start they carry.
    struct Reservation {
        var tick: UInt64
        var sequence: UInt64
        var count: UInt64
        var node: UInt64
        var counterStart: UInt64
    }

    /// Reserves up to `count` ids at tick `now`, or past the last id's tick when the clock is behind
    /// it: the next sequences of that tick, from `start` in a new tick; when the tick is used up, the
    /// next tick (ahead of the clock). At the `last` tick used up: nil when `checked`, else its
    /// greatest sequence again (one id).
    @inline(__always)
    func reserve(now: UInt64, count: UInt64, last: UInt64, checked: Bool, start: UInt64, keystream: Keystream) -> Reservation? {
        if _slowPath(idt_atomic_load(words + 1) == 0 || (checksPID && words[4] != UInt64(UInt32(bitPattern: getpid())))) {
            draw(keystream)
        }
        var old = idt_atomic_load(words)
        while true {
            let next = old >> sequenceBits
            var tick = now
            var first = start
            if next != 0 && tick < next {
                tick = next - 1
                first = (old & (perTick - 1)) + 1
                if first >= perTick {
                    if _slowPath(tick == last) {
                        if checked { return nil }
                        return Reservation(
                            tick: last, sequence: perTick - 1, count: 1, node: idt_atomic_load(words + 1) &- 1, counterStart: words[2])
                    }
                    tick += 1
                    first = start
                }
            }
            let n = Swift.min(count, perTick - first)
            if idt_atomic_cas(words, &old, (tick + 1) << sequenceBits | (first + n - 1)) != 0 {
                return Reservation(tick: tick, sequence: first, count: n, node: idt_atomic_load(words + 1) &- 1, counterStart: words[2])
            }
        }
    }

    /// The last id's tick + 1, 0 before the first id.
    var nextTick: UInt64 { idt_atomic_load(words) >> sequenceBits }

    /// Draws the node (and xid's and ObjectId's counter start) where none is drawn for this process.
    @inline(never)
    private func draw(_ keystream: Keystream) {
        ProcessNodes.lock(words + 3)
        defer { ProcessNodes.unlock(words + 3) }
        let pid = UInt64(UInt32(bitPattern: getpid()))
        if idt_atomic_load(words + 1) != 0 && (!checksPID || words[4] == pid) { return }  // another thread drew it
        var node: UInt64
        if let assignedNode {
            node = assignedNode
        } else if format == .xid {
            node = machineID << 16 | pid & 0xFFFF
        } else {
            let mask: UInt64 = (1 << UInt64(format.nodeBits ?? 0)) - 1
            repeat { node = keystream.next() & mask } while node == previousNode
        }
        previousNode = node
        words[2] = keystream.next() & 0xFF_FFFF
        words[4] = pid
        idt_atomic_store(words, 0)
        idt_atomic_store(words + 1, node + 1)
    }

    /// Tests only: a private slot in the state `other` is in.
    func duplicate() -> NodeSlot {
        let copy = NodeSlot(format: format, assignedNode: assignedNode, machineID: machineID, shared: false)
        for i in 0..<5 where i != 3 { copy.words[i] = words[i] }
        copy.previousNode = previousNode
        return copy
    }

    /// Tests only: as if the last id were at `tick` with `sequence`, the counter starting at `counterStart`.
    func setLast(tick: UInt64, sequence: UInt64, counterStart: UInt64) {
        idt_atomic_store(words, (tick + 1) << sequenceBits | sequence)
        words[2] = counterStart
    }
}

/// The process's node slots, one per format, epoch and assigned node (a drawn node is one per format
/// and epoch). Kept for the life of the process: a generator made after another one of the same key
/// went away goes on from its tick and sequence, so it cannot mint that one's ids again.
enum ProcessNodes {
    struct Key: Hashable {
        var format: IDFormat
        var epoch: UInt64
        var node: UInt64?
    }

    private final class Table {
        var slots: [Key: NodeSlot] = [:]
    }

    nonisolated(unsafe) private static let lockWord: UnsafeMutablePointer<UInt64> = {
        let p = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        p.initialize(to: 0)
        return p
    }()
    nonisolated(unsafe) private static var table = Table()

    /// The slot for `format`, `epoch` and `node` (nil: drawn at random), made on first use.
    static func slot(_ format: IDFormat, epoch: UInt64, node: UInt64?, machineID: UInt64) -> NodeSlot {
        if lock(lockWord) {
            // Taken from a thread of the process this one was forked from: the table may be half
            // written. Leave it (never freed) and start another.
            _ = Unmanaged.passRetained(table)
            table = Table()
        }
        defer { unlock(lockWord) }
        let key = Key(format: format, epoch: epoch, node: node)
        if let slot = table.slots[key] { return slot }
        let slot = NodeSlot(format: format, assignedNode: node, machineID: machineID, shared: true)
        table.slots[key] = slot
        return slot
    }

    /// Takes the lock in `word`, which holds its holder's pid (0: free). A pid other than this
    /// process's is a holder that is not here (a fork while a thread of the parent held it): the lock
    /// is taken over, and true returned, as what it guards may be half written.
    @discardableResult
    static func lock(_ word: UnsafeMutablePointer<UInt64>) -> Bool {
        let me = UInt64(UInt32(bitPattern: getpid()))
        while true {
            var held = idt_atomic_load(word)
            if held == 0 {
                if idt_atomic_cas(word, &held, me) != 0 { return false }
            } else if held != me {
                if idt_atomic_cas(word, &held, me) != 0 { return true }
            } else {
                sched_yield()
            }
        }
    }

    static func unlock(_ word: UnsafeMutablePointer<UInt64>) { idt_atomic_store(word, 0) }
}
