import Dispatch
import Foundation

/// Runs `body(0)…body(n − 1)` on n threads and rethrows the first error; the iterations must touch
/// disjoint state (each worker or table is one thread's alone).
package func parallel(_ n: Int, _ body: @escaping (Int) throws -> Void) throws {
    if n == 1 {
        try body(0)
        return
    }
    let run = ParallelRun(body, n)
    DispatchQueue.concurrentPerform(iterations: n) { i in
        do { try run.body(i) } catch { run.errors[i] = error }
    }
    for i in 0..<n { if let e = run.errors[i] { throw e } }
}

final class ParallelRun: @unchecked Sendable {
    let body: (Int) throws -> Void
    let errors: UnsafeMutablePointer<Error?>
    let n: Int

    init(_ body: @escaping (Int) throws -> Void, _ n: Int) {
        self.body = body
        self.n = n
        errors = .allocate(capacity: n)
        errors.initialize(repeating: nil, count: n)
    }

    deinit {
        errors.deinitialize(count: n)
        errors.deallocate()
    }
}
