// Confinement to a call's artifact dir (`pwd`): the `fs` global of a flow script, and the
// writer every other script-reachable API that takes a `path` goes through (driver/runtime/tabs.ts).
//
// The rule: a script-given path names a place under `pwd`, and no symbolic link is followed on
// the way to it — not even one that points back inside. Checking the path first and using it
// afterwards is not enough: a concurrent process can swap a directory for a symlink in between
// and redirect the write. So on Linux every operation walks the path one component at a time
// from a handle on `pwd`, each step opened with O_DIRECTORY|O_NOFOLLOW relative to the
// previous directory's fd (`/proc/self/fd/<fd>/<name>` resolves relative to the directory that
// fd refers to: Node's stand-in for openat(2)), and the last step (open, mkdir, unlink, rename,
// rmdir, lstat) never follows a link either. Where /proc/self/fd is missing (macOS) the
// fallback checks real paths before the operation and, for files it opens, checks after
// opening that the handle is the file the real path names: reads and writes stay confined,
// but a swap racing mkdir/rename/rm/unlink there can still reach outside.
//
// New files are 0600 and new directories 0700: pwd lives under GSTACK_HOME, where screenshots
// of logged-in pages are as private as the cookies.
import { constants as C, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { isAnyArrayBuffer } from 'node:util/types';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { AgentError, sealScriptFacing } from '../errors.js';
import { cutSeenSecrets, shownLine, stripControls } from './output.js';
import { pathLookAlike } from './look-alike.js';

export class ConfinementError extends AgentError {
  constructor(p: string, root: string, why = '') {
    super(`fs refused ${JSON.stringify(p)}: flow scripts may only read and write inside pwd (${root})${why}. ${DOWNLOAD_TEMP.test(p) ? DOWNLOAD_HINT : 'Use path.join(pwd, "name").'}`, 'FS_CONFINED');
  }
}

/** Where Playwright keeps a download while the call runs (what `download.path()` answers): a
 * script that reads it there is told the way that works (pass 42, C42). */
const DOWNLOAD_TEMP = /(?:^|[\\/])playwright-artifacts-[^\\/]+[\\/][^\\/]+$/;
const DOWNLOAD_HINT = 'That is where Playwright keeps a download while the call runs (download.path()): save it under pwd first, await download.saveAs(path.join(pwd, download.suggestedFilename())), then read that.';
sealScriptFacing(ConfinementError);

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;
const PROC_FD = '/proc/self/fd';
const LINK = ', and symbolic links are never followed';

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

type Data = string | Uint8Array | AsyncIterable<Uint8Array | string>;

/** A script-given path, checked lexically: `shown` is what error messages quote, `parts` the
 * components below pwd (empty for pwd itself). */
interface Target {
  shown: string;
  parts: string[];
}

/** How entries of a directory under pwd are addressed once that directory is verified. */
type At = (name: string) => string;

interface Walker {
  /** Runs `fn` with the directory `parts` names (created 0700 when `create`), never through a
   * link; `at(name)` addresses an entry of it for one operation. */
  inDir<T>(t: Target, parts: string[], create: boolean, fn: (at: At) => Promise<T>): Promise<T>;
  /** Fallback only: the handle opened from `at(name)` is the file the real path names, inside. */
  verify(fh: FileHandle, t: Target, path: string): Promise<void>;
  /** Removes `name` in the directory `at` addresses (a directory's content first when recursive). */
  remove(at: At, name: string, recursive: boolean): Promise<void>;
}

/** What every script-reachable API uses to touch files under `pwd`. */
export interface Confinement {
  readonly pwd: string;
  /** The real path `p` names today, or ConfinementError. For failing fast before slow work (a
   * screenshot); it guarantees nothing about a later use of that string — write through
   * `writeFile`, read through `readFile`. */
  check(p: unknown): Promise<string>;
  /** Creates or replaces `p` (parents 0700, file 0600) with `data`, never through a link. */
  writeFile(p: unknown, data: Data, opts?: { append?: boolean; encoding?: BufferEncoding }): Promise<void>;
  readFile(p: unknown): Promise<Buffer>;
}

class ConfinedPaths {
  readonly root: Promise<string>;
  readonly walker: Promise<Walker>;

  constructor(
    readonly pwd: string,
    useProcFd: boolean,
  ) {
    this.root = fsp.realpath(pwd);
    this.walker = this.root.then(async (root) => ((useProcFd && (await procFdWorks(root))) ? procFdWalker(root, pwd) : realpathWalker(root, pwd)));
    // Awaited by the first operation; a pwd that does not exist fails that one, not the process.
    this.walker.catch(() => undefined);
  }

  async target(p: unknown): Promise<Target> {
    if (typeof p !== 'string' && !(p instanceof URL)) throw new AgentError(`fs paths must be strings (got ${typeof p}).`);
    const shown = p instanceof URL ? p.pathname : p;
    const root = await this.root;
    const abs = resolve(this.pwd, shown);
    // pwd may be given through a link (/tmp -> /private/tmp): accept either spelling.
    const base = inside(this.pwd, abs) ? this.pwd : inside(root, abs) ? root : undefined;
    if (base === undefined) throw new ConfinementError(shown, this.pwd);
    const parts = relative(base, abs).split(sep).filter(Boolean);
    // A name a page chose (its title, a link's text) may carry controls or invisible characters
    // (an RLO that shows `exe.pdf` as `fdp.exe`, tag characters): in the user's folder, after
    // --out, `ls` would show the person another name than the agent reads. Such names are refused.
    // Look-alike slashes and dots (∕ ╱ ノ ／ ․ ꓸ) make a name read as a path it is not
    // (`home∕user∕.ssh∕authorized_keys`): refused with the invisible ones, and so is anything
    // outside look-alike.ts's allow-list.
    const odd = parts.find((part) => stripControls(part) !== part || pathLookAlike(part) !== undefined);
    if (odd !== undefined) {
      throw new AgentError(`fs refused ${JSON.stringify(stripControls(shown))}: the name holds control, invisible or look-alike characters (a slash or dot that is not one, or a character a name from a page may not hold; controls shown here as U+FFFD), which would show another name in a file listing than the one read. Clean a name taken from the page first, e.g. name.replace(/[^\\w. -]/gu, "_").`, 'FS_CONFINED');
    }
    // A name made of page text (a title, a download's suggested name) can hold the value of a
    // secret field the call has seen: every line that names the file is cut of it, but the file
    // itself would keep it under that name, in pwd and in the user's --out folder (pass 30, A30).
    // The refusal names it relative to pwd: the folders above are the runner's (the artifact
    // folder is named after the session key), and a piece of the secret there would print cut
    // too, a path nobody can open (trial V17).
    if (parts.some((part) => cutSeenSecrets(part) !== part)) {
      throw new AgentError(`fs refused ${JSON.stringify(shownLine(parts.join('/')))}: the name holds the value of a secret field this call has seen (shown here as [redacted]), which a file listing would show. Name the file without the page's value, e.g. "page-1.png".`, 'FS_CONFINED');
    }
    return { shown, parts };
  }

  async run<T>(p: unknown, fn: (w: Walker, t: Target) => Promise<T>): Promise<T> {
    const t = await this.target(p);
    try {
      return await fn(await this.walker, t);
    } catch (err) {
      throw scriptFacing(err, [t.shown], await this.root);
    }
  }

  refuse(t: Target, why = ''): never {
    throw new ConfinementError(t.shown, this.pwd, why);
  }

  /** Opens the file `t` names with `flags` (O_NOFOLLOW added) in its verified directory. */
  async open(w: Walker, t: Target, flags: number, create: boolean): Promise<FileHandle> {
    if (!t.parts.length) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${t.shown}'`), { code: 'EISDIR' });
    const leaf = t.parts[t.parts.length - 1];
    return w.inDir(t, t.parts.slice(0, -1), create, async (at) => {
      let fh: FileHandle;
      try {
        fh = await fsp.open(at(leaf), flags | C.O_NOFOLLOW, FILE_MODE);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ELOOP') this.refuse(t, LINK);
        throw err;
      }
      try {
        await w.verify(fh, t, at(leaf));
      } catch (err) {
        await fh.close();
        throw err;
      }
      return fh;
    });
  }
}

/** Node's own error for the operation, with the script's path in place of /proc/self/fd/N. */
function scriptFacing(err: unknown, shown: string[], root: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (err instanceof AgentError || typeof e?.message !== 'string') return err;
  const ours = (p: string) => p.startsWith(PROC_FD + '/') || p === root || p.startsWith(root + sep);
  let i = 0;
  e.message = e.message.replace(/'([^']*)'/g, (all, p: string) => (ours(p) ? `'${shown[Math.min(i++, shown.length - 1)]}'` : all));
  if (typeof e.path === 'string' && ours(e.path)) e.path = shown[0];
  if (typeof (e as { dest?: string }).dest === 'string') (e as { dest?: string }).dest = shown[shown.length - 1];
  return e;
}

/** A stat, access or readdir is done by opening the path (never through a link): its error
 * names the operation the script called, as Node's own would (`ENOENT: …, stat 'a.txt'`), not
 * the open behind it (pass 42, C42). */
async function saidAs<T>(syscall: string, op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (!(err instanceof AgentError) && typeof e?.message === 'string' && typeof e.code === 'string') {
      e.message = e.message.replace(/^(\w+: [^,]*), open '/, `$1, ${syscall} '`);
      e.syscall = syscall;
    }
    throw err;
  }
}

/** The kernel gives /proc/self/fd/<fd>/<name> the openat semantics we rely on (Linux). */
async function procFdWorks(root: string): Promise<boolean> {
  try {
    const fh = await fsp.open(root, C.O_RDONLY | C.O_DIRECTORY);
    try {
      const [a, b] = await Promise.all([fh.stat(), fsp.stat(`${PROC_FD}/${fh.fd}/.`)]);
      return a.ino === b.ino && a.dev === b.dev;
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
}

function procFdWalker(root: string, pwd: string): Walker {
  const atFd = (fd: number): At => (name) => `${PROC_FD}/${fd}/${name}`;
  const openDirAt = (fd: number, name: string) => fsp.open(atFd(fd)(name), C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
  const isLink = async (path: string) => (await fsp.lstat(path).catch(() => undefined))?.isSymbolicLink() ?? false;
  return {
    async inDir(t, parts, create, fn) {
      let dir = await fsp.open(root, C.O_RDONLY | C.O_DIRECTORY);
      try {
        for (const name of parts) {
          let next: FileHandle;
          try {
            next = await openDirAt(dir.fd, name);
          } catch (err) {
            const code = (err as NodeJS.ErrnoException).code;
            if (code === 'ENOENT' && create) {
              await fsp.mkdir(atFd(dir.fd)(name), DIR_MODE).catch((e: NodeJS.ErrnoException) => {
                if (e.code !== 'EEXIST') throw e;
              });
              next = await openDirAt(dir.fd, name).catch(async (e: NodeJS.ErrnoException) => {
                if (e.code === 'ENOTDIR' && (await isLink(atFd(dir.fd)(name)))) throw new ConfinementError(t.shown, pwd, LINK);
                throw e;
              });
            } else if (code === 'ENOTDIR' && (await isLink(atFd(dir.fd)(name)))) {
              throw new ConfinementError(t.shown, pwd, LINK);
            } else {
              throw err;
            }
          }
          await dir.close();
          dir = next;
        }
        return await fn(atFd(dir.fd));
      } finally {
        await dir.close().catch(() => undefined);
      }
    },
    async verify() {
      /* the walk itself is the guarantee */
    },
    async remove(at, name, recursive) {
      const removeAt = async (dirAt: At, entry: string): Promise<void> => {
        try {
          return await fsp.unlink(dirAt(entry)); // never follows: a link is removed, not its target
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
        }
        if (!recursive) throw Object.assign(new Error(`Path is a directory: rm returned EISDIR (is a directory) '${dirAt(entry)}'`), { code: 'ERR_FS_EISDIR' });
        const sub = await fsp.open(dirAt(entry), C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW);
        try {
          for (const child of await fsp.readdir(`${PROC_FD}/${sub.fd}`)) await removeAt(atFd(sub.fd), child);
        } finally {
          await sub.close();
        }
        await fsp.rmdir(dirAt(entry));
      };
      await removeAt(at, name);
    },
  };
}

/** Real path of `p`, or of its deepest existing ancestor with the rest appended. */
async function realpathOfExisting(p: string): Promise<string> {
  const rest: string[] = [];
  for (let cur = p; ; ) {
    try {
      return resolve(await fsp.realpath(cur), ...rest.reverse());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      const up = resolve(cur, '..');
      if (up === cur) return p;
      rest.push(relative(up, cur));
      cur = up;
    }
  }
}

function realpathWalker(root: string, pwd: string): Walker {
  const checkReal = async (t: Target, path: string) => {
    if (!inside(root, await realpathOfExisting(path))) throw new ConfinementError(t.shown, pwd, LINK);
  };
  return {
    async inDir(t, parts, create, fn) {
      const dir = join(root, ...parts);
      await checkReal(t, dir);
      if (create) {
        await fsp.mkdir(dir, { recursive: true, mode: DIR_MODE });
        await checkReal(t, dir); // created through a link swapped in meanwhile?
      }
      // The entry itself is not resolved here: unlink, rename, rmdir and mkdir do not follow a
      // final link, and opens add O_NOFOLLOW and are verified.
      return fn((name) => join(dir, name));
    },
    async verify(fh, t, path) {
      const real = await fsp.realpath(path);
      const [opened, named] = await Promise.all([fh.stat(), fsp.stat(real)]);
      if (!inside(root, real) || opened.ino !== named.ino || opened.dev !== named.dev) throw new ConfinementError(t.shown, pwd, LINK);
    },
    async remove(at, name, recursive) {
      await fsp.rm(at(name), { recursive });
    },
  };
}

async function writeAll(fh: FileHandle, data: Data, encoding?: BufferEncoding): Promise<void> {
  if (typeof data === 'string' || data instanceof Uint8Array) return fh.writeFile(data, encoding ? { encoding } : undefined);
  for await (const chunk of data) await fh.write(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
}

function confined(pwd: string, useProcFd = true) {
  const paths = new ConfinedPaths(pwd, useProcFd);
  const WRITE = C.O_WRONLY | C.O_CREAT;
  const READ = C.O_RDONLY | C.O_NONBLOCK; // a FIFO must not hang the call

  const writeFile = (p: unknown, data: Data, opts: { append?: boolean; encoding?: BufferEncoding } = {}) =>
    paths.run(p, async (w, t) => {
      // No O_TRUNC at open: the fallback verifies the handle before anything is changed.
      const fh = await paths.open(w, t, opts.append ? WRITE | C.O_APPEND : WRITE, !opts.append);
      try {
        if (!opts.append) await fh.truncate(0);
        await writeAll(fh, data, opts.encoding);
      } finally {
        await fh.close();
      }
    });
  const readFile = (p: unknown) =>
    paths.run(p, async (w, t) => {
      const fh = await paths.open(w, t, READ, false);
      try {
        return await fh.readFile();
      } finally {
        await fh.close();
      }
    });
  /** Runs `fn` on the entry `t` names, in its verified parent (pwd itself has no parent). */
  const onLeaf = <T>(w: Walker, t: Target, create: boolean, fn: (at: At, leaf: string) => Promise<T>) =>
    t.parts.length ? w.inDir(t, t.parts.slice(0, -1), create, (at) => fn(at, t.parts[t.parts.length - 1])) : w.inDir(t, [], false, (at) => fn(at, '.'));
  const check = async (p: unknown): Promise<string> => {
    const t = await paths.target(p);
    const root = await paths.root;
    const real = await realpathOfExisting(join(root, ...t.parts));
    if (!inside(root, real)) throw new ConfinementError(t.shown, pwd, LINK);
    return real;
  };
  const confinement: Confinement = { pwd, check, writeFile, readFile };

  // Like node:fs/promises: bytes without an encoding, text with one.
  function readText(p: string): Promise<Buffer>;
  function readText(p: string, enc: string | { encoding: string }): Promise<string>;
  async function readText(p: string, enc?: string | { encoding?: string }): Promise<Buffer | string> {
    const buf = await readFile(p);
    const encoding = typeof enc === 'string' ? enc : enc?.encoding;
    return encoding ? buf.toString(encoding as BufferEncoding) : buf;
  }

  /** A path's Stats, opened (never through a link) and verified, so the answer is for the file
   * it checked, not for whatever the path names a moment later. */
  const statOf = (p: string): Promise<Stats> =>
    paths.run(p, async (w, t) => {
      if (!t.parts.length) return w.inDir(t, [], false, (at) => fsp.stat(at('.')));
      const fh = await paths.open(w, t, READ, false);
      try {
        return await fh.stat();
      } finally {
        await fh.close();
      }
    });
  const fs = Object.freeze({
    readFile: readText,
    // Checked before the file is opened, so a refused call leaves no empty file behind.
    async writeFile(p: string, d: unknown, opts?: unknown) {
      const o = writeOptions(opts, 'writeFile');
      await writeFile(p, seenSecretsCut(toData(d, 'writeFile'), o.encoding), o);
    },
    async appendFile(p: string, d: unknown, opts?: unknown) {
      const o = writeOptions(opts, 'appendFile');
      await writeFile(p, seenSecretsCut(toData(d, 'appendFile'), o.encoding), { ...o, append: true });
    },
    async mkdir(p: string, opts?: { recursive?: boolean }): Promise<string | undefined> {
      return paths.run(p, async (w, t) => {
        if (!t.parts.length) {
          if (opts?.recursive === false) throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${t.shown}'`), { code: 'EEXIST' });
          return undefined;
        }
        const recursive = opts?.recursive !== false;
        const first = recursive ? await firstMissing(w, t) : undefined;
        return onLeaf(w, t, recursive, async (at, leaf) => {
          try {
            await fsp.mkdir(at(leaf), DIR_MODE);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !recursive) throw err;
            const st = await fsp.lstat(at(leaf));
            if (st.isSymbolicLink()) paths.refuse(t, LINK);
            if (!st.isDirectory()) throw err;
          }
          return first;
        });
      });
    },
    async readdir(p = '.', opts?: unknown): Promise<string[]> {
      // It answers names only: Node's { withFileTypes } (Dirents) or { recursive } would be
      // dropped without a word, and `d.isDirectory()` then fails far from here (pass 35, C35).
      const o = opts as { withFileTypes?: unknown; recursive?: unknown } | undefined;
      if (o && typeof o === 'object' && (o.withFileTypes || o.recursive)) {
        throw new AgentError(`fs.readdir: { ${o.withFileTypes ? 'withFileTypes' : 'recursive'} } is not taken: it answers the names in one folder. For a name's kind use (await fs.stat(path.join(dir, name))).isDirectory(); for a tree, readdir each folder.`);
      }
      return saidAs('scandir', paths.run(p, (w, t) => w.inDir(t, t.parts, false, async (at) => fsp.readdir(at('.')))));
    },
    async stat(p: string): Promise<Stats> {
      return saidAs('stat', statOf(p));
    },
    async access(p: string) {
      await saidAs('access', statOf(p));
    },
    async rm(p: string, opts?: { recursive?: boolean; force?: boolean }) {
      return paths.run(p, async (w, t) => {
        if (!t.parts.length) throw new AgentError('fs.rm refused: pwd itself cannot be removed.');
        try {
          await onLeaf(w, t, false, (at, leaf) => w.remove(at, leaf, !!opts?.recursive));
        } catch (err) {
          if (!(opts?.force && (err as NodeJS.ErrnoException).code === 'ENOENT')) throw err;
        }
      });
    },
    async unlink(p: string) {
      return paths.run(p, async (w, t) => {
        if (!t.parts.length) throw new AgentError('fs.unlink refused: pwd itself cannot be removed.');
        await onLeaf(w, t, false, (at, leaf) => fsp.unlink(at(leaf)));
      });
    },
    async rename(a: string, b: string) {
      const [ta, tb] = await Promise.all([paths.target(a), paths.target(b)]);
      if (!ta.parts.length || !tb.parts.length) throw new AgentError('fs.rename refused: pwd itself cannot be moved or replaced.');
      const w = await paths.walker;
      try {
        // Both parents stay open (verified) while rename(2) runs, which follows neither name.
        await onLeaf(w, ta, false, (atA, leafA) => onLeaf(w, tb, false, (atB, leafB) => fsp.rename(atA(leafA), atB(leafB))));
      } catch (err) {
        throw scriptFacing(err, [a, b], await paths.root);
      }
    },
    async copyFile(a: string, b: string) {
      const [ta, tb] = await Promise.all([paths.target(a), paths.target(b)]);
      const w = await paths.walker;
      try {
        const src = await paths.open(w, ta, READ, false);
        try {
          const dest = await paths.open(w, tb, WRITE, false);
          try {
            await dest.truncate(0);
            const buf = Buffer.allocUnsafe(1 << 20);
            for (let n; (n = (await src.read(buf, 0, buf.length, null)).bytesRead) > 0; ) await dest.write(buf, 0, n);
          } finally {
            await dest.close();
          }
        } finally {
          await src.close();
        }
      } catch (err) {
        throw scriptFacing(err, [a, b], await paths.root);
      }
    },
  });

  /** Node's recursive mkdir returns the first directory it created: the script's spelling of it. */
  async function firstMissing(w: Walker, t: Target): Promise<string | undefined> {
    for (let i = 1; i <= t.parts.length; i++) {
      const exists = await w.inDir(t, t.parts.slice(0, i - 1), false, (at) => fsp.lstat(at(t.parts[i - 1])).then(() => true, () => false)).catch(() => false);
      if (!exists) return join(pwd, ...t.parts.slice(0, i));
    }
    return undefined;
  }

  return { fs, confinement };
}

/** What node:fs/promises writes: a string, or bytes (a Buffer, any typed array or DataView, an
 * ArrayBuffer), also when made in the script's own realm, where `instanceof Uint8Array` is false
 * (a script's `new Uint8Array([1, 2])` was written as the text `1,2`; pass 30, C30). Anything
 * else is refused, as Node refuses it, instead of written as `[object Object]`. */
/** Text a script writes is cut of the secrets the call has seen, as its printed lines are: a
 * summary file with a title the page copied a password into kept it, and `--out` copied it out
 * (pass 34, A34). Bytes (a Buffer, an image) and text given as base64 or hex are the script's
 * data, written as they are. */
function seenSecretsCut(data: string | Uint8Array, encoding: BufferEncoding | undefined): string | Uint8Array {
  if (typeof data !== 'string' || encoding === 'base64' || encoding === 'base64url' || encoding === 'hex') return data;
  return cutSeenSecrets(data);
}

function toData(d: unknown, fn: string): string | Uint8Array {
  if (typeof d === 'string') return d;
  if (ArrayBuffer.isView(d)) return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  if (isAnyArrayBuffer(d)) return Buffer.from(d);
  throw new AgentError(`fs.${fn}: the data must be a string, a Buffer, a typed array or an ArrayBuffer (got ${d === null ? 'null' : typeof d}), as in Node. Write an object as JSON.stringify(value), a number as String(n).`);
}

/** node:fs/promises' options of writeFile and appendFile: an encoding, or `{ encoding, flag,
 * flush }` with the flags that mean write or append. A `mode` is refused: files a script writes
 * are the user's own (0600), whatever it asks. */
function writeOptions(opts: unknown, fn: string): { encoding?: BufferEncoding; append?: boolean } {
  if (opts === undefined || opts === null) return {};
  const check = (encoding: unknown): BufferEncoding | undefined => {
    if (encoding === undefined || encoding === null) return undefined;
    if (typeof encoding === 'string' && Buffer.isEncoding(encoding)) return encoding;
    throw new AgentError(`fs.${fn}: ${JSON.stringify(String(encoding)).slice(0, 40)} is not an encoding Node knows (utf8, latin1, base64, hex, …).`);
  };
  if (typeof opts === 'string') return { encoding: check(opts) };
  if (typeof opts !== 'object') throw new AgentError(`fs.${fn}: the options must be an encoding or { encoding, flag } (got ${typeof opts}).`);
  const { encoding, flag, mode, ...rest } = opts as { encoding?: unknown; flag?: unknown; mode?: unknown; flush?: unknown; signal?: unknown };
  if (mode !== undefined) throw new AgentError(`fs.${fn}: { mode } is not taken: files a flow script writes are its user's own (0600). Leave mode out.`);
  if (flag !== undefined && flag !== 'w' && flag !== 'a') throw new AgentError(`fs.${fn}: the flag ${JSON.stringify(String(flag)).slice(0, 20)} is not taken here; "w" writes and "a" appends (or use fs.appendFile).`);
  const unknown = Object.keys(rest).filter((k) => k !== 'flush' && k !== 'signal');
  if (unknown.length) throw new AgentError(`fs.${fn}: unknown option ${unknown.join(', ')}; it takes { encoding, flag }.`);
  return { encoding: check(encoding), ...(flag === 'a' ? { append: true } : {}) };
}

/** The file writer/reader every script-reachable API that takes a `path` uses. `useProcFd`
 * false forces the portable fallback (tests). */
export function confinementFor(pwd: string, opts: { useProcFd?: boolean } = {}): Confinement {
  return confined(pwd, opts.useProcFd ?? true).confinement;
}

/** The `fs` global of a flow script. */
export function createConfinedFs(pwd: string, opts: { useProcFd?: boolean } = {}) {
  return confined(pwd, opts.useProcFd ?? true).fs;
}
