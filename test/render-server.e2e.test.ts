// The render loopback server's offline variant in a real browser: its CSP alone keeps a page
// from requesting anything remote. (The server's own rules, over raw HTTP without a browser,
// are in render-server.test.ts.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLoopbackServer } from '../render/orchestrate/server.js';

// The pages come from memory; the root only has to exist.
let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'gstack-render-csp-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

test('the offline CSP alone keeps a real browser from requesting anything remote', async () => {
  const { OFFLINE_CSP } = await import('../render/orchestrate/run-render.js');
  const { chromium } = await import('playwright-core');
  const { findChromium, chromiumArgs } = await import('../driver/browser/chromium-find.js');
  const page = `<!doctype html>
    <script>window.refused = []; document.addEventListener('securitypolicyviolation', (e) => refused.push(e.blockedURI));</script>
    <link rel="stylesheet" href="http://198.51.100.7/x.css">
    <img src="https://example.invalid/p.png"><script src="local.js"></script>
    <script>fetch('http://203.0.113.9/beacon').catch(() => {}); new WebSocket('ws://198.51.100.7/ws');</script>`;
  const own = await startLoopbackServer({
    root,
    files: { 'offline.html': page, 'local.js': 'window.localRan = true;' },
    offlineHeaders: { 'content-security-policy': OFFLINE_CSP },
  });
  const browser = await chromium.launch({ executablePath: findChromium().path, args: chromiumArgs() });
  try {
    const context = await browser.newContext();
    // Observe (not block) every request that leaves for another origin: with the CSP none may.
    const leaving: string[] = [];
    await context.route((u) => !u.href.startsWith(own.origin + '/'), (r) => (leaving.push(r.request().url()), r.abort()));
    const pg = await context.newPage();
    await pg.goto(own.urlFor('offline.html', { offline: true }), { waitUntil: 'load' });
    await pg.waitForTimeout(300);
    assert.equal(await pg.evaluate('window.localRan'), true, 'same-origin scripts still run');
    assert.deepEqual(leaving, [], 'a remote request left the browser despite the CSP');
    const refused = (await pg.evaluate('window.refused')) as string[];
    for (const url of ['http://198.51.100.7/x.css', 'https://example.invalid/p.png', 'http://203.0.113.9/beacon']) {
      assert.ok(refused.includes(url), `the CSP did not refuse ${url}: ${JSON.stringify(refused)}`);
    }
  } finally {
    await browser.close();
    await own.close();
  }
});
