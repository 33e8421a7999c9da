import Foundation
import IDBudget
import IDFormats
import Precise

extension AuditAnalysis {
    /// The space one id (or one bucket's ids) is drawn from, what the stream is called, and how its ids
    /// fall into groups that could collide: a claimed space, a time format's random bits per bucket,
    /// the product of what the positions hold, or the sum over the lengths seen.
    struct SpaceJudgement {
        /// "UUIDv4", "UUIDv7", "tokens over base62", …
        var formatName: String
        /// The random format the positions' layout was recognised as (UUIDv4, Nano ID, cuid2): every
        /// position it draws at random must then be uniform (``AuditAnalysis/stuckRandomPositions(_:of:)``).
        var recognised: IDFormat? = nil
        var space: BigInt
        var text: String
        /// Groups of ids that can collide only among themselves: [ids in a group: groups of that size].
        var groups: [Int: Int]
        /// Buckets and the largest, for time formats.
        var buckets: (count: Int, largest: Int)? = nil
        /// Random bits one id carries.
        var randomBits: Double

        /// Judges the space the first way that applies: claimed, time format, positions, lengths. A
        /// space is at least 2.
        init(
            _ s: AuditSummary, claimedBits: Int?, format: TimeFormat?, length single: Int?, positions: [Position],
            alphabet: ChosenAlphabet, counter: Bool = false, findings: inout [String]
        ) {
            if let claimedBits {
                self = .claimed(claimedBits, ids: s.ids, alphabet: alphabet)
            } else if let format, let t = s.timeFormats[format] {
                self = .timeFormat(format, t, ids: s.ids, counter: counter, findings: &findings)
            } else if let single {
                self = .positions(
                    positions, length: single, ids: s.ids, alphabet: alphabet, firstSymbols: s.positions.first.map { Set($0.keys) },
                    findings: &findings)
            } else {
                self = .lengths(s, alphabet: alphabet, findings: &findings)
            }
            if space < BigInt(2) { space = BigInt(2) }
        }

        private init(
            formatName: String, recognised: IDFormat? = nil, space: BigInt, text: String, groups: [Int: Int], randomBits: Double
        ) {
            self.formatName = formatName
            self.recognised = recognised
            self.space = space
            self.text = text
            self.groups = groups
            self.randomBits = randomBits
        }

        /// The space the caller claims.
        static func claimed(_ bits: Int, ids: Int, alphabet: ChosenAlphabet) -> Self {
            Self(
                formatName: "tokens over \(alphabet.name)", space: BigInt.power(2, bits), text: "claimed 2^\(bits)", groups: [ids: 1],
                randomBits: Double(bits))
        }

        /// A time format: its random bits, within each of its buckets (ids of different buckets cannot
        /// collide). Its description goes first among the findings. With `counter` (a UUIDv7 whose
        /// rand_a is RFC 9562 method 1's counter), rand_b's 62 bits.
        static func timeFormat(
            _ format: TimeFormat, _ t: AuditSummary.TimeBuckets, ids: Int, counter: Bool = false, findings: inout [String]
        ) -> Self {
            let bits = counter ? AuditAnalysis.randBBits : format.randomBits
            var j = Self(
                formatName: format.displayName, space: BigInt.power(2, bits),
                text: "\(format.displayName): 2^\(bits) per \(format.bucketName)\(counter ? " (rand_b; rand_a a counter)" : "")",
                groups: [:], randomBits: Double(bits))
            if t.truncated || t.buckets.isEmpty {
                j.groups = [ids: 1]
                findings.append(
                    "more than \(AuditSummary.bucketLimit) \(format.bucketName)s: judged as one bucket, which overstates the duplicates to expect"
                )
            } else {
                for (_, n) in t.buckets { j.groups[n, default: 0] += 1 }
                j.buckets = (t.buckets.count, t.buckets.values.max() ?? 0)
            }
            let timeText =
                format == .ksuid
                ? "the top 32 bits of its base62 value are seconds"
                : format == .typeid
                    ? "a prefix, _, and a UUIDv7 in Crockford base32 whose first 10 characters are a millisecond timestamp; ids of different prefixes are different ids, so buckets are per prefix and millisecond"
                    : "positions \(AuditAnalysis.ranges(format.timePositions.sorted())) are a \(format == .uuid1 || format == .uuid6 ? "60-bit 100 ns" : "millisecond") timestamp"
            findings.insert(
                "format: \(format.displayName) — \(timeText); \(Self.randomBitsWords(format))"
                    + (j.buckets.map {
                        "; \($0.0) \(format == .typeid ? "(prefix, millisecond) bucket" : format.bucketName)\($0.0 == 1 ? "" : "s"), up to \($0.1) ids in one"
                    } ?? ""), at: 0)
            return j
        }

        /// The format's random bits in the one definition `schemes` and `inspect` print (per id, per
        /// process), and what the audit judges a bucket over where that differs (UUIDv1/v6).
        static func randomBitsWords(_ format: TimeFormat) -> String {
            let perID = format.minted?.randomBits ?? format.randomBits
            let perProcess = format.minted?.processRandomBits ?? 0
            var words = "\(perID) random bits per id (per \(format.bucketName))"
            if perProcess > 0 { words += ", \(perProcess) per process" }
            if perID != format.randomBits {
                words += "; judged over the \(format.randomBits)-bit clock sequence per \(format.bucketName)"
            }
            return words
        }

        /// One length: the product of what the positions hold; positions past 64 count as the whole
        /// alphabet. Past 2^4096 a space changes no printed statistic; ids thousands of symbols long
        /// would otherwise make numbers of millions of digits.
        static func positions(
            _ positions: [Position], length single: Int, ids: Int, alphabet: ChosenAlphabet, firstSymbols: Set<Unicode.Scalar>? = nil,
            findings: inout [String]
        ) -> Self {
            let alphabetName = alphabet.name
            let alphabetSize = alphabet.size
            let bits =
                positions.reduce(0.0) { $0 + log2(Double($1.size)) }
                + Double(Swift.max(0, single - AuditSummary.positionLimit)) * log2(Double(alphabetSize))
            var space = BigInt(1)
            if bits > Double(AuditAnalysis.spaceCapBits) {
                space = BigInt.power(2, AuditAnalysis.spaceCapBits)
                findings.append(
                    String(
                        format: "ids of %d symbols: the space (%.0f bits) is taken as 2^%d, which changes no figure", single, bits,
                        AuditAnalysis.spaceCapBits))
            } else {
                for p in positions { space = space * BigInt(p.size) }
                if single > AuditSummary.positionLimit { space = space * BigInt.power(alphabetSize, single - AuditSummary.positionLimit) }
            }
            var formatName = "tokens over \(alphabetName)"
            var recognised: IDFormat?
            let uuid = IDFormat.uuid4.length
            if single == uuid, positions.count == uuid, positions[IDFormat.uuidVersionPosition] == .constant("4"),
                IDFormat.uuidHyphenPositions.allSatisfy({ positions[$0] == .constant("-") })
            {
                formatName = "UUIDv4"
                recognised = .uuid4
            } else if AuditAnalysis.isUUIDv8(positions, length: single) {
                formatName = "UUIDv8 (its layout the vendor's)"
                recognised = .uuid8
            } else if single == IDFormat.nanoid.length, alphabetName == Alphabet.base64url.name {
                formatName = "Nano ID (base64url^21)"
                recognised = .nanoid
            } else if single == IDFormat.cuid2.length, alphabetName == Alphabet.base36.name, positions.first == .subset(symbols: 26),
                let first = firstSymbols, first.allSatisfy({ ("a"..."z").contains($0) }),
                positions.dropFirst().allSatisfy({ $0 == .uniform(symbols: 36) })
            {
                // A letter, then 23 of base36: cuid2's layout; its space is then exactly 26·36^23.
                formatName = "cuid2 (a letter, then base36^23)"
                recognised = .cuid2
            }
            let spaceText: String
            let randomBits: Double
            if bits > Double(AuditAnalysis.spaceCapBits) {
                spaceText = "\(alphabetName)^\(single), taken as 2^\(AuditAnalysis.spaceCapBits)"
                randomBits = bits
            } else {
                spaceText =
                    space == BigInt.power(alphabetSize, single)
                    ? "\(alphabetName)^\(single)"
                    : recognised == .uuid4 && space == BigInt.power(2, IDFormat.uuid4.randomBits)
                        ? "UUIDv4: 2^\(IDFormat.uuid4.randomBits)"
                        : recognised == .cuid2 ? "cuid2: 26·36^23" : "\(alphabetName)^\(single) less its fixed positions"
                randomBits = space.log2Magnitude
            }
            return Self(
                formatName: formatName, recognised: recognised, space: space, text: spaceText, groups: [ids: 1], randomBits: randomBits)
        }

        /// No dominant length: every length over the whole alphabet, summed.
        static func lengths(_ s: AuditSummary, alphabet: ChosenAlphabet, findings: inout [String]) -> Self {
            let lengths = s.lengths.keys.sorted()
            let space: BigInt
            if let longest = lengths.last, Double(longest) * log2(Double(alphabet.size)) > Double(AuditAnalysis.spaceCapBits) {
                space = BigInt.power(2, AuditAnalysis.spaceCapBits)
                findings.append(
                    "ids up to \(longest) symbols: the space is taken as 2^\(AuditAnalysis.spaceCapBits), which changes no figure")
            } else {
                space = lengths.reduce(BigInt(0)) { $0 + BigInt.power(alphabet.size, $1) }
            }
            let spaceText =
                lengths.isEmpty ? "none" : "Σ \(alphabet.name)^L over lengths \(lengths.map(String.init).joined(separator: ","))"
            if lengths.count > 1 { findings.append("\(lengths.count) different lengths: positions are not compared") }
            return Self(
                formatName: "tokens over \(alphabet.name)", space: space, text: spaceText, groups: [s.ids: 1],
                randomBits: space.log2Magnitude)
        }
    }
}
