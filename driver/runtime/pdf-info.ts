// The text strings of a PDF a reader shows (its document information, bookmarks, alt text and
// language tags) as the terminal filter would print them. Chromium copies a page's `document.title` into the Title
// of every PDF it prints, and `pdfinfo`, file managers and PDF viewers show it: a page must not
// put a bidi override (`Invoice ‮fdp.exe`), Unicode tags or C1 controls there any more than on
// a line of output (docs/SECURITY.md, "hide text from a person" and "put terminal controls on
// screen"). Every PDF printed from page content passes here: a script's `pg.pdf()`, the
// `cookbook pdf` shape through it, and `gstack render --pdf`.
//
// Most PDFs need nothing: the fields are read straight from the bytes (Chromium's PDF writer,
// Skia, keeps the information dictionary uncompressed and writes no object streams), and only a
// PDF whose fields the filter would change, or that cannot be read that way, is loaded and
// written again with pdf-lib (a full parse and write, tens of milliseconds a page).
import { createRequire } from 'node:module';
import type * as PdfLib from 'pdf-lib';
import { anySecretsSeen, cutSeenSecrets, shownLine, stripControls } from './output.js';

let pdfLib: typeof PdfLib | undefined;
function lib(): typeof PdfLib {
  // require(): pdf-lib's ESM import costs twice as much, and most calls never need it.
  return (pdfLib ??= createRequire(import.meta.url)('pdf-lib') as typeof PdfLib);
}

/** The text strings of a PDF a reader shows a person: the document information (Title, Author,
 * Subject, Keywords), every bookmark's Title (Chromium makes the outline from the page's
 * headings), the alternative and replacement text of tagged content (an image's alt becomes
 * /Alt), a form control's accessible name (/Desc, /TU) and the language tags. */
const TEXT_KEYS = ['Title', 'Author', 'Subject', 'Keywords', 'Alt', 'ActualText', 'Lang', 'Desc', 'TU'];

/** Unlinks from their pages the link annotations a clean left with nothing to do (no action,
 * no destination): poppler's `pdfinfo -url` crashes on one (SIGSEGV), and then lists none of
 * the file's links, the kept web links included (pass 44, B44). The object stays (a tagged
 * PDF's structure may point to it); only the page no longer shows it. True when one went. */
function unlinkBareLinks(doc: PdfLib.PDFDocument): boolean {
  const { PDFDict, PDFArray, PDFName } = lib();
  let changed = false;
  for (const page of doc.getPages()) {
    const annots = page.node.Annots();
    if (!(annots instanceof PDFArray)) continue;
    const kept = annots.asArray().filter((entry) => {
      const a = doc.context.lookup(entry);
      if (!(a instanceof PDFDict)) return true;
      const subtype = a.get(PDFName.of('Subtype'));
      if (!(subtype instanceof PDFName) || subtype.asString() !== '/Link') return true;
      const action = doc.context.lookup(a.get(PDFName.of('A')));
      const acts = action instanceof PDFDict && action.entries().length > 0;
      return acts || a.get(PDFName.of('Dest')) !== undefined;
    });
    if (kept.length === annots.size()) continue;
    page.node.set(PDFName.of('Annots'), doc.context.obj(kept));
    changed = true;
  }
  return changed;
}

/** The PDF with those strings made terminal-safe; the same bytes when they are. */
export async function cleanPdfInfo<T extends Uint8Array>(pdf: T): Promise<T | Buffer> {
  const raw = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const values = readInfoFields(raw);
  // A field is shown as a printed line is (shownLine): terminal-safe and cut of the secret
  // values the call has seen, so a page's password in its title is cut in the PDF's Title as in
  // `TITLE=` (pass 30, A30). A link the page made to a local file or a program (`file:`,
  // `javascript:`, `smb:`, `ms-msdt:`) is a live link action in the PDF (pass 29, B29): only
  // web and mail links stay (keptLink), and one that spells a seen secret goes. The fast path
  // leaves alone only a web link written in place, and no PDF once the call has seen a secret:
  // then every PDF is read whole, since a name a page chose (an id an internal link jumps to) is
  // written as a named destination, a page label or a link's /Dest, which `pdfinfo -dests` and a
  // viewer show (pass 41, A41).
  const linkToCheck = /\/URI\s*(?:<|\((?!\s*https?:))/i.test(raw);
  if (values && values.every((v) => shownLine(v) === v) && !linkToCheck && !anySecretsSeen()) return pdf;
  const { PDFDocument, PDFDict, PDFArray, PDFName, PDFString, PDFHexString, PDFRef } = lib();
  // updateMetadata: false keeps Chromium's Creator, Producer and dates.
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  let changed = false;
  const dropsLink = (action: PdfLib.PDFObject | undefined) => {
    const uri = action instanceof PDFDict ? action.get(PDFName.of('URI')) : undefined;
    if (!(uri instanceof PDFString || uri instanceof PDFHexString)) return false;
    const link = uri.decodeText();
    return !keptLink(link) || cutSeenSecrets(link) !== link;
  };
  const clean = (dict: PdfLib.PDFDict) => {
    // A link annotation whose link goes loses its action whole: a URI action left without its
    // /URI makes `pdfinfo` warn "Illegal URI-type link" on every run (pass 39, B39).
    const action = dict.get(PDFName.of('A'));
    if (dropsLink(action instanceof PDFRef ? doc.context.lookup(action) : action)) {
      dict.delete(PDFName.of('A'));
      changed = true;
    }
    if (dropsLink(dict)) {
      dict.delete(PDFName.of('URI'));
      changed = true;
    }
    for (const key of TEXT_KEYS) {
      const value = dict.get(PDFName.of(key));
      if (!(value instanceof PDFString) && !(value instanceof PDFHexString)) continue;
      const text = value.decodeText();
      if (shownLine(text) === text) continue;
      dict.set(PDFName.of(key), PDFHexString.fromText(shownLine(text)));
      changed = true;
    }
  };
  // A seen secret in any string or name of the file, not only the fields above: a named
  // destination (a key of /Dests, a name in a /Names tree), a link's or an outline item's /Dest,
  // a page label's prefix. A string is cut; a name is renamed, the same way wherever it is, so a
  // link still reaches its destination.
  const spells = (text: string) => anySecretsSeen() && cutSeenSecrets(text) !== text;
  const renamed = new Map<string, PdfLib.PDFName>();
  const safeName = (name: PdfLib.PDFName) => {
    let to = renamed.get(name.asString());
    if (!to) renamed.set(name.asString(), (to = PDFName.of(`gstack-redacted-${renamed.size + 1}`)));
    return to;
  };
  const cleanValue = (value: PdfLib.PDFObject): PdfLib.PDFObject | undefined => {
    if ((value instanceof PDFString || value instanceof PDFHexString) && spells(value.decodeText())) return PDFHexString.fromText(cutSeenSecrets(value.decodeText()));
    if (value instanceof PDFName && spells(value.decodeText())) return safeName(value);
    return undefined;
  };
  // Every dictionary written in place inside another object, at any depth: a tagged PDF keeps
  // a form control's /Desc in a dictionary inside the /A array of a structure element
  // (`/A [<</O /PrintField …>> <</O /PrintField /Desc …>>]`; pass 26, B26). An object of its
  // own (a reference) is visited as one of the document's.
  const visit = (object: PdfLib.PDFObject, depth: number): void => {
    if (depth > 32) return;
    if (object instanceof PDFDict) {
      clean(object);
      for (const [key, inner] of object.entries()) {
        const value = cleanValue(inner);
        if (value) {
          object.set(key, value);
          changed = true;
        }
        if (spells(key.decodeText())) {
          object.delete(key);
          object.set(safeName(key), value ?? inner);
          changed = true;
        }
      }
      for (const [, inner] of object.entries()) visit(inner, depth + 1);
    } else if (object instanceof PDFArray) {
      object.asArray().forEach((inner, i) => {
        const value = cleanValue(inner);
        if (value) {
          object.set(i, value);
          changed = true;
        }
      });
      for (const inner of object.asArray()) visit(inner, depth + 1);
    }
  };
  for (const [, object] of doc.context.enumerateIndirectObjects()) visit(object, 0);
  if (changed) unlinkBareLinks(doc);
  // Nothing to clean (the raw read could not follow the file, as with object streams): the
  // bytes as they were.
  if (!changed) return pdf;
  // No object streams: the result reads like Chromium's own output.
  return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
}

/** Every value of the text keys (TEXT_KEYS) found in the raw bytes, decoded; undefined when
 * the bytes (`text`, read as latin1) hold what this reader does not follow (object streams, a value that is not a string
 * written in place), so the caller parses the file properly instead. */
export function readInfoFields(text: string): string[] | undefined {
  if (text.includes('/ObjStm')) return undefined;
  const values: string[] = [];
  const key = new RegExp(`/(${TEXT_KEYS.join('|')})(?![A-Za-z0-9])\\s*`, 'g');
  for (let m = key.exec(text); m; m = key.exec(text)) {
    const at = key.lastIndex;
    const read = text[at] === '(' ? literalString(text, at) : text[at] === '<' && text[at + 1] !== '<' ? hexString(text, at) : undefined;
    if (!read) return undefined; // an indirect reference, or something else this does not read
    values.push(decodeTextString(read.bytes));
    key.lastIndex = read.end;
  }
  return values;
}

/** A PDF literal string `( … )` from `at`: balanced parentheses, backslash escapes. */
function literalString(text: string, at: number): { bytes: number[]; end: number } | undefined {
  const bytes: number[] = [];
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const n = text[++i];
      const simple: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
      if (n in simple) bytes.push(simple[n]);
      else if (/[0-7]/.test(n)) {
        let oct = n;
        while (oct.length < 3 && /[0-7]/.test(text[i + 1])) oct += text[++i];
        bytes.push(parseInt(oct, 8) & 0xff);
      } else if (n === '\r') {
        if (text[i + 1] === '\n') i++; // a line continuation
      } else if (n !== '\n') bytes.push(n.charCodeAt(0));
      continue;
    }
    if (c === '(') {
      if (depth++ === 0) continue;
    } else if (c === ')') {
      if (--depth === 0) return { bytes, end: i + 1 };
    }
    bytes.push(c.charCodeAt(0));
  }
  return undefined;
}

/** A PDF hex string `< … >` from `at`. */
function hexString(text: string, at: number): { bytes: number[]; end: number } | undefined {
  const end = text.indexOf('>', at);
  if (end < 0) return undefined;
  const digits = text.slice(at + 1, end).replace(/\s+/g, '');
  if (!/^[0-9A-Fa-f]*$/.test(digits)) return undefined;
  const padded = digits.length % 2 ? digits + '0' : digits;
  const bytes: number[] = [];
  for (let i = 0; i < padded.length; i += 2) bytes.push(parseInt(padded.slice(i, i + 2), 16));
  return { bytes, end: end + 1 };
}

/** A PDF text string: UTF-16BE after its byte-order mark, UTF-8 after its own (PDF 2.0), else
 * PDFDocEncoding, read here as Latin-1 (where the two differ, 0x80-0x9F, Latin-1 has C1
 * controls, which the filter flags: such a PDF is parsed properly). */
function decodeTextString(bytes: number[]): string {
  const b = Buffer.from(bytes);
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2));
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return b.subarray(3).toString('utf8');
  return b.toString('latin1');
}

/** The only link URIs a PDF from a page keeps: the web's and mail's. Any other scheme, or none
 * (a relative URI resolves against the file's own folder), can reach a local file or program;
 * so can a mail link that asks for an attachment (`mailto:x@y?attach=/root/.ssh/id_rsa`, which
 * some mail programs honour; pass 30, B30), however its query is %-escaped. */
function keptLink(uri: string): boolean {
  if (/^\s*https?:/i.test(uri)) return true;
  if (!/^\s*mailto:/i.test(uri)) return false;
  let decoded = uri;
  for (let i = 0; i < 3; i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  return !/attach/i.test(decoded) && !/attach/i.test(uri);
}

/** The only actions a page-made PDF keeps (wholePdf): a jump inside it, a viewer's named
 * command, a web or mail link. Any other runs something or reaches outside the file (Launch,
 * JavaScript, GoToR, GoToE, Thread with a file, SubmitForm, ImportData, Rendition, Movie, Sound,
 * …): a list of refusals missed some (pass 32, B32). */
const KEPT_ACTIONS = new Set(['/GoTo', '/Named', '/URI']);
/** Every action type of PDF 2.0: /S names other things too (a structure element's type, a
 * transparency group, a border style), which are left alone. */
const ACTION_TYPES = new Set(['/GoTo', '/GoToR', '/GoToE', '/GoToDp', '/Launch', '/Thread', '/URI', '/Sound', '/Movie', '/Hide', '/Named', '/SubmitForm', '/ResetForm', '/ImportData', '/SetOCGState', '/Rendition', '/Trans', '/GoTo3DView', '/JavaScript', '/RichMediaExecute']);
/** Annotations that play, embed or run what is outside the page (pass 32, B32). */
const OUTSIDE_ANNOTATIONS = new Set(['/FileAttachment', '/Sound', '/Movie', '/Screen', '/RichMedia', '/3D']);
/** Whether a string's own bytes hold a control, where it is not UTF-16 (after its byte-order
 * mark): pdf-lib decodes such a string as PDFDocEncoding, where 0x18-0x1F are accents, but a
 * byte string (a URI, a structure element's /ID) is printed by poppler's tools as its bytes, an
 * ESC among them (pass 31, B31). */
function controlBytes(v: PdfLib.PDFString | PdfLib.PDFHexString): boolean {
  const b = v.asBytes();
  if (b[0] === 0xfe && b[1] === 0xff) return false;
  return b.some((x) => (x < 0x20 && x !== 0x09 && x !== 0x0a && x !== 0x0d) || (x >= 0x7f && x <= 0x9f));
}

/** Keys that run something when the document or a page opens, or hold scripts. */
const RUN_KEYS = new Set(['/OpenAction', '/AA', '/JavaScript', '/JS']);
/** Keys that attach files to a page-made PDF (the document's /EmbeddedFiles name tree, a file
 * specification's streams, associated files): a page's HTML inside a `.pdf`, one click from
 * opening from disk (pass 30, B30). */
const ATTACHMENT_KEYS = new Set(['/EmbeddedFiles', '/EF', '/AF', '/RF']);
/** Keys that carry a form's scripts (XFA), a 3D model's, or a reference to another file: an
 * external stream's or a file specification's /F and /FS (a string or a dictionary; an
 * annotation's /F is a number, its flags), a reference XObject's /Ref, OPI's proxy, the
 * catalog's base URI (pass 32, B32). */
const OUTSIDE_KEYS = new Set(['/XFA', '/3DD', '/3DA', '/OPI', '/Ref', '/FS', '/RichMediaContent', '/RichMediaSettings']);

/** The bytes of a whole PDF (pdf-lib reads it, it is not encrypted, it has a page and ends
 * with `%%EOF`) with every string a reader shows made terminal-safe; undefined when the bytes
 * are not one. For a PDF a page made (a `data:` URL that `render --eval --out` writes): a page
 * that starts its title `data:application/pdf;base64,` chooses every byte, so every string is
 * cleaned, not only the fields Chromium writes (pass 26-27, B26-B27: a Title behind a
 * reference, Creator and Producer, custom keys, embedded files' names), the XMP metadata
 * (`pdfinfo -meta` prints it raw) is dropped, and an encrypted one (which `pdfinfo` decrypts with
 * an empty password, and nothing here can read) is none. */
export async function wholePdf(b: Buffer): Promise<Buffer | undefined> {
  if (b.subarray(0, 5).toString('latin1') !== '%PDF-' || !/%%EOF\s*$/.test(b.subarray(-64).toString('latin1'))) return undefined;
  const { PDFDocument, PDFDict, PDFArray, PDFName, PDFNumber, PDFString, PDFHexString, PDFRef, PDFStream } = lib();
  let doc: PdfLib.PDFDocument;
  try {
    doc = await PDFDocument.load(b, { updateMetadata: false });
    if (doc.isEncrypted || doc.getPageCount() < 1) return undefined;
  } catch {
    return undefined;
  }
  let changed = false;
  // Every string and every name value (a name spells any byte as `#1B`: a font's /BaseFont,
  // which `pdffonts` prints; pass 31, B31), as the terminal filter would print it.
  const cleaned = (v: unknown): PdfLib.PDFHexString | PdfLib.PDFName | undefined => {
    if (v instanceof PDFName) {
      const text = v.decodeText();
      if (stripControls(text) === text) return undefined;
      changed = true;
      return PDFName.of(stripControls(text));
    }
    if (!(v instanceof PDFString) && !(v instanceof PDFHexString)) return undefined;
    const text = v.decodeText();
    if (stripControls(text) === text && !controlBytes(v)) return undefined;
    changed = true;
    return PDFHexString.fromText(stripControls(text));
  };
  // A key a reader prints (`pdfinfo -custom`) spelled with a control or a bidi override.
  const controlKey = (key: PdfLib.PDFName) => stripControls(key.decodeText()) !== key.decodeText();
  const visit = (object: unknown, depth: number): void => {
    if (depth > 32) return;
    if (object instanceof PDFDict) {
      // An action that runs or reaches outside the file (pass 28, B28: a Launch of a local
      // file, JavaScript, a link to file:, another document): emptied, so a viewer does nothing.
      const action = object.get(PDFName.of('S'));
      const uri = object.get(PDFName.of('URI'));
      // A link with a control in it too: cleaned, it would be written as UTF-16 and be no URI.
      const link = uri instanceof PDFString || uri instanceof PDFHexString ? uri.decodeText() : undefined;
      const outsideUri = link !== undefined && (!keptLink(link) || stripControls(link) !== link || controlBytes(uri as PdfLib.PDFString));
      const subtype = object.get(PDFName.of('Subtype'));
      const outsideAnnotation = subtype instanceof PDFName && OUTSIDE_ANNOTATIONS.has(subtype.asString()) && object.get(PDFName.of('Rect')) !== undefined;
      const type = object.get(PDFName.of('Type'));
      const isAction = action instanceof PDFName && (ACTION_TYPES.has(action.asString()) || (type instanceof PDFName && type.asString() === '/Action'));
      if ((isAction && !KEPT_ACTIONS.has((action as PdfLib.PDFName).asString())) || outsideUri || outsideAnnotation) {
        for (const [key] of object.entries()) object.delete(key);
        changed = true;
        return;
      }
      for (const [key, value] of object.entries()) {
        const name = key.asString();
        const opensAttachments = name === '/PageMode' && value instanceof PDFName && value.asString() === '/UseAttachments';
        const fileSpec = name === '/F' && !(value instanceof PDFNumber);
        const baseUri = name === '/URI' && !(value instanceof PDFString || value instanceof PDFHexString);
        if (name === '/Metadata' || RUN_KEYS.has(name) || ATTACHMENT_KEYS.has(name) || OUTSIDE_KEYS.has(name) || fileSpec || baseUri || opensAttachments || controlKey(key)) {
          if (name === '/Metadata' && value instanceof PDFRef) doc.context.delete(value);
          // What such a key points to goes too (an XFA stream, a 3D model's, a file
          // specification): unlinked, it would still be written, its script in it.
          if (OUTSIDE_KEYS.has(name) || name === '/JS') {
            const held = value instanceof PDFRef ? [value] : value instanceof PDFArray ? value.asArray() : value instanceof PDFDict ? [...value.values()] : [];
            for (const r of held) if (r instanceof PDFRef) doc.context.delete(r);
          }
          // A file specification's streams (/EF << /F 5 0 R >>), whose /Type is optional.
          if (name === '/EF') {
            const ef = value instanceof PDFRef ? doc.context.lookup(value) : value;
            if (value instanceof PDFRef) doc.context.delete(value);
            if (ef instanceof PDFDict) for (const [, inner] of ef.entries()) if (inner instanceof PDFRef) doc.context.delete(inner);
          }
          object.delete(key);
          changed = true;
          continue;
        }
        // A structure element's /ID is text a reader prints (`pdfinfo -struct`); the file's own
        // identifier is the trailer's, dropped below.
        const clean = cleaned(value);
        if (clean) object.set(key, clean);
        else visit(value, depth + 1);
      }
    } else if (object instanceof PDFArray) {
      object.asArray().forEach((inner, i) => {
        const clean = cleaned(inner);
        if (clean) object.set(i, clean);
        else visit(inner, depth + 1);
      });
    }
  };
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    // An attached file's bytes, whatever refers to them: gone, not only unlinked.
    const type = object instanceof PDFStream ? object.dict.get(PDFName.of('Type')) : undefined;
    if (type instanceof PDFName && type.asString() === '/EmbeddedFile') {
      doc.context.delete(ref);
      changed = true;
      continue;
    }
    const clean = cleaned(object);
    if (clean) doc.context.assign(ref, clean);
    else visit(object instanceof PDFStream ? object.dict : object, 0);
  }
  if (changed) unlinkBareLinks(doc);
  // The trailer's /ID is the page's bytes too (two strings nothing needs: the file is not
  // encrypted).
  if (changed && doc.context.trailerInfo.ID) doc.context.trailerInfo.ID = undefined;
  // Nothing a reader would show raw: the bytes as they were.
  if (!changed) return b;
  try {
    return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
  } catch {
    return undefined;
  }
}
