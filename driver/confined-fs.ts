// The `fs` global of a flow script: promise-style, confined to the call's artifact dir.
// Every path is resolved against `pwd`, then the real path of its deepest existing ancestor
// must stay inside the real `pwd` — so `../x`, absolute paths and symlinks that point out are
// refused before anything is read or written.
import { promises as fsp, type Stats } from 'node:fs';
import { dirname, isAbsolute, resolve, sep, relative } from 'node:path';
import { AgentError } from './errors.js';

export class ConfinementError extends AgentError {
  constructor(p: string, root: string) {
    super(`fs refused "${p}": flow scripts may only read and write inside pwd (${root}). Use path.join(pwd, "name").`, 'FS_CONFINED');
  }
}

async function realpathOfExisting(p: string): Promise<string> {
  let cur = p;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await fsp.realpath(cur);
      return rest.length ? resolve(real, ...rest.reverse()) : real;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      const up = dirname(cur);
      if (up === cur) return p;
      rest.push(cur.slice(up.length + (up.endsWith(sep) ? 0 : 1)));
      cur = up;
    }
  }
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Resolves a script-given path against `pwd` and returns its real path, or throws
 * ConfinementError when it (or a symlink on the way) leads outside `pwd`. */
export function pathConfinedTo(pwd: string): (p: unknown) => Promise<string> {
  const rootPromise = fsp.realpath(pwd);
  return async (p: unknown): Promise<string> => {
    if (typeof p !== 'string' && !(p instanceof URL)) throw new AgentError(`fs paths must be strings (got ${typeof p}).`);
    const str = p instanceof URL ? p.pathname : p;
    const root = await rootPromise;
    const abs = resolve(pwd, str);
    // Check the lexical path first (cheap, catches ../ and absolute paths) and then the real
    // path (catches symlinks inside pwd that point elsewhere).
    if (!inside(pwd, abs) && !inside(root, abs)) throw new ConfinementError(str, pwd);
    const real = await realpathOfExisting(abs);
    if (!inside(root, real)) throw new ConfinementError(str, pwd);
    return real;
  };
}

export function createConfinedFs(pwd: string) {
  const rootPromise = fsp.realpath(pwd);
  const check = pathConfinedTo(pwd);
  const data = (d: unknown) => (typeof d === 'string' || Buffer.isBuffer(d) || d instanceof Uint8Array ? d : String(d));
  return Object.freeze({
    async readFile(p: string, enc?: BufferEncoding | { encoding?: BufferEncoding }) {
      return fsp.readFile(await check(p), enc as BufferEncoding);
    },
    async writeFile(p: string, d: unknown, enc?: BufferEncoding) {
      const real = await check(p);
      await fsp.mkdir(dirname(real), { recursive: true });
      await check(p); // the parent may have been created through a symlink in between
      return fsp.writeFile(real, data(d) as string, enc);
    },
    async appendFile(p: string, d: unknown, enc?: BufferEncoding) {
      return fsp.appendFile(await check(p), data(d) as string, enc);
    },
    async mkdir(p: string, opts?: { recursive?: boolean }) {
      return fsp.mkdir(await check(p), { recursive: opts?.recursive ?? true });
    },
    async readdir(p = '.') {
      return fsp.readdir(await check(p));
    },
    async stat(p: string): Promise<Stats> {
      return fsp.stat(await check(p));
    },
    async access(p: string) {
      return fsp.access(await check(p));
    },
    async rm(p: string, opts?: { recursive?: boolean; force?: boolean }) {
      const real = await check(p);
      if (real === (await rootPromise)) throw new AgentError('fs.rm refused: pwd itself cannot be removed.');
      return fsp.rm(real, opts);
    },
    async unlink(p: string) {
      return fsp.unlink(await check(p));
    },
    async rename(a: string, b: string) {
      return fsp.rename(await check(a), await check(b));
    },
    async copyFile(a: string, b: string) {
      return fsp.copyFile(await check(a), await check(b));
    },
  });
}
