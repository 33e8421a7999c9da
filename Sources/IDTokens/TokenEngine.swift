internal import CTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The non-generic hot path: random bytes become a run of accepted symbols, and tokens are cut from it.
///
/// Sampling a whole pool at once lets the rejection test be branch-free (every chunk's symbol is
/// written, and the write position advances only when the chunk was accepted), which is what makes
/// the bulk path run at several times the speed of a symbol-at-a-time loop.
///
/// Everything derived from the keystream — the pool and the sampled symbols, with their positions —
/// lives in a ``StateRegion``, so a forked child finds it empty and samples afresh from a reseeded
/// stream. Symbols are erased as they are handed out (before each public call returns), and the pool
/// as soon as it is sampled: the state never holds a token already issued.
///
/// Every alphabet reads the random bytes in one fixed order whatever the CPU: 6-bit alphabets as
/// groups of 12 bytes, each 3 bytes giving four big-endian 6-bit chunks (as base64 reads them), which
/// is what the SSSE3 kernel computes; other chunk sizes take little-endian 64-bit words, low bits first.
/// So a seed gives the same tokens with and without SIMD.
final class TokenEngine {
    static let maxLength = 1 << 20
    /// Random bytes taken per sampling round: 8 rounds use one keystream refill (4064 bytes) exactly.
    static let poolBytes = Keystream.usableBytes / 8
    /// 6-bit reading: 42 groups of 12 bytes (504 bytes; the SIMD loads read 4 bytes further).
    static let groups6 = 42
    /// Other chunk sizes: 62 little-endian words (496 bytes), which the 16-symbol kernel reads as 31
    /// groups of 16 bytes.
    static let words = 62
    /// Symbols are sampled until at least this many are ready.
    static let symbolTarget = 4096

    /// Switches the tests use to reach every path and to show that their checks can fail.
    /// `IDTOKENS_NO_SIMD=1` (any value but empty or 0) turns the SIMD kernels off (the output is the same).
    struct Options {
        var simd = { () -> Bool in
            guard let v = getenv("IDTOKENS_NO_SIMD") else { return true }
            return v.pointee == 0 || String(cString: v) == "0"
        }()
        var forkProtection = ForkProtection.automatic
        var erase = true
    }

    let sampler: SymbolSampler
    let length: Int
    let isASCII: Bool
    private let keystream: Keystream?
    var refill: ((UnsafeMutableRawBufferPointer) -> Void)?

    private let region: StateRegion
    private let claimsEachUse: Bool
    /// [0] the first ready symbol, [1] one past the last: both 0 in a freshly wiped region.
    private let cursor: UnsafeMutablePointer<Int>
    private let pool: UnsafeMutableRawPointer
    private let symbols: UnsafeMutablePointer<UInt8>
    private let symbolCapacity: Int
    private let table: [UInt16]
    private let bits: Int
    private let erase: Bool
    private enum Kernel {
        case simd6(UnsafeMutablePointer<UInt8>)
        case simd4(UnsafeMutablePointer<UInt8>)
        case simd8(UnsafeMutablePointer<UInt8>)
        case scalar6, scalar
    }
    private let kernel: Kernel
    private let alphabetSize: Int

    init(sampler: SymbolSampler, length: Int, keystream: Keystream?, protection: ForkProtection, options: Options = Options()) {
        self.sampler = sampler
        self.length = length
        self.keystream = keystream
        table = sampler.table
        bits = sampler.bits
        erase = options.erase
        isASCII = sampler.table.allSatisfy { $0 == SymbolSampler.reject || $0 < 0x80 }
        alphabetSize = sampler.table.filter { $0 != SymbolSampler.reject }.count
        // SSSE3 and up on x86-64, NEON on AArch64 (idt_sample6 picks the kernel; idt_sample4 has no NEON one).
        let simd = options.simd && (idt_sample6_available() != 0 || idt_sample6_neon_available() != 0)
        func padded(_ size: Int = 64) -> UnsafeMutablePointer<UInt8> {
            let t = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
            t.initialize(repeating: 0, count: size)
            for c in 0..<sampler.table.count { t[c] = UInt8(truncatingIfNeeded: sampler.table[c]) }
            return t
        }
        switch (sampler.bits, simd) {
        case (6, true): kernel = .simd6(padded())
        case (6, false): kernel = .scalar6
        // The 4-bit kernel rejects nothing, so it serves exactly 16 symbols; 5 and 11–15 take the scalar path.
        case (4, true) where alphabetSize == 16: kernel = .simd4(padded())
        // Whole bytes (base36, most sizes over 64): AVX-512 VBMI2 only; elsewhere the Swift loop below.
        case (8, true) where idt_sample8_simd() != 0: kernel = .simd8(padded(256))
        default: kernel = .scalar
        }
        // Room for the target plus one pool's worth of chunks past it (1-bit chunks: 8 per byte), and SIMD slack.
        symbolCapacity = Self.symbolTarget + Self.poolBytes * 8 + 32
        region = StateRegion(bytes: 64 + Self.poolBytes + 16 + symbolCapacity, protection: protection)
        claimsEachUse = region.claimsEachUse
        cursor = region.body.assumingMemoryBound(to: Int.self)
        pool = region.body + 64
        symbols = (region.body + 64 + Self.poolBytes + 16).assumingMemoryBound(to: UInt8.self)
    }

    deinit {
        switch kernel {
        case .simd6(let t), .simd4(let t), .simd8(let t): t.deallocate()
        default: break
        }
    }

    /// Where the state lives (tests read the kernel's flags for it).
    var regionAddress: UnsafeMutableRawPointer { region.base }

    /// Where the sampled symbols and their cursor live: symbols `symbolsAddress + cursor[0] ..<
    /// symbolsAddress + cursor[1]` are ready and not yet handed out (the erasure tests read them in a
    /// stopped child, whose addresses are its parent's).
    var symbolsAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(symbols) }
    var cursorAddress: UnsafeMutableRawPointer { UnsafeMutableRawPointer(cursor) }

    /// Whether the kernel zeroes this state in a forked child.
    var wipesOnFork: Bool { region.wipesOnFork }

    /// Whether a SIMD kernel samples the symbols.
    var usesSIMD: Bool {
        switch kernel {
        case .simd4, .simd6, .simd8: true
        default: false
        }
    }

    /// Expected random bits spent per symbol: the bits a sampling round takes from the stream, over the
    /// symbols it accepts on average.
    var bitsPerSymbol: Double {
        let chunks = bits == 6 ? Self.groups6 * 16 : Self.words * (64 / bits)
        let accepted = Double(alphabetSize) * Double(table.count / alphabetSize) / Double(table.count)
        return Double(Self.poolBytes * 8) / (Double(chunks) * accepted)
    }

    /// Forgets state inherited through a fork (fallback mode: claims the state before each use; wiped
    /// pages are empty already).
    @inline(__always)
    private func checkFork() {
        if _slowPath(claimsEachUse && region.inherited) {
            region.erase(offset: 0, count: region.byteCount - StateRegion.headerBytes)
            region.stamp()
        }
    }

    /// Tops the run of ready symbols up to at least `symbolTarget`, keeping the unused ones; every used
    /// symbol is overwritten or erased.
    private func sample() {
        let start = cursor[0]
        let end = cursor[1]
        var n = end - start
        if n > 0 && start > 0 { symbols.update(from: symbols + start, count: n) }
        if let keystream {
            // Sample straight from the keystream's buffer, which erases the bytes afterwards. (Bound
            // once, outside the loop: a binding per round cost a retain and a release each.)
            while n < Self.symbolTarget { n = keystream.withNextBytes(Self.poolBytes) { sampleRound($0, n) } }
        } else {
            while n < Self.symbolTarget {
                refill?(UnsafeMutableRawBufferPointer(start: pool, count: Self.poolBytes))
                n = sampleRound(UnsafePointer(pool.assumingMemoryBound(to: UInt8.self)), n)
            }
        }
        if keystream == nil { idt_erase(pool, Self.poolBytes) }
        // Every old symbol is now overwritten, by the unused ones moved down or by new ones, except
        // any past the new end: erase those.
        if end > n { idt_erase(symbols + n, end - n) }
        cursor[0] = 0
        cursor[1] = n
    }

    /// Samples one round of random bytes into symbols from position `n`; returns the new end.
    @inline(__always)
    private func sampleRound(_ random: UnsafePointer<UInt8>, _ n: Int) -> Int {
        switch kernel {
        case .simd4(let t):
            idt_sample4(random, Self.words / 2, t, symbols + n)
            return n + Self.words * 16
        case .simd6(let t):
            return n + idt_sample6(random, Self.groups6, t, UInt8(alphabetSize), symbols + n)
        case .simd8(let t):
            // The same bytes, in the same order, as the scalar loop's 8-bit chunks of `words` words.
            return n + idt_sample8(random, Self.words * 8, t, UInt32(alphabetSize), UInt32(sampler.symbolCount), symbols + n)
        case .scalar6:
            return table.withUnsafeBufferPointer { Self.sampleGroups6(random, $0.baseAddress!, symbols, n) }
        case .scalar:
            // Constant chunk sizes let the compiler unroll the inner loop for the common alphabets.
            return table.withUnsafeBufferPointer { t in
                switch bits {
                case 4: Self.sampleWords(random, t.baseAddress!, symbols, n, bits: 4)
                case 5: Self.sampleWords(random, t.baseAddress!, symbols, n, bits: 5)
                case 8: Self.sampleWords(random, t.baseAddress!, symbols, n, bits: 8)
                default: Self.sampleWords(random, t.baseAddress!, symbols, n, bits: bits)
                }
            }
        }
    }

    /// Chunks of `bits` bits from little-endian 64-bit words, low bits first.
    @inline(__always)
    private static func sampleWords(
        _ random: UnsafePointer<UInt8>, _ table: UnsafePointer<UInt16>, _ symbols: UnsafeMutablePointer<UInt8>,
        _ start: Int, bits: Int
    ) -> Int {
        var n = start
        let mask = (UInt64(1) << UInt64(bits)) - 1
        let pool = UnsafeRawPointer(random)
        for w in 0..<words {
            var x = UInt64(littleEndian: pool.loadUnaligned(fromByteOffset: 8 * w, as: UInt64.self))
            for _ in 0..<(64 / bits) {
                n = put(table[Int(truncatingIfNeeded: x & mask)], symbols, n)
                x &>>= UInt64(bits)
            }
        }
        return n
    }

    /// The scalar twin of `idt_sample6`: each 3 bytes b0 b1 b2 give the chunks b0>>2, (b0&3)<<4|b1>>4,
    /// (b1&15)<<2|b2>>6, b2&63, in that order, over the same 42 groups of 12 bytes.
    @inline(__always)
    private static func sampleGroups6(
        _ random: UnsafePointer<UInt8>, _ table: UnsafePointer<UInt16>, _ symbols: UnsafeMutablePointer<UInt8>, _ start: Int
    ) -> Int {
        var n = start
        for t in 0..<(groups6 * 4) {
            let v = UInt32(random[3 * t]) << 16 | UInt32(random[3 * t + 1]) << 8 | UInt32(random[3 * t + 2])
            n = put(table[Int(truncatingIfNeeded: v >> 18)], symbols, n)
            n = put(table[Int(truncatingIfNeeded: (v >> 12) & 63)], symbols, n)
            n = put(table[Int(truncatingIfNeeded: (v >> 6) & 63)], symbols, n)
            n = put(table[Int(truncatingIfNeeded: v & 63)], symbols, n)
        }
        return n
    }

    /// Writes the symbol of table entry `e` at `n`; the next position is n + 1 when accepted, n when not.
    @inline(__always)
    private static func put(_ e: UInt16, _ symbols: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int {
        symbols[n] = UInt8(truncatingIfNeeded: e)
        return n &+ Int(truncatingIfNeeded: 1 &- (e &>> 8))
    }

    /// Copies `count` bytes with word loads and stores (the last pair overlapping) instead of a memcpy call.
    @inline(__always)
    private static func copy(_ destination: UnsafeMutablePointer<UInt8>, _ source: UnsafePointer<UInt8>, _ count: Int) {
        guard count >= 8 else {
            destination.update(from: source, count: count)
            return
        }
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(destination)
        if count >= 16 && count <= 32 {
            // Two 16-byte moves, the second ending at the last byte: no loop, no branch on the length.
            let head = from.loadUnaligned(as: SIMD16<UInt8>.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 16, as: SIMD16<UInt8>.self)
            to.storeBytes(of: head, as: SIMD16<UInt8>.self)
            to.storeBytes(of: tail, toByteOffset: count - 16, as: SIMD16<UInt8>.self)
            return
        }
        var i = 0
        while i + 8 <= count {
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
            i += 8
        }
        to.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
    }

    /// Zeroes `count` bytes with word stores (the last one overlapping) instead of a memset call; plain
    /// stores suffice, as the region outlives the call and is read again, so they cannot be dropped.
    @inline(__always)
    private static func zero(_ p: UnsafeMutablePointer<UInt8>, _ count: Int) {
        guard count >= 8 else {
            p.update(repeating: 0, count: count)
            return
        }
        let raw = UnsafeMutableRawPointer(p)
        var i = 0
        while i + 8 <= count {
            raw.storeBytes(of: 0, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        raw.storeBytes(of: 0, toByteOffset: count - 8, as: UInt64.self)
    }

    /// Writes one token of `length` symbols at `out` and erases them from the state.
    @inline(__always)
    func writeToken(_ out: UnsafeMutablePointer<UInt8>) {
        checkFork()
        let start = cursor[0]
        if _fastPath(cursor[1] - start >= length) {
            Self.copy(out, symbols + start, length)
            if erase { Self.zero(symbols + start, length) }
            cursor[0] = start + length
            return
        }
        slowToken(out)
    }

    /// A token that straddles a refill; erases what it takes.
    private func slowToken(_ out: UnsafeMutablePointer<UInt8>) {
        defer { if erase { idt_clear_registers() } }
        var written = 0
        while written < length {
            if cursor[1] == cursor[0] { sample() }
            let start = cursor[0]
            let n = Swift.min(length - written, cursor[1] - start)
            (out + written).update(from: symbols + start, count: n)
            if erase { idt_erase(symbols + start, n) }
            cursor[0] = start + n
            written += n
        }
    }

    /// Writes `capacity / (length + separator)` tokens; erases the symbols it used before returning.
    func fill(_ base: UnsafeMutablePointer<UInt8>, capacity: Int, separator: UInt8?) -> Int {
        let stride = length + (separator == nil ? 0 : 1)
        let count = capacity / stride
        fill(base, count: count, stride: stride, separator: separator)
        return count
    }

    /// Writes `count` tokens, the i-th at `base + i·stride` (`stride` ≥ `length`, plus 1 with a
    /// separator, which follows each token); the bytes between tokens are left as they are. Erases the
    /// symbols it used before returning.
    @inline(__always)
    func fill(_ base: UnsafeMutablePointer<UInt8>, count: Int, stride: Int, separator: UInt8?) {
        checkFork()
        var out = base
        var begin = cursor[0]
        var start = begin
        var end = cursor[1]
        for _ in 0..<count {
            if _fastPath(end - start >= length) {
                Self.copy(out, symbols + start, length)
                start += length
            } else {
                // No erasing here: the refill inside overwrites or erases every symbol used so far.
                cursor[0] = start
                slowToken(out)
                start = cursor[0]
                end = cursor[1]
                begin = start
            }
            if let separator { out[length] = separator }
            out += stride
        }
        if erase {
            idt_erase(symbols + begin, start - begin)
            // Copies in registers and in the frames of the calls that just returned go too.
            idt_scrub_stack()
        }
        cursor[0] = start
    }
}
