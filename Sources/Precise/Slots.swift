import Foundation

/// One result slot per task for work spread over threads with `concurrentPerform`: each slot is
/// written once by its task and read after the join; a lock keeps the writes apart. Shared by the
/// package's modules (`package`), not part of any product's API.
package final class Slots<Value>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    package init(_ count: Int) { slots = Array(repeating: nil, count: count) }

    package subscript(i: Int) -> Value? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return slots[i]
        }
        set {
            lock.lock()
            slots[i] = newValue
            lock.unlock()
        }
    }

    package var values: [Value?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
