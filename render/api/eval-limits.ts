// How big an `--eval` value may be (pass 20, C20). The value is the page's: a page can make it
// as big as its memory allows, and a string is written through the terminal filter (every
// control and invisible character replaced), which on a value dense with them costs about
// 0.2 s a million characters in the render host every session shares. So the size is measured
// in the page, before the value crosses over, and a value over the limit is the render's error.
// A data: URL (an image the page drew on a canvas) is decoded to bytes, not filtered: it may be
// larger.

/** Characters a text (or JSON) `--eval` value may hold. */
export const MAX_EVAL_VALUE_CHARS = 4 * 1024 * 1024;
/** Characters an `--eval` data: URL may hold. */
export const MAX_EVAL_DATA_URL_CHARS = 48 * 1024 * 1024;

/** The value's size as it would be written (a string's length, else its JSON's), and whether it
 * is a data: URL. Runs in the page (self-contained); a value JSON cannot write counts 0. */
export function evalValueSize(v: unknown): { size: number; dataUrl: boolean } {
  if (typeof v === 'string') return { size: v.length, dataUrl: /^data:[^,]*,/i.test(v.slice(0, 200)) };
  try {
    const json = JSON.stringify(v);
    return { size: typeof json === 'string' ? json.length : 0, dataUrl: false };
  } catch {
    return { size: 0, dataUrl: false };
  }
}

/** The limit a measured value is held to. */
export function evalLimit(measured: { dataUrl: boolean }): number {
  return measured.dataUrl ? MAX_EVAL_DATA_URL_CHARS : MAX_EVAL_VALUE_CHARS;
}
