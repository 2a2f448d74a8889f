// Markdown -> sanitized HTML body, plus what the document assembly needs to know about it:
// headings (for the TOC and chapter breaks), mermaid sources (rendered as figures in the page)
// and asset notices. markdown-it does the parsing and the smart typography (quotes, dashes,
// ellipses — only in text tokens, so code spans and fences keep their ASCII).
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
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

/** A fenced block up to this many lines never splits across pages; a longer one may, keeping
 * at least three lines on each side (widows/orphans in the print CSS). */
export const KEEP_TOGETHER_LINES = 15;
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

/** A code block: highlighted when its language is known, marked to stay on one page when short.
 * highlight.js escapes the code; either way the HTML still goes through the sanitizer. */
function codeBlock(content: string, language: string | undefined, highlighter: Highlighter | undefined): string {
  const lines = content.replace(/\n$/, '').split('\n').length;
  const cls = `gstack-code${lines <= KEEP_TOGETHER_LINES ? ' gstack-keep' : ''}`;
  const highlighted = highlightCode(highlighter, content, language);
  const codeClass = language ? ` class="${highlighted === undefined ? '' : 'hljs '}language-${escapeHtml(language)}"` : '';
  return `<pre class="${cls}"><code${codeClass}>${highlighted ?? escapeHtml(content)}</code></pre>\n`;
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
  md.use(anchor, {
    level: [1, 2, 3, 4, 5, 6],
    slugify,
    tabIndex: false,
    callback: (token, info) => st.headings.push({ level: Number(token.tag.slice(1)), id: info.slug, text: info.title }),
  });
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
  const raw = md.render(body);
  const html = sanitizeDocumentHtml(raw, opts.policy, slots);
  const firstH1 = headings.find((h) => h.level === 1)?.text;
  return { html, headings, diagrams, firstH1 };
}

/** `title:`/`author:`/`date:` from a leading YAML front-matter block (simple scalars only). */
export function frontMatter(source: string): Record<string, string> {
  const m = FRONT_MATTER.exec(source);
  const out: Record<string, string> = {};
  if (!m) return out;
  for (const line of m[1].split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):\s*(.*?)\s*$/.exec(line);
    if (kv && kv[2]) out[kv[1].toLowerCase()] = kv[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}
