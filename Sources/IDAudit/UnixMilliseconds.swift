import Foundation

extension Date {
    /// Milliseconds since 1970 (UTC), floored; a date past ±2^53 ms (no clock's) is held there.
    var unixMilliseconds: Int {
        let ms = (timeIntervalSince1970 * 1000).rounded(.down)
        guard ms.isFinite else { return ms > 0 ? 1 << 53 : -(1 << 53) }
        return Int(Swift.min(Swift.max(ms, -0x1p53), 0x1p53))
    }
}
