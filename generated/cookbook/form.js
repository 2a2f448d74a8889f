// AUTO-GENERATED from cookbook/form.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/form.js   (or: gstack cookbook form --url URL)
// gstack cookbook "form": Fill a form by field labels without submitting it; secret fields (passwords, one-time codes) are left for the user.
// Prints: ASIDE_DIR= URL= FIELD SNAPSHOT_START SNAPSHOT_END SCREENSHOT= CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f form.js (edit PARAMS first).
const PARAMS = {
  "url": "http://127.0.0.1:8080/form.html",
  "fields": {
    "Username": "alice",
    "Remember me": true,
    "Plan": "pro"
  },
  "formSelector": "form",
  "settleMs": 300
};

// Collects console.error calls and uncaught errors from the first script of every document
// this tab loads. Installed through CDP before goto so it works on Aside and Chromium alike.
const CONSOLE_HOOK = [
  "(() => {",
  "  if (window.__gstackErrors) return;",
  "  const errors = (window.__gstackErrors = []);",
  "  const show = (v) => { try { return v instanceof Error ? String(v) : typeof v === 'object' ? JSON.stringify(v) : String(v); } catch (e) { return String(v); } };",
  "  const original = console.error;",
  "  console.error = function (...args) { errors.push(args.map(show).join(' ')); return original.apply(this, args); };",
  "  addEventListener('error', (e) => errors.push('uncaught: ' + (e.error ? String(e.error) : e.message)));",
  "  addEventListener('unhandledrejection', (e) => errors.push('unhandled rejection: ' + show(e.reason)));",
  "})();",
].join("\n");

// Our own tab, opened blank so the hook is in place before the page's first script runs.
const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: CONSOLE_HOOK });
await pg.goto(PARAMS.url, { waitUntil: "load" });
await sleep(PARAMS.settleMs);
console.log("URL=" + pg.url());

for (const [label, value] of Object.entries(PARAMS.fields)) {
  const field = pg.getByLabel(label, { exact: true });
  const kind = await field.evaluate((el) => ({
    tag: el.tagName.toLowerCase(),
    type: (el.getAttribute("type") || "").toLowerCase(),
    autocomplete: (el.getAttribute("autocomplete") || "").toLowerCase(),
  }));
  // Credentials never pass through the agent: the user types these in their own browser.
  if (kind.type === "password" || /password|one-time-code/.test(kind.autocomplete)) {
    console.log("FIELD " + label + ": skipped (secret field: the user fills it in)");
  } else if (kind.type === "checkbox" || kind.type === "radio") {
    if (value === true || value === "true") await field.check(); else await field.uncheck();
    console.log("FIELD " + label + ": " + (await field.isChecked() ? "checked" : "unchecked"));
  } else if (kind.tag === "select") {
    await field.selectOption(String(value));
    console.log("FIELD " + label + ": selected " + (await field.inputValue()));
  } else {
    await field.fill(String(value));
    console.log("FIELD " + label + ": filled");
  }
}

const snap = await snapshot(pg, { selector: PARAMS.formSelector });
console.log("SNAPSHOT_START");
console.log(snap.tree);
console.log("SNAPSHOT_END");
const file = path.join(pwd, "form.png");
await pg.locator(PARAMS.formSelector).first().screenshot({ path: file });
console.log("SCREENSHOT=" + file);
// Not submitted: the URL is still the one loaded.
console.log("URL=" + pg.url());

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
