// Script fragments every shape shares. They are plain flow-script text (catalog globals and
// Page methods only), pasted into each shape's body so every generated script stays
// self-contained: an agent can copy one file and run it.
//
// Everything a shape learns about a page it learns in the page (an init script, resource
// timing), never from Playwright page events (`pg.on`): Aside has no page events that last
// through a call, and a shape must read the same on both engines.
import { SENTINEL } from '../driver/catalog.gen.js';

/**
 * The evidence hook: a CDP init script installed before `goto`, so it sees the page from its
 * first script on, in every document the tab loads. It collects console errors and uncaught
 * exceptions (`window.__gstackErrors`) and requests that failed without a status resource
 * timing can show (`window.__gstackNetErrors`): fetch and XHR network errors, 4xx/5xx answers
 * to fetch and XHR, and elements (img, script, link, media) whose load failed.
 * `Page.addScriptToEvaluateOnNewDocument` works on both engines. It also counts the fetch and
 * XHR requests under way (`window.__gstackPending`), so a flow step can wait for the network
 * to go quiet before its after-snapshot.
 *
 * HOOK_LINES is its page-side source line by line (EVIDENCE_HOOK prints it as an array, so a
 * generated script reads it). The runner's Aside wrapper (driver/runtime/evidence.ts) installs the
 * same source; the hook installs once per document, so a cookbook script under the wrapper
 * keeps one set of lists.
 */
const HOOK_LINES: string[] = [
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
];

export const EVIDENCE_HOOK_SOURCE = HOOK_LINES.join('\n');

export const EVIDENCE_HOOK = `// Collects console errors, uncaught errors and failed requests from the first script of every
// document this tab loads. Installed through CDP before goto so it works on Aside and Chromium alike.
const EVIDENCE_HOOK = [
${HOOK_LINES.map((l) => '  ' + JSON.stringify(l) + ',').join('\n')}
].join("\\n");`;

/** Waits for PARAMS.waitFor after load: pages that fill themselves late are read when ready.
 * Text is looked for in the page's visible text (`document.body.innerText`) with
 * `pg.evaluate`, and a selector with `pg.waitForSelector`: both verified on Aside. */
export const WAIT_FOR_READY = String.raw`// PARAMS.waitFor: after load, wait until this text or element is visible (a page that fills
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
}`;

/** A read (of the title, small and never waiting): the call learns the page's secret field
 * values, so a copy the page put in a link, a console error, a failed request or a dialog is
 * cut from what the shape prints after it. For the shapes that take no snapshot and fill
 * nothing (`form` prints the option it was asked for, which a secret select's options would
 * then cut). A shape that read nothing printed such copies in
 * the clear (`links`, `responsive`; red-team pass 24, A24). A page whose replaced DOM
 * built-ins break the read (Playwright reads in the page's world) does not stop the shape. */
export const LEARN_SECRET_FIELDS = String.raw`// A read: the secret fields' values are cut from what this shape prints below.
await pg.locator("title").allTextContents().catch(() => []);`;

/** Opens our own tab, names the artifact dir, installs the hook, loads PARAMS.url, waits. */
export const OPEN_AND_LOAD = String.raw`// Our own tab, opened blank so the hook is in place before the page's first script runs.
const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: EVIDENCE_HOOK });
// The document's response, from the browser (the page cannot rewrite it); null on Aside.
const loaded = await pg.goto(PARAMS.url, { waitUntil: "load" });
await waitForReady(pg);
await sleep(PARAMS.settleMs);
console.log("URL=" + pg.url());`;

export const PRINT_CONSOLE_ERRORS = String.raw`console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));`;

/**
 * NETWORK_ERRORS= of the page's own loads: every resource timing entry (the document
 * included) whose `responseStatus` is 4xx/5xx, then what the hook saw that timing cannot say
 * (network errors, failed element loads), one entry per URL. In-page on both engines; the
 * browser's own favicon request is not the page's and is left out.
 */
export const PRINT_NETWORK_ERRORS = String.raw`// Failed requests and 4xx/5xx responses of the page's own loads, from resource timing and the hook.
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
console.log("NETWORK_ERRORS=" + JSON.stringify(networkErrors));`;

export const CLOSE_AND_FINISH = String.raw`await closeTab(pg);
console.log(${JSON.stringify(SENTINEL)});`;

/**
 * A target is local when it is this machine (or a name reserved for local testing): only there
 * may a shape fetch or act freely. Loopback addresses, 0.0.0.0, `*.localhost` and `*.test`
 * (RFC 6761 reserves both for local use); never `*.local`, which is mDNS: other machines on
 * the LAN.
 */
export const IS_LOCAL_HOST = String.raw`// Local means this machine; a non-local site gets looked at, not acted on or crawled.
// The host is read from the address the browser loaded (pg.url()), never from the page's own scripts.
function hostOf(u) {
  return (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@\/?#]*@)?(\[[^\]\/?#]*\]|[^:\/?#]*)/i.exec(u) || [])[1] || "";
}
function isLocalUrl(u) {
  const h = hostOf(u);
  return /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0)$/i.test(h) || /\.(localhost|test)$/i.test(h);
}
const host = hostOf(pg.url());
const isLocal = isLocalUrl(pg.url());`;

/** The settle parameter every page-loading shape has. */
export const SETTLE_PARAM = {
  type: 'integer' as const,
  minimum: 0,
  maximum: 30000,
  default: 300,
  description: 'Milliseconds to wait after load (and after `waitFor`), so errors thrown by deferred scripts are counted.',
};

/** The readiness parameter every page-loading shape has, next to settleMs. */
export const WAIT_FOR_PARAM = {
  type: 'object' as const,
  additionalProperties: false,
  default: {},
  properties: {
    text: { type: 'string' as const, minLength: 1, description: 'Text that shows the page is ready (a case-insensitive substring), e.g. `3 results`.' },
    selector: { type: 'string' as const, minLength: 1, description: 'CSS or Playwright selector of an element that shows the page is ready, e.g. `#results li`.' },
    timeoutMs: { type: 'integer' as const, minimum: 100, maximum: 120000, default: 10000, description: 'How long to wait before failing.' },
  },
  // One of text or selector, not both (the properties are named again for ajv's strict mode).
  not: { required: ['text', 'selector'], properties: { text: {}, selector: {} } },
  description:
    'Wait after load until this is visible: `{"text": "3 results"}` or `{"selector": "#results li"}` (one of them; `timeoutMs` defaults to 10000). For pages that fill themselves after load; without it the shape reads the page `settleMs` after the load event.',
};

/** A flow step's waitFor: WAIT_FOR_PARAM's shape, without defaults (a step that has none does
 * not wait), said for a step. */
export const STEP_WAIT_FOR_PARAM = {
  type: 'object' as const,
  additionalProperties: false,
  properties: {
    text: WAIT_FOR_PARAM.properties.text,
    selector: WAIT_FOR_PARAM.properties.selector,
    timeoutMs: { type: 'integer' as const, minimum: 100, maximum: 120000, description: 'How long to wait before failing (10000 when left out).' },
  },
  not: WAIT_FOR_PARAM.not,
  description:
    'After this step, wait until this is visible before the diff: `{"text": "Server response"}` or `{"selector": "#result"}`. For actions whose result arrives later (a request sent in the background, an animation); without it the diff is taken when the page has settled (`settleMs`, then no request under way and a quiet DOM, 3 s at most).',
};

export const URL_PARAM = {
  type: 'string' as const,
  pattern: '^https?://',
  description: 'The page to open (an http or https URL).',
};

/** Joins script parts with blank lines between them. */
export function script(...parts: string[]): string {
  return parts.map((p) => p.trim()).join('\n\n') + '\n';
}
