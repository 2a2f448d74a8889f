// The cost of single steps inside one browser, in-process (no CLI, no host): a snapshot today
// (Playwright's aria snapshot, the secret scan, the whole takeSnapshot) against the browser's
// accessibility tree over CDP, on pages of about 100, 1,000 and 10,000 nodes (15, 150 and 1,500
// rows of input, button and link); Playwright's pg.screenshot against the fast path (and
// whether the pixels are the same); a new tab against a blank one kept ready; and what the
// first action on a new document costs. Medians of --runs (default 7), interleaved. Not part
// of `npm test`.
//   node --import tsx test/bench/steps.ts [--runs N]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchPersistent } from '../../driver/engines/chromium.js';
import { newSnapshotState, secretValues, takeSnapshot } from '../../driver/runtime/snapshot.js';
import { DEFAULT_VIEWPORT } from '../../driver/runtime/tabs.js';
import { rowsPage } from './rows-page.js';
import { fastScreenshot } from '../../driver/runtime/screenshot.js';
import { PNG } from 'pngjs';

const argv = process.argv.slice(2);
const RUNS = Number(argv[argv.indexOf('--runs') + 1]) || 7;


const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main() {
  const server = http.createServer((req, res) => {
    const rows = Number(/rows=(\d+)/.exec(req.url ?? '')?.[1] ?? 15);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(rowsPage(rows));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const profile = mkdtempSync(join(tmpdir(), 'gstack-steps-'));
  const opened = await launchPersistent(profile, false, process.env);
  const ctx = opened.context;
  try {
    const pg = ctx.pages()[0] ?? (await ctx.newPage());
    await pg.setViewportSize(DEFAULT_VIEWPORT);
    const cdp = await ctx.newCDPSession(pg);
    for (const rows of [15, 150, 1500]) {
      await pg.goto(`${base}?rows=${rows}`);
      const nodes = await pg.evaluate(() => document.querySelectorAll('*').length + document.evaluate('count(//text())', document, null, XPathResult.NUMBER_TYPE, null).numberValue);
      const t: Record<string, number[]> = {};
      const lap = async (name: string, f: () => Promise<unknown>) => {
        const t0 = performance.now();
        await f();
        (t[name] ??= []).push(performance.now() - t0);
      };
      for (let i = 0; i < RUNS; i++) {
        await lap('ariaSnapshot ai', () => pg.ariaSnapshot({ mode: 'ai' } as never));
        await lap('secretValues', () => secretValues(pg));
        await lap('takeSnapshot -i', () => takeSnapshot(pg, newSnapshotState(), { interactive: true }));
        await lap('takeSnapshot full', () => takeSnapshot(pg, newSnapshotState(), {}));
        await lap('CDP getFullAXTree', () => cdp.send('Accessibility.getFullAXTree'));
      }
      console.log(`${rows} rows (${nodes} DOM nodes): ${Object.entries(t).map(([k, xs]) => `${k} ${Math.round(median(xs))} ms`).join(', ')}`);
    }
    // Screenshots of the shop-sized page: Playwright's against the fast path of
    // driver/runtime/screenshot.ts (one CDP capture encoded for speed), also with a field focused (its
    // caret hidden); the same pixels?
    await pg.goto(`${base}?rows=15`);
    const s: Record<string, number[]> = {};
    let same = true;
    const size = { playwright: 0, fast: 0 };
    for (const focused of [false, true]) {
      if (focused) await pg.locator('#q3').focus();
      for (let i = 0; i < RUNS; i++) {
        let t0 = performance.now();
        const a: Buffer = await Object.getPrototypeOf(pg).screenshot.call(pg);
        (s[`pg.screenshot${focused ? ' (focused)' : ''}`] ??= []).push(performance.now() - t0);
        t0 = performance.now();
        const b = (await fastScreenshot(pg, undefined))!;
        (s[`fast path${focused ? ' (focused)' : ''}`] ??= []).push(performance.now() - t0);
        if (!PNG.sync.read(a).data.equals(PNG.sync.read(b).data)) same = false;
        size.playwright = a.length;
        size.fast = b.length;
      }
    }
    console.log(
      `screenshot (15 rows): ${Object.entries(s).map(([k, xs]) => `${k} ${Math.round(median(xs))} ms`).join(', ')}; ` +
        `same pixels: ${same}; PNG ${Math.round(size.playwright / 1024)} KiB (Playwright) vs ${Math.round(size.fast / 1024)} KiB`,
    );
    // Opening a tab: a new one against a blank one kept ready (what a session host does).
    const n: number[] = [];
    const ready: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      const p = await ctx.newPage();
      await p.setViewportSize(DEFAULT_VIEWPORT);
      await p.goto(`${base}?rows=15`);
      n.push(performance.now() - t0);
      await p.close();
      const spare = await ctx.newPage();
      await spare.setViewportSize(DEFAULT_VIEWPORT);
      t0 = performance.now();
      await spare.goto(`${base}?rows=15`);
      ready.push(performance.now() - t0);
      await spare.close();
    }
    console.log(`open + goto: newPage ${Math.round(median(n))} ms, blank tab kept ready ${Math.round(median(ready))} ms`);
    // The first snapshot of a new document against the next one: the first pays for loading
    // Playwright's injected script into that document (so does a first fill instead), and a
    // ready tab whose injected script was loaded on about:blank does not carry it over.
    const first: number[] = [];
    const second: number[] = [];
    const fill: number[] = [];
    const warmed: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const p = await ctx.newPage();
      await p.goto(`${base}?rows=15`);
      let t0 = performance.now();
      await takeSnapshot(p, newSnapshotState(), { interactive: true });
      first.push(performance.now() - t0);
      t0 = performance.now();
      await takeSnapshot(p, newSnapshotState(), { interactive: true });
      second.push(performance.now() - t0);
      await p.close();
      const q = await ctx.newPage();
      await q.goto(`${base}?rows=15`);
      t0 = performance.now();
      await q.locator('#q1').fill('x');
      fill.push(performance.now() - t0);
      await q.close();
      const w = await ctx.newPage();
      await w.locator('body').count();
      await w.goto(`${base}?rows=15`);
      t0 = performance.now();
      await takeSnapshot(w, newSnapshotState(), { interactive: true });
      warmed.push(performance.now() - t0);
      await w.close();
    }
    console.log(
      `snapshot -i of a new tab's page (15 rows): first ${Math.round(median(first))} ms, second ${Math.round(median(second))} ms; ` +
        `a first fill instead ${Math.round(median(fill))} ms; first after warming on about:blank ${Math.round(median(warmed))} ms`,
    );
  } finally {
    await opened.close(3000);
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
