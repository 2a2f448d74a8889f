// The warm worker's wire format and where it listens (issue 8, DESIGN section 10).
//
// Why a warm worker: with Chromium's headless shell a browser answers in ~55 ms, so what is
// left of a call's fixed cost is Node itself loading ~7 MB of Playwright (~250 ms) and our own
// modules on one core. The worker is a per-user background Node process that has loaded them
// once and runs each browser command (run, cookbook, render, pdf, diagram) handed to it: for
// every flow call a fresh vm sandbox, its own session lock, a freshly started Chromium on that
// session's profile, closed at the end (a render gets its own throwaway Chromium). It holds no
// browser, page, cookie or script state between calls; what is shared is loaded code (and the
// host objects a script could reach by breaking out of the vm, which is no security boundary).
// GSTACK_NO_WARM=1 turns it off (every call then runs in its own process).
//
// Messages are newline-delimited JSON over a Unix socket in an owner-only directory.
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CATALOG_PATH, PROJECT_ROOT } from '../catalog.js';

/** Bumped when a message changes shape; part of the socket name, so old workers are never asked. */
export const PROTOCOL_VERSION = 1;

/** Calls one worker runs at once; a client that finds it full runs the call itself. */
export const MAX_CONCURRENT_CALLS = 4;

/** What a command invoked through the worker reads and writes: the client's streams, stdin,
 * environment, directory and abort (the client's SIGINT/SIGTERM, or the client going away). */
export interface WarmIo {
  out(text: string): void;
  err(text: string): void;
  readStdin(): Promise<string>;
  env: NodeJS.ProcessEnv;
  cwd: string;
  columns?: number;
  signal: AbortSignal;
  /** The invoking `gstack` process, when it is not this one. */
  callerPid?: number;
}

export type ClientMessage =
  | { t: 'cli'; argv: string[]; env: Record<string, string>; cwd: string; columns?: number; trace: boolean; pid: number }
  | { t: 'stdin'; data: string }
  | { t: 'abort' };

export type WorkerMessage =
  | { t: 'hello'; pid: number; accepting: boolean }
  | { t: 'busy' }
  | { t: 'accepted' }
  | { t: 'out'; s: string }
  | { t: 'err'; s: string }
  | { t: 'need-stdin' }
  | { t: 'exit'; code: number };

export function encode(msg: ClientMessage | WorkerMessage): string {
  return JSON.stringify(msg) + '\n';
}

/** Splits a byte stream into messages; a malformed line is reported, never thrown. A chunk
 * may end inside a multi-byte character: the StringDecoder keeps those bytes for the next. */
export function decoder(onMessage: (msg: unknown) => void): (chunk: Buffer) => void {
  const utf8 = new StringDecoder('utf8');
  let buffered = '';
  return (chunk) => {
    buffered += utf8.write(chunk);
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line) continue;
      try {
        onMessage(JSON.parse(line));
      } catch {
        onMessage(undefined);
      }
    }
  };
}

/** The worker's entry script, next to the CLI bundle; absent in a tsc-only build. */
export function workerEntry(): string {
  return join(PROJECT_ROOT, 'dist', 'bin', 'warm-worker.js');
}

/**
 * Identifies the code a worker runs: Node's version, the protocol, the CLI and worker bundles
 * (size and mtime change on every build) and the catalog (read once per process). A rebuilt
 * project, an edited catalog or another Node gets another socket, so a client is never served
 * by older code. Undefined without the bundles.
 */
export function buildId(): string | undefined {
  try {
    const stamp = [join(PROJECT_ROOT, 'dist', 'bin', 'gstack.js'), workerEntry(), CATALOG_PATH]
      .map((f) => {
        const st = statSync(f);
        return `${st.size}:${st.mtimeMs}`;
      })
      .join('|');
    return createHash('sha256').update(`${process.version}|${PROTOCOL_VERSION}|${stamp}`).digest('hex').slice(0, 16);
  } catch {
    return undefined;
  }
}

/**
 * The directory workers listen in: $XDG_RUNTIME_DIR/gstack (a per-user tmpfs) or
 * ~/.gstack/warm. Per user, not per GSTACK_HOME: the worker takes each call's environment
 * with the call, so one worker serves every session of its user. Created 0700; undefined (no
 * warm path) if it is not a directory owned by us and closed to others.
 */
export function warmDir(env: NodeJS.ProcessEnv = process.env, create = false): string | undefined {
  const dir = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'gstack') : join(env.HOME || homedir(), '.gstack', 'warm');
  try {
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
    if (!st.isDirectory() || !mine || (st.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

export interface WorkerAddress {
  dir: string;
  id: string;
  socket: string;
}

export function workerAddress(env: NodeJS.ProcessEnv = process.env, create = false): WorkerAddress | undefined {
  if (env.GSTACK_NO_WARM && env.GSTACK_NO_WARM !== '0') return undefined;
  const id = buildId();
  const dir = id ? warmDir(env, create) : undefined;
  if (!id || !dir) return undefined;
  const socket = join(dir, `w-${id}.sock`);
  // A Unix socket path is limited to ~104-108 bytes; a longer one means no warm path.
  if (Buffer.byteLength(socket) > 100) return undefined;
  return { dir, id, socket };
}

/** The worker's singleton lock (driver/sessions/lock.ts): `<dir>/w-<id>.lock` names its pid. */
export function workerLockTarget(address: WorkerAddress): string {
  return join(address.dir, `w-${address.id}`);
}
