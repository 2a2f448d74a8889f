// Mermaid in the page, offline: the bundle comes from the installed `mermaid` npm package and
// is served by the render loopback server (its dist folder is the served root), never a CDN.
// One boot script turns every <figure class="gstack-mermaid"> into a diagram — or, when the
// source does not parse, into a visible diagnostic — for both `gstack pdf` and `gstack diagram`.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { escapeHtml } from '../page/html.js';

/** mermaid's dist directory (served as the render root: the ESM build and its chunks). */
export function mermaidDistDir(): string {
  const require = createRequire(import.meta.url);
  // The package's "exports" hide package.json on some versions; resolve the main entry instead.
  const entry = require.resolve('mermaid');
  let dir = dirname(entry);
  while (!existsSync(join(dir, MERMAID_MODULE)) && dirname(dir) !== dir) {
    if (existsSync(join(dir, 'dist', MERMAID_MODULE))) return join(dir, 'dist');
    dir = dirname(dir);
  }
  if (!existsSync(join(dir, MERMAID_MODULE))) throw new Error(`${MERMAID_MODULE} not found in the installed mermaid package; run npm install`);
  return dir;
}

// The ESM build: its core is small and each diagram type is a chunk loaded on demand, so a
// page with one flowchart parses a fraction of the 3.5 MB UMD bundle (~0.3-0.6 s less per call).
export const MERMAID_MODULE = 'mermaid.esm.min.mjs';
export const BOOT_SCRIPT = 'gstack-mermaid-boot.js';

/** A ```mermaid fence (the info string's first word, any case). */
export function isMermaidFence(info: string): boolean {
  return info.trim().split(/\s+/)[0]?.toLowerCase() === 'mermaid';
}

/** The figure the boot script turns into diagram `index`: its source stays visible text until
 * the page replaces it with the diagram (or a diagnostic). Ids gstack-mermaid-* are reserved
 * (markdown/sanitize.ts), so a document cannot forge one. */
export function mermaidFigure(index: number, source: string): string {
  return `<figure class="gstack-mermaid" id="gstack-mermaid-${index}" data-index="${index}"><pre class="gstack-mermaid-source">${escapeHtml(source)}</pre></figure>`;
}
/** The one tag a page needs: the boot module imports mermaid itself. */
export const MERMAID_SCRIPT_TAG = `<script type="module" src="${BOOT_SCRIPT}"></script>`;

export interface MermaidPageOptions {
  theme?: 'default' | 'neutral' | 'dark' | 'forest' | 'base';
  fontFamily: string;
  /** Fixed diagram width in CSS px (gstack diagram --width). */
  width?: number;
}

/** What the boot script leaves on window.__gstackMermaid when done. */
export interface MermaidPageState {
  done: true;
  errors: Array<{ index: number; message: string }>;
  /** Standalone SVG documents (XML-serialized), by figure index; null where it failed. */
  svgs?: Array<string | null>;
}

/** The default theme's pie slices, in colours that read on paper: mermaid's own start near white
 * (#ECECFF, #FFFFDE), so a slice's edge was all that showed it (trial V18: a pie of spending in a
 * PDF). ColorBrewer's Set2, then four of Set3: mid-tones, each apart from white and from its
 * neighbours, under the theme's black percentages. A diagram's own `%%{init}%%` still wins. */
const PRINT_PIE_COLOURS: Record<string, string> = Object.fromEntries(
  ['#66C2A5', '#FC8D62', '#8DA0CB', '#E78AC3', '#A6D854', '#FFD92F', '#E5C494', '#B3B3B3', '#80B1D3', '#FB8072', '#BC80BD', '#FDB462'].map((c, i) => [`pie${i + 1}`, c]),
);

/** Set on <html> when the boot script is done. A selector wait is event-driven (no 100 ms
 * polling), and the document's own markup cannot reach <html> to fake it. */
export const MERMAID_READY_SELECTOR = 'html[data-gstack-mermaid-done]';

/** The boot script. It is a served file, not inline, so the page's CSP can forbid inline
 * script entirely while still allowing our two same-origin files. */
export function mermaidBootScript(opts: MermaidPageOptions, collectSvgs: boolean): string {
  const theme = opts.theme ?? 'default';
  const config = {
    startOnLoad: false,
    securityLevel: 'strict',
    deterministicIds: true,
    theme,
    fontFamily: opts.fontFamily,
    themeVariables: { fontFamily: opts.fontFamily, ...(theme === 'default' ? PRINT_PIE_COLOURS : {}) },
  };
  return `import mermaid from './${MERMAID_MODULE}';
(async () => {
  const config = ${JSON.stringify(config)};
  const width = ${JSON.stringify(opts.width ?? null)};
  const collect = ${collectSvgs ? 'true' : 'false'};
  const errors = [];
  const svgs = [];
  const figures = Array.from(document.querySelectorAll('figure.gstack-mermaid'));
  try {
    mermaid.initialize(config);
  } catch (e) {
    errors.push({ index: -1, message: 'mermaid failed to start: ' + (e && e.message || e) });
  }
  if (document.fonts && document.fonts.ready) await document.fonts.ready;
  for (const fig of figures) {
    const index = Number(fig.dataset.index);
    const srcEl = fig.querySelector('.gstack-mermaid-source');
    const source = srcEl ? srcEl.textContent : '';
    const id = 'gstack-mmd-' + index;
    try {
      if (errors.length && errors[0].index === -1) throw new Error(errors[0].message);
      const { svg } = await mermaid.render(id, source);
      fig.innerHTML = svg;
      const el = fig.querySelector('svg');
      // A standalone diagram gets a definite size (the --width, else mermaid's natural one),
      // so the PNG crop and SVG viewers agree; in a document it just scales to the column.
      if (el && (width || collect)) {
        const vb = el.viewBox && el.viewBox.baseVal;
        const natural = parseFloat(el.style.maxWidth) || (vb && vb.width) || el.getBoundingClientRect().width;
        const w = width || Math.ceil(natural);
        const h = vb && vb.width ? Math.ceil(w * vb.height / vb.width) : 0;
        el.setAttribute('width', String(w));
        if (h) el.setAttribute('height', String(h)); else el.removeAttribute('height');
        el.style.maxWidth = 'none';
        el.style.width = w + 'px';
        el.style.height = h ? h + 'px' : 'auto';
      }
      fig.classList.add('gstack-mermaid-ok');
      if (collect) svgs[index] = el ? new XMLSerializer().serializeToString(el) : null;
    } catch (e) {
      const message = String(e && e.message || e).trim();
      errors.push({ index, message });
      // mermaid leaves its own error graphic behind on failure; ours is the only one shown.
      for (const stray of document.querySelectorAll('#' + id + ', #d' + id)) stray.remove();
      fig.classList.add('gstack-mermaid-error');
      fig.setAttribute('role', 'note');
      fig.textContent = '';
      const title = document.createElement('div');
      title.className = 'gstack-diagnostic-title';
      title.textContent = 'Diagram ' + (index + 1) + ' could not be rendered (mermaid syntax error)';
      const msg = document.createElement('pre');
      msg.className = 'gstack-diagnostic-message';
      msg.textContent = message;
      const src = document.createElement('pre');
      src.className = 'gstack-diagnostic-source';
      src.textContent = source;
      fig.append(title, msg, src);
      if (collect) svgs[index] = null;
    }
  }
  window.__gstackMermaid = collect ? { done: true, errors, svgs } : { done: true, errors };
  document.documentElement.setAttribute('data-gstack-mermaid-done', '');
})();
`;
}
