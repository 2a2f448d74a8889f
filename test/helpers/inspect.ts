// Reading back what a command produced, the way a reader (or a checker) sees it: a PDF's text,
// page count and metadata through poppler-utils (pdftotext, pdfinfo, pdfimages, pdftoppm); what
// its pages draw (the colours text is painted in, link targets, the outline) through pdf-lib;
// and an image's size from its PNG or JPEG header. The one inspection helper of every suite.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFString, PDFHexString, decodePDFRawStream } from 'pdf-lib';

// ---------------------------------------------------------------------------------- PDF text

/** pdfinfo's fields: Pages, Title, Tagged, Page size, ... */
export function pdfInfo(pdf: string): Record<string, string> {
  const out = execFileSync('pdfinfo', [pdf], { encoding: 'utf8' });
  const info: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const m = /^([^:]+):\s*(.*)$/.exec(line);
    if (m) info[m[1].trim()] = m[2].trim();
  }
  return info;
}

/** Text of one page (1-based) or of the whole document (pdftotext -layout). */
export function pdfText(pdf: string, page?: number): string {
  return execFileSync('pdftotext', [...pageRange(page), '-layout', pdf, '-'], { encoding: 'utf8' });
}

/** Text of each page (pdftotext -layout; pages end with a form feed). */
export function pageTexts(pdf: string): string[] {
  return pdfText(pdf).split('\f').slice(0, -1);
}

/** Text in content-stream order (-raw): rotated text such as a watermark comes out whole. */
export function rawPageTexts(pdf: string): string[] {
  return execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}

/** x of the left edge of every word on a page (default: on any page), in points (pdftotext -bbox). */
export function wordXs(pdf: string, page?: number): number[] {
  const bbox = execFileSync('pdftotext', ['-bbox', ...pageRange(page), pdf, '-'], { encoding: 'utf8' });
  return [...bbox.matchAll(/<word xMin="([\d.]+)"/g)].map((m) => Number(m[1]));
}

/** x of the leftmost word on a page (default: on any page), in points. */
export function leftmostWordX(pdf: string, page?: number): number {
  return Math.min(...wordXs(pdf, page));
}

export const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** pdfimages -list: one line per embedded image (page, num, type, width, height, ...). */
export function pdfImageList(pdf: string): string {
  return execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' });
}

/** One page as RGB pixels (pdftoppm at `dpi`), row by row, 3 bytes a pixel. */
export function pagePixels(pdf: string, page: number, dpi: number): { width: number; height: number; px: Buffer } {
  const ppm = execFileSync('pdftoppm', ['-r', String(dpi), ...pageRange(page), pdf]);
  const m = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 64).toString('latin1'));
  assert.ok(m, 'pdftoppm did not write a binary PPM');
  return { width: Number(m[1]), height: Number(m[2]), px: ppm.subarray(m[0].length) };
}

function pageRange(page: number | undefined): string[] {
  return page === undefined ? [] : ['-f', String(page), '-l', String(page)];
}

// --------------------------------------------------------------------- PDF structure (pdf-lib)

const loadPdf = (pdf: string) => PDFDocument.load(readFileSync(pdf), { updateMetadata: false });

export interface OutlineItem {
  title: string;
  children: OutlineItem[];
}

/** The PDF's document outline (bookmarks), read from the catalog's /Outlines tree. */
export async function pdfOutline(pdf: string): Promise<OutlineItem[]> {
  const doc = await loadPdf(pdf);
  const root = doc.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  const walk = (parent: PDFDict | undefined): OutlineItem[] => {
    const items: OutlineItem[] = [];
    let node = parent?.lookupMaybe(PDFName.of('First'), PDFDict);
    for (let guard = 0; node && guard < 10_000; guard++) {
      const t = node.lookup(PDFName.of('Title'));
      const title = t instanceof PDFString || t instanceof PDFHexString ? t.decodeText() : '';
      items.push({ title, children: walk(node) });
      node = node.lookupMaybe(PDFName.of('Next'), PDFDict);
    }
    return items;
  };
  return walk(root);
}

/** Titles of the outline, depth first. */
export async function outlineTitles(pdf: string): Promise<string[]> {
  const flat = (items: OutlineItem[]): string[] => items.flatMap((i) => [i.title, ...flat(i.children)]);
  return flat(await pdfOutline(pdf));
}

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
  const doc = await loadPdf(pdf);
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
  const doc = await loadPdf(pdf);
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

// ------------------------------------------------------------------------------------ images

/** Width and height of a PNG (IHDR) or JPEG (first SOFn marker), from a file or its bytes. */
export function imageSize(image: string | Buffer): { type: 'png' | 'jpeg'; width: number; height: number } {
  const b = typeof image === 'string' ? readFileSync(image) : image;
  if (b.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return { type: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i < b.length) {
      if (b[i] !== 0xff) throw new Error('bad JPEG marker');
      const marker = b[i + 1];
      const len = b.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { type: 'jpeg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      }
      i += 2 + len;
    }
  }
  throw new Error(`${typeof image === 'string' ? image : 'the image'} is neither PNG nor JPEG`);
}

const PNG_SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');

/** Width and height of an image that must be a PNG. */
export function pngSize(image: string | Buffer): { width: number; height: number } {
  const { type, width, height } = imageSize(image);
  assert.equal(type, 'png', `${typeof image === 'string' ? image : 'the image'} is not a PNG`);
  return { width, height };
}

/** The RGB colour of one pixel of a PNG (pngjs decodes it: every colour type and bit depth). */
export function pngPixel(image: string | Buffer, x: number, y: number): [number, number, number] {
  const png = PNG.sync.read(typeof image === 'string' ? readFileSync(image) : image);
  const i = (png.width * y + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
}
