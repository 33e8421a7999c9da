import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for the fork-safety tests, with every wait bounded.
///
/// Tests run on threads of a multi-threaded process, so a child may inherit a lock (malloc's after a
/// raw fork, the Swift runtime's after either fork) that another thread held at the fork, and wait on
/// it forever. Those threads also block every asynchronous signal (libdispatch's workers do), and a
/// child inherits its thread's mask: an `alarm` alone never fires. So the child unblocks signals and
/// arms its own alarm, the parent reads and waits against a deadline and kills a child that outlives
/// it, and one lock keeps concurrent tests from forking children that hold each other's pipes open.
/// A child that deadlocked proves nothing about the code under test: `Forked.attempts` runs the
/// experiment again.
public final class Forked {
    public let pid: pid_t
    private var output: Int32
    private var go: Int32
    private let deadline: Date
    private var reaped = false

    /// What became of the child.
    public enum Outcome: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)
        /// Stopped by this signal (a wait with `stopped`).
        case stopped(Int32)
        /// Still running at the deadline; killed.
        case hung
    }

    /// The child's side: wait for the parent's word, send bytes.
    public struct Child {
        let output: Int32, go: Int32
        /// Blocks until the parent calls `release()` (or exits).
        public func waitForGo() {
            var byte: UInt8 = 0
            _ = Foundation.read(go, &byte, 1)
        }
        /// Writes all of `raw` to the parent; false on an error.
        public func send(_ raw: UnsafeRawBufferPointer) -> Bool { Pipes.write(output, raw) }
    }

    private static let forking = NSLock()

    /// Forks with `fork` (libc's by default; the tests pass the raw system call) and runs `body` in the
    /// child, which exits with the status `body` returns, or dies by SIGALRM after `childSeconds`. The
    /// parent's reads and waits give up `seconds` after the fork.
    public init(
        fork: () -> pid_t = { Glibc.fork() }, childSeconds: UInt32 = 10, seconds: Double = 30,
        _ body: (Child) -> Int32
    ) throws {
        var out: [Int32] = [0, 0]
        var go: [Int32] = [0, 0]
        Self.forking.lock()
        defer { Self.forking.unlock() }
        guard pipe(&out) == 0 else { throw POSIXError(.EMFILE) }
        guard pipe(&go) == 0 else {
            close(out[0])
            close(out[1])
            throw POSIXError(.EMFILE)
        }
        let pid = fork()
        if pid == 0 {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            signal(SIGALRM, SIG_DFL)
            alarm(childSeconds)
            close(out[0])
            close(go[1])
            _exit(body(Child(output: out[1], go: go[0])))
        }
        close(out[1])
        close(go[0])
        guard pid > 0 else {
            close(out[0])
            close(go[1])
            throw POSIXError(.EAGAIN)
        }
        self.pid = pid
        self.output = out[0]
        self.go = go[1]
        self.deadline = Date(timeIntervalSinceNow: seconds)
    }

    deinit {
        if output >= 0 { close(output) }
        if go >= 0 { close(go) }
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Lets a child that waits in `waitForGo()` go on.
    public func release() {
        var byte: UInt8 = 1
        _ = Foundation.write(go, &byte, 1)
        close(go)
        go = -1
    }

    /// Up to `count` bytes from the child: fewer at its end of file or at the deadline.
    public func read(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        bytes.withUnsafeMutableBytes { raw in
            while got < raw.count {
                var ready = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
                let left = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
                let polled = poll(&ready, 1, left)
                if polled < 0, errno == EINTR { continue }
                guard polled > 0 else { break }
                let n = Foundation.read(output, raw.baseAddress! + got, raw.count - got)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                got += n
            }
        }
        return Array(bytes.prefix(got))
    }

    /// Waits for the child to end, or with `stopped` for it to stop; kills it at the deadline.
    @discardableResult
    public func wait(stopped: Bool = false) -> Outcome {
        var status: Int32 = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG | (stopped ? WUNTRACED : 0))
            if waited == pid { break }
            if waited < 0, errno != EINTR { return .hung }
            if deadline.timeIntervalSinceNow <= 0 {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                self.reaped = true
                return .hung
            }
            usleep(2_000)
        }
        if status & 0xff == 0x7f { return .stopped((status >> 8) & 0xff) }
        self.reaped = true
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
        return .signaled(status & 0x7f)
    }

    /// Runs `experiment` until it returns an answer, at most `attempts` times; `nil` from it means the
    /// child deadlocked (see the type's comment), which is no answer. Throws when no attempt answered.
    public static func attempts<T>(_ attempts: Int = 5, _ experiment: () throws -> T?) throws -> T {
        for _ in 0..<attempts {
            if let answer = try experiment() { return answer }
        }
        throw ForkedError.noAnswer(attempts)
    }
}

public enum ForkedError: Error, CustomStringConvertible {
    case noAnswer(Int)
    public var description: String {
        switch self {
        case .noAnswer(let n): "the forked child deadlocked or died in each of \(n) attempts"
        }
    }
}
