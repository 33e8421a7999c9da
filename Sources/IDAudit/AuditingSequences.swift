import IDBudget
import IDFormats

extension Auditor {
    /// Audits ids held in memory: each element is one id, as if written one per line (so an element
    /// holding a newline counts as two lines). One audit per `Auditor`: a second throws.
    ///
    /// ```swift
    /// let report = try Auditor().audit(["3f9a…", "c01b…"])
    /// print(report.verdict, report.passes)
    /// ```
    /// `scheme`: the node-id layout to read the ids in when several fit (see ``AuditAnalysis``).
    public func audit<Ids: Sequence>(_ ids: Ids, claimedBits: Int? = nil, scheme: IDFormat? = nil) throws -> AuditReport
    where Ids.Element: StringProtocol {
        try audit(ids.lazy.map { $0.utf8 }, claimedBits: claimedBits, scheme: scheme)
    }

    /// Audits ids given as bytes (`[UInt8]`, `Data`, a `Substring.UTF8View`, …), one id per element.
    public func audit<Ids: Sequence>(_ ids: Ids, claimedBits: Int? = nil, scheme: IDFormat? = nil) throws -> AuditReport
    where Ids.Element: Collection, Ids.Element.Element == UInt8 {
        guard bytesRead == 0, !hasFinished else {
            throw InputError("this Auditor has already audited its ids; make a new Auditor for each audit")
        }
        if let claimedBits, claimedBits < 1 || claimedBits > Limits.maxSpaceBits {
            throw InputError("claimed bits must be from 1 to \(Limits.maxSpaceBits), got \(claimedBits)")
        }
        let capacity = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
        defer { buffer.deallocate() }
        var filled = 0
        func flush() throws {
            try consume(UnsafeRawBufferPointer(rebasing: buffer[..<filled]))
            filled = 0
        }
        for id in ids {
            for byte in id {
                if filled == capacity { try flush() }
                buffer[filled] = byte
                filled += 1
            }
            if filled == capacity { try flush() }
            buffer[filled] = 10
            filled += 1
        }
        try flush()
        return try AuditReport(summary: try finish(), claimedBits: claimedBits, scheme: scheme, now: now)
    }
}
