// Reading a PDF back the way a reader (or a checker) sees it: its text per page through
// poppler-utils (pdftotext, pdfinfo), and what its pages draw (the colours text is painted in,
// link targets) through pdf-lib. Shared by the `gstack pdf` / `gstack render` suites.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFString, PDFHexString, decodePDFRawStream } from 'pdf-lib';

/** Text of each page (pdftotext -layout; pages end with a form feed). */
export function pageTexts(pdf: string): string[] {
  return execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}

/** Text in content-stream order (-raw): rotated text such as a watermark comes out whole. */
export function rawPageTexts(pdf: string): string[] {
  return execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}

export function pdfinfo(pdf: string): Record<string, string> {
  const out = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  return Object.fromEntries(out.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
}

/** x of the leftmost word on a page (default: on any page), in points (pdftotext -bbox). */
export function leftmostWordX(pdf: string, page?: number): number {
  const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
  const bbox = execFileSync('pdftotext', ['-bbox', ...range, pdf, '-'], { encoding: 'utf8' });
  return Math.min(...[...bbox.matchAll(/<word xMin="([\d.]+)"/g)].map((m) => Number(m[1])));
}

export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Whether a set of PDF `r g b` colours (0-1 each) holds this CSS hex colour (within rounding). */
export function hasColour(colours: Iterable<string>, hex: string): boolean {
  const want = [0, 1, 2].map((i) => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255);
  for (const c of colours) {
    const got = c.split(' ').map(Number);
    if (got.every((v, i) => Math.abs(v - want[i]) < 0.002)) return true;
  }
  return false;
}

/** What each page's content stream draws: the fill colours text is shown in, and every colour set. */
export interface PageInk {
  textColours: Set<string>;
  allColours: Set<string>;
}

export async function pageInk(pdf: string): Promise<PageInk[]> {
  const doc = await PDFDocument.load(await readFile(pdf), { updateMetadata: false });
  return doc.getPages().map((page) => {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
    const ink: PageInk = { textColours: new Set(), allColours: new Set() };
    for (const ref of refs) {
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const ops = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
      let fill = '0 0 0';
      for (const m of ops.matchAll(/([-\d.]+ [-\d.]+ [-\d.]+) (rg|RG)\b|\b(Tj|TJ)\b/g)) {
        if (m[1]) {
          ink.allColours.add(m[1]);
          if (m[2] === 'rg') fill = m[1];
        } else ink.textColours.add(fill);
      }
    }
    return ink;
  });
}

/** The URI of every link annotation, in page order. */
export async function linkUris(pdf: string): Promise<string[]> {
  const doc = await PDFDocument.load(await readFile(pdf), { updateMetadata: false });
  const uris: string[] = [];
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (!(annots instanceof PDFArray)) continue;
    for (let i = 0; i < annots.size(); i++) {
      const a = annots.lookup(i);
      const action = a instanceof PDFDict ? a.lookup(PDFName.of('A')) : undefined;
      const uri = action instanceof PDFDict ? action.lookup(PDFName.of('URI')) : undefined;
      if (uri instanceof PDFString || uri instanceof PDFHexString) uris.push(uri.decodeText());
    }
  }
  return uris;
}

/** Titles of the PDF's outline (bookmarks), depth first. */
export async function outlineTitles(pdf: string): Promise<string[]> {
  const doc = await PDFDocument.load(await readFile(pdf), { updateMetadata: false });
  const root = doc.catalog.lookup(PDFName.of('Outlines'));
  const titles: string[] = [];
  const walk = (node: unknown) => {
    while (node instanceof PDFDict) {
      const t = node.lookup(PDFName.of('Title'));
      if (t instanceof PDFString || t instanceof PDFHexString) titles.push(t.decodeText());
      walk(node.lookup(PDFName.of('First')));
      node = node.lookup(PDFName.of('Next'));
    }
  };
  if (root instanceof PDFDict) walk(root.lookup(PDFName.of('First')));
  return titles;
}
