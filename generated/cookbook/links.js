// AUTO-GENERATED from cookbook/links.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/links.js   (or: gstack cookbook links --url URL)
// gstack cookbook "links": Link check: same-origin links, HEAD-checked on a local target (`LINK <status> <url>`), listed unfetched elsewhere (`LINK ? <url>`).
// Prints: ASIDE_DIR= URL= LINK CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f links.js. What a call is given replaces a
// value below: gstack run -f links.js --params '{"url":"…"}', or saved as a flow, --param url=….
const PARAMS = Object.assign({
  "url": "http://127.0.0.1:8080/",
  "maxLinks": 100,
  "signedIn": false,
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

// Local means this machine; a non-local site gets looked at, not acted on or crawled.
// The host is read from the address the browser loaded (pg.url()), never from the page's own scripts.
function hostOf(u) {
  return (/^[a-z][a-z0-9+.-]*:\/\/(?:[^@\/?#]*@)?(\[[^\]\/?#]*\]|[^:\/?#]*)/i.exec(u) || [])[1] || "";
}
function isLocalUrl(u) {
  const h = hostOf(u);
  return /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0)$/i.test(h) || /\.(localhost|test)$/i.test(h);
}
const host = hostOf(pg.url());
const isLocal = isLocalUrl(pg.url());

// Same-origin links only. The page hands over its raw href attributes and link texts as plain
// data, and everything is decided here, outside the page: a page can replace any built-in its
// own scripts see (Array.from, URL, location's helpers), so nothing it computes is trusted, not
// an origin and not a resolved URL. The sandbox has no URL class, so links are resolved by the
// small, strict reader below; whatever it cannot read plainly is never requested.
const rawLinks = await pg.evaluate(() => {
  const out = [];
  // The link's words as a person meets them: its text, aria-label, title and its images' alt.
  document.querySelectorAll("a[href], area[href]").forEach((a) => {
    let words = "";
    try {
      words = [a.textContent, a.getAttribute("aria-label"), a.getAttribute("title"), a.getAttribute("alt"), ...Array.from(a.querySelectorAll("img[alt], [aria-label], [title]"), (i) => i.getAttribute("alt") || i.getAttribute("aria-label") || i.getAttribute("title"))].filter(Boolean).join(" ");
    } catch (e) {}
    out.push([a.getAttribute("href"), words]);
  });
  return out;
});

// scheme://host[:port] of an absolute http(s) URL, with the rest (path, query) apart. A host
// with anything but letters, digits, dots and dashes (user@host, %-escapes) or a bracketed
// IPv6 address is not read, so it is never taken for the page's own origin.
function originOf(u) {
  const m = /^(https?):\/\/([^\/?#]*)([^#]*)/i.exec(u);
  const auth = m && /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(m[2]);
  if (!auth) return null;
  const scheme = m[1].toLowerCase();
  const port = auth[2] === undefined ? "" : String(Number(auth[2]));
  const origin = scheme + "://" + auth[1].toLowerCase() + (port === "" || port === (scheme === "http" ? "80" : "443") ? "" : ":" + port);
  const rest = m[3] === "" ? "/" : m[3].startsWith("?") ? "/" + m[3] : m[3];
  return { scheme, origin, rest, path: rest.split("?")[0] };
}
// An href as an absolute URL against the page's address, read as a browser reads it (spaces
// and controls around it dropped, tabs and newlines inside dropped, a backslash before the
// query is a slash), or null: another scheme (mailto:, javascript:) or a form it does not read.
function resolveLink(href, base) {
  // By char codes, not escapes in a regex: --print passes the script through the terminal
  // filter, which would turn a written-out control (NUL, CR) into U+FFFD and break the script.
  let h = String(href);
  while (h && h.charCodeAt(0) <= 32) h = h.slice(1);
  while (h && h.charCodeAt(h.length - 1) <= 32) h = h.slice(0, -1);
  h = Array.from(h).filter((c) => c !== "\t" && c !== "\n" && c.charCodeAt(0) !== 13).join("").split("#")[0];
  const q = h.indexOf("?");
  h = q < 0 ? h.replace(/\\/g, "/") : h.slice(0, q).replace(/\\/g, "/") + h.slice(q);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(h);
  if (scheme) {
    const abs = /^https?:\/\//i.test(h) && originOf(h);
    return abs ? abs.origin + abs.rest : null;
  }
  if (h.startsWith("//")) {
    const abs = originOf(base.scheme + ":" + h);
    return abs ? abs.origin + abs.rest : null;
  }
  if (h.startsWith("/")) return base.origin + h;
  if (h === "") return base.origin + base.rest;
  if (h.startsWith("?")) return base.origin + base.path + h;
  return base.origin + base.path.replace(/[^\/]*$/, "") + h;
}
// %-escapes decoded (again, while any are left) before the rule is matched: a server reads
// /%64elete as /delete, and /d%C3%A9connexion as /déconnexion: each run of escapes is UTF-8
// (one byte per letter read /dÃ©connexion, and no listed word of another language matched;
// pass 35, B35). A byte that starts no UTF-8 letter is read alone, so a stray %FF in a run
// cannot hide the letters after it.
function decodedRun(run) {
  const bytes = run.match(/%[0-9a-f]{2}/gi) || [];
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    let n = 4;
    for (; n > 0; n--) {
      if (i + n > bytes.length) continue;
      try {
        out += decodeURIComponent(bytes.slice(i, i + n).join(""));
        break;
      } catch (e) {
        // not a whole UTF-8 letter of n bytes
      }
    }
    if (n === 0) {
      out += String.fromCharCode(parseInt(bytes[i].slice(1), 16));
      n = 1;
    }
    i += n;
  }
  return out;
}
function decoded(s) {
  for (let i = 0; i < 5 && /%[0-9a-f]{2}/i.test(s); i++) s = s.replace(/(?:%[0-9a-f]{2})+/gi, decodedRun);
  return s.replace(/\+/g, " ");
}

const page = originOf(pg.url());
if (!page) throw new Error("links: the page's address " + pg.url() + " is not a plain http(s) URL; give the shape an http:// or https:// URL.");
const unique = [];
for (const entry of Array.isArray(rawLinks) ? rawLinks.slice(0, 10000) : []) {
  if (!Array.isArray(entry) || typeof entry[0] !== "string" || entry[0].length > 4096) continue;
  const url = resolveLink(entry[0], page);
  // Same origin: scheme, host and port equal to the page's, as read here.
  if (url === null || originOf(url)?.origin !== page.origin || unique.some((u) => u.url === url)) continue;
  unique.push({ url, text: typeof entry[1] === "string" ? entry[1].trim().slice(0, 400) : "" });
}

// Requesting one of these could sign the user out or change data: never follow them. Matched
// on the URL (after %-decoding) and the link's words, each folded first (compatibility forms to
// plain letters, characters that show nothing, such as a soft hyphen, dropped), in English and
// the sign-out words of other languages.
const UNSAFE = /(log|sign)[\s_+.-]?(out|off)|delete|remove|cancel|unsubscribe|destroy|deactivat|revoke|terminate|erase|wipe|abmelden|ausloggen|d[ée]connexion|d[ée]connecter|cerrar sesi[óo]n|desconectar|sair|esci|disconnetti|uitloggen|afmelden|wyloguj|выйти|выход|ログアウト|サインアウト|退出|登出|注销|로그아웃/i;
// White space folded too: "Sign\n   out" in the markup reads "Sign out".
const folded = (s) => String(s).normalize("NFKC").replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu, "").replace(/\s+/g, " ");
// Each check is a fetch from an isolated world of the page (CDP): the page's cookies apply (same
// origin), its scripts cannot reach that world's built-ins, and redirect: "manual" stops at a
// redirect without requesting where it leads (a same-origin link may redirect to a sign-out or
// to another site). Such a link prints LINK 3xx; the browser does not tell a script its Location.
const frames = await pg._sendToTarget("Page.getFrameTree", {});
const world = await pg._sendToTarget("Page.createIsolatedWorld", { frameId: frames.frameTree.frame.id, worldName: "gstack links check" });
async function check(url) {
  const ask = "(async (u) => { const ask = (method) => fetch(u, { method, redirect: 'manual', credentials: " + JSON.stringify(PARAMS.signedIn ? "same-origin" : "omit") + ", cache: 'no-store' });" +
    " let r = await ask('HEAD'); if (r.status === 405 || r.status === 501) r = await ask('GET');" +
    " return { status: r.status, redirect: r.type === 'opaqueredirect' }; })(" + JSON.stringify(url) + ")";
  const out = await pg._sendToTarget("Runtime.evaluate", { expression: ask, contextId: world.executionContextId, awaitPromise: true, returnByValue: true });
  if (out.exceptionDetails) throw new Error((out.exceptionDetails.exception && out.exceptionDetails.exception.description) || out.exceptionDetails.text);
  const res = out.result.value;
  return res.redirect ? "LINK 3xx " + url + " (redirect not followed)" : "LINK " + res.status + " " + url;
}
for (const link of unique.slice(0, PARAMS.maxLinks)) {
  if (UNSAFE.test(folded(decoded(link.url))) || UNSAFE.test(folded(link.text))) {
    console.log("LINK ? " + link.url + " (not followed: looks like sign-out or a destructive action)");
  } else if (!isLocal) {
    console.log("LINK ? " + link.url);
  } else {
    try {
      console.log(await check(link.url));
    } catch (err) {
      console.log("LINK ERR " + link.url + " (" + String(err).split("\n")[0] + ")");
    }
  }
}
if (unique.length > PARAMS.maxLinks) console.log("[links cut at " + PARAMS.maxLinks + " of " + unique.length + "]");
// No LINK line at all read as a page still drawing or a broken check (trial V26): say which.
const allLinks = Array.isArray(rawLinks) ? rawLinks.length : 0;
if (unique.length === 0) console.log(allLinks ? "[no same-origin links: the page's " + allLinks + " link" + (allLinks === 1 ? " leads" : "s lead") + " to other sites or schemes, which are not listed]" : '[no links on the page: if the app draws them after load, pass waitFor, e.g. {"selector": "a[href]"}]');

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
