import Foundation
import IDAudit
import IDBudget
import IDQuestions

/// The page's HTML: the form, the answer, the plot.
enum Page {
    /// The form's fields, each echoed back (escaped) so the permalink shows what was asked.
    struct Form: Sendable {
        static let names: Set<String> = [
            "ask", "alphabet", "scheme", "length", "rate", "per", "lifetime", "unit", "growth", "nodes", "existing", "max-probability",
        ]
        static let rateUnits = [("s", "second"), ("min", "minute"), ("h", "hour"), ("d", "day"), ("M", "month")]
        static let lifetimeUnits = [
            ("s", "seconds"), ("min", "minutes"), ("h", "hours"), ("d", "days"), ("w", "weeks"), ("M", "months"), ("y", "years"),
        ]

        /// `length` (a budget gives the length) or `probability` (a length gives p).
        var ask = "length"
        var alphabet = "base62"
        var scheme = ""
        var length = "22"
        var rate = "1e6"
        var per = "s"
        var lifetime = "10"
        var unit = "y"
        /// Optional: the rate's growth (`40%/y`), nodes minting into the same space, ids already stored.
        var growth = ""
        var nodes = ""
        var existing = ""
        var maxProbability = "1e-11"
        /// The values as typed (`1,000,000`, `10 years`, `1 in 10^11`), shown again in the form and the
        /// sentence; the fields above hold them in the CLI's syntax.
        var typed: [String: String] = [:]

        init() {}

        /// A field's value as it was typed, else as the form holds it.
        func shown(_ name: String, _ value: String) -> String { typed[name] ?? value }

        /// The form as a query string (`ask=length&alphabet=base62&…`): the audit form's action carries
        /// it, so the calculator is shown as it was after an audit.
        var queryString: String {
            let fields = [
                ("ask", ask), ("alphabet", alphabet), ("scheme", scheme), ("length", length), ("rate", shown("rate", rate)),
                ("per", per), ("lifetime", shown("lifetime", lifetime)), ("unit", unit), ("growth", shown("growth", growth)),
                ("nodes", shown("nodes", nodes)), ("existing", shown("existing", existing)),
                ("max-probability", shown("max-probability", maxProbability)),
            ]
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        }

        init(_ query: Arguments) throws(Refusal) {
            func value(_ name: String) -> String? { query.nonEmpty(name) }
            // A field sent empty stays empty — the form shows it as it was sent, and a question that
            // needs it says so — where a field not sent at all (a first visit, a link) takes its default.
            func sent(_ name: String) -> Bool { query[name] != nil }
            ask = value("ask") ?? ask
            guard ask == "length" || ask == "probability" else { throw Refusal.usage("ask", "'\(ask)' is neither length nor probability") }
            alphabet = value("alphabet") ?? alphabet
            scheme = value("scheme") ?? ""
            length = value("length") ?? (ask == "probability" && !sent("length") ? length : "")
            rate = value("rate").map(TypedText.plain) ?? (sent("rate") ? "" : rate)
            per = value("per") ?? per
            lifetime = value("lifetime").map(TypedText.plain) ?? (sent("lifetime") ? "" : lifetime)
            unit = value("unit") ?? unit
            growth = value("growth").map(TypedText.plain) ?? ""
            nodes = value("nodes").map(TypedText.plain) ?? ""
            existing = value("existing").map(TypedText.plain) ?? ""
            maxProbability =
                value("max-probability").map(TypedText.budget) ?? (ask == "length" && !sent("max-probability") ? maxProbability : "")
            for name in ["rate", "lifetime", "growth", "nodes", "existing", "max-probability"] { typed[name] = value(name) }
        }

        /// A refusal's message with the value as it was typed (`'1 000 zz'`), where it quotes the value
        /// as the question got it (`'1000zz/s'`: digit groups closed up, the unit joined).
        func typedWords(_ refusal: Refusal) -> Words {
            guard let argument = refusal.argument else { return refusal.words }
            let name = String(argument.drop { $0 == "-" })
            guard let typed = typed[name] else { return refusal.words }
            let given: String
            switch name {
            case "rate": given = rateText
            case "lifetime": given = lifetimeText
            case "max-probability": given = maxProbability
            case "growth": given = growth
            case "nodes": given = nodes
            case "existing": given = existing
            default: return refusal.words
            }
            return Words(
                parts: refusal.words.parts.map { part in
                    guard case .text(let text) = part else { return part }
                    return .text(text.replacingOccurrences(of: "'\(given)'", with: "'\(typed)'"))
                })
        }

        /// The rate and lifetime in the CLI's syntax: `1e6` per `s` is `1e6/s` (a value with its unit
        /// written in is taken as it is).
        var rateText: String { rate.contains("/") ? rate : "\(rate)/\(per)" }
        var lifetimeText: String { lifetime.last.map { $0.isLetter } == true ? lifetime : "\(lifetime)\(unit)" }

        /// The workload in words: "1,000,000 ids a second for 10 years", with the nodes, growth and
        /// ids already stored where the form has them ("… on each of 50 nodes for 10 years, the rate
        /// growing 40% a year, beside 1,000,000,000 ids already stored"); a whole number typed as
        /// `1e6` is said in digits (``Form/grouped(_:)``).
        var workloadText: String {
            let per = Self.rateUnits.first { $0.0 == self.per }?.1 ?? self.per
            let rate = Self.grouped(shown("rate", rate))
            let lifetime = shown("lifetime", lifetime)
            let one = { (text: String) in text.trimmingCharacters(in: .whitespaces) == "1" }
            // The article as the unit is said: "an hour" (its h is silent), "a microsecond".
            let article = per == "hour" || "aeiou".contains(per.first ?? "x") ? "an" : "a"
            var rateWords = rate.contains("/") ? "\(rate)" : "\(rate) id\(one(rate) ? "" : "s") \(article) \(per)"
            var unitWords = Self.lifetimeUnits.first { $0.0 == unit }?.1 ?? unit
            // A unit typed in the field wins over the menu's: said, never silent.
            if let typed = rate.split(separator: "/").last, rate.contains("/"), !Self.same(String(typed), menu: self.per) {
                rateWords += " (the unit typed, not the menu's \(per))"
            }
            var lifeWords = "\(lifetime) \(unitWords)"
            if lifetime.last.map({ $0.isLetter }) == true {
                let typed = String(lifetime.reversed().prefix { $0.isLetter }.reversed())
                lifeWords = Self.same(typed, menu: unit) ? lifetime : "\(lifetime) (the unit typed, not the menu's \(unitWords))"
            } else if one(lifetime), unitWords.hasSuffix("s") {
                unitWords.removeLast()
                lifeWords = "\(lifetime) \(unitWords)"
            }
            // Everything else the question counts is said too: two questions never read alike.
            if !nodes.isEmpty {
                let n = Self.grouped(shown("nodes", nodes))
                rateWords += one(n) ? " on 1 node" : " on each of \(n) nodes"
            }
            var words = "\(rateWords) for \(lifeWords)"
            if !growth.isEmpty {
                let g = shown("growth", growth)
                words += ", the rate growing \(g.hasSuffix("/y") ? "\(g.dropLast(2)) a year" : g)"
            }
            if !existing.isEmpty {
                let e = Self.grouped(shown("existing", existing))
                words += ", beside \(e) id\(one(e) ? "" : "s") already stored"
            }
            return words
        }

        /// A whole number as a person reads it: `1e6` or `1000000` is `1,000,000`; anything else (a
        /// fraction, a unit, a power such as `2^40`, a number past 10^18) as typed.
        static func grouped(_ typed: String) -> String {
            let t = typed.trimmingCharacters(in: .whitespaces)
            guard !t.isEmpty, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "e" || $0 == "E" || $0 == "." || $0 == "+") }),
                let x = ExactDecimal(t), let n = x.integerValue, n < BigInt.power(10, 18)
            else { return typed }
            let digits = Array(n.description)
            var out = ""
            for (i, d) in digits.enumerated() {
                if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
                out.append(d)
            }
            return out
        }

        /// Whether a unit typed in a field (`sec`, `hours`, `M`) is the one a menu's `code` names, as
        /// the rate and lifetime read units (`Lifetime.sameUnit`).
        static func same(_ typed: String, menu code: String) -> Bool { Lifetime.sameUnit(typed, code) }

        /// The same workload asked as `plan` (every alphabet's length, every format's fit), with the ids
        /// already stored or without them; nil when it can not be answered.
        func plan(budget: String, existing withExisting: Bool) -> PlanAnswer? {
            var named = ["rate": rateText, "lifetime": lifetimeText, "max-probability": budget]
            for (name, text) in [("nodes", nodes), ("growth", growth), ("existing", withExisting ? existing : "")] where !text.isEmpty {
                named[name] = text
            }
            return (try? Question(.plan, Arguments(named)).answer()) as? PlanAnswer
        }

        /// The form's values under the CLI's names, as ``question()`` asks them: what the lane a
        /// question runs in is chosen on (the form's `rate` and `per` are one rate there).
        var arguments: Arguments {
            let cli = [
                "rate": rateText, "lifetime": lifetimeText, "growth": growth, "nodes": nodes, "existing": existing,
                "alphabet": alphabet, "length": length, "scheme": scheme, "max-probability": maxProbability,
            ]
            return Arguments(cli.filter { !$0.value.isEmpty })
        }

        /// Seconds the page's answer may take (`Arguments.estimatedSeconds(for:)`): a length comes with
        /// the plan that compares every alphabet; a probability alone.
        var estimatedSeconds: Double {
            ask == "length"
                ? arguments.estimatedSeconds(for: .length) + arguments.estimatedSeconds(for: .plan)
                : arguments.estimatedSeconds(for: .probability)
        }

        /// The CLI's question for this form.
        func question() throws(Refusal) -> Question {
            // A length typed but not used (the length is the answer, or a format has its own) is still read.
            if !length.isEmpty { _ = try refusing { () throws(ArgumentError) in try ArgumentText.length(length) } }
            // A field the question needs, sent empty: said, never silently its default — the first
            // named, the others listed after it.
            let empty: [(name: String, message: String)] = [
                (rate.isEmpty, "rate", "give the ids minted per unit of time, e.g. 1,000,000 or 1e6"),
                (lifetime.isEmpty, "lifetime", "give how long ids must stay unique, e.g. 10 or 10 years"),
                (
                    ask == "probability" && scheme.isEmpty && length.isEmpty, "length",
                    "give a length in symbols, e.g. 22, or choose a format"
                ),
                (
                    ask == "length" && maxProbability.isEmpty, "max-probability",
                    "give a maximum collision probability, e.g. 1e-11 or 1 in 10^11"
                ),
            ].filter(\.0).map { ($0.1, $0.2) }
            if let first = empty.first {
                let others = empty.dropFirst().map { "“\(Page.fieldName($0.name))”" }
                throw Refusal.usage(
                    first.name, "empty; \(first.message)" + (others.isEmpty ? "" : " (empty too: \(others.joined(separator: ", ")))"))
            }
            var cli = ["rate": rateText, "lifetime": lifetimeText]
            for (name, text) in [("growth", growth), ("nodes", nodes), ("existing", existing)] where !text.isEmpty { cli[name] = text }
            if ask == "length" && scheme.isEmpty {
                cli["alphabet"] = alphabet
                cli["max-probability"] = maxProbability
                return try refusing { () throws(ArgumentError) in try Question(.length, Arguments(cli)) }
            }
            // A format has its own length: asked for one, the page answers whether it is within the
            // budget (its probability, against the budget).
            // A budget with the probability: checked as the CLI checks one, drawn as the plot's line.
            if !maxProbability.isEmpty { _ = try refusing { () throws(ArgumentError) in try ArgumentText.budget(maxProbability) } }
            if scheme.isEmpty {
                cli["alphabet"] = alphabet
                cli["length"] = length
            } else {
                cli["scheme"] = scheme
            }
            return try refusing { () throws(ArgumentError) in try Question(.probability, Arguments(cli)) }
        }
    }

    /// An answer and what the page shows of it.
    struct Answered: Sendable {
        var rows: [(String, String)]
        var headline: String
        /// The answer in one plain sentence, above the figures.
        var sentence = ""
        let plot: Plot?
        let json: String
        /// For a length: every named alphabet's minimum length for the same question (`idbudget plan`).
        var compare: [PlanRow] = []
        /// For a length: whether each random format is within the same budget, with its own model.
        var formats: [FormatFit] = []

        /// `budget`: a budget to draw beside a probability (a length's answer has its own); `workload`:
        /// the rate and lifetime in words, for the sentence.
        init(_ answer: any Answer, budget given: String? = nil, workload: String = "") throws(Refusal) {
            json = try answer.cliJSON()
            var rows: [(String, String)] = []
            let collision: CollisionFigures
            let space: SpaceFigures
            let volume: VolumeFigures
            var budget = given
            if let a = answer as? LengthAnswer {
                headline = "\(a.length) symbol\(a.length == 1 ? "" : "s") of \(a.alphabet)"
                rows.append(("shortest length", "\(a.length)"))
                rows.append(("bytes", a.bytes.map(String.init) ?? "unknown"))
                rows.append(("fits an apns-collapse-id (64 bytes)", a.bytes.map { $0 <= 64 ? "yes" : "no" } ?? "unknown"))
                (collision, space, volume, budget) = (a.collision, a.space, a.volume, a.budget)
                rows.append(("budget", a.budget))
                if let shorter = a.shorterProbability { rows.append(("p one symbol shorter (over budget)", shorter)) }
            } else if let a = answer as? ProbabilityAnswer {
                headline = "p = \(a.collision.probability)"
                (collision, space, volume) = (a.collision, a.space, a.volume)
                rows.append(("expected ids to a first collision", a.expectedDrawsToFirstCollision))
            } else {
                throw Refusal(.badRequest, argument: nil, "the page answers length and probability")
            }
            // Time buckets: the ids of one bucket and of all of them, each labelled.
            let bucketed = volume.buckets != "1"
            var idsRows = [("ids", volume.count)]
            if bucketed {
                let all = BigInt(decimal: volume.count).flatMap { c in BigInt(decimal: volume.buckets).map { (c * $0).description } }
                idsRows = [("ids per time bucket (on average)", volume.count), ("time buckets", volume.buckets)]
                if let all { idsRows.append(("ids in all (about)", all)) }
            }
            rows.insert(contentsOf: [("space", space.summary), ("bits", String(format: "%.2f", space.bits))] + idsRows, at: 0)
            rows.append(("collision probability p", collision.probability.description))
            rows.append(("odds", collision.oneIn))
            rows.append(("odds in words", oddsInWords(collision.oneIn)))
            rows.append(("no collision (1 − p)", collision.complement.description))
            rows.append(("expected colliding pairs", collision.expectedCollisions.description))
            if let g = collision.groupProbability { rows.append(("p in one time bucket", g.description)) }
            rows.append(
                (
                    "what a double-precision calculator says",
                    collision.doubleApproximation.map { "\($0)" } ?? "nan (the space is beyond a double's range)"
                ))
            // Against the budget: a length is within it by construction; a probability is compared.
            var verdict = ""
            if !(answer is LengthAnswer), let b = budget, let within = Self.within(collision.probability.description, b) {
                // A budget written long (200 digits) is in the figures already: the label stays short.
                rows.append((b.count <= 24 ? "within the budget (\(b))" : "within the budget", within ? "yes" : "no"))
                verdict = within ? ", within the budget of \(b)" : ", over the budget of \(b)"
            }
            // Fewer than two ids: the odds are "never", which the sentence says in its own words.
            let odds = collision.oneIn == "never" ? "0: fewer than two ids, so none can collide" : oddsInWords(collision.oneIn)
            if let a = answer as? LengthAnswer {
                sentence =
                    "At \(workload), \(a.length) \(a.alphabet) character\(a.length == 1 ? "" : "s") keep\(a.length == 1 ? "s" : "") the chance of any collision under \(a.budget) (\(oddsInWords(Self.oneIn(a.budget)))): it is \(odds)."
            } else {
                sentence =
                    "At \(workload), the chance that any two of these ids collide is \(odds)\(verdict)\(bucketed ? " (ids collide only within one time bucket)" : "")."
            }
            self.rows = rows
            // The plot: per time bucket when the scheme has them (the volume's count is then per bucket),
            // with the budget as one bucket's share of it, 1 − (1 − b)^(1/B) ≈ b/B.
            if let count = log10Decimal(volume.count),
                let p = log10Decimal((collision.groupProbability ?? collision.probability).description)
            {
                var line: (String, Double)? = budget.flatMap { b in Self.log10Budget(b).map { (b, $0) } }
                if bucketed, let (b, logB) = line {
                    line = log10Decimal(volume.buckets).map { ("\(b) over all buckets", logB - $0) }
                }
                plot = Plot(
                    log10Space: space.bits * Foundation.log10(2.0), here: (count, p), countText: volume.count, budget: line,
                    countLabel: bucketed ? "ids per time bucket" : "ids (count n)")
            } else {
                plot = nil
            }
        }

        /// The budget `b` as the one layer reads it (`1e-11`, `10^-11`, `2^-40`: the page's `1 in
        /// 10^11` arrives as `10^-11`); nil where it is not one.
        static func budgetFraction(_ b: String) -> (numerator: BigInt, denominator: BigInt)? {
            (try? ArgumentText.budget(b))?.fraction
        }

        /// log10 of a budget; nil where it is not one.
        static func log10Budget(_ b: String) -> Double? {
            guard let (n, d) = budgetFraction(b) else { return nil }
            return (n.log2Magnitude - d.log2Magnitude) * Foundation.log10(2.0)
        }

        /// Whether p (the answer's 30 certified digits) is within budget `b`; nil where either is unreadable.
        static func within(_ p: String, _ b: String) -> Bool? {
            guard let pv = ExactDecimal(p), let (bn, bd) = budgetFraction(b) else { return nil }
            let (pn, pd) = pv.fraction
            return pn * bd <= bn * pd
        }

        /// "1 in X" for a budget b: X = 1/b to 3 digits.
        static func oneIn(_ b: String) -> String {
            guard let (n, d) = budgetFraction(b) else { return b }
            return "1 in \(ScientificDecimal.exact(numerator: d, denominator: n, significantDigits: 3).short(3))"
        }
    }

    enum Result {
        case answer(Answered)
        case refusal(Refusal)
        /// The audit form's verdict.
        case audit(AuditReport)
    }

    /// The form's label for the argument a refusal names (`rate`: Rate; `--rate`, as a message's text
    /// names it, too).
    static func fieldName(_ argument: String) -> String {
        let names = [
            "rate": "Rate", "lifetime": "Lifetime", "max-probability": "Maximum collision probability", "growth": "Growth",
            "nodes": "Nodes", "existing": "Ids already stored", "length": "Length", "alphabet": "Alphabet", "scheme": "Format",
            "count": "Rate × lifetime",
            "ask": "Question",
            // The upload's refusals (too slow, too large, not the form's type) name its body: the ids.
            "body": "Ids",
        ]
        // An argument the form has no field for: its name without the dashes.
        let bare = String(argument.drop { $0 == "-" }.prefix(80))
        return names[bare] ?? bare
    }

    /// A refusal's words as the page says them: each argument named by the form's label (“Nodes”), an
    /// example after one by its value alone (`e.g. 50`: the label is already in the error's heading),
    /// and a field to leave out is one to leave empty.
    static func pageWords(_ words: Words) -> String {
        var text = ""
        for part in words.parts {
            switch part {
            case .text(let t): text += t
            case .argument(_, let value?) where text.hasSuffix("e.g. "): text += value
            case .argument(let name, let value): text += "“\(fieldName(name))”" + (value.map { " " + $0 } ?? "")
            }
        }
        return text.replacingOccurrences(of: #"leave (“[^”]+”) out"#, with: "leave $1 empty", options: .regularExpression)
    }

    /// `pasted`: the audit form's ids, shown again with their verdict.
    static func render(form: Form, result: Result?, pasted: String = "", pastedNote: String? = nil) -> String {
        func e(_ s: String) -> String { HTML.escape(s) }
        func options(_ items: [(String, String)], selected: String) -> String {
            items.map { "<option value=\"\(e($0.0))\"\($0.0 == selected ? " selected" : "")>\(e($0.1))</option>" }.joined()
        }
        let alphabets = Alphabet.builtIns.compactMap(\.name).map { ($0, $0) }
        // Node-id formats have no random bits to plot: the page offers the random ones.
        let schemes = [("", "— none: alphabet and length —")] + Scheme.all.filter { $0.node == nil }.map { ($0.name, $0.name) }
        var html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>idbudget: how long must a random id be?</title>
            <link rel="icon" href="/favicon.svg" type="image/svg+xml">
            <link rel="stylesheet" href="/style.css">
            <script src="/app.js" defer></script>
            </head>
            <body>
            <main>
            <h1>How long must a random id be?</h1>
            <p>Exact birthday-bound answers (every digit certified), as <code>idbudget</code> gives them. \
            The JSON API is described at <a href="/openapi.json">/openapi.json</a>.</p>
            <form method="get" action="/">
            <fieldset><legend>Question</legend>
            <label><input type="radio" name="ask" value="length"\(form.ask == "length" ? " checked" : "")> \
            the shortest length within a budget</label>
            <label><input type="radio" name="ask" value="probability"\(form.ask == "probability" ? " checked" : "")> \
            the collision probability of a length or format</label>
            </fieldset>
            <fieldset><legend>Ids</legend>
            <label for="alphabet">Alphabet</label>
            <select id="alphabet" name="alphabet">\(options(alphabets, selected: form.alphabet))</select>
            <label for="length">Length (symbols; for the probability)</label>
            <input id="length" name="length" inputmode="numeric" value="\(e(form.length))" placeholder="22">
            <label for="scheme">Or a format (for the probability)</label>
            <select id="scheme" name="scheme">\(options(schemes, selected: form.scheme))</select>
            </fieldset>
            <fieldset><legend>Volume</legend>
            <label for="rate">Rate (ids per unit of time)</label>
            <span class="pair"><input id="rate" name="rate" value="\(e(form.shown("rate", form.rate)))" placeholder="1e6" required>
            <label for="per" class="inline">per</label>
            <select id="per" name="per">\(options(Form.rateUnits, selected: form.per))</select></span>
            <label for="lifetime">Lifetime (how long ids must stay unique)</label>
            <span class="pair"><input id="lifetime" name="lifetime" value="\(e(form.shown("lifetime", form.lifetime)))" placeholder="10" required>
            <label for="unit" class="inline">unit</label>
            <select id="unit" name="unit">\(options(Form.lifetimeUnits, selected: form.unit))</select></span>
            <label for="growth">Growth of the rate (optional): 40%/y, 2x/y, 3%/mo</label>
            <input id="growth" name="growth" value="\(e(form.shown("growth", form.growth)))" placeholder="none">
            <label for="nodes">Nodes each minting at that rate into the same space (optional)</label>
            <input id="nodes" name="nodes" inputmode="numeric" value="\(e(form.shown("nodes", form.nodes)))" placeholder="1">
            <label for="existing">Ids already stored (optional; not for time-ordered formats)</label>
            <input id="existing" name="existing" inputmode="numeric" value="\(e(form.shown("existing", form.existing)))" placeholder="0">
            </fieldset>
            <fieldset><legend>Budget</legend>
            <label for="max-probability">Maximum collision probability (gives the length; drawn with a probability)</label>
            <input id="max-probability" name="max-probability" value="\(e(form.shown("max-probability", form.maxProbability)))" placeholder="1e-11">
            </fieldset>
            <button type="submit">Answer</button>
            </form>

            """
        switch result {
        case .answer(let a):
            let headline = HTML.breakable(a.headline, longerThan: 12)
            html += "<section id=\"answer\" aria-live=\"polite\">\n<h2>Answer: <output id=\"headline\">\(headline)</output></h2>\n"
            if !a.sentence.isEmpty { html += "<p id=\"sentence\">\(HTML.prose(a.sentence))</p>\n" }
            html += "<table class=\"figures\">\n"
            for (label, value) in a.rows {
                // A certified figure's 30 digits wrap between groups of 10 on a phone, never at the exponent.
                html +=
                    "<tr><th scope=\"row\">\(HTML.breakable(label, longerThan: 40))</th><td>\(HTML.breakable(value, longerThan: 20))</td></tr>\n"
            }
            html += "</table>\n"
            if let plot = a.plot { html += "<figure>\(plot.svg)</figure>\n" }
            if !a.compare.isEmpty {
                html += "<h3>Compare alphabets</h3>\n<table id=\"compare\">\n"
                html += "<tr><th scope=\"col\">alphabet</th><th scope=\"col\">length</th><th scope=\"col\">bytes</th>"
                html += "<th scope=\"col\">p</th><th scope=\"col\">odds</th><th scope=\"col\">fits 64 bytes</th></tr>\n"
                for r in a.compare {
                    html += "<tr><td>\(e(r.alphabet))</td><td>\(r.length)</td><td>\(r.bytes)</td>"
                    html +=
                        "<td>\(e(r.collision.probability.description))</td><td>\(e(r.collision.oneIn))</td><td>\(r.fitsMaxBytes ? "yes" : "no")</td></tr>\n"
                }
                html += "</table>\n"
            }
            if !a.formats.isEmpty {
                html += "<h3>Compare formats</h3>\n<table id=\"formats\">\n"
                html += "<tr><th scope=\"col\">format</th><th scope=\"col\">collide</th><th scope=\"col\">random bits</th>"
                html += "<th scope=\"col\">bits needed</th><th scope=\"col\">p</th><th scope=\"col\">within budget</th></tr>\n"
                for f in a.formats {
                    html += "<tr><td>\(e(f.scheme))</td><td>\(e(f.collide))</td><td>\(f.bits)</td><td>\(f.bitsNeeded)</td>"
                    html += "<td>\(e(f.collision.probability.description))</td><td>\(f.withinBudget ? "yes" : "no")</td></tr>\n"
                }
                html += "</table>\n"
            }
            html += "<details><summary>The CLI's JSON</summary><pre>\(e(a.json))</pre></details>\n</section>\n"
        case .refusal(let r):
            html += "<section id=\"answer\" aria-live=\"polite\"><h2>Not answered</h2>\n<p class=\"error\" role=\"alert\">"
            html += r.argument.map { "\(e(Self.fieldName($0))): " } ?? ""
            html += "\(e(String(Self.pageWords(form.typedWords(r)).prefix(400))))</p></section>\n"
        case .audit(let r):
            html +=
                "<section id=\"answer\" aria-live=\"polite\">\n<h2>Audit: <output id=\"headline\">\(e(r.verdict))</output></h2>\n<table class=\"figures\">\n"
            var rows: [(String, String)] = [
                ("ids", "\(r.ids)"), ("distinct", "\(r.distinct)"), ("extra occurrences", "\(r.extraOccurrences)"),
                ("format", r.format), ("alphabet", "\(r.alphabet) (\(r.alphabetSize) symbols)"), ("implied space", r.space.summary),
            ]
            if r.nodes == nil {
                rows.append(("expected duplicates if uniform", String(format: "%.4g", r.expectedDuplicates)))
                rows.append(("p-values", String(format: "more duplicates ≤ %.3g, fewer ≤ %.3g", r.pValueHigh, r.pValueLow)))
            }
            rows.append(("verdict code", r.verdictCode.rawValue))
            for (label, value) in rows {
                html += "<tr><th scope=\"row\">\(HTML.breakable(label, longerThan: 40))</th><td>\(HTML.breakable(value))</td></tr>\n"
            }
            html += "</table>\n<ul class=\"findings\">\n"
            for f in r.findings.prefix(40) { html += "<li>\(e(String(f.prefix(600))))</li>\n" }
            html += "</ul>\n"
            if let json = try? r.jsonText() { html += "<details><summary>The CLI's JSON</summary><pre>\(e(json))</pre></details>\n" }
            html += "</section>\n"
        case nil:
            html += "<section id=\"answer\" aria-live=\"polite\"></section>\n"
        }
        // The audit form last: its verdict shows in the answer above it, scrolled to (#answer) — on a
        // phone the calculator's form would otherwise keep it a screen or two down.
        html += """
            <form method="post" action="/audit?\(e(form.queryString))#answer" enctype="text/plain" id="audit-form">
            <fieldset><legend>Audit ids a system made</legend>
            <label for="ids">Ids, one per line (pasted; for files, POST them to /api/v1/audit)</label>
            <textarea id="ids" name="ids" rows="6" spellcheck="false" autocomplete="off">\(HTML.escape(pasted, keepingControls: true))</textarea>\(pastedNote.map { "\n<p class=\"note\" id=\"ids-note\">\(e($0))</p>" } ?? "")
            </fieldset>
            <button type="submit">Audit</button>
            </form>
            </main>
            </body>
            </html>

            """
        return html
    }
}
