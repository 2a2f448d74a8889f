// Unit tests of the profile lock: mutual exclusion, waiting + onWait, ProfileBusyError,
// dead-holder takeover (also under a race of several waiters), pid reuse, idempotent release,
// release on process exit, and Chromium Singleton cleanup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import {
  acquireProfileLock,
  clearStaleChromiumSingletons,
  lockHolder,
  lockPathFor,
  ProfileBusyError,
  type LockHolder,
} from '../driver/sessions/lock.js';

async function tempProfile(): Promise<{ dir: string; profile: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'gstack-lock-'));
  const profile = join(dir, 'profiles', 'p1');
  await mkdir(profile, { recursive: true });
  return { dir, profile };
}

/** A pid that certainly belongs to no running process: a child that already exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

test('lock file lives next to the profile and names the holder', async () => {
  const { dir, profile } = await tempProfile();
  const lock = await acquireProfileLock(profile, { timeoutMs: 1000, key: 'k1' });
  assert.equal(lockPathFor(profile), profile + '.lock');
  const rec = JSON.parse(await readFile(profile + '.lock', 'utf8'));
  assert.equal(rec.pid, process.pid);
  assert.equal(rec.key, 'k1');
  assert.equal(rec.host, hostname());
  assert.ok(!Number.isNaN(Date.parse(rec.since)));
  assert.deepEqual(lock.holder, { pid: rec.pid, since: rec.since, key: 'k1', host: rec.host });
  assert.deepEqual(await readdir(profile), [], 'nothing is written inside the profile');
  assert.equal((await lockHolder(profile))?.pid, process.pid);
  await lock.release();
  await lock.release(); // idempotent
  assert.equal(existsSync(profile + '.lock'), false);
  assert.equal(await lockHolder(profile), undefined);
  await rm(dir, { recursive: true, force: true });
});

test('a second caller waits, is told the holder once the wait is a real one, and gets the lock after release', async () => {
  const { dir, profile } = await tempProfile();
  // A moment's wait (a call taking over from one that is finishing) is not worth a notice.
  const brief = await acquireProfileLock(profile, { timeoutMs: 1000, key: 'brief' });
  const briefWaits: LockHolder[] = [];
  setTimeout(() => void brief.release(), 300);
  await (await acquireProfileLock(profile, { timeoutMs: 5000, key: 'after-brief', onWait: (h) => briefWaits.push(h) })).release();
  assert.equal(briefWaits.length, 0, 'no notice for a wait under 1.5 s');

  const first = await acquireProfileLock(profile, { timeoutMs: 1000, key: 'first' });
  const waits: LockHolder[] = [];
  const t0 = Date.now();
  setTimeout(() => void first.release(), 2200);
  const second = await acquireProfileLock(profile, { timeoutMs: 5000, key: 'second', onWait: (h) => waits.push(h) });
  assert.ok(Date.now() - t0 >= 2150, 'second waited for the release');
  assert.equal(waits.length, 1, 'onWait is called exactly once');
  assert.equal(waits[0].key, 'first');
  assert.equal(waits[0].pid, process.pid);
  assert.equal(second.holder.key, 'second');
  // A late release of the first lock must not remove the second one's file.
  await first.release();
  assert.equal((await lockHolder(profile))?.key, 'second');
  await second.release();
  await rm(dir, { recursive: true, force: true });
});

test('lock wait past timeoutMs throws ProfileBusyError (exit 4) naming holder and remedies', async () => {
  const { dir, profile } = await tempProfile();
  const first = await acquireProfileLock(profile, { timeoutMs: 1000, key: 'holder-key' });
  const t0 = Date.now();
  const err = await acquireProfileLock(profile, { timeoutMs: 400, key: 'late' }).then(
    () => assert.fail('should not get the lock'),
    (e: unknown) => e,
  );
  const elapsed = Date.now() - t0;
  assert.ok(err instanceof ProfileBusyError);
  assert.equal(err.exitCode, 4);
  assert.ok(elapsed >= 380 && elapsed < 1500, `waited ${elapsed} ms`);
  assert.match(err.message, new RegExp(`pid ${process.pid}`));
  assert.match(err.message, /holder-key/);
  assert.match(err.message, /since \d{4}-\d\d-\d\dT/);
  assert.match(err.message, /--session/);
  assert.match(err.message, /--ephemeral/);
  assert.match(err.message, /retry/);
  await first.release();
  await rm(dir, { recursive: true, force: true });
});

test('a lock whose holder pid is dead is taken over at once, and only by one of several racers', async () => {
  const { dir, profile } = await tempProfile();
  const pid = deadPid();
  await writeFile(
    profile + '.lock',
    JSON.stringify({ pid, since: new Date(Date.now() - 60_000).toISOString(), key: 'dead', host: hostname(), token: 'old' }),
  );
  const t0 = Date.now();
  const a = await acquireProfileLock(profile, { timeoutMs: 30_000, key: 'a' });
  assert.ok(Date.now() - t0 < 1000, 'no waiting for a dead holder');
  await a.release();

  // Five racers see the same dead holder: the lock is still exclusive.
  await writeFile(
    profile + '.lock',
    JSON.stringify({ pid, since: new Date().toISOString(), key: 'dead', host: hostname(), token: 'old2' }),
  );
  let inside = 0;
  let maxInside = 0;
  await Promise.all(
    Array.from({ length: 5 }, async (_, i) => {
      const l = await acquireProfileLock(profile, { timeoutMs: 10_000, key: 'r' + i });
      inside++;
      maxInside = Math.max(maxInside, inside);
      await new Promise((r) => setTimeout(r, 30));
      inside--;
      await l.release();
    }),
  );
  assert.equal(maxInside, 1);
  await rm(dir, { recursive: true, force: true });
});

test('a live pid with another process start time (pid reuse) counts as dead', async () => {
  const { dir, profile } = await tempProfile();
  await writeFile(
    profile + '.lock',
    JSON.stringify({ pid: process.pid, since: new Date().toISOString(), key: 'reused', host: hostname(), token: 't', procStart: '1' }),
  );
  const l = await acquireProfileLock(profile, { timeoutMs: 200, key: 'new' });
  assert.equal(l.holder.key, 'new');
  await l.release();
  await rm(dir, { recursive: true, force: true });
});

test('a holder on another host is never presumed dead', async () => {
  const { dir, profile } = await tempProfile();
  await writeFile(
    profile + '.lock',
    JSON.stringify({ pid: deadPid(), since: new Date().toISOString(), key: 'remote', host: 'other-host', token: 't' }),
  );
  const err = await acquireProfileLock(profile, { timeoutMs: 200, key: 'x' }).catch((e) => e);
  assert.ok(err instanceof ProfileBusyError);
  assert.match(err.message, /on other-host/);
  await rm(dir, { recursive: true, force: true });
});

test('abort signal stops the wait', async () => {
  const { dir, profile } = await tempProfile();
  const first = await acquireProfileLock(profile, { timeoutMs: 1000, key: 'first' });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 150);
  const t0 = Date.now();
  const err = await acquireProfileLock(profile, { timeoutMs: 10_000, key: 'x', signal: ac.signal }).catch((e) => e);
  assert.ok(Date.now() - t0 < 2000);
  assert.ok(!(err instanceof ProfileBusyError));
  assert.equal(err?.name, 'AbortError', `the wait ended by the abort, not otherwise: ${err}`);
  assert.equal((await lockHolder(profile))?.key, 'first', 'the aborted waiter did not take the lock');
  await first.release();
  await rm(dir, { recursive: true, force: true });
});

test('the lock is removed when the holding process exits without releasing', async () => {
  const { dir, profile } = await tempProfile();
  const mod = new URL('../driver/sessions/lock.ts', import.meta.url).href;
  const code = `const { acquireProfileLock } = await import(${JSON.stringify(mod)});
    await acquireProfileLock(${JSON.stringify(profile)}, { timeoutMs: 1000, key: 'child' });
    console.log('LOCKED'); process.exit(7);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const rc = await new Promise((r) => child.on('exit', r));
  assert.equal(rc, 7);
  assert.match(out, /LOCKED/);
  assert.equal(existsSync(profile + '.lock'), false, 'exit hook removed the lock');
  await rm(dir, { recursive: true, force: true });
});

test('clearStaleChromiumSingletons removes dangling Singleton links and nothing else', async () => {
  const { dir, profile } = await tempProfile();
  await symlink('somehost-99999', join(profile, 'SingletonLock'));
  await symlink('/tmp/does-not-exist/SingletonSocket', join(profile, 'SingletonSocket'));
  await symlink('1234567', join(profile, 'SingletonCookie'));
  await writeFile(join(profile, 'Local State'), '{}');
  const removed = await clearStaleChromiumSingletons(profile);
  assert.deepEqual(removed.sort(), ['SingletonCookie', 'SingletonLock', 'SingletonSocket']);
  assert.deepEqual(await readdir(profile), ['Local State']);
  assert.deepEqual(await clearStaleChromiumSingletons(join(dir, 'missing')), []);
  await rm(dir, { recursive: true, force: true });
});

test('clearStaleChromiumSingletons kills an orphaned Playwright browser still on the profile, never another program', async () => {
  const { dir, profile } = await tempProfile();
  const spawnFake = (args: string[]) =>
    spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', ...args], { stdio: 'ignore' });
  // A browser a dead call launched on this profile (Playwright passes both flags).
  const orphan = spawnFake([`--user-data-dir=${profile}`, '--remote-debugging-pipe']);
  const orphanExit = new Promise((r) => orphan.on('exit', (_c, sig) => r(sig)));
  await symlink(`${hostname()}-${orphan.pid}`, join(profile, 'SingletonLock'));
  await clearStaleChromiumSingletons(profile);
  assert.equal(await orphanExit, 'SIGKILL');
  assert.equal(existsSync(join(profile, 'SingletonLock')), false);

  // A person's own browser on that profile (no --remote-debugging-pipe) is left alone.
  const own = spawnFake([`--user-data-dir=${profile}`]);
  await symlink(`${hostname()}-${own.pid}`, join(profile, 'SingletonLock'));
  await clearStaleChromiumSingletons(profile);
  assert.equal(own.exitCode, null);
  assert.equal(own.signalCode, null);
  own.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

test('a takeover mutex left by a process that died mid-takeover does not block the lock', async () => {
  const { dir, profile } = await tempProfile();
  const pid = deadPid();
  await writeFile(profile + '.lock', JSON.stringify({ pid, since: new Date().toISOString(), key: 'dead', host: hostname(), token: 'x' }));
  await writeFile(profile + '.lock.takeover', String(pid));
  const t0 = Date.now();
  const l = await acquireProfileLock(profile, { timeoutMs: 3000, key: 'after' });
  assert.ok(Date.now() - t0 < 1000);
  assert.equal(existsSync(profile + '.lock.takeover'), false);
  await l.release();
  await rm(dir, { recursive: true, force: true });
});
