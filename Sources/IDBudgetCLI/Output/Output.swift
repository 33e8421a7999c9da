import Foundation

/// Standard output and error with every write checked: a full disk or a closed pipe becomes one line
/// on stderr and exit status 74 (EX_IOERR), never a trap.
enum Output {
    nonisolated(unsafe) static var buffer = ""
    /// The exit status once the output is written: 1 when the answer fails its check.
    nonisolated(unsafe) static var status: Int32 = 0

    static func print(_ s: String) {
        buffer += s
        buffer += "\n"
    }

    /// Writes what `print` collected.
    static func flush() throws {
        var text = buffer
        buffer = ""
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and EINTR.
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32 = 1) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(descriptor, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // A non-blocking descriptor from the parent: wait until it takes more.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw WriteError(code: errno)
            }
            offset += n
        }
    }

    /// Writes `text` to the file at `path` (created or truncated), every write checked.
    static func writeFile(_ text: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(code: errno, target: "'\(path)'") }
        defer { close(fd) }
        var text = text
        do {
            try text.withUTF8 { try write(UnsafeRawBufferPointer($0), to: fd) }
        } catch let error as WriteError {
            throw WriteError(code: error.code, target: "'\(path)'")
        }
    }

    /// A line on stderr; errors writing it are ignored (there is nowhere left to report them).
    static func diagnostic(_ line: String) { standardError(line + "\n") }

    /// Text on stderr as it is (progress bars), errors ignored.
    static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { try? write(UnsafeRawBufferPointer($0), to: 2) }
    }
}

/// Output could not be written.
struct WriteError: Error, CustomStringConvertible {
    let code: Int32
    var target = "standard output"
    var isClosedPipe: Bool { code == EPIPE }
    var description: String { "cannot write to \(target): \(String(cString: strerror(code)))".escapingControlCharacters }
}
