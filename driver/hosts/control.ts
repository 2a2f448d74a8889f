// Stopping hosts from outside (docs/ARCHITECTURE.md, "Hosts"): `gstack sessions stop`, a
// client whose host overran its deadline, and every command that opens a session's profile
// itself (an in-process call, `gstack login`, cookie imports, `sessions clear`), which must
// first stop the host that keeps that profile's browser running.
//
// A host is found through its singleton lock (the record names its pid), never through its
// socket, so a host is found whatever runtime directory the caller has. Built-ins only.
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { lockHolder } from '../sessions/lock.js';
import { hostLockTarget, openRuntimeDir } from './address.js';
import { parseStopCause, type StopCause } from '../stop-cause.js';

// ---- Stop notes: who stopped a host ----
//
// A signal carries no sender, so whoever stops a host leaves a note next to the host's singleton
// lock first (`<lock target>.stop`, owner-only): the command and its pid. The host reads it when
// the signal arrives and aborts its running call with that cause; a client whose host vanished
// mid-call reads it too. A note older than a minute is stale (a stop that never happened).
const NOTE_MAX_AGE_MS = 60_000;

const notePath = (lockTarget: string) => lockTarget + '.stop';

export function writeStopNote(lockTarget: string, cause: StopCause): void {
  try {
    writeFileSync(notePath(lockTarget), JSON.stringify(cause), { mode: 0o600 });
  } catch {
    /* the stop still happens; the call just cannot say who did it */
  }
}

/** The cause a stopper left for the host of `lockTarget`, if fresh. */
export function readStopNote(lockTarget: string): StopCause | undefined {
  try {
    const p = notePath(lockTarget);
    if (Date.now() - statSync(p).mtimeMs > NOTE_MAX_AGE_MS) return undefined;
    return parseStopCause(JSON.parse(readFileSync(p, 'utf8')));
  } catch {
    return undefined;
  }
}

/** A new host owns its lock: a note left for the previous one is not about it. */
export function clearStopNote(lockTarget: string): void {
  rmSync(notePath(lockTarget), { force: true });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Ends a host that cannot be asked (its script never yields) together with its browser. A
 * host leads its own process group and its browser runs in that group. The host is killed at
 * once (it cannot act anyway); the browser is first sent SIGTERM, on which Chromium shuts down
 * in order and writes its cookies to the profile, and is killed if it is still there after
 * `graceMs`.
 */
export async function killHostTree(pid: number, graceMs = 1_500): Promise<void> {
  if (!pid || pid === process.pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return; // no process of the group is left
  }
  const until = Date.now() + graceMs;
  while (Date.now() < until && groupAlive(pid)) await sleep(25);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* the browser shut down by itself */
  }
  for (let i = 0; i < 40 && groupAlive(pid); i++) await sleep(25);
}

/**
 * Stops the host that keeps `profileDir`'s browser running, if there is one, and returns once
 * its browser has closed (so the profile is free). The host is asked with SIGTERM: it finishes
 * nothing more, closes its browser in order and exits; one that has not gone after `graceMs`
 * (a script that never yields) is ended with its browser. Returns the pid it stopped.
 */
export async function stopSessionHost(profileDir: string, opts: StopOptions = {}): Promise<number | undefined> {
  const lockTarget = hostLockTarget({ kind: 'session', profileDir });
  const holder = await lockHolder(lockTarget);
  if (!holder || !holder.pid || holder.pid === process.pid) return undefined;
  if (opts.by) writeStopNote(lockTarget, { kind: 'command', command: opts.by, pid: process.pid });
  return stopByPid(holder.pid, opts.graceMs ?? 10_000);
}

export interface StopOptions {
  /** The command that stops the host, as a user would type it (`gstack sessions stop --all
   * --force`): a call the stop interrupts names it. */
  by?: string;
  /** How long the host may take to close its browser in order before it is killed. */
  graceMs?: number;
}

async function stopByPid(pid: number, graceMs: number): Promise<number | undefined> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return undefined;
  }
  const until = Date.now() + graceMs;
  while (Date.now() < until && (alive(pid) || groupAlive(pid))) await sleep(25);
  if (alive(pid) || groupAlive(pid)) await killHostTree(pid);
  return pid;
}

/** The pid of the host of `profileDir`, when one is up. */
export async function sessionHostPid(profileDir: string): Promise<number | undefined> {
  return (await lockHolder(hostLockTarget({ kind: 'session', profileDir })))?.pid || undefined;
}

/** The user's render host lock target, when the runtime dir is usable. */
function renderLockTarget(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const dir = openRuntimeDir(env);
    return dir ? hostLockTarget({ kind: 'render' }, dir) : undefined;
  } catch {
    return undefined;
  }
}

/** The pid of the user's render host, when one is up. */
export async function renderHostPid(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  const target = renderLockTarget(env);
  return (target && (await lockHolder(target))?.pid) || undefined;
}

/** Stops the user's render host, if one is up; returns its pid. */
export async function stopRenderHost(env: NodeJS.ProcessEnv, opts: StopOptions = {}): Promise<number | undefined> {
  const target = renderLockTarget(env);
  if (!target) return undefined;
  const holder = await lockHolder(target);
  if (!holder?.pid) return undefined;
  if (opts.by) writeStopNote(target, { kind: 'command', command: opts.by, pid: process.pid });
  return stopByPid(holder.pid, opts.graceMs ?? 10_000);
}
