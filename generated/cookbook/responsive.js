// AUTO-GENERATED from cookbook/responsive.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/responsive.js   (or: gstack cookbook responsive --url URL)
// gstack cookbook "responsive": Responsive check: full-page screenshots at mobile 375, tablet 768 and desktop 1440, with horizontal-overflow detection.
// Prints: ASIDE_DIR= VIEWPORT= SCREENSHOT= URL= CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f responsive.js (edit PARAMS first).
const PARAMS = {
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

const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: CONSOLE_HOOK });
const consoleErrors = [];

for (const vp of PARAMS.viewports) {
  await pg.setViewportSize({ width: vp.width, height: vp.height });
  await pg.goto(PARAMS.url, { waitUntil: "load" });
  await sleep(PARAMS.settleMs);
  const scrollWidth = await pg.evaluate(() => document.documentElement.scrollWidth);
  console.log("VIEWPORT=" + JSON.stringify({ name: vp.name, width: vp.width, height: vp.height, scrollWidth, overflowX: scrollWidth > vp.width }));
  const shot = path.join(pwd, "responsive-" + vp.name + "-" + vp.width + ".png");
  await pg.screenshot({ path: shot, fullPage: PARAMS.fullPage });
  console.log("SCREENSHOT=" + shot);
  for (const e of await pg.evaluate("window.__gstackErrors || []")) consoleErrors.push("[" + vp.name + "] " + e);
}

console.log("URL=" + pg.url());
console.log("CONSOLE_ERRORS=" + JSON.stringify(consoleErrors));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
