// perf: navigation timing and the slowest resources of one page load.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, LEARN_SECRET_FIELDS, PRINT_CONSOLE_ERRORS, PRINT_NETWORK_ERRORS, CLOSE_AND_FINISH, URL_PARAM, script } from './snippets.js';

export const perf: Shape = {
  name: 'perf',
  summary: 'Performance: navigation timing (`NAV=`) and the slowest resources (`RESOURCES=`) of one load.',
  description:
    "Loads the page once and prints the browser's own Navigation Timing for it (`NAV=`: `status`, then `ttfb`, `domContentLoaded` and `load` in ms from navigation start, `transferSize` in bytes), the slowest resources it fetched (`RESOURCES=`: `url`, `type` (the initiator), `status`, `duration` in ms, `size` in transfer bytes) from the Resource Timing buffer, and the failed requests (`NETWORK_ERRORS=`). A resource with a 4xx/5xx status is broken however fast it was; status `null` means the browser could not tell (a cross-origin resource). One load is one sample: compare runs, not single numbers. Transfer bytes (`size`, `transferSize`) are what crossed the network: the session keeps the browser's cache between calls, so a resource it revalidated shows only its answer's headers (about 300 bytes) and one served from the cache 0; `--ephemeral` measures a first visit.",
  evidence: ['ASIDE_DIR=', 'URL=', 'NAV=', 'RESOURCES=', 'CONSOLE_ERRORS=', 'NETWORK_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: URL_PARAM,
      topResources: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'How many of the slowest resources to list.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: { type: 'integer', minimum: 0, maximum: 30000, default: 500, description: 'Milliseconds to wait after load, so late resources and the load event end are recorded.' },
    },
  },
  example: { url: 'http://127.0.0.1:8080/' },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    OPEN_AND_LOAD,
    LEARN_SECRET_FIELDS,
    String.raw`const nav = await pg.evaluate(() => {
  const t = /** @type {PerformanceNavigationTiming | undefined} */ (performance.getEntriesByType("navigation")[0]);
  if (!t) return null;
  const ms = (v) => Math.round(v);
  return { status: t.responseStatus || null, ttfb: ms(t.responseStart), domContentLoaded: ms(t.domContentLoadedEventEnd), load: ms(t.loadEventEnd), transferSize: t.transferSize, type: t.type };
});
console.log("NAV=" + JSON.stringify(nav));

const resources = await pg.evaluate((top) => {
  const list = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("resource"));
  return list
    .map((r) => ({ url: r.name, type: r.initiatorType, status: r.responseStatus || null, duration: Math.round(r.duration), size: r.transferSize }))
    .sort((a, b) => b.duration - a.duration)
    .slice(0, top);
}, PARAMS.topResources);
console.log("RESOURCES=" + JSON.stringify(resources));`,
    PRINT_CONSOLE_ERRORS,
    PRINT_NETWORK_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
