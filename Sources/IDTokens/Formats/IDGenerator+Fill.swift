internal import CTokens

// Many ids at once: into an array, a text buffer (a separator after each) or a binary one.

extension IDGenerator {
    /// `count` ids, in minting order.
    public func next(_ count: Int) -> [String] {
        (0..<Swift.max(0, count)).map { _ in next() }
    }

    /// Writes as many whole ids as fit into `buffer`, each followed by `separator` when given, and
    /// returns how many it wrote. Nothing is allocated. Every format but the decimal Snowflake family
    /// (`IDFormat.isDecimal`) writes ``length`` bytes an id; for those, whose ids vary in length, use
    /// ``write(into:separator:limit:)``, which also says how many bytes it wrote.
    @discardableResult
    public func fill(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) -> Int {
        fill(buffer, separator: separator, checked: false).ids
    }

    /// As ``fill(_:separator:)``, but stops at the end of the format's time: returns fewer ids than fit
    /// when it came part way through (the ids before it are written), and throws
    /// ``IDGeneratorError/endOfTime(_:)`` when not even one id could be minted.
    @discardableResult
    public func fillChecked(_ buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A) throws(IDGeneratorError) -> Int {
        try write(into: buffer, separator: separator).ids
    }

    /// As ``fillChecked(_:separator:)``, for every format: the ids written (at most `limit`) and the
    /// bytes they take (separators included), which a decimal format's varying lengths make worth
    /// knowing.
    public func write(
        into buffer: UnsafeMutableRawBufferPointer, separator: UInt8? = 0x0A, limit: Int = .max
    ) throws(IDGeneratorError) -> (ids: Int, bytes: Int) {
        let stride = length + (separator == nil ? 0 : 1)
        let written = fill(buffer, separator: separator, checked: true, limit: limit)
        if written.ids == 0 && buffer.count >= stride { throw .endOfTime(format) }
        return written
    }

    /// Inlined into its callers, each with `checked` a constant.
    @inline(__always)
    func fill(
        _ buffer: UnsafeMutableRawBufferPointer, separator: UInt8?, checked: Bool, limit: Int = .max
    ) -> (ids: Int, bytes: Int) {
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, 0) }
        dropBatch()
        let stride = length + (separator == nil ? 0 : 1)
        let count = Swift.min(buffer.count / stride, Swift.max(0, limit))
        if format == .nanoid, let tokens {
            let n = tokens.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[..<(count * stride)]), separator: separator)
            return (n, n * stride)
        }
        if format == .cuid2, let engine = tokens?.engine {
            // 23 base36 symbols after each id's first character, then the letters.
            engine.fill(base + 1, count: count, stride: stride, separator: separator)
            letters(base, count: count, stride: stride)
            return (count, count * stride)
        }
        if format == .uuid4 || format == .uuid8 || (format == .ulid && !monotonic) {
            let n = fillFresh(base, count: count, stride: stride, separator: separator, checked: checked)
            return (n, n * stride)
        }
        if format == .ksuid {
            let n = fillKSUID(base, count: count, stride: stride, separator: separator, checked: checked)
            return (n, n * stride)
        }
        if format.hasMonotonicMode && monotonic {
            let n = fillMonotonic(base, count: count, stride: stride, separator: separator, checked: checked)
            return (n, n * stride)
        }
        if format == .uuid1 || format == .uuid6 || format == .xid || format == .objectid {
            let n = fillNodeWide(base, count: count, stride: stride, separator: separator, checked: checked)
            idt_scrub_stack()
            return (n, n * stride)
        }
        if format.isDecimal || format == .tsid {
            let done = fillSnowflakes(
                base, end: base + buffer.count, stride: stride, separator: separator, checked: checked, limit: Swift.max(0, limit))
            idt_scrub_stack()
            return done
        }
        var out = base
        let end = base + buffer.count
        var written = 0
        var now = clock()
        // A decimal id may be shorter than `length`: go on while a longest one still fits.
        while end - out >= stride && written < limit {
            // The clock once per 256 ids (well under a millisecond of minting): a monotonic generator orders ids
            // within one millisecond by itself.
            if written & 255 == 255 { now = clock() }
            let n = write(out, checked: checked, now: now)
            guard n > 0 else { break }
            out += n
            if let separator {
                out[0] = separator
                out += 1
            }
            written += 1
        }
        idt_scrub_stack()
        return (written, out - base)
    }

    /// Writes as many whole ids as fit into `buffer` in their binary form (`IDFormat.binaryLength`
    /// bytes each, big-endian, no separator) and returns how many; throws
    /// ``IDGeneratorError/noBinaryForm(_:)`` for text-only formats (nanoid, cuid2, firebase; TypeID's
    /// binary form is its UUID, without the prefix) and ``IDGeneratorError/endOfTime(_:)`` as
    /// ``fillChecked(_:separator:)`` does.
    public func fillBinary(_ buffer: UnsafeMutableRawBufferPointer) throws(IDGeneratorError) -> Int {
        guard let size = format.binaryLength else { throw .noBinaryForm(format) }
        guard let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        dropBatch()
        let count = buffer.count / size
        var written = 0
        var now = clock()
        while written < count {
            if written & 255 == 255 { now = clock() }
            guard writeBinary(base + written * size, checked: true, now: now) else { break }
            written += 1
        }
        idt_scrub_stack()
        if written == 0 && count > 0 { throw .endOfTime(format) }
        return written
    }

    /// One id's binary form at `out` (`IDFormat.binaryLength` bytes); false (nothing written) past the
    /// end of time when `checked`, or for a text-only format.
    @inline(__always)
    func writeBinary(_ out: UnsafeMutablePointer<UInt8>, checked: Bool, now: UInt64?) -> Bool {
        if format == .ksuid {
            // The 20 bytes the text form encodes: the stamp, then 16 random bytes.
            let seconds = (now ?? clock()) / 1000
            let inRange = seconds >= Self.ksuidEpoch && seconds - Self.ksuidEpoch <= UInt64(UInt32.max)
            if _slowPath(!inRange && checked) { return false }
            let stamp = seconds < Self.ksuidEpoch ? 0 : UInt32(clamping: seconds - Self.ksuidEpoch)
            let raw = UnsafeMutableRawPointer(out)
            raw.storeBytes(of: stamp.bigEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: keystream.next(), toByteOffset: 4, as: UInt64.self)
            raw.storeBytes(of: keystream.next(), toByteOffset: 12, as: UInt64.self)
            return true
        }
        guard let size = format.binaryLength, let v = value(checked: checked, now: now) else { return false }
        for i in 0..<size { out[i] = UInt8(truncatingIfNeeded: v >> UInt128(8 * (size - 1 - i))) }
        return true
    }
}
