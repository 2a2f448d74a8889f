// Assembles the printable HTML page around a converted Markdown body: cover, table of
// contents, notices, watermark, the print stylesheet and a Content-Security-Policy. The page
// gstack prints is served by the render server (its CSP allows that server, 'self', for the
// mermaid scripts); the file `--to html` writes carries another one, first in <head>: it allows
// nothing to load but data: URLs and inline styles, since on a file: page 'self' would be every
// local file, and a <style> or a diagram label may name any of them (docs/SECURITY.md).
import type { Heading } from './markdown.js';
import type { AssetNotice } from './assets.js';
import { escapeHtml } from '../page/html.js';
import { SANS } from '../page/fonts.js';
import { PRINT_CSS } from './style.js';
import { MERMAID_SCRIPT_TAG } from '../mermaid/mermaid-page.js';

export interface DocumentOptions {
  title: string;
  author?: string;
  date?: string;
  lang?: string;
  cover: boolean;
  toc: boolean;
  /** Deepest heading level listed in the TOC. */
  tocDepth: number;
  chapterBreaks: boolean;
  watermark?: string;
  allowNetwork: boolean;
  /** Include the mermaid bundle and boot script (only when the body has diagrams). */
  withMermaid: boolean;
  /** The page is the HTML file itself (`--to html` without diagrams): it carries fileCsp. */
  asFile?: boolean;
  /** Show page numbers in the TOC (PDF); an HTML file has no pages, so its TOC is links only. */
  tocNumbers: boolean;
  /** "N of M" at the foot of each body page (the cover and contents pages stay unnumbered). */
  pageNumbers?: boolean;
  /** A footer template prints at the bottom of the margin: the number moves to its top edge. */
  pageNumbersBelowFooter?: boolean;
}

export interface DocumentParts {
  bodyHtml: string;
  headings: Heading[];
  notices: AssetNotice[];
}

/** Placeholder shown in the first layout pass: as wide as any real page number. */
export const TOC_PLACEHOLDER = '000';

function csp(allowNetwork: boolean, withScript: boolean): string {
  const remote = allowNetwork ? ' https: http:' : '';
  return [
    "default-src 'none'",
    withScript ? "script-src 'self'" : "script-src 'none'",
    `style-src 'self' 'unsafe-inline'${remote}`,
    `img-src 'self' data: blob:${remote}`,
    `font-src 'self' data:${remote}`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The CSP of the HTML file `--to html` writes: no 'self' (a file: page's 'self' is the whole
 * disk), no scripts, data: images and fonts, inline styles; remote images, styles and fonts
 * only when the call passed --allow-network. */
export function fileCsp(allowNetwork: boolean): string {
  const remote = allowNetwork ? ' https: http:' : '';
  return [
    "default-src 'none'",
    "script-src 'none'",
    `style-src 'unsafe-inline'${remote}`,
    `img-src data:${remote}`,
    `font-src data:${remote}`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function tocHeadings(headings: Heading[], depth: number): Heading[] {
  return headings.filter((h) => h.level <= depth);
}

function tocHtml(headings: Heading[], pages: Map<string, number> | undefined, numbers: boolean): string {
  const top = Math.min(...headings.map((h) => h.level));
  const items = headings
    .map((h) => {
      const level = h.level - top + 1;
      const page = pages?.get(h.id);
      const number = numbers
        ? `<span class="gstack-toc-dots"></span><span class="gstack-toc-page">${page ?? (pages ? '' : TOC_PLACEHOLDER)}</span>`
        : '';
      return (
        `<li class="gstack-toc-l${level}"><a href="#${escapeHtml(encodeURIComponent(h.id))}">` +
        `<span class="gstack-toc-text">${escapeHtml(h.text)}</span>${number}</a></li>`
      );
    })
    .join('\n');
  return `<nav class="gstack-toc" aria-label="Table of contents"><div class="gstack-toc-title">Contents</div><ol>\n${items}\n</ol></nav>`;
}

function noticesHtml(notices: AssetNotice[]): string {
  const hidden = notices.filter((n) => !n.inline);
  if (hidden.length === 0) return '';
  const items = hidden.map((n) => `<li>${escapeHtml(n.message)}</li>`).join('');
  return `<aside class="gstack-notices" role="note"><strong>Not loaded:</strong><ul>${items}</ul></aside>`;
}

/**
 * Page numbers as CSS page-margin boxes: unlike Chromium's footer template (the same on every
 * page), a named page can leave them out, so the cover and the contents pages carry none. They
 * still count: N is the PDF page, the number the TOC gives and a viewer's "go to page" uses.
 */
function pageNumberCss(opts: DocumentOptions): string {
  const front = '.gstack-cover, .gstack-toc { page: gstack-front; }\n@page gstack-front { @bottom-center { content: none; } }';
  if (!opts.pageNumbers) return front;
  const place = opts.pageNumbersBelowFooter ? 'vertical-align: top; padding-top: 0.12in;' : 'vertical-align: middle;';
  return (
    `@page { @bottom-center { content: counter(page) " of " counter(pages); ${place} ` +
    `font-family: ${SANS}; font-size: 8pt; color: #57606a; } }\n${front}`
  );
}

/** The whole page. `tocPages` (heading id -> PDF page) fills in the TOC numbers. */
export function buildDocument(parts: DocumentParts, opts: DocumentOptions, tocPages?: Map<string, number>): string {
  const policy = opts.asFile ? fileCsp(opts.allowNetwork) : csp(opts.allowNetwork, opts.withMermaid);
  const head = [
    // First in <head>: nothing before it can load anything.
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(opts.title)}</title>`,
    opts.author ? `<meta name="author" content="${escapeHtml(opts.author)}">` : '',
    `<style>${PRINT_CSS}\n${pageNumberCss(opts)}</style>`,
    opts.withMermaid ? MERMAID_SCRIPT_TAG : '',
  ].filter(Boolean);

  const body: string[] = [];
  if (opts.watermark) body.push(`<div class="gstack-watermark" aria-hidden="true">${escapeHtml(opts.watermark)}</div>`);
  if (opts.cover) {
    const meta = [opts.author, opts.date].filter(Boolean).map((m) => `<div>${escapeHtml(m!)}</div>`).join('');
    body.push(
      `<section class="gstack-cover"><div class="gstack-cover-title">${escapeHtml(opts.title)}</div>` +
        `<div class="gstack-cover-rule"></div><div class="gstack-cover-meta">${meta}</div></section>`,
    );
  }
  const listed = tocHeadings(parts.headings, opts.tocDepth);
  if (opts.toc && listed.length > 0) body.push(tocHtml(listed, tocPages, opts.tocNumbers));
  body.push(noticesHtml(parts.notices));
  body.push(`<main class="gstack-doc">\n${parts.bodyHtml}\n</main>`);

  const cls = opts.chapterBreaks ? ' class="gstack-chapters"' : '';
  return `<!doctype html>\n<html lang="${escapeHtml(opts.lang ?? 'en')}">\n<head>\n${head.join('\n')}\n</head>\n<body${cls}>\n${body.filter(Boolean).join('\n')}\n</body>\n</html>\n`;
}
