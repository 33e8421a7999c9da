import Foundation
import HTTPTypes
import HummingbirdTesting
import IDBudget
import IDQuestions
import NIOCore
import Testing

@testable import IDBudgetServer

/// The page: a GET form whose answer is a permalink, the answer with every digit, the SVG plot, and
/// every echoed value escaped.
@Suite struct PageTests {
    static let seed = "/?ask=length&alphabet=base62&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11"

    /// Long numbers may wrap only between groups of 10 digits; shorter ones, and everything else, as
    /// escaped text.
    /// In the sentence a short number stays on one line (`1e-11` not broken after its hyphen), and
    /// a long one pasted into the form wraps between groups of digits.
    @Test func theSentenceKeepsNumbersWhole() {
        #expect(
            HTML.prose("under 1e-11 (about 1 in 100)")
                == "under <span class=\"nb\">1e-11</span> (about <span class=\"nb\">1</span> in <span class=\"nb\">100</span>)")
        let long = String(repeating: "9", count: 45)
        #expect(HTML.prose("At \(long) ids <b>") == "At " + HTML.breakable(long) + " ids &lt;b&gt;")
        #expect(HTML.prose("base62 and uuid7, 2x") == "base62 and uuid7, 2x")
        #expect(HTML.prose("10^-11 or 2^40") == "<span class=\"nb\">10^-11</span> or <span class=\"nb\">2^40</span>")
    }

    @Test func longNumbersBreakBetweenGroups() {
        #expect(HTML.breakable("315360000000000") == "315360000000000")
        let p = "8.34747485482901767387706378256e-6"
        // The exponent stays whole: a line never ends at its sign (`…256e-` | `6`).
        #expect(HTML.breakable(p) == "8.34747485482901767387706378256<span class=\"nb\">e-6</span>")
        #expect(HTML.breakable(p, longerThan: 12) == "8.3474748548<wbr>2901767387<wbr>706378256<span class=\"nb\">e-6</span>")
        #expect(HTML.breakable("1e+300 and e-") == "1<span class=\"nb\">e+300</span> and e-")
        let digits = String(repeating: "1234567890", count: 4) + "1"
        #expect(HTML.breakable("<" + digits + ">") == "&lt;" + (0..<4).map { _ in "1234567890" }.joined(separator: "<wbr>") + "<wbr>1&gt;")
    }

    @Test func answersTheSeedArticlesQuestionWith23() async throws {
        try await withServer { client in
            let r = try await client.get(Self.seed)
            #expect(r.status == .ok)
            #expect(r.headers[.contentType] == "text/html; charset=utf-8")
            #expect(r.body.contains("<output id=\"headline\">23 symbols of base62</output>"))
            #expect(r.body.contains("<svg"))
            #expect(r.body.contains("class=\"curve\""))
            #expect(r.body.contains("class=\"budget\""))
            #expect(r.body.contains("you are here"))
            #expect(r.body.contains("this question: 315360000000000 ids (count n) at p ≈ 1e-12.5"))
            #expect(r.body.contains(">budget 1e-11</text>"))
            // Every digit: p at 23 symbols and one shorter, as the CLI prints them.
            #expect(r.body.contains("2.96192706207961307114354150383e-13"))
            #expect(r.body.contains("1.83639477847277033856633261466e-11"))
            // The odds in words: p ≈ 2.96e-13 is 1 in 3.38e12.
            #expect(r.body.contains("about 1 in 3.38 trillion"), "\(r.body)")
            // The form is a GET form, filled with what was asked, with labels for its fields.
            #expect(r.body.contains("<form method=\"get\" action=\"/\">"))
            #expect(r.body.contains("<label for=\"rate\">"))
            #expect(r.body.contains("value=\"1e6\""))
            // Nothing from elsewhere: no CDN, no external font, no inline script or style; one local script.
            #expect(!r.body.contains("http://") || !r.body.contains("src=\"http"))
            #expect(!r.body.contains("https://"))
            #expect(!Self.withoutOwnScript(r.body).contains("<script"))
            #expect(!r.body.contains("style="))
        }
    }

    /// The answer first in one plain sentence; inputs as people type them (digit groups, a unit after
    /// a space, odds for the budget); a format's figures labelled per bucket and in all, with the
    /// verdict against the budget and the budget's per-bucket line; a length asked for a format answers
    /// for that format; the audit shows the pasted ids again; the script's previews are never 4xx.
    @Test func thePageSpeaksPlainly() async throws {
        try await withServer { client in
            let seed = try await client.get(Self.seed)
            #expect(
                seed.body.contains(
                    "<p id=\"sentence\">At <span class=\"nb\">1,000,000</span> ids a second for <span class=\"nb\">10</span> years, <span class=\"nb\">23</span> base62 characters keep the chance of any collision under <span class=\"nb\">1e-11</span> (about <span class=\"nb\">1</span> in <span class=\"nb\">100</span> billion): it is about <span class=\"nb\">1</span> in <span class=\"nb\">3.38</span> trillion.</p>"
                ), "\(seed.body)")
            let typed = try await client.get(
                "/?ask=length&alphabet=base62&rate=1%2C000%2C000&per=s&lifetime=10+years&max-probability=1+in+10%5E11")
            #expect(typed.body.contains("<output id=\"headline\">23 symbols of base62</output>"), "\(typed.body.suffix(800))")
            // Shown again as typed: in the form, in the sentence, in the audit form's action.
            for field in [
                "id=\"rate\" name=\"rate\" value=\"1,000,000\"", "value=\"10 years\"", "value=\"1 in 10^11\"",
                "At <span class=\"nb\">1,000,000</span> ids a second for <span class=\"nb\">10</span> years,",
            ] {
                #expect(typed.body.contains(field), "\(field)")
            }
            #expect(typed.body.contains("rate=1%2C000%2C000"))
            // Odds typeset with a superscript power, and in digit groups: read, and the budget said in
            // its fewest decimals (not 0.000001000000).
            let superscript = try await client.get(
                "/?ask=length&alphabet=base62&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1+in+10%C2%B9%C2%B9")
            #expect(superscript.body.contains("<output id=\"headline\">23 symbols of base62</output>"), "\(superscript.body.suffix(800))")
            let odds = try await client.get(
                "/?ask=length&alphabet=base62&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1+in+1%2C000%2C000")
            #expect(odds.body.contains("under <span class=\"nb\">0.000001</span> (about"), "\(odds.body.suffix(1500))")
            // Nodes, growth and ids already stored are in the sentence: two questions never read alike.
            let fleet = try await client.get(
                "/?ask=length&alphabet=base62&rate=1e6&per=h&lifetime=10&unit=y&max-probability=1e-11&nodes=50&growth=40%25%2Fy&existing=1e9"
            )
            let sentence = try #require(
                fleet.body.range(of: "<p id=\"sentence\">").map { String(fleet.body[$0.upperBound...].prefix(600)) })
            for words in [
                "ids an hour on each of", "50</span> nodes for", "the rate growing", "% a year", "1,000,000,000</span> ids already stored",
            ] {
                #expect(sentence.contains(words), "\(words): \(sentence)")
            }
            // A unit typed in the field is the one used, and the sentence says the menu's is not; the
            // menu's own unit, however spelled, is no news.
            let own = try await client.get("/?ask=length&alphabet=base62&rate=1e3%2Fms&per=s&lifetime=6M&unit=y&max-probability=1e-11")
            #expect(own.body.contains("(the unit typed, not the menu&#39;s second)"), "\(own.body.suffix(1500))")
            #expect(own.body.contains("(the unit typed, not the menu&#39;s years)"), "\(own.body.suffix(1500))")
            let same = try await client.get(
                "/?ask=length&alphabet=base62&rate=1e6%2Fsec&per=s&lifetime=10+years&unit=y&max-probability=1e-11")
            #expect(same.status == .ok && !same.body.contains("the unit typed"), "\(same.body.suffix(1500))")
            let million = try await client.get(
                "/?ask=length&alphabet=hex&rate=1000&per=s&lifetime=1&unit=d&max-probability=1+in+1%2C000%2C000")
            let decimal = try await client.get("/?ask=length&alphabet=hex&rate=1000&per=s&lifetime=1&unit=d&max-probability=0.000001")
            #expect(million.status == .ok && million.body.contains("2.9") && Self.headline(million.body) == Self.headline(decimal.body))
            let uuid7 = try await client.get(
                "/?ask=probability&scheme=uuid7&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11")
            #expect(uuid7.body.contains("<th scope=\"row\">ids per time bucket (on average)</th><td>1000</td>"), "\(uuid7.body)")
            #expect(uuid7.body.contains("<th scope=\"row\">ids in all (about)</th><td>315360000000000</td>"))
            // The budget in a label stays whole (a line must not end at its exponent's sign).
            #expect(uuid7.body.contains("<th scope=\"row\">within the budget (1<span class=\"nb\">e-11</span>)</th><td>no</td>"))
            #expect(
                uuid7.body.contains(", over the budget of <span class=\"nb\">1e-11</span> (ids collide only within one time bucket).</p>"))
            #expect(uuid7.body.contains(">budget 1e-11 over all buckets</text>"))
            // One of a thing is one: "1 id a month for 1 second", "1 symbol"; no two ids, no "never".
            let one = try await client.get("/?ask=probability&alphabet=hex&length=8&rate=1&per=M&lifetime=1&unit=s&max-probability=0.1")
            #expect(one.body.contains("At <span class=\"nb\">1</span> id a month for <span class=\"nb\">1</span> second,"), "\(one.body)")
            #expect(!one.body.contains("never.") && !one.body.contains("1e+1"), "\(one.body)")
            // The budget line however the budget is written: as odds, or as a power of ten.
            for spelling in ["1+in+10%5E11", "10%5E-11"] {
                let odds = try await client.get(
                    "/?ask=probability&alphabet=base62&length=22&rate=1e6&per=s&lifetime=10&unit=y&max-probability=\(spelling)")
                #expect(odds.body.contains("<line class=\"budget\""), "\(spelling): \(odds.body.suffix(1500))")
            }
            // An argument the form has no field for is named without the CLI's dashes.
            let grown = try await client.get("/?ask=probability&scheme=uuid7&growth=1000000x%2Fy&rate=1&per=s&lifetime=99&unit=y")
            #expect(grown.status == .badRequest && !grown.body.contains("--"), "\(grown.body.suffix(900))")
            let format = try await client.get("/?ask=length&scheme=ksuid&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11")
            #expect(Self.headline(format.body) == "ksuid is within the budget", "\(format.body.suffix(1500))")
            #expect(format.body.contains("<th scope=\"row\">random bits needed</th>"))
            // As you type (the script's header): a half-typed value is shown, not a 400 in the console.
            let half = try await client.execute(uri: "/?ask=length&rate=1e", method: .get, headers: [.preview: "1"], body: nil)
            #expect(half.status == .ok && String(buffer: half.body).contains("class=\"error\""))
            let pasted = "ids=abc123\r\ndef456\r\n"
            let audit = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: .init(string: pasted))
            // The CRLF a browser adds after the last field is not shown again (no empty line a round trip).
            #expect(String(buffer: audit.body).contains(">abc123\ndef456</textarea>"), "\(String(buffer: audit.body).suffix(500))")
            // Shown again as pasted, a control byte too (a reference the browser reads back as the byte,
            // not its escape, which a second audit would read as other ids); the verdict scrolled to.
            let control = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: .init(string: "ids=ab\u{1}c\r\n"))
            let shown = String(buffer: control.body)
            #expect(shown.contains(">ab&#x1;c</textarea>") && shown.contains("#answer\" enctype"), "\(shown.suffix(500))")
            // Bytes that are not UTF-8 can not be shown as they are: the page says so, beside the verdict.
            var notUTF8 = ByteBuffer(string: "ids=ab")
            notUTF8.writeBytes([0xFF, 0xFE])
            notUTF8.writeString("c\r\nplain\r\n")
            let bad = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: notUTF8)
            let badBody = String(buffer: bad.body)
            #expect(
                badBody.contains("bytes that are not UTF-8 are shown as \u{FFFD}; the verdict read them as sent"), "\(badBody.suffix(600))")
            #expect(!String(buffer: audit.body).contains("not UTF-8"))
            // More than the page shows again: it says so (the verdict covers all).
            let many = "ids=" + (0..<20_000).map { String(format: "%016x", UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }.joined(separator: "\r\n")
            let big = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: .init(string: many))
            let bigBody = String(buffer: big.body)
            #expect(bigBody.contains("id=\"ids-note\"") && bigBody.contains("<td>20000</td>"), "\(bigBody.suffix(800))")
            // Errors in the page's words: the form's labels, not the CLI's flags.
            let snow = try await client.get("/?ask=probability&scheme=snowflake&rate=5&per=s&lifetime=3&unit=y")
            #expect(
                snow.status == .badRequest && !snow.body.contains("--nodes") && snow.body.contains("e.g. 50"), "\(snow.body.suffix(900))")
            // A character no number has, in any field: named by that field's label, with no other
            // field's example and no query syntax.
            let nonASCII = try await client.get("/?ask=length&alphabet=base62&rate=1e6&per=s&lifetime=%C3%97&unit=y&max-probability=1e-11")
            let error =
                nonASCII.body.components(separatedBy: "<p class=\"error\" role=\"alert\">").dropFirst().first?
                .components(separatedBy: "</p>").first ?? ""
            #expect(
                nonASCII.status == .badRequest && error.contains("Lifetime") && !error.contains("rate") && !error.contains("--")
                    && !error.contains("="), "\(error)")
            // The calculator is kept across an audit: its fields ride in the audit form's action.
            let asked = try await client.get("/?ask=probability&alphabet=hex&length=12&rate=5&per=min&lifetime=3&unit=d")
            let action = "/audit?ask=probability&alphabet=hex&scheme=&length=12&rate=5&per=min&lifetime=3&unit=d"
            #expect(asked.body.contains("action=\"\(action.replacingOccurrences(of: "&", with: "&amp;"))"), "\(asked.body.suffix(1500))")
            let after = try await client.executeRequest(
                uri: action, method: .post, headers: [.contentType: "text/plain"], body: .init(string: pasted))
            let body = String(buffer: after.body)
            #expect(after.status == .ok)
            #expect(body.contains("id=\"length\" name=\"length\"") && body.contains("value=\"12\""), "\(body.prefix(3000))")
            #expect(body.contains("<option value=\"min\" selected>"), "\(body.prefix(3000))")
        }
    }

    static func headline(_ body: String) -> String? {
        guard let start = body.range(of: "<output id=\"headline\">"), let end = body[start.upperBound...].range(of: "</output>") else {
            return nil
        }
        return String(body[start.upperBound..<end.lowerBound])
    }

    @Test(arguments: [
        ("1 in 5.45e10", "about 1 in 54.5 billion"), ("1 in 1839", "about 1 in 1.84 thousand"), ("1 in 7", "1 in 7"),
        ("1 in 1e+1", "1 in 10"),
        ("1 in 10^40", "1 in 10^40"), ("1 in 3.2e25", "about 1 in 3.20 × 10^25"), ("1 in 6.05e329", "about 1 in 6.05 × 10^329"),
        ("never", "never"), ("1 in 1.00e6", "about 1 in 1.00 million"),
    ])
    func oddsInWordsAreShortScale(_ odds: String, _ words: String) {
        #expect(oddsInWords(odds) == words)
    }

    /// The audit form: pasted ids (`text/plain`, CRLF lines as a browser sends them) judged as
    /// `POST /api/v1/audit` judges them; hostile ids escaped; other encodings and methods refused.
    @Test func theAuditFormJudgesPastedIds() async throws {
        let ids = (0..<3000).map { String(format: "%06x", ($0 &* 2_654_435_761) & 0xFF_FFFF) }
        try await withServer { client in
            let page = try await client.get("/")
            #expect(page.body.contains("<form method=\"post\" action=\"/audit?ask=length&amp;alphabet=base62"))
            #expect(page.body.contains("<label for=\"ids\">"))
            let form = "ids=" + ids.joined(separator: "\r\n") + "\r\n"
            let r = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: .init(string: form))
            #expect(r.status == .ok)
            let html = String(buffer: r.body)
            #expect(html.contains("<h2>Audit: <output id=\"headline\">"), "\(html.prefix(400))")
            #expect(html.contains("<tr><th scope=\"row\">ids</th><td>3000</td></tr>"))
            // Twice the same ids: too many duplicates, said in words.
            let twice = "ids=" + (ids + ids).joined(separator: "\r\n")
            let bad = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: .init(string: twice))
            #expect(String(buffer: bad.body).contains("SUSPICIOUS"))
            // A body without the form's `ids=` is audited whole: its first bytes are ids too.
            let bare = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: .init(string: "abcdefgh\nabcdefgh\n"))
            let bareHTML = String(buffer: bare.body)
            #expect(bareHTML.contains("<tr><th scope=\"row\">ids</th><td>2</td></tr>"), "\(bareHTML.prefix(600))")
            #expect(bareHTML.contains("<tr><th scope=\"row\">distinct</th><td>1</td></tr>"), "\(bareHTML.prefix(2000))")
            // A hostile id is shown escaped, never as markup.
            let hostile = "ids=<script>alert(1)</script>\r\n\u{1b}[31m\r\n"
            let h = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"], body: .init(string: hostile))
            #expect(h.status == .ok && !String(buffer: h.body).contains("<script>alert"))
            // Refused, the page says why as a page (JavaScript off shows what comes back), not JSON.
            let json = try await client.executeRequest(
                uri: "/audit?ask=probability&length=30", method: .post, headers: [.contentType: "application/json"],
                body: .init(string: "{}"))
            let refusedHTML = String(buffer: json.body)
            #expect(json.status == .unsupportedMediaType && json.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(refusedHTML.contains("<h2>Not answered</h2>") && refusedHTML.contains("text/plain"), "\(refusedHTML.suffix(600))")
            // Named by the form's field, not the API's argument (`body`).
            #expect(refusedHTML.contains("role=\"alert\">Ids: ") && !refusedHTML.contains("body: "), "\(refusedHTML.suffix(600))")
            #expect(refusedHTML.contains("value=\"30\" placeholder=\"22\""), "the calculator was not kept")
            // The address an audit leaves in the bar, opened again: the calculator it was asked
            // beside, at the audit form.
            let get = try await client.executeRequest(uri: "/audit?ask=probability&length=30", method: .get, headers: [:], body: nil)
            #expect(get.status == .seeOther && get.headers[.location] == "/?ask=probability&length=30#audit-form")
            let head = try await client.executeRequest(uri: "/audit", method: .head, headers: [:], body: nil)
            #expect(head.status == .seeOther && head.headers[.location] == "/#audit-form")
        }
    }

    @Test func theBarePageAnswersTheSeedQuestionToo() async throws {
        try await withServer { client in
            let r = try await client.get("/")
            #expect(r.status == .ok)
            #expect(r.body.contains("23 symbols of base62"))
        }
    }

    /// A shared link picks up tracking tags on its way; the page still answers (the API refuses them).
    @Test func parametersThePageDoesNotHaveArePassedOver() async throws {
        try await withServer { client in
            let r = try await client.get(Self.seed + "&utm_source=chat&fbclid=IwAR0x%20y&utm_source=again")
            #expect(r.status == .ok)
            #expect(r.body.contains("<output id=\"headline\">23 symbols of base62</output>"))
            let api = try await client.get("/api/v1/length?alphabet=base62&rate=1e6/s&lifetime=10y&max-probability=1e-11&utm_source=chat")
            #expect(api.status == .badRequest && api.body.contains("\"argument\":\"utm_source\""), "\(api.body)")
            // A field it has, given twice, is still refused.
            let twice = try await client.get(Self.seed + "&rate=5")
            #expect(twice.status == .badRequest)
        }
    }

    @Test func probabilityOfAFormatWithItsBuckets() async throws {
        try await withServer { client in
            let r = try await client.get("/?ask=probability&scheme=uuid7&rate=1e6&per=s&lifetime=10&unit=y")
            #expect(r.status == .ok)
            #expect(r.body.contains("<svg"))
            // 1e6/s is 1000 ids in each millisecond's bucket: the point is there, on the bucket's curve.
            #expect(r.body.contains("this question: 1000 ids per time bucket at p ≈ 1e-16.6"))
            let length = try await client.get("/?ask=probability&alphabet=hex&length=32&rate=1000&per=min&lifetime=6&unit=M")
            #expect(length.status == .ok)
            #expect(length.body.contains("p = "))
        }
    }

    /// Growth, nodes and ids already stored: the page's answer is the layer's (the CLI's) for the same options, with
    /// every digit; the compare tables follow them; a bad value is refused naming its option.
    @Test func growthNodesAndStoredIds() async throws {
        let answer = try Question(
            .length,
            [
                "alphabet": "base62", "rate": "1e4/s", "lifetime": "10y", "growth": "2x/y", "nodes": "3", "existing": "1e9",
                "max-probability": "1e-9",
            ]
        ).answer()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.jsonText().utf8)) as? [String: Any])
        let length = try #require(json["length"] as? Int)
        let p = try #require((json["collision"] as? [String: Any])?["probability"] as? String)
        try await withServer { client in
            let r = try await client.get(
                "/?ask=length&alphabet=base62&rate=1e4&per=s&lifetime=10&unit=y&growth=2x%2Fy&nodes=3&existing=1e9&max-probability=1e-9")
            #expect(r.status == .ok)
            #expect(r.body.contains("<output id=\"headline\">\(length) symbols of base62</output>"), "\(length)")
            #expect(r.body.contains(p))
            #expect(r.body.contains("value=\"2x/y\"") && r.body.contains("id=\"compare\""))
            let bad = try await client.get("/?ask=length&growth=fast&max-probability=1e-9")
            #expect(bad.status == .badRequest)
            // The refusal speaks the form's words: the field's label, not the CLI's flag.
            #expect(bad.body.contains("<p class=\"error\" role=\"alert\">Growth: "), "\(bad.body.suffix(600))")
        }
    }

    /// The page less its one script tag, `/app.js`, served by the server itself.
    static func withoutOwnScript(_ body: String) -> String {
        body.replacingOccurrences(of: "<script src=\"/app.js\" defer></script>", with: "")
    }

    @Test func echoedValuesAreEscaped() async throws {
        try await withServer { client in
            let hostile = "<script>alert(1)</script>\"'&"
            let encoded = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            for field in [
                "rate", "lifetime", "max-probability", "length", "alphabet", "scheme", "per", "unit", "growth", "nodes", "existing",
            ] {
                let r = try await client.get("/?ask=probability\(field == "length" ? "" : "&length=4")&\(field)=\(encoded)")
                #expect(r.status == .badRequest, "\(field)")
                #expect(!Self.withoutOwnScript(r.body).contains("<script"), "\(field)")
                #expect(!r.body.contains("\"'&"), "\(field)")
                #expect(r.body.contains("&lt;script&gt;"), "\(field)")
                #expect(r.body.contains("role=\"alert\""))
            }
            let control = try await client.get("/?rate=%1b%5b31m%00")
            #expect(control.status == .badRequest)
            #expect(!control.body.unicodeScalars.contains { $0.value == 0 || $0.value == 0x1B })
        }
    }

    /// An upload the page's audit refuses part way (too large, too slow) or at once (busy) is answered
    /// as the page, with the status and `Retry-After` on a 503, and the connection closed.
    @Test func aRefusedAuditIsAPage() async throws {
        try await withServer(settings: ServerSettings(maxBodyBytes: 1024)) { client in
            let r = try await client.executeRequest(
                uri: "/audit", method: .post, headers: [.contentType: "text/plain"],
                body: .init(string: "ids=" + String(repeating: "abcdefghijklmnop\r\n", count: 200)))
            let html = String(buffer: r.body)
            #expect(r.status == .contentTooLarge && r.headers[.contentType]?.hasPrefix("text/html") == true, "\(r.status)")
            #expect(html.contains("<h2>Not answered</h2>") && !html.hasPrefix("{"), "\(html.prefix(200))")
            #expect(r.headers[.connection] == "close")
            // A calculator field that can not be read (`%zz`, a field given twice) is left at its
            // default; the others are kept.
            for query in ["rate=%zz&lifetime=3&unit=d", "lifetime=3&unit=d&per=h&per=min"] {
                let wrong = try await client.executeRequest(
                    uri: "/audit?\(query)", method: .post, headers: [.contentType: "application/json"], body: .init(string: "{}"))
                let page = String(buffer: wrong.body)
                #expect(wrong.status == .unsupportedMediaType, "\(query)")
                #expect(
                    page.contains("id=\"lifetime\" name=\"lifetime\" value=\"3\"") && page.contains("<option value=\"d\" selected>"),
                    "\(query)")
            }
        }
    }

    /// A field the question needs, sent empty, is named — never silently its default — and stays empty
    /// in the form; a field not sent at all (a link, a first visit) takes its default.
    @Test(arguments: [
        ("ask=length&rate=&per=s&lifetime=10&unit=y&max-probability=1e-11", "Rate: empty"),
        ("ask=length&rate=1e6&per=s&lifetime=%20&unit=y&max-probability=1e-11", "Lifetime: empty"),
        ("ask=length&rate=1e6&per=s&lifetime=10&unit=y&max-probability=", "Maximum collision probability: empty"),
        ("ask=probability&length=&rate=1e6&per=s&lifetime=10&unit=y", "Length: empty"),
        // Every empty field is named, the first first.
        (
            "ask=length&rate=&lifetime=&max-probability=",
            "Rate: empty; give the ids minted per unit of time, e.g. 1,000,000 or 1e6 (empty too: “Lifetime”, “Maximum collision probability”)"
        ),
    ])
    func anEmptyFieldIsNamed(_ query: String, _ said: String) async throws {
        try await withServer { client in
            let r = try await client.get("/?" + query)
            #expect(
                r.status == .badRequest && r.body.contains(said), "\(query): \(Self.headline(r.body) ?? r.body.suffix(400).description)")
        }
    }

    @Test func anAbsentFieldTakesItsDefault() async throws {
        try await withServer { client in
            let r = try await client.get("/?ask=length")
            #expect(r.status == .ok && Self.headline(r.body)?.contains("23 symbols") == true, "\(r.body.suffix(300))")
            let format = try await client.get("/?ask=probability&length=&scheme=uuid4&rate=1e6&per=s&lifetime=10&unit=y")
            #expect(format.status == .ok, "a format needs no length: \(format.body.suffix(300))")
        }
    }

    /// A refusal quotes the value as it was typed (`1 000 zz`), not as the question got it
    /// (`1000zz/s`, closed up, a unit joined that the user never typed).
    @Test func refusalsQuoteWhatWasTyped() async throws {
        try await withServer { client in
            let cases = [
                ("ask=length&rate=1%20000%20zz&per=s&lifetime=10&unit=y&max-probability=1e-11", "&#39;1 000 zz&#39;", "1000zz"),
                ("ask=length&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1%20in%2010%20x", "&#39;1 in 10 x&#39;", "1in10x"),
            ]
            for (query, typed, closed) in cases {
                let r = try await client.get("/?" + query)
                #expect(r.status == .badRequest && r.body.contains(typed) && !r.body.contains(closed), "\(query): \(r.body.suffix(500))")
            }
        }
    }

    /// A budget of 200 digits is drawn with a label that fits the plot (its power of ten).
    @Test func aLongBudgetLabelFitsThePlot() {
        let long = "0." + String(repeating: "0", count: 198) + "1"
        let plot = Plot(
            log10Space: 40, here: (log10Count: 10, log10P: -20), countText: "1e10", budget: (long, -199), countLabel: "ids")
        #expect(plot.budgetLabel == "≈ 1e-199.00")
        #expect(plot.svg.contains("budget ≈ 1e-199.00") && !plot.svg.contains(long))
        let short = Plot(log10Space: 40, here: (10, -20), countText: "1e10", budget: ("1e-11", -11), countLabel: "ids")
        #expect(short.budgetLabel == "1e-11")
    }

    @Test func escaping() {
        #expect(HTML.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func assetsAreLocal() async throws {
        try await withServer { client in
            let css = try await client.get("/style.css")
            #expect(css.status == .ok)
            #expect(css.headers[.contentType] == "text/css; charset=utf-8")
            #expect(!css.body.contains("url("))
            // The script is local (CSP default-src 'self') and fetches only this server's own page.
            let js = try await client.get("/app.js")
            #expect(js.status == .ok)
            #expect(js.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(!js.body.contains("http"))
            let page = try await client.get("/")
            #expect(page.body.contains("<script src=\"/app.js\" defer></script>"))
            #expect(!page.body.contains("value=\"snowflake\""), "a node-id format offered on the page")
            // A length comes with the other alphabets' (plan's rows): base62 23, base64url 22 for the seed question.
            #expect(page.body.contains("<tr><td>base62</td><td>23</td><td>23</td>"))
            #expect(page.body.contains("<tr><td>base64url</td><td>22</td><td>22</td>"))
            // And each format's fit: uuid7 has 74 random bits a millisecond where 94 are needed; KSUID is within.
            #expect(page.body.contains("<tr><td>uuid7</td><td>per millisecond</td><td>74</td><td>94</td>"))
            #expect(page.body.contains("<tr><td>ksuid</td><td>per second</td><td>128</td><td>104</td>"))
        }
    }
}
