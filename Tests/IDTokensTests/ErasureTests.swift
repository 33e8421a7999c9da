import Foundation
import TestSupport
import Testing

@testable import IDTokens

/// "The generator keeps no copy of a token it handed out": a forked child mints 100 tokens into a
/// buffer, sends them to the parent and erases its buffer, then stops; the parent reads the child's
/// whole writable memory through /proc/PID/mem and looks for every token. The control, with erasure
/// switched off, finds them, so the scan can fail.
@Suite(.serialized) struct ErasureTests {

    /// How many of the child's tokens (of `length` symbols over `symbols`) are still in its memory.
    static func tokensLeftInMemory(erase: Bool, symbols: [UInt8] = Alphabet.base62.bytes!, length: Int = 22, count: Int = 100) throws -> Int
    {
        var options = TokenEngine.Options()
        options.erase = erase
        let generator = try TokenGenerator(bytes: symbols, length: length, source: SecureRandom(), options: options)
        return try tokensLeftInMemory(length: length, count: count) { generator.fill($0, separator: nil) }
    }

    /// The same for any minting function: the child fills a buffer, sends it, erases it and stops (the
    /// stop is a libc call, which may bind lazily and save the vector registers on the stack).
    static func tokensLeftInMemory(length: Int, count: Int, fill: (UnsafeMutableRawBufferPointer) -> Int) throws -> Int {
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
        var found = Set<Int>()
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw") else { continue }
            if fields.count >= 6, fields[5] == "[vvar]" || fields[5] == "[vsyscall]" { continue }
            let range = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard range.count == 2 else { continue }
            let size = Int(range[1] - range[0])
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
                            found.insert(c.token)
                        }
                    }
                    i += 1
                }
            }
        }
        return found.count
    }

    @Test func handedOutTokensAreErased() throws {
        #expect(try Self.tokensLeftInMemory(erase: true) == 0)
    }

    /// Long tokens over SIMD and scalar paths, over several refills (copies in vector registers used
    /// to reach the stack through lazy binding): hex×32, decimal×40, ACGT×48, base64url×64.
    @Test(arguments: [
        ("0123456789abcdef", 32), ("0123456789", 40), ("ACGT", 48),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 64),
    ])
    func longTokensAreErased(symbols: String, length: Int) throws {
        #expect(try Self.tokensLeftInMemory(erase: true, symbols: Array(symbols.utf8), length: length, count: 400) == 0)
    }

    @Test(arguments: [IDFormat.uuid4, .ksuid, .nanoid])
    func formatIdsAreErased(format: IDFormat) throws {
        let generator = IDGenerator(format, monotonic: false)
        #expect(try Self.tokensLeftInMemory(length: format.length, count: 400) { generator.fill($0, separator: nil) } == 0)
    }

    @Test func controlWithoutErasureFindsThem() throws {
        #expect(try Self.tokensLeftInMemory(erase: false) >= 90)
    }
}
