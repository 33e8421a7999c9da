import Foundation
import IDBudget

/// The temporary directory for spill files: made once, on first use, whichever table spills first
/// (several may at once, one a thread), and removed when the audit ends.
final class SpillDirectory: @unchecked Sendable {
    private let lock = NSLock()
    private var made: URL?

    func url() throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("idbudget-audit-XXXXXX").path
        var chars = Array(template.utf8CString)
        guard let path = mkdtemp(&chars) else {
            throw AuditError(
                "cannot make a temporary directory for spill files in \(FileManager.default.temporaryDirectory.path): \(String(cString: strerror(errno))); set TMPDIR to a writable directory"
            )
        }
        let url = URL(fileURLWithPath: String(cString: path))
        made = url
        return url
    }

    func remove() {
        lock.lock()
        defer { lock.unlock() }
        if let made { try? FileManager.default.removeItem(at: made) }
        made = nil
    }
}
