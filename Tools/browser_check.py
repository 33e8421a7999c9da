#!/usr/bin/env python3
"""The page as a person meets it, in a real browser: Debian's chromium and chromium-driver, headless,
driven by selenium. Against a running idbudget-serve at BASE:

  * with JavaScript: load /, ask the seed article's question (base62, 10^6/s for 10 years, p ≤ 1e-11)
    by typing a budget — the answer updates without a submit — then submit: the headline says 23, the
    SVG plot is there, the address is a permalink that answers 23 when loaded afresh;
  * with JavaScript off: fill the form, submit, the same 23 and the plot;
  * both ways, the audit form on a phone (375 px): paste 200 ids, submit, the verdict counts 200, is on
    the screen (not below the calculator), and the calculator is as it was (with JavaScript, as last
    typed);
  * no console errors (favicon, CSP, script), a screenshot saved to --screenshot;
  * at 375 px (a phone) and 1280 px: the page never scrolls sideways, nothing is cut off but what
    scrolls in its own box, plot labels of 9 px or more, no word-break: break-all; screenshots of the
    seed answer at both widths into --screens (docs/screenshots/ in CI).

    python3 Tools/browser_check.py --base http://127.0.0.1:18080 [--screenshot results/page.png]
Exit 1 on any failure, naming it.
"""
import argparse
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import Select, WebDriverWait


def browser(javascript=True):
    o = Options()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1000,2250"):
        o.add_argument(a)
    if not javascript:
        o.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.set_page_load_timeout(30)
    return d


def headline(d):
    # The page may be replaced between finding the element and reading it (a preview or a navigation
    # landing): read it again rather than fail on a stale element.
    for _ in range(5):
        try:
            return d.find_element(By.ID, "headline").text
        except StaleElementReferenceException:
            time.sleep(0.1)
    return d.find_element(By.ID, "headline").text


def fill_seed_question(d, budget):
    d.find_element(By.CSS_SELECTOR, "input[name=ask][value=length]").click()
    Select(d.find_element(By.ID, "alphabet")).select_by_value("base62")
    for field, value in (("rate", "1e6"), ("lifetime", "10")):
        e = d.find_element(By.ID, field)
        e.clear()
        e.send_keys(value)
    Select(d.find_element(By.ID, "per")).select_by_value("s")
    Select(d.find_element(By.ID, "unit")).select_by_value("y")
    e = d.find_element(By.ID, "max-probability")
    e.clear()
    e.send_keys(budget)


def audit_form(d, base, failures, label, javascript):
    """Paste ids into the audit form and submit: the verdict page counts them, and the calculator above
    it is as it was (with JavaScript, as last typed). On a phone's screen: the verdict must be on it."""
    d.set_window_size(375, 812)
    d.get(base + "/?ask=probability&alphabet=hex&length=12&rate=5&per=min&lifetime=3&unit=d")
    kept = "12"
    if javascript:
        e = d.find_element(By.ID, "length")
        e.clear()
        e.send_keys("13")
        kept = "13"
        try:
            WebDriverWait(d, 15).until(lambda d: "length=13" in d.current_url)
        except Exception:
            failures.append(f"{label}: typing a length did not update the page (at {d.current_url})")
    ids = "\n".join(f"{(i * 2654435761) & 0xFFFFFF:06x}" for i in range(200))
    d.find_element(By.ID, "ids").send_keys(ids)
    d.find_element(By.CSS_SELECTOR, "#audit-form button[type=submit]").click()
    try:
        WebDriverWait(d, 15).until(lambda d: d.find_elements(By.XPATH, "//h2[starts-with(normalize-space(.), 'Audit:')]"))
    except Exception:
        failures.append(f"{label}: the audit form gave no verdict (at {d.current_url})")
        return
    rows = {r.find_element(By.TAG_NAME, "th").text: r.find_element(By.TAG_NAME, "td").text
            for r in d.find_elements(By.CSS_SELECTOR, "#answer table tr")}
    if rows.get("ids") != "200":
        failures.append(f"{label}: the audit counted {rows.get('ids')!r} ids, not 200")
    if not headline(d):
        failures.append(f"{label}: the audit's verdict is empty")
    # The verdict is on screen, not a screen or two below the calculator (the form scrolls to #answer).
    top, height = d.execute_script(
        "return [document.getElementById('answer').getBoundingClientRect().top, window.innerHeight]")
    if not -2 <= top < height:  # scrolled to: its top at the screen's, within a rounding
        failures.append(f"{label}: after the audit the verdict is at {top:.0f} px, off a {height} px screen")
    length = d.find_element(By.ID, "length").get_attribute("value")
    if length != kept or d.find_element(By.ID, "alphabet").get_attribute("value") != "hex":
        failures.append(f"{label}: after the audit the calculator shows length {length!r}, not {kept!r} of hex")


def refused_audit_keeps_ids(d, base, failures):
    """An audit refused before the server read its body (here a form sent as urlencoded, 415) shows
    the page again with the pasted ids put back by the page's script, not an empty box."""
    d.get(base + "/?ask=probability&alphabet=hex&length=12&rate=5&per=min&lifetime=3&unit=d")
    ids = "aaa111\nbbb222\nccc333"
    d.find_element(By.ID, "ids").send_keys(ids)
    d.execute_script("document.getElementById('audit-form').enctype = 'application/x-www-form-urlencoded'")
    d.find_element(By.CSS_SELECTOR, "#audit-form button[type=submit]").click()
    try:
        WebDriverWait(d, 15).until(lambda d: d.find_elements(By.XPATH, "//h2[normalize-space(.)='Not answered']"))
    except Exception:
        failures.append(f"a refused audit gave no refusal page (at {d.current_url})")
        return
    kept = d.find_element(By.ID, "ids").get_attribute("value")
    if kept.replace("\r\n", "\n").strip() != ids:
        failures.append(f"after a refused audit the ids box holds {kept[:60]!r}, not what was pasted")


LAYOUT = """
const w = window.innerWidth, doc = document.documentElement;
const out = {inner: w, scroll: doc.scrollWidth, cut: [], small: [], breakAll: []};
const h = document.getElementById("headline");
if (h) { const r = h.getBoundingClientRect(); if (r.right > w + 1 || r.left < -1) out.cut.push("headline"); }
// Nothing but a box that scrolls on its own may reach past the screen.
for (const e of document.querySelectorAll("main *")) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.right <= w + 1) continue;
  let inside = false;
  for (let p = e; p && p !== doc; p = p.parentElement) {
    const ox = getComputedStyle(p).overflowX;
    if ((ox === "auto" || ox === "scroll") && p.getBoundingClientRect().right <= w + 1) { inside = true; break; }
  }
  if (!inside) out.cut.push(e.tagName + (e.id ? "#" + e.id : ""));
}
for (const t of document.querySelectorAll("svg text")) {
  const px = parseFloat(getComputedStyle(t).fontSize) * (t.ownerSVGElement.getBoundingClientRect().width / t.ownerSVGElement.viewBox.baseVal.width);
  if (px < 9) out.small.push(t.textContent + " " + px.toFixed(1) + "px");
}
// A plot's label drawn past its edges ("you are here" beside a point at the plot's rim).
out.outside = [];
for (const t of document.querySelectorAll("svg text")) {
  const s = t.ownerSVGElement.getBoundingClientRect(), b = t.getBoundingClientRect();
  if (b.left < s.left - 1 || b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1) out.outside.push(t.textContent.slice(0, 30));
}
for (const e of document.querySelectorAll("*")) if (getComputedStyle(e).wordBreak === "break-all") out.breakAll.push(e.tagName);
// A line that ends between two letters or digits of one text node: a word or number broken where it
// was not meant to be (a number's <wbr> between groups of digits splits it into text nodes).
out.midWord = [];
const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const s = n.textContent, r = document.createRange();
  if (s.length < 2 || n.parentElement.closest("svg, select, option, textarea, script, style")) continue;
  let top = null;
  for (let i = 0; i < s.length; i++) {
    r.setStart(n, i); r.setEnd(n, i + 1);
    const rects = r.getClientRects();
    if (!rects.length) continue;
    const t = Math.round(rects[0].top);
    // Or a line that ends at an exponent's sign (`…466e-` | `11`).
    const exponent = /[eE][-+]$/.test(s.slice(Math.max(0, i - 2), i)) && /[0-9]/.test(s[i]);
    if (top !== null && t > top + 2 && ((/[\p{L}\p{N}]/u.test(s[i - 1]) && /[\p{L}\p{N}]/u.test(s[i])) || exponent))
      out.midWord.push(s.slice(Math.max(0, i - 12), i) + "|" + s.slice(i, i + 12));
    top = t;
  }
}
return out;
"""

# The pages a person opens: the seed length (with its comparison tables), a format's probability, an
# error, the audit form, a long number typed.
LAYOUT_PAGES = [
    "/?ask=length&alphabet=base62&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11",
    "/?ask=probability&scheme=uuid7&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-11",
    "/?ask=probability&alphabet=hex&length=32&rate=1000&per=min&lifetime=6&unit=M",
    "/?ask=length&growth=fast&max-probability=1e-9",
    "/?ask=probability&alphabet=decimal&length=300&rate=1e6&per=s&lifetime=10&unit=y",
    # Figures with three-digit exponents (the probability and a budget of 1e-201).
    "/?ask=probability&alphabet=hex&length=300&rate=1e6&per=s&lifetime=10&unit=y&max-probability=1e-201",
    # A long number typed into the form, echoed in the sentence: it wraps between groups of digits.
    "/?ask=length&alphabet=base62&rate=" + "9" * 120 + "&per=s&lifetime=10&unit=y&max-probability=1e-11",
    # The second outside tester's: a budget of 200 digits (in a row's label too), a p whose exponent
    # has 37 digits (uuid7 at 10^300 a second), a rate typed with 99 digit groups.
    "/?ask=probability&alphabet=base62&length=22&rate=1e6&per=s&lifetime=10&unit=y&max-probability=0.0000000000000001"
    + "23456789" * 23,
    "/?ask=probability&scheme=uuid7&rate=1e300&per=s&lifetime=10&unit=y&max-probability=1e-11",
    "/?ask=length&alphabet=base62&rate=1" + "%2C000" * 99 + "&per=s&lifetime=10&unit=y&max-probability=1e-11",
]


def layout(base, failures, width, height, screenshot):
    """At `width` CSS px: no sideways scroll of the page, the headline whole, nothing cut off but what
    scrolls in its own box, plot labels of 9 px or more, no mid-word breaks; a screenshot of the seed
    answer."""
    o = Options()
    o.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars"):
        o.add_argument(a)
    o.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1}})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.set_page_load_timeout(30)
    try:
        for i, path in enumerate(LAYOUT_PAGES):
            d.get(base + path)
            r = d.execute_script(LAYOUT)
            where = f"at {width} px, {path}"
            if r["inner"] != width:
                failures.append(f"{where}: the viewport is {r['inner']} px wide, not {width}")
            if r["scroll"] > r["inner"] + 1:
                failures.append(f"{where}: the page scrolls sideways ({r['scroll']} px wide)")
            if r["cut"]:
                failures.append(f"{where}: cut off at the right edge: {r['cut'][:5]}")
            if r["small"]:
                failures.append(f"{where}: plot labels under 9 px: {r['small'][:3]}")
            if r["outside"]:
                failures.append(f"{where}: plot labels past the plot's edge: {r['outside'][:3]}")
            if r["breakAll"]:
                failures.append(f"{where}: word-break: break-all on {r['breakAll'][:3]}")
            if r["midWord"]:
                failures.append(f"{where}: broken mid-word or mid-number: {r['midWord'][:3]}")
            if i == 0 and screenshot:
                total = d.execute_script("return document.documentElement.scrollHeight")
                d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                  {"width": width, "height": min(total, 6000), "deviceScaleFactor": 1, "mobile": width < 600})
                d.save_screenshot(screenshot)
                d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    finally:
        d.quit()


def check(base, screenshot, screens):
    failures = []
    want = "23 symbols of base62"

    # With JavaScript: typing updates the answer; submitting gives a permalink.
    d = browser(javascript=True)
    try:
        d.get(base + "/")
        fill_seed_question(d, "1e-8")
        try:
            WebDriverWait(d, 10).until(lambda d: headline(d) == "21 symbols of base62")
        except Exception:
            failures.append(f"typing a budget of 1e-8 did not update the answer to 21 (headline {headline(d)!r})")
        fill_seed_question(d, "1e-11")
        d.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(d, 15).until(lambda d: "max-probability=1e-11" in d.current_url)
        try:
            # The submitted page, not the preview before it: wait for its answer rather than a fixed time.
            WebDriverWait(d, 15).until(lambda d: headline(d) == want)
        except Exception:
            pass
        if headline(d) != want:
            failures.append(f"with JavaScript the headline is {headline(d)!r}, not {want!r}")
        if not d.find_elements(By.CSS_SELECTOR, "#answer figure svg"):
            failures.append("with JavaScript no SVG plot in the answer")
        compare = [r.text for r in d.find_elements(By.CSS_SELECTOR, "#compare tr")]
        if not any(row.startswith("base62 23 23") for row in compare):
            failures.append(f"the compare-alphabets table has no base62 23 row: {compare[:3]}")
        permalink = d.current_url
        if screenshot:
            d.save_screenshot(screenshot)
        audit_form(d, base, failures, "with JavaScript", True)
        errors = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
        if errors:
            failures.append(f"console errors: {[e.get('message') for e in errors][:3]}")
        # After the console check: a refused page is a 4xx the console reports.
        refused_audit_keeps_ids(d, base, failures)
    finally:
        d.quit()

    # The permalink, afresh, and the form with JavaScript off.
    d = browser(javascript=False)
    try:
        d.get(permalink)
        if headline(d) != want:
            failures.append(f"the permalink {permalink} answers {headline(d)!r}")
        d.get(base + "/?ask=probability&alphabet=hex&length=8&rate=1&per=s&lifetime=1&unit=d")
        fill_seed_question(d, "1e-11")
        d.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(d, 15).until(lambda d: "max-probability=1e-11" in d.current_url and "ask=length" in d.current_url)
        if headline(d) != want:
            failures.append(f"without JavaScript the headline is {headline(d)!r}, not {want!r}")
        if not d.find_elements(By.CSS_SELECTOR, "#answer figure svg"):
            failures.append("without JavaScript no SVG plot in the answer")
        audit_form(d, base, failures, "without JavaScript", False)
        errors = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
        if errors:
            failures.append(f"console errors without JavaScript: {[e.get('message') for e in errors][:3]}")
    finally:
        d.quit()

    # A phone and a desktop.
    # The most common Android width too (360), without a screenshot.
    for width, height in ((360, 740), (375, 812), (1280, 900)):
        layout(base, failures, width, height, f"{screens}/page-{width}.png" if screens and width != 360 else None)
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--screenshot")
    ap.add_argument("--screens", help="a directory for page-375.png and page-1280.png (the seed answer on a phone, a desktop)")
    a = ap.parse_args()
    failures = check(a.base.rstrip("/"), a.screenshot, a.screens)
    for f in failures:
        print("browser_check: FAIL:", f, file=sys.stderr)
    if failures:
        sys.exit(1)
    print("browser_check: headless Chromium, with and without JavaScript: 23, the plot, the permalink, the audit form, no console errors; at 360, 375 and 1280 px nothing cut off, no sideways scroll, plot labels of 9 px or more")


if __name__ == "__main__":
    main()
