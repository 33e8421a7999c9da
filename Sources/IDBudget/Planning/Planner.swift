import Dispatch
import Foundation
import IDFormats
import Precise

/// The questions the CLI answers, asked from code: each returns a `Codable` answer whose JSON is the
/// CLI's `--format json` output.
///
/// ```swift
/// let volume = try Workload(count: BigInt(1_000_000_000)).volume()
/// let answer = try Planner.length(alphabet: .base62, volume: volume, budget: try Budget(parsing: "1e-12"))
/// print(answer.length)   // 12
/// ```
public enum Planner {
    /// p for `volume` ids in `space`.
    public static func probability(space: Space, volume: Volume, scheme: Scheme? = nil) throws -> ProbabilityAnswer {
        try check(volume)
        var notes = volume.notes
        if volume.groups > BigInt(1) {
            notes.append("expected ids to first collision: within one scope or bucket.")
        }
        if let scheme { notes.append("\(scheme.name): \(scheme.notes) [\(scheme.source)]") }
        let collision =
            try volume.poisson.map { try CollisionFigures(poisson: $0) } ?? volume.even.map { try CollisionFigures(even: $0) }
            ?? CollisionFigures(space: space.size, count: volume.total, groups: volume.groups)
        if collision.doubleApproximation == nil { notes.append(doubleRangeNote) }
        return ProbabilityAnswer(
            space: SpaceFigures(space), volume: VolumeFigures(volume), collision: collision,
            expectedDrawsToFirstCollision: Birthday.expectedDrawsToFirstCollision(space: space.size).description,
            notes: notes)
    }

    /// The shortest length of `alphabet` that keeps p ≤ budget, with the proof (p one symbol shorter).
    /// With a rate and a lifetime, the answer also carries the ``LengthSchedule`` (dated from `from`,
    /// none by default: pass the day to have them) when a shorter length would last at least a day.
    public static func length(
        alphabet: Alphabet, volume: Volume, budget: Budget, maxBytes: Int? = nil, from: Date? = nil
    ) throws -> LengthAnswer {
        try length(
            size: alphabet.count, name: alphabet.name ?? "custom(\(alphabet.count))", symbolBytes: alphabet.maxSymbolBytes,
            space: { try Space(alphabet: alphabet, length: $0) }, volume: volume, budget: budget, maxBytes: maxBytes, from: from)
    }

    /// The same for an alphabet known only by its size. Up to 95 symbols (all of printable ASCII) are
    /// taken as one byte each; above that the bytes of a symbol are unknown, so `bytes` is nil, a note
    /// says so, and a `maxBytes` check is refused (give the symbols instead).
    public static func length(
        alphabetSize: Int, volume: Volume, budget: Budget, maxBytes: Int? = nil, from: Date? = nil
    ) throws -> LengthAnswer {
        let known = alphabetSize <= printableASCIICount
        if !known, maxBytes != nil {
            throw InputError(
                "the bytes of \(alphabetSize) symbols are unknown (printable ASCII holds \(printableASCIICount)); give the symbols to check a byte limit",
                argument: "max-bytes")
        }
        return try length(
            size: alphabetSize, name: "\(alphabetSize) symbols", symbolBytes: known ? 1 : nil,
            space: { try Space(alphabetSize: alphabetSize, length: $0) }, volume: volume, budget: budget, maxBytes: maxBytes,
            from: from)
    }

    /// Symbols that fit one byte each: printable ASCII, space to tilde.
    public static let printableASCIICount = 95

    private static func length(
        size: Int, name: String, symbolBytes: Int?, space make: (Int) throws -> Space,
        volume: Volume, budget: Budget, maxBytes: Int?, from: Date?
    ) throws -> LengthAnswer {
        let row = try row(
            size: size, name: name, symbolBytes: symbolBytes ?? 1, space: make, volume: volume, budget: budget,
            maxBytes: maxBytes ?? Int.max)
        let bytes = symbolBytes == nil ? nil : row.bytes
        var notes = volume.notes
        if bytes == nil {
            notes.append(
                "bytes: unknown. \(size) symbols cannot all be one byte (printable ASCII holds \(printableASCIICount)); give --symbols to count the UTF-8 bytes."
            )
        }
        return LengthAnswer(
            alphabet: name, alphabetSize: size, length: row.length, bytes: bytes, space: row.space,
            volume: VolumeFigures(volume), budget: budget.text, collision: row.collision, shorterProbability: row.shorterProbability,
            maxBytes: maxBytes, fitsMaxBytes: maxBytes.map { row.bytes <= $0 },
            notes: notes + (row.collision.doubleApproximation == nil ? [doubleRangeNote] : []),
            schedule: try schedule(finalLength: row.length, space: make, volume: volume, budget: budget, from: from))
    }

    /// What `length` and a row of `plan` share (not the volume's figures: 10^600000 scopes are costly
    /// to write in decimal, and `plan` writes them once, not once per alphabet).
    private static func row(
        size: Int, name: String, symbolBytes: Int, space make: (Int) throws -> Space,
        volume: Volume, budget: Budget, maxBytes: Int
    ) throws -> PlanRow {
        try check(volume)
        guard size >= 2 else { throw InputError("an alphabet needs at least 2 symbols") }
        let length = try Birthday.minimumLength(alphabetSize: size, count: volume.total, scopes: volume.groups, budget: budget)
        let space = try make(length)
        let shorter =
            length > 1
            ? try Birthday.probability(space: try make(length - 1).size, count: volume.total, scopes: volume.groups).probability.description
            : nil
        let bytes = length * symbolBytes
        let collision = try CollisionFigures(space: space.size, count: volume.total, groups: volume.groups)
        return PlanRow(
            alphabet: name, length: length, bytes: bytes, space: SpaceFigures(space), collision: collision,
            shorterProbability: shorter, maxBytes: maxBytes, fitsMaxBytes: bytes <= maxBytes)
    }

    /// The most ids per scope with p ≤ budget over all `scopes`, and with a rate, how long they last:
    /// for a time-bucketed scheme, until p over all buckets reaches the budget (with `arrivals`, Poisson
    /// by default). With `existing` ids already stored, the capacity is how many *more* fit; with
    /// `growth`, the rate compounds continuously (see <doc:ArrivalModels>). With a rate, `when` says
    /// when the budget breaks, dated from `from` when it is given (nil, the default: in seconds only;
    /// the library never reads the clock).
    public static func capacity(
        space: Space, budget: Budget, scopes: BigInt = BigInt(1), rate: Rate? = nil,
        scheme: Scheme? = nil, arrivals: Arrivals = .poisson, growth: Growth? = nil, existing: BigInt = BigInt(0),
        from: Date? = nil
    ) throws -> CapacityAnswer {
        guard scopes >= BigInt(1) else { throw InputError("scopes must be at least 1", argument: "scopes") }
        guard existing.signum >= 0 else { throw InputError("existing ids cannot be negative", argument: "existing") }
        if let rate, rate.perSecond.numerator.signum <= 0 || rate.perSecond.denominator.signum <= 0 {
            throw InputError("a rate must be positive", argument: "rate")
        }
        let growth = growth.flatMap { $0.isNone ? nil : $0 }
        if growth != nil && rate == nil { throw InputError("a growth needs a rate", argument: "growth") }
        if let scheme, let bucket = scheme.bucket {
            if existing.signum > 0 {
                throw InputError(
                    "\(scheme.name) ids collide only within one \(bucket.rawValue), so ids stored earlier cannot collide with new ones; leave them out",
                    argument: "existing")
            }
            if growth != nil && arrivals == .even {
                throw InputError(
                    "with even arrivals every bucket would hold a different whole count; use poisson arrivals with growth",
                    argument: "growth")
            }
        }
        // The space's decimal figures (631,306 digits at the top of the range) are written beside the
        // search, which leaves a core idle while it evaluates L.
        let figures = Slots<SpaceFigures>(1)
        let spaceFigures = DispatchWorkItem {
            // Written here, once (`SpaceFigures` keeps it): otherwise it would be written when printed,
            // after the search instead of beside it.
            let f = SpaceFigures(space)
            _ = f.size
            figures[0] = f
        }
        DispatchQueue.global().async(execute: spaceFigures)
        let total = try Birthday.capacity(space: space.size, scopes: scopes, budget: budget)
        let capacity = total >= existing ? total - existing : BigInt(0)
        let load = capacity + existing
        let collision = try CollisionFigures(space: space.size, count: load, groups: scopes)
        let next = try Birthday.probability(space: space.size, count: load + BigInt(1), scopes: scopes).probability
        var notes: [String] = collision.doubleApproximation == nil ? [doubleRangeNote] : []
        if existing.signum > 0 {
            notes.append(
                total >= existing
                    ? "existing: \(existing) ids already stored; capacity is how many more fit the budget (\(total) in all)."
                    : "existing: \(existing) ids already stored, more than the \(total) the budget allows: no more fit."
            )
        }
        var lasts: DurationFigures?
        var when: WhenFigures?
        if let rate, let scheme, let bucket = scheme.bucket {
            if arrivals == .poisson {
                let model = PoissonBuckets(
                    space: space.size, rate: rate, bucketSeconds: bucket.seconds, buckets: BigInt(1), scopes: scopes, growth: growth)
                let lasting = try model.lastingBuckets(budget: budget)
                lasts = try poissonLifetime(model: model, lasting: lasting, rate: rate, bucket: bucket, growth: growth)
                when = try Self.when(poisson: model, lasting: lasting, from: from)
                notes.append(
                    "\(scheme.name): capacity is per \(bucket.rawValue) (ids of different buckets cannot collide); \"lasts\" is how long Poisson arrivals at \(rate)\(growth.map { " growing \($0)" } ?? "") can run before p over all buckets reaches the budget (P(no collision in a bucket) = e^−λ·(1 + λ/d)^d)."
                )
            } else {
                let model = EvenBuckets(
                    space: space.size, rate: rate, bucketSeconds: bucket.seconds, wholeBuckets: BigInt(1), scopes: scopes)
                let lasting = try model.lastingBuckets(budget: budget)
                lasts = try evenLifetime(model: model, lasting: lasting, rate: rate, bucket: bucket)
                if let lasting { when = try Self.when(even: model, lasting: lasting, from: from) }
                notes.append(
                    "\(scheme.name): capacity is per \(bucket.rawValue) (ids of different buckets cannot collide); \"lasts\" is how long a uniform \(rate) can run before p over all buckets reaches the budget (arrivals even: below one id per \(bucket.rawValue) none can collide; Poisson, the default, is closer to real traffic)."
                )
            }
        } else if let rate {
            let each = scopes > BigInt(1) ? " in each scope" : ""
            if let growth {
                lasts = try duration(
                    seconds: secondsToMint(capacity, rate: rate, growth: growth),
                    meaning: "time to mint the capacity at \(rate) growing \(growth)\(each)")
            } else {
                let (num, den) = rate.seconds(toReach: capacity)
                lasts = duration(num, den, meaning: "time to mint the capacity at \(rate)\(each)")
            }
            when = try Self.when(
                space: space.size, scopes: scopes, budget: budget, capacity: capacity, total: total, existing: existing, rate: rate,
                growth: growth, from: from)
        } else if let scheme, let bucket = scheme.bucket {
            notes.append(
                "\(scheme.name) ids collide only within one \(bucket.rawValue): this is the capacity of a single \(bucket.rawValue); give a rate to learn how long the budget lasts across buckets."
            )
        }
        return CapacityAnswer(
            space: {
                spaceFigures.wait()
                return figures[0] ?? SpaceFigures(space)
            }(), budget: budget.text,
            scopes: scopes.description, capacity: capacity.description,
            collision: collision, nextProbability: next.description, rate: rate?.text, lasts: lasts, notes: notes,
            existing: existing.signum > 0 ? existing.description : nil,
            arrivals: rate != nil && scheme?.bucket != nil ? arrivals.rawValue : nil, growth: growth?.text, when: when)
    }

    /// Seconds until `count` new ids have been minted, to 30 certified digits: count/rate, or with
    /// growth the time the rate's integral reaches the count, P/ln(1 + g)·log1p(count·ln(1 + g)/(r₀·P)).
    public static func secondsToMint(_ count: BigInt, rate: Rate, growth: Growth?) throws -> ScientificDecimal {
        guard let growth, !growth.isNone else {
            let (num, den) = rate.seconds(toReach: count)
            return ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: Birthday.significantDigits)
        }
        if count.isZero { return .zero }
        var p = 160
        while p <= 1 << 20 {
            let (lo, hi) = growth.secondsBounds(toReach: count, rate: rate, precision: p)
            if let s = Birthday.sameDigits(lo, hi, Birthday.significantDigits, shift: BigInt(0)) { return s }
            p *= 2
        }
        throw InputError("could not certify the time to mint \(count) ids")
    }

    /// The most buckets from the start with p ≤ budget under Poisson arrivals, as a duration.
    private static func poissonLifetime(
        model: PoissonBuckets, lasting b: BigInt, rate: Rate, bucket: Scheme.Bucket, growth: Growth?
    ) throws -> DurationFigures {
        if b.isZero {
            let p = try model.probability().probability
            return DurationFigures(
                seconds: "0", text: "not even one \(bucket.rawValue)",
                meaning: "one \(bucket.rawValue) at \(rate) already has p = \(p.short(4)), over the budget")
        }
        let (bn, bd) = bucket.seconds
        return duration(
            b * bn, bd,
            meaning:
                "\(b) \(bucket.rawValue)s of Poisson arrivals at \(rate)\(growth.map { " growing \($0)" } ?? "") before p over all buckets would pass the budget"
        )
    }

    /// The most whole buckets of even arrivals with p ≤ budget (nil: never, fewer than two ids a
    /// bucket), as a duration.
    private static func evenLifetime(model: EvenBuckets, lasting: BigInt?, rate: Rate, bucket: Scheme.Bucket) throws -> DurationFigures {
        guard let lasting else {
            return DurationFigures(
                seconds: nil, text: "for ever",
                meaning: "at \(rate) no two ids share a \(bucket.rawValue), so they cannot collide")
        }
        if lasting.isZero {
            let p = try model.bucketProbability().probability
            return DurationFigures(
                seconds: "0", text: "not even one \(bucket.rawValue)",
                meaning: "one \(bucket.rawValue) at \(rate) (\(model.ceilingMean) ids) already has p = \(p.short(4)), over the budget")
        }
        let (bn, bd) = bucket.seconds
        let each =
            model.floorMean == model.ceilingMean ? "\(model.ceilingMean) ids each" : "\(model.floorMean) or \(model.ceilingMean) ids each"
        return duration(
            lasting * bn, bd,
            meaning: "\(lasting) \(bucket.rawValue)s of \(each) at \(rate) (evenly) before p over all buckets would pass the budget")
    }

    /// `plan` for a workload: the alphabets, and every random format with the workload resolved for it
    /// (``Workload/formatVolumes()``): whether each is within budget (``FormatFit``).
    public static func plan(workload: Workload, budget: Budget, maxBytes: Int = 64) throws -> PlanAnswer {
        let (formats, notes) = workload.formatVolumes()
        return try plan(volume: try workload.volume(), budget: budget, maxBytes: maxBytes, formats: formats, formatNotes: notes)
    }

    /// `plan`: the minimum length in every built-in alphabet, and whether it fits `maxBytes`; with
    /// `formats` (each random format and the volume resolved for it), whether each format is within
    /// budget (``FormatFit``).
    public static func plan(
        volume: Volume, budget: Budget, maxBytes: Int = 64, formats: [(scheme: Scheme, volume: Volume)] = [],
        formatNotes: [String] = []
    ) throws -> PlanAnswer {
        try check(volume)
        // The alphabets are independent: two threads halve the worst case (10^600000 scopes).
        let alphabets = Alphabet.builtIns
        let rows = Slots<PlanRow>(alphabets.count)
        let fits = Slots<FormatFit>(formats.count)
        let skipped = Slots<String>(formats.count)
        let figures = Slots<VolumeFigures>(1)
        // The volume's figures are one more job: its decimals can be as long as a space's.
        try parallel(alphabets.count + formats.count + 1) { i in
            guard i < alphabets.count + formats.count else {
                figures[0] = VolumeFigures(volume)
                return
            }
            guard i < alphabets.count else {
                // A format whose p can not be certified here is left out (with a note), not the plan.
                let (scheme, v) = formats[i - alphabets.count]
                do { fits[i - alphabets.count] = try fit(scheme: scheme, volume: v, budget: budget, maxBytes: maxBytes) } catch {
                    skipped[i - alphabets.count] = "formats: \(scheme.name) left out: \((error as? InputError)?.message ?? "\(error)")"
                }
                return
            }
            let a = alphabets[i]
            rows[i] = try row(
                size: a.count, name: a.name ?? "custom(\(a.count))", symbolBytes: a.maxSymbolBytes,
                space: { try Space(alphabet: a, length: $0) }, volume: volume, budget: budget, maxBytes: maxBytes)
        }
        return PlanAnswer(
            volume: figures[0] ?? VolumeFigures(volume), budget: budget.text, rows: rows.values.compactMap { $0 },
            formats: formats.isEmpty ? nil : fits.values.compactMap { $0 },
            notes: volume.notes + formatNotes + skipped.values.compactMap { $0 } + [
                "probability: exact, at the minimum length; shorter_probability (one symbol fewer) exceeds the budget.",
                maxBytes == 64
                    ? "max_bytes 64: an apns-collapse-id holds at most 64 bytes; a later push with the same id replaces the earlier one."
                    : "max_bytes \(maxBytes): the byte limit each row is checked against.",
            ])
    }

    /// A volume built by hand must still make sense.
    static func check(_ volume: Volume) throws {
        guard volume.count.signum >= 0 else { throw InputError("a count cannot be negative", argument: "count") }
        guard volume.scopes >= BigInt(1), volume.buckets >= BigInt(1), volume.nodes >= BigInt(1) else {
            throw InputError("scopes, buckets and nodes must each be at least 1")
        }
    }

    static let doubleRangeNote =
        "double_approximation: absent, because the space is beyond what a double holds (2^1024); double-precision calculators print nan or 0 here."

    /// An exact duration of num/den seconds, in words too.
    static func duration(_ num: BigInt, _ den: BigInt, meaning: String) -> DurationFigures {
        duration(
            seconds: ScientificDecimal.exact(numerator: num, denominator: den, significantDigits: Birthday.significantDigits),
            meaning: meaning)
    }

    /// A duration of `seconds` (30 certified digits), in words too.
    static func duration(seconds: ScientificDecimal, meaning: String) -> DurationFigures {
        let units: [(String, Int)] = [("years", 31_536_000), ("days", 86_400), ("hours", 3600), ("minutes", 60), ("seconds", 1)]
        let value = seconds.doubleValue
        var text = "\(seconds.short(3)) seconds"
        if value.isFinite {
            if let (name, size) = units.first(where: { value >= Double($0.1) }) {
                text = "\(String(format: "%.3g", value / Double(size))) \(name)"
            }
        } else {
            // Past a double: the digits over 3.1536e7, the exponent kept exact.
            let head = Double("\(seconds.digits.prefix(1)).\(seconds.digits.dropFirst().prefix(16))") ?? 1
            var m = head / 3.1536
            var e = seconds.exponent - BigInt(7)
            if m < 1 {
                m *= 10
                e = e - BigInt(1)
            }
            text = "\(String(format: "%.2f", m))e\(e) years"
        }
        return DurationFigures(seconds: seconds.description, text: text, meaning: meaning)
    }
}
