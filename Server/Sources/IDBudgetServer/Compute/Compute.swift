import Foundation
import Synchronization

/// Runs the math off the server's threads, under a deadline and a limit on how many computations run at
/// once. Past the deadline the request is answered 503 at once; the computation can not be interrupted
/// midway (GMP/MPFR), so it keeps its slot until it ends, and while every slot is taken new questions
/// are answered 503 too: a flood of heavy questions costs at most `slots` threads, never a queue.
public final class Compute: Sendable {
    public let deadline: Duration
    public let slots: Int
    private let running = Mutex(0)

    public init(deadline: Duration = .seconds(2), slots: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) {
        self.deadline = deadline
        self.slots = max(1, slots)
    }

    /// Computations running now (including any past their deadline).
    public var inFlight: Int { running.withLock { $0 } }

    public func run<T: Sendable>(_ work: @escaping @Sendable () throws(Refusal) -> T) async throws(Refusal) -> T {
        let admitted = running.withLock { n in
            guard n < slots else { return false }
            n += 1
            return true
        }
        guard admitted else {
            throw Refusal(.serviceUnavailable, argument: nil, "busy: \(slots) computations are running; try again shortly")
        }
        let once = Once<Result<T, Refusal>>()
        let deadline = self.deadline
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Refusal>, Never>) in
            once.set(continuation)
            // A thread of its own with a generous stack: the math recurses as deep as on the CLI's main thread.
            let thread = Thread { [self] in
                let outcome: Result<T, Refusal>
                do throws(Refusal) { outcome = .success(try work()) } catch { outcome = .failure(error) }
                self.running.withLock { $0 -= 1 }
                once.resume(outcome)
            }
            thread.stackSize = 64 << 20
            thread.start()
            Task {
                try? await Task.sleep(for: deadline)
                once.resume(
                    .failure(
                        Refusal(
                            .serviceUnavailable, argument: nil,
                            "past the \(deadline.components.seconds) s compute deadline; ask a smaller question")))
            }
        }
        return try result.get()
    }
}

/// A continuation resumed once, by whichever of the work and the deadline comes first.
private final class Once<Value: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Value, Never>?, done: Bool)>((nil, false))

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func resume(_ value: Value) {
        let continuation = state.withLock { s -> CheckedContinuation<Value, Never>? in
            guard !s.done else { return nil }
            s.done = true
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume(returning: value)
    }
}
