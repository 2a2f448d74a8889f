// Finding a secret value in a line of output however the page or the browser spelled it on its
// way there. A page holds the secret fields it serves, so it can copy a password into its title,
// a URL, a dialog or a console message, and each path re-spells it: a URL %-encodes it, a GET
// form writes `+` for a space, JSON and JavaScript escape it (`\u0068`), HTML escapes it
// (`&#104;`, `&excl;`), page text collapses its white space, an invisible character split by the
// output filter shows as U+FFFD. Listing those forms one by one lost to every form not listed
// (docs/SECURITY.md, "get a secret into output"), so both the line and the secret are brought to
// one normal form and compared there:
//
//   decode, until nothing changes (three rounds at most, for an escape inside an escape):
//     %XX runs (UTF-8), `+` as a space, backslash escapes (\uXXXX, \u{…}, \xXX, \UXXXXXXXX,
//     \n and the other one-letter escapes, \\ \" \' \/), HTML character references (named and
//     numeric, through the `entities` package, the one markdown-it decodes with);
//   fold: runs of white space to one space, U+FFFD dropped, compatibility forms (NFKC: a
//     full-width ｈ is h) and case.
//
// Every character of the normal form remembers the span of the original line it came from, so a
// match cuts exactly the original text that spelled it (a whole %XX run or escape at most).
// What is not undone is written in docs/SECURITY.md: a page that holds a value can always
// re-spell it in a way no matcher reads back (reversed, base64, letters apart).
import { decodeHTML } from 'entities';

/** A text in normal form, each UTF-16 unit with the [from, to) span of the original it spells. */
interface Spelled {
  text: string;
  from: number[];
  to: number[];
}

class SpelledBuilder {
  private readonly parts: string[] = [];
  readonly from: number[] = [];
  readonly to: number[] = [];

  constructor(private readonly source: Spelled) {}

  /** `out` stands for the source units [start, end). */
  push(out: string, start: number, end: number): void {
    if (!out) return;
    const from = this.source.from[start];
    const to = this.source.to[end - 1];
    this.parts.push(out);
    for (let k = 0; k < out.length; k++) {
      this.from.push(from);
      this.to.push(to);
    }
  }

  /** The source units [start, end) as they are. */
  copy(start: number, end: number): void {
    if (start >= end) return;
    this.parts.push(this.source.text.slice(start, end));
    for (let k = start; k < end; k++) {
      this.from.push(this.source.from[k]);
      this.to.push(this.source.to[k]);
    }
  }

  done(): Spelled {
    return { text: this.parts.join(''), from: this.from, to: this.to };
  }
}

const PERCENT_RUN = /(?:%[0-9a-fA-F]{2})+/y;
const BACKSLASH_ESCAPE = /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|U([0-9a-fA-F]{8})|([\s\S]))/y;
const CHARACTER_REFERENCE = /&(?:#[0-9]{1,7};?|#[xX][0-9a-fA-F]{1,6};?|[A-Za-z][A-Za-z0-9]{1,31};?)/y;
const ONE_LETTER: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
const utf8 = new TextDecoder('utf-8', { fatal: true });
const windows1252 = new TextDecoder('windows-1252');

function fromCodePoint(hex: string): string {
  const n = parseInt(hex, 16);
  return n <= 0x10ffff ? String.fromCodePoint(n) : '\uFFFD';
}

/** One round of decoding; the same object when there was nothing to decode. */
const SPECIAL = /[%+\\&]/g;

function decodeOnce(s: Spelled): Spelled {
  const text = s.text;
  SPECIAL.lastIndex = 0;
  if (!SPECIAL.test(text)) return s;
  const out = new SpelledBuilder(s);
  let i = 0;
  while (i < text.length) {
    // Plain text up to the next character that may start an escape, copied in one go.
    SPECIAL.lastIndex = i;
    const next = SPECIAL.exec(text);
    const at = next ? next.index : text.length;
    out.copy(i, at);
    i = at;
    if (i >= text.length) break;
    const c = text[i];
    let m: RegExpExecArray | null = null;
    if (c === '%') {
      PERCENT_RUN.lastIndex = i;
      m = PERCENT_RUN.exec(text);
      if (m) {
        const bytes = Uint8Array.from(m[0].slice(1).split('%'), (h) => parseInt(h, 16));
        // A page in a legacy charset (windows-1252) %-encodes a GET form's `ä` as %E4.
        let decoded: string;
        try {
          decoded = utf8.decode(bytes);
        } catch {
          decoded = windows1252.decode(bytes);
        }
        out.push(decoded, i, i + m[0].length);
      }
    } else if (c === '\\') {
      BACKSLASH_ESCAPE.lastIndex = i;
      m = BACKSLASH_ESCAPE.exec(text);
      if (m) {
        const [, braced, four, two, eight, other] = m;
        const hex = braced ?? four ?? two ?? eight;
        out.push(hex !== undefined ? fromCodePoint(hex) : (ONE_LETTER[other] ?? other), i, i + m[0].length);
      }
    } else if (c === '&') {
      CHARACTER_REFERENCE.lastIndex = i;
      m = CHARACTER_REFERENCE.exec(text);
      if (m) {
        const decoded = decodeHTML(m[0]);
        if (decoded === m[0]) m = null;
        else out.push(decoded, i, i + m[0].length);
      }
    } else if (c === '+') {
      out.push(' ', i, i + 1);
      i += 1;
      continue;
    }
    if (m) i += m[0].length;
    else {
      out.push(c, i, i + 1);
      i += 1;
    }
  }
  return out.done();
}

/** White space runs to one space, U+FFFD dropped, NFKC, lower case: per code point (ASCII,
 * nearly every character of most lines, without a regular expression or normalize()). */
function fold(s: Spelled): Spelled {
  const out = new SpelledBuilder(s);
  const text = s.text;
  let i = 0;
  let lastWasSpace = false;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
        if (!lastWasSpace) out.push(' ', i, i + 1);
        lastWasSpace = true;
      } else {
        out.push(code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : text[i], i, i + 1);
        lastWasSpace = false;
      }
      i += 1;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const ch = text.slice(i, i + width);
    if (cp === 0xfffd) {
      // dropped: it stands for invisible characters the output filter replaced
    } else if (/\s/u.test(ch)) {
      if (!lastWasSpace) out.push(' ', i, i + width);
      lastWasSpace = true;
    } else {
      out.push(ch.normalize('NFKC').toLowerCase(), i, i + width);
      lastWasSpace = false;
    }
    i += width;
  }
  return out.done();
}

const DECODE_ROUNDS = 3;

function normalForm(text: string): Spelled {
  // Each unit of the original spells itself.
  let s: Spelled = { text, from: new Array<number>(text.length), to: new Array<number>(text.length) };
  for (let k = 0; k < text.length; k++) {
    s.from[k] = k;
    s.to[k] = k + 1;
  }
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const next = decodeOnce(s);
    if (next.text === s.text) break;
    s = next;
  }
  return fold(s);
}

/** From this length on (in normal form) a value is cut wherever it shows; one of three
 * characters (a CVC, a 3-digit PIN) only as a word of its own, since `837` is also part of
 * `1837 ms`. Shorter values are not cut: a secret select's options include `01`…`12`. */
const CUT_ANYWHERE = 4;
const CUT_AS_WORD = 3;
/** A copy cut short (a script's `.slice(0, 30)` of a title the page lined up) is cut too when it
 * keeps at least this many characters of the value, and at least half of it. */
const CUT_SHORTENED = 6;

interface Needle {
  text: string;
  /** Only where neither neighbour is a letter or digit. */
  asWord: boolean;
  /** The shortest start and end of it that count as a shortened copy ('' for none). */
  head: string;
  tail: string;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The secret values one call has seen, matched in normal form. */
export class SecretMatcher {
  /** Longest first (a longer value that contains a shorter one is cut whole). */
  private needles: Needle[] = [];

  add(values: readonly string[]): void {
    const known = new Map(this.needles.map((n) => [n.text, n]));
    // A multi-line value (a textarea of recovery codes) is also cut line by line: a page can copy
    // one line of it.
    for (const v of values.flatMap((v) => [v, ...(/[\r\n]/.test(v) ? v.split(/\r\n|\r|\n/) : [])])) {
      const text = normalForm(v).text.trim();
      if (text.length < CUT_AS_WORD || known.has(text)) continue;
      const part = Math.max(CUT_SHORTENED, Math.ceil(text.length / 2));
      const shortened = part < text.length;
      known.set(text, { text, asWord: text.length < CUT_ANYWHERE, head: shortened ? text.slice(0, part) : '', tail: shortened ? text.slice(-part) : '' });
    }
    this.needles = [...known.values()].sort((a, b) => b.text.length - a.text.length);
  }

  clear(): void {
    this.needles = [];
  }

  /** `text` with each span that spells a known secret replaced by `replacement`. */
  cut(text: string, replacement: string): string {
    if (!this.needles.length || !text) return text;
    const normal = normalForm(text);
    const n = normal.text;
    /** Normal-form [start, end) spans to cut. */
    const found: Array<[number, number]> = [];
    const isWord = (start: number, end: number) => !LETTER_OR_DIGIT.test(n[start - 1] ?? '') && !LETTER_OR_DIGIT.test(n[end] ?? '');
    for (const needle of this.needles) {
      for (let at = n.indexOf(needle.text); at !== -1; at = n.indexOf(needle.text, at + 1)) {
        if (!needle.asWord || isWord(at, at + needle.text.length)) found.push([at, at + needle.text.length]);
      }
      if (!needle.head) continue;
      // Shortened copies: the value's start, as far as it goes on, and its end, as far back.
      for (let at = n.indexOf(needle.head); at !== -1; at = n.indexOf(needle.head, at + 1)) {
        let end = at + needle.head.length;
        while (end < n.length && end - at < needle.text.length && n[end] === needle.text[end - at]) end++;
        found.push([at, end]);
      }
      for (let at = n.indexOf(needle.tail); at !== -1; at = n.indexOf(needle.tail, at + 1)) {
        let start = at;
        const last = needle.text.length - needle.tail.length;
        while (start > 0 && at - start < last && n[start - 1] === needle.text[last - (at - start) - 1]) start--;
        found.push([start, at + needle.tail.length]);
      }
    }
    const spans = found.map(([start, end]): [number, number] => {
      // A shortened copy's edges may take in the space before or after it: not the secret's.
      while (n[start] === ' ' && start < end - 1) start++;
      while (n[end - 1] === ' ' && end - 1 > start) end--;
      return [normal.from[start], normal.to[end - 1]];
    });
    if (!spans.length) return text;
    spans.sort((a, b) => a[0] - b[0]);
    const merged: Array<[number, number]> = [];
    for (const [from, to] of spans) {
      const last = merged[merged.length - 1];
      if (last && from < last[1]) last[1] = Math.max(last[1], to);
      else merged.push([from, to]);
    }
    let out = '';
    let kept = 0;
    for (const [from, to] of merged) {
      out += text.slice(kept, from) + replacement;
      kept = to;
    }
    out += text.slice(kept);
    return out;
  }
}
