// The print stylesheet for `gstack pdf`, in the font stacks every gstack page uses
// (page/fonts.ts).
import { EMOJI_FACE, MONO, SANS } from '../page/fonts.js';
import { HIGHLIGHT_CSS } from './highlight.js';

/** A line indented by n columns wraps at n + 2, its continuation mark at n. */
function hangingIndents(max: number): string {
  const rules: string[] = [];
  for (let n = 0; n <= max; n++) rules.push(`.gstack-i${n} { padding-left: ${n + 2}ch; text-indent: -${n + 2}ch; } .gstack-i${n}::after { left: ${n}ch; }`);
  return rules.join('\n');
}

export const PRINT_CSS = `
${EMOJI_FACE}
:root { color-scheme: light; }
html { font-size: 10.5pt; }
body {
  margin: 0; color: #1b1f24; background: #fff;
  font-family: ${SANS};
  line-height: 1.5; font-kerning: normal; font-variant-ligatures: common-ligatures;
  -webkit-print-color-adjust: exact; print-color-adjust: exact;
  overflow-wrap: break-word;
}
:lang(ja) { font-family: "gstack emoji", "Liberation Sans", Arial, "Noto Sans CJK JP", "Noto Color Emoji", sans-serif; }
:lang(ko) { font-family: "gstack emoji", "Liberation Sans", Arial, "Noto Sans CJK KR", "Noto Color Emoji", sans-serif; }
:lang(zh-TW), :lang(zh-HK) { font-family: "gstack emoji", "Liberation Sans", Arial, "Noto Sans CJK TC", "Noto Color Emoji", sans-serif; }

h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.4em 0 0.5em; break-after: avoid; page-break-after: avoid; break-inside: avoid; }
h1 { font-size: 2em; border-bottom: 1px solid #d0d7de; padding-bottom: 0.2em; }
h2 { font-size: 1.5em; border-bottom: 1px solid #e5e9ee; padding-bottom: 0.15em; }
h3 { font-size: 1.25em; }
h4 { font-size: 1.05em; }
h5, h6 { font-size: 1em; color: #444c56; }
.gstack-doc > :first-child { margin-top: 0; }
p, ul, ol, dl, table, pre, blockquote, figure, details { margin: 0 0 0.85em; }
p { orphans: 3; widows: 3; }
ul, ol { padding-left: 1.6em; }
li + li { margin-top: 0.2em; }
a { color: #0b5cad; text-decoration: none; }
/* A link printed as text (a file beside the document, which a PDF cannot open) reads as text. */
a:not([href]) { color: inherit; }
/* An image taller than a page is scaled down to one page (vh is the page area in print), as a
 * diagram is: a full-page screenshot was printed across two pages, its heading alone on the
 * first. (Width and height stay auto, so the image keeps its proportions.) */
img { max-width: 100%; max-height: 92vh; height: auto; }
hr { border: 0; border-top: 1px solid #d0d7de; margin: 1.5em 0; }
blockquote { margin-left: 0; padding: 0.1em 1em; color: #444c56; border-left: 0.25em solid #d0d7de; }
/* Footnotes (markdown-it-footnote): a small list after a short rule, where GitHub puts them. */
hr.footnotes-sep { width: 30%; margin: 2em 0 0.6em; }
section.footnotes { font-size: 0.88em; color: #444c56; }
.footnote-ref a, a.footnote-backref { text-decoration: none; }
code, kbd, samp, pre { font-family: ${MONO}; font-size: 0.88em; }
/* Inline code: no side padding, which would read as a space in the PDF's text ("( --x )") and
 * leave a gap before punctuation. A token never breaks inside (see inlineCode); an overlong one
 * may break anywhere rather than overflow the page. */
:not(pre) > code { background: #eef1f4; padding: 0.1em 0; overflow-wrap: anywhere; }
.gstack-nobr { white-space: nowrap; }
kbd { border: 1px solid #c8ced6; border-bottom-width: 2px; border-radius: 3px; padding: 0 0.3em; }
pre {
  background: #f6f8fa; border: 1px solid #e3e7eb; border-radius: 4px; padding: 0.7em 0.9em;
  white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.4;
}
/* A short block stays on one page (markdown.ts KEEP_TOGETHER_LINES). */
pre.gstack-keep { break-inside: avoid; page-break-inside: avoid; }
/* Code lines: one block per source line, so a page break falls between lines and a long line
 * wraps under itself. The first and last lines of a long block hold on to their neighbours
 * (at least 3 lines a side). overflow: clip, not hidden: a scroll container would be
 * unbreakable. */
.gstack-cl { display: block; position: relative; min-height: 1.4em; overflow: clip; }
.gstack-cl-head { break-after: avoid; page-break-after: avoid; }
.gstack-cl-tail { break-before: avoid; page-break-before: avoid; }
/* Each continuation row of a wrapped line starts with a mark, drawn in the hanging indent: the
 * mark list starts with a line break, so the first row has none, and the line's own height
 * clips the rows it does not use. */
.gstack-cl[data-gstack-cont]::after {
  content: attr(data-gstack-cont); position: absolute; top: 0; white-space: pre; text-indent: 0;
  color: #6e7781; pointer-events: none;
  /* A text face first: the emoji face would draw the arrow as a coloured picture. */
  font-family: "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace;
}
${hangingIndents(32)}
pre code { font-size: 1em; background: none; padding: 0; }
table { border-collapse: collapse; width: auto; max-width: 100%; font-size: 0.95em; }
th, td { border: 1px solid #d0d7de; padding: 0.3em 0.6em; vertical-align: top; }
th { background: #f3f5f7; text-align: left; }
thead { display: table-header-group; }
tr, img, figure { break-inside: avoid; }
figure { text-align: center; }
figcaption { font-size: 0.9em; color: #57606a; }
/* --remote-images alt: a remote image's alt text in its place, boxed like the badge it stands
 * for so it does not read as part of the sentence or heading around it. */
.gstack-img-alt { font-size: 0.7em; font-weight: 400; vertical-align: middle; border: 1px solid #d0d7de; border-radius: 3px; padding: 0 0.35em; }
/* --print-urls: the address after the link text, for the paper copy. */
.gstack-url { font-size: 0.85em; color: #57606a; overflow-wrap: anywhere; }
${HIGHLIGHT_CSS}

/* Chapters: every top-level heading after the first opens a new page (a lone title h1 does not). */
.gstack-chapters .gstack-doc > h1 ~ h1 { break-before: page; page-break-before: always; }

/* Cover */
.gstack-cover { break-after: page; page-break-after: always; padding-top: 32vh; text-align: left; }
.gstack-cover-title { font-size: 2.6em; font-weight: 700; line-height: 1.15; margin: 0 0 0.4em; }
.gstack-cover-rule { width: 5em; border-top: 4px solid #0b5cad; margin: 0.8em 0 1.2em; }
.gstack-cover-meta { font-size: 1.2em; color: #444c56; }
.gstack-cover-meta div + div { margin-top: 0.3em; }

/* Table of contents: numbers sit in a fixed-width column, so filling them in after the first
 * layout pass cannot move anything. */
.gstack-toc { break-after: page; page-break-after: always; }
.gstack-toc-title { font-size: 1.6em; font-weight: 700; margin: 0 0 0.8em; }
.gstack-toc ol { list-style: none; padding: 0; margin: 0; }
.gstack-toc li { margin: 0.25em 0; break-inside: avoid; }
.gstack-toc a { display: flex; align-items: baseline; color: inherit; }
.gstack-toc .gstack-toc-text { flex: 0 1 auto; }
/* No transform on the leader: Chromium can paint a transformed box into every page of the PDF
 * (clipped away, but its thousands of dots still written: ~6 KB a page). */
.gstack-toc .gstack-toc-dots { flex: 1 1 auto; border-bottom: 1px dotted #8c959f; margin: 0 0.4em; min-width: 1.5em; position: relative; top: -0.3em; }
.gstack-toc .gstack-toc-page { flex: 0 0 2.6em; text-align: right; font-variant-numeric: tabular-nums; }
.gstack-toc .gstack-toc-l1 { font-weight: 700; margin-top: 0.6em; }
.gstack-toc .gstack-toc-l2 { padding-left: 1.2em; }
.gstack-toc .gstack-toc-l3 { padding-left: 2.4em; font-size: 0.95em; }
.gstack-toc .gstack-toc-l4, .gstack-toc .gstack-toc-l5, .gstack-toc .gstack-toc-l6 { padding-left: 3.6em; font-size: 0.9em; }

/* Watermark: a fixed element repeats on every printed page. */
.gstack-watermark {
  position: fixed; top: 50%; left: 50%; transform: translate(-50%, -50%) rotate(-35deg);
  font-size: 88pt; font-weight: 700; color: rgba(200, 30, 30, 0.13); white-space: nowrap;
  pointer-events: none; z-index: 1000;
}

/* Things the document asked for but did not get. */
.gstack-placeholder {
  display: inline-block; border: 1px dashed #b35900; background: #fff8f0; color: #8a4500;
  border-radius: 3px; padding: 0.1em 0.4em; font-size: 0.85em; font-family: ${SANS};
}
.gstack-placeholder-ref { font-family: ${MONO}; overflow-wrap: anywhere; }
.gstack-notices { border: 1px dashed #b35900; background: #fff8f0; color: #8a4500; padding: 0.5em 0.9em; margin-bottom: 1em; font-size: 0.9em; }
.gstack-notices ul { margin: 0.3em 0 0; }

/* Diagrams */
figure.gstack-mermaid { margin: 1em 0; }
/* A diagram taller than a page is scaled down to one page (vh is the page area in print), and
   never split between pages: a figure cut in two reads as two half-diagrams. */
figure.gstack-mermaid { break-inside: avoid; page-break-inside: avoid; }
figure.gstack-mermaid svg { max-width: 100%; max-height: 92vh; height: auto; }
figure.gstack-mermaid:not(.gstack-mermaid-ok):not(.gstack-mermaid-error) .gstack-mermaid-source { text-align: left; }
figure.gstack-mermaid-error {
  text-align: left; border: 2px solid #cf222e; background: #fff5f5; border-radius: 4px; padding: 0.6em 0.9em;
}
.gstack-diagnostic-title { font-weight: 700; color: #a40e26; margin-bottom: 0.4em; }
.gstack-diagnostic-message { background: #fff; border-color: #f0c4c8; color: #82071e; }
.gstack-diagnostic-source { background: #fff; font-size: 0.8em; }
`;
