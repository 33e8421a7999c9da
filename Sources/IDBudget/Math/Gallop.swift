import Precise

/// The largest n in 1..<top for which `ok(n)` holds, where `ok` holds from 1 up to some point and
/// not after it: gallops from `start` (doubling steps) until the edge is bracketed, then bisects.
/// Calls `ok` O(log |edge − start|) times, so a good guess costs a handful of certified checks.
/// The inverses that search a count this way: `Birthday.capacity` and the retries capacity.
func largestPassing(from start: BigInt, below top: BigInt, _ ok: (BigInt) throws -> Bool) throws -> BigInt {
    var lo: BigInt
    var hi: BigInt
    var step = BigInt(1)
    if try ok(start) {
        lo = start
        while true {
            let next = lo + step
            if next >= top {
                hi = top
                break
            }
            if try ok(next) {
                lo = next
                step = step.shifted(1)
            } else {
                hi = next
                break
            }
        }
    } else {
        hi = start
        while true {
            let next = hi - step
            if next <= BigInt(1) {
                lo = BigInt(1)
                break
            }
            if try ok(next) {
                lo = next
                break
            }
            hi = next
            step = step.shifted(1)
        }
    }
    while hi - lo > BigInt(1) {
        let mid = (lo + hi).shifted(-1)
        if try ok(mid) { lo = mid } else { hi = mid }
    }
    return lo
}
