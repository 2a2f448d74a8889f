// The fast screenshot (driver/runtime/screenshot.ts): a plain viewport PNG through one CDP capture has
// the same pixels as Playwright's own page.screenshot() — on a plain page, a scrolled one, with
// a focused field whose caret Playwright hides (and whose own caret style is put back after),
// after a reload and on another site —
// and every screenshot it cannot take the same way (child frames, options beyond the defaults)
// is left to Playwright. A script's pg.screenshot({ path }) in a session host takes it.
// Run alone (needs the build and a browser):
//   npm run build && node --import tsx --test test/screenshot.e2e.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { launchPersistent, type OpenedContext } from '../driver/engines/chromium.js';
import { fastScreenshot } from '../driver/runtime/screenshot.js';
import { DEFAULT_VIEWPORT } from '../driver/runtime/tabs.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliEnv, runCli, tempHome } from './helpers/cli.js';

let site: FixtureServer;
let profile: string;
let opened: OpenedContext;
let page: Page;

before(async () => {
  site = await startFixtureServer();
  site.setPage('/tall.html', `<!doctype html><body style="margin:0">${Array.from({ length: 80 }, (_, i) => `<p style="height:40px;background:hsl(${i * 9},70%,60%)">row ${i}</p>`).join('')}</body>`);
  profile = mkdtempSync(join(tmpdir(), 'gstack-shot-'));
  opened = await launchPersistent(profile, false, process.env);
  page = opened.context.pages()[0] ?? (await opened.context.newPage());
  await page.setViewportSize(DEFAULT_VIEWPORT);
});
after(async () => {
  await opened?.close(3000);
  await site?.close();
  rmSync(profile, { recursive: true, force: true });
});

/** Playwright's own screenshot, whatever the page object has on top of it. */
const playwrights = (p: Page, options?: object) => (Object.getPrototypeOf(p).screenshot as Page['screenshot']).call(p, options);
const pixels = (png: Buffer) => {
  const img = PNG.sync.read(png);
  return { width: img.width, height: img.height, data: img.data };
};
function assertSamePixels(fast: Buffer | undefined, slow: Buffer, what: string) {
  assert.ok(fast, `${what}: the fast path declined`);
  const a = pixels(fast);
  const b = pixels(slow);
  assert.deepEqual([a.width, a.height], [b.width, b.height], `${what}: size`);
  assert.ok(a.data.equals(b.data), `${what}: the pixels differ from Playwright's screenshot`);
}

test('a plain page and a scrolled one: the same pixels as Playwright, in a faster-encoded PNG', { timeout: 60_000 }, async () => {
  await page.goto(`${site.url}tall.html`);
  const slow = await playwrights(page);
  const fast = await fastScreenshot(page, undefined);
  assertSamePixels(fast, slow, 'top of the page');
  assert.ok(!fast!.equals(slow), 'the fast path encodes for speed: the same pixels in other bytes');
  await page.evaluate(() => window.scrollTo(0, 1234));
  assertSamePixels(await fastScreenshot(page, { timeout: 5000, type: 'png' }), await playwrights(page), 'scrolled');
  // Its world goes with the document: after a reload and after a move to another site (a new
  // renderer process), a capture still gets the new document's pixels.
  await page.reload();
  assertSamePixels(await fastScreenshot(page, undefined), await playwrights(page), 'after a reload');
  await page.goto(`${site.url.replace('127.0.0.1', 'localhost')}form.html`);
  assertSamePixels(await fastScreenshot(page, undefined), await playwrights(page), 'on another site');
});

test('a focused field: its caret is hidden as Playwright hides it, and its own caret style comes back', { timeout: 60_000 }, async () => {
  site.setPage('/caret.html', `<!doctype html><body><input id="a" value="some text" style="font-size:40px; caret-color: red"><textarea id="b" style="font-size:40px">more</textarea></body>`);
  await page.goto(`${site.url}caret.html`);
  for (const id of ['#a', '#b']) {
    await page.locator(id).focus();
    // A caret blinks (about every 500 ms): compare at several moments, so a shown caret is met.
    for (let i = 0; i < 6; i++) {
      assertSamePixels(await fastScreenshot(page, undefined), await playwrights(page), `focused ${id}, capture ${i}`);
      await page.waitForTimeout(170);
    }
  }
  assert.deepEqual(
    await page.evaluate(() => ['a', 'b'].map((id) => (document.getElementById(id) as HTMLElement).style.getPropertyValue('caret-color'))),
    ['red', ''],
    'the fields keep their own caret style after the captures',
  );
});

test('what the fast path cannot take the same way is left to Playwright', { timeout: 60_000 }, async () => {
  await page.goto(`${site.url}form.html`);
  for (const options of [{ fullPage: true }, { clip: { x: 0, y: 0, width: 10, height: 10 } }, { type: 'jpeg' }, { omitBackground: true }, { caret: 'initial' }, { animations: 'disabled' }, { scale: 'css' }, { mask: [] }, null, 'x']) {
    assert.equal(await fastScreenshot(page, options), undefined, `declines ${JSON.stringify(options)}`);
  }
  await page.goto(`${site.url}frames.html`);
  assert.ok(page.frames().length > 1, 'the fixture has a child frame');
  assert.equal(await fastScreenshot(page, undefined), undefined, 'declines a page with child frames (Playwright hides their carets too)');
});

test("a script's pg.screenshot({ path }) takes the fast path and writes the same pixels", { timeout: 120_000 }, async () => {
  const home = tempHome('gstack-shot-cli-');
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-shot-work-')));
  const session = `shot-${process.pid}`;
  try {
    const r = await runCli(
      ['run', `const pg = await openTab(${JSON.stringify(`${site.url}tall.html`)}); await pg.screenshot({ path: path.join(pwd, "a.png") }); console.log("GSTACK_STEP_OK")`, '--session', session, '--engine', 'chromium', '--out', join(work, 'out')],
      { cwd: work, env: cliEnv(home), timeoutMs: 90_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    const file = join(work, 'out', 'a.png');
    assert.ok(r.lines.includes(`ARTIFACT ${file}`), r.stdout);
    await page.goto(`${site.url}tall.html`);
    const written = readFileSync(file);
    assertSamePixels(written, await playwrights(page), "the script's screenshot");
    assert.ok(written.equals((await fastScreenshot(page, undefined))!), 'the bytes of the fast path (Playwright encodes for size)');
  } finally {
    await runCli(['sessions', 'stop', session], { cwd: work, env: cliEnv(home) });
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  }
});
