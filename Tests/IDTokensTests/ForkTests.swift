import Foundation
import TestSupport
import Testing

@testable import IDTokens

/// A forked child must never hand out what its parent hands out: checked on `TokenGenerator` itself,
/// with wipe-on-fork pages and with the fork-epoch fallback, after 1, 10, 100 and 1000 tokens; and the
/// control with no protection shows that the check sees a replay.
@Suite(.serialized) struct ForkTests {
    static let tokens = 200, length = 22

    /// Draws `before` tokens, forks, and returns the next `tokens` tokens of parent and child (again
    /// if a child deadlocked: see `Forked`).
    static func forkAndDraw(before: Int, protection: ForkProtection, shared: Bool = false) throws -> (parent: [String], child: [String]) {
        try Forked.attempts {
            var options = TokenEngine.Options()
            options.forkProtection = protection
            let generator = try TokenGenerator(
                bytes: Alphabet.base62.bytes!, length: length, source: SecureRandom(forkProtection: protection), options: options)
            let sharedGenerator = try SharedTokenGenerator(alphabet: .base62, length: length)
            let fill: (UnsafeMutableRawBufferPointer) -> Int =
                shared
                ? { sharedGenerator.fill($0, separator: nil) } : { generator.fill($0, separator: nil) }
            var warmup = [UInt8](repeating: 0, count: length * before)
            _ = warmup.withUnsafeMutableBytes { fill($0) }
            var buffer = [UInt8](repeating: 0, count: length * tokens)
            let forked = try Forked { child in
                // Only async-signal-safe work on memory allocated before the fork.
                _ = buffer.withUnsafeMutableBytes { fill($0) }
                return buffer.withUnsafeBytes { child.send($0) } ? 0 : 1
            }
            let child = forked.read(count: length * tokens)
            guard forked.wait() == .exited(0), child.count == length * tokens else { return nil }
            _ = buffer.withUnsafeMutableBytes { fill($0) }
            func split(_ bytes: [UInt8]) -> [String] {
                stride(from: 0, to: bytes.count, by: length).map { String(decoding: bytes[$0..<$0 + length], as: UTF8.self) }
            }
            return (split(buffer), split(child))
        }
    }

    /// The default protection: wipe-on-fork pages on the Linux path; on the portable path, which has
    /// none, the claim and the atfork handler.
    @Test(arguments: [1, 10, 100, 1000])
    func wipeOnForkChildDoesNotReplay(before: Int) throws {
        let probe = try TokenGenerator(alphabet: .base62, length: 22)
        if PlatformTests.portable {
            #expect(!probe.engine.wipesOnFork)
        } else {
            try #require(probe.engine.wipesOnFork, "this kernel lacks MADV_WIPEONFORK")
        }
        let (parent, child) = try Self.forkAndDraw(before: before, protection: .automatic)
        #expect(Set(parent).isDisjoint(with: child))
        #expect(Set(child).count == Self.tokens)
    }

    @Test(arguments: [1, 10, 100, 1000])
    func forkEpochChildDoesNotReplay(before: Int) throws {
        let (parent, child) = try Self.forkAndDraw(before: before, protection: .forkEpoch)
        #expect(Set(parent).isDisjoint(with: child))
        #expect(Set(child).count == Self.tokens)
    }

    @Test(arguments: [1, 1000])
    func sharedGeneratorChildDoesNotReplay(before: Int) throws {
        let (parent, child) = try Self.forkAndDraw(before: before, protection: .automatic, shared: true)
        #expect(Set(parent).isDisjoint(with: child))
    }

    /// The control: without protection the child replays the parent exactly, so the checks above can fail.
    @Test func unprotectedChildReplays() throws {
        let (parent, child) = try Self.forkAndDraw(before: 10, protection: .none)
        #expect(parent == child)
    }

    /// The raw stream too, in both modes.
    @Test(arguments: [ForkProtection.automatic, .forkEpoch])
    func secureRandomChildDoesNotReplay(protection: ForkProtection) throws {
        let (parent, child) = try Forked.attempts { () -> ([UInt64], [UInt64])? in
            var rng = SecureRandom(forkProtection: protection)
            _ = rng.next()
            var values = [UInt64](repeating: 0, count: 16)
            let forked = try Forked { child in
                for i in 0..<16 { values[i] = rng.next() }
                return values.withUnsafeBytes { child.send($0) } ? 0 : 1
            }
            let bytes = forked.read(count: 16 * 8)
            guard forked.wait() == .exited(0), bytes.count == 16 * 8 else { return nil }
            let child = bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt64.self)) }
            return ((0..<16).map { _ in rng.next() }, child)
        }
        #expect(Set(parent).isDisjoint(with: child))
    }
}

extension ForkTests {
    /// The kernel's own record of the state pages: `wf` (wipe on fork; never on the portable path) and
    /// `dd` (not in core dumps, on both paths).
    @Test func statePagesAreWipeOnForkAndNotDumped() throws {
        let generator = try TokenGenerator(alphabet: .base62, length: 22)
        _ = generator.next()
        let address = UInt(bitPattern: generator.engine.regionAddress)
        let smaps = String(
            decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps")).readToEnd() ?? Data(), as: UTF8.self)
        var inRegion = false
        var flags: [Substring] = []
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16),
                let end = UInt(line[line.index(after: dash)...].prefix { $0 != " " }, radix: 16)
            {
                inRegion = start <= address && address < end
            } else if inRegion, line.hasPrefix("VmFlags:") {
                flags = line.dropFirst(8).split(separator: " ")
            }
        }
        #expect(flags.contains("wf") == !PlatformTests.portable, "VmFlags: \(flags)")
        #expect(flags.contains("dd"), "VmFlags: \(flags)")
    }
}
