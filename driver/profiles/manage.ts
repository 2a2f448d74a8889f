// What `gstack sessions list|gc|clear` do: find every session under GSTACK_HOME, report it,
// and remove idle ones — each removal under the session's own lock, so a running call's
// profile is never touched.
import { lstat, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gstackHome, sessionPaths, slugFor, type SessionPaths } from '../sessions/key.js';
import { acquireProfileLock, describeHolder, inUseBy, lockHolder, ProfileBusyError, type LockHolder, type ProfileLock } from '../sessions/lock.js';
import { readSessionRecord, type SessionRecord } from '../sessions/registry.js';

export interface SessionInfo {
  slug: string;
  /** The session key, from session.json (undefined when the session was never touched). */
  key?: string;
  kind?: SessionRecord['kind'];
  paths: SessionPaths;
  profileExists: boolean;
  hasStorageState: boolean;
  /** Bytes on disk of profile + session dir + artifacts (only when asked: it walks the tree). */
  sizeBytes?: number;
  /** Latest of session.json's lastUsed and the mtimes of the session's directories. */
  lastUsed?: Date;
  /** Set while a live call holds the profile lock. */
  lockedBy?: LockHolder;
}

function envWithHome(home: string | undefined, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return home ? { ...env, GSTACK_HOME: home } : env;
}

// Beside each profile: our lock files and a host's stop note (driver/hosts/control.ts), never sessions.
const IGNORED = /\.(lock|takeover|tmp|stop)$/;

async function namesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => !n.startsWith('.') && !IGNORED.test(n));
  } catch {
    return [];
  }
}

/** Sum of file sizes under `p` (symlinks counted as links, never followed). */
async function diskUsage(p: string): Promise<number> {
  const st = await lstat(p).catch(() => undefined);
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  let total = 0;
  const entries = await readdir(p).catch(() => [] as string[]);
  for (const e of entries) total += await diskUsage(join(p, e));
  return total;
}

async function mtime(p: string): Promise<number | undefined> {
  return (await stat(p).catch(() => undefined))?.mtimeMs;
}

export async function sessionInfo(
  slug: string,
  opts: { home?: string; env?: NodeJS.ProcessEnv; withSize?: boolean } = {},
): Promise<SessionInfo> {
  const paths = sessionPaths(slug, envWithHome(opts.home, opts.env ?? process.env));
  const record = await readSessionRecord(paths);
  const profileMtime = await mtime(paths.profileDir);
  const times = [
    record ? Date.parse(record.lastUsed) : undefined,
    profileMtime,
    await mtime(paths.sessionDir),
    await mtime(paths.artifactsDir),
  ].filter((t): t is number => typeof t === 'number' && !Number.isNaN(t));
  const info: SessionInfo = {
    slug,
    key: record?.key,
    kind: record?.kind,
    paths,
    profileExists: profileMtime !== undefined,
    hasStorageState: (await mtime(paths.storageStatePath)) !== undefined,
    lastUsed: times.length ? new Date(Math.max(...times)) : undefined,
    // Local calls lock the profile; remote calls (--connect/--cdp) lock the session dir.
    lockedBy: (await lockHolder(paths.profileDir)) ?? (await lockHolder(paths.sessionDir)) ?? (await inUseBy(paths.artifactsDir)),
  };
  if (opts.withSize) {
    info.sizeBytes =
      (await diskUsage(paths.profileDir)) + (await diskUsage(paths.sessionDir)) + (await diskUsage(paths.artifactsDir));
  }
  return info;
}

/** Every session that has a profile, a session dir or artifacts under GSTACK_HOME, newest first. */
export async function listSessions(opts: { home?: string; env?: NodeJS.ProcessEnv; withSize?: boolean } = {}): Promise<SessionInfo[]> {
  const home = opts.home ?? gstackHome(opts.env);
  const slugs = new Set<string>();
  for (const sub of ['profiles', 'sessions', 'artifacts']) for (const n of await namesIn(join(home, sub))) slugs.add(n);
  const out: SessionInfo[] = [];
  for (const slug of slugs) out.push(await sessionInfo(slug, { ...opts, home }));
  return out.sort((a, b) => (b.lastUsed?.getTime() ?? 0) - (a.lastUsed?.getTime() ?? 0));
}

const UNITS: Record<string, number> = { ms: 1, s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/** "7d", "12h", "30m", "90s", "2w", "0" -> milliseconds. Throws on anything else. */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/i.exec(text);
  if (!m || (!m[2] && Number(m[1]) !== 0)) {
    throw new Error(`"${text}" is not a duration: use a number with a unit, e.g. 7d, 12h, 30m, 90s`);
  }
  return Number(m[1]) * UNITS[(m[2] ?? 'ms').toLowerCase()];
}

/** A session slug from what a user typed: the session of that key when one exists, else an
 * existing slug as is, else the slug of that key. The key comes first: a key may spell another
 * session's slug (`--session a-b-c8687a08` beside the session "a b"), and `sessions stop` or
 * `clear` of one's own key must never reach the other session. */
export async function resolveSlug(keyOrSlug: string, home: string): Promise<string> {
  const own = slugFor(keyOrSlug);
  const existing = new Set<string>();
  for (const sub of ['profiles', 'sessions', 'artifacts']) for (const n of await namesIn(join(home, sub))) existing.add(n);
  if (existing.has(own)) return own;
  return existing.has(keyOrSlug) ? keyOrSlug : own;
}

export type RemoveOutcome = { removed: true; info: SessionInfo } | { removed: false; info: SessionInfo; reason: string };

/** Removes a session's profile, session dir and artifacts while holding its lock (so a call
 * starting now waits for us, and a call running now is never disturbed). */
async function removeSession(info: SessionInfo, why: string): Promise<RemoveOutcome> {
  const locks: ProfileLock[] = [];
  try {
    // Both locks a call may hold: the profile's (local) and the session dir's (remote).
    for (const target of [info.paths.profileDir, info.paths.sessionDir]) {
      locks.push(await acquireProfileLock(target, { timeoutMs: 0, key: `gstack sessions ${why}` }));
    }
    // A call that holds neither (--ephemeral, --profile DIR) marks the artifacts it writes in.
    const marked = await inUseBy(info.paths.artifactsDir);
    if (marked) return { removed: false, info: { ...info, lockedBy: marked }, reason: `in use by ${describeHolder(marked)}` };
    // The session's host keeps its browser on the profile between calls: stop it first.
    const { stopSessionHost } = await import('../hosts/control.js');
    await stopSessionHost(info.paths.profileDir);
    for (const p of [info.paths.profileDir, info.paths.sessionDir, info.paths.artifactsDir]) {
      await rm(p, { recursive: true, force: true, maxRetries: 3 });
    }
    return { removed: true, info };
  } catch (err) {
    if (err instanceof ProfileBusyError) {
      return { removed: false, info: { ...info, lockedBy: err.holder }, reason: `locked by ${err.holder ? describeHolder(err.holder) : 'another call'}` };
    }
    throw err;
  } finally {
    for (const l of locks.reverse()) await l.release();
  }
}

export interface GcResult {
  removed: SessionInfo[];
  kept: Array<{ info: SessionInfo; reason: string }>;
  /** Per-call artifact dirs removed from sessions that are still in use. */
  prunedArtifacts: string[];
  /** Leftover --ephemeral profiles of killed calls, removed from the temp dir. */
  removedEphemeral: string[];
}

/**
 * Removes every session idle for longer than `olderThanMs` (profile, session dir, artifacts),
 * never one whose lock is held. In sessions that stay, per-call artifact dirs older than
 * `artifactsOlderThanMs` (default: the same) are pruned.
 */
export async function gcSessions(opts: {
  olderThanMs: number;
  artifactsOlderThanMs?: number;
  home?: string;
  env?: NodeJS.ProcessEnv;
  dryRun?: boolean;
  now?: number;
}): Promise<GcResult> {
  const now = opts.now ?? Date.now();
  const result: GcResult = { removed: [], kept: [], prunedArtifacts: [], removedEphemeral: [] };
  for (const info of await listSessions({ home: opts.home, env: opts.env })) {
    if (info.lockedBy) {
      result.kept.push({ info, reason: `locked by ${describeHolder(info.lockedBy)}` });
      continue;
    }
    const idleMs = now - (info.lastUsed?.getTime() ?? 0);
    if (idleMs > opts.olderThanMs) {
      if (opts.dryRun) {
        result.removed.push(info);
        continue;
      }
      const r = await removeSession(info, 'gc');
      if (r.removed) result.removed.push(info);
      else result.kept.push({ info, reason: r.reason });
      continue;
    }
    result.kept.push({ info, reason: 'in use' });
    const cutoff = now - (opts.artifactsOlderThanMs ?? opts.olderThanMs);
    for (const call of await namesIn(info.paths.artifactsDir)) {
      const dir = join(info.paths.artifactsDir, call);
      const t = await mtime(dir);
      if (t !== undefined && t < cutoff) {
        if (!opts.dryRun) await rm(dir, { recursive: true, force: true });
        result.prunedArtifacts.push(dir);
      }
    }
  }
  if (!opts.dryRun) result.removedEphemeral = await sweepEphemeral(now - Math.max(opts.olderThanMs, EPHEMERAL_MIN_AGE_MS));
  return result;
}

/** `--ephemeral` profiles (driver/runner/run-script.ts: mkdtemp "gstack-ephemeral-") are removed when their
 * call ends; one whose call was SIGKILLed stays behind in the temp dir. Ours, unlocked and older
 * than this are swept (the age guard covers the moment between mkdtemp and taking the lock). */
const EPHEMERAL_PREFIX = 'gstack-ephemeral-';
const EPHEMERAL_MIN_AGE_MS = 15 * 60e3;

async function sweepEphemeral(cutoff: number): Promise<string[]> {
  const removed: string[] = [];
  const dir = tmpdir();
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(EPHEMERAL_PREFIX) || IGNORED.test(name)) continue;
    const p = join(dir, name);
    const st = await lstat(p).catch(() => undefined);
    if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid) || st.mtimeMs >= cutoff) continue;
    if (await lockHolder(p)) continue;
    await rm(p, { recursive: true, force: true }).catch(() => {});
    await rm(p + '.lock', { force: true }).catch(() => {});
    removed.push(p);
  }
  return removed;
}

/** Removes one session entirely. Refuses (ProfileBusyError) while a call holds it. */
export async function clearSession(slug: string, opts: { home?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RemoveOutcome> {
  const info = await sessionInfo(slug, opts);
  return removeSession(info, 'clear');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
