// `gstack pdf`: Markdown -> sanitized, self-contained HTML -> PDF through render(spec).
// Stages: parse (markdown-it + sanitizer + asset policy), assemble (cover, TOC, print CSS),
// render (mermaid figures drawn in the page, then printed). With a TOC the document is
// printed at least twice (up to MAX_TOC_PASSES): the first PDF says on which page each heading
// landed (named destinations), each later one carries those numbers and is checked against
// itself until nothing moves.
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { flagGroup } from '../../driver/catalog.js';
import { StrictAssetError, type RemoteImages } from './assets.js';
import { convertOffThread } from './convert.js';
import { applyPdfMetadata, needsMetadataPass } from './pdf-metadata.js';
import { frontMatter } from './markdown.js';
import { buildDocument, fileCsp, tocHeadings, type DocumentOptions, type DocumentParts } from './document.js';
import { BOOT_SCRIPT, MERMAID_READY_SELECTOR, mermaidBootScript, mermaidDistDir } from '../mermaid/mermaid-page.js';
import { SANS } from '../page/fonts.js';
import { countPages, readPdfLayout } from './make-pdf-pages.js';
import { OptionError } from '../api/pdf-options.js';
import { PRINT_GROUP, RenderUsageError, printStep, type Value } from '../cli/cli-args.js';
import { RenderError } from '../api/errors.js';
import { inputProblem, MAX_RENDER_INPUT_BYTES } from '../api/inputs.js';
import { outputNameProblem } from '../api/output-names.js';
import { readRegularFile } from '../../driver/read-file.js';
import { noticeLine, stripControls } from '../../driver/runtime/output.js';
import type { PdfStep, RenderCallOptions, RenderEngineChoice, RenderStep } from '../api/types.js';
import { render } from '../index.js';
import { checkOutputsWritable, writeOutputFile } from '../orchestrate/outputs.js';

export interface MakePdfOptions extends RenderCallOptions {
  input: string;
  /** Default: the input's path with .pdf (or .html). */
  output?: string;
  to?: 'pdf' | 'html';
  cover?: boolean;
  toc?: boolean;
  tocDepth?: number;
  /** Deepest heading level the PDF outline (bookmarks) lists; default: tocDepth. */
  outlineDepth?: number;
  /** What remote images become: a "blocked" placeholder (default; loaded with allowNetwork),
   * their alt text, or nothing. */
  remoteImages?: RemoteImages;
  chapterBreaks?: boolean;
  /** The print options shared with `gstack render --pdf`, by flag name (`paper`, `margin`,
   * `header`, `page-numbers`, `tagged`, ...): the catalog's "print" flag group. Options left
   * out take that group's defaults. */
  print?: Record<string, Value | undefined>;
  /** Print each external link's URL after its text (paper keeps no links). */
  printUrls?: boolean;
  watermark?: string;
  title?: string;
  author?: string;
  date?: string;
  lang?: string;
  allowNetwork?: boolean;
  strict?: boolean;
}

export interface DiagramProblem {
  index: number;
  line: number;
  message: string;
}

export interface MakePdfResult {
  output: string;
  format: 'pdf' | 'html';
  pages?: number;
  /** Heading id -> page, as printed in the TOC (PDF with --toc only). */
  tocPages?: Map<string, number>;
  diagrams: number;
  diagramErrors: DiagramProblem[];
  notices: string[];
  /** Links to anchors the document lacks (`#name`), each warned about once on stderr. */
  brokenAnchors: string[];
  /** Outline entries Chromium wrote and those kept (PDF with an outline only). */
  outline?: { before: number; after: number };
  renderPasses: number;
  durationMs: number;
}

const MAX_TOC_PASSES = 3;

/** Usage problems (bad option values, missing input) exit 2, like render's. */
function usage(msg: string): RenderError {
  return new RenderError(msg, 'USAGE');
}

function today(): string {
  return new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export async function makePdf(opts: MakePdfOptions): Promise<MakePdfResult> {
  const started = Date.now();
  // One line each, whatever a notice quotes (a name with a line break: noticeLine).
  const progress = opts.onProgress;
  const say = (line: string) => progress?.(noticeLine(line));
  const to = opts.to ?? 'pdf';
  const cwd = opts.cwd ?? process.cwd();
  const input = resolve(cwd, opts.input);
  const read = await readRegularFile(input, MAX_RENDER_INPUT_BYTES);
  if (!read.ok) throw usage(inputProblem(opts.input, input, read));
  const source = read.bytes.toString('utf8');
  const output = resolve(cwd, opts.output ?? join(dirname(input), basename(input, extname(input)) + (to === 'html' ? '.html' : '.pdf')));
  const named = outputNameProblem(output, to === 'html' ? 'html' : 'pdf');
  if (named) throw usage(`${named}${to === 'pdf' && /\.html?$/i.test(output) ? '; for HTML, add --to html' : ''}`);
  const tocDepth = opts.tocDepth ?? 3;
  if (!(Number.isInteger(tocDepth) && tocDepth >= 1 && tocDepth <= 6)) throw usage(`--toc-depth ${opts.tocDepth}: use 1 to 6`);
  // The output is checked before anything renders (a FIFO there is a usage error, not a hang).
  await checkOutputsWritable([output]);
  const outlineDepth = opts.outlineDepth ?? tocDepth;
  if (!(Number.isInteger(outlineDepth) && outlineDepth >= 1 && outlineDepth <= 6)) throw usage(`--outline-depth ${opts.outlineDepth}: use 1 to 6`);
  const remoteImages = opts.remoteImages ?? 'placeholder';
  if (!['placeholder', 'alt', 'omit'].includes(remoteImages)) throw usage(`--remote-images ${remoteImages}: use placeholder, alt or omit`);
  let printed: PdfStep;
  try {
    printed = printStep(new Map(Object.entries(opts.print ?? {})), flagGroup(PRINT_GROUP), cwd);
  } catch (err) {
    if (err instanceof RenderUsageError || err instanceof OptionError) throw usage(err.message);
    throw err;
  }

  // Stage 1: parse, sanitize, resolve assets.
  let t = Date.now();
  // In a worker thread: the render host's loop stays free for every other session meanwhile.
  let stage1;
  try {
    stage1 = await convertOffThread({ source, baseDir: dirname(input), allowNetwork: !!opts.allowNetwork, strict: !!opts.strict, remoteImages, printUrls: !!opts.printUrls, fileLinks: to === 'pdf' ? 'text' : 'keep' }, opts.timeoutMs, opts.signal);
  } catch (err) {
    if (err instanceof StrictAssetError) throw new RenderError(`${basename(input)}: ${err.message}`);
    throw err;
  }
  const { converted } = stage1;
  const policy = { notices: stage1.notices, droppedImages: stage1.droppedImages };
  for (const n of policy.notices) say(`gstack pdf: ${n.message}`);
  if (policy.droppedImages.length) {
    const what = remoteImages === 'alt' ? 'shown as their alt text' : 'left out';
    say(`gstack pdf: ${policy.droppedImages.length} remote image${policy.droppedImages.length === 1 ? '' : 's'} ${what} (--remote-images ${remoteImages})`);
  }
  if (stage1.textLinks.length) {
    const shown = stage1.textLinks.slice(0, 3).map((l) => stripControls(l)).join(', ');
    say(`gstack pdf: ${stage1.textLinks.length} link${stage1.textLinks.length === 1 ? '' : 's'} to a local file printed as plain text (${shown}${stage1.textLinks.length > 3 ? ', …' : ''}): a PDF cannot open a file beside it; link a web address or a #heading, or render with --to html`);
  }
  // The link stays as written (a reader's viewer goes nowhere); the source is what to fix.
  for (const b of converted.brokenAnchors) {
    say(`gstack pdf: warning: link to missing anchor #${b.anchor}${b.line ? ` (${basename(input)} line ${b.line})` : ''}: no heading or element has that id; fix the link or the heading`);
  }
  say(
    `gstack pdf: parsed ${basename(input)} in ${Date.now() - t} ms: ${converted.headings.length} headings, ` +
      `${converted.diagrams.length} diagram${converted.diagrams.length === 1 ? '' : 's'}, ${policy.notices.length} blocked or missing resource${policy.notices.length === 1 ? '' : 's'}`,
  );

  const meta = frontMatter(source, (problem) => say(`gstack pdf: warning: ${problem}`));
  // The PDF's Title and Author fields are shown by `pdfinfo` and file managers: the terminal
  // filter's rule holds there too (no escape sequences, bidi overrides or invisible characters).
  const field = (v: string | undefined) => (v === undefined ? undefined : stripControls(v));
  const docOpts: DocumentOptions = {
    title: stripControls(opts.title ?? meta.title ?? converted.firstH1 ?? basename(input, extname(input))),
    author: field(opts.author ?? meta.author),
    date: opts.date ?? meta.date ?? (opts.cover ? today() : undefined),
    lang: opts.lang ?? meta.lang,
    cover: !!opts.cover,
    toc: !!opts.toc,
    tocDepth,
    chapterBreaks: opts.chapterBreaks ?? true,
    watermark: opts.watermark,
    allowNetwork: !!opts.allowNetwork,
    withMermaid: converted.diagrams.length > 0,
    tocNumbers: to === 'pdf',
    // The document numbers its own pages (CSS page-margin boxes), so the cover and contents
    // pages can stay unnumbered; Chromium's footer template would number every page.
    pageNumbers: to === 'pdf' && !!printed.pageNumbers,
    pageNumbersBelowFooter: printed.footerTemplate !== undefined,
  };
  const parts: DocumentParts = { bodyHtml: converted.html, headings: converted.headings, notices: policy.notices };
  const result: MakePdfResult = {
    output,
    format: to,
    diagrams: converted.diagrams.length,
    diagramErrors: [],
    notices: policy.notices.map((n) => n.message),
    brokenAnchors: converted.brokenAnchors.map((b) => b.anchor),
    renderPasses: 0,
    durationMs: 0,
  };

  // No diagrams and HTML out: nothing needs a browser.
  if (to === 'html' && !docOpts.withMermaid) {
    await writeOutputFile(output, buildDocument(parts, { ...docOpts, asFile: true }));
    say(`gstack pdf: wrote ${output} (${Date.now() - started} ms)`);
    result.durationMs = Date.now() - started;
    return result;
  }

  // Layout passes print every page (the TOC needs them all); --page-ranges applies to the last.
  const pdfStep: PdfStep = { ...printed, pageNumbers: false, pageRanges: undefined };
  const distDir = mermaidDistDir();
  const boot = mermaidBootScript({ fontFamily: SANS }, false);
  let reportedDiagrams = false;
  // Later passes run on the engine the first one settled on (no second probe or fallback note).
  let engine: RenderEngineChoice = opts.engine ?? 'auto';

  /** One render of the page: diagrams drawn, then the PDF (or the finished HTML). */
  const pass = async (html: string, label: string, pageRanges?: string): Promise<{ pdf?: Buffer; html?: string }> => {
    t = Date.now();
    const steps: RenderStep[] = [];
    if (docOpts.withMermaid) steps.push({ kind: 'eval', expression: 'window.__gstackMermaid.errors' });
    if (to === 'pdf') steps.push({ ...pdfStep, pageRanges });
    else steps.push({ kind: 'eval', expression: standaloneHtmlExpr(fileCsp(!!opts.allowNetwork)) });
    const r = await render({
      file: join(distDir, 'gstack-doc.html'),
      serveRoot: distDir,
      shownUrl: pathToFileURL(input).href,
      files: { 'gstack-doc.html': html, [BOOT_SCRIPT]: boot },
      steps,
      waits: docOpts.withMermaid ? { selector: MERMAID_READY_SELECTOR, timeoutMs: opts.timeoutMs } : undefined,
      timeoutMs: opts.timeoutMs,
      engine,
      allowNetwork: !!opts.allowNetwork,
      onBlockedRequest: (url) => say(`gstack pdf: blocked request to ${url} (pass --allow-network to allow it)`),
      onProgress: (line) => say(line),
      env: opts.env,
      signal: opts.signal,
    });
    result.renderPasses++;
    engine = r.engine;
    if (docOpts.withMermaid && !reportedDiagrams) {
      reportedDiagrams = true;
      const errors = (r.evals[0]?.value ?? []) as Array<{ index: number; message: string }>;
      result.diagramErrors = errors.map((e) => ({ ...e, line: converted.diagrams[e.index]?.line ?? 0 }));
      for (const e of result.diagramErrors) say(`gstack pdf: diagram ${e.index + 1} (${basename(input)} line ${e.line}) could not be rendered; a diagnostic block shows in its place: ${oneLine(e.message)}`);
    }
    for (const pe of r.pageErrors) say(`gstack pdf: page error (untrusted page text): ${oneLine(pe)}`);
    say(`gstack pdf: ${label} on ${r.engine} in ${Date.now() - t} ms`);
    if (to === 'pdf') return { pdf: r.artifacts.find((a) => a.kind === 'pdf')?.data };
    return { html: String(r.evals[r.evals.length - 1]?.value ?? '') };
  };

  if (to === 'html') {
    const { html } = await pass(buildDocument(parts, docOpts), 'diagrams rendered');
    await writeOutputFile(output, html!);
  } else {
    const listed = docOpts.toc ? tocHeadings(converted.headings, tocDepth) : [];
    const ranges = printed.pageRanges;
    let { pdf } = await pass(buildDocument(parts, docOpts), listed.length ? 'layout pass 1 printed' : 'printed', listed.length ? undefined : ranges);
    if (listed.length) {
      let layout = await readPdfLayout(pdf!);
      for (let n = 2; ; n++) {
        const numbers = new Map(listed.map((h) => [h.id, layout.pages.get(h.id)!] as const).filter(([, p]) => p !== undefined));
        ({ pdf } = await pass(buildDocument(parts, docOpts, numbers), `pass ${n} printed with TOC page numbers`));
        const check = await readPdfLayout(pdf!);
        const moved = listed.filter((h) => check.pages.get(h.id) !== numbers.get(h.id));
        layout = check;
        result.tocPages = numbers;
        if (moved.length === 0) break;
        if (n >= MAX_TOC_PASSES) {
          say(`gstack pdf: warning: ${moved.length} TOC entries still moved after ${n} passes (first: "${moved[0].text}")`);
          break;
        }
      }
      const unplaced = listed.filter((h) => !layout.pages.has(h.id));
      if (unplaced.length) say(`gstack pdf: warning: ${unplaced.length} headings not found in the PDF; their TOC entries have no page number`);
      if (ranges) ({ pdf } = await pass(buildDocument(parts, docOpts, result.tocPages), `pages ${ranges} printed`, ranges));
    }
    const author = docOpts.author;
    const outlineOn = !!printed.outline;
    const changes = { author, outlineDepth: outlineOn ? outlineDepth : undefined, headings: converted.headings };
    if (needsMetadataPass(changes)) {
      t = Date.now();
      const done = await applyPdfMetadata(pdf!, changes);
      pdf = Buffer.from(done.pdf);
      result.outline = done.outline;
      const parts = [author ? 'author set' : '', done.outline ? `outline ${done.outline.after} of ${done.outline.before} headings (levels 1-${outlineDepth})` : ''].filter(Boolean);
      say(`gstack pdf: ${parts.join(', ')} in ${Date.now() - t} ms`);
    }
    result.pages = countPages(pdf!);
    await writeOutputFile(output, pdf!);
  }
  result.durationMs = Date.now() - started;
  say(`gstack pdf: wrote ${output}${result.pages ? ` (${result.pages} pages)` : ''} in ${result.durationMs} ms`);
  return result;
}

/** The page after mermaid ran, as a standalone file: diagrams are inline SVG, so the scripts
 * go, and the page's CSP (which allowed the render server's scripts) is replaced by the file's
 * (document.ts fileCsp), put first in <head>. */
function standaloneHtmlExpr(policy: string): string {
  return `(() => {
  const root = document.documentElement.cloneNode(true);
  for (const s of root.querySelectorAll('script')) s.remove();
  for (const m of root.querySelectorAll('meta[http-equiv]')) if (m.getAttribute('http-equiv').toLowerCase() === 'content-security-policy') m.remove();
  const meta = document.createElement('meta');
  meta.setAttribute('http-equiv', 'Content-Security-Policy');
  meta.setAttribute('content', ${JSON.stringify(policy)});
  root.querySelector('head').prepend(meta);
  return '<!doctype html>\\n' + root.outerHTML + '\\n';
})()`;
}
