import Foundation
import TestSupport
import Testing

@testable import IDTokens

/// "The generator keeps no copy of a token it handed out": a forked child mints tokens into a buffer,
/// sends them to the parent and erases its buffer, then stops; the parent reads the child's whole
/// writable memory through /proc/PID/mem and looks for the first and last 16 bytes of every token.
/// The control, with erasure switched off, finds them, so the scan can fail.
///
/// The generator keeps symbols it sampled and has not handed out yet (its pending symbols, up to
/// ~6,000): random text over the same alphabet, which matches a 16-symbol probe by chance. Over ACGT a
/// probe holds 32 bits, so 800 probes against ~4,600 pending windows match about once in 1,200 runs
/// (4,600 × 800 / 2³²): what made this suite fail at random. A match that lies within the pending
/// symbols is such a coincidence — they were never handed out — and is reported apart, not as a
/// copy; ``pendingSymbolsMatchShortProbes()`` shows the scan finds them there when probes are short.
@Suite(.serialized) struct ErasureTests {

    /// A token's bytes found in the stopped child's memory.
    struct Copy: CustomStringConvertible {
        /// Which token (in minting order) and which of its two probes: its first or its last bytes.
        var token: Int, half: String
        /// The mapping it lies in, by name ("[heap]", "[stack]", the generator's state pages, a file,
        /// "anonymous"), and where.
        var region: String, offset: Int, address: UInt
        /// Within the generator's pending symbols (never handed out): a coincidence, not a copy.
        var pending: Bool
        /// The bytes around it (printable ASCII, others as '.'), to tell a copy from a chance match.
        var context: String

        var description: String {
            "token \(token)'s \(half) bytes in \(region)\(pending ? " (pending symbols)" : "") at offset \(offset) "
                + "(0x\(String(address, radix: 16))): \(context)"
        }
    }

    /// Where a generator keeps its state and its pending symbols, in the parent and so in the child.
    struct State {
        var region: UInt
        var symbols: UInt
        var cursor: UInt
    }

    /// What the child's memory holds of the tokens (of `length` symbols over `symbols`) it handed out.
    static func tokensLeftInMemory(
        erase: Bool, symbols: [UInt8] = Alphabet.base62.bytes!, length: Int = 22, count: Int = 100, probe: Int = 16
    ) throws -> [Copy] {
        var options = TokenEngine.Options()
        options.erase = erase
        let generator = try TokenGenerator(bytes: symbols, length: length, source: SecureRandom(), options: options)
        let engine = generator.engine
        let state = State(
            region: UInt(bitPattern: engine.regionAddress), symbols: UInt(bitPattern: engine.symbolsAddress),
            cursor: UInt(bitPattern: engine.cursorAddress))
        return try tokensLeftInMemory(length: length, count: count, probe: probe, state: state) { generator.fill($0, separator: nil) }
    }

    /// The same for any minting function: the child fills a buffer, sends it, erases it and stops (the
    /// stop is a libc call, which may bind lazily and save the vector registers on the stack).
    static func tokensLeftInMemory(
        length: Int, count: Int, probe: Int = 16, state: State? = nil, fill: (UnsafeMutableRawBufferPointer) -> Int
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
        // memory, a 16-bit filter on each 8-byte word, then an exact comparison.
        let chunk = Swift.min(probe, length)
        // The child's pending symbols: its cursor, read where the parent's generator keeps it.
        var pending: Range<UInt> = 0..<0
        if let state {
            var cursor: (Int, Int) = (0, 0)
            if pread(mem, &cursor, 16, off_t(Int64(bitPattern: UInt64(state.cursor)))) == 16, cursor.0 >= 0, cursor.0 <= cursor.1 {
                pending = (state.symbols + UInt(cursor.0))..<(state.symbols + UInt(cursor.1))
            }
        }
        // Probes of 15 bytes or more cover a whole aligned 8-byte word wherever they lie: index each
        // probe by its words at the 8 shifts j and read memory a word at a time (an occurrence at i is
        // seen once, at the aligned word j bytes in). Shorter probes are looked for at every byte.
        let stride = chunk >= 15 ? 8 : 1
        var starts: [UInt64: [(token: Int, offset: Int, shift: Int)]] = [:]
        let filter = UnsafeMutablePointer<Bool>.allocate(capacity: 65536)
        filter.initialize(repeating: false, count: 65536)
        defer { filter.deallocate() }
        tokens.withUnsafeBytes { t in
            for i in 0..<count {
                for offset in Set([0, length - chunk]) {
                    for shift in 0..<stride {
                        let key = t.loadUnaligned(fromByteOffset: i * length + offset + shift, as: UInt64.self)
                        starts[key, default: []].append((i, offset, shift))
                        filter[Int(key & 0xFFFF)] = true
                    }
                }
            }
        }
        // The stopped thread's stack pointer (/proc/PID/syscall: number, six arguments, sp, pc): its
        // mapping is the stack the child ran on, a thread's stack that maps reads as anonymous.
        let syscall = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
        let words = syscall.split(whereSeparator: \.isWhitespace)
        let sp = words.count >= 3 ? UInt(words[words.count - 2].dropFirst(2), radix: 16) : nil
        var found: [Copy] = []
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw") else { continue }
            if fields.count >= 6, fields[5] == "[vvar]" || fields[5] == "[vsyscall]" { continue }
            let range = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard range.count == 2 else { continue }
            let size = Int(range[1] - range[0])
            let name =
                state.map { (range[0]..<range[1]).contains($0.region) } == true
                ? "the generator's state pages"
                : sp.map { (range[0]..<range[1]).contains($0) } == true
                    ? "the child's stack" : fields.count >= 6 ? String(fields[5]) : "anonymous"
            let region = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { region.deallocate() }
            let n = pread(mem, region.baseAddress, size, off_t(Int64(range[0])))
            guard n >= chunk, let base = region.baseAddress else { continue }
            tokens.withUnsafeBytes { t in
                let words = base.assumingMemoryBound(to: UInt64.self)
                var at = 0
                while at + 8 <= n {
                    let key = stride == 8 ? words[at / 8] : base.loadUnaligned(fromByteOffset: at, as: UInt64.self)
                    if filter[Int(key & 0xFFFF)], let candidates = starts[key] {
                        for c in candidates {
                            let i = at - c.shift
                            guard i >= 0, i + chunk <= n, memcmp(base + i, t.baseAddress! + c.token * length + c.offset, chunk) == 0 else {
                                continue
                            }
                            let around = UnsafeRawBufferPointer(
                                rebasing: UnsafeRawBufferPointer(start: base, count: n)[Swift.max(0, i - 32)..<Swift.min(n, i + chunk + 32)]
                            )
                            let context = String(decoding: around.map { (0x20..<0x7F).contains($0) ? $0 : 0x2E }, as: UTF8.self)
                            let address = range[0] + UInt(i)
                            found.append(
                                Copy(
                                    token: c.token, half: c.offset == 0 ? "first \(chunk)" : "last \(chunk)", region: name, offset: i,
                                    address: address, pending: pending.contains(address) && address + UInt(chunk) <= pending.upperBound,
                                    context: context))
                        }
                    }
                    at += stride
                }
            }
        }
        return found
    }

    @Test func handedOutTokensAreErased() throws {
        let copies = try Self.tokensLeftInMemory(erase: true).filter { !$0.pending }
        #expect(copies.isEmpty, "\(copies.count) copies: \(copies.prefix(5))")
    }

    /// Long tokens over SIMD and scalar paths, over several refills (copies in vector registers used
    /// to reach the stack through lazy binding): hex×32, decimal×40, ACGT×48, base64url×64.
    @Test(arguments: [
        ("0123456789abcdef", 32), ("0123456789", 40), ("ACGT", 48),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 64),
    ])
    func longTokensAreErased(symbols: String, length: Int) throws {
        let copies = try Self.tokensLeftInMemory(erase: true, symbols: Array(symbols.utf8), length: length, count: 400).filter {
            !$0.pending
        }
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
        let copies = try Self.tokensLeftInMemory(erase: false).filter { !$0.pending }
        #expect(Set(copies.map(\.token)).count >= 90)
        #expect(copies.contains { $0.region == "the generator's state pages" })
    }

    /// A planted copy is found wherever it lies, and named: half of token 7 copied to an odd offset of
    /// a heap block the child keeps.
    @Test func aPlantedCopyIsNamed() throws {
        let generator = try TokenGenerator(alphabet: .base62, length: 22)
        let copies = try Self.tokensLeftInMemory(length: 22, count: 100) { raw in
            let n = generator.fill(raw, separator: nil)
            let block = malloc(64)!
            memcpy(block + 3, raw.baseAddress! + 7 * 22 + 6, 16)
            return n
        }
        // The memcpy leaves the bytes in a vector register too, which the child's next lazily bound
        // libc call saves on its stack: the generator clears its own registers, not its caller's.
        let planted = copies.filter { $0.token == 7 && $0.half == "last 16" && $0.region != "the child's stack" }
        #expect(planted.count == 1 && ["[heap]", "anonymous"].contains(planted.first?.region ?? ""), "\(copies)")
        #expect(copies.allSatisfy { $0.token == 7 }, "\(copies)")
    }

    /// The pending symbols are where chance matches fall, and the scan tells them apart: with 8-symbol
    /// probes (16 bits over ACGT), 800 probes against the ~4,600 pending windows match about 56 times
    /// (fewer than 10 with probability below 10⁻¹²), each inside the pending symbols.
    @Test func pendingSymbolsMatchShortProbes() throws {
        let copies = try Self.tokensLeftInMemory(erase: true, symbols: Array("ACGT".utf8), length: 48, count: 400, probe: 8)
        let pending = copies.filter(\.pending)
        #expect(pending.count >= 10, "\(pending.count) of \(copies.count) matches in the pending symbols: \(copies.prefix(3))")
    }
}
