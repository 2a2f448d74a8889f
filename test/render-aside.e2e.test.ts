// `gstack render` on the Aside engine, against the test double of the `aside` CLI
// (test/doubles/aside, a stand-in written independently of our Chromium engine): the whole
// render is one `aside repl` script using raw CDP; an Aside that cannot start is retried once
// on Chromium; a page failure is never retried.
// Build first: `npx tsc -p tsconfig.json` (npm test does).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { imageSize, pdfInfo, pdfOutline, pdfText } from './helpers/inspect.js';
import { BIN, ROOT, cliWith } from './helpers/cli.js';

const FIX = join(ROOT, 'test', 'fixtures', 'render');
const DOUBLE_DIR = join(ROOT, 'test', 'doubles');
let work: string;
let asideHome: string;

// These tests let the Aside probe run.
const gstack = cliWith(() => ({
  prefix: ['render'],
  cwd: work,
  env: { ...process.env, GSTACK_SKIP_ASIDE: undefined, ASIDE_DOUBLE_HOME: asideHome, GSTACK_ASIDE_PROBE_TIMEOUT_MS: '20000' },
  exactEnv: true,
}));

const withDouble = (dir = DOUBLE_DIR) => ({ PATH: `${dir}${delimiter}${process.env.PATH}` });

before(() => {
  assert.ok(existsSync(BIN), `build first: npx tsc -p tsconfig.json (missing ${BIN})`);
  assert.ok(existsSync(join(DOUBLE_DIR, 'aside')), 'the aside test double is missing');
  work = mkdtempSync(join(tmpdir(), 'gstack-render-aside-'));
  asideHome = join(work, 'aside-home');
});
after(() => rmSync(work, { recursive: true, force: true }));

test('auto picks Aside: PDF via raw CDP printToPDF (tagged, outline, page numbers, landscape), sized screenshot, eval', async () => {
  const r = await gstack(
    [
      join(FIX, 'throws-after-load.html'),
      '--pdf', 'a/one.pdf', '--tagged', '--outline', '--page-numbers', '--landscape',
      '--screenshot', 'a/shot.png', '--width', '640', '--height', '400', '--viewport-only',
      '--eval', 'document.title', '--out', 'a/title.txt',
      '--eval', 'Promise.resolve([document.querySelector("h1").textContent])',
    ],
    { env: withDouble() },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.lines[0], 'ENGINE=aside');
  assert.equal(r.lines.at(-1), 'GSTACK_RENDER_OK');
  assert.doesNotMatch(r.stderr, /retrying/);

  const pdf = join(work, 'a', 'one.pdf');
  const info = pdfInfo(pdf);
  assert.equal(info.Tagged, 'yes');
  assert.match(info['Page size'], /^792 x 612 pts/);
  assert.match(pdfText(pdf, 1), /Still renders/);
  assert.match(pdfText(pdf, 1), /1 of 1/);
  assert.ok((await pdfOutline(pdf)).some((i) => i.title === 'Still renders'));
  assert.deepEqual(imageSize(join(work, 'a', 'shot.png')), { type: 'png', width: 640, height: 400 });
  assert.equal(readFileSync(join(work, 'a', 'title.txt'), 'utf8'), 'Throws after load');
  assert.ok(r.lines.includes('EVAL 2: ["Still renders"]'), r.stdout);
  const errors = r.lines.find((l) => l.startsWith('PAGE_ERRORS='))!;
  assert.match(errors, /TypeError: fixture boom after load/);

  // The outputs left Aside's per-run directory: only the files the user named hold page content.
  for (const run of readdirSync(asideHome)) assert.deepEqual(readdirSync(join(asideHome, run)), [], `leftovers in ${run}`);
});

test('on Aside too, remote requests are blocked and listed', async () => {
  const r = await gstack([join(FIX, 'remote.html'), '--engine', 'aside', '--pdf', 'offline-aside.pdf'], { env: withDouble() });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.lines[0], 'ENGINE=aside');
  const line = r.lines.find((l) => l.startsWith('BLOCKED_REQUESTS='));
  assert.ok(line, r.stdout);
  const urls = JSON.parse(line!.slice('BLOCKED_REQUESTS='.length)) as string[];
  assert.deepEqual(urls.sort(), ['http://198.51.100.7/remote.css', 'http://203.0.113.9/beacon', 'https://example.invalid/pixel.png']);
  assert.match(pdfText(join(work, 'offline-aside.pdf')), /Offline render/);
});

test('--engine aside: a two-page report on Aside matches what Chromium prints', async () => {
  const args = (out: string) => [join(FIX, 'report.html'), '--wait-selector', '#ready-marker', '--pdf', out, '--page-numbers', '--outline'];
  const onAside = await gstack([...args('aside.pdf'), '--engine', 'aside'], { env: withDouble() });
  const onChromium = await gstack([...args('chromium.pdf'), '--engine', 'chromium'], { env: withDouble() });
  assert.equal(onAside.code, 0, onAside.stdout + onAside.stderr);
  assert.equal(onChromium.code, 0, onChromium.stdout + onChromium.stderr);
  assert.equal(onAside.lines[0], 'ENGINE=aside');
  assert.equal(onChromium.lines[0], 'ENGINE=chromium');
  const a = join(work, 'aside.pdf');
  const c = join(work, 'chromium.pdf');
  assert.equal(pdfInfo(a).Pages, '2');
  assert.equal(pdfInfo(a)['Page size'], pdfInfo(c)['Page size']);
  assert.equal(pdfText(a).replace(/\s+/g, ' '), pdfText(c).replace(/\s+/g, ' '));
  assert.deepEqual(await pdfOutline(a), await pdfOutline(c));
});

test('Aside chosen but unable to start: the same render is retried once on Chromium', async () => {
  // An `aside` that answers the readiness probe (through the double) but then fails to run
  // anything else, the way a CLI whose app just quit would. Each call is counted.
  const flaky = join(work, 'flaky-bin');
  const calls = join(work, 'flaky-calls.txt');
  rmSync(flaky, { recursive: true, force: true });
  await import('node:fs/promises').then((f) => f.mkdir(flaky));
  writeFileSync(
    join(flaky, 'aside'),
    `#!/bin/sh
echo call >> "${calls}"
case "$2" in
  *ASIDE_READY*) exec "${join(DOUBLE_DIR, 'aside')}" "$@" ;;
esac
echo "aside: lost the connection to the Aside app" >&2
exit 1
`,
  );
  chmodSync(join(flaky, 'aside'), 0o755);

  const r = await gstack([join(FIX, 'report.html'), '--pdf', 'retried.pdf'], { env: withDouble(flaky) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.lines[0], 'ENGINE=chromium');
  assert.match(r.stderr, /Aside could not start the render \(.*\); retrying once on chromium\./);
  assert.equal(pdfInfo(join(work, 'retried.pdf')).Pages, '2');
  // One probe + one render attempt on Aside; the retry went to Chromium, not back to Aside.
  assert.equal(readFileSync(calls, 'utf8').trim().split('\n').length, 2);
});

test('a page failure on Aside is never retried', async () => {
  const r = await gstack([join(FIX, 'report.html'), '--wait-selector', '#never-there', '--wait-timeout', '1000', '--pdf', 'never.pdf'], { env: withDouble() });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stderr, /retrying/);
  const last = r.lines.at(-1)!;
  assert.match(last, /^\[error\] render failed on aside: --wait-selector "#never-there" matched nothing within --wait-timeout 1000 ms/);
  assert.ok(!existsSync(join(work, 'never.pdf')));
});
