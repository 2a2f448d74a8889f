// Many agents on one machine (docs/ARCHITECTURE.md, "Hosts"): nothing one agent runs stops,
// slows or confuses another's call, and a call stopped from outside says by what.
//
// Covered, each as two agents on one machine would meet it:
// - while A's call runs, B stops its own session, renders (pdf, diagram, render), stops the
//   render host, runs gc and lists sessions: A's call succeeds and its host keeps its pid;
// - `sessions stop --all` refuses (exit 4) and names A while A's call runs; with --force A's
//   call ends with an `[error]` line naming that command and its pid;
// - `sessions list` puts the caller's own session first, marked, and `--mine` shows only it;
// - the browser killed under a call, and SIGINT to the calling process: the `[error]` line says
//   which, not just "interrupted".
// Every call here uses this file's own GSTACK_HOME and runtime dir, so no host of another test
// or agent is touched (the render host is per runtime dir).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, holdScript, isolatedEnv, release, runCli, startCli, type CliRun } from './helpers/cli.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { sessionPaths, slugFor } from '../driver/sessions/key.js';
import { lockHolder } from '../driver/sessions/lock.js';
import { hostLockTarget } from '../driver/hosts/address.js';

let server: FixtureServer;
// This file's own GSTACK_HOME and runtime dir (test/helpers/cli.ts).
const { GSTACK_HOME: home } = isolatedEnv();
let work: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  server = await startFixtureServer();
  work = mkdtempSync(join(tmpdir(), 'gstack-crowd-'));
  env = cliEnv(home, { GSTACK_HOUSEKEEPING: '0' });
  writeFileSync(join(work, 'doc.md'), '# Crowd\n\nA paragraph.\n\n```mermaid\ngraph TD; A-->B\n```\n');
  writeFileSync(join(work, 'flow.mmd'), 'graph LR; X-->Y\n');
  writeFileSync(join(work, 'page.html'), '<!doctype html><title>r</title><h1>render me</h1>');
});
after(async () => {
  await runCli(['sessions', 'stop', '--all', '--force'], { env });
  await server.close();
  await rm(work, { recursive: true, force: true });
});

const gstack = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCli(args, { cwd: work, env: { ...env, ...extra } });
const hostPid = async (key: string) =>
  (await lockHolder(hostLockTarget({ kind: 'session', profileDir: sessionPaths(slugFor(key), { GSTACK_HOME: home }).profileDir })))?.pid;
const lastLine = (out: string) => out.trimEnd().split('\n').at(-1) ?? '';

/** A call of session `key` that opens a tab and then sleeps `ms` before its sentinel. */
function longCall(key: string, ms: number, extra: NodeJS.ProcessEnv = {}): CliRun {
  const script = `const pg = await openTab(${JSON.stringify(server.url)}); console.log("STARTED"); await sleep(${ms}); await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  return startCli(['run', script, '--session', key], { cwd: work, env: { ...env, ...extra } });
}

/** Resolves once the live call has printed STARTED (its script is running in the browser). */
const started = (run: CliRun) => run.waitFor(/^STARTED$/m, 60_000);

test("B's stop, renders, render-host stop, gc and list never touch A's running call or its host", async () => {
  // Warm A's host first so its pid is known before the long call.
  const warm = await gstack(['run', 'console.log("GSTACK_STEP_OK")', '--session', 'crowd-a']);
  assert.equal(warm.code, 0, warm.stdout + warm.stderr);
  const pidBefore = await hostPid('crowd-a');
  assert.ok(pidBefore, 'A has a session host');

  // A's call runs until B's commands are all done, however long they take (holdScript).
  const a = startCli(['run', `const pg = await openTab(${JSON.stringify(server.url)}); console.log("STARTED"); ${holdScript()} await closeTab(pg); console.log("GSTACK_STEP_OK");`, '--session', 'crowd-a'], { cwd: work, env });
  await started(a);
  const b = (args: string[]) => gstack(args, { GSTACK_SESSION_KEY: 'crowd-b' });
  for (const args of [
    ['sessions', 'gc', '--older-than', '0'],
    ['sessions', 'list'],
    ['sessions', 'stop'],
    ['sessions', 'stop', '--render'],
    ['pdf', 'doc.md', 'doc.pdf'],
    ['diagram', 'flow.mmd', '--svg', 'flow.svg'],
    ['render', 'page.html', '--screenshot', 'page.png'],
    ['sessions', 'stop', 'crowd-b'],
    ['sessions', 'stop', '--render'],
  ]) {
    const r = await b(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    if (args[1] === 'gc') assert.match(r.stdout, /^KEPT crowd-a-\S+ key="crowd-a" \(locked by pid \d+/m, 'gc keeps the running session');
    // Agents who had rendered asked whether the shared render host was theirs to stop (V29-V31).
    if (args[2] === 'crowd-b') assert.match(r.stderr, /^gstack: note: the render host \(pid \d+\) is left running: every agent's render, pdf and diagram calls share it and it stops by itself when idle, so there is no need to stop it/m);
  }
  const listed = await b(['sessions', 'list']);
  assert.match(listed.stdout, /^SESSION crowd-a-\S+ .*locked=pid:\d+ host=pid:\d+.* busy/m, "A's call was still running through all of B's commands");
  release(a);
  const aDone = await a.done;
  assert.equal(aDone.code, 0, aDone.stdout + aDone.stderr);
  assert.equal(lastLine(aDone.stdout), 'GSTACK_STEP_OK');
  assert.equal(await hostPid('crowd-a'), pidBefore, "A's host kept its pid");
});

test('`sessions stop --all` refuses while another session runs a call; --force stops it and the call names who did', async () => {
  const a = longCall('crowd-force', 20_000);
  await started(a);
  // Fourteenth red-team pass: naming the session stopped its running call with no question asked.
  const named = await gstack(['sessions', 'stop', 'crowd-force'], { GSTACK_SESSION_KEY: 'crowd-user' });
  assert.equal(named.code, 4, named.stdout + named.stderr);
  assert.match(named.stdout, /^RUNNING crowd-force-\S+ key="crowd-force" call=pid:\d+$/m);
  assert.match(named.stderr, /\[error\] Not stopping crowd-force-\S+: a call of that session is running .*--force/);
  // Pass 31 (C31): a caller with the same key (another agent sharing the session, or this
  // agent's cleanup beside its own call) stopped it too, named or not.
  for (const args of [['sessions', 'stop'], ['sessions', 'stop', 'crowd-force']]) {
    const same = await gstack(args, { GSTACK_SESSION_KEY: 'crowd-force' });
    assert.equal(same.code, 4, same.stdout + same.stderr);
    assert.match(same.stderr, /\[error\] Not stopping crowd-force-\S+: a call of that session is running \(pid \d+, perhaps another agent's: this session is shared by every caller with its key\)/);
  }
  const refused = await gstack(['sessions', 'stop', '--all'], { GSTACK_SESSION_KEY: 'crowd-user' });
  assert.equal(refused.code, 4, refused.stdout + refused.stderr);
  assert.match(refused.stdout, /^RUNNING crowd-force-\S+ key="crowd-force" call=pid:\d+$/m);
  assert.match(refused.stderr, /\[error\] Not stopping anything: a call is running \(crowd-force\).*--force/);
  assert.ok(await hostPid('crowd-force'), 'nothing was stopped');

  const forced = await gstack(['sessions', 'stop', '--all', '--force'], { GSTACK_SESSION_KEY: 'crowd-user' });
  assert.equal(forced.code, 0, forced.stdout + forced.stderr);
  assert.match(forced.stdout, /^STOPPED crowd-force-\S+ host=pid:\d+$/m);
  const ended = await a.done;
  assert.equal(ended.code, 1, ended.stdout + ended.stderr);
  const last = lastLine(ended.stdout);
  assert.match(last, /^\[error\] The call was stopped by `gstack sessions stop --all --force` \(pid (\d+)\)/);
  assert.equal(Number(/pid (\d+)/.exec(last)![1]), forced.pid, 'the pid is the stopping command');
  assert.equal(await hostPid('crowd-force'), undefined, 'its host is gone');
  // The stop note the command left beside the profile is not a session of its own.
  const list = await gstack(['sessions', 'list']);
  assert.doesNotMatch(list.stdout, /\.stop|key=\?/, list.stdout);
});

test('`sessions stop --render` refuses while another session\'s render is in progress; the render finishes', async () => {
  // A's render holds the render host for a few seconds (an --eval that settles late).
  const render = startCli(['render', 'page.html', '--eval', 'new Promise((r) => setTimeout(() => r("finished"), 6000))', '--session', 'crowd-render-a'], { cwd: work, env });
  // The render host is busy once it answers busy in `sessions list`.
  let busy = false;
  for (let i = 0; i < 200 && !busy; i++) {
    busy = /^RENDER_HOST .*busy/m.test((await gstack(['sessions', 'list'])).stdout);
    if (!busy) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(busy, 'the render host took the render');
  const refused = await gstack(['sessions', 'stop', '--render'], { GSTACK_SESSION_KEY: 'crowd-render-b' });
  assert.equal(refused.code, 4, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /\[error\] Not stopping the render host: a render is in progress.*--force/);
  const done = await render.done;
  assert.equal(done.code, 0, done.stdout + done.stderr);
  assert.match(done.stdout, /finished/);
});

test('`sessions list` shows the caller\'s own session first, marked; --mine shows only it', async () => {
  for (const key of ['crowd-list-1', 'crowd-list-2']) {
    const r = await gstack(['run', 'console.log("GSTACK_STEP_OK")', '--session', key]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  const list = await gstack(['sessions', 'list'], { GSTACK_SESSION_KEY: 'crowd-list-1' });
  const rows = list.stdout.split('\n').filter((l) => l.startsWith('SESSION '));
  assert.ok(rows.length >= 2, list.stdout);
  assert.match(rows[0], /^SESSION crowd-list-1-\S+ key="crowd-list-1" .* mine=yes$/);
  assert.equal(rows.filter((r) => r.includes('mine=yes')).length, 1);
  const mine = await gstack(['sessions', 'list', '--mine', '--session', 'crowd-list-2', '--json']);
  const parsed = JSON.parse(mine.stdout) as { sessions: Array<{ key: string; mine: boolean }> };
  assert.deepEqual(
    parsed.sessions.map((s) => [s.key, s.mine]),
    [['crowd-list-2', true]],
  );
  assert.doesNotMatch(mine.stderr, /has no session yet/);
  // A key with no session yet (set in another shell, trial t26): stderr says which key was used.
  const none = await gstack(['sessions', 'list', '--mine', '--session', 'crowd-list-none']);
  assert.match(none.stdout, /^SESSIONS=0 /m);
  assert.match(none.stderr, /your key "crowd-list-none" \(from --session\) has no session yet: your first `gstack run` here makes it/);
  for (const key of ['crowd-list-1', 'crowd-list-2']) await gstack(['sessions', 'stop', key]);
});

test('a browser killed under a call: the [error] line says it was killed and how, and the next call works', async () => {
  const a = longCall('crowd-kill', 20_000);
  await started(a);
  const { processesMentioning } = await import('./helpers/processes.js');
  const profile = sessionPaths(slugFor('crowd-kill'), { GSTACK_HOME: home }).profileDir;
  const browser = (await processesMentioning(`--user-data-dir=${profile}`)).find((p) => !p.cmd.includes('--type='));
  assert.ok(browser, 'the session browser runs');
  process.kill(browser.pid, 'SIGKILL');
  const r = await a.done;
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(lastLine(r.stdout), new RegExp(`^\\[error\\] The browser \\(pid ${browser.pid}\\) was killed with SIGKILL during the call .*Run the call again`));
  const next = await gstack(['run', 'const pg = await openTab(); await closeTab(pg); console.log("GSTACK_STEP_OK")', '--session', 'crowd-kill']);
  assert.equal(next.code, 0, next.stdout + next.stderr);
  await gstack(['sessions', 'stop', 'crowd-kill']);
});

test('SIGINT to the calling gstack process: the [error] line names the signal and the process', async () => {
  for (const extra of [{}, { GSTACK_NO_HOST: '1' }]) {
    const a = longCall('crowd-sigint', 20_000, extra);
    await started(a);
    process.kill(a.pid, 'SIGINT');
    const r = await a.done;
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(lastLine(r.stdout), new RegExp(`^\\[error\\] The call was interrupted: this gstack process \\(pid ${a.child.pid}\\) received SIGINT`), JSON.stringify(extra));
  }
  await gstack(['sessions', 'stop', 'crowd-sigint']);
});

test('an idle session sheds its browser before its host, and keeps its logins', async () => {
  const idle = { GSTACK_BROWSER_IDLE_MS: '3000', GSTACK_HOST_IDLE_MS: '60000' };
  const setCookie = `const pg = await openTab(${JSON.stringify(server.url)});
await pg.context().addCookies([{ name: "who", value: "idle-user", url: ${JSON.stringify(server.url)}, expires: Math.floor(Date.now() / 1000) + 3600 }]);
await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  const first = await gstack(['run', setCookie, '--session', 'crowd-idle'], idle);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const host = await hostPid('crowd-idle');
  assert.ok(host);
  const { processesMentioning } = await import('./helpers/processes.js');
  const profile = sessionPaths(slugFor('crowd-idle'), { GSTACK_HOME: home }).profileDir;
  const browsers = () => processesMentioning(`--user-data-dir=${profile}`);
  assert.ok((await browsers()).length > 0, 'the browser stays up right after a call');
  const until = Date.now() + 20_000;
  while (Date.now() < until && (await browsers()).length > 0) await new Promise((r) => setTimeout(r, 250));
  assert.deepEqual(await browsers(), [], 'the idle browser was shut down');
  assert.equal(await hostPid('crowd-idle'), host, 'the host stays');
  const read = `const pg = await openTab(${JSON.stringify(server.url)});
console.log("COOKIES=" + JSON.stringify((await pg.context().cookies()).map((c) => c.name + "=" + c.value)));
await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  const second = await gstack(['run', read, '--session', 'crowd-idle'], idle);
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(second.stdout, /^COOKIES=\["who=idle-user"\]$/m, 'the login survived the browser closing');
  assert.equal(await hostPid('crowd-idle'), host, 'the same host started the browser again');
  await gstack(['sessions', 'stop', 'crowd-idle']);
});

// Pass 45 (C45): two agents with one session key. A's script does 6 s of synchronous work, so
// its host answers no one meanwhile; B's call took that for a wedged host, ended it (A's call
// failed "killed or crashed") and ran in its place. B now waits for the session as for any
// call holding it: up to --lock-timeout, then exit 4.
test('a call of the same session waits for one whose script keeps the host busy, or exits 4 at --lock-timeout; neither is ended', { timeout: 120_000 }, async () => {
  const key = 'crowd-busy';
  const busy = (ms: number) => `const pg = await openTab(${JSON.stringify(server.url)}); console.log("BUSY start"); const t0 = Date.now(); while (Date.now() - t0 < ${ms}) {} console.log("BUSY done"); await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  const quick = `const pg = await openTab(${JSON.stringify(server.url)}); console.log("QUICK " + (await pg.title())); await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  assert.equal((await gstack(['run', quick, '--session', key])).code, 0, 'the host is up');
  // Each busy millisecond is a core spinning (the tier is CPU-bound): long enough for B's call to
  // start and find A holding the session, no longer.
  const a = startCli(['run', busy(4000), '--session', key, '--timeout', '60000'], { cwd: work, env });
  await a.waitFor(/^BUSY start$/m, 60_000);
  const b = await gstack(['run', quick, '--session', key]);
  const ar = await a.done;
  assert.equal(ar.code, 0, ar.stdout + ar.stderr);
  assert.match(ar.stdout, /^BUSY done$/m);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.match(b.stdout, /^QUICK /m);
  assert.match(b.stderr, /waiting for session profile \(held by pid \d+ .*whose script has not given control back/);
  // With a shorter --lock-timeout than A's busy time: exit 4 naming A, and A still completes.
  const a2 = startCli(['run', busy(5000), '--session', key, '--timeout', '60000'], { cwd: work, env });
  await a2.waitFor(/^BUSY start$/m, 60_000);
  const b2 = await gstack(['run', quick, '--session', key, '--lock-timeout', '1500']);
  assert.equal(b2.code, 4, b2.stdout + b2.stderr);
  assert.match(lastLine(b2.stdout), /^\[error\] Profile busy: .* is held by pid \d+ .*gave up after waiting \d+ ms \(--lock-timeout\)/);
  const a2r = await a2.done;
  assert.equal(a2r.code, 0, a2r.stdout + a2r.stderr);
});

// Pass 45 (C45): B's call was handed to the host while A's runaway script was about to spin; A's
// caller ended that host at A's deadline, and B exited 1 ("killed or crashed") without running.
// A call whose script had not started is sent again to a fresh host.
test('a call waiting behind a runaway call of its session runs once the runaway one is ended at its deadline', { timeout: 120_000 }, async () => {
  const key = 'crowd-runaway';
  const spin = `const pg = await openTab(${JSON.stringify(server.url)}); console.log("SPINNING"); await sleep(1500); for (;;) {}`;
  const quick = `const pg = await openTab(${JSON.stringify(server.url)}); console.log("QUICK " + (await pg.title())); await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  // The host and its browser are up first, so the deadline is the script's and its spin short.
  assert.equal((await gstack(['run', quick, '--session', key])).code, 0, 'the host is up');
  const a = startCli(['run', spin, '--session', key, '--timeout', '3500'], { cwd: work, env });
  await a.waitFor(/^SPINNING$/m, 60_000);
  // B connects while A's script still yields (its sleep): the host takes B's call, which waits.
  const b = await gstack(['run', quick, '--session', key]);
  const ar = await a.done;
  assert.equal(ar.code, 1, ar.stdout + ar.stderr);
  assert.match(lastLine(ar.stdout), /did not finish within 3500 ms/);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.match(b.stdout, /^QUICK /m);
});
