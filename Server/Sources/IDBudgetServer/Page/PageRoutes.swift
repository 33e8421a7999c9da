import Foundation
import HTTPTypes
import Hummingbird
import IDBudget
import IDQuestions
import NIOCore
import NIOHTTP1

/// `/`: the calculator. A plain form sent with GET, so every answer is a permalink and it works with
/// JavaScript off; the answer with every digit, and the curve drawn as SVG here on the server.
struct PageRoutes {
    let compute: Compute
    let settings: ServerSettings

    func add(to router: Router<BasicRequestContext>) {
        router.get("/") { request, _ in try await page(request) }
        router.post("audit") { request, _ in try await audit(request) }
        // The address an audit leaves in the bar (`/audit?…#answer`), copied and shared or opened
        // again, is a GET: the calculator it was asked beside, at the audit form, not a 405.
        router.get("audit") { request, _ in
            let query = request.uri.query.map { "?\($0)" } ?? ""
            return Response(status: .seeOther, headers: [.location: "/\(query)#audit-form", .cacheControl: "no-store"])
        }
        router.get("style.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.style_css)))
        }
        router.get("app.js") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.app_js)))
        }
        for path in ["favicon.svg", "favicon.ico"] {
            router.get(RouterPath(path)) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "public, max-age=86400"],
                    body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.favicon_svg)))
            }
        }
    }

    /// The page's audit form: pasted ids, sent as `text/plain` (`ids=` and the text, lines as they
    /// are; a body without `ids=` is taken whole), audited as `POST /api/v1/audit` audits them; the
    /// verdict under the calculator.
    func audit(_ request: Request) async throws -> Response {
        // The pasted ids are shown again beside their verdict (up to 256 KiB of them), or beside a
        // refusal as far as they were read; refused busy before the body, its first 256 KiB are
        // read to show them (without JavaScript nothing else would put them back).
        let echo = Echo(limit: 256 << 10)
        do {
            return try await audited(request, echo: echo)
        } catch let refusal as Refusal {
            // Not when the client waits for a `100 Continue` it was not sent: its body never comes.
            let waiting = request.headers[HTTPField.Name(HTTP1Semantics.continueWithheld)!] != nil
            if refusal.status == .serviceUnavailable, echo.bytes.isEmpty, !waiting { await Self.keep(request.body, in: echo) }
            let (pasted, note) = echo.pasted(judged: false)
            return Self.refused(request, refusal, pasted: pasted, pastedNote: note)
        } catch let parse as HTTPParserError {
            // The body's framing broke part way (a bad chunk): the page too, with the ids read so far.
            let (pasted, note) = echo.pasted(judged: false)
            let refusal = Refusal(.badRequest, argument: "request", ParseErrorHandler.message(parse))
            return Self.refused(request, refusal, pasted: pasted, pastedNote: note)
        }
    }

    /// The first bytes of a body not audited (every audit slot taken), after the form's `ids=`, kept
    /// to show them again: up to the echo's limit (the connection closes after the answer, the rest
    /// unread). A trickle is not waited for past the pace every body must keep (``HTTP1Semantics``
    /// closes its connection at the grace period's end).
    static func keep(_ body: RequestBody, in echo: Echo) async {
        var head: [UInt8] = []
        do {
            for try await buffer in body {
                head += buffer.readableBytesView
                if head.count > echo.limit + 4 { break }
            }
        } catch {}
        let skip = head.starts(with: Array("ids=".utf8)) ? 4 : 0
        head[skip...].withUnsafeBytes { echo.keep($0) }
    }

    /// The page's audit refused (busy, too slow, too large, not a form, compressed): the page says so
    /// in its own words, the calculator as it was — never the API's JSON in place of the page when
    /// JavaScript is off. The body is not read (whole), so the connection carries nothing more.
    static func refused(_ request: Request, _ refusal: Refusal, pasted: String = "", pastedNote: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .connection: "close"]
        if refusal.status == .serviceUnavailable { headers[.retryAfter] = "1" }
        let page = Page.render(form: Self.calculator(request), result: .refusal(refusal), pasted: pasted, pastedNote: pastedNote)
        return Response(status: refusal.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The calculator as it was when the audit was sent (its fields ride in the form's action), read
    /// field by field: one that can not be read (`%zz`, a second `per`) is left at its default, the
    /// others kept — the audit is refused or answered, the calculator is not.
    static func calculator(_ request: Request) -> Page.Form {
        if let whole = try? Query.arguments(request.uri.query, allowed: Page.Form.names, ignoringUnknown: true),
            let form = try? Page.Form(whole)
        {
            return form
        }
        var named = Arguments()
        for pair in (request.uri.query ?? "").split(separator: "&") {
            guard let one = try? Query.arguments(String(pair), allowed: Page.Form.names, ignoringUnknown: true) else { continue }
            for (name, value) in one.values where named[name] == nil && (try? Page.Form(Arguments([name: value]))) != nil {
                named[name] = value
            }
        }
        return (try? Page.Form(named)) ?? Page.Form()
    }

    private func audited(_ request: Request, echo: Echo) async throws -> Response {
        // Its type was checked with its head (BodyRules: text/plain only).
        let report = try await compute.auditing {
            try await APIRoutes.audit(
                request, settings: AuditSettings(), limits: settings, compute: compute, skipping: Array("ids=".utf8), echo: echo)
        }
        let form = Self.calculator(request)
        let (pasted, shownNote) = echo.pasted(judged: true)
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(
                byteBuffer: ByteBuffer(string: Page.render(form: form, result: .audit(report), pasted: pasted, pastedNote: shownNote))))
    }

    func page(_ request: Request) async throws -> Response {
        var form = Page.Form()
        var status = HTTPResponse.Status.ok
        var result: Page.Result?
        do throws(Refusal) {
            let query = try Query.arguments(request.uri.query, allowed: Page.Form.names, ignoringUnknown: true)
            form = try Page.Form(query)
            let asked = form
            let budget = form.maxProbability.isEmpty ? nil : form.maxProbability
            // The question is read on the computation's thread too (see APIRoutes).
            let answer = try await compute.run(
                heavy: query.isHeavy || asked.arguments.isHeavy, estimate: asked.estimatedSeconds
            ) { () throws(Refusal) -> Page.Answered in
                let question = try asked.question()
                var answered = try Page.Answered(
                    refusing { () throws(ArgumentError) in try question.answer() }, budget: budget, workload: asked.workloadText)
                // A length asked for a format: the format's own fit, headline first.
                if asked.ask == "length", !asked.scheme.isEmpty, let budget, let plan = asked.plan(budget: budget, existing: false),
                    let fit = plan.formats?.first(where: { $0.scheme == asked.scheme })
                {
                    answered.headline = "\(fit.scheme) is \(fit.withinBudget ? "within" : "over") the budget"
                    answered.rows.insert(contentsOf: [("random bits", "\(fit.bits)"), ("random bits needed", "\(fit.bitsNeeded)")], at: 2)
                    answered.formats = plan.formats ?? []
                    return answered
                }
                // A length comes with the other alphabets' lengths and the formats' fit for the same
                // question (`plan`).
                if case .length = question, let budget, let plan = asked.plan(budget: budget, existing: true) {
                    answered.compare = plan.rows
                    answered.formats = plan.formats ?? []
                }
                return answered
            }
            result = .answer(answer)
        } catch {
            status = error.status
            result = .refusal(error)
        }
        // The page's own script asks as you type: a half-typed value is an answer of its kind there
        // (the refusal shown in the page), not an error for the browser's console.
        if request.headers[.preview] != nil && status.code < 500 { status = .ok }
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        if status == .serviceUnavailable { headers[.retryAfter] = "1" }
        return Response(
            status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: Page.render(form: form, result: result))))
    }
}

extension HTTPField.Name {
    /// Sent by the page's script when it asks as you type.
    static let preview = Self("X-IDBudget-Preview")!
}
