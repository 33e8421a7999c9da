import Foundation
import TestSupport
import Testing

@testable import IDTokens

/// "The generator keeps no copy of a token it handed out": a forked child mints tokens into a buffer,
/// sends them to the parent and erases its buffer, then stops; the parent reads the child's whole
/// writable memory through /proc/PID/mem and looks for every token. The control, with erasure
/// switched off, finds them, so the scan can fail.
@Suite(.serialized) struct ErasureTests {

    /// A copy of a token found in the stopped child's memory.
    struct Copy: CustomStringConvertible {
        /// Which token (in minting order) and which of its two probes: its first or its last bytes.
        var token: Int, half: String
        /// The mapping it lies in, by name ("[heap]", "[stack]", the generator's state pages, a file,
        /// "anonymous"), and where.
        var region: String, offset: Int, address: UInt
        /// The bytes around it (printable ASCII, others as '.'), to tell a copy from a chance match.
        var context: String

        var description: String {
            "token \(token)'s \(half) bytes in \(region) at offset \(offset) (0x\(String(address, radix: 16))): \(context)"
        }
    }

    /// The copies of the child's tokens (of `length` symbols over `symbols`) still in its memory.
    static func tokensLeftInMemory(erase: Bool, symbols: [UInt8] = Alphabet.base62.bytes!, length: Int = 22, count: Int = 100) throws
        -> [Copy]
    {
        var options = TokenEngine.Options()
        options.erase = erase
        let generator = try TokenGenerator(bytes: symbols, length: length, source: SecureRandom(), options: options)
        let state = UInt(bitPattern: generator.engine.regionAddress)
        return try tokensLeftInMemory(length: length, count: count, state: state) { generator.fill($0, separator: nil) }
    }

    /// The same for any minting function: the child fills a buffer, sends it, erases it and stops (the
    /// stop is a libc call, which may bind lazily and save the vector registers on the stack).
    static func tokensLeftInMemory(
        length: Int, count: Int, state: UInt? = nil, fill: (UnsafeMutableRawBufferPointer) -> Int
    ) throws -> [Copy] {
        var buffer = [UInt8](repeating: 0, count: count * length)
        // The child stays stopped while the parent reads its memory; `Forked` kills it at the end.
        let (forked, tokens) = try Forked.attempts { () -> (Forked, [UInt8])? in
            let forked = try Forked { child in
                buffer.withUnsafeMutableBytes { raw in
                    _ = fill(raw)
                    if !child.send(UnsafeRawBufferPointer(raw)) { _exit(1) }
                    explicit_bzero(raw.baseAddress!, raw.count)
                }
                alarm(0)
                raise(SIGSTOP)
                return 0
            }
            let tokens = forked.read(count: count * length)
            guard tokens.count == count * length, forked.wait(stopped: true) == .stopped(SIGSTOP) else { return nil }
            return (forked, tokens)
        }
        let pid = forked.pid

        // /proc files report size 0: read to the end, not a size's worth.
        let maps = try String(
            decoding: FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd() ?? Data(), as: UTF8.self)
        let mem = open("/proc/\(pid)/mem", O_RDONLY)
        try #require(mem >= 0, "cannot open /proc/\(pid)/mem")
        defer { close(mem) }
        // Look for every token's first and last 16 bytes (a half token is a leak too): one pass over
        // memory, a 16-bit filter on each 8-byte window, then an exact comparison.
        let chunk = Swift.min(16, length)
        var starts: [UInt64: [(token: Int, offset: Int)]] = [:]
        let filter = UnsafeMutablePointer<Bool>.allocate(capacity: 65536)
        filter.initialize(repeating: false, count: 65536)
        defer { filter.deallocate() }
        tokens.withUnsafeBytes { t in
            for i in 0..<count {
                for offset in Set([0, length - chunk]) {
                    let key = t.loadUnaligned(fromByteOffset: i * length + offset, as: UInt64.self)
                    starts[key, default: []].append((i, offset))
                    filter[Int(key & 0xFFFF)] = true
                }
            }
        }
        var found: [Copy] = []
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw") else { continue }
            if fields.count >= 6, fields[5] == "[vvar]" || fields[5] == "[vsyscall]" { continue }
            let range = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard range.count == 2 else { continue }
            let size = Int(range[1] - range[0])
            let name =
                state.map { (range[0]...range[1]).contains($0) } == true
                ? "the generator's state pages" : fields.count >= 6 ? String(fields[5]) : "anonymous"
            let region = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { region.deallocate() }
            let n = pread(mem, region.baseAddress, size, off_t(Int64(range[0])))
            guard n >= chunk, let base = region.baseAddress else { continue }
            tokens.withUnsafeBytes { t in
                var i = 0
                while i + chunk <= n {
                    let key = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if filter[Int(key & 0xFFFF)], let candidates = starts[key] {
                        for c in candidates where memcmp(base + i, t.baseAddress! + c.token * length + c.offset, chunk) == 0 {
                            let around = UnsafeRawBufferPointer(
                                rebasing: UnsafeRawBufferPointer(start: base, count: n)[Swift.max(0, i - 32)..<Swift.min(n, i + chunk + 32)]
                            )
                            let context = String(decoding: around.map { (0x20..<0x7F).contains($0) ? $0 : 0x2E }, as: UTF8.self)
                            found.append(
                                Copy(
                                    token: c.token, half: c.offset == 0 ? "first \(chunk)" : "last \(chunk)", region: name, offset: i,
                                    address: range[0] + UInt(i), context: context))
                        }
                    }
                    i += 1
                }
            }
        }
        return found
    }

    @Test func handedOutTokensAreErased() throws {
        let copies = try Self.tokensLeftInMemory(erase: true)
        #expect(copies.isEmpty, "\(copies.count) copies: \(copies.prefix(5))")
    }

    /// Long tokens over SIMD and scalar paths, over several refills (copies in vector registers used
    /// to reach the stack through lazy binding): hex×32, decimal×40, ACGT×48, base64url×64.
    @Test(arguments: [
        ("0123456789abcdef", 32), ("0123456789", 40), ("ACGT", 48),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 64),
    ])
    func longTokensAreErased(symbols: String, length: Int) throws {
        let copies = try Self.tokensLeftInMemory(erase: true, symbols: Array(symbols.utf8), length: length, count: 400)
        #expect(copies.isEmpty, "\(copies.count) copies: \(copies.prefix(5))")
    }

    @Test(arguments: [IDFormat.uuid4, .ksuid, .nanoid])
    func formatIdsAreErased(format: IDFormat) throws {
        let generator = IDGenerator(format, monotonic: false)
        let copies = try Self.tokensLeftInMemory(length: format.length, count: 400) { generator.fill($0, separator: nil) }
        #expect(copies.isEmpty, "\(copies.count) copies: \(copies.prefix(5))")
    }

    @Test func controlWithoutErasureFindsThem() throws {
        // Every token is still in the child's buffer and in the generator's state pages.
        let copies = try Self.tokensLeftInMemory(erase: false)
        #expect(Set(copies.map(\.token)).count >= 90)
        #expect(copies.contains { $0.region == "the generator's state pages" })
    }
}
