// pdf: the page as the browser prints it.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, LEARN_SECRET_FIELDS, PRINT_CONSOLE_ERRORS, CLOSE_AND_FINISH, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const pdf: Shape = {
  name: 'pdf',
  summary: "PDF of a live page with the browser's print pipeline (for local HTML or Markdown files use `gstack render` / `gstack pdf`).",
  description:
    'Loads the page and prints it to a PDF under `pwd` with `pg.pdf()` (print media, so the page\'s print stylesheet applies), then prints its path. For a page on the web as the user sees it; to turn local HTML or Markdown into a document use `gstack render --pdf` or `gstack pdf`.',
  evidence: ['ASIDE_DIR=', 'URL=', 'TITLE=', 'PDF=', 'CONSOLE_ERRORS=', SENTINEL],
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: URL_PARAM,
      file: { type: 'string', pattern: '^[\\w.-]+\\.pdf$', default: 'page.pdf', description: 'PDF file name under `pwd`.' },
      format: { enum: ['A4', 'Letter', 'Legal', 'A3', 'A5', 'Tabloid'], default: 'A4', description: 'Paper size.' },
      landscape: { type: 'boolean', default: false, description: 'Landscape orientation.' },
      printBackground: { type: 'boolean', default: true, description: 'Print background colours and images.' },
      waitFor: WAIT_FOR_PARAM,
      settleMs: SETTLE_PARAM,
    },
  },
  example: { url: 'http://127.0.0.1:8080/' },
  body: script(
    EVIDENCE_HOOK,
    WAIT_FOR_READY,
    OPEN_AND_LOAD,
    LEARN_SECRET_FIELDS,
    String.raw`// Page members verified on Aside only (see the catalog): evaluate rather than pg.title().
console.log("TITLE=" + (await pg.evaluate(() => document.title)));
const file = path.join(pwd, PARAMS.file);
await pg.pdf({ path: file, format: PARAMS.format, landscape: PARAMS.landscape, printBackground: PARAMS.printBackground });
console.log("PDF=" + file);`,
    PRINT_CONSOLE_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
