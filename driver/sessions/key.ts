// Session key resolution and on-disk layout.
// key: --session > GSTACK_SESSION_KEY > CLAUDE_SESSION_ID > CONDUCTOR_WORKSPACE_ID >
//      git worktree top level > cwd.   slug: readable tail + short hash of the whole key.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, realpathSync, statSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

export type KeySource = 'flag' | 'GSTACK_SESSION_KEY' | 'CLAUDE_SESSION_ID' | 'CONDUCTOR_WORKSPACE_ID' | 'git' | 'cwd';

export interface SessionKey {
  key: string;
  source: KeySource;
  slug: string;
}

export function gstackHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.GSTACK_HOME || join(homedir(), '.gstack'));
}

/** Finds the git worktree top level by walking up to a `.git` entry (file for linked
 * worktrees, dir for the main one) — no `git` process on the hot path. */
export function gitTopLevel(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) {
      try {
        const st = statSync(dotGit);
        // Only a small regular file is read (a linked worktree's `gitdir: …` line): a `.git`
        // that is a FIFO or a device would hold this synchronous read, and the process with it,
        // where no signal handler can run (pass 30, C30).
        if (st.isDirectory() || (st.isFile() && st.size <= 4096 && /^gitdir:/.test(readFileSync(dotGit, 'utf8')))) return dir;
      } catch {
        /* unreadable: keep walking */
      }
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export function slugFor(key: string): string {
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
  const tail = basename(key.replace(/[\\/]+$/, '')) || key;
  // Cut to its last 32 characters before the leading dashes and dots go: a cut that starts at
  // a dash made a slug `sessions clear SLUG` read as a flag (red-team pass 23, C23).
  const readable = tail
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+$/g, '')
    .slice(-32)
    .replace(/^[-.]+/, '');
  return `${readable || 'session'}-${hash}`;
}

export function resolveSessionKey(opts: { session?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): SessionKey {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const pick = (key: string, source: KeySource): SessionKey => ({ key, source, slug: slugFor(key) });
  if (opts.session) return pick(opts.session, 'flag');
  for (const name of ['GSTACK_SESSION_KEY', 'CLAUDE_SESSION_ID', 'CONDUCTOR_WORKSPACE_ID'] as const) {
    const v = env[name];
    if (v && v.trim()) return pick(v.trim(), name);
  }
  const top = gitTopLevel(cwd);
  if (top) return pick(top, 'git');
  return pick(resolve(cwd), 'cwd');
}

export interface SessionPaths {
  home: string;
  /** Per-session state: profile/, storage-state.json (remote browsers), session.json. */
  sessionDir: string;
  profileDir: string;
  /** Parent of this session's per-call artifact dirs. */
  artifactsDir: string;
  storageStatePath: string;
}

export function sessionPaths(slug: string, env: NodeJS.ProcessEnv = process.env): SessionPaths {
  const home = gstackHome(env);
  const sessionDir = join(home, 'sessions', slug);
  return {
    home,
    sessionDir,
    profileDir: join(home, 'profiles', slug),
    artifactsDir: join(home, 'artifacts', slug),
    storageStatePath: join(sessionDir, 'storage-state.json'),
  };
}

/** The profile directory `--profile DIR` names, as its real path: the profile lock and the
 * session host are keyed by the path, so a link to a profile in use must name that profile,
 * not a second one its lock does not cover (two browsers on one profile). A path that does
 * not exist yet is taken as given (the browser creates it). */
/** Why a `--profile` path cannot be a browser profile (a file, a FIFO or a device there, a
 * kernel file system, a name longer than the file system takes), or undefined: Chromium would
 * fail on it with advice about its binary, and the lock file beside it would land elsewhere
 * (pass 30, C30). A path that does not exist yet is a new profile. */
export function profileProblem(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (/^\/(?:proc|sys|dev)(?:\/|$)/.test(dir)) return 'it is in a kernel file system (/proc, /sys, /dev), not a folder a browser can keep a profile in. Give a directory of your own, or leave --profile out to use the session\'s profile.';
  if (dir.split('/').some((part) => Buffer.byteLength(part) > 255) || Buffer.byteLength(dir) > 4000) return 'the path is longer than the file system takes. Give a shorter directory.';
  try {
    const st = statSync(dir);
    if (!st.isDirectory()) return `it is ${st.isFile() ? 'a file' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device'}, not a directory. Give a directory (a new one is created), or leave --profile out to use the session's profile.`;
  } catch (err) {
    // Not there yet is a new profile; anything else Chromium would fail on with advice about
    // its binary (pass 41, C41): a loop of links, a path through a file, a link to nowhere.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'it is a loop of symbolic links. Give a directory (a new one is created), or leave --profile out to use the session\'s profile.';
    if (code === 'ENOTDIR') return 'it leads through a file, which cannot hold a directory. Give a directory (a new one is created), or leave --profile out to use the session\'s profile.';
    for (let up = dir; dirname(up) !== up; up = dirname(up)) {
      if (lstatSync(up, { throwIfNoEntry: false })?.isSymbolicLink() && !existsSync(up)) {
        return `${up === dir ? 'it is' : `it leads through ${up}, which is`} a symbolic link to a directory that does not exist. Create that directory, or give another.`;
      }
    }
  }
  // GSTACK_HOME holds the sessions' own profiles and records: a browser there would write
  // beside them and show as a session of its own (`--profile ~/.gstack/profiles/x/Default`;
  // pass 35, C35).
  const home = gstackHome(env);
  const inHome = relative(realOrWritten(home), realOrWritten(dir));
  const outsideHome = inHome === '..' || inHome.startsWith('../') || isAbsolute(inHome);
  // A session's own profile (`profiles/<slug>`) is one; anything else there is not.
  if (!outsideHome && !/^profiles\/[^/]+$/.test(inHome)) return `it is inside GSTACK_HOME (${home}), where the sessions keep their profiles and records. Give a directory outside it, or --session KEY to use a session's profile.`;
  // Inside another profile (`--profile <a session's profile>/Default`): a second browser would
  // write into that profile's own folders, under no lock of its, while its browser runs
  // (pass 34, C34). A profile folder is known by Chromium's `Local State` file.
  for (let up = dirname(dir); ; up = dirname(up)) {
    if (existsSync(join(up, 'Local State'))) return `it is inside the Chromium profile ${up}: a browser here would write into that profile while its own browser may be running. Give a directory outside it, or --profile ${up} itself.`;
    if (dirname(up) === up) break;
  }
  return undefined;
}

export function givenProfileDir(cwd: string, profile: string): string {
  return realOrWritten(resolve(cwd, profile));
}

/** `p`'s real path, or `p` as written when it does not exist yet. */
function realOrWritten(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
