import Foundation
import IDBudget
import Synchronization

/// Runs the math off the server's threads, under a deadline and a limit on how many computations run at
/// once, in two lanes: heavy questions (``Query/isHeavy``) get `slots`, light ones `lightSlots`, so a
/// flood of heavy questions can not starve the light ones. Past the deadline the request is answered
/// 503 at once; the computation can not be interrupted midway (GMP/MPFR), so it keeps its slot until it
/// ends, and while every slot of its lane is taken new questions are answered 503 too: a flood costs at
/// most `slots + lightSlots` threads, never a queue.
public final class Compute: Sendable {
    public let deadline: Duration
    public let slots: Int
    public let lightSlots: Int
    private let running = Mutex((heavy: 0, light: 0))

    public init(
        deadline: Duration = .seconds(2), slots: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), lightSlots: Int = 32
    ) {
        self.deadline = deadline
        self.slots = max(1, slots)
        self.lightSlots = max(1, lightSlots)
    }

    /// Computations running now (including any past their deadline).
    public var inFlight: Int { running.withLock { $0.heavy + $0.light } }

    /// Runs `work` in the heavy lane, or with `heavy: false` in the light one.
    public func run<T: Sendable>(heavy: Bool = true, _ work: @escaping @Sendable () throws(Refusal) -> T) async throws(Refusal) -> T {
        let limit = heavy ? slots : lightSlots
        let admitted = running.withLock { n in
            let taken = heavy ? n.heavy : n.light
            guard taken < limit else { return false }
            if heavy { n.heavy += 1 } else { n.light += 1 }
            return true
        }
        guard admitted else {
            throw Refusal(
                .serviceUnavailable, argument: nil,
                "busy: \(limit) \(heavy ? "heavy" : "light") computations are running; try again shortly")
        }
        let once = Once<Result<T, Refusal>>()
        let deadline = self.deadline
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Refusal>, Never>) in
            once.set(continuation)
            // A thread of its own with a generous stack: the math recurses as deep as on the CLI's main thread.
            let thread = Thread { [self] in
                let outcome: Result<T, Refusal>
                do throws(Refusal) { outcome = .success(try work()) } catch { outcome = .failure(error) }
                // The thread ends here: its MPFR caches would outlive it (a leak a question).
                ThreadCaches.release()
                self.running.withLock { if heavy { $0.heavy -= 1 } else { $0.light -= 1 } }
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
