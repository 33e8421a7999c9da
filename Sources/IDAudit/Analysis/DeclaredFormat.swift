import Foundation
import IDBudget
import IDFormats

extension AuditAnalysis {
    /// A declared time-ordered or node-id format (`idbudget audit --scheme uuid7`, `--scheme
    /// snowflake`; see ``DeclaredShape``): every line must parse as it — the format's own reader, run
    /// while summarising, counts the lines that do — and the ids are judged as the audit judges that
    /// format undeclared: a time-ordered format within its buckets, a node-id format allowing no repeat.
    /// Lines of another shape are invalid: more than `maxInvalid` fail (`invalid-ids`).
    init(declaredFormat f: IDFormat, declared d: DeclaredShape, summary s: AuditSummary, now: Int) {
        let time = TimeFormat(rawValue: f.rawValue)
        // Ids the format's reader read. A node-id reader told of the declaration reads to the end
        // (``Auditor``); one that was not stops once its misses pass 1,000 and the ids it read, and a
        // summary without the format then can not say how many it missed: nil.
        // TypeIDs without a prefix are read as ULIDs while summarising; their version and variant
        // characters make them TypeIDs (``asPrefixlessTypeIDs(_:)``).
        // TypeIDs have the length of their prefix: judged over the lengths a TypeID can have (26
        // without a prefix, 28 to 90 with one), the other lines set aside as for a format of one length.
        var typeIDs: AuditSummary? = nil
        if f == .typeid {
            let typeIDLength = { (n: Int) in n == 26 || (28...(27 + TypeID.maxPrefixLength)).contains(n) }
            typeIDs = s.lengths.count > 1 ? Self.lengthGroups(of: s, where: typeIDLength) : s
            typeIDs?.timeFormats[.typeid] = s.timeFormats[.typeid]
            typeIDs = typeIDs.map { Self.asPrefixlessTypeIDs($0) ?? $0 }
            // TypeIDs without a prefix beside prefixed ones: the ids of length 26 read as ULIDs are
            // theirs when they hold a UUIDv7, bucketed as the empty prefix's (no prefix hashes to the
            // FNV offset basis, as `TimeFormat.parse` keys a TypeID).
            if (s.timeFormats[.typeid]?.ids ?? 0) > 0, let g = Self.lengthGroup(of: s, length: 26),
                let bare = Self.asPrefixlessTypeIDs(g)?.timeFormats[.typeid], bare.ids > 0
            {
                var moved = AuditSummary.TimeBuckets(ids: bare.ids, buckets: [:], truncated: bare.truncated)
                for (k, n) in bare.buckets { moved.buckets[0xCBF2 << 48 | k & 0xFFFF_FFFF_FFFF] = n }
                if (try? typeIDs?.timeFormats[.typeid]?.add(moved)) == nil { typeIDs?.timeFormats[.typeid]?.truncated = true }
                typeIDs?.timeFormats[.ulid] = AuditSummary.TimeBuckets()
            }
        }
        let prefixless = f == .typeid ? (typeIDs?.timeFormats[.typeid]?.ids ?? 0) - (s.timeFormats[.typeid]?.ids ?? 0) : 0
        // Lines set aside while summarising: under this declaration, lines its parser did not read
        // (never ids, so their repeats count nowhere); under another, lines of unknown shape.
        let foreign = s.setAside(notUnder: d.key)
        let ownSetAside = s.declared.flatMap { $0.shape == d.key ? $0.setAside : nil } ?? 0
        // Nil and max UUIDs set aside while summarising (without a declaration, or under a node-id
        // layout, which reads no shape): lines not of the format.
        let unreadable = s.emptyLines + s.overlongLines + s.invalidUTF8Lines + (foreign?.lines ?? 0) + ownSetAside + s.placeholderLines
        // Ids whose timestamp no generator wrote (before 2005, past tomorrow) do not read as the format.
        let outOfTime = time.map { t in Self.implausible(t, in: (typeIDs ?? s).timeFormats[t] ?? .init(), now: now) } ?? 0
        let read: Int? =
            time.map { (s.timeFormats[$0]?.ids ?? 0) + prefixless - outOfTime } ?? s.nodeFormats[f]?.ids
            ?? (s.ids + unreadable <= 1000 ? 0 : nil)
        if time == nil, let stats = s.nodeFormats[f], s.ids > 0 {
            self.init(node: f, stats: stats, fits: Self.nodeFormat(of: s, scheme: f, now: now)?.fits ?? [f], summary: s, declared: true)
        } else if let time, let length = time.length, (read ?? 0) > 0 {
            // Judged as the declared format, the lines of other lengths set aside (the lines of its
            // length that are not of it are judged as if they were): allowed invalid lines must not
            // turn the judgement into another format's.
            let own = s.lengths.count > 1 ? Self.lengthGroup(of: s, length: length) : nil
            self.init(single: own ?? s, claimedBits: nil, tests: 1, forcing: time, now: now)
            ids = s.ids
            distinct = s.distinct
            extraOccurrences = s.extraOccurrences
            duplicateIDs = s.duplicateIDs
        } else if time == .typeid, (read ?? 0) > 0 {
            self.init(single: typeIDs ?? s, claimedBits: nil, tests: 1, forcing: .typeid, now: now)
            ids = s.ids
            distinct = s.distinct
            extraOccurrences = s.extraOccurrences
            duplicateIDs = s.duplicateIDs
        } else {
            self.init(reading: s, claimedBits: nil, scheme: nil, now: now)
        }
        var notes = ["declared: \(d.name), every line one (\(f.encoding))"]
        let name = d.name
        if let read {
            let invalid = s.ids - read + unreadable
            if invalid > 0 {
                var parts: [String] = []
                let unread = s.ids - read - outOfTime + ownSetAside
                if unread > 0 { parts.append("\(unread) that do not read as \(f.rawValue) with a timestamp from 2005 to tomorrow") }
                if outOfTime > 0 { parts.append("\(outOfTime) with a timestamp outside 2005 to tomorrow") }
                if s.emptyLines > 0 { parts.append("\(s.emptyLines) empty") }
                if s.placeholderLines > 0 { parts.append("\(s.placeholderLines) nil or max UUIDs") }
                if s.overlongLines > 0 { parts.append("\(s.overlongLines) overlong") }
                if s.invalidUTF8Lines > 0 { parts.append("\(s.invalidUTF8Lines) not UTF-8") }
                if let foreign { parts.append("\(foreign.lines) set aside as not \(foreign.shape)") }
                notes.append(
                    "\(invalid) line\(invalid == 1 ? " is" : "s are") not \(name) (\(parts.joined(separator: ", "))); \(d.maxInvalid) allowed"
                )
            }
            if invalid > d.maxInvalid, verdict != .tooMany { verdict = .invalid }
        } else {
            notes.append(
                "none of the \(s.ids) lines is read as \(name) (a summary made without the declaration stops reading a layout past 1,000 lines that are not it); \(d.maxInvalid) allowed"
            )
            if verdict != .tooMany { verdict = .invalid }
        }
        if read == 0, s.ids > 0, verdict != .invalid {
            // Nothing of the format to judge: invalid when the lines not of it are more than allowed
            // (their repeats are no finding about the format), else nothing to judge.
            verdict = (s.ids + unreadable > d.maxInvalid) ? .invalid : .empty
            notes.append("no ids of the declared format: nothing to judge")
        }
        if (read ?? 0) == 0 {
            // Nothing read as the format: named by the declaration, not by what an empty stream's
            // defaults would call it ("tokens over decimal").
            formatName = "declared \(name)"
            alphabet = f.alphabet.name ?? String(f.alphabet.symbols)
            alphabetSize = f.alphabet.symbols.count
        }
        let judgedAs = time.map { format == $0 } ?? (nodeFormat == f)
        if !judgedAs, s.ids > 0, read ?? 0 > 0 {
            notes.append("the ids were judged as what they read as, \(formatName): not all of them are \(name)")
        }
        findings = notes + findings
    }
}
