// responsive: the same page at phone, tablet and desktop widths.
import type { Shape } from './types.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, CLOSE_AND_FINISH, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const responsive: Shape = {
  name: 'responsive',
  summary: 'Responsive check: full-page screenshots at mobile 375, tablet 768 and desktop 1440, with horizontal-overflow detection.',
  description:
    'Loads the page once per viewport (sized through CDP `Emulation.setDeviceMetricsOverride`, as Aside has no `setViewportSize`; a fresh load, so layout code that reads the width at load runs at that width) and prints a VIEWPORT line (size, document scroll width, whether it overflows horizontally) and a full-page screenshot per viewport, then the console errors of all loads, each prefixed with its viewport.',
  evidence: ['ASIDE_DIR=', 'VIEWPORT=', 'SCREENSHOT=', 'URL=', 'CONSOLE_ERRORS=', 'GSTACK_STEP_OK'],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: URL_PARAM,
      viewports: {
        type: 'array',
        minItems: 1,
        description: 'The viewports, in order.',
        default: [
          { name: 'mobile', width: 375, height: 812 },
          { name: 'tablet', width: 768, height: 1024 },
          { name: 'desktop', width: 1440, height: 900 },
        ],
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'width', 'height'],
          properties: {
            name: { type: 'string', pattern: '^[\\w-]+$', description: 'Used in the screenshot file name.' },
            width: { type: 'integer', minimum: 200, maximum: 4000, description: 'CSS pixels.' },
            height: { type: 'integer', minimum: 200, maximum: 4000, description: 'CSS pixels.' },
          },
        },
      },
      fullPage: { type: 'boolean', default: true, description: 'Capture the whole scrollable page, not only the viewport.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/' },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    String.raw`const pg = await openTab();
console.log("ASIDE_DIR=" + pwd);
// Page.enable first: without it Chromium accepts the init script but never runs it.
await pg._sendToTarget("Page.enable", {});
await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: EVIDENCE_HOOK });
const consoleErrors = [];

for (const vp of PARAMS.viewports) {
  // Sized through CDP, which both engines have (Aside has no pg.setViewportSize).
  await pg._sendToTarget("Emulation.setDeviceMetricsOverride", { width: vp.width, height: vp.height, deviceScaleFactor: 1, mobile: false });
  await pg.goto(PARAMS.url, { waitUntil: "load" });
  await waitForReady(pg);
  await sleep(PARAMS.settleMs);
  const scrollWidth = await pg.evaluate(() => document.documentElement.scrollWidth);
  console.log("VIEWPORT=" + JSON.stringify({ name: vp.name, width: vp.width, height: vp.height, scrollWidth, overflowX: scrollWidth > vp.width }));
  const shot = path.join(pwd, "responsive-" + vp.name + "-" + vp.width + ".png");
  await pg.screenshot({ path: shot, fullPage: PARAMS.fullPage });
  console.log("SCREENSHOT=" + shot);
  for (const e of await pg.evaluate("window.__gstackErrors || []")) consoleErrors.push("[" + vp.name + "] " + e);
}

console.log("URL=" + pg.url());
console.log("CONSOLE_ERRORS=" + JSON.stringify(consoleErrors));`,
    CLOSE_AND_FINISH,
  ),
};
