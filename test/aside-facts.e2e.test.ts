// Aside facts through the built CLI and the Aside double (test/doubles/aside, a real browser
// behind it): like Aside, the double has no setViewportSize and the responsive shape sizes
// views through CDP there; a missing browser window is reproduced by the double and classified
// by the probe, and run says to open a window. (What the catalog and docs say about Aside is
// checked without a build in aside-facts.test.ts.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, delimiter } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, runCli, tempHome } from './helpers/cli.js';

let site: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  home = tempHome('gstack-asidefacts-');
});
after(async () => {
  await site.close();
});

/** `gstack ...` with the Aside double on PATH (and the probe allowed to run). */
const withDouble = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runCli(args, {
    env: { ...process.env, PATH: join(ROOT, 'test', 'doubles') + delimiter + (process.env.PATH ?? ''), GSTACK_HOME: home, ASIDE_DOUBLE_HOME: join(home, 'aside'), GSTACK_SKIP_ASIDE: undefined, ASIDE_DOUBLE_MODE: undefined, ...extra },
    exactEnv: true,
    timeoutMs: 120_000,
  });

test('the double, like Aside, has no setViewportSize; the responsive shape sizes views through CDP and runs there', async () => {
  const r = await withDouble(['run', '--engine', 'aside', 'const pg = await openTab(); console.log("HAS=" + typeof pg.setViewportSize); await closeTab(pg); console.log("GSTACK_STEP_OK");']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(r.lines.includes('HAS=undefined'), r.stdout);

  const out = join(home, 'out-responsive');
  const shape = await withDouble(['cookbook', 'responsive', '--engine', 'aside', '--url', `${site.url}wide.html`, '--out', out]);
  assert.equal(shape.code, 0, shape.stdout + shape.stderr);
  const viewports = shape.lines.filter((l) => l.startsWith('VIEWPORT=')).map((l) => JSON.parse(l.slice(9)));
  assert.deepEqual(viewports.map((v) => [v.width, v.overflowX]), [[375, true], [768, false], [1440, false]], shape.stdout);
  for (const v of viewports) {
    const png = readFileSync(join(out, `responsive-${v.name}-${v.width}.png`));
    // A full-page shot is as wide as the page at that viewport: 700 px on the phone, the viewport elsewhere.
    assert.equal(png.readUInt32BE(16), Math.max(v.width, v.scrollWidth), v.name);
    assert.equal(png.readUInt32BE(20) >= v.height, true, v.name);
  }
});

test('no browser window open: the double prints what Aside prints; probe and run say to open a window', async () => {
  const probe = await withDouble(['probe'], { ASIDE_DOUBLE_MODE: 'no-window' });
  assert.equal(probe.code, 0, probe.stdout + probe.stderr);
  assert.ok(probe.lines.includes('PROBE=ASIDE_NOT_RUNNING'), probe.stdout);
  assert.ok(probe.lines.includes('PROBE_REASON=the Aside app has no browser window open (open a window in Aside, then run again)'), probe.stdout);
  assert.doesNotMatch(probe.stdout + probe.stderr, /account u0/);

  const run = await withDouble(['run', '--engine', 'aside', 'console.log("GSTACK_STEP_OK")'], { ASIDE_DOUBLE_MODE: 'no-window' });
  assert.equal(run.code, 3, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /ASIDE_NOT_RUNNING: the Aside app has no browser window open \(open a window in Aside, then run again\)/);

  // auto falls back to Chromium with one line saying why.
  const auto = await withDouble(['run', 'console.log("GSTACK_STEP_OK")'], { ASIDE_DOUBLE_MODE: 'no-window' });
  assert.equal(auto.code, 0, auto.stdout + auto.stderr);
  assert.match(auto.stderr, /Aside not used \(ASIDE_NOT_RUNNING: the Aside app has no browser window open/);
});
