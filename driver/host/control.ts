// Stopping hosts from outside (docs/ARCHITECTURE.md, "Hosts"): `gstack sessions stop`, a
// client whose host overran its deadline, and every command that opens a session's profile
// itself (an in-process call, `gstack login`, cookie imports, `sessions clear`), which must
// first stop the host that keeps that profile's browser running.
//
// A host is found through its singleton lock (the record names its pid), never through its
// socket, so a host is found whatever runtime directory the caller has. Built-ins only.
import { lockHolder } from '../sessions/lock.js';
import { hostLockTarget, openRuntimeDir } from './address.js';

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
export async function stopSessionHost(profileDir: string, graceMs = 10_000): Promise<number | undefined> {
  const holder = await lockHolder(hostLockTarget({ kind: 'session', profileDir }));
  if (!holder || !holder.pid || holder.pid === process.pid) return undefined;
  return stopByPid(holder.pid, graceMs);
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

/** Stops the user's render host, if one is up; returns its pid. */
export async function stopRenderHost(env: NodeJS.ProcessEnv): Promise<number | undefined> {
  let target: string;
  try {
    const dir = openRuntimeDir(env);
    if (!dir) return undefined;
    target = hostLockTarget({ kind: 'render' }, dir);
  } catch {
    return undefined;
  }
  const holder = await lockHolder(target);
  if (!holder?.pid) return undefined;
  return stopByPid(holder.pid, 10_000);
}
