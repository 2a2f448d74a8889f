// The one choke point every byte of document HTML passes through before a browser sees it.
// Markdown may carry raw HTML, and the document may come from anywhere: sanitize-html keeps an
// allowlist of inert tags and attributes, so scripts, event handlers, frames, forms, embeds and
// remote loads never reach the page. Loads that stay (images) are decided by the AssetPolicy.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type SanitizeHtml from 'sanitize-html';
import { escapeHtml } from '../page/html.js';
import type { AssetPolicy } from './assets.js';

// require(), not import: Node's ESM loader scans a CommonJS package's whole re-export graph to
// find named exports, which costs more than loading it (measured ~2x for sanitize-html). Loaded
// on first use: importing this module costs nothing until a document is sanitized.
let sanitizer: typeof SanitizeHtml | undefined;
const sanitizeHtml = ((...args: Parameters<typeof SanitizeHtml>) =>
  (sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof SanitizeHtml)(...args)) as typeof SanitizeHtml;

const ALLOWED_TAGS = [
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'div', 'span', 'section', 'article', 'aside',
  'header', 'footer', 'nav', 'main', 'blockquote', 'pre', 'code', 'kbd', 'samp', 'var', 'em', 'strong',
  'b', 'i', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'abbr', 'cite', 'q', 'dfn', 'time',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
  'colgroup', 'col', 'figure', 'figcaption', 'details', 'summary', 'img', 'a', 'center', 'font',
  'ruby', 'rt', 'rp', 'bdi', 'bdo', 'wbr', 'style',
];

// No url() anywhere in an inline style: a value is a colour, a length, a keyword or a number.
const SAFE_VALUE = /^(?!.*(?:url|image|expression|var)\s*\()[-#%.,()\w\s"']{1,120}$/i;
const STYLE_PROPS = [
  'color', 'background-color', 'text-align', 'vertical-align', 'font-weight', 'font-style', 'font-size',
  'font-family', 'text-decoration', 'width', 'max-width', 'min-width', 'height', 'max-height', 'margin',
  'margin-left', 'margin-right', 'margin-top', 'margin-bottom', 'padding', 'padding-left', 'padding-right',
  'padding-top', 'padding-bottom', 'border', 'border-collapse', 'display', 'float', 'clear', 'white-space',
  'page-break-before', 'page-break-after', 'break-before', 'break-after', 'break-inside', 'line-height',
];

interface Slot {
  /** Marker element the sanitizer leaves in place; replaced after sanitizing. */
  marker: string;
  html: string;
}

/** Trusted fragments (our own figures, placeholders) are kept out of the sanitizer and put back
 * after it by exact marker match. The nonce keeps a document from forging a marker. */
export class SlotTable {
  readonly nonce = randomBytes(6).toString('hex');
  private readonly slots: Slot[] = [];

  /** The attribute value of a new slot; its HTML is filled in by `fill`. */
  add(html: string): string {
    const id = `${this.nonce}-${this.slots.length}`;
    this.slots.push({ marker: `<span data-gstack-slot="${id}"></span>`, html });
    return id;
  }

  markerFor(html: string): string {
    return `<span data-gstack-slot="${this.add(html)}"></span>`;
  }

  fill(sanitized: string): string {
    let out = sanitized;
    for (const s of this.slots) out = out.split(s.marker).join(s.html);
    return out;
  }
}

function placeholderHtml(kind: string, detail: string): string {
  return `<span class="gstack-placeholder" role="img" aria-label="${escapeHtml(`${kind}: ${detail}`)}">⊘ ${escapeHtml(kind)}: <span class="gstack-placeholder-ref">${escapeHtml(detail)}</span></span>`;
}

/** Ids we generate (gstack-mermaid-*) and double-underscore names (window properties our
 * scripts use) are ours: a document may not claim them, so it cannot clobber the page's own
 * state. Anything else is the document's — a heading "gstack-driver" keeps its anchor. */
function reservedId(id: string | undefined): boolean {
  return !!id && /^(gstack-mermaid-|__)/i.test(id);
}

export function sanitizeDocumentHtml(html: string, policy: AssetPolicy, slots: SlotTable): string {
  const slotAttr = (htmlFragment: string) => ({ tagName: 'span', attribs: { 'data-gstack-slot': slots.add(htmlFragment) } });
  const sanitized = sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    // <style> is "vulnerable" only in that it can load things; blocks that reference anything
    // remote are dropped by the exclusive filter below.
    allowVulnerableTags: true,
    allowedAttributes: {
      '*': ['id', 'class', 'title', 'lang', 'dir', 'align', 'style', 'role', 'aria-label', 'aria-hidden'],
      a: ['href', 'name', 'target'],
      img: ['src', 'alt', 'width', 'height'],
      ol: ['start', 'type', 'reversed'],
      li: ['value'],
      td: ['colspan', 'rowspan', 'valign', 'width'],
      th: ['colspan', 'rowspan', 'valign', 'width', 'scope'],
      col: ['span', 'width'],
      details: ['open'],
      time: ['datetime'],
      font: ['color', 'size'],
      // data-gstack-cont: the continuation marks of a code line (markdown.ts codeBlock); only
      // ever shown as CSS generated text.
      span: ['data-gstack-slot', 'data-gstack-cont'],
      abbr: ['title'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['data', 'http', 'https'] },
    allowProtocolRelative: true,
    allowedStyles: { '*': Object.fromEntries(STYLE_PROPS.map((p) => [p, [SAFE_VALUE]])) },
    // Content of these is dropped with the tag, not shown as text.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'iframe', 'object', 'embed', 'title', 'select'],
    transformTags: {
      '*': (tagName, attribs) => {
        if (reservedId(attribs.id)) delete attribs.id;
        // Specific transforms run first and may have set our own marker; a document's is dropped.
        const slot = attribs['data-gstack-slot'];
        if (slot !== undefined && !slot.startsWith(slots.nonce + '-')) delete attribs['data-gstack-slot'];
        return { tagName, attribs };
      },
      img: (_tagName, attribs) => {
        const r = policy.image(attribs.src, attribs.srcset);
        const alt = attribs.alt ?? '';
        if (r.kind === 'inline' || r.kind === 'remote') {
          const keep: Record<string, string> = { src: r.src, alt };
          if (attribs.width) keep.width = attribs.width;
          if (attribs.height) keep.height = attribs.height;
          if (attribs.title) keep.title = attribs.title;
          if (attribs.class) keep.class = attribs.class;
          return { tagName: 'img', attribs: keep };
        }
        // Badges and other remote pictures the caller chose not to show: their alt text as
        // plain text (escaped here, so it goes in through a slot), or nothing at all.
        if (r.kind === 'dropped') {
          if (r.mode === 'omit' || !alt.trim()) return slotAttr('');
          return slotAttr(`<span class="gstack-img-alt">${escapeHtml(alt)}</span>`);
        }
        if (r.kind === 'blocked') return slotAttr(placeholderHtml('Remote image blocked', r.url));
        return slotAttr(placeholderHtml(`Image missing (${r.reason})`, r.ref || alt || '(no src)'));
      },
      a: (tagName, attribs) => {
        if (attribs.href !== undefined && !policy.anchorKeepsLink(attribs.href)) delete attribs.href;
        return { tagName, attribs };
      },
      link: (_tagName, attribs) => {
        const n = policy.link(attribs.href, attribs.rel);
        if (n && n.kind !== 'skipped-stylesheet') return slotAttr(placeholderHtml('Remote stylesheet blocked', n.ref));
        // An empty slot, not a tag name the sanitizer drops: renamed to a disallowed name, a
        // void <link> took the next closing tag with it (`<style>…</gstack-dropped>`), so what
        // followed vanished from the PDF into a style block no check had read (pass 34, B34).
        return slotAttr('');
      },
    },
    // A style block holding `<` is dropped whole: the parser here ends it only at `</style>`
    // or `</style >`, a browser also at `</style/>`, and what follows would be markup the
    // browser reads (a meta refresh) that this sanitizer never saw. CSS has no use for `<`.
    exclusiveFilter: (frame) => frame.tag === 'style' && (frame.text.includes('<') || !policy.styleBlock(frame.text)),
  });
  return slots.fill(sanitized);
}
