internal import CTokens

/// How a generator keeps a forked child from handing out what its parent already handed out (or will).
///
/// Everything derived from the keystream — the key, buffered keystream, the raw pool, sampled
/// symbols — lives in a ``StateRegion``. With `MADV_WIPEONFORK` (Linux ≥ 4.14) the kernel zeroes those
/// pages in the child, and zeroed state reads as "empty, unseeded". Where the kernel refuses the flag,
/// a `pthread_atfork` child handler advances a fork epoch, every use compares the region's stamp with
/// it, and the keystream also compares the process id at each 4 KiB refill.
enum ForkProtection {
    /// Wipe-on-fork pages where the kernel has them, the fork epoch otherwise.
    case automatic
    /// As if the kernel lacked `MADV_WIPEONFORK`: the fork epoch alone (tests the fallback).
    case forkEpoch
    /// None: a forked child replays its parent. Only for seeded streams and for the tests' controls.
    case none
}

/// Private pages for generator state, erased when released and excluded from core dumps.
///
/// The first 64 bytes are the region's header (the fork-epoch stamp); callers use the rest.
final class StateRegion {
    static let headerBytes = 64
    let base: UnsafeMutableRawPointer
    let byteCount: Int
    /// The kernel zeroes these pages in a forked child.
    let wipesOnFork: Bool
    /// Forks are detected by comparing the stamp with the fork epoch.
    let checksEpoch: Bool

    init(bytes: Int, protection: ForkProtection) {
        let page = 4096
        byteCount = (Self.headerBytes + bytes + page - 1) / page * page
        if protection != .none { idt_watch_forks() }
        var wipes: Int32 = 0
        guard let p = idt_map_private(byteCount, protection == .automatic ? 1 : 0, &wipes) else {
            // mmap only fails when the process is out of address space or memory.
            fatalError("idbudget: cannot map \(byteCount) bytes for generator state")
        }
        base = p
        wipesOnFork = wipes != 0
        checksEpoch = protection != .none && !wipesOnFork
        stamp()
    }

    deinit { idt_unmap(base, byteCount) }

    /// Where the caller's bytes start.
    var body: UnsafeMutableRawPointer { base + Self.headerBytes }

    /// Whether this state was inherited through a fork it has not yet been told about (epoch mode only;
    /// wiped pages need no check, they simply read as empty).
    @inline(__always)
    var inherited: Bool {
        checksEpoch && base.load(as: UInt.self) != idt_fork_epoch()
    }

    /// Marks the state as belonging to this process.
    func stamp() { base.storeBytes(of: idt_fork_epoch(), as: UInt.self) }

    /// Zeroes `count` bytes at `offset` into the body.
    func erase(offset: Int, count: Int) { idt_erase(body + offset, count) }
}
