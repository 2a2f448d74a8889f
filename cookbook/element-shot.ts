// element-shot: a screenshot of one element, and its text.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, PRINT_CONSOLE_ERRORS, CLOSE_AND_FINISH, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const elementShot: Shape = {
  name: 'element-shot',
  summary: 'Screenshot of one element (CSS or Playwright selector), with its visible text.',
  description:
    'Loads the page, waits for the element to be visible, and writes a screenshot cropped to it, plus its visible text. The selector is a CSS or Playwright selector (`h1`, `#chart`, `text=Pricing`, `role=button[name="Save"]`); if several elements match, the first is taken and the count is said.',
  evidence: ['ASIDE_DIR=', 'URL=', 'TEXT_START', 'TEXT_END', 'SCREENSHOT=', 'CONSOLE_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'selector'],
    properties: {
      url: URL_PARAM,
      selector: { type: 'string', minLength: 1, description: 'CSS or Playwright selector of the element.' },
      file: { type: 'string', pattern: '^[\\w.-]+\\.png$', default: 'element.png', description: 'PNG file name under `pwd`.' },
      waitMs: { type: 'integer', minimum: 0, maximum: 60000, default: 5000, description: 'How long to wait for the element to be visible.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/', selector: 'h1' },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    OPEN_AND_LOAD,
    String.raw`const matches = pg.locator(PARAMS.selector);
const count = await matches.count();
if (count > 1) console.log("[" + count + " elements match " + PARAMS.selector + "; the first is shown]");
const el = matches.first();
await el.waitFor({ state: "visible", timeout: PARAMS.waitMs });
console.log("TEXT_START");
console.log(await el.innerText());
console.log("TEXT_END");
const file = path.join(pwd, PARAMS.file);
await el.screenshot({ path: file });
console.log("SCREENSHOT=" + file);`,
    PRINT_CONSOLE_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
