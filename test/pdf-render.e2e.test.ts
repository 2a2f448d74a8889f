// `gstack pdf` end to end: the compiled CLI, a real Chromium, real PDFs read back with
// poppler-utils (pdftotext, pdfinfo, pdftoppm) and pdf-lib. Needs `npx tsc` (npm test builds).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile, chmod, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { findChromium } from '../driver/browser/chromium-find.js';
import { convertMarkdown } from '../render/markdown/markdown.js';
import { AssetPolicy } from '../render/markdown/assets.js';
import { BIN, ROOT, cliWith } from './helpers/cli.js';
import { outlineTitles, pageTexts, pagePixels, pdfImageList, pdfInfo, rawPageTexts, squash, wordXs } from './helpers/inspect.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'markdown');
let work: string;
let launchLog: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  assert.ok(existsSync(BIN), 'dist/bin/gstack.cjs is missing: run `npx tsc -p tsconfig.json` (npm test builds first)');
  work = await mkdtemp(join(tmpdir(), 'gstack-pdf-test-'));
  // Every Chromium start goes through this wrapper, so a test can count browser launches.
  launchLog = join(work, 'launches.log');
  const wrapper = join(work, 'chromium-counting');
  await writeFile(wrapper, `#!/bin/sh\necho launch >> '${launchLog}'\nexec '${findChromium().path}' "$@"\n`);
  await chmod(wrapper, 0o755);
  env = { ...process.env, GSTACK_SKIP_ASIDE: '1', GSTACK_CHROMIUM: wrapper };
});
after(async () => {
  await rm(work, { recursive: true, force: true });
});

const gstack = cliWith(() => ({ cwd: work, env, exactEnv: true }));

async function launches(): Promise<number> {
  if (!existsSync(launchLog)) return 0;
  return (await readFile(launchLog, 'utf8')).split('\n').filter(Boolean).length;
}

test('a long real-world README renders to a tagged PDF with outline, page numbers and a TOC whose numbers are the real pages', async () => {
  // The README of a dependency: real headings, code, tables, lists, remote badges.
  const require = createRequire(import.meta.url);
  const readme = join(resolve(require.resolve('sanitize-html'), '..'), 'README.md');
  const input = join(work, 'README.md');
  await copyFile(readme, input);
  const out = join(work, 'readme.pdf');
  const before = await launches();
  // In its own process (no render host, whose browser outlives a render), each print pass
  // starts the browser once: the launch count is the pass count.
  const r = await gstack(['pdf', input, out, '--toc', '--cover', '--author', 'Test Author'], { env: { GSTACK_NO_HOST: '1' } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, out + '\n', 'stdout carries only the output path');
  // Progress per stage on stderr.
  assert.match(r.stderr, /gstack pdf: parsed README.md in \d+ ms: \d+ headings/);
  assert.match(r.stderr, /layout pass 1 printed on chromium/);
  assert.match(r.stderr, /pass 2 printed with TOC page numbers/);
  assert.match(r.stderr, /gstack pdf: wrote .*readme.pdf \(\d+ pages\)/);
  assert.equal((await launches()) - before, 2, 'a TOC costs exactly two print passes');

  const info = pdfInfo(out);
  assert.equal(info.Tagged, 'yes');
  assert.equal(info.Title, 'sanitize-html');
  const pages = pageTexts(out);
  assert.equal(pages.length, Number(info.Pages));
  assert.ok(pages.length >= 10, `expected a long document, got ${pages.length} pages`);
  // The cover and the contents page are unnumbered; every other page shows its PDF page number.
  pages.forEach((p, i) =>
    i < 2
      ? assert.doesNotMatch(p, /\b\d+ of \d+\b/, `front-matter page ${i + 1} carries a page number`)
      : assert.match(p, new RegExp(`\\b${i + 1} of ${pages.length}\\b`), `page ${i + 1} has no page number`),
  );
  assert.match(pages[0], /sanitize-html[\s\S]*Test Author/, 'cover page');

  // The outline lists the document's headings.
  const policy = new AssetPolicy({ baseDir: work, allowNetwork: false, strict: false });
  const headings = convertMarkdown(await readFile(input, 'utf8'), { policy }).headings;
  const outline = await outlineTitles(out);
  const listed = headings.filter((h) => h.level <= 3);
  for (const h of listed) assert.ok(outline.some((t) => squash(t) === squash(h.text)), `outline misses "${h.text}"`);

  // The TOC, read back from the PDF's text: every entry's number is the page its heading is on.
  const tocStart = pages.findIndex((p) => /^\s*Contents\s*$/m.test(p));
  assert.equal(tocStart, 1, 'the TOC follows the cover');
  const entries: Array<{ text: string; page: number }> = [];
  for (let i = tocStart; i < pages.length && entries.length < listed.length; i++) {
    for (const line of pages[i].split('\n')) {
      const m = /^\s*(\S.*?)\s{2,}(\d+)\s*$/.exec(line);
      if (m && !/ of \d+$/.test(line.trim())) entries.push({ text: squash(m[1]), page: Number(m[2]) });
    }
  }
  assert.equal(entries.length, listed.length, `TOC entries: ${JSON.stringify(entries)}`);
  const firstContentPage = Math.min(...entries.map((e) => e.page));
  assert.ok(firstContentPage > tocStart + 1, 'content starts after the TOC');
  const distinctPages = new Set(entries.map((e) => e.page));
  assert.ok(distinctPages.size >= 5, 'headings spread over many pages (a real check, not all on one)');
  entries.forEach((e, k) => {
    assert.equal(e.text, squash(listed[k].text), 'TOC order follows the document');
    const lines = pages[e.page - 1].split('\n').map(squash);
    assert.ok(lines.includes(e.text), `TOC says "${e.text}" is on page ${e.page}, but that page does not show it as a heading line`);
    // ...and it is not on an earlier content page (the TOC number is the first page it is on).
    for (let p = firstContentPage; p < e.page; p++) {
      const earlier = pages[p - 1].split('\n').map(squash);
      if (earlier.includes(e.text)) {
        // The same text can appear as a line earlier only if it is another heading with the same text.
        assert.ok(listed.filter((h) => squash(h.text) === e.text).length > 1, `"${e.text}" is already on page ${p}, before page ${e.page}`);
      }
    }
  });
});

function startRecordingServer(host: string): Promise<{ server: Server; origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end();
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, host, () => {
      const port = (server.address() as { port: number }).port;
      ok({ server, origin: `http://${host}:${port}`, requests });
    });
  });
}

test('a hostile document: script never runs, no remote host is contacted, a broken diagram is a visible diagnostic', async () => {
  // The "remote" host is another loopback address with its own server, which records every hit.
  const remote = await startRecordingServer('127.0.0.2');
  try {
    const src = (await readFile(join(FIXTURES, 'hostile.md'), 'utf8')).replaceAll('{{REMOTE}}', remote.origin);
    const dir = join(work, 'hostile');
    await mkdir(dir, { recursive: true });
    const input = join(dir, 'hostile.md');
    await writeFile(input, src);

    const r = await gstack(['pdf', input]);
    assert.equal(r.code, 0, r.stderr);
    const out = join(dir, 'hostile.pdf');
    assert.equal(r.stdout, out + '\n');
    assert.deepEqual(remote.requests, [], 'the remote host was contacted');

    const text = pageTexts(out).join('\n');
    assert.doesNotMatch(text, /SCRIPT_RAN|HANDLER_RAN/, 'document script ran');
    assert.doesNotMatch(text, /hunter2|document\.body|fetch\(/, 'script or form content leaked into the page');
    assert.match(text, /Remote image blocked: http:\/\/127\.0\.0\.2:\d+\/pixel\.png/);
    assert.match(text, /Remote stylesheet blocked: http:\/\/127\.0\.0\.2:\d+\/theme\.css/);
    assert.match(text, /Hover text stays/);
    // The broken fence is a diagnostic with mermaid's message; the good one is a real diagram.
    assert.match(text, /Diagram 1 could not be rendered \(mermaid syntax error\)/);
    assert.match(text, /Parse error on line 3/);
    assert.match(text, /Ping from the good diagram/);
    assert.match(text, /The end\./);
    const diagramLines = r.stderr.split('\n').filter((l) => /diagram/i.test(l));
    assert.equal(diagramLines.length, 2, r.stderr); // the parse summary line and the one diagnostic line
    assert.match(diagramLines[1], /^gstack pdf: diagram 1 \(hostile\.md line 2\d\) could not be rendered; a diagnostic block shows in its place: Parse error on line 3/);
    assert.match(r.stderr, /blocked remote image http:\/\/127\.0\.0\.2:\d+\/pixel\.png/);
    assert.match(r.stderr, /blocked remote font http:\/\/127\.0\.0\.2:\d+\/font\.woff2/);

    // The HTML output is inert too: no script at all, diagrams inline, diagnostic present.
    const html = join(dir, 'hostile.html');
    const h = await gstack(['pdf', input, html, '--to', 'html']);
    assert.equal(h.code, 0, h.stderr);
    assert.equal(h.stdout, html + '\n');
    const page = await readFile(html, 'utf8');
    assert.doesNotMatch(page, /<script|onerror|onmouseover|javascript:|<iframe|<form/i);
    assert.match(page, /script-src 'none'/);
    assert.match(page, /<svg[^>]*aria-roledescription="sequence"/);
    assert.match(page, /gstack-mermaid-error/);
    assert.deepEqual(remote.requests, []);

    // Control: the same document with --allow-network does reach the server, so the silence above
    // is the blocking at work, not a server nobody could have reached. Script still never runs.
    const allowed = await gstack(['pdf', input, join(dir, 'allowed.pdf'), '--allow-network']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.ok((remote.requests as string[]).includes('/pixel.png'), `requests with --allow-network: ${remote.requests}`);
    assert.ok(!remote.requests.some((u) => /script-ran|handler-ran|hover|js-link|steal|frame/.test(u)), `${remote.requests}`);
  } finally {
    remote.server.close();
  }
});

// A trial agent's QA report: a mermaid chart taller than a page came out split over two pages,
// its heading alone on the page before. Now it is scaled to one page, under its heading.
test('a diagram taller than a page is drawn whole on one page, under its heading', async () => {
  const chain = Array.from({ length: 28 }, (_, i) => `  N${i}[Step ${i} of the long chain] --> N${i + 1}[Step ${i + 1} of the long chain]`).join('\n');
  const md = join(work, 'tall.md');
  await writeFile(md, `# Report\n\nIntro paragraph.\n\n## Deck structure\n\n\`\`\`mermaid\nflowchart TB\n${chain}\n\`\`\`\n\nAfter the diagram.\n`);
  const out = join(work, 'tall.pdf');
  const r = await gstack(['pdf', md, out]);
  assert.equal(r.code, 0, r.stderr);
  const pages = pageTexts(out);
  const first = pages.findIndex((t) => t.includes('Step 0 of'));
  const last = pages.findIndex((t) => t.includes('Step 28 of'));
  assert.ok(first >= 0 && first === last, `the diagram spans pages ${first + 1}-${last + 1}: ${JSON.stringify(pages.map((t) => squash(t).slice(0, 80)))}`);
  assert.match(pages[first], /Deck structure/, 'its heading is on the same page');
});

/** A PNG of one colour (no dependency: the format is small enough to write here). */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = table[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).fill(Buffer.from(rgb))]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// A trial agent's QA report (Swagger UI): a full-page screenshot taller than a page was printed
// across two pages, its "Screenshots" heading alone at the foot of the first.
test('an image taller than a page is drawn whole on one page, under its heading', async () => {
  await writeFile(join(work, 'tall.png'), solidPng(600, 3000, [40, 110, 190]));
  const md = join(work, 'tall-image.md');
  await writeFile(md, `# Report\n\n${'An intro line that fills the page a little.\n\n'.repeat(12)}## Screenshots\n\n![the whole page](tall.png)\n\nAfter the image.\n`);
  const out = join(work, 'tall-image.pdf');
  const r = await gstack(['pdf', md, out]);
  assert.equal(r.code, 0, r.stderr);
  // pdfimages -list: a header of two lines, then one row per image drawn (page first).
  const rows = pdfImageList(out).trim().split('\n').slice(2);
  assert.equal(rows.length, 1, `the image is drawn ${rows.length} times (split over pages?):\n${rows.join('\n')}`);
  const page = Number(rows[0].trim().split(/\s+/)[0]);
  assert.match(pageTexts(out)[page - 1], /Screenshots/, 'its heading is on its page');
});

test('emoji and CJK render as real glyphs from the OS fonts, not boxes', async () => {
  const out = join(work, 'glyphs.pdf');
  const r = await gstack(['pdf', join(FIXTURES, 'glyphs.md'), out, '--no-page-numbers']);
  assert.equal(r.code, 0, r.stderr);
  const text = pageTexts(out)[0];
  assert.match(text, /😀🚀😀/);
  assert.match(text, /漢字語/);

  const { width, height, px } = pagePixels(out, 1, 50);
  // Three lines of glyphs: emoji, CJK, and three unassigned code points that can only be boxes.
  const bands: Array<{ from: number; to: number; ink: number; colour: number }> = [];
  for (let y = 0; y < height; y++) {
    let ink = 0;
    let colour = 0;
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const [r8, g8, b8] = [px[i], px[i + 1], px[i + 2]];
      if (Math.min(r8, g8, b8) < 200) ink++;
      if (Math.max(r8, g8, b8) - Math.min(r8, g8, b8) > 80) colour++;
    }
    const last = bands[bands.length - 1];
    if (ink === 0) continue;
    if (last && y - last.to <= 2) {
      last.to = y;
      last.ink += ink;
      last.colour += colour;
    } else bands.push({ from: y, to: y, ink, colour });
  }
  assert.equal(bands.length, 3, `glyph rows: ${JSON.stringify(bands)}`);
  const [emoji, cjk, boxes] = bands;
  assert.ok(emoji.colour > emoji.ink * 0.4, `emoji are not colour glyphs: ${JSON.stringify(emoji)}`);
  assert.ok(cjk.colour < cjk.ink * 0.05, 'CJK text is plain ink');
  assert.ok(cjk.ink > boxes.ink * 1.8, `CJK glyphs look like missing-glyph boxes: ${cjk.ink} vs boxes ${boxes.ink}`);
});

test('options: cover, TOC, chapter breaks, watermark, header/footer, page size, typography, images, metadata', async () => {
  const dir = join(work, 'options');
  await mkdir(join(dir, 'img'), { recursive: true });
  await copyFile(join(FIXTURES, 'options.md'), join(dir, 'options.md'));
  await copyFile(join(FIXTURES, 'img', 'swatch.png'), join(dir, 'img', 'swatch.png'));
  await writeFile(join(dir, 'footer.html'), '<div style="font-size:8px;width:100%;text-align:left;padding-left:0.7in">FOOTER-MARK</div>');
  const out = join(dir, 'out.pdf');
  const r = await gstack([
    'pdf', join(dir, 'options.md'), out, '--cover', '--toc', '--watermark', 'DRAFT', '--page-size', 'a4',
    '--header-template', '<div style="font-size:8px;width:100%;text-align:center">HEADER-MARK <span class="title"></span></div>',
    '--footer-template', join(dir, 'footer.html'),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr.split('\n').filter((l) => /missing image/.test(l)).length, 1, 'one stderr line per missing image');
  const info = pdfInfo(out);
  assert.match(info['Page size'], /^595\.\d+ x 841\.\d+ pts \(A4\)$/);
  assert.equal(info.Title, 'Options Manual');
  const pages = pageTexts(out);
  assert.equal(pages.length, 4, 'cover, TOC, chapter one, chapter two');
  const raw = rawPageTexts(out);
  for (const [i, p] of pages.entries()) {
    assert.match(raw[i], /^DRAFT$/m, `page ${i + 1} has no watermark`);
    assert.match(p, /HEADER-MARK Options Manual/, `page ${i + 1} has no header`);
    assert.match(p, /FOOTER-MARK/, `page ${i + 1} has no custom footer`);
    if (i < 2) assert.doesNotMatch(p, /\d of 4/, `front-matter page ${i + 1} carries a page number`);
    else assert.match(p, new RegExp(`${i + 1} of 4`), `page ${i + 1} has no page number`);
  }
  assert.match(pages[0], /Options Manual[\s\S]*Ada Lovelace[\s\S]*1843-09-01/);
  assert.doesNotMatch(pages[0], /First chapter/);
  assert.match(pages[1], /First chapter\s+3/);
  assert.match(pages[1], /Section one-one\s+3/);
  assert.match(pages[1], /Second chapter\s+4/);
  assert.match(pages[2], /“Quotes” and ‘single quotes’ – dashes — and ellipses…/);
  assert.match(pages[2], /code "x" -- \.\.\./);
  assert.match(pages[2], /Image missing \(file not found\): img\/nope\.png/);
  assert.match(pages[3], /Second chapter/);
  assert.match(pages[3], /const s = "straight quotes" -- stay\.\.\./);
  const images = pdfImageList(out);
  assert.match(images, /^\s*3\s+0\s+image\s+48\s+24\s/m, 'the local PNG is embedded, at its own size, on the first chapter page');

  // Everything off: untagged, no outline, no page numbers, one flowing chapter; one launch.
  // Also: --title, --date on the cover, --margins.
  const before = await launches();
  const plain = join(dir, 'plain.pdf');
  // In its own process the launch count is the pass count (a render host's browser outlives it).
  const p = await gstack([
    'pdf', join(dir, 'options.md'), plain, '--no-tagged', '--no-outline', '--no-page-numbers', '--no-chapter-breaks',
    '--cover', '--title', 'Plain Title', '--date', 'Spring 2026', '--margins', '1.5in',
  ], { env: { GSTACK_NO_HOST: '1' } });
  assert.equal(p.code, 0, p.stderr);
  assert.equal((await launches()) - before, 1, 'without a TOC the document prints once');
  const plainInfo = pdfInfo(plain);
  assert.equal(plainInfo.Tagged, 'no');
  assert.equal(plainInfo.Title, 'Plain Title');
  assert.deepEqual(await outlineTitles(plain), []);
  assert.deepEqual(await outlineTitles(out), ['First chapter', 'Section one-one', 'Second chapter']);
  const plainPages = pageTexts(plain);
  assert.equal(plainPages.length, 2, 'cover, then both chapters on one page');
  assert.match(plainPages[0], /Plain Title[\s\S]*Ada Lovelace[\s\S]*Spring 2026/);
  for (const pg of plainPages) assert.doesNotMatch(pg, /\d of \d/);
  assert.match(plainPages[1], /First chapter[\s\S]*Second chapter/);
  // 1.5in margins: no word starts left of 108 pt on the content page.
  const xs = wordXs(plain, 2);
  assert.ok(xs.length > 20);
  assert.ok(Math.abs(Math.min(...xs) - 108) < 2, `left margin starts at ${Math.min(...xs)} pt, expected 108`);

  // --strict turns a missing image into a failure, and nothing is written.
  const strictOut = join(dir, 'strict.pdf');
  const s = await gstack(['pdf', join(dir, 'options.md'), strictOut, '--strict']);
  assert.equal(s.code, 1);
  assert.equal(s.stdout, '');
  assert.match(s.stderr.trim().split('\n').pop()!, /^\[error\] options\.md: missing image img\/nope\.png \(file not found\) \(--strict\)/);
  assert.ok(!existsSync(strictOut));
});

test('usage errors exit 2 with the reason', async () => {
  const missing = await gstack(['pdf', join(work, 'nope.md')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /\[error\] input file not found: .*nope\.md/);
  // The old spelling --page-size is an alias; the message names the flag by its one name.
  const size = await gstack(['pdf', join(FIXTURES, 'intl.md'), join(work, 'x.pdf'), '--page-size', 'huge']);
  assert.equal(size.code, 2);
  assert.match(size.stderr, /--paper huge: use one of letter, legal/);
  const to = await gstack(['pdf', join(FIXTURES, 'intl.md'), '--to', 'docx']);
  assert.equal(to.code, 2);
  assert.match(to.stderr, /Argument: to, Given: "docx", Choices: "pdf", "html"/);
});
