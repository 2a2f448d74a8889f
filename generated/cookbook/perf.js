// AUTO-GENERATED from cookbook/perf.ts via templates/cookbook-script.js.hbs by templates/gen.ts. Do not edit: edit the shape and run `npm run gen`.
// Run it: gstack run -f generated/cookbook/perf.js   (or: gstack cookbook perf --url URL)
// gstack cookbook "perf": Performance: navigation timing (`NAV=`) and the slowest resources (`RESOURCES=`) of one load.
// Prints: ASIDE_DIR= URL= NAV= RESOURCES= CONSOLE_ERRORS= GSTACK_STEP_OK
// Runs unchanged on both engines: gstack run -f perf.js (edit PARAMS first).
const PARAMS = {
  "url": "http://127.0.0.1:8080/",
  "topResources": 10,
  "settleMs": 500
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

const nav = await pg.evaluate(() => {
  const t = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType("navigation")[0]);
  if (!t) return null;
  const ms = (v) => Math.round(v);
  return { ttfb: ms(t.responseStart), domContentLoaded: ms(t.domContentLoadedEventEnd), load: ms(t.loadEventEnd), transferSize: t.transferSize, type: t.type };
});
console.log("NAV=" + JSON.stringify(nav));

const resources = await pg.evaluate((top) => {
  const list = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("resource"));
  return list
    .map((r) => ({ url: r.name, type: r.initiatorType, duration: Math.round(r.duration), size: r.transferSize }))
    .sort((a, b) => b.duration - a.duration)
    .slice(0, top);
}, PARAMS.topResources);
console.log("RESOURCES=" + JSON.stringify(resources));

console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));

await closeTab(pg);
console.log("GSTACK_STEP_OK");
