// AUTO-GENERATED from cookbook/flow.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/flow.js   (or: gstack cookbook flow --url URL)
// gstack cookbook "flow": Act by ref (click, fill, press, check, select) and show the snapshot diff, URL and screenshots before and after.
// Prints: ASIDE_DIR= URL= TITLE= SNAPSHOT_START SNAPSHOT_END STEP DIFF_START DIFF_END SCREENSHOT= CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f flow.js (edit PARAMS first).
const PARAMS = {
  "url": "http://127.0.0.1:8080/",
  "steps": [
    {
      "action": "click",
      "role": "button",
      "name": "Click me"
    }
  ],
  "confirmed": false,
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

// Our own tab, opened blank so the hook is in place before the page's first script runs.
const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: CONSOLE_HOOK });
await pg.goto(PARAMS.url, { waitUntil: "load" });
await sleep(PARAMS.settleMs);
console.log("URL=" + pg.url());

// Local means this machine; a non-local site gets looked at, not acted on or crawled.
const host = await pg.evaluate(() => location.hostname);
const isLocal = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0)$/i.test(host) || /\.localhost$/i.test(host);

if (!isLocal && PARAMS.steps.length > 0 && !PARAMS.confirmed) {
  throw new Error(host + " is not a local target: acting on it needs the user's confirmation. " +
    "Ask the user, then set PARAMS.confirmed = true (gstack cookbook: --params '{\"confirmed\":true,...}').");
}
console.log("TITLE=" + (await pg.title()));
let snap = await snapshot(pg, { compact: true });
console.log("SNAPSHOT_START");
console.log(snap.tree);
console.log("SNAPSHOT_END");
const before = path.join(pwd, "flow-before.png");
await pg.screenshot({ path: before });
console.log("SCREENSHOT=" + before);

for (let i = 0; i < PARAMS.steps.length; i++) {
  const step = PARAMS.steps[i];
  const ref = findRef(snap.tree, step);
  const el = pg.locator(ref);
  const value = "value" in step ? String(step.value) : "";
  console.log("STEP " + (i + 1) + " " + step.action + " \"" + step.name + "\" ref=" + ref);
  if (step.action === "click") await el.click();
  else if (step.action === "fill") {
    // Credentials never pass through the agent: the user signs in themselves.
    if ((await el.getAttribute("type")) === "password") {
      throw new Error("Refusing to type into a password field. Ask the user to sign in in their own browser, or import their cookies with gstack sessions import-cookies.");
    }
    await el.fill(value);
  } else if (step.action === "press") await el.press(value || "Enter");
  else if (step.action === "check") await el.check();
  else if (step.action === "uncheck") await el.uncheck();
  else if (step.action === "select") await el.selectOption(value);
  await pg.waitForLoadState("load");
  await sleep(PARAMS.settleMs);
  snap = await snapshot(pg, { compact: true });
  console.log("DIFF_START");
  console.log(snap.diff);
  console.log("DIFF_END");
  console.log("URL=" + pg.url());
}

const after = path.join(pwd, "flow-after.png");
await pg.screenshot({ path: after });
console.log("SCREENSHOT=" + after);

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
