import IDBudget

/// Fingerprints of one block waiting for their table: a growable buffer of words, no reference
/// counting in the per-line path.
final class PendingFingerprints {
    var words: UnsafeMutablePointer<UInt64>
    var count = 0
    var capacity = 1 << 14

    init() { words = .allocate(capacity: capacity) }
    deinit { words.deallocate() }

    @inline(__always)
    func append(_ a: UInt64, _ b: UInt64) {
        if count + 2 > capacity {
            let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity * 2)
            bigger.update(from: words, count: count)
            words.deallocate()
            words = bigger
            capacity *= 2
        }
        words[count] = a
        words[count + 1] = b
        count += 2
    }
}
