// The warm worker (driver/warm/, issue 8): a per-user process with Playwright and the CLI
// loaded that runs `gstack run` invocations handed to it. These tests give it a private
// XDG_RUNTIME_DIR, so they start, use and kill their own worker, never the one other tests use.
//
// What must hold: a warm call prints and exits exactly like an in-process one; it runs with
// the caller's environment, directory and stdin; a caller that is killed or interrupted takes
// its browser and lock with it; a worker that dies mid-call is reported, never silently
// retried; a busy, missing or unsafe worker means the call runs in-process; nothing of one
// call is visible to the next.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli as runCliFrom } from './helpers/cli.js';
import { cliEnv, processesMentioning, startCli, runCli, tempHome, waitNoProcesses } from './helpers/sessions-support.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { decoder, encode, warmDir, workerAddress, workerEntry, workerLockTarget } from '../driver/warm/protocol.js';
import { lockHolder } from '../driver/sessions/lock.js';
import { findChromium } from '../driver/chromium-find.js';

let site: FixtureServer;
let runtime: string; // this file's XDG_RUNTIME_DIR
let worker: ChildProcess | undefined;

function privateRuntime(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-xdg-'));
  chmodSync(dir, 0o700);
  return dir;
}

async function envFor(extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
  return cliEnv(await tempHome(), { XDG_RUNTIME_DIR: runtime, ...extra });
}

/** Starts a worker for `xdg` and waits until it listens (and holds its singleton lock). */
async function startWorker(xdg: string, extra: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; socket: string; pid: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: xdg, ...extra };
  delete env.GSTACK_NO_WARM;
  const address = workerAddress(env, true);
  assert.ok(address, 'the build has a warm worker bundle and a usable runtime dir');
  const child = spawn(process.execPath, ['--expose-gc', workerEntry()], { env, stdio: 'ignore' });
  for (let i = 0; i < 200 && !existsSync(address.socket); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(address.socket), 'the worker listens within 10 s');
  const holder = await lockHolder(workerLockTarget(address));
  assert.equal(holder?.pid, child.pid, 'the worker holds its singleton lock');
  return { child, socket: address.socket, pid: child.pid! };
}

/** Runs the CLI from `cwd` (spawned there, as a user in that directory would). */
function runIn(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
  return runCliFrom(args, { cwd, env, exactEnv: true });
}

const slowScript = (url: string) =>
  `const pg = await openTab(${JSON.stringify(url)}); console.log("READY " + await pg.title()); await sleep(60000); console.log("GSTACK_STEP_OK");`;

before(async () => {
  site = await startFixtureServer();
  runtime = privateRuntime();
  worker = (await startWorker(runtime)).child;
});

after(async () => {
  worker?.kill('SIGTERM');
  await site.close();
});

function handedOff(stderr: string): number | undefined {
  const m = /handed to warm worker pid (\d+)/.exec(stderr);
  return m ? Number(m[1]) : undefined;
}

test('a call served warm prints and exits exactly like the same call in its own process', { timeout: 60_000 }, async () => {
  const script = `const pg = await openTab(${JSON.stringify(site.url + 'form.html')});
const s = await snapshot(pg, { interactive: true });
console.log("TITLE=" + await pg.title());
console.log(s.tree.split("\\n").filter((l) => l.includes("textbox")).join("\\n"));
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;
  const warm = await runCli(['run', script, '--engine', 'chromium', '--session', 'same'], await envFor({ GSTACK_TRACE: '1' }));
  const cold = await runCli(['run', script, '--engine', 'chromium', '--session', 'same'], await envFor({ GSTACK_NO_WARM: '1', GSTACK_TRACE: '1' }));
  assert.equal(warm.code, 0, warm.stderr);
  assert.ok(handedOff(warm.stderr), `the call went to the worker:\n${warm.stderr}`);
  assert.equal(cold.code, 0, cold.stderr);
  assert.equal(handedOff(cold.stderr), undefined, 'GSTACK_NO_WARM=1 runs in-process');
  assert.equal(warm.stdout, cold.stdout);
  assert.match(warm.stdout, /TITLE=.+\n.*textbox.*\[ref=e\d+\][\s\S]*GSTACK_STEP_OK\n$/);
});

test('failures keep their exit codes and [error] lines through the worker', { timeout: 60_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const threw = await runCli(['run', 'console.log("GSTACK_STEP_OK"); throw new Error("boom")', '--engine', 'chromium', '--session', 'codes'], env);
  assert.ok(handedOff(threw.stderr));
  assert.equal(threw.code, 1);
  assert.match(threw.stdout.trimEnd().split('\n').at(-1)!, /^\[error\] .*boom/);

  const usage = await runCli(['run', 'console.log(1)', '--engine', 'chromium', '--no-such-flag'], env);
  assert.ok(handedOff(usage.stderr));
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /\[error\] Unknown argument/);

  const json = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'codes', '--json'], env);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as { ok: boolean; exitCode: number; engine: string; lines: string[] };
  assert.deepEqual([parsed.ok, parsed.exitCode, parsed.engine, parsed.lines], [true, 0, 'chromium', ['GSTACK_STEP_OK']]);

  // Help is printed by the calling process itself.
  const help = await runCli(['run', '--help'], env);
  assert.equal(help.code, 0);
  assert.equal(handedOff(help.stderr), undefined);
  assert.match(help.stdout, /--session/);
});

test("the call runs with the caller's directory, environment and stdin", { timeout: 60_000 }, async () => {
  const home = await tempHome();
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-cwd-')));
  const env = cliEnv(home, { XDG_RUNTIME_DIR: runtime, GSTACK_TRACE: '1' });
  const r = await runCli(['run', '-', '--engine', 'chromium', '--json'], env, { input: 'console.log("FROM_STDIN"); console.log("GSTACK_STEP_OK")' });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(handedOff(r.stderr));
  const fromStdin = JSON.parse(r.stdout) as { lines: string[]; session: { key: string; source: string }; pwd: string };
  assert.deepEqual(fromStdin.lines, ['FROM_STDIN', 'GSTACK_STEP_OK']);
  assert.ok(fromStdin.pwd.startsWith(home), `artifacts live under the caller's GSTACK_HOME (${fromStdin.pwd})`);

  const writeNote = 'await fs.writeFile(path.join(pwd, "note.txt"), "evidence"); console.log("GSTACK_STEP_OK")';
  const inCwdRun = await runIn(cwd, ['run', writeNote, '--engine', 'chromium', '--json', '--out', 'evidence'], env);
  assert.equal(inCwdRun.code, 0, inCwdRun.stderr);
  assert.ok(handedOff(inCwdRun.stderr));
  const inCwd = JSON.parse(inCwdRun.stdout) as { session: { key: string; source: string } };
  assert.deepEqual(inCwd.session.source, 'cwd');
  assert.equal(inCwd.session.key, cwd, 'the session key comes from the caller\'s directory, not the worker\'s');
  assert.equal(readFileSync(join(cwd, 'evidence', 'note.txt'), 'utf8'), 'evidence', '--out is relative to the caller\'s directory');
});

test('SIGKILL of the caller mid-call: the worker shuts that browser down and frees the session at once', { timeout: 60_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const run = startCli(['run', slowScript(site.url + 'form.html'), '--engine', 'chromium', '--session', 'killed'], env);
  await run.waitFor(/^READY /m);
  assert.ok(handedOff(run.stderr()));
  const profile = join(env.GSTACK_HOME!, 'profiles');
  assert.ok((await processesMentioning(profile)).length > 0, 'the browser runs while the call does');
  run.child.kill('SIGKILL');
  await run.done;
  assert.deepEqual(await waitNoProcesses(profile, 5000), [], 'no browser left behind');
  const next = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'killed', '--lock-timeout', '2000'], env);
  assert.equal(next.code, 0, `the lock was released: ${next.stderr}`);
  assert.ok(handedOff(next.stderr), 'the worker survived its caller');
});

test('SIGINT to the caller interrupts the call in the worker: exit 1, [error] last, browser closed', { timeout: 60_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const run = startCli(['run', slowScript(site.url + 'form.html'), '--engine', 'chromium', '--session', 'interrupted'], env);
  await run.waitFor(/^READY /m);
  run.child.kill('SIGINT');
  const r = await run.done;
  assert.equal(r.code, 1);
  assert.match(r.stdout.trimEnd().split('\n').at(-1)!, /^\[error\] The call was interrupted/);
  assert.deepEqual(await waitNoProcesses(join(env.GSTACK_HOME!, 'profiles'), 5000), []);
});

test('two sessions at once through one worker: each sees only its own page and cookies', { timeout: 90_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const flow = (who: string) => `const pg = await openTab(${JSON.stringify(site.url + 'form.html')});
await pg.evaluate((w) => { document.cookie = "who=" + w + "; path=/; max-age=3600"; document.title = w; }, ${JSON.stringify(who)});
await sleep(300);
console.log("TITLE=" + await pg.title() + " COOKIE=" + await pg.evaluate(() => document.cookie));
await closeTab(pg);
console.log("GSTACK_STEP_OK");`;
  const [a, b] = await Promise.all([
    runCli(['run', flow('alice'), '--engine', 'chromium', '--session', 'alice'], env),
    runCli(['run', flow('bob'), '--engine', 'chromium', '--session', 'bob'], env),
  ]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  assert.match(a.stdout, /^TITLE=alice COOKIE=who=alice$/m);
  assert.match(b.stdout, /^TITLE=bob COOKIE=who=bob$/m);
  // The next call of each session sees its own login, and only it.
  const check = `const pg = await openTab(${JSON.stringify(site.url + 'form.html')}); console.log("COOKIE=" + await pg.evaluate(() => document.cookie)); console.log("GSTACK_STEP_OK");`;
  const a2 = await runCli(['run', check, '--engine', 'chromium', '--session', 'alice'], env);
  assert.ok(handedOff(a2.stderr));
  assert.match(a2.stdout, /^COOKIE=who=alice$/m);
});

test('what one call does to the objects it was given never reaches the next call in the worker', { timeout: 60_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const tamper = `for (const [what, change] of [
  ["path.join", () => { path.join = () => "tampered"; }],
  ["path.posix.join", () => { path.posix.join = null; }],
  ["Buffer.from", () => { Buffer.from = null; }],
  ["delete Buffer.alloc", () => { delete Buffer.alloc; }],
]) {
  try { change(); console.log("CHANGED " + what); } catch (e) { console.log("REFUSED " + what + ": " + e.message); }
}
console.log("GSTACK_STEP_OK");`;
  const first = await runCli(['run', tamper, '--engine', 'chromium', '--session', 'tamper'], env);
  assert.equal(first.code, 0, first.stderr);
  const pid = handedOff(first.stderr);
  assert.ok(pid);
  const lines = first.stdout.split('\n');
  assert.deepEqual(lines.filter((l) => l.startsWith('CHANGED')), []);
  assert.equal(lines.filter((l) => /^REFUSED .*read-only in a flow script/.test(l)).length, 4, first.stdout);
  const next = await runCli(['run', 'console.log(path.join("a", "b") + " " + Buffer.from("aGk=", "base64").toString() + " " + Buffer.alloc(2).length); console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'other'], env);
  assert.equal(handedOff(next.stderr), pid, 'the same worker served the next call');
  assert.equal(next.stdout, 'a/b hi 2\nGSTACK_STEP_OK\n');
});

test('a worker that dies mid-call: the caller exits 1 saying so, and the call is not run again', { timeout: 60_000 }, async () => {
  const xdg = privateRuntime();
  const own = await startWorker(xdg);
  const env = await envFor({ XDG_RUNTIME_DIR: xdg, GSTACK_TRACE: '1' });
  const run = startCli(['run', `console.log("RAN_ONCE"); ${slowScript(site.url + 'form.html')}`, '--engine', 'chromium', '--session', 'orphaned'], env);
  await run.waitFor(/^READY /m);
  process.kill(own.pid, 'SIGKILL');
  const r = await run.done;
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`\\[error\\] The warm worker \\(pid ${own.pid}\\) running this call went away`));
  assert.equal(r.stdout.match(/RAN_ONCE/g)?.length, 1);
  // Chromium runs in its own process group; with its pipe gone it shuts itself down.
  assert.deepEqual(await waitNoProcesses(join(env.GSTACK_HOME!, 'profiles'), 10_000), []);
});

test('no worker: the call runs in-process and starts one for the next call; GSTACK_NO_WARM=1 starts none', { timeout: 60_000 }, async () => {
  const xdg = privateRuntime();
  const off = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'first'], await envFor({ XDG_RUNTIME_DIR: xdg, GSTACK_NO_WARM: '1' }));
  assert.equal(off.code, 0, off.stderr);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(existsSync(join(xdg, 'gstack')), false, 'GSTACK_NO_WARM=1 starts no worker');

  const env = await envFor({ XDG_RUNTIME_DIR: xdg, GSTACK_TRACE: '1', GSTACK_WARM_IDLE_MS: '20000' });
  const first = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'first'], env);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(handedOff(first.stderr), undefined);
  const address = workerAddress(env)!;
  for (let i = 0; i < 200 && !existsSync(address.socket); i++) await new Promise((r) => setTimeout(r, 50));
  const second = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'first'], env);
  assert.equal(second.code, 0, second.stderr);
  const pid = handedOff(second.stderr);
  assert.ok(pid, `the second call went to the worker the first one started:\n${second.stderr}`);
  process.kill(pid, 'SIGTERM');
});

test('a worker killed outright leaves a dead socket: the next call runs in-process and a new worker replaces it', { timeout: 60_000 }, async () => {
  const xdg = privateRuntime();
  const dead = await startWorker(xdg);
  process.kill(dead.pid, 'SIGKILL');
  await new Promise((r) => dead.child.on('exit', r));
  assert.ok(existsSync(dead.socket), 'SIGKILL leaves the socket file behind');
  const env = await envFor({ XDG_RUNTIME_DIR: xdg, GSTACK_TRACE: '1', GSTACK_WARM_IDLE_MS: '20000' });
  const first = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'revive'], env);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(handedOff(first.stderr), undefined, 'nobody answers on the dead socket: the call ran in-process');
  let second = first;
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    second = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'revive'], env);
    if (handedOff(second.stderr)) break;
  }
  const pid = handedOff(second.stderr);
  assert.ok(pid && pid !== dead.pid, `a new worker took over:\n${second.stderr}`);
  process.kill(pid, 'SIGTERM');
});

test('an idle worker exits and removes its socket', { timeout: 30_000 }, async () => {
  const xdg = privateRuntime();
  const own = await startWorker(xdg, { GSTACK_WARM_IDLE_MS: '500' });
  const exited = await new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(false), 15_000);
    own.child.on('exit', () => (clearTimeout(t), resolve(true)));
  });
  assert.ok(exited, 'the worker exited on its own');
  assert.equal(existsSync(own.socket), false);
});

test('messages split inside a multi-byte character arrive whole', () => {
  const got: unknown[] = [];
  const feed = decoder((m) => got.push(m));
  const bytes = Buffer.from(encode({ t: 'out', s: '漢字 😀 done' }), 'utf8');
  // Cut after every byte: each cut inside 漢, 字 or 😀 splits a character.
  for (let i = 0; i < bytes.length; i++) feed(bytes.subarray(i, i + 1));
  assert.deepEqual(got, [{ t: 'out', s: '漢字 😀 done' }]);
});

test('a long non-ASCII output comes through the worker intact', { timeout: 60_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const r = await runCli(['run', 'console.log("漢".repeat(50000)); console.log("GSTACK_STEP_OK")', '--engine', 'chromium', '--session', 'cjk'], env);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(handedOff(r.stderr));
  assert.equal(r.stdout, '漢'.repeat(50000) + '\nGSTACK_STEP_OK\n');
});

test('a runtime dir others can enter is never used for the socket', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-xdg-open-'));
  mkdirSync(join(dir, 'gstack'), { mode: 0o755 });
  chmodSync(join(dir, 'gstack'), 0o755);
  assert.equal(warmDir({ XDG_RUNTIME_DIR: dir }), undefined);
  chmodSync(join(dir, 'gstack'), 0o700);
  assert.equal(warmDir({ XDG_RUNTIME_DIR: dir }), join(dir, 'gstack'));
  assert.equal(workerAddress({ XDG_RUNTIME_DIR: dir, GSTACK_NO_WARM: '1' }), undefined);
});

// ---------------------------------------------------------------- render, pdf and diagram

test('diagram, pdf and render run warm with paths relative to the caller\'s directory', { timeout: 90_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-warm-render-')));
  const fixtures = join(ROOT, 'test', 'fixtures');
  const { copyFileSync, writeFileSync } = await import('node:fs');
  copyFileSync(join(fixtures, 'diagrams', 'flowchart.mmd'), join(cwd, 'flow.mmd'));
  writeFileSync(join(cwd, 'notes.md'), '# Warm notes\n\nA paragraph that the PDF must carry.\n');
  writeFileSync(join(cwd, 'page.html'), '<!doctype html><title>warm page</title><p id="x">hello from the caller dir</p>');

  const diagram = await runIn(cwd, ['diagram', 'flow.mmd', '--svg', 'out/flow.svg', '--engine', 'chromium'], env);
  assert.equal(diagram.code, 0, diagram.stderr);
  assert.ok(handedOff(diagram.stderr), diagram.stderr);
  assert.equal(diagram.stdout.trim(), join(cwd, 'out', 'flow.svg'));
  assert.match(readFileSync(join(cwd, 'out', 'flow.svg'), 'utf8'), /<svg[\s\S]*Start here/);

  const pdf = await runIn(cwd, ['pdf', 'notes.md', '--engine', 'chromium'], env);
  assert.equal(pdf.code, 0, pdf.stderr);
  assert.ok(handedOff(pdf.stderr), pdf.stderr);
  assert.equal(pdf.stdout.trim(), join(cwd, 'notes.pdf'));
  const { execFileSync } = await import('node:child_process');
  assert.match(execFileSync('pdftotext', [join(cwd, 'notes.pdf'), '-'], { encoding: 'utf8' }), /Warm notes[\s\S]*A paragraph that the PDF must carry/);

  const render = await runIn(cwd, ['render', 'page.html', '--engine', 'chromium', '--eval', 'document.querySelector("#x").textContent', '--screenshot', 'shot.png'], env);
  assert.equal(render.code, 0, render.stderr);
  assert.ok(handedOff(render.stderr), render.stderr);
  assert.match(render.stdout, /^EVAL 1: "hello from the caller dir"$/m);
  assert.match(render.stdout, new RegExp(`^OK ${join(cwd, 'shot.png').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  assert.ok(existsSync(join(cwd, 'shot.png')));
  assert.equal(render.stdout.trimEnd().split('\n').at(-1), 'GSTACK_RENDER_OK');
});

test('SIGINT to a warm render: exit 1 saying it was interrupted, nothing written, browser closed', { timeout: 60_000 }, async () => {
  const env = await envFor({ GSTACK_TRACE: '1' });
  const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-warm-render-int-')));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(cwd, 'slow.html'), '<!doctype html><title>never ready</title><p>waiting</p>');
  // Every Chromium the render starts records its pid (exec keeps it), so the test can check
  // that none outlives the interrupted call.
  const pids = join(cwd, 'chromium.pids');
  const wrapper = join(cwd, 'chromium-pid');
  writeFileSync(wrapper, `#!/bin/sh\necho $$ >> '${pids}'\nexec '${findChromium().path}' "$@"\n`, { mode: 0o755 });
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'bin', 'gstack.js'), 'render', 'slow.html', '--engine', 'chromium', '--wait-expr', 'window.never === true', '--wait-timeout', '30000', '--pdf', 'never.pdf'], {
    cwd,
    env: { ...env, GSTACK_CHROMIUM: wrapper },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // Wait until the page is open in the worker's browser, then interrupt.
  for (let i = 0; i < 200 && !/render: context and page ready/.test(stderr); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(handedOff(stderr), stderr);
  child.kill('SIGINT');
  const code = await new Promise<number | null>((r) => child.on('close', r));
  assert.equal(code, 1, stderr);
  assert.match(stdout.trimEnd().split('\n').at(-1)!, /^\[error\] the render was interrupted/);
  assert.equal(existsSync(join(cwd, 'never.pdf')), false);
  const started = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
  assert.ok(started.length > 0, 'the render started its browser through the wrapper');
  const alive = (pid: number) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z'); // a zombie has exited
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 50 && started.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(started.filter(alive), [], 'no browser of the interrupted render is left');
});
