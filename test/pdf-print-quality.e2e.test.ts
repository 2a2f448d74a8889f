// Print quality of `gstack pdf` on a real document: the README of the npm package uglify-js
// (test/fixtures/markdown/uglify-js, unmodified), checked from the PDF itself the way a careful
// reader would (pdftotext -layout, pdfinfo, the colours and links the pages carry) and from
// the `--to html` file. The Markdown source is read with markdown-it directly, so what the
// tests expect comes from the document, not from our renderer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { BIN, ROOT, cliWith, expectExit } from './helpers/cli.js';
import { hasColour, leftmostWordX, linkUris, outlineTitles, pageInk, pageTexts, pdfInfo, squash } from './helpers/inspect.js';
import { HIGHLIGHT_COLORS } from '../render/markdown/highlight.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'markdown', 'uglify-js', 'README.md');
const FIXTURE_SHA256 = '895c3a17c847cddc6da2e0611293b512957aff892dbd577973617833265a14eb';
/** md-to-pdf 5.2.5 on the same README and the same Chromium 156 headless shell
 * (test/bench/pdf-diagram.ts): 1,072,504 bytes, 27 pages. */
const MD_TO_PDF_BYTES = 1_072_504;

let work: string;
let source: string;
let tokens: ReturnType<InstanceType<typeof MarkdownIt>['parse']>;
/** `--cover --toc`, all defaults otherwise. */
let tocPdf: string;
let tocPages: string[];
let html: string;
/** `--paper a4 --margin 20mm --print-urls`, and with the old spellings `--page-size a4 --margins
 * 20mm` plus `--toc --no-page-numbers` (a contents page without numbered pages: see item 10). */
let a4Pdf: string;
let a4OldPdf: string;
/** `gstack render` of the `--to html` file with `--paper a4 --margin 20mm`. */
let renderedPdf: string;

const gstack = cliWith(() => ({ cwd: work, timeoutMs: 180_000 }));

before(async () => {
  assert.ok(existsSync(BIN), 'dist/bin/gstack.cjs is missing: run `npm run build` (npm test builds first)');
  source = readFileSync(FIXTURE, 'utf8');
  assert.equal(createHash('sha256').update(source).digest('hex'), FIXTURE_SHA256, 'the fixture must be the README as published');
  tokens = new MarkdownIt().parse(source, {});
  work = mkdtempSync(join(tmpdir(), 'gstack-print-quality-'));
  copyFileSync(FIXTURE, join(work, 'README.md'));
  tocPdf = join(work, 'toc.pdf');
  a4Pdf = join(work, 'a4.pdf');
  a4OldPdf = join(work, 'a4-old.pdf');
  renderedPdf = join(work, 'rendered.pdf');
  expectExit(await gstack(['pdf', 'README.md', tocPdf, '--cover', '--toc']), 0);
  expectExit(await gstack(['pdf', 'README.md', 'readme.html', '--to', 'html']), 0);
  expectExit(await gstack(['pdf', 'README.md', a4Pdf, '--paper', 'a4', '--margin', '20mm', '--print-urls']), 0);
  expectExit(await gstack(['pdf', 'README.md', a4OldPdf, '--page-size', 'a4', '--margins', '20mm', '--toc', '--no-page-numbers']), 0);
  expectExit(await gstack(['render', 'readme.html', '--pdf', renderedPdf, '--paper', 'a4', '--margin', '20mm']), 0);
  tocPages = pageTexts(tocPdf);
  html = readFileSync(join(work, 'readme.html'), 'utf8');
});
after(() => rmSync(work, { recursive: true, force: true }));

/** Every code_inline token of the source, with the characters just before and after it. */
function inlineCodes(): Array<{ code: string; before: string; after: string }> {
  const out: Array<{ code: string; before: string; after: string }> = [];
  for (const block of tokens) {
    const kids = block.children ?? [];
    kids.forEach((t, i) => {
      if (t.type !== 'code_inline') return;
      const prev = kids[i - 1]?.type === 'text' ? kids[i - 1].content : '';
      const next = kids[i + 1]?.type === 'text' ? kids[i + 1].content : '';
      out.push({ code: t.content, before: prev.slice(-1), after: next.slice(0, 1) });
    });
  }
  return out;
}

/** The body lines of a PDF in reading order (blank lines and page-number lines left out). */
function bodyLines(pages: string[]): Array<{ page: number; text: string }> {
  return pages.flatMap((p, i) =>
    p.split('\n').map((l) => ({ page: i + 1, text: squash(l) })).filter((l) => l.text !== '' && !/^\d+ of \d+$/.test(l.text)),
  );
}

test('inline code never breaks inside a token: a line never ends partway through one (item 1)', () => {
  const lines = bodyLines(tocPages);
  // Tokens that have a break opportunity (-, /, ., ...) and are short enough to be held together.
  const held = [...new Set(inlineCodes().flatMap((c) => c.code.split(/ +/)))].filter((t) => t.length > 1 && t.length <= 40 && /[^\p{L}\p{N}_]/u.test(t));
  assert.ok(held.length > 100, `the README has many such tokens (${held.length})`);
  assert.ok(held.includes('--comments'), 'the token the issue saw split');
  const splits: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const [end, start] = [lines[i].text, lines[i + 1].text];
    for (const t of held) {
      for (let k = 1; k < t.length; k++) {
        if (end.endsWith(t.slice(0, k)) && start.startsWith(t.slice(k)) && !end.endsWith(t) && !start.startsWith(t)) {
          splits.push(`"${t}" split on page ${lines[i].page}: "…${end.slice(-30)}" / "${start.slice(0, 30)}…"`);
        }
      }
    }
  }
  assert.deepEqual(splits, []);
});

test('inline code adds no spaces: the PDF text reads "(--mangle-props)" as the source does (item 2)', () => {
  const text = squash(tocPages.join('\n'));
  const tight = inlineCodes().filter((c) => /[([]/.test(c.before) || /[)\],.:;]/.test(c.after));
  assert.ok(tight.length > 50, `the README has code next to punctuation (${tight.length})`);
  const loose: string[] = [];
  for (const c of tight) {
    const code = squash(c.code);
    if (/[([]/.test(c.before) && !text.includes(c.before + code)) loose.push(`${c.before}${code}`);
    if (/[)\],.:;]/.test(c.after) && !text.includes(code + c.after)) loose.push(`${code}${c.after}`);
  }
  assert.deepEqual(loose, [], 'these code spans have a space next to their punctuation in the PDF text');
  assert.ok(text.includes('(--mangle-props)'));
  assert.ok(text.includes('(default: false)'));
});

/** Each code block of the source, located line by line in the PDF text: the page each of its
 * lines is on. A long source line may wrap onto the next PDF lines; spacing is not compared. */
function locateBlocks(): Array<{ lines: number; pages: number[]; first: string }> {
  const pdf = bodyLines(tocPages);
  // A wrapped code line's continuation rows start with the mark ↪ (render/markdown/markdown.ts).
  const compact = (s: string) => s.replace(/\s+|\u21aa\ufe0e?/g, '');
  const found: Array<{ lines: number; pages: number[]; first: string }> = [];
  let cursor = 0;
  for (const b of tokens.filter((t) => t.type === 'fence' || t.type === 'code_block')) {
    const src = b.content.replace(/\n$/, '').split('\n').map(compact);
    const matchAt = (start: number): { pages: number[]; end: number } | undefined => {
      const pages: number[] = [];
      let j = start;
      for (const line of src) {
        if (line === '') {
          pages.push(pages[pages.length - 1] ?? pdf[start].page); // an empty line goes with the one before
          continue;
        }
        if (j >= pdf.length) return undefined;
        const page = pdf[j].page;
        let got = compact(pdf[j++].text);
        while (got.length < line.length && j < pdf.length && line.startsWith(got + compact(pdf[j].text))) got += compact(pdf[j++].text);
        if (got !== line) return undefined;
        pages.push(page);
      }
      return { pages, end: j };
    };
    let hit: { pages: number[]; end: number } | undefined;
    for (let i = cursor; i < pdf.length && !hit; i++) hit = matchAt(i);
    assert.ok(hit, `code block not found in the PDF text: ${JSON.stringify(b.content.split('\n').slice(0, 3))}`);
    cursor = hit.end;
    found.push({ lines: src.length, pages: hit.pages, first: b.content.split('\n')[0] });
  }
  return found;
}

test('code blocks of up to 8 lines stay on one page; a longer one keeps 3 lines a side (item 3, issue 28)', () => {
  const blocks = locateBlocks();
  assert.equal(blocks.length, tokens.filter((t) => t.type === 'fence' || t.type === 'code_block').length);
  assert.ok(blocks.length > 60, `the README has many code blocks (${blocks.length})`);
  const problems: string[] = [];
  for (const b of blocks) {
    const pages = [...new Set(b.pages)];
    if (pages.length === 1) continue;
    if (b.lines <= 8) problems.push(`${b.lines}-line block "${b.first}" spans pages ${pages.join(', ')}`);
    for (const p of pages) {
      const n = b.pages.filter((x) => x === p).length;
      if (n < 3) problems.push(`block "${b.first}" leaves ${n} line(s) on page ${p}`);
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(blocks.some((b) => b.lines > 8), 'the README has long blocks too');
});

test('fenced code is highlighted in the --to html file and in the PDF colours; code without a language stays plain (item 4)', async () => {
  const fences = tokens.filter((t) => t.type === 'fence');
  const named = fences.filter((t) => /^(javascript|bash)$/.test(t.info.trim()));
  const plain = fences.filter((t) => t.info.trim() === '').length + tokens.filter((t) => t.type === 'code_block').length;
  assert.equal(named.length + plain, fences.length + tokens.filter((t) => t.type === 'code_block').length, 'only javascript, bash and plain blocks');
  assert.ok(named.length >= 40, `${named.length} fenced blocks name a language`);

  const highlighted = [...html.matchAll(/<pre class="gstack-code[^"]*"><code class="hljs language-(javascript|bash)">([\s\S]*?)<\/code><\/pre>/g)];
  assert.equal(highlighted.length, named.length, 'every fence that names a language is highlighted');
  // Every JavaScript block has coloured tokens (a bash block of one plain command may have none).
  for (const [, lang, body] of highlighted.filter((m) => m[1] === 'javascript')) assert.match(body, /<span class="hljs-[a-z_ ]+">/, `a ${lang} block has no highlighted token`);
  assert.match(html, /<span class="hljs-keyword">function<\/span>/);
  const plainBlocks = [...html.matchAll(/<pre class="gstack-code[^"]*"><code>([\s\S]*?)<\/code><\/pre>/g)];
  assert.equal(plainBlocks.length, plain, 'blocks without a language are plain code');
  for (const [, body] of plainBlocks) assert.doesNotMatch(body, /hljs/);
  assert.match(html, /\.hljs-keyword[^{]*\{ color: #b3101e; \}/, 'the print colours travel with the HTML file');

  // The PDF paints code text in the highlight colours (and prose in the body colour).
  const text = new Set((await pageInk(tocPdf)).flatMap((p) => [...p.textColours]));
  for (const [role, hex] of Object.entries({ keyword: HIGHLIGHT_COLORS.keyword, string: HIGHLIGHT_COLORS.string, comment: HIGHLIGHT_COLORS.comment, number: HIGHLIGHT_COLORS.number })) {
    assert.ok(hasColour(text, hex), `no text is painted in the ${role} colour ${hex}`);
  }
  assert.ok(hasColour(text, '#1b1f24'), 'body text colour');
});

test('the cover and contents pages are unnumbered; body pages carry their number, which the TOC gives (item 5)', () => {
  const n = tocPages.length;
  assert.equal(String(n), pdfInfo(tocPdf).Pages);
  assert.ok(n >= 25, `a long document (${n} pages)`);
  assert.match(tocPages[0], /UglifyJS 3/, 'cover');
  assert.match(tocPages[1], /^\s*Contents\s*$/m, 'contents');
  const numberOf = (p: string) => /^\s*(\d+) of (\d+)\s*$/m.exec(p);
  assert.equal(numberOf(tocPages[0]), null, 'the cover carries a page number');
  assert.equal(numberOf(tocPages[1]), null, 'the contents page carries a page number');
  for (let i = 2; i < n; i++) assert.deepEqual(numberOf(tocPages[i])?.slice(1), [String(i + 1), String(n)], `page ${i + 1} shows the wrong number`);

  // Every TOC entry names the page (as printed on it) where its heading is.
  const entries = tocPages[1].split('\n').map((l) => /^\s*(\S.*?)\s{2,}(\d+)\s*$/.exec(l)).filter((m) => m !== null);
  assert.ok(entries.length >= 30, `TOC entries: ${entries.length}`);
  for (const [, title, page] of entries) {
    const printed = numberOf(tocPages[Number(page) - 1])?.[1];
    assert.equal(printed, page, `"${title}": the TOC says ${page}, that page is printed ${printed}`);
    assert.ok(tocPages[Number(page) - 1].split('\n').map(squash).includes(squash(title)), `"${title}" is not a line of page ${page}`);
  }
});

test('package versions are not e-mail links: uglify-js@3.13.0 stays text (item 6)', async () => {
  assert.ok(source.includes('uglify-js@3.13.0'));
  assert.ok(tocPages.join('\n').includes('uglify-js@3.13.0'));
  const uris = await linkUris(tocPdf);
  assert.ok(uris.length >= 8, `the README's links are links (${uris.length})`);
  assert.deepEqual(uris.filter((u) => /^mailto:/i.test(u)), []);
  assert.doesNotMatch(html, /href="mailto:/);
});

test('--print-urls prints each external link\'s URL after its text (item 7)', () => {
  const withUrls = squash(pageTexts(a4Pdf).join('\n'));
  const without = squash(tocPages.join('\n'));
  assert.ok(withUrls.includes('node.js (http://nodejs.org/)'));
  assert.ok(withUrls.includes('Babel (https://babeljs.io/)'));
  assert.ok(withUrls.includes('#640 (https://github.com/mishoo/UglifyJS/issues/640)'));
  assert.ok(!without.includes('(http://nodejs.org/)'), 'without the flag the URL is not printed');
});

test('gstack pdf and gstack render take the same print flags with the same defaults; old spellings still work (item 8)', async () => {
  const pdf = pdfInfo(a4Pdf);
  const rendered = pdfInfo(renderedPdf);
  const old = pdfInfo(a4OldPdf);
  for (const [name, info] of Object.entries({ pdf, rendered, old })) {
    assert.match(info['Page size'], /^595\.\d+ x 841\.\d+ pts \(A4\)$/, `${name}: --paper a4`);
    assert.equal(info.Tagged, 'yes', `${name}: tagged by default`);
  }
  // 20mm = 56.7 pt: the leftmost word of the document starts at the margin.
  for (const file of [a4Pdf, renderedPdf, a4OldPdf]) assert.ok(Math.abs(leftmostWordX(file) - 56.69) < 1, `${file}: left margin ${leftmostWordX(file)}`);
  // Page numbers and the outline are on by default in both.
  for (const file of [a4Pdf, renderedPdf]) {
    const pages = pageTexts(file);
    pages.forEach((p, i) => assert.match(p, new RegExp(`\\b${i + 1} of ${pages.length}\\b`), `${file}: page ${i + 1} has no number`));
    assert.ok((await outlineTitles(file)).includes('Install'), `${file}: outline`);
  }
  assert.equal(old.Pages, pageTexts(a4OldPdf).length.toString());
});

test('the bytes go to content, not waste: no page repeats the TOC leaders, and the file is smaller than md-to-pdf\'s (item 10)', async () => {
  // The dotted leaders (#8c959f) are drawn on the contents page only. A transformed leader box
  // was painted, clipped away, into every page (~6 KB a page); whether Chromium does that
  // depends on the document's @page rules, so a numbered and an unnumbered document are checked.
  for (const [file, contents] of [[tocPdf, 2], [a4OldPdf, 1]] as const) {
    const ink = await pageInk(file);
    assert.deepEqual(ink.map((p, i) => (hasColour(p.allColours, '#8c959f') ? i + 1 : 0)).filter(Boolean), [contents], `${file}: pages with TOC leaders`);
  }
  const bytes = statSync(tocPdf).size;
  assert.ok(bytes < MD_TO_PDF_BYTES, `${bytes} bytes with cover, TOC and highlighting; md-to-pdf writes ${MD_TO_PDF_BYTES} without cover or TOC`);
});
