// The Markdown half of `gstack pdf`, without a browser: parsing, smart typography, heading
// anchors, the sanitizer, the asset policy (inline / block / missing / strict), and the page
// the printer gets (CSP, TOC, cover, mermaid figures).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, symlink, rm, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertMarkdown, frontMatter, slugify } from '../render/markdown/markdown.js';
import { AssetPolicy, StrictAssetError, cssRefs, isRemoteRef } from '../render/markdown/assets.js';
import { buildDocument, TOC_PLACEHOLDER } from '../render/markdown/document.js';
import { loadHighlighter } from '../render/markdown/highlight.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'markdown');

function convert(md: string, opts: { baseDir?: string; allowNetwork?: boolean; strict?: boolean; fileLinks?: 'keep' | 'text' } = {}) {
  const policy = new AssetPolicy({ baseDir: opts.baseDir ?? FIXTURES, allowNetwork: !!opts.allowNetwork, strict: !!opts.strict, fileLinks: opts.fileLinks });
  return { ...convertMarkdown(md, { policy }), policy };
}

test('smart typography applies to prose, never to code spans or fences', () => {
  const { html } = convert('He said "hi" -- it\'s fine... really --- yes.\n\n`"a" -- b...`\n\n```\n"c" -- d...\n```\n');
  assert.match(html, /He said “hi” – it’s fine… really — yes\./);
  // Two dots are a range or a path, not an ellipsis (a trial agent's `perf-1..3.log`).
  assert.match(convert('Logs perf-1..3.log and ../docs, then more...').html, /Logs perf-1\.\.3\.log and \.\.\/docs, then more…/);
  // Tokens of inline code sit in no-break spans (see the print-quality tests); the text is as written.
  const text = html.replace(/<\/?span[^>]*>/g, '');
  assert.match(text, /<code>&quot;a&quot; -- b\.\.\.<\/code>|<code>"a" -- b\.\.\.<\/code>/);
  assert.match(text, /<pre class="gstack-code gstack-keep"><code>("|&quot;)c("|&quot;) -- d\.\.\./);
});

test('headings get GitHub-style anchors, unique, in any script', () => {
  const { html, headings } = convert('# Intro\n\n## Setup & Install\n\n## Setup & Install\n\n### Überblick 漢字\n');
  assert.deepEqual(
    headings.map((h) => [h.level, h.id]),
    [[1, 'intro'], [2, 'setup--install'], [2, 'setup--install-1'], [3, 'überblick-漢字']],
  );
  assert.match(html, /<h2 id="setup--install-1">/);
  assert.equal(slugify('  Hello, World!  '), 'hello-world');
});

test('front matter is metadata, not content', () => {
  const md = '---\ntitle: "My Title"\nauthor: Ada\n---\n# Body\n';
  assert.deepEqual(frontMatter(md), { title: 'My Title', author: 'Ada' });
  const { html } = convert(md);
  assert.doesNotMatch(html, /author/);
  assert.doesNotMatch(html, /<hr/);
});

// Pass 38's notes: a hand-rolled reader kept `"\e[31m"` as the four characters `\e[3`…, and read
// only one-line scalars. Front matter is YAML, read as YAML reads it.
test('front matter is read as YAML: escapes, single quotes, folded scalars, author lists; bad YAML is a warning', () => {
  const md = [
    '---',
    'title: "Tab\\there \\e[31mred"',
    "author: ['Ada Lovelace', Grace]",
    'date: 2026-12-02',
    'lang: de',
    'subtitle: >-',
    '  folded',
    '  line',
    "quoted: 'it''s'",
    '---',
    '# Body',
  ].join('\n');
  assert.deepEqual(frontMatter(md), { title: 'Tab\there \u001b[31mred', author: 'Ada Lovelace, Grace', date: '2026-12-02', lang: 'de', subtitle: 'folded line', quoted: "it's" });
  assert.equal(frontMatter('---\nauthor:\n  - name: Ada\n  - name: Grace\n---\n').author, 'Ada, Grace');
  const problems: string[] = [];
  assert.deepEqual(frontMatter('---\ntitle: "unclosed\nauthor: [x\n---\n# Body\n', (p) => problems.push(p)), {});
  assert.equal(problems.length, 1);
  assert.match(problems[0], /^front matter is not YAML \(line [34]\): .*; its title, author and date are not used$/);
});

test('raw HTML is sanitized: no script, handlers, iframes, forms, javascript: links, remote loads', () => {
  const md = [
    '<script>alert("x")</script>',
    '<img src="img/swatch.png" onerror="alert(1)" onload="alert(2)">',
    '<p onclick="alert(3)" style="color: red; background: url(http://evil.test/bg.png)">p</p>',
    '<iframe src="http://evil.test/"></iframe><object data="x.swf"></object><embed src="y">',
    '<form action="http://evil.test/"><input name="q" value="v"><textarea>secret</textarea><button>Go</button></form>',
    '<a href="javascript:alert(4)">js</a> <a href="https://ok.test/">ok</a>',
    '<svg><image href="http://evil.test/i.png"/></svg><video src="http://evil.test/v.mp4"></video>',
    '<meta http-equiv="refresh" content="0;url=http://evil.test/"><base href="http://evil.test/">',
  ].join('\n\n');
  const { html } = convert(md);
  for (const bad of ['<script', 'alert', 'onerror', 'onload', 'onclick', '<iframe', '<object', '<embed', '<form', '<input', '<textarea', 'secret', 'javascript:', '<svg', '<video', '<meta', '<base', 'evil.test/bg', 'url(']) {
    assert.ok(!html.includes(bad), `sanitized HTML still contains ${bad}: ${html}`);
  }
  assert.match(html, /<p style="color:red">p<\/p>/);
  assert.match(html, /<a href="https:\/\/ok.test\/">ok<\/a>/);
  assert.match(html, /<img src="data:image\/png;base64,/);
});

test('a document cannot claim our ids or forge a trusted slot', () => {
  const { html } = convert('<div id="gstack-mermaid-7">x</div><span id="__gstackMermaid">y</span><span data-gstack-slot="000000000000-0">z</span>\n\n```mermaid\ngraph TD; A-->B\n```\n');
  assert.doesNotMatch(html, /id="gstack-mermaid-7"|id="__gstackMermaid"/);
  assert.doesNotMatch(html, /data-gstack-slot/);
  // Our own figure did get through its slot.
  assert.match(html, /<figure class="gstack-mermaid" id="gstack-mermaid-0" data-index="0"><pre class="gstack-mermaid-source">graph TD; A--&gt;B/);
});

test('a heading that starts with "gstack" keeps its anchor (the TOC can number it)', () => {
  const { html } = convert('# gstack-driver\n\ntext\n');
  assert.match(html, /<h1[^>]* id="gstack-driver"/);
});

test('mermaid fences become figures with their Markdown line; other fences stay code', () => {
  const { diagrams, html } = convert('---\ntitle: t\n---\n# T\n\ntext\n\n```mermaid\nsequenceDiagram\n  A->>B: hi\n```\n\n```js\nlet x = 1\n```\n');
  assert.equal(diagrams.length, 1);
  assert.equal(diagrams[0].line, 8);
  assert.match(diagrams[0].source, /^sequenceDiagram/);
  assert.match(html, /<code class="language-js"><span class="gstack-cl gstack-i0">let x = 1/);
});

test('local images are inlined; remote ones become placeholders with one notice each', () => {
  const { html, policy } = convert('![a](img/swatch.png) ![b](https://cdn.test/b.png) ![c](//cdn.test/c.png) ![d](img/swatch.png)');
  const inlined = html.match(/src="data:image\/png;base64,[A-Za-z0-9+/=]+"/g) ?? [];
  assert.equal(inlined.length, 2);
  assert.match(html, /Remote image blocked: <span class="gstack-placeholder-ref">https:\/\/cdn.test\/b.png/);
  assert.match(html, /Remote image blocked: <span class="gstack-placeholder-ref">\/\/cdn.test\/c.png/);
  assert.doesNotMatch(html, /src="(https:)?\/\/cdn/);
  assert.deepEqual(policy.notices.map((n) => n.kind), ['blocked-image', 'blocked-image']);
});

test('--allow-network keeps remote images as they are', () => {
  const { html, policy } = convert('![b](https://cdn.test/b.png)', { allowNetwork: true });
  assert.match(html, /<img src="https:\/\/cdn.test\/b.png" alt="b" \/>/);
  assert.equal(policy.notices.length, 0);
});

test('remote stylesheets and fonts are blocked with a notice; local-only style blocks stay', () => {
  const md = '<link rel="stylesheet" href="https://cdn.test/s.css">\n\n<style>@font-face { font-family: X; src: url(https://fonts.test/x.woff2) }</style>\n\n<style>h2 { color: teal }</style>\n';
  const { html, policy } = convert(md);
  assert.match(html, /Remote stylesheet blocked: <span class="gstack-placeholder-ref">https:\/\/cdn.test\/s.css/);
  assert.match(html, /<style>h2 { color: teal }<\/style>/);
  assert.doesNotMatch(html, /fonts.test|<link/);
  assert.deepEqual(policy.notices.map((n) => [n.kind, n.ref, n.inline]), [
    ['blocked-stylesheet', 'https://cdn.test/s.css', true],
    ['blocked-font', 'https://fonts.test/x.woff2', false],
  ]);
  // The dropped <style> block has no spot in the body, so the page lists it visibly.
  const page = buildDocument({ bodyHtml: html, headings: [], notices: policy.notices }, docOpts());
  assert.match(page, /class="gstack-notices"[\s\S]*blocked remote font https:\/\/fonts.test\/x.woff2/);
});

test('missing images are placeholders, or a failure with --strict', () => {
  const { html, policy } = convert('![gone](img/nope.png)');
  assert.match(html, /Image missing \(file not found\): <span class="gstack-placeholder-ref">img\/nope.png/);
  assert.equal(policy.notices[0].kind, 'missing-image');
  assert.throws(() => convert('![gone](img/nope.png)', { strict: true }), (e: unknown) => e instanceof StrictAssetError && /img\/nope.png/.test(e.message));
});

test('a document cannot pull files from outside its own folder into the PDF', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'gstack-md-'));
  try {
    await mkdir(join(dir, 'doc'));
    await writeFile(join(dir, 'secret.png'), 'not for the PDF');
    await symlink(join(dir, 'secret.png'), join(dir, 'doc', 'link.png'));
    const { html } = convert('![a](../secret.png) ![b](link.png) ![c](/etc/passwd) <img src="file:///etc/hostname">', { baseDir: join(dir, 'doc') });
    assert.doesNotMatch(html, /data:/);
    assert.equal((html.match(/⊘ Image missing \(outside the document folder\)/g) ?? []).length, 4);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('remote-reference detection and CSS scanning', () => {
  assert.ok(isRemoteRef('https://x/y') && isRemoteRef('//x/y') && isRemoteRef('ftp://x'));
  assert.ok(!isRemoteRef('img/a.png') && !isRemoteRef('data:image/png;base64,AA') && !isRemoteRef('/abs/a.png'));
  const refs = cssRefs('@import "https://a.test/x.css"; @font-face { src: url(\'https://f.test/f.woff\') } p { background: url(bg.png) }');
  assert.deepEqual(refs, [
    { url: 'https://a.test/x.css', isImport: true, isFont: false },
    { url: 'https://f.test/f.woff', isImport: false, isFont: true },
    { url: 'bg.png', isImport: false, isFont: false },
  ]);
  // Read as the browser reads them: escapes decoded, image-set's strings, an escaped @import.
  const spelled = (css: string) => cssRefs(css).map((r) => r.url);
  assert.deepEqual(spelled('a{b:url(\\68 ttp://h/1)}'), ['http://h/1']);
  assert.deepEqual(spelled('a{b:image-set("http://h/2" 1x, url(h3.png) 2x type("image/png"))}'), ['http://h/2', 'h3.png']);
  assert.deepEqual(cssRefs('@font-face{src:url(\\000068ttp://h/4)}'), [{ url: 'http://h/4', isImport: false, isFont: true }]);
  assert.deepEqual(spelled('a{b:url("ht\\tp://h/5")}'), ['http://h/5']);
  assert.deepEqual(cssRefs('@\\69mport "h6.css";'), [{ url: 'h6.css', isImport: true, isFont: false }]);
  assert.deepEqual(spelled('a{b:u\\72l(h7)} /* url(no) */ c{content:"url(no)"}'), ['h7']);
  assert.ok(isRemoteRef('http://h/1') && isRemoteRef(' \x01http://h') && isRemoteRef('ht\ttp://h') && isRemoteRef('\\\\h/x'));
});

function docOpts(over: Partial<Parameters<typeof buildDocument>[1]> = {}): Parameters<typeof buildDocument>[1] {
  return {
    title: 'T <&>',
    cover: false,
    toc: false,
    tocDepth: 3,
    chapterBreaks: true,
    allowNetwork: false,
    withMermaid: false,
    tocNumbers: true,
    ...over,
  };
}

test('the printed page: CSP offline and script-free without diagrams, cover, TOC placeholders then numbers', async () => {
  const md = await readFile(join(FIXTURES, 'options.md'), 'utf8');
  const { html, headings, policy } = convert(md);
  const parts = { bodyHtml: html, headings, notices: policy.notices };
  const plain = buildDocument(parts, docOpts());
  assert.match(plain, /Content-Security-Policy" content="default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'none'/);
  assert.doesNotMatch(plain, /<script/);
  assert.match(plain, /<title>T &lt;&amp;&gt;<\/title>/);

  const withToc = buildDocument(parts, docOpts({ toc: true, cover: true, author: 'Ada', date: '1843' }));
  assert.match(withToc, /class="gstack-cover"><div class="gstack-cover-title">T &lt;&amp;&gt;<\/div>[\s\S]*<div>Ada<\/div><div>1843<\/div>/);
  const placeholders = withToc.match(new RegExp(`gstack-toc-page">${TOC_PLACEHOLDER}<`, 'g')) ?? [];
  assert.equal(placeholders.length, 3); // two chapters and one section (depth 3)
  const numbered = buildDocument(parts, docOpts({ toc: true }), new Map([['first-chapter', 2], ['section-one-one', 2], ['second-chapter', 3]]));
  assert.match(numbered, /href="#second-chapter"><span class="gstack-toc-text">Second chapter<\/span><span class="gstack-toc-dots"><\/span><span class="gstack-toc-page">3</);

  const withDiagrams = buildDocument(parts, docOpts({ withMermaid: true, allowNetwork: true }));
  assert.match(withDiagrams, /script-src 'self'/);
  assert.match(withDiagrams, /<script type="module" src="gstack-mermaid-boot.js"><\/script>/);
  assert.match(withDiagrams, /img-src 'self' data: blob: https: http:/);

  // The file `--to html` writes: its policy first in <head>, data: only, no 'self' (a file:
  // page's 'self' is the disk), remote only with --allow-network.
  const asFile = buildDocument(parts, docOpts({ asFile: true }));
  assert.match(asFile, /<head>\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; connect-src 'none'/);
  assert.doesNotMatch(asFile, /'self'/);
  assert.match(buildDocument(parts, docOpts({ asFile: true, allowNetwork: true })), /img-src data: https: http:;/);
});

test('linkify: a real e-mail address is a mailto: link, a package version is text', () => {
  const { html } = convert('Write to ada@example.com or ada@example.co.uk; install uglify-js@3.13.0, react@18.2.0, @scope/pkg@1.0.0-rc.1 or foo@latest.\n');
  assert.match(html, /<a href="mailto:ada@example\.com">ada@example\.com<\/a>/);
  assert.match(html, /<a href="mailto:ada@example\.co\.uk">/);
  assert.equal((html.match(/mailto:/g) ?? []).length, 2, html);
  assert.match(html, /install uglify-js@3\.13\.0, react@18\.2\.0, @scope\/pkg@1\.0\.0-rc\.1 or foo@latest\./);
});

test('fences: a known language is highlighted, an unknown one or none stays plain; short blocks are kept together', async () => {
  const src = '```js\nconst a = "x"; // note\n```\n\n```no-such-language\nconst b = 1;\n```\n\n```\nconst c = 2;\n```\n\n    indented();\n\n```ts\n' + 'let n = 1;\n'.repeat(16) + '```\n';
  const highlighter = await loadHighlighter(src);
  const policy = new AssetPolicy({ baseDir: FIXTURES, allowNetwork: false, strict: false });
  const { html } = convertMarkdown(src, { policy, highlighter });
  // One block-level span per source line (the print CSS wraps and splits by them).
  const line = (cls = '') => `<span class="gstack-cl gstack-i0${cls}"(?: data-gstack-cont="[^"]*")?>`;
  assert.match(html, new RegExp(`<pre class="gstack-code gstack-keep"><code class="hljs language-js">${line()}<span class="hljs-keyword">const</span> a = <span class="hljs-string">("|&quot;)x("|&quot;)</span>; <span class="hljs-comment">// note</span></span></code>`));
  assert.match(html, new RegExp(`<pre class="gstack-code gstack-keep"><code class="language-no-such-language">${line()}const b = 1;</span></code></pre>`));
  assert.match(html, new RegExp(`<pre class="gstack-code gstack-keep"><code>${line()}const c = 2;</span></code></pre>`));
  assert.match(html, new RegExp(`<pre class="gstack-code gstack-keep"><code>${line()}indented\\(\\);</span></code></pre>`));
  // A 16-line block may split, never inside its first or last 3 lines.
  const long = /<pre class="gstack-code"><code class="hljs language-ts">([\s\S]*?)<\/code><\/pre>/.exec(html)?.[1] ?? '';
  const roles = [...long.matchAll(/<span class="gstack-cl gstack-i0( gstack-cl-head| gstack-cl-tail)?">/g)].map((m) => (m[1] ?? '').trim() || 'mid');
  assert.deepEqual(roles, ['gstack-cl-head', 'gstack-cl-head', ...Array(12).fill('mid'), 'gstack-cl-tail', 'gstack-cl-tail']);
  // No fence names a language: highlight.js is not even loaded.
  assert.equal(await loadHighlighter('```\nplain\n```\n\n```mermaid\ngraph TD\n```\n'), undefined);
});

test('inline code: tokens with a break opportunity are held together; the text is unchanged', () => {
  const { html } = convert('Pass `--comments all` or `a/b/c.js` or `word` or `' + 'x-'.repeat(30) + '`.\n');
  assert.match(html, /<code><span class="gstack-nobr">--comments<\/span> all<\/code>/);
  assert.match(html, /<code><span class="gstack-nobr">a\/b\/c\.js<\/span><\/code>/);
  assert.match(html, /<code>word<\/code>/);
  assert.match(html, /<code>(x-){30}<\/code>/, 'an overlong token may break rather than overflow the page');
});

test('--print-urls: the URL follows external links whose text is not already the URL', () => {
  const policy = new AssetPolicy({ baseDir: FIXTURES, allowNetwork: false, strict: false });
  const md = '[Babel](https://babeljs.io/), https://example.com/x, [example.com](https://example.com), [local](#intro), [file](other.md).\n';
  const { html } = convertMarkdown(md, { policy, printUrls: true });
  assert.match(html, /<a href="https:\/\/babeljs\.io\/">Babel<\/a><span class="gstack-url"> \(https:\/\/babeljs\.io\/\)<\/span>/);
  assert.equal((html.match(/gstack-url/g) ?? []).length, 1, html);
  assert.doesNotMatch(convertMarkdown(md, { policy }).html, /gstack-url/);
});

test('a link to a file beside the document is plain text in a PDF (it would point at the dead render server) and kept in HTML', () => {
  const md = '[spec](./spec.md), [up](../README.md), [abs](/etc/x), [f](file:///tmp/y), <a href="notes.html">raw</a>, [h](#intro), [w](https://example.com/a), [m](mailto:a@example.com)\n\n# Intro\n';
  const pdf = convert(md, { fileLinks: 'text' });
  assert.deepEqual(pdf.policy.textLinks, ['./spec.md', '../README.md', '/etc/x', 'notes.html']);
  for (const kept of ['#intro', 'https://example.com/a', 'mailto:a@example.com']) assert.ok(pdf.html.includes(`href="${kept}"`), kept);
  for (const gone of ['spec.md', 'README.md', '/etc/x', 'notes.html']) assert.ok(!pdf.html.includes(`href="${gone}`) && !pdf.html.includes(`href="./${gone}`) && !pdf.html.includes(`href="../${gone}`), gone);
  assert.match(pdf.html, />spec<\/a>/, 'the words stay');
  // file: is never a link (the sanitizer's schemes); the rest stay for an HTML file beside them.
  const html = convert(md, { fileLinks: 'keep' });
  assert.deepEqual(html.policy.textLinks, []);
  assert.ok(html.html.includes('href="./spec.md"') && html.html.includes('href="notes.html"'));
});

test('an <img> with only a srcset says so (print takes src), not "empty src"', () => {
  const { policy } = convert('<img srcset="a.png 1x, b.png 2x" alt="s">\n\n<img alt="none">\n');
  assert.deepEqual(policy.notices.map((n) => n.message), ['image with only a srcset: give the <img> a src (a PDF prints src; srcset picks by screen)', 'image with an empty src']);
});

test('footnotes: a numbered mark linked to a note at the end, and back', () => {
  const { html, brokenAnchors } = convert('Claim[^src] and another[^2].\n\n[^src]: The source, with *emphasis*.\n[^2]: Second.\n');
  assert.match(html, /<sup class="footnote-ref"><a href="#fn1" id="fnref1">\[1\]<\/a><\/sup>/);
  assert.match(html, /<section class="footnotes">[\s\S]*<li id="fn1" class="footnote-item"><p>The source, with <em>emphasis<\/em>\. <a href="#fnref1" class="footnote-backref">/);
  assert.ok(!html.includes('[^src]'), 'the reference is not left as text');
  assert.deepEqual(brokenAnchors, []);
});

test('a dropped <link> or <img> takes no closing tag with it: the text after it stays text', () => {
  // Pass 34 (B34): renamed to a tag the sanitizer drops, a void <link> swallowed the next closing
  // tag, so a <style> never closed and the paragraphs after it became CSS, gone from the PDF.
  const { html } = convert('before\n\n<link rel="icon" href="x.png">\n<style>p{color:red}</style>\n\nHIDDEN AFTER\n\n<style>p{}</style>\n\nshown again\n\n<link rel="preload" href="y.css"><b>bold</b> tail\n', { });
  assert.match(html, /<style>p\{color:red\}<\/style>/);
  assert.match(html, /<p>HIDDEN AFTER<\/p>/);
  assert.match(html, /<b>bold<\/b> tail/);
  assert.ok(!html.includes('gstack-dropped'), html);
  const omitted = convert('<img src="https://example.com/badge.svg"><b>kept</b>\n', {});
  assert.match(omitted.html, /<b>kept<\/b>/);
});
