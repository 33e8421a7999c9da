import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import IDBudgetServer

/// The page: a GET form whose answer is a permalink, the answer with every digit, the SVG plot, and
/// every echoed value escaped.
@Suite struct PageTests {
    static let seed = "/?ask=length&alphabet=base62&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11"

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

    @Test func theBarePageAnswersTheSeedQuestionToo() async throws {
        try await withServer { client in
            let r = try await client.get("/")
            #expect(r.status == .ok)
            #expect(r.body.contains("23 symbols of base62"))
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

    /// The page less its one script tag, `/app.js`, served by the server itself.
    static func withoutOwnScript(_ body: String) -> String {
        body.replacingOccurrences(of: "<script src=\"/app.js\" defer></script>", with: "")
    }

    @Test func echoedValuesAreEscaped() async throws {
        try await withServer { client in
            let hostile = "<script>alert(1)</script>\"'&"
            let encoded = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            for field in ["rate", "lifetime", "max-probability", "length", "alphabet", "scheme", "per", "unit"] {
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
        }
    }
}
