// Where background hosts listen, and which build they run (docs/ARCHITECTURE.md, "Hosts").
//
// Owns: the per-user runtime directory (checked once, then used through an open directory
// handle so a rename between the check and the use cannot redirect us), the socket name of a
// session host (one per profile directory) and of the render host (one per user), and the
// build id that tells a client whether a host runs the same code. Loaded by the thin `gstack`
// entry before anything else, so it imports Node built-ins only.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from '../catalog.js';

/** Bumped when a message changes shape: a client never talks to a host of another version. */
export const PROTOCOL_VERSION = 2;

/** The host program, bundled next to the CLI (absent in a tsc-only build: then no hosts). */
export function hostEntry(): string {
  return join(PROJECT_ROOT, 'dist', 'bin', 'host.js');
}

let cachedBuild: string | undefined | null = null;

/**
 * Identifies the code a host runs: Node's version, the protocol, the CLI and host bundles (size
 * and mtime change on every build; the catalog is inside them). A client that finds a host of another
 * build asks it to stop and starts one of its own. Undefined without the bundles.
 */
export function buildId(fresh = false): string | undefined {
  if (cachedBuild !== null && !fresh) return cachedBuild;
  try {
    const stamp = [join(PROJECT_ROOT, 'dist', 'bin', 'gstack.cjs'), hostEntry()]
      .map((f) => {
        const st = statSync(f);
        return `${st.size}:${st.mtimeMs}`;
      })
      .join('|');
    cachedBuild = createHash('sha256').update(`${process.version}|${PROTOCOL_VERSION}|${stamp}`).digest('hex').slice(0, 16);
  } catch {
    cachedBuild = undefined;
  }
  return cachedBuild;
}

export class UnsafeRuntimeDirError extends Error {}

export interface RuntimeDir {
  /** The directory as the user knows it (for messages and `sessions list`). */
  path: string;
  /**
   * The prefix to build socket and lock paths from. On Linux it is `/proc/self/fd/<fd>`, a
   * handle on the directory we checked: the kernel resolves it to that very directory even if
   * someone renames or replaces the path afterwards, and it keeps socket paths far below the
   * ~108-byte limit. Elsewhere it is the checked path itself.
   */
  prefix: string;
}

let openedDir: { path: string; fd: number } | undefined;

/** The directory hosts listen in: `$XDG_RUNTIME_DIR/gstack` (a per-user tmpfs) or
 * `~/.gstack/run`. Per user, not per GSTACK_HOME: socket names carry the profile's path. */
export function runtimeDirPath(env: NodeJS.ProcessEnv): string {
  return env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'gstack') : join(env.HOME || homedir(), '.gstack', 'run');
}

/**
 * Opens (creating it 0700 if asked) the runtime directory and checks it through the open
 * handle: a directory of ours, closed to group and others, reached without following a
 * symlink, in a parent that no other user can rename it out of (owned by us or root, or
 * sticky, or not writable by others). Throws UnsafeRuntimeDirError when a check fails: the
 * caller then runs without hosts and says why. Undefined when it does not exist and `create`
 * is false.
 */
export function openRuntimeDir(env: NodeJS.ProcessEnv, create = false): RuntimeDir | undefined {
  const path = runtimeDirPath(env);
  if (openedDir?.path === path) return { path, prefix: prefixFor(openedDir) };
  if (create) {
    try {
      mkdirSync(path, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new UnsafeRuntimeDirError(`cannot create ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new UnsafeRuntimeDirError(`${path} is not a plain directory (${code})`);
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const st = fstatSync(fd);
  const problem =
    uid !== undefined && st.uid !== uid
      ? `it belongs to uid ${st.uid}, not to you`
      : (st.mode & 0o077) !== 0
        ? `its mode is ${(st.mode & 0o777).toString(8)}; it must be 700`
        : parentProblem(path, uid);
  if (problem) {
    closeSync(fd);
    throw new UnsafeRuntimeDirError(`${path} is not safe for host sockets: ${problem}`);
  }
  openedDir = { path, fd };
  return { path, prefix: prefixFor(openedDir) };
}

function prefixFor(d: { path: string; fd: number }): string {
  return process.platform === 'linux' ? `/proc/self/fd/${d.fd}` : d.path;
}

/** Another user who may write to the parent could rename our directory away and put theirs in
 * its place (we would notice through the handle, but refuse early and say why). */
function parentProblem(path: string, uid: number | undefined): string | undefined {
  if (uid === undefined) return undefined;
  const parent = dirname(path);
  try {
    const st = lstatSync(parent);
    const othersMayWrite = (st.mode & 0o022) !== 0;
    const sticky = (st.mode & 0o1000) !== 0;
    if (st.uid !== uid && st.uid !== 0 && othersMayWrite && !sticky) return `its parent ${parent} is writable by others`;
    if (st.uid === uid && othersMayWrite && !sticky) return `its parent ${parent} is writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  } catch {
    /* the parent vanished under us: the open handle still says what we use */
  }
  return undefined;
}

/** What a host serves: the calls of one session profile, or every render of this user. */
export type HostTarget = { kind: 'session'; profileDir: string } | { kind: 'render' };

/** The stem of a host's files in the runtime dir: `s-<hash of the profile dir>` or `render`.
 * Per profile, not per build: a client that finds an older build's host asks it to stop
 * first, so two hosts never open one profile. */
export function hostStem(target: HostTarget): string {
  if (target.kind === 'render') return 'render';
  return 's-' + createHash('sha256').update(target.profileDir).digest('hex').slice(0, 20);
}

export interface HostAddress {
  /** Socket path to connect to / listen on (through the runtime dir's handle on Linux). */
  socket: string;
  /** Target of the host's singleton lock (`<target>.lock`, see sessions/lock.ts): next to the
   * profile for a session host, so a profile has one host whatever runtime dir a call names;
   * in the runtime dir for the render host. The record names the host's pid. */
  lockTarget: string;
  /** The same socket as the user sees it, for messages. */
  displaySocket: string;
}

export function hostAddress(dir: RuntimeDir, target: HostTarget): HostAddress {
  const stem = hostStem(target);
  return { socket: join(dir.prefix, `${stem}.sock`), lockTarget: hostLockTarget(target, dir), displaySocket: join(dir.path, `${stem}.sock`) };
}

export function hostLockTarget(target: HostTarget, dir?: RuntimeDir): string {
  if (target.kind === 'session') return target.profileDir.replace(/[\\/]+$/, '') + '.host';
  if (!dir) throw new Error('the render host lock lives in the runtime dir');
  return join(dir.prefix, 'render.host');
}
