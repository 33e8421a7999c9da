import Foundation
import IDBudget

/// The text form of each answer: labelled rows for people. (The JSON form is the answer itself.)
enum Text {
    static func space(_ report: inout Report, _ s: SpaceFigures) {
        report.add("space", s.summary == s.size ? s.summary : "\(s.summary) = \(abbreviated(s.size))")
        report.add("bits", String(format: "%.2f", s.bits))
    }

    static func volume(_ report: inout Report, _ v: VolumeFigures) {
        report.add("count", v.summary)
        if let a = v.arrivals { report.add("arrivals", a) }
    }

    static func collision(_ report: inout Report, _ c: CollisionFigures) {
        if let g = c.groupProbability { report.add("p in one scope/bucket", "\(g)  (\(oneIn(g)))") }
        report.add("collision probability", "\(c.probability)  (\(c.oneIn))")
        report.add("no collision (1 - p)", c.complement.description)
        report.add("expected colliding pairs", c.expectedCollisions.description)
        report.add(
            "double 1-exp(-n(n-1)/2d)",
            c.doubleApproximation.map { "\($0)  (what double-precision calculators print)" }
                ?? "n/a: the space is beyond a double's range (calculators print nan)")
    }

    static func oneIn(_ p: String) -> String { ScientificDecimal(p)?.oneIn ?? "" }
    static func oneIn(_ p: ScientificDecimal) -> String { p.oneIn }

    static func abbreviated(_ s: String) -> String {
        s.count <= 60 ? s : "\(s.prefix(25))…\(s.suffix(25)) (\(s.count) digits)"
    }

    static func short(_ p: String, _ digits: Int = 6) -> String { ScientificDecimal(p)?.short(digits) ?? p }
    static func short(_ p: ScientificDecimal, _ digits: Int = 6) -> String { p.short(digits) }

    static func render(_ a: ProbabilityAnswer) -> Report {
        var r = Report()
        space(&r, a.space)
        volume(&r, a.volume)
        collision(&r, a.collision)
        r.add(
            a.volume.scopes != "1" || a.volume.buckets != "1"
                ? "expected ids to first collision (per scope/bucket)" : "expected ids to first collision",
            short(a.expectedDrawsToFirstCollision))
        r.notes = a.notes
        return r
    }

    static func render(_ a: LengthAnswer) -> Report {
        var r = Report()
        r.add("alphabet", "\(a.alphabet) (\(a.alphabetSize) symbols)")
        r.add("minimum length", String(a.length))
        r.add("bytes (UTF-8)", a.bytes.map(String.init) ?? "unknown (over 95 symbols; give --symbols)")
        space(&r, a.space)
        volume(&r, a.volume)
        r.add("budget", "p ≤ \(a.budget)")
        collision(&r, a.collision)
        if let s = a.shorterProbability { r.add("with \(a.length - 1) symbols", "\(s)  (over budget)") }
        if let limit = a.maxBytes, let fits = a.fitsMaxBytes, let bytes = a.bytes {
            r.add("max bytes", String(limit))
            r.add("fits", fits ? "yes (\(bytes) ≤ \(limit) bytes)" : "NO: \(bytes) bytes > \(limit)")
        }
        r.notes = a.notes
        if let schedule = a.schedule {
            self.schedule(&r, schedule, alphabet: a.alphabet)
            r.notes.append("schedule: \(schedule.rule)")
        }
        return r
    }

    /// "base62×8 until 2027-03-14, then ×9 until 2031-10-02, then ×10", then a line a row.
    static func schedule(_ r: inout Report, _ s: LengthSchedule, alphabet: String) {
        func when(_ date: String?, _ seconds: String?) -> String {
            if let date { return String(date.prefix(10)) }
            return seconds.map { "t = \(short($0, 4)) s" } ?? "the end"
        }
        let parts = s.rows.enumerated().map { i, row in
            let name = i == 0 ? "\(alphabet)×\(row.length)" : "×\(row.length)"
            return row.toSeconds == nil ? "then \(name)" : "\(i == 0 ? "" : "then ")\(name) until \(when(row.toDate, row.toSeconds))"
        }
        r.add("upgrade schedule", parts.joined(separator: ", "))
        for row in s.rows {
            let span =
                row.toSeconds == nil
                ? "from \(when(row.fromDate, row.fromSeconds)) to the end of the lifetime"
                : "from \(when(row.fromDate, row.fromSeconds)) to \(when(row.toDate, row.toSeconds)), switching at \(abbreviated(row.switchCount ?? "")) ids"
            r.add("  length \(row.length)", span)
        }
    }

    /// An id, then a line per format it is valid in with its fields; when it is valid in none, why
    /// (leaving out the formats its length alone rules out, unless only those were asked).
    static func render(_ a: InspectAnswer, asked: Int) -> String {
        let id = a.id.count > 120 ? "\(a.id.prefix(60))… (\(a.id.utf8.count) bytes)" : a.id
        var lines = [id.escapingControlCharacters]
        for reading in a.readings {
            let f = reading.fields
            var parts: [String] = []
            if let v = f.timestamp { parts.append("time \(v)") }
            if let v = f.prefix { parts.append("prefix \(v.isEmpty ? "(none)" : v)") }
            if let v = f.uuid { parts.append("uuid \(v)") }
            if let v = f.version { parts.append("version \(v)") }
            if let v = f.variant, v != "RFC 9562" { parts.append("variant \(v)") }
            if let v = f.value { parts.append("value \(v)") }
            if let v = f.node { parts.append("node \(v)") }
            if let v = f.pid { parts.append("pid \(v)") }
            if let v = f.sequence { parts.append("sequence \(v)") }
            if let v = f.randomBits { parts.append("random bits per id \(v)") }
            if let v = f.processRandomBits { parts.append("per process \(v)") }
            lines.append("  \(reading.format.padding(toLength: 10, withPad: " ", startingAt: 0)) \(parts.joined(separator: ", "))")
        }
        if !a.valid {
            let shown = a.rejections.filter { !$0.byLength }
            if shown.isEmpty && asked > 1 {
                lines.append("  valid in no format: none is \(a.id.utf8.count) bytes long")
            } else {
                lines.append("  valid in no format:")
                for r in shown.isEmpty ? a.rejections : shown {
                    lines.append("  \(r.format.padding(toLength: 10, withPad: " ", startingAt: 0)) \(r.reason)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    static func render(_ a: CapacityAnswer) -> Report {
        var r = Report()
        space(&r, a.space)
        r.add("budget", "p ≤ \(a.budget)")
        if a.scopes != "1" { r.add("scopes", a.scopes) }
        r.add(a.scopes != "1" ? "capacity per scope" : "capacity", abbreviated(a.capacity))
        collision(&r, a.collision)
        r.add("with one more", "\(a.nextProbability)  (over budget)")
        if let rate = a.rate { r.add("rate", rate) }
        if let lasts = a.lasts {
            r.add("lasts", lasts.text)
            if let seconds = lasts.seconds { r.add("lasts (seconds)", seconds) }
            r.add("meaning", lasts.meaning)
        }
        if let w = a.when {
            r.add(
                "budget breaks",
                "after \(short(w.breachSeconds)) s\(w.breachDate.map { ", on \($0)" } ?? "")\(w.from.map { " (from \($0))" } ?? "")")
            r.add("median first collision", "after \(short(w.medianSeconds)) s")
            r.add("mean first collision", w.meanSeconds.map { "after \(short($0)) s" } ?? "not certified here")
        }
        r.notes = a.notes
        return r
    }

    static func render(_ a: PlanAnswer) -> Report {
        var r = Report()
        r.add("count", a.volume.summary)
        r.add("budget", "p ≤ \(a.budget)")
        let rows = a.rows.map { row in
            [
                row.alphabet, String(row.length), String(row.bytes), String(format: "%.1f", row.space.bits),
                short(row.collision.probability, 4),
                row.collision.oneIn, row.shorterProbability.map { short($0, 4) } ?? "-", row.fitsMaxBytes ? "yes" : "no",
            ]
        }
        let fits = a.rows.first.map { $0.maxBytes == 64 ? "apns-collapse-id" : "≤ \($0.maxBytes) bytes" } ?? "apns-collapse-id"
        r.table = (["alphabet", "length", "bytes", "bits", "probability", "odds", "p at length-1", fits], rows)
        if let formats = a.formats, !formats.isEmpty {
            let rows = formats.map { f in
                [
                    f.scheme, f.collide, String(f.length), String(f.bytes), String(f.bits), String(f.bitsNeeded),
                    short(f.collision.probability, 4), f.collision.oneIn, f.withinBudget ? "yes" : "NO",
                    f.fitsMaxBytes.map { $0 ? "yes" : "no" } ?? "-",
                ]
            }
            r.moreTables.append(
                (
                    "formats: each with its own collision model",
                    ["format", "collide", "chars", "bytes", "bits", "bits needed", "probability", "odds", "within budget", fits], rows
                ))
        }
        r.notes = a.notes
        return r
    }

    static func render(_ a: FormatLengthAnswer) -> Report {
        var r = Report()
        let f = a.format
        r.add("scheme", "\(f.scheme) (\(f.length) characters, \(f.bytes) bytes)")
        let unit = f.collide == "by node" ? "node bits" : f.collide == "per id" ? "random bits" : "random bits \(f.collide)"
        r.add(unit, String(f.bits))
        r.add("bits needed", String(f.bitsNeeded))
        let margin = abs(f.bits - f.bitsNeeded)
        let bits = "\(margin) bit\(margin == 1 ? "" : "s")"
        r.add("within budget", f.withinBudget ? "yes (\(bits) to spare)" : "NO: \(bits) short")
        if let shortest = f.shortestLength { r.add("shortest \(f.scheme)", "\(shortest) characters") }
        r.add(f.collide == "by node" ? "nodes" : "count", a.volume.summary)
        if let arrivals = a.volume.arrivals { r.add("arrivals", arrivals) }
        r.add("budget", "p ≤ \(a.budget)")
        collision(&r, f.collision)
        if let limit = f.maxBytes, let fits = f.fitsMaxBytes {
            r.add("max bytes", String(limit))
            r.add("fits", fits ? "yes (\(f.bytes) ≤ \(limit) bytes)" : "NO: \(f.bytes) bytes > \(limit)")
        }
        r.notes = a.notes
        return r
    }

    static func render(_ a: SchemesAnswer) -> Report {
        var r = Report()
        r.table = (
            ["scheme", "random bits/id", "/process", "collide", "encoding", "chars", "bytes", "binary"],
            a.rows.map { s in
                [
                    s.name, String(s.bits), String(s.processBits), s.node != nil ? "by node" : s.bucket.map { "per \($0)" } ?? "per id",
                    s.encoding, String(s.length), String(s.bytes), s.binaryBytes.map(String.init) ?? "-",
                ]
            }
        )
        r.notes = [
            "random bits/id: drawn fresh for each id (time formats: per bucket); /process: drawn once by the minting process and shared by its ids; bytes: the text form's; binary: the binary form's"
        ]
        r.notes += a.rows.map { "\($0.name): \($0.notes)\($0.node.map { " Node: \($0)." } ?? "") [\($0.source)]" }
        return r
    }

    /// Text or JSON for an answer.
    static func emit<A: Answer>(_ answer: A, _ format: OutputFormat, text: (A) -> Report) throws {
        switch format {
        case .json: Output.print(try answer.jsonText())
        case .text: Output.print(text(answer).renderText())
        }
    }
}
