import Foundation

/// The most memory this process has held (its peak resident set), for the audit's report.
enum PeakMemory {
    /// The process's peak resident set, from the kernel: VmHWM of /proc/self/status (getrusage's
    /// ru_maxrss keeps the high-water mark of whatever process ran before exec).
    static func bytes() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Int(line.dropFirst(6).filter(\.isNumber))
        {
            return kb * 1024
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}
