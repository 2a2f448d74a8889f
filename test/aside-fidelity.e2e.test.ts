// Both engines (issue 24): the Page members the catalog marks as verified on Aside
// (driver/catalog.json pageMethods `"aside": "yes"`, and the Page extras whose Aside support is
// "yes") run on the Aside CLI test double (test/doubles/aside, its own browser and its own
// Playwright, independent of our engine) exactly as on Chromium. The list comes from the
// catalog; each member runs through every fidelity check (test/helpers/fidelity-checks.ts)
// that uses nothing of the page but verified members, once with `--engine aside` and once with
// `--engine chromium`, and both must give the same results, none of them a throw.
// Run alone: npm run build && node --import tsx --test test/aside-fidelity.e2e.test.ts
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { loadCatalog } from '../driver/catalog.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { BIN, ROOT, runCli } from './helpers/cli.js';
import { asideChecks, asideVerified, fidelityScript, outcomes, pageMembersUsed } from './helpers/fidelity-checks.js';

const catalog = loadCatalog();
const DOUBLES = join(ROOT, 'test', 'doubles');

let site: FixtureServer;
let work: string;
before(async () => {
  assert.ok(existsSync(BIN), `build first: npm run build (missing ${BIN})`);
  site = await startFixtureServer();
  work = mkdtempSync(join(tmpdir(), 'gstack-aside-fidelity-'));
});
after(async () => {
  await site?.close();
});

test('every Page member verified on Aside has a fidelity check that uses only verified members', () => {
  const verified = asideVerified(catalog);
  assert.ok(verified.includes('goto') && verified.length >= 10, `the catalog marks only ${verified.join(', ')} as verified on Aside`);
  const run = new Set(asideChecks(catalog).flatMap((c) => pageMembersUsed(c.body)));
  assert.deepEqual(verified.filter((m) => !run.has(m)), [], 'verified on Aside, but no check in test/helpers/fidelity-checks.ts runs it with verified members alone');
});

test('the checks of the members verified on Aside give the same results on the Aside double and on Chromium', { timeout: 240_000 }, async () => {
  const checks = asideChecks(catalog);
  const script = fidelityScript(site.url + 'fidelity.html', checks, [], false);
  const env = {
    PATH: DOUBLES + delimiter + (process.env.PATH ?? ''),
    GSTACK_HOME: join(work, 'home'),
    GSTACK_SKIP_ASIDE: undefined,
    ASIDE_DOUBLE_MODE: undefined,
    ASIDE_DOUBLE_MAX_STDOUT: undefined,
    ASIDE_DOUBLE_HOME: join(work, 'aside-runs'),
    ASIDE_DOUBLE_CALL_LOG: join(work, 'aside-calls.log'),
    GSTACK_HOUSEKEEPING: '0',
  };
  // One after the other: each engine launches a browser on a small machine.
  const aside = await runCli(['run', script, '--engine', 'aside'], { cwd: work, env, timeoutMs: 180_000 });
  const chromium = await runCli(['run', script, '--engine', 'chromium', '--ephemeral'], { cwd: work, env, timeoutMs: 180_000 });
  assert.equal(aside.code, 0, aside.stdout + aside.stderr);
  assert.equal(chromium.code, 0, chromium.stdout + chromium.stderr);
  // The double logs each script it is given: the checks ran there, not on a fallback.
  assert.match(readFileSync(join(work, 'aside-calls.log'), 'utf8'), /gotoAndWaitForURL/, 'the Aside double never got the checks');
  const onAside = outcomes(aside.lines).checks;
  const onChromium = outcomes(chromium.lines).checks;
  const problems: string[] = [];
  for (const c of checks) {
    const a = onAside.get(c.name);
    const b = onChromium.get(c.name);
    if (!a || 'err' in a) problems.push(`${c.name} on the Aside double: ${JSON.stringify(a)}`);
    if (!b || 'err' in b) problems.push(`${c.name} on Chromium: ${JSON.stringify(b)}`);
    if (a && b && JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${c.name}: aside ${JSON.stringify(a)} / chromium ${JSON.stringify(b)}`);
  }
  assert.deepEqual(problems, [], 'verified members that do not run alike on both engines');
  console.log(`# aside fidelity: ${asideVerified(catalog).length} members verified on Aside run on the Aside double (${checks.length} checks)`);
});
