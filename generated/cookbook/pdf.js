// AUTO-GENERATED from cookbook/pdf.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/pdf.js   (or: gstack cookbook pdf --url URL)
// gstack cookbook "pdf": PDF of a live page with the browser's print pipeline (for local HTML or Markdown files use `gstack render` / `gstack pdf`).
// Prints: ASIDE_DIR= URL= TITLE= PDF= CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f pdf.js. What a call is given replaces a
// value below: gstack run -f pdf.js --params '{"url":"…"}', or saved as a flow, --param url=….
const PARAMS = Object.assign({
  "url": "http://127.0.0.1:8080/",
  "file": "page.pdf",
  "format": "A4",
  "landscape": false,
  "margin": "10mm",
  "printBackground": true,
  "preferCSSPageSize": false,
  "pageRanges": "",
  "hide": [],
  "css": "",
  "waitFor": {
    "timeoutMs": 10000
  },
  "settleMs": 300
}, params);

// Collects console errors, uncaught errors and failed requests from the first script of every
// document this tab loads. Installed through CDP before goto so it works on Aside and Chromium alike.
const EVIDENCE_HOOK = [
  "(() => {",
  "  if (window.__gstackErrors) return;",
  "  const errors = (window.__gstackErrors = []);",
  "  const failed = (window.__gstackNetErrors = []);",
  "  window.__gstackPending = 0;",
  "  const show = (v) => { try { return v instanceof Error ? String(v) : typeof v === 'object' ? JSON.stringify(v) : String(v); } catch (e) { return String(v); } };",
  "  const original = console.error;",
  "  console.error = function (...args) { errors.push(args.map(show).join(' ')); return original.apply(this, args); };",
  "  addEventListener('error', (e) => errors.push('uncaught: ' + (e.error ? String(e.error) : e.message)));",
  "  addEventListener('unhandledrejection', (e) => errors.push('unhandled rejection: ' + show(e.reason)));",
  "  const abs = (u) => { try { return new URL(String(u), location.href).href; } catch (e) { return String(u); } };",
  "  // An element's failed load (img, script, stylesheet, media) fires a non-bubbling error event.",
  "  // A <link rel=stylesheet> fires error when one of its @imports fails too (a web font's CSS):",
  "  // the sheet itself may have loaded (trial V2), so its entry says both.",
  "  // An <img src=\"\"> (a placeholder an app fills later) makes no request, yet fires error with",
  "  // the document's own URL as its src: no network error (trial V3, Node-RED's editor).",
  "  addEventListener('error', (e) => { const t = e.target; const blank = t && t.getAttribute && t.hasAttribute('src') && !t.getAttribute('src').trim() && !t.getAttribute('srcset'); const url = !blank && t && t !== window && (t.currentSrc || t.src || t.href); if (url) failed.push({ url: abs(url), type: t.tagName.toLowerCase(), error: t.tagName === 'LINK' ? 'load failed (the stylesheet or one of its @imports)' : 'load failed' }); }, true);",
  "  // A request's method when it is not GET (an app's HEAD status check is no failed page load).",
  "  const verb = (m) => { const v = String(m || 'GET').toUpperCase(); return v === 'GET' ? {} : { method: v }; };",
  "  const how = (input, init) => verb((init && init.method) || (input && input.method));",
  "  const fetch0 = window.fetch;",
  "  if (fetch0) window.fetch = function (input, init) {",
  "    const url = abs(input && input.url ? input.url : input);",
  "    window.__gstackPending++;",
  "    return fetch0.call(this, input, init).then(",
  "      (r) => { window.__gstackPending--; if (r.status >= 400) failed.push(Object.assign({ url: r.url || url }, how(input, init), { status: r.status, type: 'fetch' })); return r; },",
  "      (err) => { window.__gstackPending--; failed.push(Object.assign({ url }, how(input, init), { type: 'fetch', error: show(err && err.message || err) })); throw err; });",
  "  };",
  "  const open0 = XMLHttpRequest.prototype.open;",
  "  XMLHttpRequest.prototype.open = function (method, url) {",
  "    const x = this; const target = abs(url);",
  "    x.addEventListener('load', () => { if (x.status >= 400) failed.push(Object.assign({ url: x.responseURL || target }, verb(method), { status: x.status, type: 'xmlhttprequest' })); });",
  "    x.addEventListener('error', () => failed.push(Object.assign({ url: target }, verb(method), { type: 'xmlhttprequest', error: 'network error' })));",
  "    x.addEventListener('timeout', () => failed.push(Object.assign({ url: target }, verb(method), { type: 'xmlhttprequest', error: 'timeout' })));",
  "    return open0.apply(this, arguments);",
  "  };",
  "  const send0 = XMLHttpRequest.prototype.send;",
  "  XMLHttpRequest.prototype.send = function () {",
  "    window.__gstackPending++;",
  "    this.addEventListener('loadend', () => window.__gstackPending--);",
  "    return send0.apply(this, arguments);",
  "  };",
  "})();",
].join("\n");

// PARAMS.waitFor: after load, wait until this text or element is visible (a page that fills
// itself after load would otherwise be read half-built, e.g. "loading…").
// A flow step's own waitFor uses it too (when: "after step N").
async function waitForReady(pg, spec = PARAMS.waitFor, when = "after load") {
  const { text, selector } = spec;
  const timeoutMs = spec.timeoutMs || 10000;
  if (!text && !selector) return;
  const what = text ? "text " + JSON.stringify(text) : "selector " + JSON.stringify(selector);
  const fail = (why) => new Error("waitFor " + what + " was not visible " + timeoutMs + " ms " + when + " (" + why + "). " +
    "Run without that waitFor to see what the page shows, then fix the " + (text ? "text" : "selector") + ", or raise its timeoutMs.");
  if (selector) {
    await pg.waitForSelector(selector, { state: "visible", timeout: timeoutMs }).catch((err) => {
      // Its first sentence: what it waited for and how long (the rest is a locator's advice).
      throw fail(String((err && err.message) || err).split("\n")[0].split(". ")[0]);
    });
    return;
  }
  const wanted = text.toLowerCase();
  const until = Date.now() + timeoutMs;
  for (;;) {
    const shown = await pg.evaluate(() => (document.body ? document.body.innerText : "")).catch(() => "");
    if (shown.toLowerCase().includes(wanted)) return;
    if (Date.now() > until) throw fail("not in the page's visible text");
    await sleep(100);
  }
}

// Our own tab, opened blank so the hook is in place before the page's first script runs.
const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: EVIDENCE_HOOK });
// The document's response, from the browser (the page cannot rewrite it); null on Aside.
const loaded = await pg.goto(PARAMS.url, { waitUntil: "load" });
await waitForReady(pg);
await sleep(PARAMS.settleMs);
console.log("URL=" + pg.url());

// A read: the secret fields' values are cut from what this shape prints below.
await pg.locator("title").allTextContents().catch(() => []);

// Page members verified on Aside only (see the catalog): evaluate rather than pg.title().
console.log("TITLE=" + (await pg.evaluate(() => document.title)));
const file = path.join(pwd, PARAMS.file);
// Parts of the page the print leaves out (a sidebar that would take a column on every page).
if (PARAMS.hide.length || PARAMS.css) {
  const hidden = PARAMS.hide.length ? PARAMS.hide.join(", ") + " { display: none !important; } " : "";
  // A style element through evaluate (addStyleTag is not verified on Aside).
  await pg.evaluate((css) => {
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
  }, "@media print { " + hidden + PARAMS.css + " }");
}
await pg.pdf({
  path: file,
  format: PARAMS.format,
  landscape: PARAMS.landscape,
  margin: { top: PARAMS.margin, right: PARAMS.margin, bottom: PARAMS.margin, left: PARAMS.margin },
  printBackground: PARAMS.printBackground,
  preferCSSPageSize: PARAMS.preferCSSPageSize,
  pageRanges: PARAMS.pageRanges,
});
console.log("PDF=" + file);
// A page with nothing to print still makes a PDF, and the call passes (trial V38: an email
// client's HTML view of a text-only email answered an empty document).
const drawn = await pg.evaluate(() => (document.body ? document.body.innerText.trim().length : 0) + document.querySelectorAll("img, svg, canvas, video, iframe, embed, object").length);
if (!drawn) console.log("[the page has no text and no pictures: the PDF is blank. Check the address (an app's view may answer an empty page), or pass waitFor for what it draws late]");

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
