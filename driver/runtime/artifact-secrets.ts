// What `--out` copies into the user's folder, cut of the secret values the call saw by its end
// (docs/SECURITY.md, "get a secret into output"). A file a script wrote under `pwd` before its
// first read of a secret field (a report that starts with the page's title, a `pg.pdf()` whose
// Title the page filled with its API key) was written uncut, since the value was not known yet.
// The copy is a new write, made after the call knows every value, so it is held to what the
// call knows then, as the `--json` result's lines are (pass 39, A39):
// - text (UTF-8 without NUL bytes) up to 1 MiB is copied with each value cut, as a printed line
//   is; larger text that spells one as written is not copied;
// - a PDF is copied with its reader-shown strings cut (`cleanPdfInfo`, which also drops a link
//   that spells one);
// - any other file, and a PDF that still spells one in its bytes, is not copied when its bytes
//   spell one of six characters or more as written (read as UTF-8, Latin-1 and UTF-16): an
//   image's text chunk, an archive's names.
// Pixels and compressed page text are the page as it drew itself, as a screenshot is.
import { anySecretsSeen, cutSeenSecrets, secretsSpelledIn } from './output.js';
import { cleanPdfInfo } from './pdf-info.js';

/** Larger files are not read for the check: with a secret seen, they stay in `pwd`. */
export const MAX_CHECKED_COPY_BYTES = 32 * 1024 * 1024;
/** Text up to this size is cut as printed lines are (every spelling the output cut reads, about
 * a second a megabyte on a busy 2-core machine); larger text, and bytes, are searched for each
 * value as written (BINARY_MIN_CHARS or more), and held back where one is found. */
export const MAX_CUT_TEXT_BYTES = 1024 * 1024;
/** Bytes are not text: a shorter value (a 4-digit PIN) is in any large file by chance. */
const BINARY_MIN_CHARS = 6;

export type CheckedCopy =
  | { kind: 'as-is' }
  | { kind: 'cut'; bytes: Uint8Array }
  | { kind: 'held'; why: string };

const HELD: CheckedCopy = { kind: 'held', why: 'its bytes hold the value of a secret field the call saw' };

/** Whether bytes spell a seen value, read as UTF-8, Latin-1 or UTF-16 (either alignment). */
function bytesSpell(bytes: Buffer): boolean {
  const readings = [bytes.toString('latin1'), bytes.toString('utf8'), bytes.toString('utf16le'), bytes.subarray(1).toString('utf16le')];
  return readings.some((r) => secretsSpelledIn(r, BINARY_MIN_CHARS));
}

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
      if (bytes.length > MAX_CUT_TEXT_BYTES) return secretsSpelledIn(text, BINARY_MIN_CHARS) ? HELD : { kind: 'as-is' };
      const cut = cutSeenSecrets(text);
      return cut === text ? { kind: 'as-is' } : { kind: 'cut', bytes: Buffer.from(cut, 'utf8') };
    }
  }
  let out = bytes;
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
    try {
      out = Buffer.from(await cleanPdfInfo(bytes));
    } catch {
      // An encrypted PDF (a page can serve one that opens without a password) or a damaged one
      // cannot be read to check, and fails closed (pass 41, A41).
      return { kind: 'held', why: 'a PDF that cannot be read to check it for the values of secret fields the call saw (encrypted or damaged)' };
    }
  }
  if (bytesSpell(out)) return HELD;
  return out === bytes ? { kind: 'as-is' } : { kind: 'cut', bytes: out };
}
