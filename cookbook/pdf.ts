// pdf: the page as the browser prints it.
import type { Shape } from './types.js';
import { SENTINEL } from '../driver/catalog.gen.js';
import { EVIDENCE_HOOK, WAIT_FOR_READY, WAIT_FOR_PARAM, OPEN_AND_LOAD, LEARN_SECRET_FIELDS, PRINT_CONSOLE_ERRORS, CLOSE_AND_FINISH, SETTLE_PARAM, URL_PARAM, script } from './snippets.js';

export const pdf: Shape = {
  name: 'pdf',
  summary: "PDF of a live page with the browser's print pipeline (for local HTML or Markdown files use `gstack render` / `gstack pdf`).",
  description:
    'Loads the page and prints it to a PDF under `pwd` with `pg.pdf()` (print media, so the page\'s print stylesheet applies), then prints its path. For a page on the web as the user sees it; to turn local HTML or Markdown into a document use `gstack render --pdf` or `gstack pdf`. Look at the result (a page as an image, or `pdftotext -layout`): a site without a print stylesheet prints its sidebar and toolbars as on screen, which `hide` leaves out (and `css` gives the text the room it took); a slide deck with its own print layout sizes its pages with CSS, which `preferCSSPageSize` keeps (reveal.js: `?print-pdf&pdfSeparateFragments=false&pdfMaxPagesPerSlide=1` for one page a slide, else each fragment step and each overflow gets a page of its own, and `waitFor` `{"selector": ".pdf-page"}`); an app laid out wider than the paper (a grid of columns) loses its right-hand columns off the page: `landscape`, or a larger `format`.',
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
      margin: { type: 'string', pattern: '^\\d+(\\.\\d+)?(mm|cm|in|px)$', default: '10mm', description: "Blank margin on every side of each page (`0mm` for none: the browser prints none unless asked, and text then runs to the paper's edge). A page's own CSS `@page { margin }` wins." },
      printBackground: { type: 'boolean', default: true, description: 'Print background colours and images.' },
      preferCSSPageSize: { type: 'boolean', default: false, description: "Let the page's CSS `@page` size win over `format` (slide decks' print layouts)." },
      pageRanges: { type: 'string', pattern: '^$|^\\s*\\d+(\\s*-\\s*\\d+)?(\\s*,\\s*\\d+(\\s*-\\s*\\d+)?)*\\s*$', default: '', description: 'Print only these pages, e.g. `1-3,5`. Empty: all.' },
      hide: { type: 'array', items: { type: 'string', minLength: 1 }, default: [], description: 'CSS selectors of parts to leave out of the print (a sidebar, a cookie banner, a toolbar), e.g. `[".sidebar", "header nav"]`.' },
      css: { type: 'string', default: '', description: 'More CSS for the print, e.g. to give the text the width a hidden sidebar left: `".content { left: 0 !important; margin: 0 !important; } pre { white-space: pre-wrap; }"`.' },
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
// Parts of the page the print leaves out (a sidebar that would take a column on every page).
if (PARAMS.hide.length || PARAMS.css) {
  const hidden = PARAMS.hide.length ? PARAMS.hide.join(", ") + " { display: none !important; } " : "";
  // A style element through evaluate (addStyleTag is not verified on Aside).
  await pg.evaluate((css) => {
    const style = document.createElement("style");
    style.textContent = css;
    document.head.append(style);
  }, "@media print { " + hidden + PARAMS.css + " }");
}
await pg.pdf({
  path: file,
  format: PARAMS.format,
  landscape: PARAMS.landscape,
  margin: { top: PARAMS.margin, right: PARAMS.margin, bottom: PARAMS.margin, left: PARAMS.margin },
  printBackground: PARAMS.printBackground,
  preferCSSPageSize: PARAMS.preferCSSPageSize,
  pageRanges: PARAMS.pageRanges,
});
console.log("PDF=" + file);
// A page with nothing to print still makes a PDF, and the call passes (trial V38: an email
// client's HTML view of a text-only email answered an empty document).
const drawn = await pg.evaluate(() => (document.body ? document.body.innerText.trim().length : 0) + document.querySelectorAll("img, svg, canvas, video, iframe, embed, object").length);
if (!drawn) console.log("[the page has no text and no pictures: the PDF is blank. Check the address (an app's view may answer an empty page), or pass waitFor for what it draws late]");`,
    PRINT_CONSOLE_ERRORS,
    CLOSE_AND_FINISH,
  ),
};
