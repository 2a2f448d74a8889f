// responsive: the same page at phone, tablet and desktop widths.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, PRINT_NETWORK_ERRORS, CLOSE_AND_FINISH, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const responsive: Shape = {
  name: 'responsive',
  summary: 'Responsive check: full-page screenshots at mobile 375, tablet 768 and desktop 1440, with horizontal-overflow detection.',
  description:
    'Loads the page once per viewport (sized through CDP `Emulation.setDeviceMetricsOverride`, as Aside has no `setViewportSize`; a fresh load, so layout code that reads the width at load runs at that width) and prints a VIEWPORT line (size, document scroll width, whether it overflows horizontally) and a screenshot per viewport taken through CDP too (`Page.captureScreenshot`: the image shows the layout at the viewport width, and is that wide unless the page overflows it; full page by default, `fullPage: false` for the viewport only — a phone page many screens tall is easier to look at that way; an app that scrolls inside a panel of its own rather than the page shows only what that panel shows at once, so its shot is one screen tall: screenshot the panel element, or scroll it, in a script of your own), then the console errors of all loads, each prefixed with its viewport, and the failed requests of the last load (`NETWORK_ERRORS=`; every load fetches the same page).',
  evidence: ['ASIDE_DIR=', 'VIEWPORT=', 'SCREENSHOT=', 'URL=', 'CONSOLE_ERRORS=', 'NETWORK_ERRORS=', SENTINEL],
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

// The screenshot through CDP too: pg.screenshot sizes the capture by the page's own viewport
// (Playwright's 1280x720 on Chromium), not by the CDP override, so it would show a phone layout
// cut or stretched to the desktop size. Full page: the document's size, captured beyond the view.
async function captureAtViewport(pg, file, vp) {
  const params = { format: "png" };
  if (PARAMS.fullPage) {
    const metrics = await pg._sendToTarget("Page.getLayoutMetrics", {});
    const size = metrics.cssContentSize || metrics.contentSize;
    // As wide as the page when it overflows the viewport: the part that sticks out is the finding.
    params.clip = { x: 0, y: 0, width: Math.max(vp.width, Math.ceil(size.width)), height: Math.max(vp.height, Math.ceil(size.height)), scale: 1 };
    params.captureBeyondViewport = true;
  }
  const { data } = await pg._sendToTarget("Page.captureScreenshot", params);
  await fs.writeFile(file, Buffer.from(data, "base64"));
}

for (const vp of PARAMS.viewports) {
  // Sized through CDP, which both engines have (Aside has no pg.setViewportSize).
  await pg._sendToTarget("Emulation.setDeviceMetricsOverride", { width: vp.width, height: vp.height, deviceScaleFactor: 1, mobile: false });
  await pg.goto(PARAMS.url, { waitUntil: "load" });
  // Named by its viewport: a layout may show the text at one width only (trial V26).
  await waitForReady(pg, PARAMS.waitFor, "after load at " + vp.name + " (" + vp.width + "x" + vp.height + ")");
  await sleep(PARAMS.settleMs);
  // A read: the secret fields' values are cut from what this shape prints below.
  await pg.locator("title").allTextContents().catch(() => []);
  const scrollWidth = await pg.evaluate(() => document.documentElement.scrollWidth);
  console.log("VIEWPORT=" + JSON.stringify({ name: vp.name, width: vp.width, height: vp.height, scrollWidth, overflowX: scrollWidth > vp.width }));
  const shot = path.join(pwd, "responsive-" + vp.name + "-" + vp.width + ".png");
  await captureAtViewport(pg, shot, vp);
  console.log("SCREENSHOT=" + shot);
  for (const e of await pg.evaluate("window.__gstackErrors || []")) consoleErrors.push("[" + vp.name + "] " + e);
}

console.log("URL=" + pg.url());
console.log("CONSOLE_ERRORS=" + JSON.stringify(consoleErrors));`,
    PRINT_NETWORK_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
