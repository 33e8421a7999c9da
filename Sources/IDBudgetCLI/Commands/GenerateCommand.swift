import ArgumentParser
import Foundation
import IDBudget
import IDQuestions
import IDTokens

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Stream random tokens or standard ids to stdout, one per line (ChaCha20 CSPRNG seeded by the kernel).",
        discussion: """
            Examples:
              idbudget generate --alphabet base62 --length 22 --count 1000000 > ids.txt
              idbudget generate --scheme uuid7 --count 1000
              idbudget generate --scheme typeid --prefix user --count 1000
              idbudget generate --alphabet base62 --length 24 --prefix sk_live_
              idbudget generate --scheme snowflake --node 17 --count 1000
              idbudget generate --scheme uuid7 --output raw --count 1000000 > ids.bin
            """
    )

    @Option(
        help: ArgumentHelp("A named alphabet: \(Alphabet.builtIns.compactMap(\.name).joined(separator: ", ")).", valueName: "name"),
        completion: .list(Alphabet.builtIns.compactMap(\.name)))
    var alphabet: String?

    @Option(
        help: ArgumentHelp(
            "Custom single-byte printable symbols, e.g. 'ACGT' (no spaces or tabs unless --allow-whitespace).", valueName: "symbols"))
    var symbols: String?

    @Flag(
        name: .customLong("allow-whitespace"),
        help: "Let --symbols include a space or a tab (tokens will hold them). Other control characters are never taken.")
    var allowWhitespace = false

    @Option(help: ArgumentHelp("Symbols per token (default 22).", valueName: "n"))
    var length: String?

    @Option(
        help: ArgumentHelp(
            "A standard id format instead of an alphabet: \(IDFormat.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "name"),
        completion: .list(IDFormat.allCases.map(\.rawValue)))
    var scheme: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Order uuid7/ulid/typeid/firebase ids within a millisecond (default: on for uuid7, typeid and firebase, off for ulid).")
    var monotonic: Bool?

    @Option(
        help: ArgumentHelp(
            "With --scheme typeid, the type prefix (up to 63 of a-z and _, not at either end: user gives user_01h4…); otherwise text written before each token or id, verbatim (printable ASCII, no spaces, at most \(GenerateSettings.maxPrefixBytes) bytes; it adds no randomness).",
            valueName: "text"))
    var prefix: String?

    @Option(
        help: ArgumentHelp(
            "With a node-id --scheme (uuid1, uuid6, xid, objectid, snowflake, discord, instagram, sonyflake, tsid), the node: all its node bits together, e.g. Discord's worker << 5 | process (37: worker 1, process 5), xid's machine id << 16 | pid (default: drawn at random per process).",
            valueName: "n"))
    var node: String?

    @Option(
        help: ArgumentHelp(
            "With --scheme snowflake, discord, instagram, sonyflake or tsid, the epoch in milliseconds since 1970 (default: the format's own).",
            valueName: "ms"))
    var epoch: String?

    @Option(
        help: ArgumentHelp(
            "text: one id a line; raw: each id's binary form, back to back, no separators (16 bytes a UUID, ULID or TypeID, 20 a KSUID, 12 an xid or ObjectId, 8 a Snowflake or TSID).",
            valueName: "form"),
        completion: .list(["text", "raw"]))
    var output: String = "text"

    @Option(help: ArgumentHelp("How many tokens (0: none, an empty batch).", valueName: "n"))
    var count: String = "1"

    @Option(help: ArgumentHelp("NOT SECURE: a 64-bit seed for reproducible tokens (tests and demos only).", valueName: "n"))
    var seed: String?

    /// The options by the one layer's names (`GenerateSettings.parameters`); flags as `true`/`false`.
    var named: [(String, String?)] {
        [
            ("alphabet", alphabet), ("symbols", symbols), ("allow-whitespace", allowWhitespace ? "true" : nil), ("length", length),
            ("scheme", scheme), ("monotonic", monotonic.map { $0 ? "true" : "false" }), ("prefix", prefix), ("node", node),
            ("epoch", epoch), ("output", output), ("count", count), ("seed", seed),
        ]
    }

    /// What to mint, read by the one layer (IDQuestions), the clock the tests' fixed one where set.
    private func settings() throws -> (kind: GenerateSettings.Kind, count: Int, prefix: [UInt8]) {
        var arguments = Arguments()
        for case (let name, let value?) in named { arguments[name] = value }
        let now = Self.testClockMillis ?? UInt64(Date().timeIntervalSince1970 * 1000)
        let s = try usage { () throws(ArgumentError) in try GenerateSettings(arguments, now: now) }
        return (s.kind, s.count, s.prefix)
    }

    /// The tests' fixed clock (ms since the Unix epoch, `IDBUDGET_TEST_CLOCK_MS`), to reach the end of
    /// the formats' time and to mint node-id formats without waiting for the real one. Compiled into
    /// debug builds only (what `swift test` runs): a release binary never reads it, so no environment
    /// can make an installed `idbudget` stamp ids with a time that is not the clock's (`.ci/run` checks).
    static var testClockMillis: UInt64? {
        #if DEBUG
            ProcessInfo.processInfo.environment["IDBUDGET_TEST_CLOCK_MS"].flatMap(UInt64.init)
        #else
            nil
        #endif
    }

    func run() throws {
        let (kind, count, prefix) = try settings()
        switch kind {
        case .format(let format, let monotonic, let typePrefix, let node, let epoch, let raw):
            let ids =
                node != nil || epoch != nil
                ? try IDGenerator(format, node: node, epoch: epoch) : try IDGenerator(format, prefix: typePrefix, monotonic: monotonic)
            if let millis = Self.testClockMillis { ids.fixClock(at: millis) }
            // Past the end of the format's time: the ids minted before it are written, then one line
            // and exit status 70 (Entry).
            if raw, let size = format.binaryLength {
                try stream(length: size - 1, count: count, prefix: []) { buffer in
                    let n = try ids.fillBinary(buffer)
                    return (n, n * size)
                }
            } else {
                try stream(length: ids.length, count: count, prefix: prefix) { try ids.write(into: $0, limit: $0.count / (ids.length + 1)) }
            }
            // Minting past a node's ceiling borrowed ticks ahead of the clock: let the clock pass them
            // before exiting, so that the next run on this node can not mint these ids again.
            let lead = ids.clockLead
            if lead >= 1000 {
                let ceiling = format.node.map { "\($0.perTick) ids per \(Planner.tickText($0.tick))" } ?? ""
                Output.diagnostic(
                    "idbudget: note: waiting \(String(format: "%.1f", Double(lead) / 1000)) s for the clock to pass the last \(format.rawValue) tick used (one node mints at most \(ceiling)), so that a later run on this node can not repeat these ids"
                )
            }
            ids.waitForClock()
        case .tokens(let bytes, let length, let seed?):
            Output.diagnostic(
                "idbudget: warning: --seed \(seed) makes the output predictable; NOT SECURE, do not use these tokens as identifiers")
            let tokens = try TokenGenerator(bytes: bytes, length: length, source: SeededRandom(seed: seed))
            try stream(length: length, count: count, prefix: prefix) { Self.fixed(tokens.fill($0), length) }
        case .tokens(let bytes, let length, nil):
            let tokens = try TokenGenerator(bytes: bytes, length: length, source: SecureRandom())
            try stream(length: length, count: count, prefix: prefix) { Self.fixed(tokens.fill($0), length) }
        }
    }

    /// Unix milliseconds as ISO 8601 UTC.
    static func iso(_ millis: UInt64) -> String { UTCTime.iso(millis: Int64(clamping: millis)) }

    /// Ids of `length` bytes and a newline: how many, and their bytes.
    private static func fixed(_ ids: Int, _ length: Int) -> (ids: Int, bytes: Int) { (ids, ids * (length + 1)) }

    /// Fills a large buffer at a time and writes it whole; a closed pipe (`| head`) ends quietly, any
    /// other write error with exit status 74. `length`: the longest id (a decimal one may be shorter);
    /// `fill` returns the ids and bytes it wrote, each id followed by a newline (raw output: by nothing,
    /// and `length` is one less than an id's bytes).
    /// With a `prefix`, the ids are minted into a scratch buffer and copied line by line after it
    /// (then both are wiped).
    private func stream(
        length: Int, count: Int, prefix: [UInt8], fill: (UnsafeMutableRawBufferPointer) throws -> (ids: Int, bytes: Int)
    ) throws {
        if !prefix.isEmpty {
            let inner = length + 1
            let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(inner, (1 << 16) / inner * inner), alignment: 64)
            defer {
                scratch.initializeMemory(as: UInt8.self, repeating: 0)
                scratch.deallocate()
            }
            try stream(length: prefix.count + length, count: count, prefix: []) { out in
                let k = Swift.min(out.count / (prefix.count + inner), scratch.count / inner)
                let (ids, bytes) = try fill(UnsafeMutableRawBufferPointer(rebasing: scratch[..<(k * inner)]))
                var to = 0
                var from = 0
                while from < bytes {
                    var end = from
                    while scratch[end] != 0x0A { end += 1 }
                    out[to..<(to + prefix.count)].copyBytes(from: prefix)
                    to += prefix.count
                    UnsafeMutableRawBufferPointer(rebasing: out[to..<(to + end + 1 - from)])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[from..<(end + 1)]))
                    to += end + 1 - from
                    from = end + 1
                }
                return (ids, to)
            }
            return
        }
        signal(SIGPIPE, SIG_IGN)
        let stride = length + 1
        let capacity = Swift.max(stride, (1 << 16) / stride * stride)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
        defer { buffer.deallocate() }
        var remaining = count
        while remaining > 0 {
            let ids = Swift.min(remaining, capacity / stride)
            let (written, bytes) = try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[..<(ids * stride)]))
            remaining -= written
            do {
                try Output.write(UnsafeRawBufferPointer(rebasing: buffer[..<bytes]))
            } catch let error as WriteError where error.isClosedPipe {
                return  // `| head`: the reader has what it wanted
            }
            // The ids are out; keep no copy of them in this process.
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
        }
    }
}
