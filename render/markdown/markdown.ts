// Markdown -> sanitized HTML body, plus what the document assembly needs to know about it:
// headings (for the TOC and chapter breaks), mermaid sources (rendered as figures in the page)
// and asset notices. markdown-it does the parsing and the smart typography (quotes, dashes,
// ellipses — only in text tokens, so code spans and fences keep their ASCII).
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import footnote from 'markdown-it-footnote';
import { parse as parseYaml } from 'yaml';
import { AssetPolicy } from './assets.js';
import { escapeHtml } from '../page/html.js';
import { SlotTable, sanitizeDocumentHtml } from './sanitize.js';
import { isMermaidFence, mermaidFigure } from '../mermaid/mermaid-page.js';
import { fenceLanguage, highlightCode, type Highlighter } from './highlight.js';

export interface Heading {
  level: number;
  id: string;
  text: string;
}

export interface Diagram {
  source: string;
  /** 1-based line of the opening fence in the Markdown file. */
  line: number;
}

export interface MarkdownResult {
  /** Sanitized body HTML; mermaid fences are <figure class="gstack-mermaid"> with the source inside. */
  html: string;
  headings: Heading[];
  diagrams: Diagram[];
  /** First level-1 heading's text, the default document title. */
  firstH1?: string;
  /** Links to an anchor (`#name`) no element of the document carries, in document order. The
   * PDF keeps them as written; the caller warns (a typo in the source, usually). */
  brokenAnchors: BrokenAnchor[];
}

export interface BrokenAnchor {
  /** The fragment as the source wrote it, without the `#`. */
  anchor: string;
  /** 1-based line in the Markdown file (undefined for a link in raw HTML). */
  line?: number;
}

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(---|\.\.\.)\r?\n/;

/** GitHub-style slugs, kept in letters and digits of any script so `[x](#überblick)` works. */
export function slugify(text: string): string {
  const slug = text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  return slug || 'section';
}

/** A code block up to this many lines never splits across pages; a longer one may, keeping at
 * least EDGE_LINES lines on each page. Kept low on purpose: a kept block that does not fit moves
 * whole to the next page, and 8 lines leave at most about a sixth of a page blank (15 left a
 * third). */
export const KEEP_TOGETHER_LINES = 8;
/** Lines a split code block keeps together at its start and at its end. */
export const EDGE_LINES = 3;
/** The mark that starts each wrapped continuation of a long code line: ↪ and the variation
 * selector that asks for its text (not emoji) form. */
export const CONTINUATION_MARK = '\u21aa\ufe0e';
/** Leading spaces a continuation indent follows (deeper code still wraps at this indent + 2). */
const MAX_INDENT = 32;
/** Inside inline code a token (the text between spaces) up to this long never breaks across
 * lines, even at a hyphen or slash; a longer one (a URL, a path) may, rather than overflow. */
const NOBREAK_TOKEN_MAX = 40;

/** Inline code, with each token that has a break opportunity (-, /, . ...) held together: a
 * span, not a changed character, so copying and searching the PDF give the source text. */
function inlineCode(content: string): string {
  const parts = content.split(/( +)/).map((part) =>
    part.trim() === '' || part.length > NOBREAK_TOKEN_MAX || /^[\p{L}\p{N}_]+$/u.test(part)
      ? escapeHtml(part)
      : `<span class="gstack-nobr">${escapeHtml(part)}</span>`,
  );
  return `<code>${parts.join('')}</code>`;
}

/** An e-mail address ends in a real top-level domain (letters); `uglify-js@3.13.0` and
 * `react@18.2.0` are package versions, which linkify would otherwise turn into mailto: links. */
function plausibleEmail(href: string): boolean {
  return /@(?:[^@.\s]+\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)$/iu.test(href.replace(/^mailto:/i, ''));
}

/** External: a link that leaves the document (not #anchor, not relative). */
function isExternal(href: string): boolean {
  return /^(https?|ftp):\/\//i.test(href);
}

/** Highlighted HTML (text and <span class="..."> only, as highlight.js writes it) cut into its
 * source lines. A span open across a line break (a multi-line comment or string) is closed at
 * the end of the line and opened again on the next, so each line is well-formed on its own. */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  for (const part of html.split(/(<span[^>]*>|<\/span>|\n)/)) {
    if (part === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else if (part.startsWith('<span')) {
      open.push(part);
      line += part;
    } else if (part === '</span>') {
      open.pop();
      line += part;
    } else line += part;
  }
  lines.push(line + '</span>'.repeat(open.length));
  return lines;
}

/** Width of a line's leading white space in columns (a tab counts to the next multiple of 8,
 * as the browser's default tab-size draws it). */
function indentOf(line: string): number {
  let col = 0;
  for (const ch of line) {
    if (ch === ' ') col++;
    else if (ch === '\t') col += 8 - (col % 8);
    else break;
  }
  return col;
}

/**
 * A code block, one block-level span per source line (see the print CSS, "Code lines"):
 * - a line too long for the page wraps with a hanging indent (its own indent + 2 columns), and
 *   each continuation row starts with CONTINUATION_MARK, so a wrapped comment never reads as a
 *   line of code; nothing is cut off;
 * - a block up to KEEP_TOGETHER_LINES lines stays on one page; a longer one may split between
 *   lines, never inside its first or last EDGE_LINES lines (break-after/-before: avoid), so each
 *   page keeps at least EDGE_LINES of it.
 * Highlighted when its language is known. highlight.js escapes the code; either way the HTML
 * still goes through the sanitizer.
 */
function codeBlock(content: string, language: string | undefined, highlighter: Highlighter | undefined): string {
  const source = content.replace(/\n$/, '').split('\n');
  const highlighted = highlightCode(highlighter, content.replace(/\n$/, ''), language);
  const htmlLines = highlighted === undefined ? source.map(escapeHtml) : splitHighlightedLines(highlighted);
  const n = source.length;
  const keep = n <= KEEP_TOGETHER_LINES;
  // Lines that count are those with text: a page break may not fall before the EDGE_LINES-th
  // of them, nor after the EDGE_LINES-th from the end.
  const filled = source.flatMap((l, i) => (l.trim() ? [i] : []));
  const headEnd = filled[EDGE_LINES - 1] ?? n;
  const tailStart = filled[filled.length - EDGE_LINES] ?? -1;
  const lines = htmlLines.map((html, i) => {
    const indent = Math.min(indentOf(source[i] ?? ''), MAX_INDENT);
    const cls = ['gstack-cl', `gstack-i${indent}`];
    if (!keep && i < headEnd) cls.push('gstack-cl-head');
    if (!keep && i > tailStart) cls.push('gstack-cl-tail');
    // Marks for as many rows as the line could wrap into on the narrowest page (~16 columns a
    // row); the line's own height clips the ones it does not use.
    const len = (source[i] ?? '').length;
    const rows = len > 16 ? Math.ceil(len / 16) : 0;
    const marks = rows ? ` data-gstack-cont="${('&#10;' + CONTINUATION_MARK).repeat(rows)}"` : '';
    return `<span class="${cls.join(' ')}"${marks}>${html}</span>`;
  });
  const cls = `gstack-code${keep ? ' gstack-keep' : ''}`;
  const codeClass = language ? ` class="${highlighted === undefined ? '' : 'hljs '}language-${escapeHtml(language)}"` : '';
  return `<pre class="${cls}"><code${codeClass}>${lines.join('')}</code></pre>\n`;
}

interface ParserState {
  headings: Heading[];
  diagrams: Diagram[];
  slots: SlotTable;
  lineOffset: number;
  highlighter?: Highlighter;
  printUrls: boolean;
}

function createParser(st: ParserState) {
  const md = new MarkdownIt({ html: true, linkify: true, typographer: true });
  // GitHub's footnotes (`text[^1]` … `[^1]: note`): numbered marks linked to a list at the end.
  md.use(footnote);
  md.use(anchor, {
    level: [1, 2, 3, 4, 5, 6],
    slugify,
    tabIndex: false,
    callback: (token, info) => st.headings.push({ level: Number(token.tag.slice(1)), id: info.slug, text: info.title }),
  });
  // Smart typography turns any run of dots into an ellipsis; two dots are a range or a path
  // (`perf-1..3.log`, `../docs`), so they are kept as written: held as private-use characters
  // through markdown-it's replacements, then put back.
  const eachText = (state: { tokens: Array<{ type: string; children: Array<{ type: string; content: string }> | null }> }, fn: (s: string) => string) => {
    for (const block of state.tokens) if (block.type === 'inline' && block.children) for (const t of block.children) if (t.type === 'text') t.content = fn(t.content);
  };
  md.core.ruler.before('replacements', 'gstack-hold-two-dots', (state) => eachText(state, (s) => s.replace(/(?<!\.)\.\.(?!\.)/g, '\uE000\uE000')));
  md.core.ruler.after('replacements', 'gstack-keep-two-dots', (state) => eachText(state, (s) => s.replace(/\uE000/g, '.')));
  md.core.ruler.after('linkify', 'gstack-not-an-email', (state) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      const kids = block.children;
      for (let i = kids.length - 1; i >= 0; i--) {
        const t = kids[i];
        if (t.type !== 'link_open' || t.markup !== 'linkify') continue;
        const href = String(t.attrGet('href') ?? '');
        if (!/^mailto:/i.test(href) || plausibleEmail(href)) continue;
        const close = kids.findIndex((k, j) => j > i && k.type === 'link_close');
        if (close > i) kids.splice(close, 1);
        kids.splice(i, 1);
      }
    }
  });
  md.renderer.rules.code_inline = (tokens, idx) => inlineCode(tokens[idx].content);
  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    if (isMermaidFence(token.info)) {
      const index = st.diagrams.push({ source: token.content, line: (token.map?.[0] ?? 0) + 1 + st.lineOffset }) - 1;
      // The figure is ours, not the document's: it bypasses the sanitizer through a slot.
      return st.slots.markerFor(mermaidFigure(index, token.content) + '\n') + '\n';
    }
    return codeBlock(token.content, fenceLanguage(token.info), st.highlighter);
  };
  // Indented code blocks print like fences without a language.
  md.renderer.rules.code_block = (tokens, idx) => codeBlock(tokens[idx].content, undefined, undefined);
  if (st.printUrls) {
    md.renderer.rules.link_close = (tokens, idx, options, _env, self) => {
      let open = idx - 1;
      while (open >= 0 && tokens[open].type !== 'link_open') open--;
      const href = open >= 0 ? String(tokens[open].attrGet('href') ?? '') : '';
      const text = tokens.slice(open + 1, idx).map((t) => t.content).join('');
      const shown = isExternal(href) && tokens[open].markup !== 'linkify' && text.trim() !== href && text.trim() !== href.replace(/^https?:\/\//, '');
      return self.renderToken(tokens, idx, options) + (shown ? `<span class="gstack-url"> (${escapeHtml(href)})</span>` : '');
    };
  }
  return md;
}

export interface ConvertOptions {
  policy: AssetPolicy;
  /** Colours fenced code that names a known language (see loadHighlighter). */
  highlighter?: Highlighter;
  /** Print each external link's URL after its text. */
  printUrls?: boolean;
}

export function convertMarkdown(source: string, opts: ConvertOptions): MarkdownResult {
  const headings: Heading[] = [];
  const diagrams: Diagram[] = [];
  const slots = new SlotTable();
  // Front matter is metadata, not content; a leading YAML block would otherwise render as a rule
  // and a paragraph.
  const front = FRONT_MATTER.exec(source)?.[0] ?? '';
  const body = source.slice(front.length);
  const md = createParser({ headings, diagrams, slots, lineOffset: front.split('\n').length - 1, highlighter: opts.highlighter, printUrls: !!opts.printUrls });
  const env = {};
  const tokens = md.parse(body, env);
  const raw = md.renderer.render(tokens, md.options, env);
  const html = sanitizeDocumentHtml(raw, opts.policy, slots);
  const firstH1 = headings.find((h) => h.level === 1)?.text;
  const brokenAnchors = findBrokenAnchors(html, markdownAnchorLines(tokens, front.split('\n').length - 1));
  return { html, headings, diagrams, firstH1, brokenAnchors };
}

function decodeFragment(f: string): string {
  try {
    return decodeURIComponent(f);
  } catch {
    return f;
  }
}

/** The source line of each Markdown link to an anchor (fragment -> first line it is on). */
function markdownAnchorLines(tokens: ReturnType<InstanceType<typeof MarkdownIt>['parse']>, lineOffset: number): Map<string, number> {
  const lines = new Map<string, number>();
  for (const block of tokens) {
    for (const t of block.children ?? []) {
      const href = t.type === 'link_open' ? String(t.attrGet('href') ?? '') : '';
      if (href.startsWith('#') && block.map && !lines.has(decodeFragment(href.slice(1)))) lines.set(decodeFragment(href.slice(1)), block.map[0] + 1 + lineOffset);
    }
  }
  return lines;
}

/** `href="#x"` links of the final body whose target no `id` (or `<a name>`) carries. Read
 * from the sanitized HTML, so links and ids from raw HTML count as the page will have them. */
function findBrokenAnchors(html: string, lines: Map<string, number>): BrokenAnchor[] {
  const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const targets = new Set<string>();
  for (const m of html.matchAll(/\s(?:id|name)="([^"]*)"/g)) targets.add(unescape(m[1]));
  const seen = new Set<string>();
  const broken: BrokenAnchor[] = [];
  for (const m of html.matchAll(/\shref="#([^"]*)"/g)) {
    const anchor = decodeFragment(unescape(m[1]));
    // `#` alone and `#top` go to the start of the document in every browser.
    if (anchor === '' || anchor.toLowerCase() === 'top' || targets.has(anchor) || seen.has(anchor)) continue;
    seen.add(anchor);
    broken.push({ anchor, line: lines.get(anchor) });
  }
  return broken;
}

/** The document fields of a leading YAML front-matter block (`title`, `author`, `date`, `lang`,
 * and any other top-level scalar), read as YAML reads them: quotes, escapes (`"\\t"`, `"\\e"`),
 * folded and block scalars. A list (`author: [Ada, Grace]`, or Pandoc's `- name: Ada`) is
 * joined with ", ". Front matter that is not YAML is skipped with one message through
 * `onProblem`, never printed as the document's text. Callers clean what they print (a value
 * may hold controls once its escapes are read). */
export function frontMatter(source: string, onProblem?: (message: string) => void): Record<string, string> {
  const m = FRONT_MATTER.exec(source);
  const out: Record<string, string> = {};
  if (!m) return out;
  let data: unknown;
  try {
    data = parseYaml(m[1], { maxAliasCount: 50 });
  } catch (e) {
    // The line in the file: the block starts on its second line, after `---`.
    const at = (e as { linePos?: Array<{ line: number }> }).linePos?.[0]?.line;
    const reason = String((e as Error).message).split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    onProblem?.(`front matter is not YAML${at ? ` (line ${at + 1})` : ''}: ${reason}; its title, author and date are not used`);
    return out;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return out;
  const text = (v: unknown): string | undefined => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (v instanceof Date) return v.toISOString().slice(0, 10);
    if (Array.isArray(v)) {
      const parts = v.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? text((x as Record<string, unknown>).name) : text(x))).filter((x): x is string => !!x);
      return parts.length ? parts.join(', ') : undefined;
    }
    return undefined;
  };
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    const v = text(value);
    if (v !== undefined && v !== '') out[key.toLowerCase()] = v.trim();
  }
  return out;
}
