internal import CTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a generator keeps a forked child from handing out what its parent already handed out (or will).
///
/// Everything derived from the keystream — the key, buffered keystream, the raw pool, sampled
/// symbols — lives in a ``StateRegion``. With `MADV_WIPEONFORK` (Linux ≥ 4.14) the kernel zeroes those
/// pages in the child, and zeroed state reads as "empty, unseeded". Where the kernel refuses the flag
/// (or `IDTOKENS_NO_WIPEONFORK=1` turns it off), every draw first claims the state through a word in
/// memory shared with forked children (``StateRegion/inherited``): after a fork, however it was made
/// (`fork()`, a raw `syscall(SYS_fork)` that runs no `pthread_atfork` handler, `clone`), whichever of
/// parent and child draws first keeps the state and the other finds it inherited and starts afresh.
/// The portable build (every system but Linux, or `-DIDTOKENS_PORTABLE`) never has wipe-on-fork, so it
/// always claims; its `pthread_atfork` child handler also advances a fork generation, so after an
/// ordinary `fork()` the child is the one that starts afresh, before it claims anything.
enum ForkProtection {
    /// Wipe-on-fork pages where the kernel has them, the ownership claim otherwise.
    case automatic
    /// As if the kernel lacked `MADV_WIPEONFORK`: the ownership claim alone (tests the fallback; named
    /// for the fork epoch that the claim replaced).
    case forkEpoch
    /// None: a forked child replays its parent. Only for seeded streams and for the tests' controls.
    case none

    /// `IDTOKENS_NO_WIPEONFORK=1` (any value but empty or 0): take the fallback even where the kernel
    /// has wipe-on-fork, to measure or test it from the shell.
    static let wipeOnForkDisabled: Bool = {
        guard let v = getenv("IDTOKENS_NO_WIPEONFORK") else { return false }
        return v.pointee != 0 && String(cString: v) != "0"
    }()
}

/// Private pages for generator state, erased when released and excluded from core dumps.
///
/// The first 64 bytes are the region's header (this process's copy of the ownership word, and the fork
/// generation it was stamped in); callers use the rest.
final class StateRegion {
    static let headerBytes = 64
    static let pageBytes = 4096
    let base: UnsafeMutableRawPointer
    let byteCount: Int
    /// The kernel zeroes these pages in a forked child.
    let wipesOnFork: Bool
    /// Forks are detected by claiming the state before each use (no wipe-on-fork).
    let claimsEachUse: Bool
    /// When `claimsEachUse`: a word in a page shared with forked children, advanced by every claim; the
    /// header holds this process's copy. Otherwise unused (it points at the header).
    private var owner: UnsafeMutablePointer<UInt64>
    private var mine: UnsafeMutablePointer<UInt64> { base.assumingMemoryBound(to: UInt64.self) }
    /// The value of `idt_fork_generation()` when this process took the state (portable path; always 0
    /// on the Linux path).
    private var generation: UnsafeMutablePointer<UInt64> { (base + 8).assumingMemoryBound(to: UInt64.self) }

    init(bytes: Int, protection: ForkProtection) {
        byteCount = (Self.headerBytes + bytes + Self.pageBytes - 1) / Self.pageBytes * Self.pageBytes
        var wipes: Int32 = 0
        let tryWipe = protection == .automatic && !ForkProtection.wipeOnForkDisabled
        guard let p = idt_map_private(byteCount, tryWipe ? 1 : 0, &wipes) else {
            // mmap only fails when the process is out of address space or memory.
            fatalError("idbudget: cannot map \(byteCount) bytes for generator state")
        }
        base = p
        wipesOnFork = wipes != 0
        claimsEachUse = protection != .none && !wipesOnFork
        owner = p.assumingMemoryBound(to: UInt64.self)
        if claimsEachUse {
            owner = Self.mapOwner()
            generation.pointee = idt_fork_generation()
        }
    }

    deinit {
        if claimsEachUse { idt_unmap_shared(owner, Self.pageBytes) }
        idt_unmap(base, byteCount)
    }

    private static func mapOwner() -> UnsafeMutablePointer<UInt64> {
        guard let p = idt_map_shared(pageBytes) else {
            fatalError("idbudget: cannot map a page for generator state")
        }
        return p.assumingMemoryBound(to: UInt64.self)
    }

    /// Whether this state was inherited through a fork and another process has used it since, or this
    /// process is the child of an ordinary `fork()` (fallback mode only; wiped pages need no check, they
    /// simply read as empty). Evaluating it claims the next use: call it before every draw, and when it
    /// is true, reset the state and ``stamp()`` it. A child known by its fork generation claims nothing,
    /// so its parent goes on undisturbed.
    @inline(__always)
    var inherited: Bool {
        claimsEachUse && (generation.pointee != idt_fork_generation() || idt_claim(owner, mine) == 0)
    }

    /// Marks the state as belonging to this process: when another process has claimed it since a fork,
    /// or this is a forked child, this one takes a new ownership word of its own (the caller has reset
    /// the state).
    func stamp() {
        guard claimsEachUse else { return }
        let now = idt_fork_generation()
        if generation.pointee == now && idt_claim(owner, mine) != 0 { return }
        let fresh = Self.mapOwner()
        idt_unmap_shared(owner, Self.pageBytes)  // this process's mapping only; the other keeps it
        owner = fresh
        mine.pointee = 0
        generation.pointee = now
    }

    /// Zeroes `count` bytes at `offset` into the body.
    func erase(offset: Int, count: Int) { idt_erase(body + offset, count) }

    /// Where the caller's bytes start.
    var body: UnsafeMutableRawPointer { base + Self.headerBytes }
}
