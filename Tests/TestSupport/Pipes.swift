import Foundation

/// Writing whole buffers over the pipes the fork tests use.
public enum Pipes {
    /// Writes all of `raw` to `fd`; false on an error.
    public static func write(_ fd: Int32, _ raw: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < raw.count {
            let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
