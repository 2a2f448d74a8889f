// Markdown -> sanitized HTML body, plus what the document assembly needs to know about it:
// headings (for the TOC and chapter breaks), mermaid sources (rendered as figures in the page)
// and asset notices. markdown-it does the parsing and the smart typography (quotes, dashes,
// ellipses — only in text tokens, so code spans and fences keep their ASCII).
import MarkdownIt from 'markdown-it';
import anchor from 'markdown-it-anchor';
import { AssetPolicy } from './markdown-assets.js';
import { SlotTable, sanitizeDocumentHtml } from './sanitize.js';
import { isMermaidFence, mermaidFigure } from './mermaid-page.js';

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

function createParser(headings: Heading[], diagrams: Diagram[], slots: SlotTable, lineOffset: number) {
  const md = new MarkdownIt({ html: true, linkify: true, typographer: true });
  md.use(anchor, {
    level: [1, 2, 3, 4, 5, 6],
    slugify,
    tabIndex: false,
    callback: (token, info) => headings.push({ level: Number(token.tag.slice(1)), id: info.slug, text: info.title }),
  });
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    if (!isMermaidFence(token.info)) return fence(tokens, idx, options, env, self);
    const index = diagrams.push({ source: token.content, line: (token.map?.[0] ?? 0) + 1 + lineOffset }) - 1;
    // The figure is ours, not the document's: it bypasses the sanitizer through a slot.
    return slots.markerFor(mermaidFigure(index, token.content) + '\n') + '\n';
  };
  return md;
}

export interface ConvertOptions {
  policy: AssetPolicy;
}

export function convertMarkdown(source: string, opts: ConvertOptions): MarkdownResult {
  const headings: Heading[] = [];
  const diagrams: Diagram[] = [];
  const slots = new SlotTable();
  // Front matter is metadata, not content; a leading YAML block would otherwise render as a rule
  // and a paragraph.
  const front = FRONT_MATTER.exec(source)?.[0] ?? '';
  const body = source.slice(front.length);
  const md = createParser(headings, diagrams, slots, front.split('\n').length - 1);
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
