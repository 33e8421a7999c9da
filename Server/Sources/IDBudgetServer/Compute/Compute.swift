import Foundation
import IDBudget
import IDQuestions
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the math off the server's threads, on a fixed pool of worker threads, under a deadline, in two
/// lanes: heavy questions (`Arguments.isHeavy`) get `slots` workers and no queue, light ones
/// `lightSlots` workers and a queue of `lightQueue`, so a flood of heavy questions can not starve the
/// light ones. A question that finds its lane full is answered 503 after `busyPause` (0.1 s: no work
/// and no worker meanwhile, only a place in the watcher's list), so a client that ignores
/// `Retry-After` and asks again at once is slowed to ten questions a second a connection instead of
/// looping as fast as HTTP goes (a flood of 503s costs the typical question as much CPU as a flood of
/// answers would); one still unanswered at its deadline is answered 503 then. GMP/MPFR can not be interrupted midway, so a computation past
/// its deadline keeps its worker until it ends; a queued question whose deadline has passed is dropped
/// unrun. A flood therefore costs at most the pool's threads, never a growing queue.
///
/// The workers live as long as the `Compute`, each with a 64 MiB stack (the math recurses as deep as
/// on the CLI's main thread) and its MPFR caches kept from one question to the next. One watcher
/// thread answers the overdue, scanning the questions in flight every 20 ms: a question met in time
/// costs an insertion and a removal, no timer of its own.
public final class Compute: Sendable {
    public let deadline: Duration
    public let slots: Int
    public let lightSlots: Int
    public let lightQueue: Int
    /// How long a question refused for a full lane waits for its 503.
    public let busyPause: Duration
    /// Audit uploads at once, admitted before their body is read; past it, 503 at once.
    public let audits: Int
    private let auditing = Mutex(0)
    private let heavyLane: Lane
    private let lightLane: Lane
    private let watch: DeadlineWatch

    public init(
        deadline: Duration = .seconds(2), slots: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1),
        lightSlots: Int = ProcessInfo.processInfo.activeProcessorCount, lightQueue: Int? = nil,
        audits: Int = max(1, ProcessInfo.processInfo.activeProcessorCount - 1), busyPause: Duration = .milliseconds(100)
    ) {
        self.audits = max(1, audits)
        self.busyPause = busyPause
        self.deadline = deadline
        self.slots = max(1, slots)
        self.lightSlots = max(1, lightSlots)
        self.lightQueue = max(0, lightQueue ?? 8 * self.lightSlots)
        heavyLane = Lane(workers: self.slots, queue: 0, name: "heavy")
        lightLane = Lane(workers: self.lightSlots, queue: self.lightQueue, name: "light")
        watch = DeadlineWatch()
    }

    deinit {
        heavyLane.stop()
        lightLane.stop()
        watch.stop()
    }

    /// Questions admitted and not yet done (running, queued, or running past their deadline).
    public var inFlight: Int { heavyLane.load + lightLane.load }

    /// Whether every audit slot is taken: an upload asking to continue (`Expect: 100-continue`) is
    /// then not invited to send its body, which would be refused unread (503).
    public var auditsFull: Bool { auditing.withLock { $0 >= audits } }

    /// Runs `body` (an audit: its upload read, then judged) when fewer than `audits` run; 503 at once
    /// otherwise, before a byte of the upload is read.
    public func auditing<T>(_ body: () async throws -> T) async throws -> T {
        let admitted = auditing.withLock { n in
            guard n < audits else { return false }
            n += 1
            return true
        }
        guard admitted else {
            throw Refusal(
                .serviceUnavailable, argument: nil, "busy: \(audits) audit\(audits == 1 ? " is" : "s are") running; try again shortly")
        }
        defer { auditing.withLock { $0 -= 1 } }
        return try await body()
    }

    /// Runs `work` in the heavy lane, or with `heavy: false` in the light one. An admitted audit's
    /// judgement (`audit: true`) may wait in the heavy lane, which has no queue for questions: its
    /// upload is read already, and at most `audits` of them wait.
    ///
    /// A question estimated to take longer than the deadline (`estimate`, seconds:
    /// `Arguments.estimatedSeconds`) is answered 503 at once, as it would be at its deadline, instead of
    /// holding a worker for the seconds it would go on computing after that answer.
    public func run<T: Sendable>(
        heavy: Bool = true, audit: Bool = false, estimate: Double = 0, _ work: @escaping @Sendable () throws(Refusal) -> T
    ) async throws(Refusal) -> T {
        let lane = heavy ? heavyLane : lightLane
        let extra = audit ? audits : 0
        let deadline = self.deadline
        if estimate > Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18 {
            throw Refusal(
                .serviceUnavailable, argument: nil,
                "past the \(Self.seconds(deadline)) s compute deadline (it would take about \(Int(estimate.rounded(.up))) s); ask a smaller question"
            )
        }
        let watch = self.watch
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Refusal>, Never>) in
            let once = Once(continuation)
            let admitted = lane.submit(extra: extra) {
                // Answered already (past its deadline while queued): not worth a worker's time.
                guard !once.isDone else { return nil }
                let outcome: Result<T, Refusal>
                do throws(Refusal) { outcome = .success(try work()) } catch { outcome = .failure(error) }
                // Delivered once the worker is free again: a caller that asks again at once finds it so.
                return { once.resume(outcome) }
            }
            guard admitted else {
                let busy = Refusal(
                    .serviceUnavailable, argument: nil,
                    "busy: \(lane.workers) \(lane.name) computation\(lane.workers == 1 ? " is" : "s are") running\(lane.queue > 0 ? " and \(lane.queue) waiting" : ""); try again shortly"
                )
                if busyPause > .zero {
                    watch.add(at: ContinuousClock.now + busyPause) {
                        once.resume(.failure(busy))
                    } isDone: {
                        once.isDone
                    }
                } else {
                    once.resume(.failure(busy))
                }
                return
            }
            watch.add(at: ContinuousClock.now + deadline) {
                once.resume(
                    .failure(
                        Refusal(
                            .serviceUnavailable, argument: nil,
                            "past the \(Self.seconds(deadline)) s compute deadline; ask a smaller question")))
            } isDone: {
                once.isDone
            }
        }
        return try result.get()
    }
}

extension Compute {
    /// A deadline in seconds as people write it: `2`, `0.3`.
    static func seconds(_ d: Duration) -> String {
        let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
        return ms % 1000 == 0 ? "\(ms / 1000)" : String(format: "%g", Double(ms) / 1000)
    }
}

/// Worker threads of one lane and the jobs waiting for them.
private final class Lane: Sendable {
    let workers: Int
    let queue: Int
    let name: String
    /// A job runs on a worker and returns what to do once that worker counts as free (deliver its
    /// answer), or nil.
    typealias Job = @Sendable () -> (@Sendable () -> Void)?
    /// Jobs taken are set to nil at once: a closure left in the array would keep what it holds (an
    /// audit's fingerprint tables, 64 MiB for 2.7 million ids) until the array is compacted.
    private let state = Mutex<(jobs: [Job?], head: Int, running: Int, stopped: Bool)>(([], 0, 0, false))
    private let ready = DispatchSemaphore(value: 0)

    init(workers: Int, queue: Int, name: String) {
        self.workers = workers
        self.queue = queue
        self.name = name
        for i in 0..<workers {
            let thread = Thread { [self] in work() }
            thread.stackSize = 64 << 20
            thread.name = "idbudget-\(name)-\(i)"
            thread.start()
        }
    }

    /// Jobs running or waiting.
    var load: Int { state.withLock { $0.running + $0.jobs.count - $0.head } }

    /// Queues `job` when a worker is free or the queue (and `extra` more places) has room; false (and
    /// nothing queued) otherwise.
    func submit(extra: Int = 0, _ job: @escaping Job) -> Bool {
        let queued = state.withLock { s in
            guard !s.stopped, s.running + s.jobs.count - s.head < workers + queue + extra else { return false }
            s.jobs.append(job)
            return true
        }
        if queued { ready.signal() }
        return queued
    }

    func stop() {
        state.withLock { $0.stopped = true }
        for _ in 0..<workers { ready.signal() }
    }

    private func work() {
        #if os(Linux)
            // Heavy questions yield the cores to light ones: a flood of them may slow, not stall, the
            // typical question. Linux keeps the policy per thread (`pid` 0: the calling thread).
            // SCHED_IDLE, not nice 19: the scheduler (EEVDF) lets a nice thread finish its slice, up
            // to 3 ms, before a woken event loop runs — measured here, a heavy question beside the
            // typical one took its p99 from 1.3 ms to 4.6 ms — where an idle-policy thread is
            // preempted at once. The value is glibc's SCHED_IDLE, which Swift's Glibc does not export
            // (it is behind _GNU_SOURCE). Should the call fail, nice 19 is the fallback.
            if name == "heavy" {
                var param = sched_param(sched_priority: 0)
                if sched_setscheduler(0, 5, &param) != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19) }
            }
        #endif
        while true {
            ready.wait()
            let job = state.withLock { s -> Job? in
                guard s.head < s.jobs.count else { return nil }
                let job = s.jobs[s.head]
                s.jobs[s.head] = nil
                s.head += 1
                // Compact now and then: the array holds only what is still waiting.
                if s.head >= 64 && s.head * 2 >= s.jobs.count {
                    s.jobs.removeFirst(s.head)
                    s.head = 0
                }
                s.running += 1
                return job
            }
            guard let job else {
                if state.withLock({ $0.stopped }) { break }
                continue
            }
            let deliver = job()
            state.withLock { $0.running -= 1 }
            deliver?()
        }
        // The thread ends here: its MPFR caches would outlive it.
        ThreadCaches.release()
    }
}

/// The deadlines of the questions in flight, and one thread that answers the overdue.
private final class DeadlineWatch: Sendable {
    private struct Entry {
        let at: ContinuousClock.Instant
        let expire: @Sendable () -> Void
        let isDone: @Sendable () -> Bool
    }
    private let entries = Mutex<(list: [Entry], stopped: Bool)>(([], false))

    init() {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.02)
                let now = ContinuousClock.now
                let (due, stopped) = self.entries.withLock { e -> ([Entry], Bool) in
                    var due: [Entry] = []
                    e.list.removeAll { entry in
                        if entry.isDone() { return true }
                        if entry.at <= now {
                            due.append(entry)
                            return true
                        }
                        return false
                    }
                    return (due, e.stopped)
                }
                for entry in due { entry.expire() }
                if stopped { break }
            }
        }
        thread.name = "idbudget-deadlines"
        thread.start()
    }

    func add(at: ContinuousClock.Instant, expire: @escaping @Sendable () -> Void, isDone: @escaping @Sendable () -> Bool) {
        entries.withLock { $0.list.append(Entry(at: at, expire: expire, isDone: isDone)) }
    }

    func stop() { entries.withLock { $0.stopped = true } }
}

/// A continuation resumed once, by whichever of the work and the deadline comes first.
private final class Once<Value: Sendable>: Sendable {
    private let state: Mutex<CheckedContinuation<Value, Never>?>
    private let done = Atomic<Bool>(false)

    init(_ continuation: CheckedContinuation<Value, Never>) { state = Mutex(continuation) }

    var isDone: Bool { done.load(ordering: .acquiring) }

    func resume(_ value: Value) {
        let continuation = state.withLock { c -> CheckedContinuation<Value, Never>? in
            defer { c = nil }
            return c
        }
        guard let continuation else { return }
        done.store(true, ordering: .releasing)
        continuation.resume(returning: value)
    }
}
