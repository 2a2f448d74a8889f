// One call at a time per profile.
//
// The lock is a small JSON file next to the profile (`<profileDir>.lock`, never inside it, so
// removing or replacing a profile never races the lock). It is created atomically: the record
// is written to a private temp file and hard-linked into place, so the lock file either does
// not exist or holds a complete record (link(2) fails with EEXIST like O_EXCL does).
//
// Why not a lock library: proper-lockfile and friends detect staleness by mtime, which needs a
// refresh timer during the call and still strands the next call until the mtime ages out; they
// also cannot name the holder. Here the record carries pid + host + process start time, so a
// holder that died (SIGKILL, OOM) is seen as dead at once (kill(pid, 0) -> ESRCH) and a reused
// pid is told apart by its start time.
import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, lstat, mkdir, readFile, readdir, readlink, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { GstackError } from '../errors.js';
import { makePrivateDir, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './owner-only.js';

export interface LockHolder {
  /** The `gstack` process the call runs for: the one to stop to end the call. */
  pid: number;
  /** The process that runs the call for it, when that is a host (driver/hosts/). */
  runnerPid?: number;
  /** ISO time the holder took the lock. */
  since: string;
  /** Session key of the holder's call. */
  key: string;
  host: string;
}

export interface ProfileLock {
  release(): Promise<void>;

  holder: LockHolder;
}

interface LockRecord extends Omit<LockHolder, 'runnerPid'> {
  /** `pid` is the process holding the lock (its death frees it); `callerPid` the process the
   * call runs for, when another one (a host) runs it. */
  callerPid?: number;
  /** Random per-acquisition token: release removes the file only while it is still ours. */
  token: string;
  /** Kernel start time of the holder process (Linux), to tell a reused pid from the holder. */
  procStart?: string;
}

/** The lock wait passed --lock-timeout (exit PROFILE_BUSY). */
export class ProfileBusyError extends GstackError {
  constructor(
    readonly profileDir: string,
    readonly holder: LockHolder | undefined,
    readonly waitedMs: number,
  ) {
    super(
      `Profile busy: ${profileDir} is held by ${describeHolder(holder)}; gave up after waiting ${waitedMs} ms (--lock-timeout). ` +
        'Wait for that call to finish and retry (or raise --lock-timeout), run with another --session key, or use --ephemeral for a throwaway profile.',
      'PROFILE_BUSY',
    );
  }
}

export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return 'another call (holder unknown)';
  const host = holder.host === hostname() ? '' : ` on ${holder.host}`;
  const runner = holder.runnerPid ? `, run by the host pid ${holder.runnerPid}` : '';
  return `pid ${holder.pid}${host} (session "${holder.key}"${runner}) since ${holder.since}`;
}

export function lockPathFor(profileDir: string): string {
  return profileDir.replace(/[\\/]+$/, '') + '.lock';
}

/** A takeover mutex left by a process that died in the few ms it holds it is ignored after this. */
const TAKEOVER_STALE_MS = 5_000;
/** A lock file that cannot be parsed (foreign or truncated) counts as stale after this. */
const CORRUPT_STALE_MS = 10_000;

function procStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime); fields are counted after the ")" that ends the command name.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

type ReadResult = { kind: 'missing' } | { kind: 'record'; record: LockRecord } | { kind: 'corrupt'; mtimeMs: number };

async function readLock(lockPath: string): Promise<ReadResult> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  try {
    const record = JSON.parse(text) as LockRecord;
    if (typeof record.pid === 'number' && typeof record.token === 'string') return { kind: 'record', record };
  } catch {
    /* fall through */
  }
  const st = await stat(lockPath).catch(() => undefined);
  return st ? { kind: 'corrupt', mtimeMs: st.mtimeMs } : { kind: 'missing' };
}

/** True when the holder is certainly gone: same host and its pid is dead or was reused. A
 * holder on another host (shared home over NFS) is never presumed dead. */
function holderIsDead(record: LockHolder & { procStart?: string }): boolean {
  if (record.host !== hostname()) return false;
  // A zombie (killed, not yet reaped — e.g. reparented to a container init that never reaps)
  // answers kill(pid, 0) but is dead.
  if (!pidAlive(record.pid) || isZombie(record.pid)) return true;
  if (record.procStart) {
    const now = procStartTime(record.pid);
    if (now !== undefined && now !== record.procStart) return true;
  }
  return false;
}

function isStale(r: ReadResult): boolean {
  if (r.kind === 'record') return holderIsDead(r.record);
  if (r.kind === 'corrupt') return Date.now() - r.mtimeMs > CORRUPT_STALE_MS;
  return false;
}

async function tryCreate(lockPath: string, record: LockRecord): Promise<boolean> {
  const tmp = `${lockPath}.${process.pid}.${record.token}.tmp`;
  await writeFile(tmp, JSON.stringify(record) + '\n', { mode: PRIVATE_FILE_MODE });
  try {
    await link(tmp, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      // File systems without hard links: fall back to O_EXCL (a reader may briefly see an
      // empty file, which counts as "busy" until CORRUPT_STALE_MS).
      try {
        await writeFile(lockPath, JSON.stringify(record) + '\n', { flag: 'wx', mode: PRIVATE_FILE_MODE });
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw e;
      }
    }
    throw err;
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

/** Removes a stale lock. Two waiters may both see the same dead holder; the takeover mutex
 * makes sure only one of them removes it, and only if it is still the same stale record (so a
 * lock freshly taken by the other waiter is never removed). */
async function takeOver(lockPath: string, seen: ReadResult): Promise<boolean> {
  const mutex = lockPath + '.takeover';
  try {
    await writeFile(mutex, String(process.pid), { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Someone else is taking over (the caller polls again), unless that someone died mid-way.
    const owner = Number(await readFile(mutex, 'utf8').catch(() => ''));
    const st = await stat(mutex).catch(() => undefined);
    const ownerDead = owner > 0 && (!pidAlive(owner) || isZombie(owner));
    if (st && (ownerDead || Date.now() - st.mtimeMs > TAKEOVER_STALE_MS)) await unlink(mutex).catch(() => {});
    return false;
  }
  try {
    const now = await readLock(lockPath);
    const same =
      (now.kind === 'record' && seen.kind === 'record' && now.record.token === seen.record.token) ||
      (now.kind === 'corrupt' && seen.kind === 'corrupt');
    if (same && isStale(now)) {
      await unlink(lockPath).catch(() => {});
      return true;
    }
    return now.kind === 'missing';
  } finally {
    await unlink(mutex).catch(() => {});
  }
}

// Locks this process holds, removed synchronously if the process exits without releasing
// (process.exit from an error path, an uncaught exception). SIGKILL cannot be caught — that is
// what dead-holder takeover is for.
const held = new Map<string, string>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [lockPath, token] of held) releaseSync(lockPath, token);
  });
}

function releaseSync(lockPath: string, token: string): void {
  try {
    const record = JSON.parse(readFileSync(lockPath, 'utf8')) as LockRecord;
    if (record.token === token) unlinkSync(lockPath);
  } catch {
    /* gone or not ours */
  }
  held.delete(lockPath);
}

function abortError(signal: AbortSignal): Error {
  const reason = signal.reason;
  return reason instanceof Error ? reason : Object.assign(new Error('Lock wait aborted'), { name: 'AbortError' });
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal!));
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const WAIT_NOTICE_AFTER_MS = 1500;

/**
 * Takes the lock of `profileDir` for this call. Waits (polling with backoff, 25 ms up to
 * 500 ms) while a live process holds it, calling `onWait` once with the holder when the wait
 * has lasted WAIT_NOTICE_AFTER_MS; a dead holder's lock is taken over at once. Throws
 * ProfileBusyError after `timeoutMs`.
 */
export async function acquireProfileLock(
  profileDir: string,
  opts: { timeoutMs: number; key: string; onWait?: (holder: LockHolder) => void; signal?: AbortSignal; callerPid?: number },
): Promise<ProfileLock> {
  const lockPath = lockPathFor(profileDir);
  // 0700: the profiles/ and sessions/ dirs hold login cookies.
  await mkdir(dirname(lockPath), { recursive: true, mode: PRIVATE_DIR_MODE });
  const record = newRecord(opts);
  const started = Date.now();
  let waitMs = 25;
  let told = false;
  let lastHolder: LockHolder | undefined;
  for (;;) {
    if (opts.signal?.aborted) throw abortError(opts.signal);
    record.since = new Date().toISOString();
    if (await tryCreate(lockPath, record)) break;
    const current = await readLock(lockPath);
    if (current.kind === 'missing') continue; // released between our two calls: retry now
    if (isStale(current)) {
      if (await takeOver(lockPath, current)) continue; // removed: try to create it at once
      // Another waiter is taking it over: wait like for a live holder (timeout still applies).
    } else if (current.kind === 'record') {
      lastHolder = publicHolder(current.record);
    }
    // Said once the wait is a real one: a call taking over from one that is finishing (its tabs
    // closing, a client killed mid-call) waits a moment, which is not worth a notice.
    if (!told && lastHolder && Date.now() - started >= WAIT_NOTICE_AFTER_MS) {
      told = true;
      try {
        opts.onWait?.(lastHolder);
      } catch {
        /* a reporting callback never breaks the lock */
      }
    }
    const waited = Date.now() - started;
    if (waited >= opts.timeoutMs) throw new ProfileBusyError(profileDir, lastHolder, waited);
    await delay(Math.min(waitMs, Math.max(1, opts.timeoutMs - waited)), opts.signal);
    waitMs = Math.min(500, Math.round(waitMs * 1.6));
  }

  held.set(lockPath, record.token);
  installExitHook();
  let released = false;
  return {
    holder: publicHolder(record),
    async release() {
      if (released) return;
      released = true;
      const now = await readLock(lockPath).catch(() => ({ kind: 'missing' }) as ReadResult);
      if (now.kind === 'record' && now.record.token === record.token) await unlink(lockPath).catch(() => {});
      held.delete(lockPath);
    },
  };
}

/** A record of this process holding a lock (or marking a folder in use) for a call of `key`. */
function newRecord(opts: { key: string; callerPid?: number }): LockRecord {
  return {
    pid: process.pid,
    since: new Date().toISOString(),
    key: opts.key,
    host: hostname(),
    token: randomBytes(8).toString('hex'),
    procStart: procStartTime(process.pid),
    ...(opts.callerPid && opts.callerPid !== process.pid ? { callerPid: opts.callerPid } : {}),
  };
}

function publicHolder(r: LockRecord): LockHolder {
  if (r.callerPid) return { pid: r.callerPid, runnerPid: r.pid, since: r.since, key: r.key, host: r.host };
  return { pid: r.pid, since: r.since, key: r.key, host: r.host };
}

/** Who holds the lock of `profileDir` right now (undefined: free, or held by a dead process). */
export async function lockHolder(profileDir: string): Promise<LockHolder | undefined> {
  const r = await readLock(lockPathFor(profileDir)).catch(() => ({ kind: 'missing' }) as ReadResult);
  if (r.kind === 'record' && !holderIsDead(r.record)) return publicHolder(r.record);
  if (r.kind === 'corrupt' && !isStale(r)) return { pid: 0, since: new Date(r.mtimeMs).toISOString(), key: '?', host: '?' };
  return undefined;
}

const SINGLETONS = ['SingletonLock', 'SingletonSocket', 'SingletonCookie'];

/**
 * Removes the Singleton* entries a killed Chromium leaves in its profile (SingletonLock is a
 * symlink to "host-pid"; Chromium refuses the profile when that pid is alive again or the
 * hostname differs, e.g. another container). Call only while holding our profile lock: then
 * no Chromium of ours can be using the profile, so the entries are stale by construction.
 * A browser that outlived its dead call (SingletonLock names a live pid) is killed first.
 * Every call passes here before its browser starts, so the profile is also made owner-only
 * (a --profile DIR, or one made 0755 before this check existed). Returns the names removed.
 */
export async function clearStaleChromiumSingletons(profileDir: string): Promise<string[]> {
  await makePrivateDir(profileDir, { create: false });
  await killOrphanBrowser(profileDir);
  let names: string[];
  try {
    names = await readdir(profileDir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!SINGLETONS.includes(basename(name))) continue;
    const p = join(profileDir, name);
    // lstat: these are (usually dangling) symlinks; unlink the link, never its target.
    if (!(await lstat(p).catch(() => undefined))) continue;
    await unlink(p).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}

/**
 * If the profile's SingletonLock ("<host>-<pid>") names a live Chromium on this host that our
 * launch (browser/chromium-process.ts) started on exactly this profile, it is an orphan: every call of ours holds
 * the lock while its browser runs, and we hold the lock now. It would keep writing to the
 * profile under the next call's browser, so it is killed. The --remote-debugging-pipe check
 * keeps a person's own desktop browser (--profile pointing at it) safe.
 */
async function killOrphanBrowser(profileDir: string): Promise<void> {
  let target: string;
  try {
    target = await readlink(join(profileDir, 'SingletonLock'));
  } catch {
    return;
  }
  const m = /^(.*)-(\d+)$/.exec(target);
  if (!m || m[1] !== hostname()) return;
  const pid = Number(m[2]);
  if (pid === process.pid || !pidAlive(pid)) return;
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return; // no /proc (macOS): Chromium there exits when its pipe to the dead call closes
  }
  const dir = profileDir.replace(/[\\/]+$/, '');
  if (!args.includes(`--user-data-dir=${dir}`) || !args.includes('--remote-debugging-pipe')) return;
  // Its call died, so its pipe is closed and it is shutting down in order (flushing cookies):
  // give it a moment before the kill.
  for (let i = 0; i < 40 && pidAlive(pid) && !isZombie(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (!pidAlive(pid) || isZombie(pid)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  for (let i = 0; i < 40 && pidAlive(pid) && !isZombie(pid); i++) await new Promise((r) => setTimeout(r, 50));
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** The prefix of the files that say a call is using a session's folders without holding its
 * profile lock (an `--ephemeral` call's lock is on its temporary profile, a `--profile DIR`
 * call's on DIR): `sessions gc` and `clear` must not delete that call's pwd from under it. */
const IN_USE_PREFIX = '.in-use-';

/** Marks `dir` (a session's artifacts folder) as used by this call until the returned release. */
export async function markInUse(dir: string, opts: { key: string; callerPid?: number }): Promise<() => Promise<void>> {
  const record = newRecord(opts);
  const file = join(dir, `${IN_USE_PREFIX}${record.token}`);
  await writeFile(file, JSON.stringify(record), { mode: PRIVATE_FILE_MODE });
  return () => unlink(file).catch(() => undefined);
}

/** A live call that marked `dir` in use (markInUse), if any; the marks of dead ones are removed. */
export async function inUseBy(dir: string): Promise<LockHolder | undefined> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(IN_USE_PREFIX)) continue;
    const file = join(dir, name);
    const r = await readLock(file).catch(() => ({ kind: 'missing' }) as ReadResult);
    if (r.kind === 'record' && !holderIsDead(r.record)) return publicHolder(r.record);
    if (r.kind === 'record' || (r.kind === 'corrupt' && isStale(r))) await unlink(file).catch(() => undefined);
  }
  return undefined;
}
