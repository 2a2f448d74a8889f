// annotated: a screenshot with every interactive ref drawn on it, next to the snapshot.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, PRINT_CONSOLE_ERRORS, CLOSE_AND_FINISH, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const annotated: Shape = {
  name: 'annotated',
  summary: 'Annotated screenshot: the ref label of every interactive element drawn on the page, plus the snapshot it matches.',
  description:
    'Loads the page, prints the interactive snapshot, then writes `annotated.png` with each ref label drawn over its element, so refs can be matched to what a person (or a vision model) sees. Use it when the snapshot alone does not tell which of several similar controls is which.',
  evidence: ['ASIDE_DIR=', 'URL=', 'SNAPSHOT_START', 'SNAPSHOT_END', 'SCREENSHOT=', 'CONSOLE_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: URL_PARAM,
      file: { type: 'string', pattern: '^[\\w.-]+\\.png$', default: 'annotated.png', description: 'PNG file name under `pwd`.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/form.html' },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    OPEN_AND_LOAD,
    String.raw`const snap = await snapshot(pg, { interactive: true });
console.log("SNAPSHOT_START");
console.log(snap.tree);
console.log("SNAPSHOT_END");

const { base64Image } = await annotatedScreenshot(pg);
const file = path.join(pwd, PARAMS.file);
await fs.writeFile(file, Buffer.from(base64Image, "base64"));
console.log("SCREENSHOT=" + file);`,
    PRINT_CONSOLE_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
