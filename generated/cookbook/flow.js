// AUTO-GENERATED from cookbook/flow.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/flow.js   (or: gstack cookbook flow --url URL)
// gstack cookbook "flow": Act by ref (click, fill, type, press, check, select) and show the snapshot diff, URL and screenshots before and after.
// Prints: ASIDE_DIR= URL= TITLE= SNAPSHOT_START SNAPSHOT_END STEP DIFF_START DIFF_END SCREENSHOT= CONSOLE_ERRORS= NETWORK_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f flow.js. What a call is given replaces a
// value below: gstack run -f flow.js --params '{"url":"…"}', or saved as a flow, --param url=….
const PARAMS = Object.assign({
  "url": "http://127.0.0.1:8080/",
  "steps": [
    {
      "action": "click",
      "role": "button",
      "name": "Click me"
    }
  ],
  "confirmed": false,
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

// Finds the ref of the element with this role and name in a snapshot tree, whose lines
// look like:   - button "Save" [ref=e12]
function findRef(tree, step) {
  let loose = null;
  for (const line of tree.split("\n")) {
    const m = /^\s*-\s+([\w-]+)(?:\s+"((?:[^"\\]|\\.)*)")?.*?\[ref=([^\]]+)\]/.exec(line);
    if (!m || (step.role && m[1] !== step.role)) continue;
    // The name is a JSON string: \" is a quote, \\ a backslash.
    const name = JSON.parse('"' + (m[2] || "") + '"');
    if (name === step.name) return m[3];
    if (loose === null && name.toLowerCase().includes(step.name.toLowerCase())) loose = m[3];
  }
  if (loose !== null) return loose;
  throw new Error("No element named \"" + step.name + "\"" + (step.role ? " with role " + step.role : "") +
    " in the snapshot. Use a role and name from the SNAPSHOT_START block above.");
}

// Waits until the document an action may have loaded is complete. pg.evaluate fails while a
// navigation swaps documents, so it is retried (10 s at most).
async function waitForLoad(pg) {
  for (let i = 0; i < 100; i++) {
    if ((await pg.evaluate(() => document.readyState).catch(() => "navigating")) === "complete") return;
    await sleep(100);
  }
}

// Waits until the page is quiet after a step: no fetch or XHR under way (the evidence hook
// counts them) and no DOM change for 200 ms, 3 s at most, so a late answer is credited to the
// step that caused it, not to the next one.
async function settle(pg) {
  await pg.evaluate(() => new Promise((resolve) => {
    const until = Date.now() + 3000;
    let last = Date.now();
    const seen = new MutationObserver(() => { last = Date.now(); });
    seen.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const check = () => {
      const busy = (/** @type {any} */ (window).__gstackPending || 0) > 0 || Date.now() - last < 200;
      if (busy && Date.now() < until) return void setTimeout(check, 50);
      seen.disconnect();
      resolve(undefined);
    };
    setTimeout(check, 50);
  })).catch(() => undefined);
}

// Where this step's evidence starts: the hook's lists and the resource timings so far, in the
// current document (a step that loads another document starts them afresh).
async function evidenceMark(pg) {
  return pg.evaluate(() => ({
    doc: performance.timeOrigin,
    at: performance.now(),
    errors: (/** @type {any} */ (window).__gstackErrors || []).length,
    net: (/** @type {any} */ (window).__gstackNetErrors || []).length,
  })).catch(() => null);
}

// What the step caused: console errors and failed requests since its mark.
async function evidenceSince(pg, mark) {
  return pg.evaluate((m) => {
    const w = /** @type {any} */ (window);
    const same = m && m.doc === performance.timeOrigin;
    const errors = (w.__gstackErrors || []).slice(same ? m.errors : 0);
    const net = [];
    const seen = new Set();
    const timing = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("navigation").concat(performance.getEntriesByType("resource")));
    for (const t of timing) {
      if (same && t.startTime < m.at) continue;
      if (t.responseStatus >= 400 && !/\/favicon\.ico$/.test(t.name) && !seen.has(t.name)) {
        seen.add(t.name);
        net.push({ url: t.name, status: t.responseStatus, type: t.initiatorType || t.entryType });
      }
    }
    for (const e of (w.__gstackNetErrors || []).slice(same ? m.net : 0)) {
      if (!seen.has(e.url)) {
        seen.add(e.url);
        net.push(e);
      }
    }
    return { errors, net };
  }, mark).catch(() => ({ errors: [], net: [] }));
}

// A submit the browser blocked: after a click on a submit control (or Enter in a field) whose
// form is still here and invalid, the first invalid field's name and its validationMessage
// (the bubble "Please fill out this field." that a screenshot shows and a snapshot does not).
async function blockedSubmit(el, action, value) {
  return el.evaluate((e, how) => {
    const field = /** @type {any} */ (e);
    const form = field.form;
    if (!form || form.noValidate || field.formNoValidate) return null;
    const submits = how.action === "click" && (field.type === "submit" || field.type === "image");
    const enter = how.action === "press" && (how.value || "Enter") === "Enter" && field.tagName === "INPUT";
    if (!submits && !enter) return null;
    const bad = Array.from(/** @type {any[]} */ (form.elements)).find((x) => x.willValidate && !x.validity.valid);
    if (!bad) return null;
    // The label's own words: the fields inside a label (another box's text) are not its name.
    const shown = (l) => {
      const copy = l.cloneNode(true);
      copy.querySelectorAll("input, textarea, select, [contenteditable], [role=textbox]").forEach((x) => x.remove());
      return copy.textContent;
    };
    const label = (bad.labels && bad.labels[0] && shown(bad.labels[0])) || bad.getAttribute("aria-label") || bad.name || bad.placeholder || bad.type;
    // The browser's message may quote the field's value, whole or in part ("'…' is missing an
    // '@'", "'.' is used at a wrong position in '…'"): the value is the page's or the user's,
    // and may be a secret, so no quoted part of it is repeated.
    const value = String(bad.value || "");
    let message = String(bad.validationMessage);
    if (value.length >= 2) message = message.split(value).join("[the field's value]").replace(/'([^']{2,})'|"([^"]{2,})"/g, (q, a, b) => (value.includes(a || b) ? "'[part of the field's value]'" : q));
    return { field: String(label).replace(/\s+/g, " ").trim(), message };
    // A submit that went through left a new document: the clicked element is gone, and
    // Playwright would wait its 30 s default for it. 2 s is plenty for one that is there.
  }, { action, value }, { timeout: 2000 }).catch(() => null);
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

if (!isLocal && PARAMS.steps.length > 0 && !PARAMS.confirmed) {
  throw new Error(host + " is not a local target: acting on it needs the user's confirmation. " +
    "Ask the user, then set PARAMS.confirmed = true (gstack cookbook: --params '{\"confirmed\":true,...}').");
}
// Page members verified on Aside only (see the catalog): evaluate rather than pg.title().
console.log("TITLE=" + (await pg.evaluate(() => document.title)));
let snap = await snapshot(pg, { compact: true });
console.log("SNAPSHOT_START");
console.log(snap.tree);
console.log("SNAPSHOT_END");
const before = path.join(pwd, "flow-before.png");
await pg.screenshot({ path: before });
console.log("SCREENSHOT=" + before);

for (let i = 0; i < PARAMS.steps.length; i++) {
  const step = PARAMS.steps[i];
  const value = "value" in step ? String(step.value) : "";
  // A press without a name goes to the page: the key reaches the document's own listeners
  // (through <body>, which takes focus, as a click on the page background would give it).
  const onPage = step.action === "press" && !step.name;
  const ref = onPage ? "" : findRef(snap.tree, step);
  const el = onPage ? pg.locator("body") : pg.locator(ref);
  console.log("STEP " + (i + 1) + " " + step.action + (onPage ? " page key=" + JSON.stringify(value || "Enter") : " \"" + step.name + "\" ref=" + ref));
  // Where the step acts now, not where the flow began: an earlier step may have led to another
  // site, and the element may sit in another site's frame. Read from the element's own document
  // (location cannot be redefined by a page) or the tab's address.
  if (!PARAMS.confirmed) {
    const at = onPage ? pg.url() : await el.evaluate(() => location.href).catch(() => "");
    if (!isLocalUrl(at)) {
      throw new Error("Step " + (i + 1) + " would act on " + (at || "a page whose address could not be read") + ", which is not a local target: acting on it needs the user's confirmation. " +
        "Ask the user, then set PARAMS.confirmed = true (gstack cookbook: --params '{\"confirmed\":true,...}').");
    }
  }
  const mark = await evidenceMark(pg);
  if (step.action === "click") await el.click();
  else if (step.action === "fill" || step.action === "type" || step.action === "press") {
    // Credentials never pass through the agent: the user signs in themselves.
    // Checked on the field the keys will reach, as it is once focused: fill follows a label to its
    // control (a span in a label can stand for a hidden password input), and a page can make a
    // field a password field, or mask it with CSS, only when it gets the focus. A press of a key
    // that types a character is typing too (pass 33, B33); Enter, Tab, arrows and the like are not.
    const isSecret = () => el.evaluate((node) => {
      const e = /** @type {any} */ (node);
      const label = e.closest && e.closest("label");
      const typed = e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e.isContentEditable ? e : (label && label.control) || e;
      return [typed, /** @type {any} */ (document.activeElement)].some((t) => t && (String(t.type || "").toLowerCase() === "password" ||
        ["disc", "circle", "square"].includes(getComputedStyle(t).getPropertyValue("-webkit-text-security"))));
    }).catch(() => false);
    const key = value || "Enter";
    const types = step.action !== "press" || !/^(?:Enter|Tab|Escape|Backspace|Delete|Home|End|PageUp|PageDown|Arrow(?:Up|Down|Left|Right)|F\d{1,2})$/.test(key);
    await el.focus().catch(() => {});
    if (types && ((await isSecret()) || String((await el.getAttribute("type")) || "").toLowerCase() === "password")) {
      throw new Error("Refusing to type into a password field. Ask the user to sign in in their own browser, or import their cookies with gstack sessions import-cookies.");
    }
    // type: one key event per character, after clearing, for inputs that listen to keys.
    if (step.action === "press") await el.press(key);
    else if (step.action === "type") {
      await el.fill("");
      await el.pressSequentially(value, { delay: 20 });
    } else await el.fill(value);
    // A page can turn the field into a password field while the keys go in (on keydown or
    // beforeinput): the value is taken out again and the step fails, never left in it (B33).
    if (types && (await isSecret())) {
      await el.fill("").catch(() => {});
      throw new Error("The page turned the field into a password field while it was typed into; its value was cleared. Refusing to type into a password field: ask the user to sign in in their own browser.");
    }
  }
  else if (step.action === "check") await el.check();
  else if (step.action === "uncheck") await el.uncheck();
  else if (step.action === "select") await el.selectOption(value);
  await waitForLoad(pg);
  if (step.waitFor) await waitForReady(pg, step.waitFor, "after step " + (i + 1));
  await sleep(PARAMS.settleMs);
  await settle(pg);
  const blocked = onPage ? null : await blockedSubmit(el, step.action, value);
  snap = await snapshot(pg, { compact: true });
  console.log("DIFF_START");
  console.log(snap.diff);
  console.log("DIFF_END");
  console.log("URL=" + pg.url());
  if (blocked) console.log("SUBMIT_BLOCKED=" + JSON.stringify(blocked));
  const caused = await evidenceSince(pg, mark);
  if (caused.errors.length) console.log("CONSOLE_ERRORS=" + JSON.stringify(caused.errors));
  if (caused.net.length) console.log("NETWORK_ERRORS=" + JSON.stringify(caused.net));
}

// The whole page after: a result below the first screen is in it.
const after = path.join(pwd, "flow-after.png");
await pg.screenshot({ path: after, fullPage: true });
console.log("SCREENSHOT=" + after);

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

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
