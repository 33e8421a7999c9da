import Dispatch

/// A job that holds its lane's slot until the test lets it go, and says when it has taken it.
///
/// Tests of a full lane used to start the slow job and sleep 100 ms, trusting it had begun: on a
/// loaded 2-core CI machine the child task sometimes had not, the lane was still free, and the
/// "busy" question was answered (CI failed at random). Waiting for `began` removes the guess.
final class Hold: @unchecked Sendable {
    private let began = DispatchSemaphore(value: 0)
    private let letGo = DispatchSemaphore(value: 0)
    /// How long a job holds its slot when the test never lets it go (a failing test still ends).
    let limit: Double

    init(limit: Double = 10) { self.limit = limit }

    /// Takes the slot: called on the worker thread, it blocks until `release` or `limit` seconds.
    func occupy() {
        began.signal()
        _ = letGo.wait(timeout: .now() + limit)
    }

    /// Takes the slot from async code (an audit's upload), without blocking a cooperative thread.
    func occupyAsync() async {
        began.signal()
        let start = ContinuousClock.now
        while letGo.wait(timeout: .now()) == .timedOut, ContinuousClock.now - start < .seconds(limit) {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Returns once the job has begun, so its slot is known to be taken.
    func started() async {
        while began.wait(timeout: .now()) == .timedOut { try? await Task.sleep(for: .milliseconds(2)) }
    }

    func release() { letGo.signal() }
}
