"use strict";
// The audit form's ids, kept in the tab while the form is sent: a refusal before the server read
// them (busy, not a form) shows the page again with them put back, not an empty box.
(() => {
  const audit = document.querySelector("#audit-form");
  const ids = document.querySelector("#ids");
  if (!audit || !ids || !window.sessionStorage) return;
  audit.addEventListener("submit", () => {
    try { sessionStorage.setItem("idbudget-ids", ids.value); } catch (e) { /* too large to keep */ }
  });
  const kept = sessionStorage.getItem("idbudget-ids");
  sessionStorage.removeItem("idbudget-ids");
  if (kept && !ids.value && document.querySelector("#answer .error")) ids.value = kept;
})();
(() => {
  const form = document.querySelector("form");
  if (!form || !window.fetch || !window.DOMParser) return;
  let timer = 0, latest = 0;
  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const query = new URLSearchParams(new FormData(form)).toString();
      const mine = ++latest;
      try {
        const response = await fetch("/?" + query, { headers: { Accept: "text/html", "X-IDBudget-Preview": "1" } });
        const html = await response.text();
        if (mine !== latest) return;
        const next = new DOMParser().parseFromString(html, "text/html").querySelector("#answer");
        const here = document.querySelector("#answer");
        if (next && here) {
          here.replaceWith(next);
          history.replaceState(null, "", "/?" + query);
          // An audit then keeps the calculator as it is now.
          const audit = document.querySelector("#audit-form");
          if (audit) audit.action = "/audit?" + query + "#answer";
        }
      } catch (e) {
        // Offline or refused: the Answer button still sends the form.
      }
    }, 250);
  });
})();
