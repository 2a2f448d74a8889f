// End-to-end: sessions are isolated, calls in one session queue on the profile lock, a lock
// wait past --lock-timeout exits 4 naming the holder, a SIGKILLed call never strands the next,
// and no call leaves a browser process behind. Real CLI (dist/), real Chromium, real loopback
// server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliEnv, holdScript, isolatedEnv, release, runCli, startCli } from './helpers/cli.js';
import { killGroup, pgidOf, processesMentioning, waitNoProcesses } from './helpers/processes.js';
import { sessionPaths, slugFor } from '../driver/sessions/key.js';

let server: FixtureServer;
// This file's own GSTACK_HOME and runtime dir (test/helpers/cli.ts).
const { GSTACK_HOME: home } = isolatedEnv();
let env: NodeJS.ProcessEnv;

before(async () => {
  server = await startFixtureServer();
  env = cliEnv(home);
});
after(async () => {
  await server.close();
});

const profileOf = (key: string) => sessionPaths(slugFor(key), { GSTACK_HOME: home }).profileDir;
const lit = (s: string) => JSON.stringify(s);
const lines = (out: string, label: string) => out.split('\n').filter((l) => l.startsWith(label));

test('two sessions x three concurrent calls: all succeed, each sees only its page, cookies stay in their session', { timeout: 240_000 }, async () => {
  const sessions = ['alpha', 'bravo'];
  const script = (s: string, i: number) => `
    const pg = await openTab(${lit(`${server.origin}/set-cookie?name=${s}_sid&value=${s}${i}`)});
    await pg.goto(${lit(`${server.origin}/echo-title?t=${s}-page-${i}`)});
    console.log("URL=" + pg.url());
    console.log("TITLE=" + await pg.title());
    const me = await (await fetch(${lit(server.origin + '/api/me')})).json();
    console.log("COOKIE=" + me.cookie);
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`;
  const calls = sessions.flatMap((s) => [0, 1, 2].map((i) => ({ s, i, run: startCli(['run', '--session', s, script(s, i)], { env }) })));
  const results = await Promise.all(calls.map(async (c) => ({ ...c, r: await c.run.done })));

  for (const { s, i, r } of results) {
    const ctx = `${s}#${i}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
    assert.equal(r.code, 0, ctx);
    assert.deepEqual(lines(r.stdout, 'URL='), [`URL=${server.origin}/echo-title?t=${s}-page-${i}`], ctx);
    assert.deepEqual(lines(r.stdout, 'TITLE='), [`TITLE=${s}-page-${i}`], ctx);
    // Nothing of any other call's page leaks into this call's output.
    for (const other of results) {
      if (other.s === s && other.i === i) continue;
      assert.ok(!r.stdout.includes(`${other.s}-page-${other.i}`), `${ctx}\nmentions ${other.s}-page-${other.i}`);
    }
    const [cookieLine] = lines(r.stdout, 'COOKIE=');
    assert.match(cookieLine, new RegExp(`${s}_sid=${s}${i}`), ctx);
    const otherSession = sessions.find((x) => x !== s)!;
    assert.ok(!cookieLine.includes(`${otherSession}_sid`), `${ctx}\ncookie of ${otherSession} leaked`);
  }

  // After all six: each session kept its own cookie (persistent profile) and never got the other's.
  for (const s of sessions) {
    const r = await runCli(['run', '--session', s, `
      const res = await fetch(${lit(server.origin + '/api/me')});
      console.log("COOKIE=" + (await res.json()).cookie);
      console.log("GSTACK_STEP_OK");`], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const other = sessions.find((x) => x !== s)!;
    assert.match(r.stdout, new RegExp(`COOKIE=.*${s}_sid=${s}[0-2]`));
    assert.ok(!r.stdout.includes(`${other}_sid`), r.stdout);
  }
  // Two profiles, two locks, both released.
  for (const s of sessions) {
    assert.ok(existsSync(profileOf(s)));
    assert.equal(existsSync(profileOf(s) + '.lock'), false);
  }
});

test('two calls at once in one session both succeed, one after the other', { timeout: 120_000 }, async () => {
  const script = `
    console.log("START=" + Date.now());
    const pg = await openTab(${lit(server.origin + '/echo-title?t=serial')});
    // Longer than the 1.5 s a waiter waits before it says so (a shorter wait is not announced).
    await sleep(2500);
    console.log("TITLE=" + await pg.title());
    console.log("END=" + Date.now());
    console.log("GSTACK_STEP_OK");`;
  const [a, b] = await Promise.all([runCli(['run', '--session', 'serial', script], { env }), runCli(['run', '--session', 'serial', script], { env })]);
  for (const r of [a, b]) {
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /TITLE=serial/);
  }
  const span = (out: string) => [Number(/START=(\d+)/.exec(out)![1]), Number(/END=(\d+)/.exec(out)![1])];
  const [as, ae] = span(a.stdout);
  const [bs, be] = span(b.stdout);
  assert.ok(ae <= bs || be <= as, `script runs overlap: a=[${as},${ae}] b=[${bs},${be}]`);
  // The one that waited said so once, naming the holder's pid.
  const waitLines = (a.stderr + b.stderr).split('\n').filter((l) => /pid \d+/.test(l) && /wait/i.test(l));
  assert.equal(waitLines.length, 1, a.stderr + b.stderr);
});

test('a lock wait past --lock-timeout exits 4, names the holder and says what to do', { timeout: 120_000 }, async () => {
  const holder = startCli(['run', '--session', 'busy', `
    const pg = await openTab("about:blank");
    console.log("READY");
    ${holdScript()}
    console.log("GSTACK_STEP_OK");`], { env });
  await holder.waitFor(/READY/, 60_000);
  const t0 = Date.now();
  const late = await runCli(['run', '--session', 'busy', '--lock-timeout', '700', 'console.log("GSTACK_STEP_OK")'], { env });
  const waited = Date.now() - t0;
  const all = late.stdout + late.stderr;
  assert.equal(late.code, 4, all);
  assert.ok(waited < 9000, `gave up after the lock timeout, not after the holder (${waited} ms)`);
  assert.match(all, new RegExp(`pid ${holder.pid}\\b`), 'names the holder pid');
  assert.match(all, /since \d{4}-\d\d-\d\dT/, 'says since when');
  assert.match(all, /--session/);
  assert.match(all, /--ephemeral/);
  assert.match(late.stdout.trim().split('\n').at(-1) ?? '', /^\[error\]/, 'the [error] line is last');
  release(holder);
  const h = await holder.done;
  assert.equal(h.code, 0, h.stdout + h.stderr);
});

// The tests below are about a call that runs in the `gstack` process itself (GSTACK_NO_HOST=1:
// --ephemeral, remote browsers, or hosts turned off): its browser is its own and must go with
// it. A session host's browser outlives calls by design; test/session-host.e2e.test.ts covers what
// a killed client or host leaves.
const inProcess = (): NodeJS.ProcessEnv => ({ ...env, GSTACK_NO_HOST: '1' });
for (const variant of ['CLI and its browser', 'the CLI alone'] as const) {
  test(`SIGKILL of a running call (${variant}): the next call succeeds at once, no manual cleanup`, { timeout: 120_000 }, async () => {
    const key = variant === 'the CLI alone' ? 'killed-cli' : 'killed-all';
    const profile = profileOf(key);
    const victim = startCli(['run', '--session', key, `
      const pg = await openTab(${lit(server.origin + '/set-cookie?name=before_kill&value=1')});
      console.log("READY");
      await sleep(60000);
      console.log("GSTACK_STEP_OK");`], { env: inProcess() });
    await victim.waitFor(/READY/, 60_000);
    const browser = await processesMentioning(`--user-data-dir=${profile}`);
    assert.ok(browser.length > 0, 'the call has a browser on its profile');
    killGroup(victim.pid);
    if (variant === 'CLI and its browser') {
      // Playwright starts Chromium in a process group of its own: kill that group too.
      for (const g of new Set(browser.map((p) => pgidOf(p.pid)).filter((g): g is number => !!g))) killGroup(g);
    }
    const v = await victim.done;
    assert.equal(v.signal, 'SIGKILL');
    assert.ok(existsSync(profile + '.lock'), 'the dead call left its lock behind');

    const t0 = Date.now();
    const next = await runCli(['run', '--session', key, '--lock-timeout', '30000', `
      const res = await fetch(${lit(server.origin + '/api/me')});
      console.log("COOKIE=" + (await res.json()).cookie);
      const pg = await openTab(${lit(server.origin + '/echo-title?t=after-kill')});
      console.log("TITLE=" + await pg.title());
      console.log("GSTACK_STEP_OK");`], { env: inProcess() });
    const took = Date.now() - t0;
    assert.equal(next.code, 0, next.stdout + next.stderr);
    assert.match(next.stdout, /TITLE=after-kill/);
    if (variant === 'the CLI alone') {
      // Chromium sees its pipe close and shuts down in order, flushing the cookie store. (A
      // SIGKILLed browser loses cookies set in its last ~30 s: Chromium writes them lazily.)
      assert.match(next.stdout, /before_kill=1/, 'the profile (and its cookie) survived the kill');
    }
    assert.ok(took < 15_000, `did not wait for the lock timeout (${took} ms)`);
    assert.doesNotMatch(next.stderr, /waiting/i, 'a dead holder is not waited for');
    assert.deepEqual(await waitNoProcesses(profile), [], 'no browser left on the profile');
    assert.equal(existsSync(profile + '.lock'), false);
  });
}

test('no call leaves a browser process behind: normal end, throw, timeout, SIGINT, SIGTERM', { timeout: 240_000 }, async () => {
  const open = `const pg = await openTab(${lit(server.origin + '/echo-title?t=leak')}); console.log("READY");`;
  const cases: Array<{ name: string; args: string[]; script: string; signal?: NodeJS.Signals; code: number }> = [
    { name: 'normal', args: [], script: `${open} console.log("GSTACK_STEP_OK");`, code: 0 },
    { name: 'throw', args: [], script: `${open} throw new Error("boom");`, code: 1 },
    { name: 'timeout', args: ['--timeout', '10000'], script: `${open} await sleep(60000); console.log("GSTACK_STEP_OK");`, code: 1 },
    { name: 'sigint', args: [], script: `${open} await sleep(60000); console.log("GSTACK_STEP_OK");`, signal: 'SIGINT', code: 1 },
    { name: 'sigterm', args: [], script: `${open} await sleep(60000); console.log("GSTACK_STEP_OK");`, signal: 'SIGTERM', code: 1 },
  ];
  for (const c of cases) {
    const key = `leak-${c.name}`;
    const profile = profileOf(key);
    const run = startCli(['run', '--session', key, ...c.args, c.script], { env: inProcess() });
    if (c.signal) {
      await run.waitFor(/READY/, 60_000);
      assert.ok((await processesMentioning(`--user-data-dir=${profile}`)).length > 0, `${c.name}: browser runs`);
      process.kill(run.pid, c.signal);
    }
    const r = await run.done;
    assert.equal(r.code, c.code, `${c.name}\n${r.stdout}\n${r.stderr}`);
    if (c.code !== 0) assert.match(r.stdout.trim().split('\n').at(-1) ?? '', /^\[error\]/, `${c.name}: [error] last`);
    assert.match(r.stdout, /READY/, c.name);
    assert.deepEqual(await waitNoProcesses(profile, 3000), [], `${c.name}: browser processes left on ${profile}`);
    assert.equal(existsSync(profile + '.lock'), false, `${c.name}: lock released`);
    assert.equal(existsSync(join(profile, 'SingletonLock')), false, `${c.name}: Chromium shut down cleanly`);
  }
});
