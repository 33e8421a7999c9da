import IDBudget
import IDTokens
import Precise
import Testing

/// Scopes and time buckets: 1 − (1 − p)^S, against mpmath (Tests/Oracles/reference.py).
@Suite struct ScopeTests {
    static let reference = Reference.shared

    @Test(arguments: reference.scoped.map(\.label))
    func scopedProbability(label: String) throws {
        let r = Self.reference.scoped.first { $0.label == label }!
        let (p, c) = try Birthday.probability(
            space: BigInt(decimal: r.space)!, count: BigInt(decimal: r.count)!, scopes: BigInt(decimal: r.groups)!)
        #expect(p.description == r.probability, "\(label)")
        #expect(c.description == r.complement, "\(label)")
    }

    @Test(arguments: reference.scopedLength.map(\.label))
    func scopedLength(label: String) throws {
        let r = Self.reference.scopedLength.first { $0.label == label }!
        let length = try Birthday.minimumLength(
            alphabetSize: r.alphabetSize, count: BigInt(decimal: r.count)!, scopes: BigInt(decimal: r.groups)!,
            budget: Budget(parsing: r.budget))
        #expect(length == r.length)
    }

    /// Buckets from a rate and a lifetime: 10 years of milliseconds, 1000 ids in each at 10⁶/s.
    @Test func bucketing() throws {
        let uuid7 = Scheme.named("uuid7")!
        let (buckets, perBucket) = uuid7.bucketing(rate: try Rate(parsing: "1e6/s"), lifetime: try Lifetime(parsing: "10y"))!
        #expect(buckets == BigInt(315_360_000_000))
        #expect(perBucket == BigInt(1000))
        let ksuid = Scheme.named("ksuid")!
        let (b2, n2) = ksuid.bucketing(rate: try Rate(parsing: "1e6/s"), lifetime: try Lifetime(parsing: "10y"))!
        #expect(b2 == BigInt(315_360_000) && n2 == BigInt(1_000_000))
        #expect(Scheme.named("uuid4")!.bucketing(rate: try Rate(parsing: "1/s"), lifetime: try Lifetime(parsing: "1y")) == nil)
    }

    /// Random bits as the specifications give them (RFC 9562 §5.4, §5.7; ULID; KSUID; Nano ID).
    @Test func schemeBits() {
        let expected = ["uuid4": 122, "uuid7": 74, "ulid": 80, "ksuid": 128, "nanoid": 126, "apns-id": 122]
        for (name, bits) in expected { #expect(Scheme.named(name)?.randomBits == bits, "\(name)") }
        #expect(Scheme.named("apns-collapse-id")?.bytes == 64)
        #expect(Scheme.named("uuid7")?.bucket == .millisecond)
        #expect(Scheme.named("ksuid")?.bucket == .second)
    }

    /// A capacity with scopes leaves the whole fleet within budget, and one more per scope breaks it.
    @Test func scopedCapacityIsMaximal() throws {
        let d = BigInt.power(62, 8)
        let scopes = BigInt(100_000_000)
        let budget = try Budget(parsing: "1e-6")
        let c = try Birthday.capacity(space: d, scopes: scopes, budget: budget)
        let bound = ScientificDecimal("1e-6")!
        #expect(try Birthday.probability(space: d, count: c, scopes: scopes, digits: 40).probability <= bound)
        #expect(try Birthday.probability(space: d, count: c + BigInt(1), scopes: scopes, digits: 40).probability > bound)
    }
}

/// The schemes the math uses for minted formats come from the generator's own catalogue.
@Suite struct SchemeCatalogueTests {
    @Test func schemesReadTheGeneratorsBits() {
        for format in IDFormat.allCases {
            let scheme = Scheme.named(format.rawValue)
            #expect(scheme?.randomBits == format.randomBits)
            #expect(scheme?.length == format.length)
            #expect(scheme?.bucket?.rawValue == format.bucket?.rawValue)
        }
    }
}

/// Public calls with nonsense arguments throw; none traps.
@Suite struct LibraryInputTests {
    @Test func nonsenseThrows() throws {
        let budget = try Budget(parsing: "1e-9")
        let volume = try Workload(count: BigInt(10)).volume()
        #expect(throws: (any Error).self) { try Planner.length(alphabetSize: 1, volume: volume, budget: budget) }
        #expect(throws: (any Error).self) { try Birthday.minimumLength(alphabetSize: 0, count: BigInt(5), budget: budget) }
        #expect(throws: (any Error).self) { try Planner.capacity(space: try Space(bits: 64), budget: budget, scopes: BigInt(0)) }
        #expect(throws: (any Error).self) {
            try Planner.probability(space: try Space(bits: 64), volume: Volume(count: BigInt(10), scopes: BigInt(-3)))
        }
        #expect(throws: (any Error).self) {
            try Planner.capacity(space: try Space(bits: 64), budget: budget, rate: try Rate(parsing: "1/s").times(BigInt(0)))
        }
        #expect(throws: (any Error).self) { try Workload(count: BigInt(-5)).volume() }
    }
}
