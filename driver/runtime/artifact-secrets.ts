// What `--out` copies into the user's folder, cut of the secret values the call saw by its end
// (docs/SECURITY.md, "get a secret into output"). A file a script wrote under `pwd` before its
// first read of a secret field (a report that starts with the page's title, a `pg.pdf()` whose
// Title the page filled with its API key) was written uncut, since the value was not known yet.
// The copy is a new write, made after the call knows every value, so it is held to what the
// call knows then, as the `--json` result's lines are (pass 39, A39):
// - text (UTF-8 without NUL bytes) is copied with each value cut, as a printed line is;
// - a PDF is copied with its reader-shown strings cut (`cleanPdfInfo`, which also drops a link
//   that spells one);
// - any other file, and a PDF that still spells one in its bytes, is not copied when its bytes
//   spell one (read as UTF-8, Latin-1 and UTF-16): an image's text chunk, an archive's names.
// Pixels and compressed page text are the page as it drew itself, as a screenshot is.
import { anySecretsSeen, cutSeenSecrets } from './output.js';
import { cleanPdfInfo } from './pdf-info.js';

/** Larger files are not read for the check: with a secret seen, they stay in `pwd`. */
export const MAX_CHECKED_COPY_BYTES = 32 * 1024 * 1024;

export type CheckedCopy =
  | { kind: 'as-is' }
  | { kind: 'cut'; bytes: Uint8Array }
  | { kind: 'held'; why: string };

const spells = (text: string) => cutSeenSecrets(text) !== text;

/** How a file of `size` bytes, read by `read` only when needed, may be copied out. */
export async function checkedCopy(size: number, read: () => Promise<Buffer>): Promise<CheckedCopy> {
  if (!anySecretsSeen()) return { kind: 'as-is' };
  if (size > MAX_CHECKED_COPY_BYTES) {
    return { kind: 'held', why: `over ${MAX_CHECKED_COPY_BYTES / 1024 / 1024} MiB, too large to check for the values of secret fields the call saw` };
  }
  const bytes = await read();
  if (!bytes.includes(0)) {
    let text: string | undefined;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const cut = cutSeenSecrets(text);
      return cut === text ? { kind: 'as-is' } : { kind: 'cut', bytes: Buffer.from(cut, 'utf8') };
    }
  }
  let out: Buffer = bytes;
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    out = Buffer.from(await cleanPdfInfo(bytes));
  }
  const readings = [out.toString('latin1'), out.toString('utf8'), out.toString('utf16le'), out.subarray(1).toString('utf16le')];
  if (readings.some(spells)) return { kind: 'held', why: 'its bytes hold the value of a secret field the call saw' };
  return out === bytes ? { kind: 'as-is' } : { kind: 'cut', bytes: out };
}
