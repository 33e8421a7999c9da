/// Why an ``IDGenerator`` could not mint an id.
public enum IDGeneratorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id's time does not fit the format's timestamp: the clock is past its last value (uuid7 and
    /// ulid: 2^48 − 1 ms, 10889-08-02T05:31:50.655Z; ksuid: 2^32 − 1 s after 1400000000, in 2150, or
    /// before its start in 2014), or a monotonic generator has used up the last millisecond.
    case endOfTime(IDFormat)
    /// The prefix cannot be used with this format: why.
    case prefix(IDFormat, String)
    /// The node cannot be used with this format: why.
    case node(IDFormat, String)
    /// The epoch cannot be used with this format: why.
    case epoch(IDFormat, String)
    /// The format exists only as text (nanoid, cuid2, firebase), or is not the kind of value asked for.
    case noBinaryForm(IDFormat)

    public var description: String {
        switch self {
        case .endOfTime(.ksuid):
            "ksuid ids span 2014-05-13T16:53:20Z to 2150-06-19T23:21:35Z, the range of their 32-bit seconds timestamp: the clock is outside it"
        case .prefix(let format, let why):
            "prefix for \(format.rawValue): \(why)"
        case .node(let format, let why):
            "node for \(format.rawValue): \(why)"
        case .epoch(let format, let why):
            "epoch for \(format.rawValue): \(why)"
        case .noBinaryForm(let format):
            "\(format.rawValue) ids have no binary form of that kind\(format.binaryLength.map { "; theirs is \($0) bytes" } ?? ": they exist only as text")"
        case .endOfTime(let format) where format.node != nil:
            "\(format.rawValue) ids cover \(IDGenerator.timeRange(format)), the range of their timestamp from its epoch: the clock is outside it, or the last tick's counter is used up"
        case .endOfTime(let format):
            "\(format.rawValue) ids end at 10889-08-02T05:31:50.655Z, the last value of their 48-bit millisecond timestamp: the clock is past it or that millisecond is used up; a further id would wrap to timestamp 0"
        }
    }
}
