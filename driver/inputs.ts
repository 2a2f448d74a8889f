// `--in FILE…`: the user's files a flow script may use (an upload, a fixture to paste), copied
// into the call's `pwd` before the script starts, read-only. It is the only way a script sees a
// user's file: the sandbox's `fs` and every file-taking Playwright method stay confined to
// `pwd` (driver/confined-fs.ts, driver/membrane.ts). Checked before anything starts (usage
// errors, exit 2): regular files only (no directories, devices, FIFOs or sockets), one name
// each, and a size limit. Relative paths are the caller's: a session host resolves them against
// the client's cwd, and runs as the same user, so it may read what the caller may.
import { constants } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { UsageError } from './errors.js';

/** Largest file one `--in` may name, and all of a call's inputs together. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;
export const MAX_INPUTS_TOTAL_BYTES = 100 * 1024 * 1024;

export interface InputFile {
  /** The name in `pwd` (the file's own base name). */
  name: string;
  /** Absolute path of the user's file. */
  source: string;
  size: number;
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

/** Opens without blocking on a FIFO and without taking a terminal; the type is checked on the
 * open handle, so what is read is what was checked. */
async function openRegular(path: string, given: string) {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code ?? (err as Error).message;
    throw new UsageError(`--in ${given}: ${why} (looked at ${path}). Check the path; a relative one is taken from your current directory.`);
  }
  const st = await fh.stat();
  if (!st.isFile()) {
    await fh.close();
    const what = st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device';
    throw new UsageError(`--in ${given}: is ${what}; only regular files can be passed in. Name each file (zip a folder first).`);
  }
  return { fh, size: st.size };
}

/** Checks every `--in` path (exists, a regular file, within the limits, names unique). */
export async function checkInputs(paths: string[], cwd: string): Promise<InputFile[]> {
  const out: InputFile[] = [];
  let total = 0;
  for (const given of paths) {
    const source = resolve(cwd, given);
    const { fh, size } = await openRegular(source, given);
    await fh.close();
    if (size > MAX_INPUT_BYTES) throw new UsageError(`--in ${given}: ${mb(size)} is over the ${mb(MAX_INPUT_BYTES)} limit for one input. Pass a smaller file.`);
    total += size;
    if (total > MAX_INPUTS_TOTAL_BYTES) throw new UsageError(`--in: the inputs add up to more than ${mb(MAX_INPUTS_TOTAL_BYTES)}. Pass fewer or smaller files.`);
    const name = basename(source);
    const twin = out.find((f) => f.name === name);
    if (twin) throw new UsageError(`--in ${given}: another input is also named ${name} (${twin.source}); names in pwd must differ. Rename or copy one first.`);
    out.push({ name, source, size });
  }
  return out;
}

/** Copies the checked inputs into `pwd`, each read-only (mode 0400); returns their names. */
export async function copyInputs(inputs: InputFile[], pwd: string): Promise<string[]> {
  for (const f of inputs) {
    const { fh, size } = await openRegular(f.source, f.source);
    try {
      if (size > MAX_INPUT_BYTES) throw new UsageError(`--in ${f.source}: grew past the ${mb(MAX_INPUT_BYTES)} limit while the call started.`);
      await writeFile(join(pwd, f.name), await fh.readFile(), { mode: 0o400, flag: 'wx' });
    } finally {
      await fh.close();
    }
  }
  return inputs.map((f) => f.name);
}
