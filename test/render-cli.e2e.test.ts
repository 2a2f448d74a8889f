// `gstack render` end to end: the compiled CLI, a real Chromium, real files checked with
// poppler (pdfinfo/pdftotext), pdf-lib (outline) and the image headers.
// Build first: `npx tsc -p tsconfig.json` (npm test does).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { imageSize, pdfInfo, pdfOutline, pdfText, type OutlineItem } from './helpers/inspect.js';
import { BIN, ROOT, cliWith, runCli, type CliResult } from './helpers/cli.js';

const FIX = join(ROOT, 'test', 'fixtures', 'render');
const BEGIN = '--- BEGIN UNTRUSTED WEB CONTENT ---';
const END = '--- END UNTRUSTED WEB CONTENT ---';
let work: string;

const gstack = cliWith(() => ({ prefix: ['render'], cwd: work }));

/** Lines between the untrusted-content fence lines. */
function fenced(r: CliResult): string[] {
  const a = r.lines.indexOf(BEGIN);
  const b = r.lines.indexOf(END);
  assert.ok(a >= 0 && b > a, `no fence in:\n${r.stdout}`);
  return r.lines.slice(a + 1, b);
}

function assertOk(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  assert.equal(r.lines.at(-1), 'GSTACK_RENDER_OK');
  assert.equal(r.lines.at(-2), END);
}

function assertFailed(r: CliResult, code: number, message: RegExp, stream: 'stdout' | 'stderr' = 'stdout'): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  assert.ok(!r.stdout.includes('GSTACK_RENDER_OK'), 'a failed render must not print the sentinel');
  const lines = (stream === 'stdout' ? r.stdout : r.stderr).split('\n').filter(Boolean);
  const errorLine = lines.find((l) => l.startsWith('[error]'));
  assert.ok(errorLine, `no [error] line on ${stream}:\n${r.stdout}\n${r.stderr}`);
  assert.match(errorLine!, message);
  if (stream === 'stdout') assert.equal(lines.at(-1), errorLine, 'the [error] line is last');
}

const flat = (items: OutlineItem[]): string[] => items.flatMap((i) => [i.title, ...flat(i.children)]);

before(() => {
  assert.ok(existsSync(BIN), `build first: npx tsc -p tsconfig.json (missing ${BIN})`);
  work = mkdtempSync(join(tmpdir(), 'gstack-render-cli-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

test('a two-page report renders to a tagged, outlined, landscape PDF with "N of M" page numbers (the defaults)', async () => {
  const r = await gstack([
    join(FIX, 'report.html'), '--wait-selector', '#ready-marker',
    '--pdf', 'out/report.pdf', '--landscape',
    '--pdf', 'out/plain.pdf', '--no-tagged', '--no-outline', '--no-page-numbers',
  ]);
  assertOk(r);
  const report = join(work, 'out', 'report.pdf');
  const plain = join(work, 'out', 'plain.pdf');
  assert.deepEqual(r.lines.slice(0, 3), ['ENGINE=chromium', `OK ${report}`, `OK ${plain}`]);
  assert.deepEqual(fenced(r), ['PAGE_ERRORS=[]']);

  const info = pdfInfo(report);
  assert.equal(info.Pages, '2');
  assert.equal(info.Tagged, 'yes');
  assert.match(info['Page size'], /^792 x 612 pts/); // letter, landscape
  assert.equal(info.Title, 'Quarterly Render Report');
  const p1 = pdfText(report, 1);
  const p2 = pdfText(report, 2);
  assert.match(p1, /Quarterly Render Report/);
  assert.match(p1, /Alpha section text: the loopback server served this page\./);
  assert.match(p1, /\b1 of 2\b/);
  assert.doesNotMatch(p1, /Appendix Beta/);
  assert.match(p2, /Appendix Beta/);
  assert.match(p2, /Beta appendix text on the second page\./);
  assert.match(p2, /\b2 of 2\b/);
  assert.match(p2, /\bready\b/, 'the page script ran before printing (--wait-selector)');

  const outline = flat(await pdfOutline(report));
  for (const heading of ['Quarterly Render Report', 'Findings', 'Appendix Beta', 'Method']) {
    assert.ok(outline.includes(heading), `outline lacks "${heading}": ${JSON.stringify(outline)}`);
  }

  // The second --pdf got none of the first one's options (portrait) and turned the defaults off:
  // untagged, no outline, no page numbers. The flags are what made the difference.
  const plainInfo = pdfInfo(plain);
  assert.equal(plainInfo.Pages, '2');
  assert.equal(plainInfo.Tagged, 'no');
  assert.match(plainInfo['Page size'], /^612 x 792 pts/);
  assert.deepEqual(await pdfOutline(plain), []);
  assert.doesNotMatch(pdfText(plain), /1 of 2/);
});

test('paper, margins, header/footer templates and page ranges reach the PDF', async () => {
  const r = await gstack([
    join(FIX, 'report.html'),
    '--pdf', 'a4.pdf', '--paper', 'a4', '--margin', '20mm',
    '--header', '<div style="font-size:10px;width:100%;text-align:center">HEADER <span class="title"></span> AT <span class="url"></span></div>',
    '--footer', '<div style="font-size:10px;width:100%;text-align:center">FOOTER-MARK</div>', '--page-numbers',
    '--pdf', 'custom.pdf', '--paper-in', '5x7', '--page-ranges', '2',
  ]);
  assertOk(r);
  const a4 = pdfInfo(join(work, 'a4.pdf'));
  assert.match(a4['Page size'], /^595\.\d* x 841\.\d* pts \(A4\)/);
  const text = pdfText(join(work, 'a4.pdf'), 1);
  assert.match(text, /HEADER Quarterly Render Report/);
  // class url shows the rendered file, not the loopback render server that served it.
  assert.match(text.replace(/\s+/g, ''), /ATfile:\/\/\S*report\.html/);
  assert.doesNotMatch(text, /127\.0\.0\.1|localhost/);
  assert.match(text, /FOOTER-MARK/);
  assert.match(text, /1 of 2/);
  const custom = pdfInfo(join(work, 'custom.pdf'));
  assert.match(custom['Page size'], /^360 x 504 pts/);
  assert.equal(custom.Pages, '1'); // --page-ranges 2
  assert.match(pdfText(join(work, 'custom.pdf')), /Appendix Beta/);
});

test('a screenshot has the asked width (and height, element, JPEG)', async () => {
  const r = await gstack([
    join(FIX, 'wide.html'),
    '--screenshot', 'full.png', '--width', '640',
    '--screenshot', 'view.png', '--width', '500', '--height', '300', '--viewport-only',
    '--screenshot', 'card.jpg', '--selector', '#card', '--quality', '80',
    '--screenshot', 'default.png', '--viewport-only',
  ]);
  assertOk(r);
  const full = imageSize(join(work, 'full.png'));
  assert.equal(full.type, 'png');
  assert.equal(full.width, 640);
  assert.ok(full.height > 1000, `a full-page shot includes the tall content (got ${full.height})`);
  assert.deepEqual(imageSize(join(work, 'view.png')), { type: 'png', width: 500, height: 300 });
  assert.deepEqual(imageSize(join(work, 'card.jpg')), { type: 'jpeg', width: 200, height: 120 });
  // Each sized shot is step-local: the next one is back at the default viewport.
  assert.deepEqual(imageSize(join(work, 'default.png')), { type: 'png', width: 1280, height: 800 });
});

test('--eval prints values (promises awaited) and --eval --out writes them', async () => {
  const r = await gstack([
    join(FIX, 'wide.html'),
    '--eval', 'document.title', '--out', 'title.txt',
    '--eval', 'window.answer', '--out', 'answer.json',
    '--eval', "'data:application/octet-stream;base64,' + btoa('raw\\u0001bytes')", '--out', 'bytes.bin',
    '--eval', "document.createElement('canvas').toDataURL()", '--out', 'canvas.png',
    '--eval', 'new Promise((r) => setTimeout(() => r({ late: true }), 50))',
    '--eval', 'document.querySelectorAll("div").length',
  ]);
  assertOk(r);
  assert.equal(readFileSync(join(work, 'title.txt'), 'utf8'), 'Screenshot fixture');
  assert.deepEqual(JSON.parse(readFileSync(join(work, 'answer.json'), 'utf8')), { n: 42, list: [1, 2, 3] });
  // Only an image or a PDF that is one is written as its bytes; any other data: URL is text,
  // through the filter (a page can choose the prefix of what a script evaluates).
  assert.equal(readFileSync(join(work, 'bytes.bin'), 'utf8'), 'raw\uFFFDbytes');
  assert.deepEqual(imageSize(join(work, 'canvas.png')), { type: 'png', width: 300, height: 150 });
  assert.ok(r.lines.includes(`OK ${join(work, 'title.txt')}`));
  assert.deepEqual(fenced(r), [
    `EVAL 1: written to ${join(work, 'title.txt')} (18 bytes)`,
    `EVAL 2: written to ${join(work, 'answer.json')} (${readFileSync(join(work, 'answer.json')).length} bytes)`,
    `EVAL 3: written to ${join(work, 'bytes.bin')} (11 bytes)`,
    `EVAL 4: written to ${join(work, 'canvas.png')} (${readFileSync(join(work, 'canvas.png')).length} bytes)`,
    'EVAL 5: {"late":true}',
    'EVAL 6: 2',
    'PAGE_ERRORS=[]',
  ]);
});

test('a page that throws after load still renders, and its errors show in PAGE_ERRORS', async () => {
  const r = await gstack([join(FIX, 'throws-after-load.html'), '--wait-expr', 'new Promise((r) => setTimeout(() => r(true), 100))', '--pdf', 'throws.pdf']);
  assertOk(r);
  assert.match(pdfText(join(work, 'throws.pdf')), /Still renders/);
  const errs = fenced(r).find((l) => l.startsWith('PAGE_ERRORS='))!;
  const list = JSON.parse(errs.slice('PAGE_ERRORS='.length)) as string[];
  assert.ok(list.includes('TypeError: fixture boom after load'), errs);
  assert.ok(list.some((e) => e.includes('fixture rejected promise')), errs);
});

test('--wait-expr waits for the page (a throw counts as "not yet")', async () => {
  const r = await gstack([
    join(FIX, 'report.html'),
    '--wait-expr', 'document.querySelector("#ready-marker").isConnected', // throws until the marker exists
    '--eval', 'document.getElementById("status").textContent',
  ]);
  assertOk(r);
  assert.ok(fenced(r).includes('EVAL 1: "ready"'), r.stdout);
});

test('a missing input file is a usage error (exit 2) that names the path', async () => {
  const r = await gstack(['no-such-report.html', '--pdf', 'x.pdf']);
  assertFailed(r, 2, /input file not found: no-such-report\.html \(looked at .*no-such-report\.html\)/, 'stderr');
  assert.equal(r.stdout, '');
  assert.ok(!existsSync(join(work, 'x.pdf')));
  // Trial V27: a saved single-page wiki named with the part to show, `wiki.html#Alpha`. The input
  // is a file; the error says how to reach the part, and that way works.
  const frag = await gstack([`${join(FIX, 'wide.html')}#part`, '--pdf', 'x.pdf']);
  assertFailed(frag, 2, /The input is a file, not an address: it takes no #fragment or \?query\. Render .*wide\.html, and reach the part you want in the page first with an --eval step before your --pdf or --screenshot \(--eval 'location\.hash = "…"'/, 'stderr');
  const there = await gstack([join(FIX, 'wide.html'), '--eval', 'location.hash = "part"', '--eval', 'location.hash']);
  assertOk(there);
  assert.ok(fenced(there).includes('EVAL 2: "#part"'), there.stdout);
  // Trial V36: an address (reveal.js's `?print-pdf` deck) was read as a relative path, and the
  // error named a --serve-root it was never given. It says inputs are files, and what prints a
  // page of a site; a file: URL names the path to pass.
  const url = await gstack(['http://127.0.0.1:9/demo.html?print-pdf', '--pdf', 'x.pdf']);
  assertFailed(url, 2, /the input is a local HTML file, not an address \(http:\/\/127\.0\.0\.1:9\/demo\.html\?print-pdf\): render serves files from disk\. Print a page of a site with the browse skill's pdf shape, `gstack cookbook pdf --url URL/, 'stderr');
  assert.doesNotMatch(url.stderr, /serve-root/);
  const fileUrl = await gstack([`file://${join(FIX, 'wide.html')}`, '--pdf', 'x.pdf']);
  assertFailed(fileUrl, 2, new RegExp(`the input is a file path, not a file: URL: pass "${join(FIX, 'wide.html').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`), 'stderr');
  const md = await runCli(['pdf', 'https://example.test/README.md', 'x.pdf'], { cwd: work });
  assertFailed(md, 2, /the input is a local file, not an address \(https:\/\/example\.test\/README\.md\)/, 'stderr');
  assert.ok(!existsSync(join(work, 'x.pdf')));
});

test('an output directory that cannot be written fails (exit 1) before rendering', async () => {
  writeFileSync(join(work, 'not-a-dir'), 'a file');
  const r = await gstack([join(FIX, 'report.html'), '--pdf', 'not-a-dir/sub/out.pdf']);
  assertFailed(r, 1, /cannot write .*not-a-dir\/sub\/out\.pdf: a parent of that path is a file.*Nothing was rendered; choose an output path in a directory you can write/);
  const ro = await gstack([join(FIX, 'report.html'), '--screenshot', '/proc/gstack-render-test/shot.png']);
  assertFailed(ro, 1, /cannot write \/proc\/gstack-render-test\/shot\.png: /);
});

test('a wait that never succeeds is a clear error (exit 1) naming the wait', async () => {
  const sel = await gstack([join(FIX, 'report.html'), '--wait-selector', '#never-there', '--wait-timeout', '1500', '--pdf', 'never.pdf']);
  assertFailed(sel, 1, /--wait-selector "#never-there" matched nothing within --wait-timeout 1500 ms\. Check the selector/);
  assert.ok(!existsSync(join(work, 'never.pdf')), 'no output when the render failed');

  const expr = await gstack([join(FIX, 'report.html'), '--wait-expr', 'window.neverSet.ready', '--wait-timeout', '1000', '--eval', '1']);
  assertFailed(expr, 1, /--wait-expr never became truthy within --wait-timeout 1000 ms \(last error: TypeError: Cannot read properties of undefined/);

  // Thirteenth red-team pass: a promise that never settles held the render to --timeout (120 s).
  const started = Date.now();
  const pending = await gstack([join(FIX, 'report.html'), '--wait-expr', 'new Promise(() => {})', '--wait-timeout', '1000', '--eval', '1']);
  assertFailed(pending, 1, /--wait-expr never became truthy within --wait-timeout 1000 ms \(last error: its promise had not settled\)/);
  assert.ok(Date.now() - started < 30_000, `bounded by --wait-timeout, not --timeout (${Date.now() - started} ms)`);

  const syntax = await gstack([join(FIX, 'report.html'), '--wait-expr', 'window.(', '--eval', '1']);
  assertFailed(syntax, 1, /--wait-expr is not a valid JavaScript expression: SyntaxError/);
});

test('the whole-render --timeout stops the browser and exits 1', async () => {
  const r = await gstack([join(FIX, 'report.html'), '--wait-expr', 'false', '--wait-timeout', '60000', '--timeout', '2500', '--eval', '1']);
  assertFailed(r, 1, /did not finish within --timeout 2500 ms and was stopped/);
  assert.ok(r.ms < 15_000, `took ${r.ms} ms`);
});

test('an eval that throws fails the render with the page error', async () => {
  const r = await gstack([join(FIX, 'wide.html'), '--eval', 'window.nothing.here']);
  assertFailed(r, 1, /step 1 \(--eval\): the expression threw in the page: TypeError/);
});

test('no Chromium: exit 3 with the install command', async () => {
  const r = await gstack([join(FIX, 'report.html'), '--engine', 'chromium', '--pdf', 'x.pdf'], { env: { GSTACK_CHROMIUM: join(work, 'no-chrome') } });
  assertFailed(r, 3, /No Chromium found .*Install one with: /);
});

test('--engine aside without Aside: exit 3 saying what to do', async () => {
  const r = await gstack([join(FIX, 'report.html'), '--engine', 'aside', '--pdf', 'x.pdf'], { env: { PATH: '/usr/bin:/bin' } });
  assertFailed(r, 3, /--engine aside: Aside is not usable \(NEEDS_ASIDE.*--engine chromium/);
});

test('--serve-root serves a parent directory; it must contain the file', async () => {
  const color = 'getComputedStyle(document.querySelector("h1")).color';
  const served = await gstack([join(FIX, 'nested', 'page.html'), '--serve-root', FIX, '--eval', color]);
  assertOk(served);
  assert.ok(fenced(served).includes('EVAL 1: "rgb(18, 52, 86)"'), 'the ../assets stylesheet loaded through --serve-root');

  // Without it, ../assets is outside the root: the server refuses it and the page is unstyled.
  const confined = await gstack([join(FIX, 'nested', 'page.html'), '--eval', color]);
  assertOk(confined);
  assert.ok(fenced(confined).includes('EVAL 1: "rgb(0, 0, 0)"'), confined.stdout);

  const outside = await gstack([join(FIX, 'report.html'), '--serve-root', join(FIX, 'nested'), '--pdf', 'x.pdf']);
  assertFailed(outside, 2, /--serve-root .*nested must contain the input file/, 'stderr');
});

test('remote requests are blocked by default and listed (fenced)', async () => {
  const r = await gstack([join(FIX, 'remote.html'), '--pdf', 'offline.pdf']);
  assertOk(r);
  assert.match(pdfText(join(work, 'offline.pdf')), /Offline render/);
  const blocked = fenced(r).find((l) => l.startsWith('BLOCKED_REQUESTS='));
  assert.ok(blocked, r.stdout);
  const urls = JSON.parse(blocked!.slice('BLOCKED_REQUESTS='.length)) as string[];
  assert.deepEqual(urls.sort(), ['http://198.51.100.7/remote.css', 'http://203.0.113.9/beacon', 'https://example.invalid/pixel.png']);
});

test('usage errors exit 2 with a hint', async () => {
  assertFailed(await gstack([join(FIX, 'report.html')]), 2, /add at least one step/, 'stderr');
  assertFailed(await gstack([join(FIX, 'report.html'), '--pdf', 'x.pdf', '--no-such-flag']), 2, /Unknown argument|unknown option/i, 'stderr');
  assertFailed(await gstack([join(FIX, 'report.html'), '--screenshot', 'x.png', '--quality', '50']), 2, /--quality applies to JPEG only/, 'stderr');
  assert.deepEqual(readdirSync(work).filter((f) => f.startsWith('x.')), []);
});
