// What `gstack pdf` changes in the PDF Chromium printed, after the last pass: the Author field
// (Chromium fills only Title, from <title>; <meta name="author"> reaches no PDF field) and the
// depth of the outline (Chromium bookmarks every h1-h6; an API reference's dozens of
// "Parameters / Returns / Example" headings would bury the sections). Nothing else is touched:
// the page content, the structure tree (tagged PDF), links and named destinations are kept as
// they are. pdf-lib does the parsing and writing (already used to read the layout).
import { createRequire } from 'node:module';
import type * as PdfLib from 'pdf-lib';
import type { Heading } from './markdown.js';

let pdfLib: typeof PdfLib | undefined;
function lib(): typeof PdfLib {
  // require(), like make-pdf-pages.ts: pdf-lib's ESM import costs twice as much.
  return (pdfLib ??= createRequire(import.meta.url)('pdf-lib') as typeof PdfLib);
}

export interface PdfMetadataChanges {
  author?: string;
  /** Keep outline entries of headings up to this level (1-6). */
  outlineDepth?: number;
  /** The document's headings in order: the outline lists them in the same order, so entry i is
   * heading i and is kept by its heading level. */
  headings: Heading[];
}

export interface PdfMetadataResult {
  pdf: Uint8Array;
  /** Outline entries before and after (undefined: the PDF has no outline). */
  outline?: { before: number; after: number };
}

/** Whether `changes` would change anything for a document with these headings. */
export function needsMetadataPass(changes: PdfMetadataChanges): boolean {
  return !!changes.author || (changes.outlineDepth !== undefined && changes.headings.some((h) => h.level > changes.outlineDepth!));
}

export async function applyPdfMetadata(pdf: Uint8Array, changes: PdfMetadataChanges): Promise<PdfMetadataResult> {
  const { PDFDocument, PDFDict, PDFName } = lib();
  // updateMetadata: false keeps Chromium's Creator, Producer and dates.
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  if (changes.author) doc.setAuthor(changes.author);
  let outline: PdfMetadataResult['outline'];
  const root = doc.catalog.lookupMaybe(PDFName.of('Outlines'), PDFDict);
  if (root && changes.outlineDepth !== undefined) outline = pruneOutline(doc, root, changes.outlineDepth, changes.headings);
  // No object streams: the result reads like Chromium's own output (countPages relies on it).
  return { pdf: await doc.save({ useObjectStreams: false, updateFieldAppearances: false }), outline };
}

interface Item {
  dict: PdfLib.PDFDict;
  ref: PdfLib.PDFRef;
  children: Item[];
}

/**
 * Drops outline entries for headings deeper than `depth`, relinking what stays (First/Last,
 * Prev/Next, Count). Entries are matched to headings by order (Chromium lists every heading
 * once, in document order); if the counts differ, the tree depth stands in for the level.
 * A kept entry's parent is always kept: Chromium nests a heading under an earlier one of a
 * lower level.
 */
function pruneOutline(doc: PdfLib.PDFDocument, root: PdfLib.PDFDict, depth: number, headings: Heading[]): { before: number; after: number } {
  const { PDFDict, PDFName, PDFNumber, PDFRef } = lib();
  const N = (n: string) => PDFName.of(n);
  const read = (parent: PdfLib.PDFDict): Item[] => {
    const items: Item[] = [];
    let ref = parent.get(N('First'));
    for (let guard = 0; ref instanceof PDFRef && guard < 100_000; guard++) {
      const dict = doc.context.lookup(ref, PDFDict);
      items.push({ dict, ref, children: read(dict) });
      ref = dict.get(N('Next'));
    }
    return items;
  };
  const tree = read(root);
  const flat: Array<{ item: Item; treeDepth: number }> = [];
  const walk = (items: Item[], d: number) => items.forEach((item) => (flat.push({ item, treeDepth: d }), walk(item.children, d + 1)));
  walk(tree, 1);
  const byOrder = flat.length === headings.length;
  const level = new Map(flat.map(({ item, treeDepth }, i) => [item, byOrder ? headings[i].level : treeDepth]));

  const link = (parent: PdfLib.PDFDict, items: Item[]): number => {
    const kept = items.filter((it) => level.get(it)! <= depth);
    for (const k of [N('First'), N('Last')]) parent.delete(k);
    let visible = 0;
    kept.forEach((it, i) => {
      it.dict.delete(N('Prev'));
      it.dict.delete(N('Next'));
      if (i > 0) it.dict.set(N('Prev'), kept[i - 1].ref);
      if (i < kept.length - 1) it.dict.set(N('Next'), kept[i + 1].ref);
      const below = link(it.dict, it.children);
      // A positive Count is an open entry showing `below` descendants; a closed one is negative.
      const wasOpen = (it.dict.lookupMaybe(N('Count'), PDFNumber)?.asNumber() ?? 1) > 0;
      if (below > 0) it.dict.set(N('Count'), PDFNumber.of(wasOpen ? below : -below));
      else it.dict.delete(N('Count'));
      visible += 1 + (wasOpen ? below : 0);
    });
    if (kept.length) {
      parent.set(N('First'), kept[0].ref);
      parent.set(N('Last'), kept[kept.length - 1].ref);
    }
    return visible;
  };
  const visible = link(root, tree);
  if (visible > 0) root.set(N('Count'), PDFNumber.of(visible));
  else root.delete(N('Count'));
  const dropped = flat.filter(({ item }) => level.get(item)! > depth);
  for (const { item } of dropped) doc.context.delete(item.ref);
  return { before: flat.length, after: flat.length - dropped.length };
}
