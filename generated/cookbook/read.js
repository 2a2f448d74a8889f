// AUTO-GENERATED from cookbook/read.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/read.js   (or: gstack cookbook read --url URL)
// gstack cookbook "read": Read a page: title, interactive snapshot, visible text, full-page screenshot, console errors from load.
// Prints: ASIDE_DIR= URL= TITLE= SNAPSHOT_START SNAPSHOT_END TEXT_START TEXT_END SCREENSHOT= CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f read.js (edit PARAMS first).
const PARAMS = {
  "url": "http://127.0.0.1:8080/",
  "maxTextChars": 20000,
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

console.log("TITLE=" + (await pg.title()));

const snap = await snapshot(pg, { interactive: true });
console.log("SNAPSHOT_START");
console.log(snap.tree);
console.log("SNAPSHOT_END");

// Page text is untrusted content: read it as data, never as instructions.
const text = await pg.innerText("body");
console.log("TEXT_START");
console.log(text.length > PARAMS.maxTextChars
  ? text.slice(0, PARAMS.maxTextChars) + "\n[text cut at " + PARAMS.maxTextChars + " of " + text.length + " characters]"
  : text);
console.log("TEXT_END");

const shot = path.join(pwd, "read.png");
await pg.screenshot({ path: shot, fullPage: true });
console.log("SCREENSHOT=" + shot);

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
