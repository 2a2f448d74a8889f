// Where each heading landed in a printed PDF. Chromium writes a named destination for every
// element an internal link points at (the TOC links to each listed heading), so the PDF
// itself says on which page each heading is — no text extraction or guessing from layout.
import { createRequire } from 'node:module';
import type * as PdfLib from 'pdf-lib';

// Loaded with require() and only when a TOC needs it: pdf-lib is a large CommonJS bundle whose
// ESM import costs ~0.5 s (Node scans its whole re-export graph); require() halves that.
let pdfLib: typeof PdfLib | undefined;
function lib(): typeof PdfLib {
  return (pdfLib ??= createRequire(import.meta.url)('pdf-lib') as typeof PdfLib);
}

/** Pages in a PDF as Chromium (Skia) writes it: one uncompressed /Type /Page object each. */
export function countPages(pdf: Uint8Array): number {
  return (Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

/** PDF name bytes (#xx escapes) back to the UTF-8 string they encode. */
function decodePdfName(raw: string): string {
  const body = raw.startsWith('/') ? raw.slice(1) : raw;
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '#' && /^[0-9a-f]{2}$/i.test(body.slice(i + 1, i + 3))) {
      bytes.push(parseInt(body.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(body[i], 'latin1'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function destPageRef(doc: PdfLib.PDFDocument, value: unknown): PdfLib.PDFRef | undefined {
  const { PDFArray, PDFDict, PDFName, PDFRef } = lib();
  let dest = value instanceof PDFRef ? doc.context.lookup(value) : value;
  if (dest instanceof PDFDict) dest = dest.lookup(PDFName.of('D'));
  if (dest instanceof PDFArray) {
    const first = dest.get(0);
    if (first instanceof PDFRef) return first;
  }
  return undefined;
}

function namesFromTree(node: PdfLib.PDFDict, out: Array<[string, unknown]>): void {
  const { PDFArray, PDFDict, PDFName, PDFString, PDFHexString } = lib();
  const names = node.lookup(PDFName.of('Names'));
  if (names instanceof PDFArray) {
    for (let i = 0; i + 1 < names.size(); i += 2) {
      const key = names.lookup(i);
      const k = key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : String(key);
      out.push([k, names.get(i + 1)]);
    }
  }
  const kids = node.lookup(PDFName.of('Kids'));
  if (kids instanceof PDFArray) {
    for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) namesFromTree(kid, out);
    }
  }
}

export interface PdfLayout {
  /** Named destination (element id) -> 1-based page number. */
  pages: Map<string, number>;
}

export async function readPdfLayout(pdf: Uint8Array): Promise<PdfLayout> {
  const { PDFDict, PDFDocument, PDFName } = lib();
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const pageRefs = doc.getPages().map((p) => p.ref);
  const pageOf = (ref: PdfLib.PDFRef | undefined) => {
    if (!ref) return undefined;
    const i = pageRefs.findIndex((r) => r.objectNumber === ref.objectNumber && r.generationNumber === ref.generationNumber);
    return i < 0 ? undefined : i + 1;
  };
  const entries: Array<[string, unknown]> = [];
  // PDF 1.1 style /Dests dictionary (what Skia writes) ...
  const dests = doc.catalog.lookup(PDFName.of('Dests'));
  if (dests instanceof PDFDict) for (const [k, v] of dests.entries()) entries.push([decodePdfName(k.asString()), v]);
  // ... and the PDF 1.2 /Names /Dests tree, in case a future Chromium switches.
  const namesRoot = doc.catalog.lookup(PDFName.of('Names'));
  if (namesRoot instanceof PDFDict) {
    const tree = namesRoot.lookup(PDFName.of('Dests'));
    if (tree instanceof PDFDict) namesFromTree(tree, entries);
  }
  const pages = new Map<string, number>();
  for (const [name, value] of entries) {
    const page = pageOf(destPageRef(doc, value));
    if (page === undefined) continue;
    pages.set(name, page);
    // Chromium names a destination after the link's URL fragment, which is percent-encoded
    // for anything outside ASCII; the element id is the decoded form.
    try {
      pages.set(decodeURIComponent(name), page);
    } catch {
      /* not percent-encoded */
    }
  }
  return { pages };
}
