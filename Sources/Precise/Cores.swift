import Foundation

/// How many cores this process may run on.
///
/// `ProcessInfo.activeProcessorCount` counts the machine's cores even under `taskset -c 0`; work that
/// would be duplicated on every thread (each thread fills MPFR's Bernoulli cache for itself) must run
/// on one thread when only one core is there to run it. On Linux the affinity mask is read from
/// /proc/self/status (`Cpus_allowed`, hexadecimal, comma-grouped).
package enum Cores {
    package static let usable: Int = {
        let machine = Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return machine }
        var count = 0
        for c in line.dropFirst("Cpus_allowed:".count) {
            if let v = c.hexDigitValue { count += v.nonzeroBitCount }
        }
        return count >= 1 ? Swift.min(count, machine) : machine
    }()
}
