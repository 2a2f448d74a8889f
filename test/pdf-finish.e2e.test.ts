// Fit and finish of `gstack pdf` (issue 28), read back from the PDFs themselves (pdfinfo,
// pdftotext with word boxes, the outline) on two real READMEs from npm, unmodified:
// quill-delta 5.1.0 (an API reference: 96 headings, badges, a broken `#tranformposition` link)
// and uglify-js 3.19.3 (66 code blocks, long code lines). What the tests expect is read from the
// Markdown with markdown-it directly, not from our renderer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { BIN, ROOT, cliWith, expectExit, type CliResult } from './helpers/cli.js';
import { outlineTitles, pageTexts, pdfImageList, pdfInfo, squash } from './helpers/inspect.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'markdown');
const MARK = '\u21aa';
/** A code block up to this many lines stays whole (render/markdown/markdown.ts). */
const KEEP = 8;

let work: string;
let delta: { src: string; pdf: string; run: CliResult };
let uglify: { src: string; pdf: string; run: CliResult };
const gstack = cliWith(() => ({ cwd: work, timeoutMs: 180_000 }));

before(async () => {
  assert.ok(existsSync(BIN), 'dist/bin/gstack.cjs is missing: run `npm run build`');
  work = mkdtempSync(join(tmpdir(), 'gstack-pdf-finish-'));
  copyFileSync(join(FIXTURES, 'quill-delta', 'README.md'), join(work, 'delta.md'));
  copyFileSync(join(FIXTURES, 'uglify-js', 'README.md'), join(work, 'uglify.md'));
  const [d, u] = await Promise.all([
    gstack(['pdf', 'delta.md', 'delta.pdf', '--toc']),
    gstack(['pdf', 'uglify.md', 'uglify.pdf', '--cover', '--toc', '--author', 'Ada Lovelace']),
  ]);
  expectExit(d, 0);
  expectExit(u, 0);
  delta = { src: readFileSync(join(work, 'delta.md'), 'utf8'), pdf: join(work, 'delta.pdf'), run: d };
  uglify = { src: readFileSync(join(work, 'uglify.md'), 'utf8'), pdf: join(work, 'uglify.pdf'), run: u };
});
after(() => rmSync(work, { recursive: true, force: true }));

interface Word {
  page: number;
  x: number;
  xMax: number;
  y: number;
  yMax: number;
  text: string;
}

/** Every word of a PDF with its box (pdftotext -bbox), and each page's size. */
function words(pdf: string): { words: Word[]; pages: Array<{ width: number; height: number }> } {
  const xml = execFileSync('pdftotext', ['-bbox', pdf, '-'], { encoding: 'utf8' });
  const out: Word[] = [];
  const pages: Array<{ width: number; height: number }> = [];
  for (const [i, page] of xml.split('<page ').slice(1).entries()) {
    const size = /width="([\d.]+)" height="([\d.]+)"/.exec(page)!;
    pages.push({ width: Number(size[1]), height: Number(size[2]) });
    for (const m of page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      out.push({ page: i + 1, x: Number(m[1]), y: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]), text: m[5].replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') });
    }
  }
  return { words: out, pages };
}

/** The words of a PDF grouped into visual lines (same page, same baseline), top to bottom. */
function lines(pdf: string): Array<{ page: number; x: number; y: number; text: string }> {
  const byLine = new Map<string, Word[]>();
  for (const w of words(pdf).words) {
    const key = `${w.page}:${Math.round(w.yMax)}`;
    byLine.set(key, [...(byLine.get(key) ?? []), w]);
  }
  return [...byLine.values()]
    .map((ws) => ({ page: ws[0].page, x: Math.min(...ws.map((w) => w.x)), y: ws[0].yMax, text: ws.sort((a, b) => a.x - b.x).map((w) => w.text).join(' ') }))
    .sort((a, b) => a.page - b.page || a.y - b.y);
}

const compact = (s: string) => s.replace(/\s+/g, '').replace(/\u21aa\ufe0e?/g, '');
const isPageNumber = (s: string) => /^\d+ of \d+$/.test(s);

test('--author reaches the PDF Author field; front-matter author: too', async () => {
  assert.equal(pdfInfo(uglify.pdf).Author, 'Ada Lovelace');
  assert.equal(pdfInfo(uglify.pdf).Title, 'UglifyJS 3', 'the title still reaches its field');
  assert.equal(pdfInfo(uglify.pdf).Tagged, 'yes', 'still a tagged PDF');
  assert.equal(pdfInfo(delta.pdf).Author, undefined, 'no author given, none invented');
  writeFileSync(join(work, 'front.md'), `---\ntitle: Delta notes\nauthor: Grace Hopper\n---\n\n${delta.src}`);
  expectExit(await gstack(['pdf', 'front.md', 'front.pdf']), 0);
  assert.equal(pdfInfo(join(work, 'front.pdf')).Author, 'Grace Hopper');
  assert.equal(pdfInfo(join(work, 'front.pdf')).Title, 'Delta notes');
});

test('the outline follows --toc-depth (default 3); --outline-depth overrides it', async () => {
  const headings = new MarkdownIt().parse(delta.src, {}).filter((t) => t.type === 'heading_open');
  assert.equal(headings.length, 96);
  const upTo = (n: number) => headings.filter((h) => Number(h.tag.slice(1)) <= n).length;
  const titles = await outlineTitles(delta.pdf);
  assert.equal(titles.length, upTo(3), `levels 1-3: ${titles.length} entries`);
  assert.ok(!titles.includes('Parameters') && !titles.includes('Returns') && !titles.includes('Example'), 'no #### entries');
  assert.ok(titles.includes('insert()') && titles.includes('Operations'), 'the ### sections are there');
  expectExit(await gstack(['pdf', 'delta.md', 'deep.pdf', '--outline-depth', '4']), 0);
  const deep = await outlineTitles(join(work, 'deep.pdf'));
  assert.equal(deep.length, upTo(4));
  assert.ok(deep.filter((t) => t === 'Parameters').length > 10, 'level 4 listed on request');
  expectExit(await gstack(['pdf', 'delta.md', 'flat.pdf', '--toc-depth', '2']), 0);
  assert.equal((await outlineTitles(join(work, 'flat.pdf'))).length, upTo(2), 'the outline follows --toc-depth');
  const bad = await gstack(['pdf', 'delta.md', 'x.pdf', '--outline-depth', '9']);
  expectExit(bad, 2);
  assert.match(bad.stderr, /--outline-depth 9: use 1 to 6/);
});

test('a link to a missing anchor gives one warning line naming it; the PDF is still written', () => {
  const warnings = delta.run.stderr.split('\n').filter((l) => /missing anchor/.test(l));
  const srcLine = delta.src.split('\n').findIndex((l) => l.includes('](#tranformposition)')) + 1;
  assert.deepEqual(warnings, [`gstack pdf: warning: link to missing anchor #tranformposition (delta.md line ${srcLine}): no heading or element has that id; fix the link or the heading`]);
  assert.ok(Number(pdfInfo(delta.pdf).Pages) > 5);
  // uglify-js's README links only to anchors it has (13 of them).
  assert.doesNotMatch(uglify.run.stderr, /missing anchor/);
});

test('remote images: a placeholder by default, their alt text with --remote-images alt, nothing with omit', async () => {
  // The first body page (the contents page lists "Delta" too).
  const first = (pdf: string) => squash(pageTexts(pdf).find((p) => /Quick Example/.test(p) && !/^\s*Contents/.test(p))!);
  assert.match(first(delta.pdf), /Remote image blocked/);
  assert.equal(delta.run.stderr.match(/blocked remote image/g)?.length, 2, 'one line per badge');

  const alt = await gstack(['pdf', 'delta.md', 'alt.pdf', '--remote-images', 'alt']);
  expectExit(alt, 0);
  assert.match(first(join(work, 'alt.pdf')), /^Delta Build Status Coverage Status/);
  assert.doesNotMatch(first(join(work, 'alt.pdf')), /blocked/);
  assert.match(alt.stderr, /^gstack pdf: 2 remote images shown as their alt text \(--remote-images alt\)$/m);
  assert.doesNotMatch(alt.stderr, /blocked remote image/);

  const omit = await gstack(['pdf', 'delta.md', 'omit.pdf', '--remote-images', 'omit', '--allow-network']);
  expectExit(omit, 0);
  assert.match(first(join(work, "omit.pdf")), /^Delta Deltas are a simple/);
  assert.doesNotMatch(first(join(work, 'omit.pdf')), /Build Status|blocked/);
  assert.equal(pdfImageList(join(work, 'omit.pdf')).trim().split('\n').length, 2, 'no image in the PDF (pdfimages prints its header only)');
  assert.match(omit.stderr, /2 remote images left out \(--remote-images omit\)/);
});

test('a long code line wraps under itself after a continuation mark, nothing cut off', () => {
  for (const [doc, needle] of [[uglify, '"Unexpected token: keyword'], [delta, "results[1];  // [{ insert: { image:"]] as const) {
    const source = doc.src.split('\n').find((l) => l.includes(needle))!;
    const all = lines(doc.pdf);
    const i = all.findIndex((l) => compact(l.text).startsWith(compact(source).slice(0, 30)));
    assert.ok(i >= 0, `"${needle}" not found in the PDF text`);
    // The rows of the wrapped line: the first, then every row that starts with the mark.
    const rows = [all[i]];
    for (let j = i + 1; all[j]?.text.startsWith(MARK); j++) rows.push(all[j]);
    assert.ok(rows.length >= 2, `the ${source.length}-character line wraps`);
    assert.equal(rows.map((r) => compact(r.text)).join(''), compact(source), 'every character of the line is printed, in order');
    // Hanging indent: each continuation row's text starts right of where the line starts.
    const { words: ws } = words(doc.pdf);
    for (const r of rows.slice(1)) {
      const rowWords = ws.filter((w) => w.page === r.page && Math.round(w.yMax) === Math.round(r.y)).sort((a, b) => a.x - b.x);
      assert.ok(rowWords[0].text.startsWith(MARK), 'the mark comes first');
      const textX = rowWords[0].text.length > 2 ? rowWords[0].x + 8 : rowWords[1].x;
      assert.ok(textX > rows[0].x + 6, `continuation text at x=${textX} is not indented past the line start x=${rows[0].x}`);
    }
  }
  // Nothing runs past the right edge of the paper on any page.
  for (const doc of [uglify, delta]) {
    const { words: ws, pages } = words(doc.pdf);
    const over = ws.filter((w) => w.xMax > pages[w.page - 1].width - 36);
    assert.deepEqual(over.map((w) => `${w.text} (page ${w.page})`), [], 'text in the right margin');
  }
});

/** Each code block of a source located in the PDF: the page of each of its non-blank lines. */
function codeBlocks(doc: { src: string; pdf: string }): Array<{ n: number; first: string; pages: number[] }> {
  const pdfLines = lines(doc.pdf).filter((l) => !isPageNumber(l.text));
  const blocks = new MarkdownIt().parse(doc.src, {}).filter((t) => t.type === 'fence' || t.type === 'code_block');
  const out: Array<{ n: number; first: string; pages: number[] }> = [];
  let cursor = 0;
  for (const b of blocks) {
    const src = b.content.replace(/\n$/, '').split('\n');
    const found = (start: number) => {
      const pages: number[] = [];
      let j = start;
      for (const line of src.map(compact)) {
        if (line === '') continue; // a blank line prints no text
        if (j >= pdfLines.length) return undefined;
        const page = pdfLines[j].page;
        let got = compact(pdfLines[j++].text);
        while (got.length < line.length && pdfLines[j]?.text.startsWith(MARK)) got += compact(pdfLines[j++].text);
        if (got !== line) return undefined;
        pages.push(page);
      }
      cursor = j;
      return pages;
    };
    let pages: number[] | undefined;
    for (let i = cursor; i < pdfLines.length && !pages; i++) pages = found(i);
    assert.ok(pages, `block not found: ${JSON.stringify(src.slice(0, 2))}`);
    out.push({ n: src.length, first: src[0], pages });
    // (n counts every source line: KEEP is about the block's height.)
  }
  return out;
}

test(`code blocks: up to ${KEEP} lines stay whole, longer ones split with at least 3 lines a page`, () => {
  let split = 0;
  for (const doc of [uglify, delta]) {
    const problems: string[] = [];
    for (const b of codeBlocks(doc)) {
      const pages = [...new Set(b.pages)];
      if (pages.length === 1) continue;
      split++;
      if (b.n <= KEEP) problems.push(`${b.n}-line block "${b.first}" spans pages ${pages.join(', ')}`);
      for (const p of pages) {
        const n = b.pages.filter((x) => x === p).length;
        if (n < 3) problems.push(`${b.n}-line block "${b.first}" leaves ${n} line(s) on page ${p}`);
      }
    }
    assert.deepEqual(problems, []);
  }
  assert.ok(split >= 3, `long blocks do split (${split})`);
});

test('no page is left more than a quarter blank, except before a chapter, after the contents and at the end', () => {
  for (const doc of [uglify, delta]) {
    const h1s = new Set(new MarkdownIt().parse(doc.src, {}).flatMap((t, i, all) => (t.type === 'heading_open' && t.tag === 'h1' ? [squash(all[i + 1].content)] : [])));
    const withNumbers = lines(doc.pdf);
    const all = withNumbers.filter((l) => !isPageNumber(l.text));
    const { pages } = words(doc.pdf);
    const body = (p: number) => all.filter((l) => l.page === p);
    const contentTop = Math.min(...all.map((l) => l.y)) - 12;
    const contentBottom = Math.max(...all.map((l) => l.y));
    // The cover and contents pages are the unnumbered ones before the body.
    const bodyStart = withNumbers.find((l) => isPageNumber(l.text))!.page;
    const gaps: string[] = [];
    for (let p = bodyStart; p < pages.length; p++) {
      const here = body(p);
      const next = body(p + 1)[0]?.text ?? '';
      if (h1s.has(squash(next))) continue; // a chapter break
      const blank = (contentBottom - Math.max(...here.map((l) => l.y))) / (contentBottom - contentTop);
      if (blank > 0.25) gaps.push(`page ${p} is ${Math.round(blank * 100)}% blank before "${next}"`);
    }
    assert.deepEqual(gaps, []);
  }
});
