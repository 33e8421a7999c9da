import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A request written by hand on a loopback socket: what no test client sends (a chunked body that the
/// server must refuse before it ends).
enum RawHTTP {
    struct Failure: Error { let what: String }

    /// Runs blocking socket I/O on a thread of its own: on the cooperative pool (two threads on two
    /// cores) two tests blocked in `recv` would leave the server under test no thread to answer with.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// A connected loopback socket with 10 s timeouts.
    static func socketTo(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(what: "socket") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw Failure(what: "connect")
        }
        return fd
    }

    /// Writes `bytes` as they are and returns everything the server writes until it closes (or 10 s
    /// pass).
    static func exchange(port: Int, _ bytes: [UInt8]) throws -> String {
        let fd = try socketTo(port: port)
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }  // the server may answer and close before reading it all
            offset += n
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// POSTs an audit declared at 10^6 bytes, 10 bytes every `every` seconds for at most `seconds`,
    /// until the server answers; returns what it wrote.
    static func trickle(port: Int, every: Double, for seconds: Double) throws -> String {
        let fd = try socketTo(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: Int(every * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        send("POST /api/v1/audit HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            send("abcdefghi\n")
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                reply += buffer[0..<n]
                // The rest of the answer, until the server closes.
                while true {
                    let m = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if m <= 0 { break }
                    reply += buffer[0..<m]
                }
                break
            }
            if n == 0 { break }
        }
        return String(decoding: reply, as: UTF8.self)
    }

    /// Sends `head`, then `piece` every `every` seconds for at most `seconds`, reading whatever the
    /// server writes meanwhile; returns it and the seconds until the server closed (nil: still open).
    static func trickleBody(port: Int, head: String, piece: String, every: Double, for seconds: Double) throws -> (
        reply: String, closedAfter: Double?
    ) {
        let fd = try socketTo(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 0, tv_usec: Int(every * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        send(head)
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                reply += buffer[0..<n]
                continue
            }
            if n == 0 { return (String(decoding: reply, as: UTF8.self), Date().timeIntervalSince(start)) }
            send(piece)
        }
        return (String(decoding: reply, as: UTF8.self), nil)
    }

    /// POSTs `chunks` chunks of `chunk` bytes with Transfer-Encoding: chunked, stopping as soon as the
    /// server answers (or stops reading); returns what the server wrote.
    static func chunkedPost(port: Int, path: String, chunk: Int, chunks: Int) throws -> String {
        let fd = try socketTo(port: port)
        defer { close(fd) }
        func send(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
        guard send(Array(head.utf8)) else { throw Failure(what: "send head") }
        let line = Array(repeating: UInt8(ascii: "a"), count: 15) + [UInt8(ascii: "\n")]
        let payload = Array(Array(repeating: line, count: chunk / 16).joined())
        let framed = Array(String(payload.count, radix: 16).utf8) + [13, 10] + payload + [13, 10]
        for _ in 0..<chunks {
            // Stop once the server has answered.
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&poll, 1, 0) > 0 { break }
            if !send(framed) { break }
        }
        _ = send(Array("0\r\n\r\n".utf8))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            reply += buffer[0..<n]
            if let text = String(bytes: reply, encoding: .utf8), text.contains("\r\n\r\n"), text.contains("}") { break }
        }
        return String(decoding: reply, as: UTF8.self)
    }
}
