// Playwright fidelity (issue 24): the same calls, in the same order, on one fixture page
// (test/fixtures/site/fidelity.html), once through `gstack run` and once on plain Playwright
// (a persistent context on the same Chromium, as the session host has). Every check must give
// the same result both ways; the members the policy tables refuse must throw exactly the
// catalog's refusal, which names the alternative. Each check lists the `Class.member`s it
// exercises: the test prints the coverage figure against the tables.
// Run alone: npm run build && node --import tsx --test test/playwright-fidelity.e2e.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { chromium, type CDPSession } from 'playwright-core';
import { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { BIN, runCli, tempHome } from './helpers/cli.js';
import { findChromium } from '../driver/browser/chromium-find.js';
import { loadCatalog } from '../driver/catalog.js';
import { CHECKS, REFUSALS, fidelityCoverage, fidelityScript, outcomes, type Outcome } from './helpers/fidelity-checks.js';

const catalog = loadCatalog();

let site: FixtureServer;
let work: string;
/** A loopback WebSocket server that answers each message with `echo:<message>`. */
let wss: WebSocketServer;
let wsUrl: string;
before(async () => {
  assert.ok(existsSync(BIN), `build first: npm run build (missing ${BIN})`);
  site = await startFixtureServer();
  work = mkdtempSync(join(tmpdir(), 'gstack-fidelity-'));
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (socket) => socket.on('message', (data) => socket.send(`echo:${String(data)}`)));
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
});
after(async () => {
  await site?.close();
  await new Promise((resolve) => wss?.close(resolve));
});

/** The same checks on plain Playwright: a persistent context on the Chromium gstack uses. */
async function plainResults(url: string): Promise<Map<string, Outcome>> {
  const profile = mkdtempSync(join(tmpdir(), 'gstack-fidelity-plain-'));
  const pwd = mkdtempSync(join(tmpdir(), 'gstack-fidelity-pwd-'));
  // gstack starts Chromium with its own switches (driver/browser/chromium-process.ts), under which
  // the experimental WebMCP answers; Playwright's own launch needs the feature named for that.
  const context = await chromium.launchPersistentContext(profile, { executablePath: findChromium().path, headless: true, viewport: { width: 1280, height: 720 }, args: ['--enable-features=WebMCP'] });
  const out = new Map<string, Outcome>();
  try {
    const pg = context.pages()[0] ?? (await context.newPage());
    // Aside's raw CDP call (a Page extra gstack has on both engines) is, on plain Playwright, a
    // CDP session's send.
    let cdp: CDPSession | undefined;
    Object.assign(pg, { _sendToTarget: async (method: string, params?: object) => (cdp ??= await context.newCDPSession(pg)).send(method as 'Runtime.evaluate', params as { expression: string }) });
    await pg.goto(url);
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...a: string[]) => (...v: unknown[]) => Promise<unknown>;
    for (const c of CHECKS) {
      try {
        const fn = new AsyncFunction('pg', 'ctx', 'path', 'pwd', 'fs', 'url', 'Buffer', 'wsUrl', c.body);
        out.set(c.name, { ok: JSON.parse(JSON.stringify((await fn(pg, context, path, pwd, fsp, url, Buffer, wsUrl)) ?? null)) });
      } catch (e) {
        out.set(c.name, { err: String((e as Error).message).split('\n')[0] });
      }
    }
  } finally {
    await context.close();
  }
  return out;
}

test('the same calls through gstack and on plain Playwright give the same results; refusals say what to use instead', { timeout: 300_000 }, async () => {
  const url = site.url + 'fidelity.html';
  const [r, plain] = await Promise.all([
    runCli(['run', fidelityScript(url, CHECKS, REFUSALS, true, wsUrl), '--ephemeral'], { cwd: work, env: { GSTACK_HOME: tempHome(), GSTACK_HOUSEKEEPING: '0' }, timeoutMs: 240_000 }),
    plainResults(url),
  ]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const { checks: gstack, refusals } = outcomes(r.lines);
  // Errors compare by their occurrence: gstack rewrites the message for agents.
  const shape = (o: Outcome | undefined) => (o && 'err' in o ? 'threw' : o);
  const differences: string[] = [];
  for (const c of CHECKS) {
    const a = gstack.get(c.name);
    const b = plain.get(c.name);
    try {
      assert.deepEqual(shape(a), shape(b));
    } catch {
      differences.push(`${c.name}: gstack ${JSON.stringify(a)} / playwright ${JSON.stringify(b)}`);
    }
  }
  assert.deepEqual(differences, [], 'calls that differ from plain Playwright');
  // A check that throws on both sides proves little: only the documented one may.
  const threw = CHECKS.filter((c) => 'err' in (plain.get(c.name) ?? { err: '' })).map((c) => c.name);
  assert.deepEqual(threw, ['touchscreenNeedsHasTouch'], threw.map((n) => `${n}: ${JSON.stringify(plain.get(n))}`).join('\n'));
  assert.match((gstack.get('touchscreenNeedsHasTouch') as { err: string }).err, /hasTouch/);

  for (const { member } of REFUSALS) {
    const cls = member.slice(0, member.indexOf('.'));
    const name = member.slice(member.indexOf('.') + 1);
    const expected = catalog.playwright.classes[cls].refuse?.[name];
    assert.ok(expected, `${member} is not a refusal in the catalog`);
    assert.deepEqual(refusals.get(member), { err: expected }, member);
  }

  // The coverage figure (test/playwright-policy.test.ts holds it at N of N).
  const { all, covered, unknown } = fidelityCoverage(catalog);
  assert.deepEqual(unknown, [], 'checks name members the policy tables do not list');
  console.log(`# fidelity coverage: ${covered.size} of ${all.length} public members have a fidelity check (${CHECKS.length} checks, ${REFUSALS.length} refusals)`);
});
