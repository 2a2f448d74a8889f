// The egress filter of a flow script's stdout: lone UTF-16 surrogates are replaced, escape
// sequences, other controls and invisible characters never reach the terminal (the same
// filter, terminalSafe, that bin/cli.ts puts on every line of every command), total output is
// capped with a visible marker, and the sentinel and the final [error] line are never cut.
// What may count as the sentinel is decided here too (docs/SECURITY.md, "The page is hostile").

import { AsyncLocalStorage } from 'node:async_hooks';
import { sep } from 'node:path';
import { SENTINEL } from '../catalog.gen.js';
import { SecretMatcher, WITHHELD_LINE, cutSpans } from './secret-match.js';
import { onHeldValues } from '../errors.js';

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

/**
 * Characters that show nothing to a person but reach an agent reading the text, so a page can
 * hide instructions in them: Unicode tags (U+E0000-E007F, an invisible copy of ASCII), the
 * line and paragraph separators (U+2028/2029, a line break some readers honour and terminals
 * do not), zero-width space and joiners, word joiner and invisible operators (U+200B-U+200D,
 * U+2060-U+2064), the direction marks LRM, RLM and ALM (U+200E, U+200F, U+061C), the BOM /
 * zero-width no-break space (U+FEFF), the Mongolian vowel separator (U+180E), deprecated
 * format controls (U+206A-U+206F), interlinear annotation marks (U+FFF9-U+FFFB) and the
 * variation selectors supplement (U+E0100-E01EF). Each run of them becomes one U+FFFD, so the
 * reader sees that something was there without a hidden message spelled out in it.
 *
 * Kept, where they change how a word or an emoji looks: a zero-width joiner between two emoji
 * (👨‍👩‍👧, 🏳️‍🌈) or after a combining mark (an Indic virama: क्‍ष), and a zero-width
 * non-joiner between two letters of a script that joins them (Persian نمی‌خواهم). Between
 * Latin letters they change nothing visible and are replaced like the rest.
 */
//
// Beyond those named: three marks that draw nothing and are neither (the Khitan small script
// filler U+16FE4, the Duployan thick letter selector U+1BC9D, the Tifinagh consonant joiner
// U+2D7F: a page wrote bits in them); every other Default_Ignorable_Code_Point and format character (Cf) too
// (soft hyphen, Hangul fillers, Khmer and Mongolian inherent vowels and selectors, musical and
// shorthand format controls, ...), and the variation selectors U+FE00-FE0F, which a page can use
// two to a byte. An emoji's own presentation selector (one U+FE0E/U+FE0F right after an
// emoji-capable character, or in a keycap) is kept; after a letter it is replaced, since one per
// letter would be a hidden bit per letter.
const INVISIBLE_RUN = /(?:[\u{16FE4}\u{1BC9D}\u2D7F\u{E0000}-\u{E007F}\u2028\u2029\u200B-\u200F\u2060-\u2064\u061C\uFEFF\u180E\u206A-\u206F\uFFF9-\uFFFB\u{E0100}-\u{E01EF}\uFE00-\uFE0F\p{Default_Ignorable_Code_Point}\p{Cf}])+/gu;
const EMOJI_BEFORE = /[\p{Extended_Pictographic}\u{1F3FB}-\u{1F3FF}\uFE0F]$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;
const VS_BASE = /\p{Emoji}$/u;
const MARK_BEFORE = /\p{M}$/u;
// The scripts a zero-width non-joiner shapes: the joining scripts (Arabic, Syriac, N'Ko,
// Mongolian, Mandaic, Hanifi Rohingya, Adlam) and the Indic ones whose conjuncts it breaks.
// Between letters of any other script (Greek, Cyrillic, Han...) it shows nothing and is cut.
const JOINING_SCRIPTS = '\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Nko}\\p{Script=Mongolian}\\p{Script=Mandaic}\\p{Script=Hanifi_Rohingya}\\p{Script=Adlam}\\p{Script=Devanagari}\\p{Script=Bengali}\\p{Script=Gurmukhi}\\p{Script=Gujarati}\\p{Script=Oriya}\\p{Script=Tamil}\\p{Script=Telugu}\\p{Script=Kannada}\\p{Script=Malayalam}\\p{Script=Sinhala}';
const JOINING_LETTER_BEFORE = new RegExp(`[${JOINING_SCRIPTS}]$`, 'u');
const JOINING_LETTER_AFTER = new RegExp(`^[${JOINING_SCRIPTS}]`, 'u');

function hideNoText(s: string): string {
  return s.replace(INVISIBLE_RUN, (run, at: number, whole: string) => {
    const before = whole.slice(Math.max(0, at - 2), at);
    const after = whole.slice(at + run.length, at + run.length + 2);
    // A presentation selector belongs after an emoji-capable character only (a pictograph, ©,
    // ®, ...); after a digit, # or * only as part of a keycap (U+20E3 next). After a letter it
    // shows nothing and would carry one hidden bit per letter.
    if ((run === '\uFE0F' || run === '\uFE0E') && VS_BASE.test(before) && (!/[0-9#*]$/.test(before) || after.startsWith('\u20E3'))) return run;
    if (/^\uFE0F?\u200D$/.test(run) && EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after)) return run;
    if (run === '\u200D' && EMOJI_BEFORE.test(before) && EMOJI_AFTER.test(after)) return run;
    if (run === '\u200D' && MARK_BEFORE.test(before) && JOINING_LETTER_AFTER.test(after)) return run;
    if (run === '\u200C' && JOINING_LETTER_BEFORE.test(before) && JOINING_LETTER_AFTER.test(after)) return run;
    return '\uFFFD';
  });
}

/** The written-out escape of a character, as JSON, JavaScript and YAML print one: `\u001b`,
 * a surrogate pair `\udb40\udc41`, `\u{E0041}`, `\x1b`; Perl's `\x{1b}` and `\o{33}`, with
 * the blanks inside the braces and the underscores between digits Perl reads (`\x{ 1b }`,
 * `\x{1_b}`); and bash's `\u` and `\U` with fewer digits (`\u1b`, `\U202e`: printf %b and
 * echo -e read 1-4 and 1-8 hex digits; pass 23, B23). */
const ESCAPED_CHAR = /\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{1,4})|\\[ux]\{[ \t]*([0-9a-fA-F][0-9a-fA-F_]{0,30})[ \t]*\}|\\x([0-9a-fA-F]{2})|\\U([0-9a-fA-F]{1,8})|\\o\{[ \t]*([0-7][0-7_]{0,30})[ \t]*\}/g;

/** A run of byte escapes (`\xef\xbb\xbf`, `\357\273\277`) that Perl, printf and C decode into
 * the UTF-8 of one character: a BOM or an interlinear annotation mark so written is invisible
 * text once decoded, though each byte alone is a visible Latin-1 letter (pass 23, B23). */
const BYTE_ESCAPE_RUN = /(?:\\x[0-9a-fA-F]{2}|\\[0-3][0-7]{2}){2,}/g;
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function hideEscapedUtf8(s: string): string {
  return s.replace(BYTE_ESCAPE_RUN, (run) => {
    const bytes = (run.match(/\\(?:x[0-9a-fA-F]{2}|[0-7]{3})/g) ?? []).map((e) => (e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 8)));
    let text: string;
    try {
      text = UTF8.decode(Uint8Array.from(bytes));
    } catch {
      return run;
    }
    return hideNoText(text.replace(UNSAFE_CHAR, '\uFFFD')) !== text ? '\uFFFD' : run;
  });
}

/** What a line says once its escapes are decoded is what reaches a screen: `jq -r` of a JSON
 * line, a YAML reader, an agent printing a field it parsed. So an escape that spells a control
 * or an invisible character (`\u001b[2J`, `\u202e`, a tag character) is replaced as the
 * character itself would be; an escape of any other character (`\u00e9`) stays. */
/** Python's and Perl's named escapes (`\N{ESCAPE}`, `\N{RIGHT-TO-LEFT OVERRIDE}`, `\N{U+1B}`):
 * `unicode_escape` of a line `jq -r` gave back decodes them (pass 22, B22). Resolving a
 * character name needs Unicode's name table, so the `\N` of each is cut and what the braces
 * hold stays (`�{ESCAPE}`): no decoder reads a name without it, and cutting the braces too hid
 * words a page wrote in them from the reader and from `flows check` (pass 23, A23). */
// (With the backslash JSON put before it: `\\N` in a JSON line becomes U+FFFD, not `\` and
// U+FFFD, which no JSON reader accepts.)
const NAMED_ESCAPE = /\\{1,2}N(?=\{)/g;

function hideEscapedControls(s: string): string {
  if (!s.includes('\\')) return s;
  if (s.includes('\\N{')) s = s.replace(NAMED_ESCAPE, '\uFFFD');
  s = hideEscapedUtf8(s);
  return s.replace(ESCAPED_CHAR, (whole, hi?: string, lo?: string, u4?: string, braced?: string, x2?: string, u8?: string, o?: string) => {
    const digits = (d: string, radix: number) => codePoint(parseInt(d.replace(/_/g, ''), radix));
    const ch = hi ? String.fromCharCode(parseInt(hi, 16), parseInt(lo!, 16)) : u4 ? String.fromCharCode(parseInt(u4, 16)) : braced ? digits(braced, 16) : u8 ? codePoint(parseInt(u8, 16)) : o ? digits(o, 8) : String.fromCharCode(parseInt(x2!, 16));
    if (ch === '\t') return whole;
    // Half a surrogate pair, written apart from its other half (`\\udb40\\udc72`, escaped twice):
    // a second decode joins them into a tag character. No text needs one alone.
    if (/^[\uD800-\uDFFF]$/.test(ch)) return '\uFFFD';
    return ch === '' || hideNoText(ch.replace(UNSAFE_CHAR, '\uFFFD')) !== ch ? '\uFFFD' : whole;
  });
}

/** The one-letter escapes of controls that JSON has (`\b`, `\f`, `\r`; `\v` in JavaScript),
 * where a double-quoted string may hold them: `jq -r` of `CONSOLE_ERRORS=["DELETE ALL\b\b…"]`
 * puts a backspace or a carriage return on screen, which overwrites what was printed before it.
 * Cut where an unescaped `"` stands somewhere before and somewhere after it on the line (not by
 * counting quotes: one `"` in page text earlier on the line would turn the count around), or
 * anywhere on a line with an odd number of them (a quoted string that goes on over lines), and
 * only where the backslash is not itself escaped (`"C:\\repo"`): raw page text such as a
 * Windows path `C:\repo` with no quotes around it is not JSON, and nothing decodes it. */
// JSON's \b \f \r, JavaScript's \v, YAML's \a (a bell), \e (ESC), \N, \L and \P (next line,
// line and paragraph separators); and the octal escapes JavaScript (outside strict mode), C,
// Python and printf decode (`\33[2J`, `\7`, `\233`, `\0`): those of a control (pass 20, B20).
// Bash's `\E` (printf %b, echo -e, $'…') and control escapes `\c[` (bash, Perl) and `\C-[`
// (Ruby) too (pass 21, B21).
const SHORT_ESCAPE_LETTERS = 'bfrvaeENLP';
const SHORT_ESCAPE = /\\[bfrv0-7aeENLPcCx]/;
const OCTAL_ESCAPE = /^[0-7]{1,3}/;

function hideShortEscapes(s: string): string {
  if (!SHORT_ESCAPE.test(s)) return s;
  // Where the unescaped quotes are.
  const quotes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') quotes.push(i);
  }
  if (quotes.length === 0) return s;
  // One quote, or an odd number: the line starts or ends inside a quoted string that goes on
  // over another line (a YAML scalar: `status: "All checks passed` then `  \e[2J\rDone"`), and
  // which side is inside cannot be told from the line: the whole line counts as inside.
  const first = quotes.length % 2 ? -1 : quotes[0];
  const last = quotes.length % 2 ? s.length : quotes[quotes.length - 1];
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      const next = s[i + 1];
      const inside = i > first && i < last;
      const octal = OCTAL_ESCAPE.exec(s.slice(i + 1, i + 4))?.[0];
      if (octal) {
        // The longest escape a decoder reads (three digits at most, and at most 0o377).
        const digits = parseInt(octal, 8) > 0o377 ? octal.slice(0, 2) : octal;
        const code = parseInt(digits, 8);
        out += inside && (code < 0x20 || (code >= 0x7f && code <= 0x9f)) ? '\uFFFD' : c + digits;
        i += digits.length;
        continue;
      }
      // `\cX` and `\C-X`: the control character of X, for any printable X (bash's `\c-` is a
      // CR, `\c1` a DC1; pass 24, B24).
      const control = next === 'c' ? 1 : next === 'C' && s[i + 2] === '-' ? 2 : 0;
      if (inside && control && i + 1 + control < s.length && /[ -~]/.test(s[i + 1 + control])) {
        out += '\uFFFD';
        i += 1 + control;
        continue;
      }
      // `\x` with one hex digit, or none (Perl, bash and C read `\xd` as a CR and a bare `\x`
      // as NUL; pass 24, B24). Two digits are hideEscapedControls' (anywhere on the line).
      if (inside && next === 'x' && !/^[0-9a-fA-F]{2}/.test(s.slice(i + 2, i + 4))) {
        const digit = /^[0-9a-fA-F]/.test(s[i + 2] ?? '') ? 1 : 0;
        out += '\uFFFD';
        i += 1 + digit;
        continue;
      }
      out += inside && SHORT_ESCAPE_LETTERS.includes(next) ? '\uFFFD' : c + next;
      i++;
      continue;
    }
    out += c;
  }
  return out;
}

function codePoint(n: number): string {
  return n <= 0x10ffff ? String.fromCodePoint(n) : '';
}

/** One line made safe for a terminal (see above). A newline inside it is a control too, and so
 * is the written-out escape of one (hideEscapedControls). */
/** A mark of one script's own (a virama, a stacker, a vowel sign: not an accent every script
 * takes) on a letter of Latin, Greek or Cyrillic, a digit, a sign or nothing. Khmer's coeng,
 * Tai Tham's sakot, Myanmar's virama draw nothing there and carry one hidden bit per letter
 * (`P\u17D2a\u1A60y…` reads "Payment accepted"; pass 21, B21). */
const FOREIGN_MARK_BASE = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}]/u;
/** Scripts with marks of their own. A mark of one of them is kept only on a letter of a script
 * it belongs to (Unicode's Script_Extensions): a Khmer coeng on a Han or Hebrew letter draws
 * nothing there either (pass 22, B22). A mark of a script not listed is judged by the rule
 * above only. */
const MARK_SCRIPTS = [
  'Arabic', 'Armenian', 'Balinese', 'Bengali', 'Brahmi', 'Buginese', 'Chakma', 'Cham', 'Devanagari', 'Egyptian_Hieroglyphs', 'Ethiopic',
  'Grantha', 'Gujarati', 'Gurmukhi', 'Han', 'Hangul', 'Hanifi_Rohingya', 'Hebrew', 'Hiragana', 'Javanese', 'Kaithi', 'Kannada', 'Katakana',
  'Kayah_Li', 'Khmer', 'Khojki', 'Lao', 'Lepcha', 'Limbu', 'Malayalam', 'Masaram_Gondi', 'Meetei_Mayek', 'Mongolian', 'Myanmar', 'New_Tai_Lue',
  'Nko', 'Oriya', 'Rejang', 'Saurashtra', 'Sharada', 'SignWriting', 'Sinhala', 'Soyombo', 'Sundanese', 'Syloti_Nagri', 'Syriac', 'Tagalog',
  'Tai_Tham', 'Tai_Viet', 'Takri', 'Tamil', 'Telugu', 'Thaana', 'Thai', 'Tibetan', 'Tifinagh', 'Zanabazar_Square',
].map((name) => new RegExp(`\\p{Script_Extensions=${name}}`, 'u'));
const markScripts = new Map<string, RegExp[]>();
function markFitsItsBase(mark: string, base: string): boolean {
  let scripts = markScripts.get(mark);
  if (!scripts) {
    scripts = MARK_SCRIPTS.filter((re) => re.test(mark));
    if (markScripts.size < 4096) markScripts.set(mark, scripts);
  }
  return scripts.length === 0 || scripts.some((re) => re.test(base));
}
/** A mark of a script's own: not one every script takes (Inherited). */
const SCRIPT_MARK = /(?=\p{M})\P{Script=Inherited}/u;
function hideForeignMarks(s: string): string {
  if (!SCRIPT_MARK.test(s)) return s;
  let out = '';
  let base = '';
  for (const ch of s) {
    if (/\p{M}/u.test(ch)) {
      const foreign = SCRIPT_MARK.test(ch) && (base === '' || FOREIGN_MARK_BASE.test(base) || !markFitsItsBase(ch, base));
      out += foreign ? '\uFFFD' : ch;
      continue;
    }
    base = ch;
    out += ch;
  }
  return out;
}

export function stripControls(s: string): string {
  // A whole escape sequence becomes one U+FFFD, not nothing: what a terminal would have done
  // with it (a title, a hidden string) is not done, and the reader, and `flows check`, see that
  // something was there (a page that writes "Payment accepted" + an OSC holding "DECLINED").
  return hideForeignMarks(hideNoText(hideShortEscapes(hideEscapedControls(s.replace(ESCAPE_SEQUENCE, '\uFFFD').replace(UNSAFE_CHAR, '\uFFFD')))));
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

/** A value as one line of JSON for `--json` output, every string in it made terminal-safe
 * first: JSON escapes an ESC as `\u001b`, but whoever decodes the value (`jq -r`, an agent's
 * parser printing a field) would put it on screen, so what text mode strips is stripped here
 * too (docs/SECURITY.md, "put terminal controls on screen"). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? terminalSafe(v) : v));
}

/** A notice as one line whatever text it quotes: a line break in a name a document chose
 * (`<img src=".s&#x0A;sh/k.png">`) is shown as `\n`, so the document cannot start a stderr line
 * of its own choosing (pass 44, B44). */
export function noticeLine(text: string): string {
  return text.replace(/\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g, '\\n');
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

/**
 * The secret field values the current call has seen (every secretValues() of a snapshot, a
 * read, content(), the failure evidence): a page can copy a secret into its title, its URL, a
 * dialog or a console message, or a browser can (a GET form puts a password in the URL), so
 * once seen a value is cut from every later line of the call, whatever path prints it. A
 * process runs one call at a time (a session host serializes its calls), so the set is the
 * process's and is emptied when a call starts and ends (driver/runner/run-script.ts).
 */
const seenSecrets = new SecretMatcher();

/** Remember secret values for the rest of the call: each is cut from a line however the line
 * spells it (%-encoded, escaped, HTML, spaced or cased otherwise; driver/runtime/secret-match.ts). */
export function learnSecrets(values: readonly string[]): void {
  seenSecrets.add(values);
}
// What an error quoted from a field (driver/errors.ts redactElementValues) is seen too.
onHeldValues(learnSecrets);

/**
 * The secret values seen only in a frame of another origin than its tab's page (an ad, a
 * payment or sign-in widget). Still cut from every line, but marked as such: such a frame can
 * hold the page's own words ("accepted", then "DECLINED") so that a line reads `[redacted]` in
 * both runs of `gstack flows check`, which counts this mark as a line it cannot compare
 * (driver/flows/expect.ts; pass 27, A27). A script's own reads are never cut by it.
 */
const foreignSecrets = new SecretMatcher();
export const FOREIGN_SECRET_MARK = '[redacted: a field of another origin]';

/** Remember values seen only in a frame of another origin (foreignSecrets). */
export function learnForeignSecrets(values: readonly string[]): void {
  foreignSecrets.add(values);
}

/** Whether the call has seen any secret value (a PDF's links need a parse only then). */
export function anySecretsSeen(): boolean {
  return !seenSecrets.empty || !foreignSecrets.empty;
}

/** Whether `text` holds a seen value of `minLength` characters or more, by a plain
 * case-insensitive search (no decoding, no partial copies): for large or binary files. */
export function secretsSpelledIn(text: string, minLength: number): boolean {
  const lowered = text.toLowerCase();
  return seenSecrets.spelledIn(lowered, minLength) || foreignSecrets.spelledIn(lowered, minLength);
}

/** The [start, end) spans of `text` that spell a value the call has seen (either set);
 * undefined when the matcher cannot read it (a caller then treats all of it as secret). */
export function seenSecretSpans(text: string): Array<[number, number]> | undefined {
  try {
    const foreign = foreignSecrets.spans(text);
    const own = seenSecrets.spans(text);
    return foreign === undefined || own === undefined ? undefined : [...foreign, ...own];
  } catch {
    return undefined;
  }
}

export function forgetSecrets(): void {
  seenSecrets.clear();
  foreignSecrets.clear();
}

/** `text` with every secret value the call has seen replaced by `[redacted]` (one seen only in
 * another origin's frame by FOREIGN_SECRET_MARK). Fails closed: if the matcher itself fails on
 * a line (a decoder that could not load), the whole line is withheld rather than printed uncut
 * or thrown into the page callback that printed it. */
export function cutSeenSecrets(text: string): string {
  try {
    // Both sets in one go: cut one after the other, a page's own short value cut inside a
    // frame's long one left pieces of the long one too short to match (pass 38, A38). Where
    // they overlap, the frame's mark wins (a line that holds it is never compared).
    const foreign = foreignSecrets.spans(text);
    const own = seenSecrets.spans(text);
    if (foreign === undefined || own === undefined) return WITHHELD_LINE;
    return cutSpans(text, [...foreign.map(([a, b]) => [a, b, FOREIGN_SECRET_MARK] as const), ...own.map(([a, b]) => [a, b, '[redacted]'] as const)]);
  } catch {
    // Its message is not printed: it may quote the line.
    return '[redacted: the secret filter failed on this line]';
  }
}

/** A line as it is printed: cut of the secrets the call has seen, without controls. Cut before
 * the control filter too: the filter writes an escape it reads as a control (`\b`, `\202`,
 * `\x4`) as U+FFFD, and a verbatim copy of a password holding one (`Tr0ub4dor\b&3`) no longer
 * spelled the value it had seen (pass 31, A31); and after it, for a copy spelled with a control
 * the filter takes out. */
export function shownLine(raw: string): string {
  return cutSeenSecrets(stripControls(cutSeenSecrets(raw)));
}

/** Set while a script's callback runs because the page did something (a `console`, `dialog`
 * or `request` listener, a route handler, a predicate), and in everything that callback goes
 * on to await: lines it prints are the page's words relayed, never the sentinel. The membrane
 * (membrane.ts) runs every callback inside it. */
export const pageCallbackScope = new AsyncLocalStorage<true>();

/** What the sentinel becomes inside a value that came from the page (docs/SECURITY.md, "forge
 * success"): still readable, never the exact line a success is. */
export const PAGE_SENTINEL = `[page text: ${SENTINEL}]`;
const SENTINEL_BYTES = Buffer.from(SENTINEL);
/** What the sentinel printed as a value (not spelled at its console.log) is shown as. */
export const UNSPELLED_SENTINEL = `[printed as a value, not counted: ${SENTINEL}]`;
/** What the sentinel printed from a callback (not the script's own body) is shown as. */
export const CALLBACK_SENTINEL = `[printed from a callback, not counted: ${SENTINEL}]`;

/** The name of the function the sandbox wraps a script in (sandbox.ts compileScript): a frame
 * of it on the stack, or an `async` one that awaits down to the print, is the script's own
 * body running. */
export const SCRIPT_MAIN = '__gstackScriptMain';

/**
 * Whether a print happened in the script's own body: the wrapper's frame is on the stack,
 * directly (the body, or a function it called) or as an async frame awaiting the function
 * that prints (a helper the body awaits). A `.then` callback, a timer or a listener runs from
 * the job queue with no such frame, and when it runs can be the page's choice: a promise a
 * page event resolves, a function the page calls (pass 20, A20). `stack` must be taken with a
 * limit deep enough to reach the body (the caller raises Error.stackTraceLimit).
 */
export function printedFromScriptBody(stack: string): boolean {
  return new RegExp(`\\n\\s+at (?:async )?${SCRIPT_MAIN} \\(`).test(stack);
}

/**
 * A value that came from the page (a Playwright result, an event's payload, a fetch body, a
 * file the page may have written) with every sentinel in it marked as the page's. A string
 * carries no origin once the script holds it, so the mark is put on at the door: whatever the
 * script then prints of it alone can never be the exact sentinel line. Strings, byte arrays,
 * arrays, Maps and plain objects are walked (copied only where something changed); anything
 * else is returned as it is.
 */
export function defuseSentinel<T>(value: T, seen: Set<object> = new Set()): T {
  if (typeof value === 'string') return (value.includes(SENTINEL) ? value.split(SENTINEL).join(PAGE_SENTINEL) : value) as T;
  if (!value || typeof value !== 'object' || seen.has(value) || seen.size > 100_000) return value;
  if (value instanceof Uint8Array) {
    if (Buffer.from(value.buffer, value.byteOffset, value.byteLength).indexOf(SENTINEL_BYTES) < 0) return value;
    const text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1');
    const out = Buffer.from(text.split(SENTINEL).join(PAGE_SENTINEL), 'latin1');
    return (Buffer.isBuffer(value) ? out : new Uint8Array(out)) as T;
  }
  // An Error from the page (an evaluate that returned or threw one, a pageerror): its text is
  // the page's. It is a fresh object Playwright made for this value, so it is marked in place.
  if (value instanceof Error || Object.prototype.toString.call(value) === '[object Error]') {
    const e = value as unknown as Error;
    for (const k of ['message', 'stack', 'name'] as const) {
      const v = e[k];
      if (typeof v === 'string' && v.includes(SENTINEL)) {
        try {
          Object.defineProperty(e, k, { value: v.split(SENTINEL).join(PAGE_SENTINEL), writable: true, configurable: true });
        } catch {
          /* a frozen error keeps its text; the call site still decides (sentinelSpelledAt) */
        }
      }
    }
    return value;
  }
  // A RegExp from the page (an evaluate that returned one): its source is the page's text.
  if (value instanceof RegExp || Object.prototype.toString.call(value) === '[object RegExp]') {
    const r = value as unknown as RegExp;
    return (r.source.includes(SENTINEL) ? new RegExp(r.source.split(SENTINEL).join(PAGE_SENTINEL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), r.flags) : value) as T;
  }
  if (value instanceof URL) return (value.href.includes(SENTINEL) ? new URL(value.href.split(SENTINEL).join(encodeURIComponent(PAGE_SENTINEL))) : value) as T;
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((v, i) => {
        const d = defuseSentinel(v, seen);
        if (d !== v) (copy ??= Array.from(value))[i] = d;
      });
      return (copy ?? value) as T;
    }
    if (value instanceof Map) {
      let changed = false;
      const entries = [...value].map(([k, v]) => {
        const d = defuseSentinel(v, seen);
        const dk = defuseSentinel(k, seen);
        changed ||= d !== v || dk !== k;
        return [dk, d] as const;
      });
      return (changed ? new Map(entries) : value) as T;
    }
    // A plain object of any realm (JSON.parse in a flow script's vm context makes its own).
    const proto = Object.getPrototypeOf(value) as object | null;
    if (proto !== null && (Object.getPrototypeOf(proto) !== null || Object.prototype.toString.call(value) !== '[object Object]')) return value;
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const d = defuseSentinel(v, seen);
      const dk = defuseSentinel(k, seen);
      if (d !== v || dk !== k) {
        copy ??= { ...(value as Record<string, unknown>) };
        if (dk !== k) delete copy[k];
        copy[dk] = d;
      }
    }
    return (copy ?? value) as T;
  } finally {
    seen.delete(value);
  }
}

/**
 * Whether the script spelled the sentinel where it printed it: the innermost frame of the call's
 * stack in the script (`flow.js:LINE:COL`, at the called function's name), the console.log call
 * itself, has the sentinel as a string literal for its first argument (`console.log(SENTINEL)`
 * spelled out in the script). A value the script computed (a page's title, upper-cased text, a
 * decoded cookie) prints the same string from a line that does not spell it: it is not the
 * script's success line, however it was made. A helper called with the literal does not count
 * either: what it prints may be another value (`done(SENTINEL)` printing `errors.join()` when
 * there were errors, and a page's text upper-cased among them: pass 18, A18).
 */
export function sentinelSpelledAt(source: string, stack: string): boolean {
  // Lines as V8 counts them in stack traces: LF, CR, CRLF, and U+2028/U+2029 (a page's text
  // pasted into a string literal may hold those raw).
  const lines = source.split(/\r\n|[\n\r\u2028\u2029]/);
  const literal = new RegExp(`^[\\w$]*\\s*\\(\\s*(["'\`])${SENTINEL}\\1\\s*[,)]`);
  const m = /flow\.js:(\d+):(\d+)/.exec(stack);
  if (!m) return false;
  const line = Number(m[1]);
  if (line < 1 || line > lines.length) return false;
  const text = [lines[line - 1].slice(Number(m[2]) - 1), ...lines.slice(line, line + 3)].join('\n').slice(0, 400);
  return literal.test(text);
}

/** How one printed value may be read. */
export interface LineOptions {
  /** The script itself printed this as one string (console.log(SENTINEL)), outside
   * any page callback: only such a line can be the sentinel. Default true (an engine, such as
   * Aside, that reports plain lines). */
  sentinel?: boolean;
  /** The script printed exactly the sentinel, but not as its success line: as a value, not
   * spelled where it printed it (sentinelSpelledAt), or from a callback rather than its own
   * body (printedFromScriptBody). Shown marked, and the call's error says why it did not count. */
  unspelled?: 'value' | 'callback';
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
  /** The script printed the sentinel as a value or from a callback: the error says which. */
  sawUnspelledSentinel: false | 'value' | 'callback' = false;
  /** The sentinel is held back until finish(), so that lines the runner adds at the end
   * (ARTIFACT) come before it and it stays the last line of a successful call. */
  private sentinelHeld = false;
  /** Lines after the last sentinel that start with "[error" (Aside reports throws this way). */
  errorAfterSentinel = false;

  constructor(private readonly opts: OutputFilterOptions) {}

  /** Folders of the runner's own making (the call's artifact folder, the `--out` folder): an
   * ARTIFACT line's path under one is cut of secrets only past the folder. Its name holds the
   * session key, which a piece of a test password could otherwise cut into a path nobody can
   * open (trial V17: `v17[redacted]e388d7e6`); what a file is called may be the page's. */
  private readonly ownFolders: string[] = [];
  trustFolder(dir: string): void {
    const d = dir.endsWith(sep) ? dir : dir + sep;
    if (!this.ownFolders.includes(d)) this.ownFolders.push(d);
  }

  /** A line as shown: secrets cut, except in the runner's own folder of an ARTIFACT path. */
  private shown(raw: string): string {
    if (raw.startsWith('ARTIFACT ')) {
      const path = raw.slice('ARTIFACT '.length);
      const own = this.ownFolders.find((d) => path.startsWith(d));
      if (own) return `ARTIFACT ${stripControls(own)}${shownLine(path.slice(own.length))}`;
    }
    return shownLine(raw);
  }

  /** Feed one logical output line (may contain newlines; each is treated as a line). A
   * sentinel counts only as the whole of a single-line value that may be one (`opts`): a
   * sentinel line inside page text the script printed is just text. */
  write(text: string, opts: LineOptions = {}): void {
    const lines = wellFormed(text).split(/\r?\n|\r/);
    // Exactly the sentinel as printed: a value that only becomes it once the filter has
    // stripped a control or an invisible character from it (a page's sentinel followed by "\x1b[0m")
    // is page text, not the script's own line.
    const mayBeSentinel = opts.sentinel !== false && !opts.unspelled && lines.length === 1 && lines[0] === SENTINEL;
    if (opts.unspelled && lines.length === 1 && lines[0] === SENTINEL) {
      this.sawUnspelledSentinel = opts.unspelled;
      this.writeOne(opts.unspelled === 'callback' ? CALLBACK_SENTINEL : UNSPELLED_SENTINEL, false);
      return;
    }
    for (const raw of lines) {
      const line = shownLine(raw);
      // A sentinel in a line the filter changed (a page's "GSTACK_\x1b[0mSTEP_OK") is the
      // page's: it is printed with the page's mark, as defuseSentinel marks what the page says.
      this.writeOne(line !== raw && line.includes(SENTINEL) ? line.split(SENTINEL).join(PAGE_SENTINEL) : line, mayBeSentinel);
    }
  }

  private writeOne(line: string, mayBeSentinel: boolean): void {
    if (line === SENTINEL && mayBeSentinel) {
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

  /** The evidence of a failed call (driver/runtime/evidence.ts): through the same control filter, but
   * outside the cap — it is bounded by its own size (a few lines per tab), and a script that
   * printed up to the cap needs it most. */
  writeEvidence(lines: string[]): void {
    this.flushMarker();
    for (const text of lines) for (const raw of wellFormed(text).split(/\r?\n|\r/)) this.accept(this.shown(raw));
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
    // ARTIFACT names can be the page's (a title, a download's name), so secrets are cut there too.
    for (const line of trailer) this.accept(this.shown(wellFormed(line)));
    if (this.sentinelHeld) {
      this.sentinelHeld = false;
      this.accept(SENTINEL);
    }
    if (errorLine !== undefined) {
      // Through the same escape filter as every line: an error message can carry page text.
      const clean = shownLine(oneLine(wellFormed(errorLine)));
      this.accept(clean.startsWith(ERROR_PREFIX) ? clean : `${ERROR_PREFIX} ${clean}`);
    }
  }
}
