// The files a render writes, and only those its caller named: checked writable before the
// browser starts, written after it is done (an engine returns bytes, never writes here), with
// one-line reasons when the file system says no. Also used by `gstack pdf` and `gstack diagram`
// for the files they assemble themselves.
import { access, lstat, mkdir, open, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { stripControls, terminalSafe } from '../../driver/runtime/output.js';
// The one-line rule of every notice a render command prints, for the layers that may not reach
// driver/runtime themselves (render/mermaid).
export { noticeLine } from '../../driver/runtime/output.js';
import { missingFolders, plainListedName } from '../../driver/runtime/look-alike.js';
import { cleanPdfInfo, wholePdf } from '../../driver/runtime/pdf-info.js';
import { RenderError } from '../api/errors.js';
import type { EvalResult, RenderArtifact } from '../api/types.js';
import type { EngineRenderOutput } from '../engines/engine-contract.js';
import type { Validated } from './validate.js';
import { withoutCsvFormulas } from './csv-formulas.js';

/** Fail before the browser starts when an output cannot be written (exit 1): creating the
 * parent directories as needed, like most tools that take an output path. */
export async function checkOutputsWritable(outPaths: Array<string | undefined>): Promise<void> {
  for (const out of outPaths) {
    if (out === undefined) continue;
    // A careless `--screenshot "$TITLE"` names the file after page text: the rule fs applies to
    // names in pwd (docs/SECURITY.md, "hide text"), on the name written here.
    if (!plainListedName(basename(out))) {
      throw new RenderError(`cannot write ${JSON.stringify(stripControls(out))}: its name holds control, invisible or look-alike characters (controls shown as U+FFFD), which would show another name in a file listing than the one read. Nothing was rendered; give a plain name.`, 'USAGE');
    }
    const dir = dirname(out);
    try {
      // A folder the path creates is a name in a listing too (`--screenshot "$TITLE/shot.png"`;
      // pass 34, B34): each one the path lacks is held to the same rule, before any is made.
      const bad = missingFolders(dir).find((d) => !plainListedName(basename(d)));
      if (bad !== undefined) {
        throw new RenderError(`cannot write ${JSON.stringify(stripControls(out))}: the folder ${JSON.stringify(stripControls(basename(bad)))} it would create holds control, invisible or look-alike characters (controls shown as U+FFFD), which would show another name in a file listing than the one read. Nothing was rendered; give a plain folder name.`, 'USAGE');
      }
      await mkdirParents(dir);
      await access(dir, constants.W_OK);
      // A link at the name (a repository's `notes.txt -> ~/.bashrc`, `r.pdf -> index.html`)
      // would be written through: another name, another kind, another folder than the one
      // checked and printed (pass 36, B36). `run --out` refuses the same.
      const link = await lstat(out).catch(() => undefined);
      if (link?.isSymbolicLink()) {
        throw new RenderError(`cannot write ${JSON.stringify(stripControls(out))}: it is a symbolic link, and the file written would be the one it names, under another name. Nothing was rendered; give the path of a new or regular file (remove the link first).`, 'USAGE');
      }
      const existing = await stat(out).catch(() => undefined);
      if (existing?.isDirectory()) throw Object.assign(new Error('it is a directory'), { code: 'EISDIR' });
      // A FIFO would hold the write until someone reads it (past any --timeout); a device or
      // socket is no file either. A usage error before the browser starts.
      if (existing && !existing.isFile()) {
        throw new RenderError(`cannot write ${out}: it is ${existing.isFIFO() ? 'a FIFO (named pipe)' : 'a device or socket'}, not a file. Nothing was rendered; give an output file path.`, 'USAGE');
      }
      // A hard link is one file under several names (`ln ~/.bashrc shot.png`): writing it would
      // change the file under its other names too (pass 44, B44), as a symbolic link would.
      if (existing && existing.nlink > 1) {
        throw new RenderError(`cannot write ${JSON.stringify(stripControls(out))}: it is a hard link (one file under ${existing.nlink} names), and writing it would change the file under its other names too. Nothing was rendered; give the path of a new file (or remove this name first).`, 'USAGE');
      }
    } catch (err) {
      if (err instanceof RenderError) throw err;
      const e = err as NodeJS.ErrnoException;
      throw new RenderError(
        `cannot write ${out}: ${describeFsError(e)}. Nothing was rendered; choose an output path in a directory you can write.`,
      );
    }
  }
}

/** mkdir -p one level at a time: Node's recursive mkdir can spin forever on a pseudo file
 * system such as /proc, where each level fails with ENOENT. */
async function mkdirParents(dir: string): Promise<void> {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    const info = await stat(cur).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw e;
    });
    if (info) {
      if (!info.isDirectory()) throw Object.assign(new Error(`${cur} is a file`), { code: 'ENOTDIR' });
      break;
    }
    missing.push(cur);
    const up = dirname(cur);
    if (up === cur) break;
    cur = up;
  }
  for (const d of missing.reverse()) {
    await mkdir(d).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
  }
}

/** Text with its control characters (C0 but TAB and line ends, DEL, C1) as U+FFFD: a page's
 * or a document's ESC written into a text file (the `--to html` file, an `--eval` string) would
 * reach the terminal that `cat`s or `grep`s it. */
export function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\uFFFD').replace(CONTROL_REFERENCE, '\uFFFD');
}

/** A numeric character reference to one of those controls (`&#x9b;`, `&#155;`): in an SVG or
 * HTML file every XML or HTML reader decodes it to the control itself, as a diagram's label
 * with a C1 CSI was written (pass 30, B30). */
const CONTROL_REFERENCE = /&#(?:x0*(?:[0-8bcef]|1[0-9a-f]|7f|[89][0-9a-f])|0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|12[7-9]|1[3-5][0-9]));/gi;

/** Writes one output file, creating its directories (exit 1 with the reason when it cannot).
 * Text is written without control characters (withoutControls); bytes as they are. */
export async function writeOutputFile(path: string, data: string | Uint8Array): Promise<void> {
  if (typeof data === 'string') data = withoutControls(data);
  try {
    await mkdirParents(dirname(path));
    // Opened without waiting (a FIFO put there after the check answers ENXIO at once instead of
    // blocking), and written only if it is a regular file.
    // O_NOFOLLOW: a link put at the name after the check is not written through either.
    // Truncated only once it is known to be a file of one name: a hard link put at the name after
    // the check keeps its contents.
    const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW, 0o644);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw Object.assign(new Error('it is not a regular file'), { code: 'ENOTFILE' });
      if (info.nlink > 1) throw Object.assign(new Error('it is a hard link'), { code: 'EMLINK_OUT' });
      await handle.truncate(0);
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw new RenderError(`cannot write ${path}: ${describeFsError(err as NodeJS.ErrnoException)}. Choose an output path in a directory you can write.`);
  }
}

function describeFsError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOTDIR': return 'a parent of that path is a file, not a directory (ENOTDIR)';
    case 'EACCES':
    case 'EPERM': return `permission denied (${e.code})`;
    case 'EROFS': return 'the file system is read-only (EROFS)';
    case 'EISDIR': return 'it is a directory (EISDIR)';
    case 'ELOOP': return 'it is a symbolic link, which is not written through (ELOOP)';
    case 'ENXIO':
    case 'ENOTFILE': return 'it is a FIFO, device or socket, not a file';
    case 'EMLINK_OUT': return 'it is a hard link, one file under several names, which is not written through';
    case 'ENOSPC': return 'no space left on the device (ENOSPC)';
    case 'ENOENT': return `a directory on that path cannot be created (${e.message})`;
    default: return e.code && !e.message.startsWith(e.code) ? `${e.code}: ${e.message}` : e.message;
  }
}

/** CRC-32 of PNG chunks (ISO 3309, the polynomial zlib uses). */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const byte of b) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The PNG chunks a written image keeps: the picture (header, palette, data, end), how to
 * show it (transparency, gamma, colour space as numbers, pixel size, background) and APNG's
 * frames. Every other chunk is left out: the text chunks, and also the ones that carry words the
 * page chose (an ICC profile's name, EXIF's description, a suggested palette's name; pass 30,
 * B30) or that nothing here knows. */
const PNG_KEPT = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'sBIT', 'bKGD', 'hIST', 'pHYs', 'tIME', 'acTL', 'fcTL', 'fdAT']);

/** A PNG whose chunks are whole, each with its right CRC, from IHDR to IEND at the very end,
 * with only the chunks of PNG_KEPT; undefined when the bytes are not one. */
function wholePng(b: Buffer): Buffer | undefined {
  if (!b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return undefined;
  const kept: Buffer[] = [b.subarray(0, 8)];
  let at = 8;
  let first = true;
  while (at + 12 <= b.length) {
    const length = b.readUInt32BE(at);
    const type = b.subarray(at + 4, at + 8).toString('latin1');
    const end = at + 12 + length;
    if (end > b.length || !/^[A-Za-z]{4}$/.test(type) || (first && type !== 'IHDR')) return undefined;
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== b.readUInt32BE(at + 8 + length)) return undefined;
    if (PNG_KEPT.has(type)) kept.push(b.subarray(at, end));
    first = false;
    at = end;
    if (type === 'IEND') return at === b.length ? Buffer.concat(kept) : undefined;
  }
  return undefined;
}

/** A JPEG from its start to its end marker, its segments whole, with only the ones that make
 * the picture: the JFIF and Adobe headers (APP0, APP14), tables, frame and scan headers, and the
 * scans. Comments (COM) and the other application segments (EXIF and XMP in APP1, an ICC
 * profile in APP2, …), which hold words a page chose, are left out (pass 30, B30). */
function wholeJpeg(b: Buffer): Buffer | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  const kept: Buffer[] = [b.subarray(0, 2)];
  let at = 2;
  while (at + 2 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1];
    if (marker === 0xff) { at++; continue; } // fill bytes before a marker
    if (marker === 0xd9) return at + 2 === b.length ? Buffer.concat([...kept, b.subarray(at, at + 2)]) : undefined;
    if (at + 4 > b.length) return undefined;
    const end = at + 2 + b.readUInt16BE(at + 2);
    if (b.readUInt16BE(at + 2) < 2 || end > b.length) return undefined;
    const keep = marker === 0xe0 || marker === 0xee || (marker >= 0xc0 && marker <= 0xdf) || marker === 0xdb || marker === 0xdd;
    if (keep) kept.push(b.subarray(at, end));
    at = end;
    if (marker === 0xda) {
      // The scan's entropy-coded data runs to the next marker that is not a stuffed 0xFF00 or a
      // restart marker (RST0-7).
      let scan = at;
      while (scan + 1 < b.length && !(b[scan] === 0xff && b[scan + 1] !== 0x00 && !(b[scan + 1] >= 0xd0 && b[scan + 1] <= 0xd7))) scan++;
      kept.push(b.subarray(at, scan));
      at = scan;
    }
  }
  return undefined;
}

/** A GIF from its header to its trailer, its blocks whole, without comment and plain-text
 * extensions and without application extensions other than the animation loop (NETSCAPE2.0,
 * ANIMEXTS1.0, rewritten to its loop count alone): XMP and comments hold words a page chose
 * (pass 30, B30). */
function wholeGif(b: Buffer): Buffer | undefined {
  if (b.length < 14 || !/^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1'))) return undefined;
  const table = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  /** The end of a run of data sub-blocks starting at `at`, or -1. */
  const subBlocks = (at: number): number => {
    while (at < b.length) {
      const n = b[at];
      at += 1 + n;
      if (n === 0) return at <= b.length ? at : -1;
    }
    return -1;
  };
  let at = 13 + table(b[10]);
  const kept: Buffer[] = [b.subarray(0, at)];
  while (at < b.length) {
    const block = b[at];
    if (block === 0x3b) return at + 1 === b.length ? Buffer.concat([...kept, b.subarray(at, at + 1)]) : undefined;
    let end: number;
    let keep = true;
    if (block === 0x21) {
      const label = b[at + 1];
      end = subBlocks(at + 2);
      if (label === 0xfe || label === 0x01) keep = false;
      if (label === 0xff) {
        keep = false;
        // The loop block, rewritten as its canonical 19 bytes (its first sub-block: 1, then the
        // loop count): a padded or extra sub-block held the page's bytes verbatim (pass 40, B40:
        // escape codes `cat` would print).
        const app = b.subarray(at + 3, at + 14).toString('latin1');
        if (end >= 0 && b[at + 2] === 11 && /^(?:NETSCAPE2\.0|ANIMEXTS1\.0)$/.test(app) && b[at + 14] >= 3 && b[at + 15] === 1) {
          kept.push(Buffer.concat([b.subarray(at, at + 14), Buffer.from([3, 1, b[at + 16], b[at + 17], 0])]));
        }
      }
    } else if (block === 0x2c) {
      const data = at + 10 + table(b[at + 9]);
      end = data + 1 > b.length ? -1 : subBlocks(data + 1);
    } else return undefined;
    if (end < 0) return undefined;
    if (keep) kept.push(b.subarray(at, end));
    at = end;
  }
  return undefined;
}

/** A WebP whose RIFF size is its length, its chunks whole, with only the picture's (VP8, VP8L,
 * VP8X, ALPH, ANIM, ANMF): EXIF, XMP and an ICC profile are left out, with their flags in VP8X,
 * and the RIFF size written anew (pass 30, B30). */
function wholeWebp(b: Buffer): Buffer | undefined {
  if (b.length < 20 || b.subarray(0, 4).toString('latin1') !== 'RIFF' || b.subarray(8, 12).toString('latin1') !== 'WEBP' || b.readUInt32LE(4) !== b.length - 8) return undefined;
  const kept: Buffer[] = [];
  let at = 12;
  while (at + 8 <= b.length) {
    const type = b.subarray(at, at + 4).toString('latin1');
    const size = b.readUInt32LE(at + 4);
    const end = at + 8 + size + (size & 1);
    if (end > b.length) return undefined;
    if (['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF'].includes(type)) {
      const chunk = Buffer.from(b.subarray(at, end));
      // VP8X's flags: ICC profile 0x20, EXIF 0x08, XMP 0x04, which are gone.
      if (type === 'VP8X' && size >= 1) chunk[8] &= ~(0x20 | 0x08 | 0x04);
      kept.push(chunk);
    }
    at = end;
  }
  if (at !== b.length || !kept.length) return undefined;
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...kept]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** Each kind of file a data: URL may be written as raw bytes (an image a canvas made with
 * `toDataURL()`, or a PDF): the output names it takes, and its bytes as written when they are
 * one whole (undefined when not). A page can choose a data: URL's type and first bytes (a title
 * `data:image/png;base64,…` holding `\x89PNG` and then escape codes; pass 26, B26), so the magic
 * alone proves nothing, and a name of another kind (`title.txt`) is a text file a person `cat`s. */
const RAW_KINDS: Array<{ type: RegExp; names: RegExp; whole: (b: Buffer) => Promise<Buffer | undefined> | Buffer | undefined }> = [
  { type: /^image\/png$/i, names: /\.png$/i, whole: wholePng },
  { type: /^image\/jpe?g$/i, names: /\.jpe?g$/i, whole: wholeJpeg },
  { type: /^image\/gif$/i, names: /\.gif$/i, whole: wholeGif },
  { type: /^image\/webp$/i, names: /\.webp$/i, whole: wholeWebp },
  // A PDF that pdf-lib reads, with its Title and the other text fields through the terminal
  // filter, as every PDF gstack writes (driver/runtime/pdf-info.ts).
  { type: /^application\/pdf$/i, names: /\.pdf$/i, whole: wholePdf },
];

/** An image or PDF name takes only a data: URL of that kind whose bytes are a whole one: text
 * written there is opened as that kind of file, and a PDF can be spelled wholly in printable
 * ASCII, actions and escape-laden Title included, which no terminal filter changes (pass 30,
 * B30). */
function refuseTextAsFile(path: string): void {
  const kind = RAW_KINDS.find((k) => k.names.test(path));
  if (!kind) return;
  const ext = extname(path);
  throw new RenderError(`the eval for ${path} did not return a data: URL of a whole ${ext.slice(1).toUpperCase()} file (a canvas's toDataURL(), or a PDF's bytes as a data: URL); a ${ext} name takes only that. Write text or JSON to a .txt or .json name instead.`);
}

/** Bytes an eval result is written as, into a file named `path`: strings through the terminal
 * filter; a data: URL of an image or PDF decoded to its bytes when they are a whole one and the
 * name is of that kind; others as JSON through the filter line by line. */
/** Text written to a `.csv` has no cell a spreadsheet would run as a formula (csv-formulas.ts). */
function asCsvIfNamed(text: string, path: string): string {
  return /\.csv$/i.test(path) ? withoutCsvFormulas(text) : text;
}

export async function evalValueBytes(value: unknown, path: string): Promise<Buffer> {
  if (typeof value === 'string') {
    const dataUrl = /^data:([^,;]*)[^,]*,/i.exec(value);
    if (dataUrl) {
      let bytes: Buffer;
      try {
        bytes = Buffer.from(await (await fetch(value)).arrayBuffer());
      } catch {
        throw new RenderError('the eval returned a malformed data: URL; return a valid data URL or a plain string');
      }
      // Raw bytes only for an image or a PDF whose bytes are one, written to a name of its kind:
      // a page that puts `data:,` before its text (its title) chooses the prefix, and its decoded
      // text is page text like any other (a CR and an erase-line escape wrote "Payment accepted"
      // over "DECLINED"; pass 24, B24).
      const kind = RAW_KINDS.find((k) => k.type.test(dataUrl[1].trim()));
      const whole = kind && kind.names.test(path) ? await kind.whole(bytes) : undefined;
      if (whole) return whole;
      refuseTextAsFile(path);
      return Buffer.from(asCsvIfNamed(withoutControls(terminalSafe(bytes.toString('utf8'))), path), 'utf8');
    }
    refuseTextAsFile(path);
    // A string a page computed is page text: written through the terminal filter, so neither
    // its controls, its bidi overrides and invisible characters, nor the written-out escape of
    // one (`\u001b` in the JSON an `--eval 'JSON.stringify(…)'` returns, which `jq -r` decodes)
    // reach whoever reads the file.
    // And a control spelled as a numeric reference (`&#x9b;`), which an HTML or XML reader of
    // the file decodes (pass 37, B37), as in the `--to html` file.
    return Buffer.from(asCsvIfNamed(withoutControls(terminalSafe(value)), path), 'utf8');
  }
  refuseTextAsFile(path);
  // JSON of page values: each line through the filter too (its strings hold page text, raw or as
  // `\u001b` escapes that `jq -r` decodes; pass 24, B24). Line breaks are JSON's own, between
  // tokens, and what the filter writes (U+FFFD) is valid inside a JSON string.
  const json = JSON.stringify(value === undefined ? null : value, null, 2);
  return Buffer.from(json.split('\n').map((l) => withoutControls(terminalSafe(l))).join('\n') + '\n', 'utf8');
}

export async function writeOutputs(v: Validated, out: EngineRenderOutput): Promise<{ artifacts: RenderArtifact[]; evals: EvalResult[] }> {
  const artifacts: RenderArtifact[] = [];
  const evals: EvalResult[] = [];
  let evalIndex = 0;
  for (let i = 0; i < v.steps.length; i++) {
    const printed = out.outputs[i];
    // A printed PDF's Title is the page's document.title: its text fields pass the terminal
    // filter, as in a script's pg.pdf() (driver/runtime/pdf-info.ts).
    const produced = printed.kind === 'pdf' ? { ...printed, data: await cleanPdfInfo(printed.data) } : printed;
    const path = v.outPaths[i];
    const bytes = produced.kind === 'eval'
      ? path !== undefined ? await evalValueBytes(produced.value, path) : undefined
      : produced.data;
    if (path !== undefined && bytes !== undefined) await writeOutputFile(path, bytes);
    if (produced.kind === 'eval') {
      evals.push({ step: i, index: ++evalIndex, value: produced.value, path });
      if (path !== undefined) artifacts.push({ step: i, kind: 'eval', path, bytes: bytes!.length });
    } else {
      artifacts.push(path !== undefined
        ? { step: i, kind: produced.kind, path, bytes: produced.data.length }
        : { step: i, kind: produced.kind, bytes: produced.data.length, data: produced.data });
    }
  }
  return { artifacts, evals };
}
