import Foundation
import Testing

/// Time units as systemd.time has them (case-sensitive: m minutes, M months), honest bytes for an
/// alphabet known only by its size, and the messages bad input gets.
@Suite struct UnitsAndMessagesTests {
    /// The JSON of `length` for a volume, without the texts that echo how the volume was written.
    static func answer(_ volume: [String]) throws -> NSDictionary {
        var json = try CLI.json(["length", "--alphabet", "base62", "--max-probability", "1e-12"] + volume)
        if var v = json["volume"] as? [String: Any] {
            for key in ["rate", "lifetime", "summary"] { v[key] = nil }
            json["volume"] = v
        }
        return json as NSDictionary
    }

    static func count(_ volume: [String]) throws -> String? {
        (try CLI.json(["length", "--alphabet", "base62", "--max-probability", "1e-12"] + volume)["volume"] as? [String: Any])?["count"]
            as? String
    }

    /// Lifetimes that are the same span, written differently: the answers are identical.
    @Test(arguments: [
        ["1M", "2628000s", "1mo", "1month", "43800m", "43800min", "730h"],
        ["12M", "1y", "12mo", "12months", "1yr", "1year", "365d", "31536000s"],
        ["2M", "2months", "5256000sec"],
        ["90m", "90min", "90mins", "90minutes", "5400s", "1.5h"],
        ["36h", "36hr", "36hrs", "36hour", "36hours", "1.5d"],
        ["3d", "3day", "3days", "259200seconds"],
        ["2w", "2wk", "2week", "2weeks", "14d"],
        ["250ms", "0.25s", "250000us", "250000µs", "250000μs"],
        ["10y", "10yrs", "10years", "120M"],
    ])
    func lifetimeSpellingsAgree(spellings: [String]) throws {
        let first = try Self.answer(["--rate", "1e9/s", "--lifetime", spellings[0]])
        for other in spellings.dropFirst() {
            #expect(try Self.answer(["--rate", "1e9/s", "--lifetime", other]) == first, "\(other) vs \(spellings[0])")
        }
    }

    @Test func monthsAreATwelfthOfAYearExactly() throws {
        #expect(try Self.count(["--rate", "1/s", "--lifetime", "1M"]) == "2628000")
        #expect(try Self.count(["--rate", "1/s", "--lifetime", "6M"]) == "15768000")  // not 6 minutes
        #expect(try Self.count(["--rate", "1/s", "--lifetime", "6m"]) == "360")
        #expect(try Self.count(["--rate", "1e6/s", "--lifetime", "12M"]) == "31536000000000")
        #expect(try Self.count(["--rate", "100/M", "--lifetime", "1y"]) == "1200")
        #expect(try Self.count(["--rate", "5/mo", "--lifetime", "10y"]) == "600")
        #expect(try Self.count(["--rate", "1/M", "--lifetime", "2628001s"]) == "2")  // rounded up, as before
    }

    /// Rates per unit against their per-second equivalents: the exact counts agree.
    @Test(arguments: [
        ("2628/M", "0.001/s"), ("2628000/M", "1/s"), ("5/mo", "5/M"), ("7/month", "7/M"),
        ("60/m", "1/s"), ("7/m", "7/min"), ("3600/h", "1/s"), ("1/us", "1e6/s"), ("1/µs", "1/us"),
        ("1/ms", "1000/s"), ("86400/d", "1/s"), ("604800/w", "1/s"), ("31536/y", "0.001/s"), ("1/sec", "1/s"),
    ])
    func rateSpellingsAgree(a: String, b: String) throws {
        let x = try Self.count(["--rate", a, "--lifetime", "10y"])
        let y = try Self.count(["--rate", b, "--lifetime", "10y"])
        #expect(x != nil && x == y, "\(a): \(x ?? "-") vs \(b): \(y ?? "-")")
    }

    static func refused(_ arguments: [String], naming option: String) throws -> String {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(arguments)")
        #expect(r.stdout.isEmpty, "\(arguments)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(option), "\(r.stderr)")
        return r.stderr
    }

    @Test(arguments: ["1Y", "5MS", "3S", "1MIN", "1Min", "1MO", "2H", "1D", "1W", "1US", "1x", "1mos"])
    func wrongCaseUnitsAreRefused(text: String) throws {
        let lifetime = try Self.refused(["probability", "--bits", "128", "--rate", "1/s", "--lifetime", text], naming: "--lifetime")
        let unit = String(text.drop { $0.isNumber })
        let rate = try Self.refused(["probability", "--bits", "128", "--rate", "1/\(unit)", "--lifetime", "1y"], naming: "--rate")
        for stderr in [lifetime, rate] {
            // Every accepted unit is listed.
            for listed in ["us (µs)", "ms", "s (sec)", "m (min)", "h (hr)", "d (day)", "w (wk)", "M (mo, month)", "y (yr)"] {
                #expect(stderr.contains(listed), "\(listed) missing from \(stderr)")
            }
        }
    }

    @Test func lowerCaseMinutesListThemselves() throws {
        // `7/m` is taken; an unknown unit's message lists m (and M) among the units.
        #expect(try CLI.run(["probability", "--bits", "128", "--rate", "7/m", "--lifetime", "1y"]).status == 0)
        let e = try Self.refused(["probability", "--bits", "128", "--rate", "7/fortnight", "--lifetime", "1y"], naming: "--rate")
        #expect(e.contains("m (min)") && e.contains("M (mo, month)"), "\(e)")
    }

    /// A rate needs its count: `/s`, `/ms` and a peak rate of `/s` are refused, not read as one.
    @Test(arguments: [
        (["--bits", "128", "--rate", "/s"], "--rate"), (["--bits", "128", "--rate", "/ms"], "--rate"),
        (["--bits", "128", "--rate", " /d"], "--rate"), (["--scheme", "uuid7", "--rate", "1/s", "--peak-rate", "/s"], "--peak-rate"),
    ])
    func aRateNeedsItsCount(arguments: [String], argument: String) throws {
        let e = try Self.refused(["probability", "--lifetime", "1y"] + arguments, naming: argument)
        #expect(e.contains("no count"), "\(e)")
    }

    /// Growth periods with a number: 2x every 18 months is 2x every 1.5 years is 4x every 3 years.
    @Test func growthPeriodsTakeANumber() throws {
        func lasts(_ growth: String) throws -> String {
            let r = try CLI.run([
                "capacity", "--bits", "96", "--max-probability", "1e-9", "--rate", "1e6/s", "--growth", growth, "--format", "json",
            ])
            #expect(r.status == 0, "\(growth): \(r.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            return (json?["lasts"] as? [String: Any])?["seconds"] as? String ?? "none"
        }
        let (a, b, c, d) = (try lasts("2x/18mo"), try lasts("2x/1.5y"), try lasts("4x/3y"), try lasts("2x/y"))
        #expect(a != "none" && a == b && a == c && a != d)
        _ = try Self.refused(
            ["capacity", "--bits", "96", "--max-probability", "1e-9", "--rate", "1e6/s", "--growth", "2x/-1y"], naming: "--growth")
    }

    @Test func hugeValuesAreTooLargeNotNonPositive() throws {
        let rate = try Self.refused(
            ["probability", "--bits", "128", "--rate", "1e99999999999999999999/s", "--lifetime", "1y"], naming: "--rate")
        let lifetime = try Self.refused(
            ["probability", "--bits", "128", "--rate", "1/s", "--lifetime", "1e99999999999999999999y"], naming: "--lifetime")
        for e in [rate, lifetime] { #expect(e.contains("too large") && !e.contains("positive"), "\(e)") }
    }

    @Test func aFleetTooLargeNamesNodes() throws {
        _ = try Self.refused(
            ["probability", "--bits", "128", "--rate", "1/s", "--lifetime", "1y", "--nodes", "1e639999"], naming: "--nodes:")
        _ = try Self.refused(["probability", "--bits", "128", "--count", "10", "--nodes", "1e639999"], naming: "--nodes:")
        _ = try Self.refused(["probability", "--bits", "128", "--count", "10", "--nodes", "lots"], naming: "--nodes:")
    }

    @Test func peakRateIsOnlyWhereItMeansSomething() throws {
        for command in ["length", "plan"] {
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0 && !help.stdout.contains("--peak-rate"), "\(command)")
            _ = try Self.refused(
                [command, "--alphabet", "base62", "--rate", "1/s", "--lifetime", "1y", "--max-probability", "1e-9", "--peak-rate", "2/s"]
                    .filter { command == "length" || ($0 != "--alphabet" && $0 != "base62") }, naming: "--peak-rate")
        }
        #expect(try CLI.run(["probability", "--help"]).stdout.contains("--peak-rate"))
    }

    @Test func peakRateConflictsNameWhatWasGiven() throws {
        let withCount = try Self.refused(
            ["probability", "--scheme", "uuid7", "--count", "5", "--peak-rate", "2/s"], naming: "--peak-rate:")
        #expect(!withCount.contains("not both"), "\(withCount)")
        let noRate = try Self.refused(["probability", "--scheme", "uuid7", "--lifetime", "1y", "--peak-rate", "2/s"], naming: "--rate:")
        #expect(!noRate.contains("not both"), "\(noRate)")
        let noLifetime = try Self.refused(
            ["probability", "--scheme", "uuid7", "--rate", "1/s", "--peak-rate", "2/s"], naming: "--lifetime:")
        #expect(!noLifetime.contains("not both"), "\(noLifetime)")
        let both = try Self.refused(
            ["probability", "--scheme", "uuid7", "--count", "5", "--rate", "1/s", "--lifetime", "1y"], naming: "--count:")
        #expect(both.contains("not both"), "\(both)")
        let countAndLifetime = try Self.refused(
            ["probability", "--scheme", "uuid7", "--count", "5", "--lifetime", "1y"], naming: "--lifetime:")
        #expect(!countAndLifetime.contains("not both"), "\(countAndLifetime)")
        // And with both rates it still works.
        #expect(
            try CLI.run(["probability", "--scheme", "uuid7", "--rate", "1e6/s", "--peak-rate", "1e8/s", "--lifetime", "1y"]).status == 0)
    }

    @Test(arguments: [["nosuchcommand", "--help"], ["nosuchcommand"], ["nosuchcommand", "-h"], ["help", "nosuchcommand"]])
    func unknownSubcommandsAreBadUsage(arguments: [String]) throws {
        _ = try Self.refused(arguments, naming: "nosuchcommand")
    }

    @Test func bytesAreUnknownAboveNinetyFiveSymbols() throws {
        let base = ["length", "--count", "1e6", "--max-probability", "1e-9"]
        let json = try CLI.json(base + ["--alphabet-size", "300"])
        #expect(json["bytes"] is NSNull, "\(json["bytes"] ?? "absent")")
        #expect((json["notes"] as? [String])?.contains { $0.contains("bytes: unknown") } == true)
        let text = try CLI.run(base + ["--alphabet-size", "300"])
        #expect(text.status == 0 && text.stdout.contains("unknown"), "\(text.stdout)")
        let e = try Self.refused(base + ["--alphabet-size", "300", "--max-bytes", "64"], naming: "--max-bytes")
        #expect(e.contains("--symbols"), "\(e)")
        // Up to 95 symbols (printable ASCII) a symbol is one byte.
        let ascii = try CLI.json(base + ["--alphabet-size", "95", "--max-bytes", "64"])
        #expect(ascii["bytes"] as? Int != nil && ascii["bytes"] as? Int == ascii["length"] as? Int)
        // With the symbols: the length times the longest symbol's UTF-8 bytes.
        let mixed = try CLI.json(base + ["--symbols", "aé", "--max-bytes", "64"])
        #expect(mixed["bytes"] as? Int != nil && mixed["bytes"] as? Int == (mixed["length"] as? Int).map { 2 * $0 })
    }

    /// Issue 37's inputs: a budget below the floor gets the floor's message however it is written;
    /// `retries` lists and takes only what it models (no scopes, no ids stored apart from the count);
    /// a rate just over a node's ceiling is not printed as 100% of it.
    @Test func floorsRetriesAndCeilings() throws {
        for budget in ["2^-100000000", "2^-332193", "10^-100001", "1e-100001", "1e-1000001", "5E-999999999", "1.0e-1000000000000000"] {
            let r = try CLI.run(["capacity", "--bits", "64", "--max-probability", budget])
            #expect(r.status == 64 && r.stderr.contains("below the 1e-100000"), "\(budget): \(r.stderr)")
        }
        #expect(try CLI.run(["capacity", "--bits", "64", "--max-probability", "2^-40"]).status == 0)
        let help = try CLI.run(["retries", "--help"]).stdout
        #expect(
            !help.contains("--scopes") && !help.contains("--existing") && !help.contains("--count-per-scope") && help.contains("--count"))
        #expect(try CLI.run(["retries", "--bits", "64", "--count", "1000", "--scopes", "2"]).status == 64)
        #expect(try CLI.run(["retries", "--bits", "64", "--count", "1000", "--nodes", "2"]).status == 0)
        let xid = try CLI.json(["probability", "--scheme", "xid", "--nodes", "2", "--rate", "16777217/s"])
        #expect((xid["notes"] as? [String])?.contains { $0.contains("(100.000006% of its ceiling)") } == true, "\(xid)")
    }
}
