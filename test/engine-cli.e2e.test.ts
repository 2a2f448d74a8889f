// Engine selection end to end through the compiled CLI (`node dist/bin/gstack.cjs`), with the
// Aside CLI test double (test/doubles/aside) on PATH where a test wants an Aside:
// `gstack probe` for every outcome, the one-line fallback notice, forced engines, exit-code
// truth on a throw, --out copy-out from ASIDE_DIR, --timeout, --json, and the Chromium stubs
// of the Aside-only globals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter, basename } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliWith, ROOT, TEST_HOST_IDLE_MS } from './helpers/cli.js';

const DOUBLES = join(ROOT, 'test', 'doubles');
const BASE_PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((d) => d !== DOUBLES && d !== DOUBLES + '/')
  .join(delimiter);

let server: FixtureServer;
let base: string;
const home = mkdtempSync(join(tmpdir(), 'gstack-engine-home-'));

before(async () => {
  server = await startFixtureServer();
  base = server.url.replace(/\/$/, '');
});
after(() => server.close());

function env(opts: { aside?: boolean; extra?: Record<string, string> } = {}): NodeJS.ProcessEnv {
  // The tests' host idle time too (exactEnv drops the defaults): with the product's 5 minutes,
  // this file's hosts and their browsers outlived it by minutes, beside the files after it.
  const e: NodeJS.ProcessEnv = { ...process.env, GSTACK_HOME: home, GSTACK_SESSION_KEY: 'engine-cli-test', GSTACK_HOST_IDLE_MS: TEST_HOST_IDLE_MS };
  for (const k of ['GSTACK_SKIP_ASIDE', 'ASIDE_DOUBLE_MODE', 'GSTACK_ASIDE_PROBE_TIMEOUT_MS', 'ASIDE_DOUBLE_CALL_LOG']) delete e[k];
  e.PATH = opts.aside ? DOUBLES + delimiter + BASE_PATH : BASE_PATH;
  return { ...e, ...opts.extra };
}

/** Runs the CLI with exactly the environment a call gives (env() below). */
const gstack = cliWith({ exactEnv: true });

const SIMPLE = (url: string) =>
  `const pg = await openTab(${JSON.stringify(url)}); console.log("TITLE=" + await pg.title()); await closeTab(pg); console.log("GSTACK_STEP_OK");`;

// ------------------------------------------------------------------ gstack probe

test('gstack probe: no aside on PATH -> NEEDS_ASIDE, chromium, the Chromium found; exit 0', async () => {
  const r = await gstack(['probe'], { env: env() });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.lines[0], 'PROBE=NEEDS_ASIDE');
  assert.match(r.lines[1], /^PROBE_REASON=no `aside` command on PATH \(Aside is optional: calls run on Chromium, ENGINE= below\)$/);
  assert.equal(r.lines[2], 'ENGINE=chromium');
  assert.equal(r.lines[3], 'ENGINE_REASON=auto: Aside not usable (NEEDS_ASIDE)');
  assert.match(r.lines[4], /^CHROMIUM=\/\S+ \((GSTACK_CHROMIUM|playwright|system), (headless-shell|browser|unknown)\)$/);
  assert.equal(r.stderr, '');
});

test('gstack probe: the ready double -> READY: aside, a call would use aside', async () => {
  const r = await gstack(['probe'], { env: env({ aside: true }) });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.lines[0], 'PROBE=READY: aside');
  assert.equal(r.lines[2], 'ENGINE=aside');
});

test('gstack probe: CLI prints no marker -> ASIDE_NOT_RUNNING, falls back to chromium', async () => {
  const r = await gstack(['probe'], { env: env({ aside: true, extra: { ASIDE_DOUBLE_MODE: 'not-running' } }) });
  assert.equal(r.code, 0);
  assert.equal(r.lines[0], 'PROBE=ASIDE_NOT_RUNNING');
  assert.equal(r.lines[2], 'ENGINE=chromium');
});

test('gstack probe: CLI hangs past the deadline -> ASIDE_TIMEOUT (deadline from GSTACK_ASIDE_PROBE_TIMEOUT_MS)', async () => {
  const r = await gstack(['probe', '--json'], { env: env({ aside: true, extra: { ASIDE_DOUBLE_MODE: 'hang', GSTACK_ASIDE_PROBE_TIMEOUT_MS: '500' } }) });
  assert.equal(r.code, 0);
  const j = JSON.parse(r.stdout);
  assert.deepEqual(j.probe, { outcome: 'ASIDE_TIMEOUT', reason: 'the aside CLI did not answer the readiness probe within 500 ms' });
  assert.equal(j.engine, 'chromium');
  assert.ok(r.ms < 10_000);
});

test('gstack probe: CLI exits non-zero -> ASIDE_CLI_ERROR, without its diagnostics, paths or tokens', async () => {
  const r = await gstack(['probe'], { env: env({ aside: true, extra: { ASIDE_DOUBLE_MODE: 'fail' } }) });
  assert.equal(r.code, 0);
  assert.equal(r.lines[0], 'PROBE=ASIDE_CLI_ERROR');
  assert.equal(r.lines[1], 'PROBE_REASON=the aside CLI exited with code 1');
  assert.doesNotMatch(r.stdout + r.stderr, /SECRET|sk-live|\/Users\/alice/);
});

test('gstack probe --engine aside without Aside: exit 3, ENGINE=none', async () => {
  const r = await gstack(['probe', '--engine', 'aside'], { env: env() });
  assert.equal(r.code, 3);
  assert.equal(r.lines[2], 'ENGINE=none');
  assert.match(r.lines[3], /a call would exit 3/);
});

// ------------------------------------------------------------------ selection in gstack run

test('auto falls back with exactly one stderr line naming the outcome', async () => {
  const r = await gstack(['run', SIMPLE(base + '/index.html')], { env: env({ aside: true, extra: { ASIDE_DOUBLE_MODE: 'not-running' } }) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const errLines = r.stderr.split('\n').filter(Boolean);
  assert.deepEqual(errLines, [
    'gstack: Aside not used (ASIDE_NOT_RUNNING: the aside CLI answered without the readiness marker (is the Aside app open?)); running on chromium.',
  ]);
  assert.equal(r.lines.at(-1), 'GSTACK_STEP_OK');
});

// A trial agent saw the NEEDS_ASIDE line on every call of a Linux box, where there is no Aside
// to open: said once per GSTACK_HOME; an Aside that is installed but not ready is said each time
// (the test above), and `gstack probe` always says it.
test('no aside command: the fallback line is said on the first call of a GSTACK_HOME only; probe still says it', async () => {
  const fresh = mkdtempSync(join(tmpdir(), 'gstack-noted-'));
  const e = { ...env(), GSTACK_HOME: fresh };
  const first = await gstack(['run', SIMPLE(base + '/index.html')], { env: e });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.match(first.stderr, /^gstack: Aside not used \(NEEDS_ASIDE: no `aside` command on PATH.*\); running on chromium\. \(Said once; `gstack probe` says it again\.\)\n$/);
  const second = await gstack(['run', SIMPLE(base + '/index.html')], { env: e });
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.equal(second.stderr, '');
  const probe = await gstack(['probe'], { env: e });
  assert.equal(probe.lines[0], 'PROBE=NEEDS_ASIDE');
  // gstack render (and pdf, diagram, which render through it) follow the same rule.
  const renderHome = mkdtempSync(join(tmpdir(), 'gstack-noted-render-'));
  const page = join(renderHome, 'p.html');
  writeFileSync(page, '<title>t</title><p>hi</p>');
  const re = { ...env(), GSTACK_HOME: renderHome };
  const r1 = await gstack(['render', page, '--eval', 'document.title'], { env: re });
  assert.equal(r1.code, 0, r1.stdout + r1.stderr);
  assert.match(r1.stderr, /Aside not used \(NEEDS_ASIDE.*Said once/);
  const r2 = await gstack(['render', page, '--eval', 'document.title'], { env: re });
  assert.equal(r2.code, 0, r2.stdout + r2.stderr);
  assert.doesNotMatch(r2.stderr, /Aside not used/);
});

test('auto fallback line never carries the CLI diagnostics (paths, tokens)', async () => {
  const r = await gstack(['run', SIMPLE(base + '/index.html')], { env: env({ aside: true, extra: { ASIDE_DOUBLE_MODE: 'fail' } }) });
  assert.equal(r.code, 0);
  assert.deepEqual(r.stderr.split('\n').filter(Boolean), ['gstack: Aside not used (ASIDE_CLI_ERROR: the aside CLI exited with code 1); running on chromium.']);
  assert.doesNotMatch(r.stdout + r.stderr, /SECRET|sk-live|\/Users\/alice/);
});

test('--engine chromium never probes Aside (the double logs no call)', async () => {
  const log = join(mkdtempSync(join(tmpdir(), 'gstack-calllog-')), 'calls.log');
  const r = await gstack(['run', '--engine', 'chromium', SIMPLE(base + '/index.html')], { env: env({ aside: true, extra: { ASIDE_DOUBLE_CALL_LOG: log, ASIDE_DOUBLE_MODE: 'hang' } }) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(existsSync(log), false, 'aside was never invoked');
  assert.equal(r.stderr, '');
});

test('GSTACK_SKIP_ASIDE=1 skips the probe under auto', async () => {
  const log = join(mkdtempSync(join(tmpdir(), 'gstack-calllog-')), 'calls.log');
  const r = await gstack(['run', SIMPLE(base + '/index.html')], { env: env({ aside: true, extra: { ASIDE_DOUBLE_CALL_LOG: log, GSTACK_SKIP_ASIDE: '1' } }) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(existsSync(log), false);
  assert.equal(r.stderr, '');
});

test('auto with a ready Aside runs the script there (one probe, then one run)', async () => {
  const log = join(mkdtempSync(join(tmpdir(), 'gstack-calllog-')), 'calls.log');
  const r = await gstack(['run', '--json', SIMPLE(base + '/index.html')], { env: env({ aside: true, extra: { ASIDE_DOUBLE_CALL_LOG: log } }) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(JSON.parse(r.stdout).engine, 'aside');
  const calls = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  // The probe, then the script (inside the evidence wrapper the Aside engine adds: driver/runtime/evidence.ts).
  assert.equal(calls.length, 2, JSON.stringify(calls));
  assert.equal(calls[0], 'console.log("ASIDE_READY " + pwd)');
  assert.ok(calls[1].includes(SIMPLE(base + '/index.html')), calls[1]);
});

test('--engine aside with no aside on PATH exits 3 with an actionable message', async () => {
  const r = await gstack(['run', '--engine', 'aside', SIMPLE(base + '/index.html')], { env: env() });
  assert.equal(r.code, 3);
  const last = r.lines.at(-1) ?? r.stderr.trim().split('\n').at(-1)!;
  assert.match(last, /^\[error\] --engine aside: Aside is not usable \(NEEDS_ASIDE: .*\)\. Install the Aside app .* or run with --engine chromium/);
});

test('--engine aside with Aside not running exits 3 and names the outcome', async () => {
  const r = await gstack(['run', '--engine', 'aside', SIMPLE(base + '/index.html')], { env: env({ aside: true, extra: { ASIDE_DOUBLE_MODE: 'not-running' } }) });
  assert.equal(r.code, 3);
  assert.match(r.stdout + r.stderr, /\[error\] --engine aside: Aside is not usable \(ASIDE_NOT_RUNNING: .*Open the Aside app and check with `gstack probe`/);
});

// ------------------------------------------------------------------ the Aside engine through the CLI

test('exit-code truth: the Aside CLI exits 0 on a throw, gstack run exits 1 with [error] last', async () => {
  const r = await gstack(['run', '--engine', 'aside', `const pg = await openTab(${JSON.stringify(base + '/hostile.html')}); console.log(await pg.locator("#forge").innerText()); throw new Error("step 2 failed");`], { env: env({ aside: true }) });
  assert.equal(r.code, 1);
  assert.ok(r.lines.includes('GSTACK_STEP_OK'), 'the forged sentinel from page text was printed');
  assert.equal(r.lines.at(-1), '[error] The script threw on Aside: Error: step 2 failed');
  assert.equal(r.lines.filter((l) => l.startsWith('[error')).length, 1, 'exactly one error line, and it is last');
});

test('--out copies the artifacts from the ASIDE_DIR= directory and prints ARTIFACT lines', async () => {
  const out = mkdtempSync(join(tmpdir(), 'gstack-aside-out-'));
  const script = `
    const pg = await openTab(${JSON.stringify(base + '/index.html')});
    await pg.screenshot({ path: path.join(pwd, "page.png") });
    await fs.mkdir(path.join(pwd, "sub"), { recursive: true });
    await fs.writeFile(path.join(pwd, "sub", "note.txt"), "hello");
    console.log("ASIDE_DIR=" + pwd);
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`;
  const r = await gstack(['run', '--engine', 'aside', '--out', out, script], { env: env({ aside: true }) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const artifacts = r.lines.filter((l) => l.startsWith('ARTIFACT ')).map((l) => l.slice(9)).sort();
  assert.deepEqual(artifacts, [join(out, 'page.png'), join(out, 'sub', 'note.txt')]);
  assert.equal(readFileSync(join(out, 'page.png')).subarray(1, 4).toString(), 'PNG');
  assert.equal(readFileSync(join(out, 'sub', 'note.txt'), 'utf8'), 'hello');
});

test('--timeout kills aside repl and its browser: exit 1, actionable [error], no process left', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'gstack-aside-to-'));
  const marker = `timeout-marker-${Date.now()}`;
  const script = `const pg = await openTab(${JSON.stringify(base + '/index.html')}); console.log("OPENED"); /* ${marker} */ await sleep(60000); console.log("GSTACK_STEP_OK");`;
  // 8 s: time enough for the double's browser to open the page on a slow, busy machine.
  const r = await gstack(['run', '--engine', 'aside', '--timeout', '8000', script], { env: env({ aside: true, extra: { TMPDIR: tmp } }) });
  assert.equal(r.code, 1);
  assert.equal(r.lines[0], 'OPENED');
  assert.match(r.lines.at(-1)!, /^\[error\] The script did not finish within 8 s \(--timeout\); aside repl was stopped\./);
  assert.ok(r.ms < 18_000, `exited promptly (${r.ms} ms)`);
  let left: string[] = [];
  for (let i = 0; i < 20; i++) {
    left = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes(marker) || l.includes(tmp));
    if (!left.length) break;
    await new Promise((res) => setTimeout(res, 250));
  }
  assert.deepEqual(left, [], 'no aside repl or browser process is left');
});

test('--json on Aside reports engine "aside" with the lines and artifacts', async () => {
  const script = `console.log("ASIDE_DIR=" + pwd); await fs.writeFile(path.join(pwd, "x.txt"), "1"); console.log("GSTACK_STEP_OK");`;
  const r = await gstack(['run', '--engine', 'aside', '--json', script], { env: env({ aside: true }) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const j = JSON.parse(r.stdout);
  assert.equal(j.engine, 'aside');
  assert.equal(j.ok, true);
  assert.equal(j.exitCode, 0);
  assert.equal(j.error, null);
  assert.equal(j.lines.at(-1), 'GSTACK_STEP_OK');
  assert.deepEqual(j.artifacts.map((a: string) => basename(a)), ['x.txt']);
});

// ------------------------------------------------------------------ Aside-only globals on Chromium

test('listBrowserTabs / attachBrowserTab on Chromium throw an actionable error (exit 1)', async () => {
  for (const call of ['await listBrowserTabs()', 'await attachBrowserTab("1")']) {
    const r = await gstack(['run', '--engine', 'chromium', `${call}; console.log("GSTACK_STEP_OK");`], { env: env() });
    assert.equal(r.code, 1, call);
    const fn = call.match(/await (\w+)/)![1];
    assert.match(r.lines.at(-1)!, new RegExp(`^\\[error\\] .*${fn}\\(\\) is only available on the Aside engine.*openTab\\(url\\)`));
  }
});

test('listBrowserTabs / attachBrowserTab work on the Aside engine (the double stands in for user tabs)', async () => {
  const script = `const tabs = await listBrowserTabs(); console.log("TABS=" + tabs.length); const pg = await attachBrowserTab(tabs[0].id); console.log("TITLE=" + await pg.title()); console.log("GSTACK_STEP_OK");`;
  const r = await gstack(['run', '--engine', 'aside', script], { env: env({ aside: true, extra: { ASIDE_DOUBLE_USER_TABS: base + '/form.html' } }) });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(r.lines, ['TABS=1', 'TITLE=Sign in', 'GSTACK_STEP_OK']);
});
