import Foundation
import Synchronization
import TestSupport
import Testing

@testable import IDTokens

/// `SharedTokenGenerator` from many threads at once: valid tokens, no duplicates across threads, and
/// first use racing on every thread.
@Suite struct SharedGeneratorTests {
    static let shared = try! SharedTokenGenerator(alphabet: .base62, length: 22)

    /// Runs `body(i)` on `threads` threads that start together.
    static func together(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for i in 0..<threads {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                body(i)
                done.leave()
            }
        }
        for _ in 0..<threads { start.signal() }
        done.wait()
    }

    @Test func manyThreadsMintDistinctValidTokens() {
        let results = Mutex([[String]](repeating: [], count: 8))
        Self.together(8) { i in
            let tokens = Self.shared.next(20_000)
            results.withLock { $0[i] = tokens }
        }
        let all = results.withLock { $0.flatMap { $0 } }
        let allowed = Set(Alphabet.base62.symbols)
        #expect(all.count == 160_000)
        #expect(Set(all).count == all.count)
        #expect(all.allSatisfy { $0.count == 22 && $0.allSatisfy(allowed.contains) })
    }

    /// First use of fresh generators on every alphabet size, from several threads at once.
    @Test func concurrentFirstUse() {
        let bad = Mutex(0)
        Self.together(6) { i in
            for n in [5, 11, 15, 16, 33, 58, 62, 64] {
                let symbols = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".utf8.prefix(n))
                let shared = try! SharedTokenGenerator(alphabet: Alphabet(symbols: String(decoding: symbols, as: UTF8.self)), length: 32)
                let allowed = Set(symbols)
                var buffer = [UInt8](repeating: 0, count: 33 * 500)
                _ = buffer.withUnsafeMutableBytes { shared.fill($0) }
                let wrong = buffer.enumerated().filter { $0.offset % 33 != 32 && !allowed.contains($0.element) }.count
                bad.withLock { $0 += wrong }
            }
        }
        #expect(bad.withLock { $0 } == 0)
    }

    /// Threads that exit release their generators; a released shared generator releases the rest.
    @Test func threadsComeAndGo() {
        for _ in 0..<20 {
            let shared = try! SharedTokenGenerator(alphabet: .hex, length: 8)
            Self.together(4) { _ in _ = shared.next() }
            #expect(shared.next().count == 8)
        }
    }
}

extension SharedGeneratorTests {
    /// Out of thread-specific keys, making one more shared generator throws instead of trapping, and
    /// the ones alive go on working. In a forked child, so no other test runs short of keys.
    @Test func runningOutOfKeysThrows() throws {
        let outcome = try Forked.attempts { () -> Forked.Outcome? in
            let forked = try Forked { _ in
                var alive: [SharedTokenGenerator] = []
                var failure: TokenGeneratorError?
                for _ in 0..<5000 {
                    do { alive.append(try SharedTokenGenerator(alphabet: .hex, length: 8)) } catch {
                        failure = error as? TokenGeneratorError
                        break
                    }
                }
                guard failure == .tooManySharedGenerators else { return 1 }
                guard (try? SharedIDGenerator(.uuid4)) == nil else { return 2 }
                guard alive.first?.next().count == 8 else { return 3 }
                alive.removeAll()
                guard (try? SharedIDGenerator(.uuid4))?.next().count == 36 else { return 4 }
                return 0
            }
            let outcome = forked.wait()
            if case .exited = outcome { return outcome }
            return nil  // deadlocked on a lock inherited at the fork: no answer
        }
        #expect(outcome == .exited(0), "child: \(outcome)")
    }
}
