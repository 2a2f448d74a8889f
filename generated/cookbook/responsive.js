// AUTO-GENERATED from cookbook/responsive.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/responsive.js   (or: gstack cookbook responsive --url URL)
// gstack cookbook "responsive": Responsive check: full-page screenshots at mobile 375, tablet 768 and desktop 1440, with horizontal-overflow detection.
// Prints: ASIDE_DIR= VIEWPORT= SCREENSHOT= URL= CONSOLE_ERRORS= NETWORK_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f responsive.js. What a call is given replaces a
// value below: gstack run -f responsive.js --params '{"url":"…"}', or saved as a flow, --param url=….
const PARAMS = Object.assign({
  "url": "http://127.0.0.1:8080/",
  "viewports": [
    {
      "name": "mobile",
      "width": 375,
      "height": 812
    },
    {
      "name": "tablet",
      "width": 768,
      "height": 1024
    },
    {
      "name": "desktop",
      "width": 1440,
      "height": 900
    }
  ],
  "fullPage": true,
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

const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: EVIDENCE_HOOK });
const consoleErrors = [];

// The screenshot through CDP too: pg.screenshot sizes the capture by the page's own viewport
// (Playwright's 1280x720 on Chromium), not by the CDP override, so it would show a phone layout
// cut or stretched to the desktop size. Full page: the document's size, captured beyond the view.
async function captureAtViewport(pg, file, vp) {
  const params = { format: "png" };
  if (PARAMS.fullPage) {
    const metrics = await pg._sendToTarget("Page.getLayoutMetrics", {});
    const size = metrics.cssContentSize || metrics.contentSize;
    // As wide as the page when it overflows the viewport: the part that sticks out is the finding.
    params.clip = { x: 0, y: 0, width: Math.max(vp.width, Math.ceil(size.width)), height: Math.max(vp.height, Math.ceil(size.height)), scale: 1 };
    params.captureBeyondViewport = true;
  }
  const { data } = await pg._sendToTarget("Page.captureScreenshot", params);
  await fs.writeFile(file, Buffer.from(data, "base64"));
}

for (const vp of PARAMS.viewports) {
  // Sized through CDP, which both engines have (Aside has no pg.setViewportSize).
  await pg._sendToTarget("Emulation.setDeviceMetricsOverride", { width: vp.width, height: vp.height, deviceScaleFactor: 1, mobile: false });
  await pg.goto(PARAMS.url, { waitUntil: "load" });
  // Named by its viewport: a layout may show the text at one width only (trial V26).
  await waitForReady(pg, PARAMS.waitFor, "after load at " + vp.name + " (" + vp.width + "x" + vp.height + ")");
  await sleep(PARAMS.settleMs);
  // A read: the secret fields' values are cut from what this shape prints below.
  await pg.locator("title").allTextContents().catch(() => []);
  const scrollWidth = await pg.evaluate(() => document.documentElement.scrollWidth);
  console.log("VIEWPORT=" + JSON.stringify({ name: vp.name, width: vp.width, height: vp.height, scrollWidth, overflowX: scrollWidth > vp.width }));
  const shot = path.join(pwd, "responsive-" + vp.name + "-" + vp.width + ".png");
  await captureAtViewport(pg, shot, vp);
  console.log("SCREENSHOT=" + shot);
  for (const e of await pg.evaluate("window.__gstackErrors || []")) consoleErrors.push("[" + vp.name + "] " + e);
}

console.log("URL=" + pg.url());
console.log("CONSOLE_ERRORS=" + JSON.stringify(consoleErrors));

// Failed requests and 4xx/5xx responses of the page's own loads, from resource timing and the hook.
const networkErrors = await pg.evaluate(() => {
  const out = [];
  const seen = new Set();
  // The browser's own icon request is left out: some browsers make it, others (headless) do not.
  const links = /** @type {NodeListOf<HTMLLinkElement>} */ (document.querySelectorAll("link[rel~=icon]"));
  const icons = new Set([location.origin + "/favicon.ico"].concat(Array.from(links, (l) => l.href)));
  const timing = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource")));
  for (const t of timing) {
    if (t.initiatorType === "other" && icons.has(t.name)) continue;
    if (t.responseStatus >= 400 && !seen.has(t.name)) {
      seen.add(t.name);
      out.push({ url: t.name, status: t.responseStatus, type: t.initiatorType || t.entryType });
    }
  }
  for (const e of /** @type {any} */ (window).__gstackNetErrors || []) {
    if (!seen.has(e.url)) {
      seen.add(e.url);
      out.push(e);
    } else if (e.method) {
      // The timing entry knows no method: a HEAD or POST that failed says so.
      const i = out.findIndex((o) => o.url === e.url);
      if (i >= 0 && !out[i].method) out[i] = Object.assign({ url: out[i].url, method: e.method }, out[i]);
    }
  }
  return out.length > 50 ? out.slice(0, 50).concat([{ more: out.length - 50 }]) : out;
});
console.log("NETWORK_ERRORS=" + JSON.stringify(networkErrors));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
