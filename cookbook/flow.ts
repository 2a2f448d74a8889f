// flow: act on a page by snapshot refs and capture what each action changed.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, STEP_WAIT_FOR_PARAM, OPEN_AND_LOAD, PRINT_CONSOLE_ERRORS, PRINT_NETWORK_ERRORS, CLOSE_AND_FINISH, IS_LOCAL_HOST, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const flow: Shape = {
  name: 'flow',
  summary: 'Act by ref (click, fill, type, press, check, select) and show the snapshot diff, URL and screenshots before and after.',
  description:
    'Loads the page, takes a compact snapshot (elements with their refs, and the text around them), then for each step finds the element by its accessible role and name in the snapshot, acts on it through its ref (`pg.locator(ref)`), and prints a STEP line, the snapshot diff (what the action changed, messages included; a dialog that opens or closes is one line) and the URL, then what the step caused: its own `CONSOLE_ERRORS=` and `NETWORK_ERRORS=` (only when there are some) and, for a submit the browser blocked, `SUBMIT_BLOCKED=` with the invalid field and its message. Before the diff it waits for the page to settle (no request under way and a quiet DOM, 3 s at most), so a late answer is credited to its own step; a step may also wait for its result (`waitFor`, as after load). An app that writes its address after a transition (a slide deck after its slide animates) shows the URL of the step before: give such a step a `waitFor` of what it shows, or read the app\'s own state in a script. Screenshots before (the first screen) and after (the whole page), console errors and failed requests (`NETWORK_ERRORS=`) of the last page at the end. On a non-local target it refuses to act until `confirmed` is true: ask the user first. It never types into password fields.',
  evidence: ['ASIDE_DIR=', 'URL=', 'TITLE=', 'SNAPSHOT_START', 'SNAPSHOT_END', 'STEP', 'DIFF_START', 'DIFF_END', 'SCREENSHOT=', 'CONSOLE_ERRORS=', 'NETWORK_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'steps'],
    properties: {
      url: URL_PARAM,
      steps: {
        type: 'array',
        description: 'The actions, in order. Each names its element by accessible name (and optionally role) as the snapshot shows it; a `press` without a name presses the key on the page itself (slide decks, games, keyboard shortcuts).',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['action'],
          // Every action but a page-level press acts on a named element.
          if: { properties: { action: { not: { const: 'press' } } } },
          then: { properties: { name: {} }, required: ['name'] },
          properties: {
            action: { enum: ['click', 'fill', 'type', 'press', 'check', 'uncheck', 'select'], description: 'What to do to the element. `fill` sets the whole value at once; `type` presses one key per character (`pressSequentially`), for inputs that react to key presses (grid header filters, comboboxes, search-as-you-type).' },
            name: { type: 'string', minLength: 1, description: 'Accessible name as shown in the snapshot, e.g. `Save` for `button "Save" [ref=e7]` (exact match first, then a case-insensitive substring). Required, except for a `press` meant for the page: `{"action":"press","value":"ArrowRight"}`.' },
            role: { type: 'string', description: 'Role as shown in the snapshot (`button`, `link`, `textbox`, ...), to disambiguate.' },
            value: { type: 'string', description: 'Text for fill or type, key for press (e.g. `Enter`), option value or label for select.' },
            waitFor: STEP_WAIT_FOR_PARAM,
          },
        },
      },
      confirmed: { type: 'boolean', default: false, description: 'The user confirmed these actions. Required to act on a non-local target.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/', steps: [{ action: 'click', role: 'button', name: 'Click me' }] },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    String.raw`// Finds the ref of the element with this role and name in a snapshot tree, whose lines
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
}`,
    String.raw`// Waits until the document an action may have loaded is complete. pg.evaluate fails while a
// navigation swaps documents, so it is retried (10 s at most).
async function waitForLoad(pg) {
  for (let i = 0; i < 100; i++) {
    if ((await pg.evaluate(() => document.readyState).catch(() => "navigating")) === "complete") return;
    await sleep(100);
  }
}`,
    String.raw`// Waits until the page is quiet after a step: no fetch or XHR under way (the evidence hook
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
}`,
    String.raw`// Where this step's evidence starts: the hook's lists and the resource timings so far, in the
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
}`,
    OPEN_AND_LOAD,
    IS_LOCAL_HOST,
    String.raw`if (!isLocal && PARAMS.steps.length > 0 && !PARAMS.confirmed) {
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
console.log("SCREENSHOT=" + after);`,
    PRINT_CONSOLE_ERRORS,
    PRINT_NETWORK_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
