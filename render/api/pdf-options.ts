// PDF step options -> one resolved parameter set (inches, booleans, templates), shared by
// both engines: Chromium passes it to Playwright's page.pdf, Aside sends it verbatim as the
// raw CDP Page.printToPDF params. Resolving once keeps the two engines' output identical.
import { parseDocument } from 'htmlparser2';
import renderDom from 'dom-serializer';
import { Element, Text, type ChildNode } from 'domhandler';
import { UsageError } from '../../driver/errors.js';
import type { Length, Margins, PdfStep } from './types.js';

/** Paper sizes in inches (portrait). ISO A sizes come from their exact millimetre sizes. */
const MM = 1 / 25.4;
export const PAPER_SIZES: Record<string, { width: number; height: number }> = {
  letter: { width: 8.5, height: 11 },
  legal: { width: 8.5, height: 14 },
  tabloid: { width: 11, height: 17 },
  ledger: { width: 17, height: 11 },
  a0: { width: 841 * MM, height: 1189 * MM },
  a1: { width: 594 * MM, height: 841 * MM },
  a2: { width: 420 * MM, height: 594 * MM },
  a3: { width: 297 * MM, height: 420 * MM },
  a4: { width: 210 * MM, height: 297 * MM },
  a5: { width: 148 * MM, height: 210 * MM },
  a6: { width: 105 * MM, height: 148 * MM },
};

const PER_INCH: Record<string, number> = { in: 1, mm: 25.4, cm: 2.54, pt: 72, px: 96 };

/** A print option with a bad value (exit USAGE); callers add which flag or step it was. */
export class OptionError extends UsageError {}

/** A CSS length to inches. Bare numbers are CSS px (as in Playwright and CSS). */
export function toInches(value: Length, what = 'length'): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new OptionError(`${what}: ${value} is not a non-negative length`);
    return value / 96;
  }
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(in|mm|cm|pt|px)?\s*$/i.exec(value);
  if (!m) throw new OptionError(`${what}: "${value}" is not a length; use a number with one of in, mm, cm, pt, px (e.g. 0.5in, 12mm)`);
  const unit = (m[2] ?? 'px').toLowerCase();
  return Number(m[1]) / PER_INCH[unit];
}

/** CSS-style margin shorthand ("1in", "1in 0.5in", "1in 2cm 1in", "t r b l"), or per side
 * (sides left out keep their defaults). */
export function parseMargins(value: Length | Margins): Margins {
  if (typeof value === 'object') return { ...value };
  const parts = typeof value === 'number' ? [value] : value.trim().split(/\s+/);
  if (parts.length < 1 || parts.length > 4 || parts[0] === '') {
    throw new OptionError(`margin: "${value}" must be 1 to 4 lengths (top right bottom left), e.g. "0.5in" or "1in 0.75in"`);
  }
  const [t, r = t, b = t, l = r] = parts;
  return { top: t, right: r, bottom: b, left: l };
}

/** "8.5x11" (inches) or "210mmx297mm". */
export function parsePaperIn(value: string): { width: Length; height: Length } {
  const m = /^\s*([\d.]+(?:in|mm|cm|pt|px)?)\s*[x×]\s*([\d.]+(?:in|mm|cm|pt|px)?)\s*$/i.exec(value);
  if (!m) throw new OptionError(`paper size "${value}" must be WIDTHxHEIGHT in inches, e.g. 8.5x11 (units in/mm/cm/pt allowed: 210mmx297mm)`);
  const unitless = (s: string): Length => (/[a-z]$/i.test(s) ? s : `${s}in`);
  return { width: unitless(m[1]), height: unitless(m[2]) };
}

/** The raw CDP Page.printToPDF parameters (all lengths in inches). */
export interface PrintToPdfParams {
  landscape: boolean;
  displayHeaderFooter: boolean;
  printBackground: boolean;
  scale: number;
  paperWidth: number;
  paperHeight: number;
  marginTop: number;
  marginBottom: number;
  marginLeft: number;
  marginRight: number;
  pageRanges: string;
  headerTemplate: string;
  footerTemplate: string;
  preferCSSPageSize: boolean;
  generateTaggedPDF: boolean;
  generateDocumentOutline: boolean;
}

// Named fonts: fontconfig's sans-serif (often DejaVu Sans) would embed one more font in most PDFs.
const FOOTER_STYLE = "box-sizing:border-box;width:100%;font-size:9px;font-family:'Liberation Sans',Arial,Helvetica,sans-serif;color:#555;padding:0 0.4in;";
export const PAGE_NUMBERS_HTML =
  '<span class="pageNumber"></span> of <span class="totalPages"></span>';
/** An empty template: Chromium prints date and title when a template is missing. */
const EMPTY_TEMPLATE = '<span></span>';

export function resolvePdfParams(step: PdfStep): PrintToPdfParams {
  let paper: { width: number; height: number };
  if (step.paperSize) {
    paper = { width: toInches(step.paperSize.width, 'paper width'), height: toInches(step.paperSize.height, 'paper height') };
  } else {
    const name = (step.paper ?? 'letter').toLowerCase();
    const known = PAPER_SIZES[name];
    if (!known) throw new OptionError(`unknown paper "${step.paper}"; use one of ${Object.keys(PAPER_SIZES).join(', ')} or --paper-in WxH`);
    paper = known;
  }
  if (paper.width <= 0 || paper.height <= 0) throw new OptionError('paper width and height must be greater than 0');

  let footer = step.footerTemplate;
  if (step.pageNumbers) {
    const numbers = `<div style="${FOOTER_STYLE}text-align:center;">${PAGE_NUMBERS_HTML}</div>`;
    footer = footer ? `<div style="width:100%;">${footer}${numbers}</div>` : numbers;
  }
  const header = step.headerTemplate;
  const displayHeaderFooter = header !== undefined || footer !== undefined;

  const defaults: Required<Margins> = displayHeaderFooter
    ? { top: '0.6in', right: '0.4in', bottom: '0.6in', left: '0.4in' }
    : { top: '0.4in', right: '0.4in', bottom: '0.4in', left: '0.4in' };
  const given = step.margin === undefined ? {} : parseMargins(step.margin);
  const margins = { ...defaults, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };

  const scale = step.scale ?? 1;
  if (!(scale >= 0.1 && scale <= 2)) throw new OptionError(`scale ${step.scale} is out of range; use 0.1 to 2`);
  if (step.pageRanges !== undefined && !/^\s*\d+(\s*-\s*\d*)?(\s*,\s*\d+(\s*-\s*\d*)?)*\s*$/.test(step.pageRanges)) {
    throw new OptionError(`page ranges "${step.pageRanges}" must look like "1-3, 5"`);
  }

  return {
    landscape: !!step.landscape,
    displayHeaderFooter,
    printBackground: !!step.printBackground,
    scale,
    paperWidth: paper.width,
    paperHeight: paper.height,
    marginTop: toInches(margins.top, 'margin top'),
    marginBottom: toInches(margins.bottom, 'margin bottom'),
    marginLeft: toInches(margins.left, 'margin left'),
    marginRight: toInches(margins.right, 'margin right'),
    pageRanges: step.pageRanges?.replace(/\s+/g, '') ?? '',
    headerTemplate: displayHeaderFooter ? header ?? EMPTY_TEMPLATE : '',
    footerTemplate: displayHeaderFooter ? footer ?? EMPTY_TEMPLATE : '',
    preferCSSPageSize: !!step.preferCSSPageSize,
    generateTaggedPDF: !!step.tagged,
    generateDocumentOutline: !!step.outline,
  };
}

/** A header or footer template with each element of class `url` filled with `shown`. Chromium
 * fills that class with the page's own address, which for a render is the loopback render
 * server's (`http://127.0.0.1:41234/gstack-doc.html`), an address no reader can open: the
 * element keeps its other classes and its styles, loses the class `url` (or Chromium would
 * write over it) and gets `shown` as its text. */
export function fillUrlClass(template: string, shown: string): string {
  if (!/\burl\b/.test(template)) return template;
  const doc = parseDocument(template);
  let changed = false;
  const visit = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!(node instanceof Element)) continue;
      const classes = (node.attribs.class ?? '').split(/\s+/).filter(Boolean);
      if (classes.includes('url')) {
        const rest = classes.filter((c) => c !== 'url');
        if (rest.length) node.attribs.class = rest.join(' ');
        else delete node.attribs.class;
        const text = new Text(shown);
        text.parent = node;
        node.children = [text];
        changed = true;
      } else visit(node.children);
    }
  };
  visit(doc.children);
  return changed ? renderDom(doc, { encodeEntities: 'utf8' }) : template;
}

/** The same parameters in Playwright's page.pdf option shape. */
export function toPlaywrightPdfOptions(p: PrintToPdfParams) {
  const inch = (n: number) => `${n}in`;
  return {
    landscape: p.landscape,
    displayHeaderFooter: p.displayHeaderFooter,
    printBackground: p.printBackground,
    scale: p.scale,
    width: inch(p.paperWidth),
    height: inch(p.paperHeight),
    margin: { top: inch(p.marginTop), bottom: inch(p.marginBottom), left: inch(p.marginLeft), right: inch(p.marginRight) },
    pageRanges: p.pageRanges,
    headerTemplate: p.headerTemplate,
    footerTemplate: p.footerTemplate,
    preferCSSPageSize: p.preferCSSPageSize,
    tagged: p.generateTaggedPDF,
    outline: p.generateDocumentOutline,
  };
}
