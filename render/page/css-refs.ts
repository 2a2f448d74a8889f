// What a piece of CSS would make a browser fetch, read the way the browser reads it: a small
// tokenizer after CSS Syntax Level 3 (comments, strings, url tokens, functions, at-keywords),
// with every escape decoded (`\68 ttp`, `\000068`, `ht\tp`, `u\72l(`), so a reference cannot hide
// behind a spelling. It finds references; deciding what may stay is the caller's (the Markdown
// asset policy, the SVG sanitizer). Not a validator: anything it cannot read is still scanned.

export interface CssRef {
  /** The reference as the browser resolves it: escapes decoded, surrounding white space trimmed. */
  url: string;
  /** The target of an `@import`. */
  isImport: boolean;
  /** Inside an `@font-face` block (its `src`). */
  isFont: boolean;
}

/** Functions whose string arguments are URLs, like url()'s (`image-set("a.png" 1x)`). */
/** Functions that put another value in their place when the style is computed. */
const SUBSTITUTIONS = new Set(['var', 'attr', 'env', 'if', 'inherit', '-webkit-var']);
const URL_STRING_FUNCTIONS = new Set(['url', 'src', 'image-set', '-webkit-image-set', 'image', '-webkit-image', 'cross-fade', '-webkit-cross-fade']);

type Token =
  | { t: 'url' | 'string' | 'function' | 'at'; v: string }
  | { t: '(' | ')' | '{' | '}' | ';' | 'other' };

const WS = /[ \t\n\r\f]/;
const HEX = /[0-9a-fA-F]/;
const NAME = /[-\w\u0080-\u{10FFFF}]/u;

/** One escape whose backslash is at `at`: the character it stands for and where it ends. */
function escapeAt(s: string, at: number): [string, number] {
  let j = at + 1;
  let hex = '';
  while (j < s.length && hex.length < 6 && HEX.test(s[j])) hex += s[j++];
  if (hex) {
    if (s[j] === '\r' && s[j + 1] === '\n') j += 2;
    else if (j < s.length && WS.test(s[j])) j++;
    const cp = parseInt(hex, 16);
    return [cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\ufffd' : String.fromCodePoint(cp), j];
  }
  if (j >= s.length) return ['\ufffd', j];
  const ch = String.fromCodePoint(s.codePointAt(j)!);
  return [ch, j + ch.length];
}

/** A backslash that starts an escape (not one before a newline). */
const validEscape = (s: string, i: number) => s[i] === '\\' && i + 1 < s.length && !/[\n\r\f]/.test(s[i + 1]);

/** CSS with its escapes decoded (for a name, such as an at-rule's, read outside a token). */
export function decodeCssEscapes(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; ) {
    if (validEscape(s, i)) {
      const [ch, next] = escapeAt(s, i);
      out += ch;
      i = next;
    } else out += s[i++];
  }
  return out;
}

function tokenize(css: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const name = (): string => {
    let v = '';
    while (i < css.length) {
      if (validEscape(css, i)) {
        const [ch, next] = escapeAt(css, i);
        v += ch;
        i = next;
      } else if (NAME.test(String.fromCodePoint(css.codePointAt(i)!))) {
        const ch = String.fromCodePoint(css.codePointAt(i)!);
        v += ch;
        i += ch.length;
      } else break;
    }
    return v;
  };
  while (i < css.length) {
    const c = css[i];
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
    } else if (c === '"' || c === "'") {
      // A string ends at its quote; an unescaped newline ends it too (a bad string, in which
      // the browser drops the declaration; scanned anyway).
      let v = '';
      i++;
      while (i < css.length && css[i] !== c && !/[\n\r\f]/.test(css[i])) {
        if (css[i] === '\\') {
          if (i + 1 < css.length && /[\n\r\f]/.test(css[i + 1])) i += 2;
          else {
            const [ch, next] = escapeAt(css, i);
            v += ch;
            i = next;
          }
        } else v += css[i++];
      }
      if (css[i] === c) i++;
      out.push({ t: 'string', v });
    } else if (c === '@' && i + 1 < css.length && (NAME.test(css[i + 1]) || validEscape(css, i + 1))) {
      i++;
      out.push({ t: 'at', v: name().toLowerCase() });
    } else if (NAME.test(c) || validEscape(css, i)) {
      const v = name();
      if (css[i] !== '(') out.push({ t: 'other' });
      else if (v.toLowerCase() !== 'url') {
        i++;
        out.push({ t: 'function', v: v.toLowerCase() });
      } else {
        // url( then white space: a quoted argument makes it a function, else it is a url token
        // that runs to the closing parenthesis.
        let j = i + 1;
        while (j < css.length && WS.test(css[j])) j++;
        if (css[j] === '"' || css[j] === "'") {
          i = j;
          out.push({ t: 'function', v: 'url' });
        } else {
          let v2 = '';
          i = j;
          while (i < css.length && css[i] !== ')') {
            if (css[i] === '\\' && validEscape(css, i)) {
              const [ch, next] = escapeAt(css, i);
              v2 += ch;
              i = next;
            } else v2 += css[i++];
          }
          i++;
          out.push({ t: 'url', v: v2 });
        }
      }
    } else {
      i++;
      if (c === '(' || c === ')' || c === '{' || c === '}' || c === ';') out.push({ t: c });
      else if (!WS.test(c)) out.push({ t: 'other' });
    }
  }
  return out;
}

/** Every reference in `css` that the browser would fetch: url() (quoted or not, under any
 * spelling), the string arguments of image-set() and its kin, `@import`'s target. */
export function cssRefs(css: string): CssRef[] {
  const refs: CssRef[] = [];
  /** Open functions and parentheses, innermost last ('(' for a bare parenthesis). */
  const fns: string[] = [];
  /** Open blocks: whether each is an @font-face. */
  const blocks: boolean[] = [];
  let pendingAt = '';
  const add = (url: string) =>
    refs.push({ url: url.trim(), isImport: pendingAt === 'import', isFont: blocks.includes(true) });
  for (const tok of tokenize(css)) {
    switch (tok.t) {
      case 'url':
        add(tok.v);
        break;
      case 'string':
        if (URL_STRING_FUNCTIONS.has(fns[fns.length - 1] ?? '') || (pendingAt === 'import' && fns.length === 0)) add(tok.v);
        break;
      case 'function':
        // A value substituted into image-set() and its kin (`image-set(var(--u) 1x)` with
        // `--u: "../secret.png"`) is a URL no string here spells: it counts as one that cannot
        // be read, so it is never self-contained.
        if (SUBSTITUTIONS.has(tok.v.toLowerCase()) && URL_STRING_FUNCTIONS.has(fns[fns.length - 1] ?? '')) add(`${tok.v}(…)`);
        fns.push(tok.v);
        break;
      case '(':
        fns.push('(');
        break;
      case ')':
        fns.pop();
        break;
      case 'at':
        pendingAt = tok.v;
        break;
      case '{':
        blocks.push(pendingAt === 'font-face');
        pendingAt = '';
        fns.length = 0;
        break;
      case '}':
        blocks.pop();
        pendingAt = '';
        fns.length = 0;
        break;
      case ';':
        pendingAt = '';
        fns.length = 0;
        break;
    }
  }
  return refs;
}

/** A reference that loads nothing from outside the document itself: `#fragment` or `data:`. */
export function isSelfContainedRef(url: string): boolean {
  // The URL parser strips leading C0 controls and spaces, and tabs and newlines anywhere.
  const u = url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  return u.startsWith('#') || /^data:/i.test(u);
}
