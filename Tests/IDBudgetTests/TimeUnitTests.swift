import IDBudget
import Precise
import Testing

/// Units as systemd.time writes them, case-sensitive, each held as an exact number of seconds.
@Suite struct TimeUnitTests {
    /// a/b == n/d, exactly.
    static func same(_ a: (numerator: BigInt, denominator: BigInt), _ n: BigInt, _ d: BigInt = 1) -> Bool {
        a.numerator * d == n * a.denominator
    }

    /// Every accepted spelling and its seconds (numerator, denominator).
    static let spellings: [(String, BigInt, BigInt)] = [
        ("us", 1, 1_000_000), ("µs", 1, 1_000_000), ("μs", 1, 1_000_000),
        ("ms", 1, 1000),
        ("s", 1, 1), ("sec", 1, 1), ("secs", 1, 1), ("second", 1, 1), ("seconds", 1, 1),
        ("m", 60, 1), ("min", 60, 1), ("mins", 60, 1), ("minute", 60, 1), ("minutes", 60, 1),
        ("h", 3600, 1), ("hr", 3600, 1), ("hrs", 3600, 1), ("hour", 3600, 1), ("hours", 3600, 1),
        ("d", 86_400, 1), ("day", 86_400, 1), ("days", 86_400, 1),
        ("w", 604_800, 1), ("wk", 604_800, 1), ("week", 604_800, 1), ("weeks", 604_800, 1),
        ("M", 2_628_000, 1), ("mo", 2_628_000, 1), ("month", 2_628_000, 1), ("months", 2_628_000, 1),
        ("y", 31_536_000, 1), ("yr", 31_536_000, 1), ("yrs", 31_536_000, 1), ("year", 31_536_000, 1), ("years", 31_536_000, 1),
    ]

    @Test(arguments: spellings.indices)
    func everySpellingIsExact(index: Int) throws {
        let (unit, n, d) = Self.spellings[index]
        #expect(Self.same(try Lifetime(parsing: "1\(unit)").seconds, n, d), "\(unit)")
        #expect(Self.same(try Lifetime(parsing: "3\(unit)").seconds, 3 * n, d), "\(unit)")
        // A rate takes the same units after the slash: one per unit is 1/(seconds of the unit) per second.
        #expect(Self.same(try Rate(parsing: "1/\(unit)").perSecond, d, n), "\(unit)")
        // The count is required: "/unit" alone is refused, not read as one.
        #expect(throws: InputError.self) { try Rate(parsing: "/\(unit)") }
    }

    @Test func aMonthIsATwelfthOfTheYear() throws {
        let month = try Lifetime(parsing: "1M").seconds
        #expect(Self.same(month, 2_628_000))
        #expect(Self.same(try Lifetime(parsing: "12M").seconds, 31_536_000))
        #expect(Self.same(try Lifetime(parsing: "0.5M").seconds, 1_314_000))
        // Exact, rounding up only in the count: 1/M over 2628000 s is one id, over a second more it is two.
        #expect(try Rate(parsing: "1/M").count(over: Lifetime(parsing: "2628000s")) == 1)
        #expect(try Rate(parsing: "1/M").count(over: Lifetime(parsing: "2628001s")) == 2)
        #expect(try Rate(parsing: "100/M").count(over: Lifetime(parsing: "1y")) == 1200)
        #expect(try Rate(parsing: "5/mo").count(over: Lifetime(parsing: "10y")) == 600)
        #expect(try Rate(parsing: "2628/M") == Rate(parsing: "0.001/s"))
        #expect(try Rate(parsing: "2628000/M") == Rate(parsing: "1/s"))
        #expect(try Rate(parsing: "60/m") == Rate(parsing: "1/s"))
        #expect(try Rate(parsing: "1/us") == Rate(parsing: "1e6/s"))
        // m is minutes, M months: the two are not confused.
        #expect(try Rate(parsing: "1/m").count(over: Lifetime(parsing: "6M")) == 262_800)
    }

    @Test(arguments: ["1Y", "5MS", "3S", "1Min", "1MIN", "1MO", "1Month", "2H", "1D", "1W", "1US", "1Yr", "1x", "1mos", "1µ", "1fortnight"])
    func wrongCaseAndUnknownUnitsAreRefused(text: String) {
        do {
            _ = try Lifetime(parsing: text)
            Issue.record("\(text) accepted")
        } catch {
            #expect(error.message.contains("unknown time unit"), "\(error.message)")
            #expect(
                error.message.contains("M (mo, month)") && error.message.contains("us (µs)") && error.message.contains("m (min)"),
                "\(error.message)")
        }
        let unit = String(text.drop { $0.isNumber })
        #expect(throws: InputError.self, "\(unit)") { try Rate(parsing: "1/\(unit)") }
    }

    /// A unit read from a longer value is quoted with the value it came from: `1</script>` is a count
    /// of 1 per `script>`, and the unit alone would not say where that came from.
    @Test func anUnknownUnitIsQuotedWithItsValue() throws {
        for (text, parse) in [
            ("1</script>", { (t: String) throws(InputError) in _ = try Rate(parsing: t) }),
            ("2x/<b>", { (t: String) throws(InputError) in _ = try Growth(parsing: t) }),
            ("10yy", { (t: String) throws(InputError) in _ = try Lifetime(parsing: t) }),
        ] {
            do throws(InputError) {
                try parse(text)
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.message.hasPrefix("'\(text)': unknown time unit '"), "\(error.message)")
            }
        }
        // Spaces around the slash are a typist's: the rate is read.
        #expect(try Rate(parsing: "1e3/ ms") == Rate(parsing: "1e3/ms"))
        #expect(try Rate(parsing: "1e3 / ms") == Rate(parsing: "1e3/ms"))
        // A value that is its unit alone is quoted once.
        #expect(throws: InputError.self) { try Growth(parsing: "2x/fortnight") }
    }

    @Test func wrongCaseSaysWhichUnitWasMeant() {
        #expect(throws: InputError.self) { try Lifetime(parsing: "1Y") }
        do { _ = try Rate(parsing: "5/MS") } catch {
            #expect(error.message.contains("case-sensitive") && error.message.contains("'ms' is milliseconds"), "\(error.message)")
        }
    }

    @Test func hugeAmountsAreOutOfRangeNotNonPositive() {
        for text in ["1e99999999999999999999/s", "1e2000000/s", "1e700000/s"] {
            do {
                _ = try Rate(parsing: text)
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.message.contains("too large") && !error.message.contains("positive"), "\(error.message)")
            }
        }
        for text in ["1e99999999999999999999y", "1e2000000y", "1e50y"] {
            do {
                _ = try Lifetime(parsing: text)
                Issue.record("\(text) accepted")
            } catch {
                #expect(error.message.contains("too large") && !error.message.contains("positive"), "\(error.message)")
            }
        }
        do { _ = try Lifetime(parsing: "1e-99999999999999999999y") } catch {
            #expect(error.message.contains("too small") && !error.message.contains("positive"), "\(error.message)")
        }
        // Zero is still not positive.
        do { _ = try Rate(parsing: "0/s") } catch { #expect(error.message.contains("not a positive rate")) }
        do { _ = try Lifetime(parsing: "0y") } catch { #expect(error.message.contains("not a positive duration")) }
        #expect(ExactDecimal.exponentOutOfRange("1e99999999999999999999") == true)
        #expect(ExactDecimal.exponentOutOfRange("2.5e1000001") == true)
        #expect(ExactDecimal.exponentOutOfRange("1e-2000000") == false)
        #expect(ExactDecimal.exponentOutOfRange("1e6") == nil)
        #expect(ExactDecimal.exponentOutOfRange("0e99999999") == nil)
        #expect(ExactDecimal.exponentOutOfRange("abc") == nil)
    }

    @Test func aFleetTooLargeNamesTheNodes() throws {
        let nodes = BigInt.power(10, 639_999)
        do {
            _ = try Workload(count: 10, nodes: nodes).volume()
            Issue.record("accepted")
        } catch {
            #expect(error.argument == "nodes", "\(error)")
        }
        let year = try Lifetime(parsing: "1y")
        let one = try Rate(parsing: "1/s")
        let huge = try Rate(parsing: "1e639999/s")
        do {
            _ = try Workload(rate: one, lifetime: year, nodes: nodes).volume()
            Issue.record("accepted")
        } catch {
            #expect(error.argument == "nodes", "\(error)")
        }
        // The rate alone too large still names the rate.
        do {
            _ = try Workload(rate: huge, lifetime: year).volume()
            Issue.record("accepted")
        } catch {
            #expect(error.argument == "rate", "\(error)")
        }
    }

    @Test func bytesAreUnknownAboveNinetyFiveSymbols() throws {
        let volume = try Workload(count: 1_000_000).volume()
        let budget = try Budget(parsing: "1e-9")
        let ascii = try Planner.length(alphabetSize: 95, volume: volume, budget: budget, maxBytes: 64)
        #expect(ascii.bytes == ascii.length)
        let big = try Planner.length(alphabetSize: 96, volume: volume, budget: budget)
        #expect(big.bytes == nil)
        #expect(big.notes.contains { $0.contains("bytes: unknown") })
        #expect(try big.jsonText().contains("\"bytes\" : null"))
        #expect(throws: InputError.self) { try Planner.length(alphabetSize: 300, volume: volume, budget: budget, maxBytes: 64) }
        // With the symbols, bytes are the length times the longest symbol's UTF-8 bytes.
        let mixed = try Planner.length(alphabet: Alphabet(symbols: "aé"), volume: volume, budget: budget)
        #expect(mixed.bytes == 2 * mixed.length)
    }
}
