// Script fragments every shape shares. They are plain flow-script text (catalog globals and
// Page methods only), pasted into each shape's body so every generated script stays
// self-contained: an agent can copy one file and run it.

/**
 * The console-error hook: a CDP init script installed before `goto`, so it sees errors from
 * the page's first script on. It is not a Playwright event listener because Aside pages may
 * not emit those; `Page.addScriptToEvaluateOnNewDocument` works on both engines.
 */
export const CONSOLE_HOOK = String.raw`// Collects console.error calls and uncaught errors from the first script of every document
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
].join("\n");`;

/** Opens our own tab, names the artifact dir, installs the hook, loads PARAMS.url. */
export const OPEN_AND_LOAD = String.raw`// Our own tab, opened blank so the hook is in place before the page's first script runs.
const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: CONSOLE_HOOK });
await pg.goto(PARAMS.url, { waitUntil: "load" });
await sleep(PARAMS.settleMs);
console.log("URL=" + pg.url());`;

export const PRINT_CONSOLE_ERRORS = String.raw`console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate("window.__gstackErrors || []")));`;

export const CLOSE_AND_FINISH = String.raw`await closeTab(pg);
console.log("GSTACK_STEP_OK");`;

/** A target is local when it is this machine: only there may a shape fetch or act freely. */
export const IS_LOCAL_HOST = String.raw`// Local means this machine; a non-local site gets looked at, not acted on or crawled.
const host = await pg.evaluate(() => location.hostname);
const isLocal = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0)$/i.test(host) || /\.localhost$/i.test(host);`;

/** The settle parameter every page-loading shape has. */
export const SETTLE_PARAM = {
  type: 'integer' as const,
  minimum: 0,
  maximum: 30000,
  default: 300,
  description: 'Milliseconds to wait after load, so errors thrown by deferred scripts are counted.',
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
