@testable import IDTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension IDGenerator {
    /// The tests' own reading of the real-time clock, in milliseconds since the Unix epoch: what the
    /// generator's clock (`idt_clock_ms`) is checked against.
    static func unixMilliseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(max(0, ts.tv_sec)) &* 1000 &+ UInt64(max(0, ts.tv_nsec)) / 1_000_000
    }
}
