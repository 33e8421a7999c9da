import Foundation

/// A one-line progress display on stderr, redrawn at most ten times a second.
final class Progress {
    let total: Int?
    var last = Date.distantPast
    let start = Date()

    init(total: Int?) { self.total = total }

    func update(bytes: Int, lines: Int) {
        let now = Date()
        guard now.timeIntervalSince(last) >= 0.1 else { return }
        last = now
        let rate = Double(bytes) / Swift.max(now.timeIntervalSince(start), 1e-3) / 1_048_576
        var text = "\r  \(lines) lines, \(bytes / 1_048_576) MiB, \(Int(rate)) MiB/s"
        if let total, total > 0 {
            let f = Double(bytes) / Double(total)
            let width = 30
            let filled = Swift.min(width, Int(f * Double(width)))
            text =
                "\r  [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(Int(f * 100))%"
                + text.dropFirst()
        }
        Output.standardError(text)
    }

    func clear() {
        Output.standardError("\r\u{1B}[K")
    }
}
