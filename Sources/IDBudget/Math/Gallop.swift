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

/// The most buckets B ≥ 1 from the start with `ok(B)`, which holds up to some B and fails beyond; 0 when
/// `ok(1)` fails. Doubling, then bisection; past 2^4096 buckets the last doubling that held is taken.
func lastingBuckets(_ ok: (BigInt) throws -> Bool) throws -> BigInt {
    guard try ok(BigInt(1)) else { return BigInt(0) }
    var lo = BigInt(1)
    var hi = BigInt(2)
    while try ok(hi) {
        lo = hi
        hi = hi.shifted(1)
        guard hi.bitWidth < 4096 else { return lo }
    }
    while hi - lo > BigInt(1) {
        let mid = (lo + hi).shifted(-1)
        if try ok(mid) { lo = mid } else { hi = mid }
    }
    return lo
}
