import CTokens
import Testing

@testable import IDTokens

/// The /dev/urandom path that stands in where getrandom is missing (ENOSYS) or filtered (EPERM).
@Suite(.serialized) struct KernelRandomTests {
    @Test func urandomFallbackGivesFreshBytes() {
        idt_force_urandom_for_testing(1)
        defer { idt_force_urandom_for_testing(0) }
        var a = [UInt8](repeating: 0, count: 64)
        var b = [UInt8](repeating: 0, count: 64)
        #expect(a.withUnsafeMutableBytes { idt_kernel_random($0.baseAddress, 64) } == 0)
        #expect(b.withUnsafeMutableBytes { idt_kernel_random($0.baseAddress, 64) } == 0)
        #expect(a != b)
        #expect(a.contains { $0 != 0 })
        // And a whole generator seeded through it.
        var rng = SecureRandom()
        #expect((0..<4).map { _ in rng.next() } != [0, 0, 0, 0])
    }
}
