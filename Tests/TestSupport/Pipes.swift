import Foundation

/// Reading and writing whole buffers over the pipes the fork tests use.
public enum Pipes {
    /// Reads up to `count` bytes from `fd` (fewer only at end of file).
    public static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        bytes.withUnsafeMutableBytes { raw in
            while got < raw.count {
                let n = Foundation.read(fd, raw.baseAddress! + got, raw.count - got)
                if n <= 0 { break }
                got += n
            }
        }
        return Array(bytes.prefix(got))
    }

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
