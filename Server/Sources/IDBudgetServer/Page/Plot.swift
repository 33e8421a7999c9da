import Foundation

/// The birthday curve p(n) ≈ 1 − exp(−n²/2d) for a space of 10^`log10Space`, drawn on log scales as
/// SVG on the server: the curve, the budget line, and the point the question is at. Doubles suffice for
/// a drawing (the page prints the exact digits beside it); logs keep spaces beyond a double's range.
struct Plot {
    let log10Space: Double
    /// The question's count (per group) and its p, both as log10.
    let here: (log10Count: Double, log10P: Double)
    /// The count as the answer prints it.
    let countText: String
    /// The budget as given, and its log10.
    let budget: (text: String, log10: Double)?
    var log10Budget: Double? { budget?.log10 }
    let countLabel: String

    static let width = 720.0
    static let height = 420.0
    static let left = 78.0
    static let right = 24.0
    static let top = 20.0
    static let bottom = 56.0

    /// log10 p at log10 n.
    func log10P(_ x: Double) -> Double {
        let lx = 2 * x - Foundation.log10(2) - log10Space
        if lx < -12 { return lx }
        if lx > 3 { return 0 }
        return Foundation.log10(-expm1(-pow(10, lx)))
    }

    /// log10 n where p reaches `y` (on the part of the curve below 1).
    func log10Count(atP y: Double) -> Double {
        let lx = y < -12 ? y : Foundation.log10(-log1p(-pow(10, y)))
        return (lx + Foundation.log10(2) + log10Space) / 2
    }

    /// The budget as given, when it fits the plot's width at 12 px (about 60 characters beside
    /// "budget"); a longer one (200 digits) as its power of ten, which the figures beside print in full.
    var budgetLabel: String {
        guard let budget else { return "" }
        if budget.text.count <= 40 { return budget.text }
        return "≈ 1e\(String(format: "%.2f", budget.log10))"
    }

    var svg: String {
        // x: from below both the point and the budget's crossing to past where p reaches ½.
        var xs = [here.log10Count, log10Count(atP: Foundation.log10(0.5))]
        if let b = log10Budget { xs.append(log10Count(atP: b)) }
        let xMin = max(0, (xs.min() ?? 0) - 2).rounded(.down)
        let xMax = ((xs.max() ?? 1) + 1).rounded(.up)
        let yMin = min(log10P(xMin), here.log10P, log10Budget ?? 0, -1).rounded(.down) - 1
        let yMax = 0.0
        let w = Self.width - Self.left - Self.right
        let h = Self.height - Self.top - Self.bottom
        func px(_ x: Double) -> Double { Self.left + (x - xMin) / (xMax - xMin) * w }
        func py(_ y: Double) -> Double { Self.top + (yMax - max(yMin, min(yMax, y))) / (yMax - yMin) * h }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }

        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" role="img" \
            aria-labelledby="plot-title plot-desc" class="plot">
            <title id="plot-title">Collision probability against the number of ids, log scales</title>
            <desc id="plot-desc">The curve rises with slope 2 until p nears 1. The dashed line is the budget; the dot is \
            this question: \(HTML.escape(String(countText.prefix(40)))) \(HTML.escape(countLabel)) at p ≈ 1e\(f(here.log10P)).</desc>
            <rect x="\(f(Self.left))" y="\(f(Self.top))" width="\(f(w))" height="\(f(h))" fill="none" stroke="#888"/>

            """
        // Decade ticks, at most 8 a side.
        for (lo, hi, horizontal) in [(xMin, xMax, true), (yMin, yMax, false)] {
            let span = hi - lo
            let step = max(1, (span / 8).rounded(.up))
            var t = (lo / step).rounded(.up) * step
            while t <= hi {
                if horizontal {
                    s += "<line x1=\"\(f(px(t)))\" y1=\"\(f(Self.top))\" x2=\"\(f(px(t)))\" y2=\"\(f(Self.top + h))\" stroke=\"#ddd\"/>"
                    s +=
                        "<text x=\"\(f(px(t)))\" y=\"\(f(Self.top + h + 18))\" text-anchor=\"middle\" font-size=\"12\">1e\(Int(t))</text>\n"
                } else {
                    s += "<line x1=\"\(f(Self.left))\" y1=\"\(f(py(t)))\" x2=\"\(f(Self.left + w))\" y2=\"\(f(py(t)))\" stroke=\"#ddd\"/>"
                    s += "<text x=\"\(f(Self.left - 6))\" y=\"\(f(py(t) + 4))\" text-anchor=\"end\" font-size=\"12\">1e\(Int(t))</text>\n"
                }
                t += step
            }
        }
        s += "<text x=\"\(f(Self.left + w / 2))\" y=\"\(f(Self.height - 10))\" text-anchor=\"middle\" font-size=\"13\">"
        s += "\(HTML.escape(countLabel))</text>\n"
        s += "<text x=\"16\" y=\"\(f(Self.top + h / 2))\" text-anchor=\"middle\" font-size=\"13\" "
        s += "transform=\"rotate(-90 16 \(f(Self.top + h / 2)))\">collision probability p</text>\n"
        // The curve.
        let points = (0...240).map { i -> String in
            let x = xMin + (xMax - xMin) * Double(i) / 240
            return "\(f(px(x))),\(f(py(log10P(x))))"
        }
        s += "<polyline class=\"curve\" fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
        if let b = log10Budget, b >= yMin {
            s += "<line class=\"budget\" x1=\"\(f(Self.left))\" y1=\"\(f(py(b)))\" x2=\"\(f(Self.left + w))\" y2=\"\(f(py(b)))\" "
            s += "stroke=\"#b00020\" stroke-dasharray=\"6 4\"/>"
            s +=
                "<text x=\"\(f(Self.left + 6))\" y=\"\(f(py(b) - 6))\" font-size=\"12\" fill=\"#b00020\">budget \(HTML.escape(budgetLabel))</text>\n"
        }
        let hx = px(min(xMax, max(xMin, here.log10Count)))
        // A p below the plot's floor (or a point off its scale) is drawn at the edge, its label inside.
        let hy = py(min(0, max(yMin, here.log10P)))
        s += "<circle class=\"here\" cx=\"\(f(hx))\" cy=\"\(f(hy))\" r=\"6\" fill=\"#e07000\" stroke=\"#000\"/>"
        let anchor = hx > Self.left + w * 0.7 ? "end" : "start"
        let dx = anchor == "end" ? -10.0 : 10.0
        s +=
            "<text x=\"\(f(hx + dx))\" y=\"\(f(max(Self.top + 12, hy - 10)))\" text-anchor=\"\(anchor)\" font-size=\"13\" font-weight=\"bold\">you are here</text>\n"
        s += "</svg>"
        return s
    }
}
