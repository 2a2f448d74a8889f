// Owner-only storage under GSTACK_HOME. Profiles hold login cookies (with
// --password-store=basic nothing but file modes protects them), session dirs hold
// storageState files, artifact dirs hold screenshots of logged-in pages: every directory we
// create there is 0700 and every file 0600. A directory that already exists with looser modes
// (an old GSTACK_HOME, a --profile DIR made by hand) is tightened when it is ours; one that is
// not ours, or is shared by design (/, $HOME, a sticky /tmp-like dir), is left alone and
// reported instead, once per directory, by the callers that can print (sessions commands).
import { chmod, mkdir, stat } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

/** Directories whose modes are not ours to change even when we own them. */
function sharedByDesign(dir: string, mode: number): boolean {
  let home: string;
  try {
    home = realpathSync(homedir());
  } catch {
    home = homedir();
  }
  return dirname(dir) === dir || dir === home || (mode & 0o1000) !== 0;
}

/** `top`, each directory below it on the way to `dir`, and `dir` (just `dir` when it is not
 * under `top`). */
function chain(dir: string, top: string | undefined): string[] {
  const abs = resolve(dir);
  if (!top) return [abs];
  const rel = relative(resolve(top), abs);
  if (rel.startsWith('..') || isAbsolute(rel)) return [abs];
  const out = [resolve(top)];
  for (const part of rel.split(sep).filter(Boolean)) out.push(resolve(out[out.length - 1], part));
  return out;
}

/**
 * Makes `dir` owner-only: creates it (and missing parents) 0700 when `create`, then tightens
 * it and every directory from `top` down to it that this user owns to 0700. Returns one line
 * per directory it had to leave readable or replaceable by others (why, and what to do).
 * Never throws: callers keep working with what they have.
 */
export async function makePrivateDir(dir: string, opts: { top?: string; create?: boolean } = {}): Promise<string[]> {
  const warnings: string[] = [];
  try {
    if (opts.create !== false) await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  } catch {
    return warnings; // the caller's own mkdir will say why
  }
  const uid = process.getuid?.();
  const dirs = chain(dir, opts.top);
  for (const d of dirs) {
    const st = await stat(d).catch(() => undefined);
    if (!st?.isDirectory() || (st.mode & 0o077) === 0) continue;
    const isLeaf = d === dirs[dirs.length - 1];
    const ours = uid === undefined || st.uid === uid;
    if (ours && !sharedByDesign(d, st.mode)) {
      try {
        await chmod(d, PRIVATE_DIR_MODE);
        continue;
      } catch {
        /* reported below */
      }
    }
    // Left as it is. An ancestor matters only if others can write to it (and so replace what
    // we keep below it); the directory that holds the data matters if they can read it too.
    const replaceable = (st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0;
    if (!isLeaf && !replaceable) continue;
    const whose = ours ? 'shared by design' : `owned by uid ${st.uid}, not by this user`;
    warnings.push(
      `gstack: ${d} is ${replaceable ? 'writable' : 'readable'} by other users (mode ${octal(st.mode)}, ${whose}), so cookies and screenshots kept under it are not private. ` +
        `Run \`chmod 700 ${d}\`, or point GSTACK_HOME (or --profile) at a directory you own.`,
    );
  }
  return warnings;
}
