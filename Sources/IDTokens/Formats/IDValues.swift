#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Ids as values rather than text: bytes, `UUID`s, 64-bit integers.
///
/// ```swift
/// let orders = IDGenerator(.uuid7)
/// let key: UUID = try orders.nextUUID()                  // 16 bytes in a UUID column
/// let tweets = try IDGenerator(.snowflake, node: 17)
/// let id: UInt64 = try tweets.nextUInt64()               // 2125782346924888064-shaped
/// ```
extension IDGenerator {
    /// The next id's binary form: `IDFormat.binaryLength` bytes, big-endian (a UUID's 16, an xid's
    /// or ObjectId's 12, a Snowflake's 8; TypeID: its UUID). Throws
    /// ``IDGeneratorError/noBinaryForm(_:)`` for the text-only formats (nanoid, cuid2, firebase) and
    /// ``IDGeneratorError/endOfTime(_:)`` as `nextChecked()` does.
    public func nextBytes() throws(IDGeneratorError) -> [UInt8] {
        guard let size = format.binaryLength else { throw .noBinaryForm(format) }
        dropBatch()
        var ok = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            ok = writeBinary(base, checked: true, now: nil)
            count = ok ? size : 0
        }
        guard ok else { throw .endOfTime(format) }
        return bytes
    }

    /// The next id as a `UUID`, for the 16-byte formats (uuid1, uuid4, uuid6, uuid7, uuid8, and the
    /// UUIDv7 inside a TypeID; a ULID's 128 bits too). Throws ``IDGeneratorError/noBinaryForm(_:)``
    /// for other formats.
    public func nextUUID() throws(IDGeneratorError) -> UUID {
        guard format.binaryLength == 16 else { throw .noBinaryForm(format) }
        let b = try nextBytes()
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// The next id as its 64-bit number, for the Snowflake family and TSID (its 13 characters are this
    /// number in Crockford base32). Throws ``IDGeneratorError/noBinaryForm(_:)`` for other formats.
    public func nextUInt64() throws(IDGeneratorError) -> UInt64 {
        guard format.binaryLength == 8 else { throw .noBinaryForm(format) }
        checkFork()
        dropBatch()
        guard let v = value(checked: true, now: nil) else { throw .endOfTime(format) }
        return UInt64(truncatingIfNeeded: v)
    }
}
