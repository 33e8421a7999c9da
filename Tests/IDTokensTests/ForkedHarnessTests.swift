import Foundation
import TestSupport
import Testing

/// The fork tests' harness must end every wait: a child that never finishes (here it sleeps in
/// `pause()`, as a child deadlocked on an inherited lock would), forked from a thread that blocks
/// SIGALRM as libdispatch's workers do, is ended by its own alarm, and the experiment gives no answer.
@Suite struct ForkedHarnessTests {
    @Test func aChildThatNeverEndsIsEnded() throws {
        var alarmOnly = sigset_t()
        sigemptyset(&alarmOnly)
        sigaddset(&alarmOnly, SIGALRM)
        var saved = sigset_t()
        pthread_sigmask(SIG_BLOCK, &alarmOnly, &saved)
        defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
        let start = Date()
        let forked = try Forked(childSeconds: 1, seconds: 20) { _ in
            while true { pause() }
        }
        #expect(forked.read(count: 1).isEmpty)
        #expect(forked.wait() == .signaled(SIGALRM))
        #expect(Date().timeIntervalSince(start) < 15)
    }

    /// A parent whose deadline passes kills the child (its alarm cancelled here) and says so.
    @Test func theParentsDeadlineKills() throws {
        let forked = try Forked(seconds: 0.5) { _ in
            alarm(0)
            while true { pause() }
        }
        #expect(forked.wait() == .hung)
    }

    @Test func noAnswerInAnyAttemptThrows() {
        var tries = 0
        #expect(throws: ForkedError.self) {
            try Forked.attempts(3) { () -> Int? in
                tries += 1
                return nil
            }
        }
        #expect(tries == 3)
    }
}
