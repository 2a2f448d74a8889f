// The one egress filter every stdout line passes through (DESIGN section 5): lone UTF-16
// surrogates are replaced, total output is capped with a visible marker, and the sentinel
// and the final [error] line are never cut.

export const SENTINEL = 'GSTACK_STEP_OK';
export const ERROR_PREFIX = '[error]';

/** Terminal escape sequences and other control characters (tab excepted) from page text must
 * not reach the reader's terminal: CSI/OSC sequences are dropped, other controls become U+FFFD. */
export function stripControls(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g, '').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u009b]/g, '\uFFFD');
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
      const clean = stripControls(wellFormed(errorLine).replace(/\r?\n/g, ' '));
      this.accept(clean.startsWith(ERROR_PREFIX) ? clean : `${ERROR_PREFIX} ${clean}`);
    }
  }
}
