// `gstack sessions list|gc|clear|import-cookies` end to end (real CLI, real Chromium), and the
// sweep a `gstack run` call does by itself. Cookie values must never appear in any output of
// these commands. The cookie-file parsers and the housekeeping rules alone are in
// sessions-cookies-gc.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliEnv, holdScript, isolatedEnv, release, runCli, startCli, tempHome } from './helpers/cli.js';
import { sessionPaths, slugFor } from '../driver/sessions/key.js';
import { HOUSEKEEPING_STAMP } from '../driver/profiles/daily-sweep.js';
import { touchSession } from '../driver/sessions/registry.js';

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

const lit = (s: string) => JSON.stringify(s);
const inAYear = () => Math.floor(Date.now() / 1000) + 365 * 86400;

const readCookiesAndStorage = (origin: string) => `
  const me = await (await fetch(${lit(origin + '/api/me')})).json();
  console.log("COOKIE=" + me.cookie);
  const pg = await openTab(${lit(origin + '/echo-title?t=check')});
  console.log("LS=" + await pg.evaluate(() => localStorage.getItem("imported_ls")));
  console.log("DOCCOOKIE=" + await pg.evaluate(() => document.cookie));
  console.log("GSTACK_STEP_OK");`;

test('import-cookies from cookies.txt and from storageState JSON: the next call sees them at /api/me', { timeout: 180_000 }, async () => {
  const host = '127.0.0.1';
  const txtFile = join(home, 'cookies.txt');
  await writeFile(
    txtFile,
    [
      '# Netscape HTTP Cookie File',
      `${host}\tFALSE\t/\tFALSE\t${inAYear()}\tnetscape_plain\tVAL-np-4b7e`,
      `#HttpOnly_${host}\tFALSE\t/\tFALSE\t${inAYear()}\tnetscape_http\tVAL-nh-91c2`,
      `${host}\tFALSE\t/\tFALSE\t0\tnetscape_session\tVAL-ns-77aa`,
      '',
    ].join('\n'),
  );
  const jsonFile = join(home, 'state.json');
  await writeFile(
    jsonFile,
    JSON.stringify({
      cookies: [{ name: 'state_cookie', value: 'VAL-st-5d0e', domain: host, path: '/', expires: inAYear(), httpOnly: false, secure: false, sameSite: 'Lax' }],
      origins: [{ origin: server.origin, localStorage: [{ name: 'imported_ls', value: 'VAL-ls-c3f1' }] }],
    }),
  );
  const values = ['VAL-np-4b7e', 'VAL-nh-91c2', 'VAL-ns-77aa', 'VAL-st-5d0e', 'VAL-ls-c3f1'];
  const outputs: string[] = [];

  const a = await runCli(['sessions', 'import-cookies', txtFile, '--session', 'imp-txt'], { env });
  outputs.push(a.stdout, a.stderr);
  assert.equal(a.code, 0, a.stdout + a.stderr);
  assert.match(a.stdout, /IMPORTED cookies=3 domains=127\.0\.0\.1 origins=0 format=netscape into=profile /);
  assert.match(a.stdout, /1 session cookie/);

  const b = await runCli(['sessions', 'import-cookies', jsonFile, '--session', 'imp-json', '--json'], { env });
  outputs.push(b.stdout, b.stderr);
  assert.equal(b.code, 0, b.stdout + b.stderr);
  const bj = JSON.parse(b.stdout);
  assert.equal(bj.format, 'storageState');
  assert.equal(bj.cookies, 1);
  assert.equal(bj.origins, 1);
  assert.equal(bj.target, 'profile');

  const ra = await runCli(['run', '--session', 'imp-txt', readCookiesAndStorage(server.origin)], { env });
  assert.equal(ra.code, 0, ra.stdout + ra.stderr);
  assert.match(ra.stdout, /COOKIE=.*netscape_plain=VAL-np-4b7e/);
  assert.match(ra.stdout, /COOKIE=.*netscape_http=VAL-nh-91c2/);
  assert.match(ra.stdout, /COOKIE=.*netscape_session=VAL-ns-77aa/, 'a session cookie survives in the profile');
  assert.doesNotMatch(ra.stdout.split('\n').find((l) => l.startsWith('DOCCOOKIE='))!, /netscape_http/, '#HttpOnly_ cookie is HttpOnly');
  assert.doesNotMatch(ra.stdout, /state_cookie/, 'imports went to their own session only');

  const rb = await runCli(['run', '--session', 'imp-json', readCookiesAndStorage(server.origin)], { env });
  assert.equal(rb.code, 0, rb.stdout + rb.stderr);
  assert.match(rb.stdout, /COOKIE=.*state_cookie=VAL-st-5d0e/);
  assert.match(rb.stdout, /^LS=VAL-ls-c3f1$/m);

  // No sessions command prints a cookie value: list, gc (dry run), clear, with and without --json.
  for (const args of [['list'], ['list', '--json'], ['gc', '--older-than', '0s', '--dry-run'], ['gc', '--dry-run', '--json']]) {
    const r = await runCli(['sessions', ...args], { env });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    outputs.push(r.stdout, r.stderr);
  }
  // A broken file fails as a usage error without echoing it.
  const badFile = join(home, 'bad.txt');
  await writeFile(badFile, `${host}\tFALSE\t/\tFALSE\tnever\tbroken\tVAL-bad-0f0f\n`);
  const bad = await runCli(['sessions', 'import-cookies', badFile, '--session', 'imp-txt'], { env });
  assert.equal(bad.code, 2, bad.stdout + bad.stderr);
  assert.match(bad.stderr, /line 1/);
  outputs.push(bad.stdout, bad.stderr);
  const cleared = await runCli(['sessions', 'clear', 'imp-json'], { env });
  assert.equal(cleared.code, 0, cleared.stdout + cleared.stderr);
  outputs.push(cleared.stdout, cleared.stderr);

  const all = outputs.join('\n');
  for (const v of [...values, 'VAL-bad-0f0f']) assert.ok(!all.includes(v), `a sessions command printed the value ${v}`);
});

test('list shows key, profile, size, last use, lock; gc removes what is idle and keeps what is locked; clear', { timeout: 180_000 }, async () => {
  const h = await tempHome();
  const e = cliEnv(h);
  const quick = `const pg = await openTab(${lit(server.origin + '/echo-title?t=gc')}); console.log("GSTACK_STEP_OK");`;
  for (const key of ['gc-idle', 'gc-fresh']) {
    const r = await runCli(['run', '--session', key, quick], { env: e });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  }
  const p = (key: string) => sessionPaths(slugFor(key), { GSTACK_HOME: h });
  // gc-idle: last used 10 days ago. gc-fresh: used now, but one of its call dirs is 10 days old.
  const when = new Date(Date.now() - 10 * 86400e3);
  await writeFile(join(p('gc-idle').sessionDir, 'session.json'), JSON.stringify({ key: 'gc-idle', lastUsed: when.toISOString(), profileDir: p('gc-idle').profileDir }));
  for (const d of [p('gc-idle').profileDir, p('gc-idle').sessionDir, p('gc-idle').artifactsDir]) await utimes(d, when, when);
  const [oldCall] = await readdir(p('gc-fresh').artifactsDir);
  await utimes(join(p('gc-fresh').artifactsDir, oldCall), when, when);

  // gc-locked: a call is running in it right now, and it looks idle on disk.
  // It holds its lock until the test is done with it (holdScript).
  const locked = startCli(['run', '--session', 'gc-locked', `const pg = await openTab("about:blank"); console.log("READY"); ${holdScript()} console.log("GSTACK_STEP_OK");`], { env: e });
  await locked.waitFor(/READY/, 60_000);
  await writeFile(join(p('gc-locked').sessionDir, 'session.json'), JSON.stringify({ key: 'gc-locked', lastUsed: when.toISOString(), profileDir: p('gc-locked').profileDir }));
  for (const d of [p('gc-locked').profileDir, p('gc-locked').sessionDir, p('gc-locked').artifactsDir]) await utimes(d, when, when);

  const list = await runCli(['sessions', 'list'], { env: e });
  assert.equal(list.code, 0, list.stderr);
  const line = (key: string) => list.stdout.split('\n').find((l) => l.startsWith(`SESSION ${slugFor(key)} `)) ?? '';
  assert.match(line('gc-idle'), new RegExp(`key="gc-idle" profile=${p('gc-idle').profileDir} size=[\\d.]+(B|KiB|MiB) lastUse=${when.toISOString().slice(0, 16)}.* locked=no`));
  assert.match(line('gc-locked'), new RegExp(`locked=pid:${locked.pid}`));
  assert.match(list.stdout, /SESSIONS=3 /);
  const listJson = JSON.parse((await runCli(['sessions', 'list', '--json'], { env: e })).stdout);
  const lockedJson = listJson.sessions.find((s: { key: string }) => s.key === 'gc-locked');
  assert.equal(lockedJson.locked.pid, locked.pid);
  assert.ok(listJson.sessions.every((s: { sizeBytes: number }) => s.sizeBytes > 0));

  const dry = await runCli(['sessions', 'gc', '--older-than', '7d', '--dry-run'], { env: e });
  assert.match(dry.stdout, new RegExp(`WOULD_REMOVE ${slugFor('gc-idle')}`));
  assert.ok(existsSync(p('gc-idle').profileDir), 'dry run removes nothing');

  const gc = await runCli(['sessions', 'gc', '--older-than', '7d'], { env: e });
  assert.equal(gc.code, 0, gc.stdout + gc.stderr);
  assert.match(gc.stdout, new RegExp(`REMOVED ${slugFor('gc-idle')} key="gc-idle"`));
  assert.match(gc.stdout, new RegExp(`KEPT ${slugFor('gc-locked')} key="gc-locked" \\(locked by pid ${locked.pid}`));
  assert.match(gc.stdout, new RegExp(`PRUNED ${join(p('gc-fresh').artifactsDir, oldCall)}`));
  assert.match(gc.stdout, /GC removed=1 kept=2 prunedArtifacts=1/);
  for (const d of [p('gc-idle').profileDir, p('gc-idle').sessionDir, p('gc-idle').artifactsDir]) assert.equal(existsSync(d), false, d);
  assert.ok(existsSync(p('gc-fresh').profileDir), 'a session in use stays');
  assert.ok(existsSync(p('gc-locked').profileDir), 'a locked session stays');

  // clear on a locked session refuses with exit 4; on a free one it removes everything.
  const busy = await runCli(['sessions', 'clear', 'gc-locked'], { env: e });
  assert.equal(busy.code, 4, busy.stdout + busy.stderr);
  assert.match(busy.stderr, new RegExp(`pid ${locked.pid}`));
  release(locked);
  const done = await locked.done;
  assert.equal(done.code, 0, 'the running call was never disturbed: ' + done.stdout + done.stderr);

  const byslug = await runCli(['sessions', 'clear', slugFor('gc-fresh')], { env: e });
  assert.equal(byslug.code, 0, byslug.stdout + byslug.stderr);
  assert.match(byslug.stdout, new RegExp(`CLEARED ${slugFor('gc-fresh')} key="gc-fresh"`));
  assert.equal(existsSync(p('gc-fresh').profileDir), false);
  const missing = await runCli(['sessions', 'clear', 'never-existed'], { env: e });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No session "never-existed"/);

  // Now idle and unlocked, gc --older-than 0s takes the last one; a bad duration is a usage error.
  const gc0 = await runCli(['sessions', 'gc', '--older-than', '0s'], { env: e });
  assert.match(gc0.stdout, /GC removed=1 kept=0/);
  assert.match((await runCli(['sessions', 'list'], { env: e })).stdout, /^SESSIONS=0 /m);
  const badDuration = await runCli(['sessions', 'gc', '--older-than', 'soon'], { env: e });
  assert.equal(badDuration.code, 2);
  await rm(h, { recursive: true, force: true });
});

test('a gstack run call sweeps long-idle sessions by itself (once a day)', { timeout: 120_000 }, async () => {
  const h = await tempHome();
  const e = cliEnv(h, { GSTACK_HOUSEKEEPING: '' });
  const p = sessionPaths(slugFor('hk-stale'), { GSTACK_HOME: h });
  await mkdir(p.profileDir, { recursive: true });
  const old = new Date(Date.now() - 40 * 86400e3);
  await touchSession(p, 'hk-stale');
  await writeFile(join(p.sessionDir, 'session.json'), JSON.stringify({ key: 'hk-stale', lastUsed: old.toISOString(), profileDir: p.profileDir }));
  for (const d of [p.profileDir, p.sessionDir]) await utimes(d, old, old);
  const r = await runCli(['run', '--session', 'hk-live', 'console.log("GSTACK_STEP_OK")'], { env: e });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(join(h, HOUSEKEEPING_STAMP)), 'the call stamped its sweep');
  assert.equal(existsSync(p.profileDir), false, 'the 40-day-idle session was removed');
  assert.ok(existsSync(sessionPaths(slugFor('hk-live'), { GSTACK_HOME: h }).sessionDir), "the call's own session stays");
  // Its host and browser are this test's: stopped before the folder goes (a browser still writing
  // its profile made the removal fail, ENOTEMPTY, on a loaded CI machine).
  await runCli(['sessions', 'stop', 'hk-live'], { env: e });
  await rm(h, { recursive: true, force: true });
});

test('gc sweeps --ephemeral profiles a killed call left in the temp dir, never a locked or a new one', async () => {
  const { gcSessions } = await import('../driver/profiles/manage.js');
  const { acquireProfileLock } = await import('../driver/sessions/lock.js');
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const h = await tempHome();
  const old = new Date(Date.now() - 3600e3);
  const leftover = await mkdtemp(join(tmpdir(), 'gstack-ephemeral-'));
  const inUse = await mkdtemp(join(tmpdir(), 'gstack-ephemeral-'));
  const young = await mkdtemp(join(tmpdir(), 'gstack-ephemeral-'));
  await utimes(leftover, old, old);
  await utimes(inUse, old, old);
  const lock = await acquireProfileLock(inUse, { timeoutMs: 1000, key: 'ephemeral-call' });
  const r = await gcSessions({ home: h, olderThanMs: 0 });
  assert.ok(r.removedEphemeral.includes(leftover));
  assert.equal(existsSync(leftover), false);
  assert.ok(existsSync(inUse), 'locked ephemeral profile kept');
  assert.ok(existsSync(young), 'a just-created ephemeral profile kept');
  await lock.release();
  for (const d of [inUse, young, h]) await rm(d, { recursive: true, force: true });
});

test('a key only --ephemeral calls used lists with its key for its own caller, and as having no profile for others (trial V8)', { timeout: 120_000 }, async () => {
  const dir = join(home, 'ephemeral-only', 'work');
  const other = join(home, 'ephemeral-only', 'other');
  await mkdir(dir, { recursive: true });
  await mkdir(other, { recursive: true });
  const quiet = { ...env, GSTACK_SESSION_KEY: undefined, CLAUDE_SESSION_ID: undefined, CONDUCTOR_WORKSPACE_ID: undefined };
  const r = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--ephemeral', '--engine', 'chromium'], { cwd: dir, env: quiet });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const mine = await runCli(['sessions', 'list', '--mine'], { cwd: dir, env: quiet });
  assert.match(mine.stdout, new RegExp(`^SESSION \\S+ key=${JSON.stringify(dir).replace(/[/.]/g, '\\$&')} .*mine=yes$`, 'm'), mine.stdout);
  const theirs = await runCli(['sessions', 'list'], { cwd: other, env: quiet });
  assert.match(theirs.stdout, /^SESSION work-\S+ key=\? profile=none \(the files of --ephemeral or --profile calls only\) /m, theirs.stdout);
});
