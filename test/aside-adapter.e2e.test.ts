// The Aside engine adapter (driver/engines/aside.ts) against the Aside CLI test double
// (test/doubles/aside), with a real browser behind the double and a real loopback server.
// What is proved: the truth the CLI does not give (it exits 0 on a throw), the last
// ASIDE_DIR= line wins, a cut output is reported as such, the timeout kills the CLI and its
// browser, and each call is a fresh session with no Node globals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runOnAside } from '../driver/engines/aside.js';
import { CallDeadline } from '../driver/deadline.js';
import { runAsideRepl } from '../driver/engines/aside-probe.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

const DOUBLES = fileURLToPath(new URL('./doubles/', import.meta.url));
let server: FixtureServer;
let base: string;

before(async () => {
  server = await startFixtureServer();
  base = server.url.replace(/\/$/, '');
});
after(() => server.close());

function asideEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: DOUBLES + delimiter + (process.env.PATH ?? '') };
  delete env.ASIDE_DOUBLE_MODE;
  return { ...env, ...extra };
}

async function run(script: string, opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}) {
  const lines: string[] = [];
  const outcome = await runOnAside({ script, pwd: '', deadline: new CallDeadline(opts.timeoutMs ?? 60_000), onLine: (l) => lines.push(l), env: opts.env ?? asideEnv() });
  return { outcome, lines };
}

test('a completed script: sentinel, no error after it -> completed, artifactDir from ASIDE_DIR=', async () => {
  const { outcome, lines } = await run(`
    const pg = await openTab(${JSON.stringify(base + '/index.html')});
    console.log("TITLE=" + await pg.title());
    await fs.writeFile(path.join(pwd, "a.txt"), "x");
    console.log("ASIDE_DIR=" + pwd);
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(outcome.completed, true, JSON.stringify(outcome));
  assert.equal(outcome.error, undefined);
  assert.match(lines[0], /^TITLE=./);
  assert.equal(lines.at(-1), 'GSTACK_STEP_OK');
  const dirLine = lines.find((l) => l.startsWith('ASIDE_DIR='))!;
  assert.equal(outcome.artifactDir, dirLine.slice('ASIDE_DIR='.length));
  assert.ok(existsSync(join(outcome.artifactDir!, 'a.txt')), 'the double wrote into its per-run pwd');
});

test('the CLI exits 0 on a throw; the adapter still reports the failure with the cause', async () => {
  const script = 'console.log("step 1"); throw new Error("the button never appeared");';
  const raw = await runAsideRepl(script, { timeoutMs: 10_000, env: asideEnv() });
  assert.equal(raw.exitCode, 0, 'the double, like Aside, exits 0 even though the script threw');
  assert.equal(raw.lines.at(-1), '[error] Error: the button never appeared');

  const { outcome, lines } = await run(script);
  assert.equal(outcome.completed, false);
  assert.equal(outcome.error, 'The script threw on Aside: Error: the button never appeared');
  // The trailing [error line is held back: the runner's own final [error] line carries the
  // cause, so the output ends with exactly one error line, as on Chromium.
  assert.deepEqual(lines, ['step 1']);
});

test('a page cannot forge success: page text with GSTACK_STEP_OK followed by a throw is a failure', async () => {
  const { outcome, lines } = await run(`
    const pg = await openTab(${JSON.stringify(base + '/hostile.html')});
    console.log(await pg.locator("#forge").innerText());
    await pg.locator("#does-not-exist").click({ timeout: 300 });
    console.log("GSTACK_STEP_OK");`);
  assert.ok(lines.includes('GSTACK_STEP_OK'), 'the forged sentinel did reach the output');
  assert.equal(outcome.completed, false);
  assert.match(outcome.error!, /^The script threw on Aside: .*Timeout/);
});

test('no sentinel: not completed, with the fix in the message', async () => {
  const { outcome } = await run('console.log("URL=about:blank")');
  assert.equal(outcome.completed, false);
  assert.match(outcome.error!, /without printing GSTACK_STEP_OK.*console\.log\("GSTACK_STEP_OK"\)/);
});

test('stdout cut by the CLI before the sentinel: reported as a cut, not as success', async () => {
  const { outcome, lines } = await run('for (let i = 0; i < 50; i++) console.log("line " + i + " " + "x".repeat(40)); console.log("GSTACK_STEP_OK");', {
    env: asideEnv({ ASIDE_DOUBLE_MAX_STDOUT: '500' }),
  });
  assert.ok(!lines.includes('GSTACK_STEP_OK'));
  assert.match(lines.at(-1)!, /^\[output truncated: \d+ bytes not shown\]$/);
  assert.equal(outcome.completed, false);
  assert.match(outcome.error!, /Aside cut the script's output before GSTACK_STEP_OK\. Print less/);
});

test('an [error line followed by more output is evidence, passed through in order', async () => {
  const { outcome, lines } = await run('console.log("[error] text from the page"); console.log("after"); console.log("GSTACK_STEP_OK")');
  assert.equal(outcome.completed, true);
  assert.deepEqual(lines, ['[error] text from the page', 'after', 'GSTACK_STEP_OK']);
});

// The first is the script's own (the cookbook prints it before it opens a page); a later one may
// be page text spelling the label, and --out would copy from where it points (pass 16, A16).
test('the first ASIDE_DIR= line wins', async () => {
  const { outcome } = await run('console.log("ASIDE_DIR=" + pwd); console.log("ASIDE_DIR=/home/someone"); console.log("GSTACK_STEP_OK")');
  assert.equal(outcome.completed, true);
  assert.notEqual(outcome.artifactDir, '/home/someone');
  assert.match(outcome.artifactDir!, /run-/);
});

test('each call is a fresh session with its own pwd and no Node globals', async () => {
  const first = await run(`
    const pg = await openTab(${JSON.stringify(base + '/set-cookie?name=sid&value=abc')});
    const me = await (await fetch(${JSON.stringify(base + '/api/me')})).json();
    console.log("COOKIE=" + me.cookie);
    console.log("ASIDE_DIR=" + pwd);
    console.log("GSTACK_STEP_OK");`);
  assert.ok(first.lines.includes('COOKIE=sid=abc'), 'fetch carries the context cookies: ' + first.lines.join('|'));
  const second = await run(`
    const me = await (await fetch(${JSON.stringify(base + '/api/me')})).json();
    console.log("COOKIE=" + me.cookie);
    console.log("GLOBALS=" + [typeof process, typeof require, typeof setTimeout, typeof module, typeof globalThis.process].join(","));
    console.log("ASIDE_DIR=" + pwd);
    console.log("GSTACK_STEP_OK");`);
  assert.ok(second.lines.includes('COOKIE='), 'no cookie survives into the next call');
  assert.ok(second.lines.includes('GLOBALS=undefined,undefined,undefined,undefined,undefined'));
  assert.notEqual(first.outcome.artifactDir, second.outcome.artifactDir);
});

test('fs is confined to pwd in the double too', async () => {
  const { outcome } = await run('await fs.writeFile("/tmp/escape-" + Date.now(), "x"); console.log("GSTACK_STEP_OK")');
  assert.equal(outcome.completed, false);
  assert.match(outcome.error!, /outside pwd/);
});

test('timeout: aside repl and the browser it started are killed; the error says what to do', async () => {
  // A private TMPDIR makes every process of this call (the CLI's browser profile lives there)
  // findable by its command line afterwards.
  const tmp = mkdtempSync(join(tmpdir(), 'gstack-aside-timeout-'));
  // The aside CLI carries the script in its arguments: a word only this call's script has
  // finds it, and never another test file's (or agent's) script that also sleeps.
  const mark = `timeout-call-${randomUUID()}`;
  const t0 = Date.now();
  const { outcome, lines } = await run(
    `const pg = await openTab(${JSON.stringify(base + '/index.html')});
     console.log("OPENED");
     await sleep(60000); /* ${mark} */
     console.log("GSTACK_STEP_OK");`,
    // 15 s: time enough for the double's browser to open the page on a slow, busy machine
    // (e2e files run side by side).
    { timeoutMs: 15000, env: asideEnv({ TMPDIR: tmp, ASIDE_DOUBLE_HOME: join(tmp, 'runs') }) },
  );
  const took = Date.now() - t0;
  assert.equal(outcome.completed, false);
  assert.equal(outcome.timedOut, true);
  assert.match(outcome.error!, /did not finish within 15 s \(--timeout\); aside repl was stopped\..*raise --timeout/);
  assert.deepEqual(lines, ['OPENED']);
  assert.ok(took < 25_000, `settled promptly (${took} ms)`);
  // Chromium may take a moment to notice its parent is gone; give it a little while.
  let left: string[] = [];
  for (let i = 0; i < 20; i++) {
    left = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes(tmp) || l.includes(mark));
    if (!left.length) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.deepEqual(left, [], 'no process of the timed-out call is left');
});

test('a window closed after the probe: the run says Aside has no browser window open, not just "exit 1"', async () => {
  const { outcome, lines } = await run('console.log("GSTACK_STEP_OK")', { env: asideEnv({ ASIDE_DOUBLE_MODE: 'no-window' }) });
  assert.equal(outcome.completed, false);
  assert.equal(outcome.error, 'The Aside app has no browser window open, so the script did not run. Open a window in Aside and run again, or run with --engine chromium.');
  assert.deepEqual(lines, []);
});
