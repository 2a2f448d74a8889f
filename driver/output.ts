// The egress filter of a flow script's stdout: lone UTF-16 surrogates are replaced, escape
// sequences and other controls never reach the terminal (the same filter, terminalSafe, that
// bin/cli.ts puts on every line of every command), total output is capped with a visible
// marker, and the sentinel and the final [error] line are never cut.

import { SENTINEL } from './catalog.gen.js';

export { SENTINEL };
export const ERROR_PREFIX = '[error]';

/** What page text must never send to a terminal: escape sequences (7-bit ESC-introduced and
 * their 8-bit C1 forms) are dropped whole; an introducer without its terminator, any other
 * control character (C0 but tab, DEL, C1) and the bidi overrides/isolates (U+202A-U+202E,
 * U+2066-U+2069), which make a line read differently from what it is, become U+FFFD so the
 * reader sees that something was there. */
// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = new RegExp(
  [
    '(?:\u001b\\[|\u009b)[0-?]*[ -/]*[@-~]', // CSI (cursor moves, colours, screen clears)
    '(?:\u001b[\\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\\\|\u009c)', // OSC (titles, links), DCS, SOS, PM, APC with their terminator
    '\u001b[ -/]*[0-~]?', // any other ESC sequence (ESC c resets the terminal)
  ].join('|'),
  'g',
);
// eslint-disable-next-line no-control-regex
const UNSAFE_CHAR = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** One line made safe for a terminal (see above). A newline inside it is a control too. */
export function stripControls(s: string): string {
  return s.replace(ESCAPE_SEQUENCE, '').replace(UNSAFE_CHAR, '\uFFFD');
}

/** Text for a terminal: the one filter every line of every command passes (bin/cli.ts applies
 * it to all stdout and stderr). Lines keep their newlines (CRLF becomes LF); each line is
 * well-formed UTF-16 and stripped of controls. Idempotent. */
export function terminalSafe(text: string): string {
  return wellFormed(text)
    .split(/\r?\n/)
    .map(stripControls)
    .join('\n');
}

/** An error message as one line: a library's appended detail (Playwright's "Call log:" and
 * everything after it) dropped, line breaks and runs of whitespace folded into one space. */
export function oneLine(message: string): string {
  return message.split(/\n\s*Call log:/)[0].replace(/\s+/g, ' ').trim();
}

/** Replace lone surrogates (which break JSON and terminals) with U+FFFD. */
export function wellFormed(s: string): string {
  return typeof (s as any).toWellFormed === 'function'
    ? (s as any).toWellFormed()
    : s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

export interface OutputFilterOptions {
  /** Cap on the bytes of evidence lines (the marker, sentinel and error line come on top). */
  maxBytes: number;
  /** Where accepted lines go (stdout for the CLI, an array for --json). */
  emit: (line: string) => void;
}

export class OutputFilter {
  private used = 0;
  private dropped = 0;
  private markerShown = false;
  private capped = false;
  /** Every line accepted so far, in order (what --json reports). */
  readonly lines: string[] = [];
  sawSentinel = false;
  /** The sentinel is held back until finish(), so that lines the runner adds at the end
   * (ARTIFACT) come before it and it stays the last line of a successful call. */
  private sentinelHeld = false;
  /** Lines after the last sentinel that start with "[error" (Aside reports throws this way). */
  errorAfterSentinel = false;

  constructor(private readonly opts: OutputFilterOptions) {}

  /** Feed one logical output line (may contain newlines; each is treated as a line). */
  write(text: string): void {
    for (const raw of wellFormed(text).split(/\r?\n|\r/)) this.writeOne(stripControls(raw));
  }

  private writeOne(line: string): void {
    if (line === SENTINEL) {
      this.sawSentinel = true;
      this.errorAfterSentinel = false;
      this.flushMarker();
      this.sentinelHeld = true;
      return;
    }
    if (line.startsWith('[error')) this.errorAfterSentinel = true;
    const bytes = Buffer.byteLength(line, 'utf8') + 1;
    // Once the cap is hit everything after it is dropped too, so what the reader sees is a
    // clean prefix of the output, not a sample with holes.
    if (this.capped || this.used + bytes > this.opts.maxBytes) {
      this.capped = true;
      this.dropped += bytes;
      return;
    }
    this.used += bytes;
    this.accept(line);
  }

  /** The evidence of a failed call (driver/evidence.ts): through the same control filter, but
   * outside the cap — it is bounded by its own size (a few lines per tab), and a script that
   * printed up to the cap needs it most. */
  writeEvidence(lines: string[]): void {
    this.flushMarker();
    for (const text of lines) for (const raw of wellFormed(text).split(/\r?\n|\r/)) this.accept(stripControls(raw));
  }

  private flushMarker(): void {
    if (this.dropped > 0 && !this.markerShown) {
      this.accept(`[truncated ${this.dropped} bytes]`);
      this.markerShown = true;
    } else if (this.dropped > 0) {
      this.accept(`[truncated ${this.dropped} more bytes]`);
    }
    this.dropped = 0;
  }

  private accept(line: string): void {
    this.lines.push(line);
    this.opts.emit(line);
  }

  /** Close the stream: the truncation marker, the runner's own closing lines (`trailer`:
   * ARTIFACT lines), the sentinel if the script printed it, then the [error] line if the call
   * failed. The error line is always last, so nothing the page printed can follow (and forge)
   * it; on success the sentinel is. */
  finish(errorLine?: string, trailer: string[] = []): void {
    this.flushMarker();
    for (const line of trailer) this.accept(stripControls(wellFormed(line)));
    if (this.sentinelHeld) {
      this.sentinelHeld = false;
      this.accept(SENTINEL);
    }
    if (errorLine !== undefined) {
      // Through the same escape filter as every line: an error message can carry page text.
      const clean = stripControls(oneLine(wellFormed(errorLine)));
      this.accept(clean.startsWith(ERROR_PREFIX) ? clean : `${ERROR_PREFIX} ${clean}`);
    }
  }
}
