// Finding a secret value in a line of output however the page or the browser spelled it on its
// way there. A page holds the secret fields it serves, so it can copy a password into its title,
// a URL, a dialog or a console message, and each path re-spells it: a URL %-encodes it, a GET
// form writes `+` for a space, JSON and JavaScript escape it (`\u0068`), HTML escapes it
// (`&#104;`, `&excl;`), page text collapses its white space, an invisible character split by the
// output filter shows as U+FFFD. Listing those forms one by one lost to every form not listed
// (docs/SECURITY.md, "get a secret into output"), so both the line and the secret are brought to
// one normal form and compared there:
//
//   decode, until nothing changes (an escape inside an escape inside an escape…):
//     %XX runs (UTF-8, else windows-1252), `+` as a space, backslash escapes (\uXXXX, \u{…},
//     \xXX, \UXXXXXXXX, \n and the other one-letter escapes, \\ \" \' \/), HTML character
//     references (named and numeric, through the `entities` package, the one markdown-it decodes
//     with), punycode host labels (`xn--…`, as a browser writes a host it was given);
//   fold: runs of white space and controls to one space, U+FFFD and format characters dropped, compatibility forms (NFKD: a
//     full-width ｈ is h), case as Unicode folds it (ß and SS, ς and σ, Turkish İ and ı are i),
//     and combining marks dropped (é and e, a dot a Turkish upper case put on an i, a line
//     under a letter): a copy is found whichever way its letters were composed.
//
// A value is also looked for as a browser re-spells it on the way into a URL: its backslashes
// as slashes, and %-encoded in each legacy charset a page may declare (Shift_JIS, EUC-KR, GBK,
// Big5, KOI8-R, windows-1251…, through `iconv-lite`), as a GET form in such a page sends it.
//
// Every character of the normal form remembers the span of the original line it came from, so a
// match cuts exactly the original text that spelled it (a whole %XX run or escape at most).
// What is not undone is written in docs/SECURITY.md: a page that holds a value can always
// re-spell it in a way no matcher reads back (reversed, base64, letters apart).
import { createRequire } from 'node:module';
import { domainToUnicode } from 'node:url';
import type * as Entities from 'entities';
import type * as Iconv from 'iconv-lite';

// Loaded on first use, only in a call that has seen a secret: output.ts imports this module, and
// the thin `gstack` entry imports output.ts for its terminal filter, so a static import would
// bundle both libraries into every call's start-up (dist/bin/gstack.cjs: 33 KB -> 654 KB).
const load = createRequire(import.meta.url);
let entities: typeof Entities | undefined;
let iconvLib: typeof Iconv | undefined;
const decodeHTML = (s: string) => (entities ??= load('entities') as typeof Entities).decodeHTML(s);
const iconv = () => (iconvLib ??= load('iconv-lite') as typeof Iconv);

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
const ISO_2022_JP = /%1[bB]%24[B@](?:%[0-9a-fA-F]{2}|[A-Za-z0-9*._-])*?%1[bB]%28[BJ]/y;
// JavaScript allows any number of leading zeros in \u{…}, and HTML in a numeric reference.
const BACKSLASH_ESCAPE = /\\(?:([0-3]?[0-7]{1,2})(?![0-9])|u\{0*([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|U([0-9a-fA-F]{8})|([\s\S]))/y;
const PUNYCODE_LABEL = /xn--[a-z0-9-]+/iy;
const CHARACTER_REFERENCE = /&(?:#0*[0-9]{1,7};?|#[xX]0*[0-9a-fA-F]{1,6};?|[A-Za-z][A-Za-z0-9]{1,31};?)/y;
const ONE_LETTER: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
const utf8 = new TextDecoder('utf-8', { fatal: true });
// (Node's TextDecoder reads windows-1252 as Latin-1: 0x80-0x9F would all be C1 controls.)
const iso2022jp = new TextDecoder('iso-2022-jp');

function fromCodePoint(hex: string): string {
  const n = parseInt(hex, 16);
  return n <= 0x10ffff ? String.fromCodePoint(n) : '\uFFFD';
}

/** Bytes written as decimal numbers, four or more in a list (`[112,119,61]`, JSON's
 * `{"type":"Buffer","data":[…]}`, `new Uint8Array(buf).join(",")`, `Array.from(buf)`): a
 * script's careless print of a request body. */
const BYTE_LIST = /(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?:\s*,\s*(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?![0-9])){3,}/y;

/** One round of decoding; the same object when there was nothing to decode. */
const SPECIAL = /[%+\\&]|xn--|(?<![0-9.])[0-9]{1,3}\s*,\s*[0-9]{1,3}\s*,/gi;

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
    if (c === '%' && /^%u[0-9a-fA-F]{4}/.test(text.slice(i, i + 6))) {
      // escape()'s %uXXXX
      m = /^%u[0-9a-fA-F]{4}/.exec(text.slice(i, i + 6))!;
      out.push(String.fromCharCode(parseInt(m[0].slice(2), 16)), i, i + 6);
    } else if (c === '%' && (ISO_2022_JP.lastIndex = i) >= 0 && (m = ISO_2022_JP.exec(text))) {
      // An ISO-2022-JP run in a URL: its JIS bytes are mostly printable ASCII, which a URL
      // leaves as letters between the %-escapes, from ESC $ B to ESC ( B.
      const bytes = Uint8Array.from(m[0].match(/%[0-9a-fA-F]{2}|[^%]/g)!, (t) => (t.length === 3 ? parseInt(t.slice(1), 16) : t.charCodeAt(0)));
      out.push(iso2022jp.decode(bytes), i, i + m[0].length);
    } else if (c === '%') {
      PERCENT_RUN.lastIndex = i;
      m = PERCENT_RUN.exec(text);
      if (m) {
        const bytes = Uint8Array.from(m[0].slice(1).split('%'), (h) => parseInt(h, 16));
        // A page in a legacy charset (windows-1252) %-encodes a GET form's `ä` as %E4.
        let decoded: string;
        try {
          decoded = utf8.decode(bytes);
        } catch {
          // ISO-2022-JP switches its character sets with ESC sequences; anything else that is
          // not UTF-8 is read byte by byte.
          decoded = bytes.includes(0x1b) ? iso2022jp.decode(bytes) : iconv().decode(Buffer.from(bytes), 'windows-1252');
        }
        out.push(decoded, i, i + m[0].length);
      }
    } else if (c === '\\') {
      BACKSLASH_ESCAPE.lastIndex = i;
      m = BACKSLASH_ESCAPE.exec(text);
      if (m) {
        const [, octal, braced, four, two, eight, other] = m;
        const hex = braced ?? four ?? two ?? eight;
        // JavaScript's octal escapes (`\132` is Z); `\0` alone is NUL, as ONE_LETTER has it.
        const decoded = octal !== undefined && octal !== '0' ? String.fromCharCode(parseInt(octal, 8)) : hex !== undefined ? fromCodePoint(hex) : (ONE_LETTER[other ?? octal] ?? other ?? octal);
        out.push(decoded, i, i + m[0].length);
      }
    } else if (c === '&') {
      CHARACTER_REFERENCE.lastIndex = i;
      m = CHARACTER_REFERENCE.exec(text);
      if (m) {
        const decoded = decodeHTML(m[0]);
        if (decoded === m[0]) m = null;
        else out.push(decoded, i, i + m[0].length);
      }
    } else if ((c === 'x' || c === 'X') && /^xn--/i.test(text.slice(i, i + 4))) {
      PUNYCODE_LABEL.lastIndex = i;
      m = PUNYCODE_LABEL.exec(text);
      if (m) {
        const label = domainToUnicode(m[0]);
        if (!label || label === m[0]) m = null;
        else out.push(label, i, i + m[0].length);
      }
    } else if (c >= '0' && c <= '9') {
      BYTE_LIST.lastIndex = i;
      m = BYTE_LIST.exec(text);
      if (m && /[0-9]/.test(text[i + m[0].length] ?? '')) m = null;
      if (m) {
        const bytes = Uint8Array.from(m[0].split(','), (n) => Number(n.trim()));
        let decoded: string;
        try {
          decoded = utf8.decode(bytes);
        } catch {
          decoded = iconv().decode(Buffer.from(bytes), 'windows-1252');
        }
        out.push(decoded, i, i + m[0].length);
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
    if (cp === 0xfffd || INVISIBLE.test(ch)) {
      // dropped: U+FFFD stands for what the output filter replaced, and a value's own invisible
      // and format characters (an RLO in a password) are replaced so in a line
    } else if (/\s/u.test(ch) || /\p{Cc}/u.test(ch)) {
      // A control character in a value shows as a space or a replacement in a line.
      if (!lastWasSpace) out.push(' ', i, i + width);
      lastWasSpace = true;
    } else {
      // Upper then lower: the full case folding JavaScript has (ß -> SS -> ss, ς -> Σ -> σ,
      // ı -> I -> i); then the marks no letter took (İ lowers to i and a combining dot).
      // A compatibility plus (＋ ﹢ ⁺) is `+`, which a line's first round of decoding reads as a
      // space (URL form): so is it here.
      const folded = ch.normalize('NFKD').toUpperCase().toLowerCase().normalize('NFKD').replace(COMBINING_MARK, '').replace(/\+/g, ' ');
      out.push(folded, i, i + width);
      if (folded) lastWasSpace = false;
    }
    i += width;
  }
  return out.done();
}

/** Rounds of decoding a line is given (each round that changes a line shortens it). A line that
 * still decodes after them is nested deeper than anything but an attack would be: once the call
 * has seen a secret, such a line is withheld whole rather than matched half-decoded. */
const DECODE_ROUNDS = 32;
/** What such a line prints as. A line of its own kind, not `[redacted]`: `flows check` treats
 * it as a cut (driver/flows/expect.ts), since the same words in two runs would hide a change
 * the page made inside it (pass 26, A26: `STATUS=Payment accepted%2525…` and `…DECLINED…`). */
export const WITHHELD_LINE = '[redacted: a line whose escapes nest past 32 levels]';
const COMBINING_MARK = /\p{M}/gu;
const INVISIBLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;

function normalForm(text: string): Spelled {
  const { forms } = normalForms(text);
  return forms[forms.length - 1];
}

/** The line folded after each round of decoding, from none to all: the last is the normal form.
 * A line is matched in every one of them, so a page cannot hide a plain copy of a value by
 * putting an escape's start before it (`%123456` would decode `%12` and leave `3456`;
 * `\123456` and `&#123456` likewise): the copy as written is found in the first. */
function normalForms(text: string): { forms: Spelled[]; complete: boolean } {
  // Each unit of the original spells itself.
  let s: Spelled = { text, from: new Array<number>(text.length), to: new Array<number>(text.length) };
  for (let k = 0; k < text.length; k++) {
    s.from[k] = k;
    s.to[k] = k + 1;
  }
  const forms = [fold(s)];
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const next = decodeOnce(s);
    if (next.text === s.text) return { forms, complete: true };
    s = next;
    forms.push(fold(s));
  }
  return { forms, complete: decodeOnce(s).text === s.text };
}

/** From this length on (in normal form) a value is cut wherever it shows; one of three
 * characters (a CVC, a 3-digit PIN) only where it stands apart: its digits not next to other
 * digits, its letters not next to letters of a script written with spaces (`CVC 837` and
 * `安全码是837`, not `1837 ms`). Shorter values are not cut: a secret select's options include
 * `01`…`12`. */
const CUT_ANYWHERE = 4;
const CUT_APART = 3;
/** A copy cut short at either end or both (a script's `.slice(0, 30)` of a title the page lined
 * up, `cc.slice(1, -1)`, Chrome's console preview of a long string: its first and last 50
 * characters) is cut when it keeps at least CUT_SHORTENED characters of the value in a row, and
 * at least half of it or CUT_SHORTENED_LONG characters, whichever is less. */
const CUT_SHORTENED = 6;
const CUT_SHORTENED_LONG = 24;
/** Legacy charsets a page may declare, in which a GET form %-encodes a value. */
/** Every legacy encoding of the WHATWG Encoding Standard (what a page may declare), as
 * iconv-lite names them; ISO-2022-JP, which iconv-lite cannot write, is read back instead
 * (decodeOnce). */
const LEGACY_CHARSETS = [
  'ibm866', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8', 'iso-8859-10',
  'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'iso-8859-16', 'koi8-r', 'koi8-u', 'macintosh', 'maccyrillic', 'windows-874',
  'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257',
  'windows-1258', 'gbk', 'gb18030', 'big5', 'euc-jp', 'shift_jis', 'euc-kr',
];
/** What a URL leaves as it is (the rest of a byte sequence is %-encoded). */
const URL_PLAIN = /^[A-Za-z0-9*._-]$/;

interface Needle {
  text: string;
  /** Only where it stands apart (CUT_APART). */
  apart: boolean;
  /** The length of a shortened copy that counts (0 for none). */
  part: number;
  /** Every run of `part` characters of it, with where it starts in it. */
  pieces: Map<string, number>;
  /** Its text without spaces, when that is long enough to look for in a line without spaces
   * (COMPACT_MIN): a browser breaks a long value into lines (`<textarea wrap=hard>` sends CRLFs
   * at its wrap points). */
  compact?: string;
}

const COMPACT_MIN = 8;

const DIGIT = /\p{N}/u;
const SPACED_LETTER = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Georgian}]/u;

/** The spellings of a value a browser makes on the way into a URL. */
function urlSpellings(v: string): string[] {
  const out = v.includes('\\') ? [v.replace(/\\/g, '/')] : [];
  // Chrome names a download after the page's choice with these characters, and every control
  // and format character (an RLO, a soft hyphen, a tab), replaced by `_`.
  if (/[\\/:*?"<>|\p{Cc}\p{Cf}]/u.test(v)) out.push(v.replace(/[\\/:*?"<>|\p{Cc}\p{Cf}]/gu, '_'));
  // A value written in groups (a card number, `4111 1111 1111 1111`) is printed as often without
  // its spaces, or with dashes.
  if (/^[\p{N}\p{L}]+(?:[ -][\p{N}\p{L}]+)+$/u.test(v.trim())) out.push(v.trim().replace(/[ -]/g, ''), v.trim().replace(/[ -]/g, '-'), v.trim().replace(/[ -]/g, ' '));
  // The URL parser drops tabs and newlines wherever they are.
  if (/[\t\n\r]/.test(v)) out.push(v.replace(/[\t\n\r]/g, ''));
  // A value a page puts in a URL's host comes out as the host parser writes it (pass 26, A26):
  // a number as an IPv4 address (`837261` is `0.12.198.141`), an ideographic full stop as a dot,
  // upper case lowered, and punycode, which the normal form reads back.
  if (!/[/?#@:\\\s]/.test(v)) {
    try {
      const host = new URL(`http://${v}/`).hostname;
      if (host && host !== v) out.push(host, domainToUnicode(host) || host);
    } catch {
      // Not a host: nothing the browser would write.
    }
  }
  if (/^[\x00-\x7f]*$/.test(v)) return out;
  for (const charset of LEGACY_CHARSETS) {
    const bytes = iconv().encode(v, charset);
    if (iconv().decode(bytes, charset) !== v) continue; // not all of it is in this charset
    out.push(Array.from(bytes, (b) => (URL_PLAIN.test(String.fromCharCode(b)) ? String.fromCharCode(b) : b === 0x20 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join(''));
  }
  return out;
}

/**
 * `text` with each span replaced by its mark. Overlapping spans are cut as one, with the mark
 * of the first span in the list that takes part: spans of several matchers are cut in one go,
 * so a short value of one cut inside another's long value cannot break the long one's copy
 * into pieces too short for either to match (pass 38, A38).
 */
export function cutSpans(text: string, spans: ReadonlyArray<readonly [number, number, string]>): string {
  if (!spans.length) return text;
  const order = new Map(spans.map((s, i) => [s, i]));
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number, number]> = [];
  for (const span of sorted) {
    const rank = order.get(span)!;
    const last = merged[merged.length - 1];
    if (last && span[0] < last[1]) {
      last[1] = Math.max(last[1], span[1]);
      last[2] = Math.min(last[2], rank);
    } else merged.push([span[0], span[1], rank]);
  }
  let out = '';
  let kept = 0;
  for (const [from, to, rank] of merged) {
    out += text.slice(kept, from) + spans[rank][2];
    kept = to;
  }
  return out + text.slice(kept);
}

/** The secret values one call has seen, matched in normal form. */
export class SecretMatcher {
  /** Longest first (a longer value that contains a shorter one is cut whole). */
  private needles: Needle[] = [];

  add(values: readonly string[]): void {
    const known = new Map(this.needles.map((n) => [n.text, n]));
    // A multi-line value (a textarea of recovery codes) is also cut line by line: a page can copy
    // one line of it.
    const lines = values.flatMap((v) => [v, ...(/[\r\n]/.test(v) ? v.split(/\r\n|\r|\n/) : [])]);
    // Each spelling in its normal form, and also folded as written: a copy whose case changed
    // (`\T` for `\t`) no longer decodes as the value did, but folds as its written form does.
    const spellings = lines.flatMap((v) => [v, ...urlSpellings(v)]).flatMap((v) => [normalForm(v).text, ...(/[\\%&+]|xn--/i.test(v) ? [normalForms(v).forms[0].text] : [])]);
    for (const spelled of spellings) {
      const text = spelled.trim();
      if (text.length < CUT_APART || known.has(text)) continue;
      const part = Math.max(CUT_SHORTENED, Math.min(Math.ceil(text.length / 2), CUT_SHORTENED_LONG));
      const pieces = new Map<string, number>();
      if (part < text.length) for (let w = 0; w + part <= text.length; w++) if (!pieces.has(text.slice(w, w + part))) pieces.set(text.slice(w, w + part), w);
      const compact = text.replace(/ /g, '');
      known.set(text, { text, apart: text.length < CUT_ANYWHERE, part: part < text.length ? part : 0, pieces, ...(compact.length >= COMPACT_MIN ? { compact } : {}) });
    }
    this.needles = [...known.values()].sort((a, b) => b.text.length - a.text.length);
  }

  clear(): void {
    this.needles = [];
  }

  /** Whether `lowered` (lower-cased by the caller) holds a known value of `minLength`
   * characters or more as written or in one of its URL spellings: a plain substring search, for
   * bytes too large or too binary for `spans` (driver/runtime/artifact-secrets.ts). */
  spelledIn(lowered: string, minLength: number): boolean {
    return this.needles.some((n) => n.text.length >= minLength && lowered.includes(n.text.toLowerCase()));
  }

  /** Whether any value is known (a caller may skip a costly walk when none is). */
  get empty(): boolean {
    return this.needles.length === 0;
  }

  /** `text` with each span that spells a known secret replaced by `replacement`. */
  cut(text: string, replacement: string): string {
    const spans = this.spans(text);
    return spans === undefined ? WITHHELD_LINE : cutSpans(text, spans.map(([from, to]) => [from, to, replacement]));
  }

  /** The [start, end) spans of `text` that spell a known secret; undefined when the line's
   * escapes nest too deep to read (it is withheld whole). */
  spans(text: string): Array<[number, number]> | undefined {
    if (!this.needles.length || !text) return [];
    const seen = new Set<string>();
    const { forms, complete } = normalForms(text);
    if (!complete) return undefined;
    const spans = forms.flatMap((form) => {
      if (seen.has(form.text)) return [];
      seen.add(form.text);
      return this.spansIn(form, text);
    });
    spans.push(...this.compactSpans(forms[forms.length - 1]));
    return spans;
  }

  /** Spans where a long value shows with spaces or line breaks put between its characters. */
  private compactSpans(normal: Spelled): Array<[number, number]> {
    if (!normal.text.includes(' ')) return [];
    const needles = this.needles.filter((n) => n.compact);
    if (!needles.length) return [];
    const kept: number[] = [];
    for (let k = 0; k < normal.text.length; k++) if (normal.text[k] !== ' ') kept.push(k);
    const compact = kept.map((k) => normal.text[k]).join('');
    const found: Array<[number, number]> = [];
    for (const needle of needles) {
      const t = needle.compact!;
      for (let at = compact.indexOf(t); at !== -1; at = compact.indexOf(t, at + 1)) found.push([normal.from[kept[at]], normal.to[kept[at + t.length - 1]]]);
    }
    return found;
  }

  /** The [start, end) spans of the original line that spell a known secret in this form of it. */
  private spansIn(normal: Spelled, line: string): Array<[number, number]> {
    const n = normal.text;
    // A number sign the normal form turned into digits (`½` is `1⁄2`, `¹` is `1`, `①` is `1`)
    // is no digit of the value's number: `837½` leaves 837 standing apart (pass 21, A21).
    // So is any other character whose compatibility form starts or ends with a digit (`㏠` is
    // `1日`, `㋀` is `1月`: pass 26, A26): only a decimal digit written as one joins the number.
    const foldedNumber = (k: number) => k >= 0 && k < n.length && DIGIT.test(n[k]) && !/^\p{Nd}$/u.test(line.slice(normal.from[k], normal.to[k]));
    /** Normal-form [start, end) spans to cut. */
    const found: Array<[number, number]> = [];
    /** Whether the neighbour of a value's end character leaves it standing apart. */
    // Digits of one script make one number: an ASCII 837 beside an Arabic-Indic zero (which
    // looks like a dot) stands apart.
    const sameDigits = (own: string, neighbour: string) => (/[0-9]/.test(own) ? /[0-9]/.test(neighbour) : DIGIT.test(neighbour));
    const apartFrom = (own: string, neighbour: string | undefined) =>
      neighbour === undefined || (DIGIT.test(own) ? !sameDigits(own, neighbour) : !SPACED_LETTER.test(neighbour) && !/[0-9]/.test(neighbour));
    for (const needle of this.needles) {
      const t = needle.text;
      for (let at = n.indexOf(t); at !== -1; at = n.indexOf(t, at + 1)) {
        const end = at + t.length;
        if (!needle.apart || ((foldedNumber(at - 1) || apartFrom(t[0], n[at - 1])) && (foldedNumber(end) || apartFrom(t[t.length - 1], n[end])))) found.push([at, end]);
      }
      if (!needle.part) continue;
      // Shortened copies: every run of `part` characters of the line that is one of the value's,
      // grown as far as the line goes on spelling the value on either side.
      for (let at = 0; at + needle.part <= n.length; at++) {
        const w = needle.pieces.get(n.slice(at, at + needle.part));
        if (w === undefined) continue;
        let from = at;
        let to = at + needle.part;
        while (from > 0 && w - (at - from) > 0 && n[from - 1] === t[w - (at - from) - 1]) from--;
        while (to < n.length && w + (to - at) < t.length && n[to] === t[w + (to - at)]) to++;
        found.push([from, to]);
        at = to - needle.part;
      }
    }
    return found.map(([start, end]): [number, number] => {
      // A shortened copy's edges may take in the space before or after it: not the secret's.
      while (n[start] === ' ' && start < end - 1) start++;
      while (n[end - 1] === ' ' && end - 1 > start) end--;
      return [normal.from[start], normal.to[end - 1]];
    });
  }
}
