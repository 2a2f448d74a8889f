// Everything about a render spec that can be checked before a browser starts: the input file
// and the served root (real paths, no dot-paths), each step's options (PDF options resolved to
// print parameters once, here), and that no two steps write the same file. Problems are usage
// errors (exit 2).
import { realpath, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { RenderError } from '../api/errors.js';
import { stepLabel } from '../api/messages.js';
import { OptionError, fillUrlClass, resolvePdfParams, type PrintToPdfParams } from '../api/pdf-options.js';
import { pathToFileURL } from 'node:url';
import type { RenderSpec, RenderStep } from '../api/types.js';
import { isInside } from './server.js';
import { outputNameProblem } from '../api/output-names.js';

/** The names an --eval value may be written to: data a browser shows as text or an image,
 * never as a document of its own (an allow-list: `.shtm`, `.rss`, `.atom`, `.xsd` open as pages
 * that run scripts too; pass 29, B29). */
// No .md: an editor's Markdown preview, where such a file is read, loads the images it names,
// local files among them (pass 31, B31).
const EVAL_OUT_NAME = /\.(?:txt|text|json|jsonl|ndjson|csv|tsv|log|ya?ml|bin|png|jpe?g|gif|webp|pdf)$/i;


export interface Validated {
  file: string;
  root: string;
  steps: RenderStep[];
  outPaths: Array<string | undefined>;
  pdfParams: Array<PrintToPdfParams | undefined>;
}

/** A header's or footer's `url` elements show the document's address, not the render server's. */
function withShownUrl(params: PrintToPdfParams, shown: string): PrintToPdfParams {
  return { ...params, headerTemplate: fillUrlClass(params.headerTemplate, shown), footerTemplate: fillUrlClass(params.footerTemplate, shown) };
}

/** Everything that can be checked before a browser starts, as usage errors (exit 2). */
export async function validate(spec: RenderSpec): Promise<Validated> {
  const usage = (msg: string) => new RenderError(msg, 'USAGE');
  if (!spec.file) throw usage('no input file: name the HTML file to render');
  if (!spec.steps?.length) throw usage('nothing to do: add at least one step (--pdf OUT, --screenshot OUT or --eval JS)');

  // An address is not a file (trial V36: `gstack render http://…/demo.html?print-pdf` was read
  // as a relative path, and the error was about a --serve-root it was never given).
  const address = /^([a-z][a-z0-9+.-]*):\/\//i.exec(spec.file);
  if (address) {
    throw usage(
      address[1].toLowerCase() === 'file'
        ? `the input is a file path, not a file: URL: pass ${JSON.stringify(decodeURIComponent(spec.file.replace(/^file:\/\/(localhost)?/i, '')).replace(/[#?].*$/, ''))}.`
        : `the input is a local HTML file, not an address (${spec.file.slice(0, 80)}): render serves files from disk. Print a page of a site with the browse skill's pdf shape, \`gstack cookbook pdf --url URL --params '{"file":"page.pdf"}'\` (or a script's pg.pdf()), or save the page and render the file.`,
    );
  }
  const cwd = spec.cwd ?? process.cwd();
  const fileAbs = resolve(cwd, spec.file);
  const rootAbs = resolve(cwd, spec.serveRoot ?? dirname(fileAbs));
  let root: string;
  try {
    root = await realpath(rootAbs);
    if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw usage(`--serve-root ${spec.serveRoot ?? rootAbs} is not an existing directory`);
  }

  // The file may live only in memory (spec.files), keyed relative to the served root.
  const memoryKeys = new Set(Object.keys(spec.files ?? {}).map((k) => k.replace(/^\/+/, '')));
  const lexicalKey = relative(rootAbs, fileAbs).split(sep).join('/');
  let file: string;
  if (isInside(rootAbs, fileAbs) && memoryKeys.has(lexicalKey)) {
    file = join(root, ...lexicalKey.split('/'));
  } else {
    try {
      file = await realpath(fileAbs);
    } catch {
      // A file name with a fragment or a query (`wiki.html#Alpha`, trial V27): the input is a
      // file, not an address. Said when the part before it is a file, with the way to get there.
      const bare = /^(.+?)[#?]/.exec(spec.file)?.[1];
      if (bare && (await stat(resolve(cwd, bare)).catch(() => undefined))?.isFile()) {
        throw usage(`input file not found: ${spec.file} (looked at ${fileAbs}). The input is a file, not an address: it takes no #fragment or ?query. Render ${bare}, and reach the part you want in the page first with an --eval step before your --pdf or --screenshot (--eval 'location.hash = "…"', then, if the page draws it late, one that waits: --eval 'new Promise((r) => { const t = setInterval(() => document.querySelector("…") && (clearInterval(t), r(true)), 100) })').`);
      }
      throw usage(`input file not found: ${spec.file} (looked at ${fileAbs}). Check the path; relative paths are resolved from ${cwd}.`);
    }
    if (!(await stat(file)).isFile()) throw usage(`input is not a file: ${spec.file}. Name an .html file, not a directory.`);
    if (!isInside(root, file)) {
      throw usage(`--serve-root ${spec.serveRoot ?? root} must contain the input file ${spec.file} (it resolves to ${file}). Pass a serve root that is an ancestor of the file.`);
    }
  }
  const dotted = relative(root, file).split(sep).find((seg) => seg.startsWith('.'));
  if (dotted) {
    throw usage(`the input file ${spec.file} is under ${dotted} in the served root, and the render server never serves dot-paths. Pass --serve-root ${dirname(file)} (or another directory below ${dotted}).`);
  }

  const pdfParams: Array<PrintToPdfParams | undefined> = [];
  const outPaths: Array<string | undefined> = [];
  const seen = new Map<string, number>();
  spec.steps.forEach((step, i) => {
    const label = stepLabel(i, step.kind);
    try {
      pdfParams.push(step.kind === 'pdf' ? withShownUrl(resolvePdfParams(step), spec.shownUrl ?? pathToFileURL(file).href) : undefined);
    } catch (err) {
      if (err instanceof OptionError) throw usage(`${label}: ${err.message}`);
      throw err;
    }
    if (step.kind === 'screenshot') {
      for (const k of ['width', 'height'] as const) {
        const n = step[k];
        if (n !== undefined && !(Number.isInteger(n) && n > 0 && n <= 16384)) throw usage(`${label}: --${k} must be a whole number of CSS pixels from 1 to 16384 (got ${n})`);
      }
      if (step.quality !== undefined) {
        if (step.format !== 'jpeg') throw usage(`${label}: --quality applies to JPEG only; add --jpeg or drop --quality`);
        if (!(Number.isInteger(step.quality) && step.quality >= 0 && step.quality <= 100)) throw usage(`${label}: --quality must be 0 to 100`);
      }
    }
    if (step.kind === 'eval' && !step.expression?.trim()) throw usage(`${label}: the expression is empty`);
    const named = step.out === undefined || step.kind === 'eval' ? undefined : outputNameProblem(step.out, step.kind === 'pdf' ? 'pdf' : step.format === 'jpeg' ? 'jpeg' : 'png');
    if (named) throw usage(`${label}: ${named}`);
    // An eval value is the page's data. Written to a name a browser opens as a page (an SVG,
    // an HTML file), it runs and loads local files when opened from disk (pass 28, B28): the
    // commands that write such files clean them (diagram --svg, pdf --to html).
    if (step.kind === 'eval' && step.out !== undefined && !EVAL_OUT_NAME.test(step.out)) {
      throw usage(`${label}: --out ${step.out}: an --eval value is the page's data, written only to a name a browser shows as text or an image (.txt, .json, .csv, .yaml, .log, .bin; .png, .jpg, .gif, .webp, .pdf for a data: URL of one). A page's markup in an .svg, .html or other document opened from disk (or a .md an editor previews) loads local files and runs scripts: make a cleaned SVG with \`gstack diagram --svg\` or HTML with \`gstack pdf --to html\``);
    }
    const out = step.out === undefined ? undefined : resolve(cwd, step.out);
    if (out !== undefined) {
      if (seen.has(out)) throw usage(`${label} writes ${out}, which step ${seen.get(out)! + 1} also writes; give each step its own output file`);
      seen.set(out, i);
    }
    outPaths.push(out);
  });
  return { file, root, steps: spec.steps, outPaths, pdfParams };
}
