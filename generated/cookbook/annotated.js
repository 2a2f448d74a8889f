// AUTO-GENERATED from cookbook/annotated.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/annotated.js   (or: gstack cookbook annotated --url URL)
// gstack cookbook "annotated": Annotated screenshot: the ref label of every interactive element drawn on the page, plus the snapshot it matches.
// Prints: ASIDE_DIR= URL= SNAPSHOT_START SNAPSHOT_END SCREENSHOT= CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f annotated.js (edit PARAMS first).
const PARAMS = {
  "url": "http://127.0.0.1:8080/form.html",
  "file": "annotated.png",
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

const snap = await snapshot(pg, { interactive: true });
console.log("SNAPSHOT_START");
console.log(snap.tree);
console.log("SNAPSHOT_END");

const { base64Image } = await annotatedScreenshot(pg);
const file = path.join(pwd, PARAMS.file);
await fs.writeFile(file, Buffer.from(base64Image, "base64"));
console.log("SCREENSHOT=" + file);

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
