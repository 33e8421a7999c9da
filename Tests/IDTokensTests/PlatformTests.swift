import CTokens
import Foundation
import TestSupport
import Testing

@testable import IDTokens

/// Which system layer is built (CTokens.h): the Linux fast path, or the portable one (every system but
/// Linux, and Linux with `-Xswiftc -DIDTOKENS_PORTABLE -Xcc -DIDTOKENS_PORTABLE`, as CI runs it).
@Suite(.serialized) struct PlatformTests {
    static let name = String(cString: idt_platform_name())
    static var portable: Bool { name == "portable" }

    @Test func builtPathMatchesBuildFlag() {
        #if IDTOKENS_PORTABLE || !os(Linux)
            #expect(Self.name == "portable")
        #else
            #expect(Self.name == "linux")
        #endif
        #expect(SecureRandom.systemLayer == Self.name)
    }

    /// The portable path has no wipe-on-fork: no page of any secure generator reports it, and each
    /// claims its state before every draw. The Linux path gets wipe-on-fork from this kernel (unless
    /// `IDTOKENS_NO_WIPEONFORK=1` turns it off).
    @Test func portablePagesClaimInsteadOfWiping() throws {
        let wipes = !Self.portable && !ForkProtection.wipeOnForkDisabled
        let rng = SecureRandom()
        let token = try TokenGenerator(alphabet: .base62, length: 22)
        let region = StateRegion(bytes: 64, protection: .automatic)
        for pageWipes in [rng.stream.region.wipesOnFork, token.engine.wipesOnFork, region.wipesOnFork] {
            #expect(pageWipes == wipes)
        }
        #expect(rng.stream.region.claimsEachUse == !wipes)
        #expect(region.claimsEachUse == !wipes)
    }

    /// After a fork the child draws first. With an ordinary `fork()` on the portable path the atfork
    /// handler has advanced the fork generation, so the child knows itself inherited and starts afresh
    /// while the parent goes on; on the Linux path (no handler) and after a raw fork on either path, the
    /// claim decides: the child, first, keeps the state, and the parent finds it inherited.
    @Test(arguments: [false, true])
    func childOfForkTakesFreshState(raw: Bool) throws {
        let (child, parentInherited, before) = try Forked.attempts { () -> ([UInt8], Bool, UInt64)? in
            let region = StateRegion(bytes: 64, protection: .forkEpoch)
            try #require(region.claimsEachUse)
            #expect(!region.inherited)  // a draw before the fork
            let before = idt_fork_generation()
            let forked = try Forked(fork: { raw ? pid_t(idt_raw_fork_for_testing()) : fork() }) { child in
                // A tuple, not an array: no allocation in a child of a raw fork.
                let report: (UInt8, UInt8) = (region.inherited ? 1 : 0, idt_fork_generation() == before ? 0 : 1)
                return withUnsafeBytes(of: report) { child.send($0) } ? 0 : 1
            }
            let child = forked.read(count: 2)
            guard forked.wait() == .exited(0), child.count == 2 else { return nil }
            return (child, region.inherited, before)
        }
        let handlerRan = Self.portable && !raw
        #expect(child[1] == (handlerRan ? 1 : 0), "the child's fork generation moved: \(child[1])")
        #expect(child[0] == (handlerRan ? 1 : 0), "the child found the state inherited: \(child[0])")
        #expect(parentInherited == !handlerRan)
        #expect(idt_fork_generation() == before)
    }
}
