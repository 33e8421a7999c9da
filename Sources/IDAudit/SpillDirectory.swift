import Foundation
import IDBudget
import Synchronization

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
        Self.registerAtExit
        Self.live.withLock { _ = $0.insert(url.path) }
        return url
    }

    func remove() {
        lock.lock()
        defer { lock.unlock() }
        if let made {
            try? FileManager.default.removeItem(at: made)
            Self.live.withLock { _ = $0.remove(made.path) }
        }
        made = nil
    }

    /// Every spill directory of this process not yet removed. An exit runs no deinit (an error's
    /// status, or a signal's handler while a block is still being counted), so these are removed at
    /// exit too: a full disk must not stay full of an audit that is over.
    private static let live = Mutex<Set<String>>([])

    private static let registerAtExit: Void = { atexit { SpillDirectory.removeAll() } }()

    /// Removes every spill directory of this process (an exit's, a signal handler's cleanup).
    ///
    /// Threads may still be writing: each directory is first renamed, so no file can be made under
    /// its old path any more (an open there fails), then emptied and removed — a removal that lists
    /// the files while a thread adds or unlinks one would leave the directory behind.
    static func removeAll() {
        let paths = live.withLock { paths in
            defer { paths = [] }
            return paths
        }
        for path in paths {
            let gone = path + ".removing"
            let target = rename(path, gone) == 0 ? gone : path
            for _ in 0..<3 {
                if let entries = try? FileManager.default.contentsOfDirectory(atPath: target) {
                    for entry in entries { unlink(target + "/" + entry) }
                }
                if rmdir(target) == 0 || errno == ENOENT { break }
            }
        }
    }
}
