import Foundation

/// The file `--emit-summary` names, made before any id is read and filled only when the audit ends
/// well: a run that fails (bad data, an unreadable input, an interrupted read) leaves whatever was
/// at that path as it was — an earlier summary is never emptied or removed by a later failed run.
///
/// A regular file (or a path with nothing there yet) is written as a temporary file beside it
/// (same directory, so the same file system) and renamed over it at the end: the path holds the
/// old file or the whole new summary, never a part. A device or a pipe (`/dev/stdout`, `/dev/full`,
/// a FIFO), or the file the report itself goes to, is written directly: renaming over it would
/// replace the device node, or leave the report's descriptor on a file no longer there. A symbolic
/// link is followed, so the file it points to is the one replaced.
struct SummaryFile {
    let path: String
    /// Where the bytes go: the temporary file, or the device itself.
    let fd: Int32
    /// The temporary file renamed over `target` by ``commit()``; nil when writing in place.
    let temporary: String?
    let target: String

    /// Makes the file (or its temporary), or throws the reason it cannot be created.
    init(path: String) throws(Failure) {
        self.path = path
        var resolved = path
        var existing = stat()
        if stat(path, &existing) == 0 {
            // The report's own standard output or error (`--emit-summary /dev/stdout > out.json`):
            // renamed over, the file would lose what is written to it through the open descriptor.
            var std = stat()
            let isStandard = [Int32(1), 2].contains {
                fstat($0, &std) == 0 && std.st_dev == existing.st_dev && std.st_ino == existing.st_ino
            }
            if (existing.st_mode & S_IFMT) != S_IFREG || isStandard {
                let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
                guard fd >= 0 else { throw Self.cannotCreate(path) }
                (self.fd, temporary, target) = (fd, nil, path)
                return
            }
            guard access(path, W_OK) == 0 else { throw Self.cannotCreate(path) }
            if let real = realpath(path, nil) {
                resolved = String(cString: real)
                free(real)
            }
        }
        // Split at the last slash by hand: Foundation's `deletingLastPathComponent` traps on a
        // one-character relative path on Linux (`--emit-summary s`).
        let slash = resolved.lastIndex(of: "/")
        let directory = slash.map { $0 == resolved.startIndex ? "/" : String(resolved[..<$0]) } ?? ""
        let name = slash.map { String(resolved[resolved.index(after: $0)...]) } ?? resolved
        var template = Array(((directory.isEmpty ? "." : directory) + "/.\(name).idbudget-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { b in b.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw Self.cannotCreate(path, within: directory.isEmpty ? "." : directory) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // mkstemp's 0600 → the mode a new file gets (0644 less the umask), or the replaced file's.
        let mode: mode_t
        if stat(resolved, &existing) == 0 {
            mode = existing.st_mode & 0o7777
        } else {
            let mask = umask(0)
            umask(mask)
            mode = 0o644 & ~mask
        }
        fchmod(fd, mode)
        (self.fd, temporary, target) = (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self), resolved)
    }

    /// Writes `text` and puts it at the path.
    func commit(_ text: String) throws {
        var text = text
        do {
            try text.withUTF8 { try Output.write(UnsafeRawBufferPointer($0), to: fd) }
        } catch let error as WriteError {
            throw WriteError(code: error.code, target: "'\(path)' (--emit-summary)")
        }
        guard let temporary else { return }
        if fsync(fd) != 0 || rename(temporary, target) != 0 {
            throw WriteError(code: errno, target: "'\(path)' (--emit-summary)")
        }
    }

    /// Closes the file; a temporary not committed is removed, so a failed run leaves nothing.
    func close() {
        _ = Foundation.close(fd)
        if let temporary { unlink(temporary) }  // after a rename, no file has this name any more
    }

    static func cannotCreate(_ path: String) -> Failure {
        Failure(
            status: .cannotCreate, argument: "--emit-summary",
            message: "cannot create '\(path)': \(String(cString: strerror(errno))); give a writable path")
    }

    /// The summary's temporary file could not be made in `directory`. When the directory is there,
    /// the kernel's reason can mislead (`/proc` answers "No such file or directory" to a new file),
    /// so the message says what was tried.
    static func cannotCreate(_ path: String, within directory: String) -> Failure {
        let reason = String(cString: strerror(errno))
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            return Failure(
                status: .cannotCreate, argument: "--emit-summary",
                message: "cannot create '\(path)': \(reason); give a writable path")
        }
        return Failure(
            status: .cannotCreate, argument: "--emit-summary",
            message: "cannot create '\(path)': no new file can be made in '\(directory)' (\(reason)); give a path in a writable directory")
    }
}
