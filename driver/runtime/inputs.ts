// `--in FILE…`: the user's files a flow script may use (an upload, a fixture to paste), copied
// into the call's `pwd` before the script starts, read-only. It is the only way a script sees a
// user's file: the sandbox's `fs` and every file-taking Playwright method stay confined to
// `pwd` (driver/runtime/confined-fs.ts, driver/runtime/membrane.ts). Checked before anything starts (usage
// errors, exit 2): regular files only (no directories, devices, FIFOs or sockets), one name
// each, and a size limit. On Aside, whose `pwd` exists only once the script runs, the files
// travel inside the script instead (asidePreamble): written into that `pwd` by its first line. Relative paths are the caller's: a session host resolves them against
// the client's cwd, and runs as the same user, so it may read what the caller may.
import { constants } from 'node:fs';
import { open, realpath, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** Largest file one `--in` may name, and all of a call's inputs together. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;
export const MAX_INPUTS_TOTAL_BYTES = 100 * 1024 * 1024;
/** On Aside the files travel inside the script, which is one command-line argument of
 * `aside repl` (base64 grows them by a third; macOS allows about 1 MB of arguments). */
export const MAX_ASIDE_INPUTS_BYTES = 256 * 1024;

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
  // Kernel files (/proc, /sys) call themselves regular, say 0 bytes, and may never end.
  const real = await realpath(path).catch(() => path);
  if (/^\/(?:proc|sys)\//.test(real)) {
    await fh.close();
    throw new UsageError(`--in ${given}: is a kernel file (${real}), not a regular file. Copy what you need into a file first.`);
  }
  if (!st.isFile()) {
    await fh.close();
    const what = st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device';
    throw new UsageError(`--in ${given}: is ${what}; only regular files can be passed in. Name each file (zip a folder first).`);
  }
  return { fh, size: st.size };
}

/** The whole file, read in chunks and never past `limit`: a file's size as stat tells it can be
 * wrong (`/proc` files say 0 and never end), so the bytes read are what is counted. */
async function readBounded(fh: Awaited<ReturnType<typeof open>>, given: string, limit = MAX_INPUT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.alloc(1024 * 1024);
    const { bytesRead } = await fh.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > limit) throw new UsageError(`--in ${given}: more than ${mb(limit)} (read so far; its size on disk said otherwise, as files under /proc do). Pass a regular file of at most ${mb(limit)}.`);
    chunks.push(bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead));
  }
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
      await writeFile(join(pwd, f.name), await readBounded(fh, f.source), { mode: 0o400, flag: 'wx' });
    } finally {
      await fh.close();
    }
  }
  return inputs.map((f) => f.name);
}

/** Aside: one line put before the script that writes each input into Aside's own `pwd` and
 * prints its `INPUT=` line, the same as on Chromium (the file is not read-only there: Aside's
 * `fs` has no chmod). A block, so its names cannot clash with the script's. */
export async function asidePreamble(inputs: InputFile[]): Promise<string> {
  const total = inputs.reduce((n, f) => n + f.size, 0);
  if (total > MAX_ASIDE_INPUTS_BYTES) {
    throw new UsageError(`--in: ${Math.ceil(total / 1024)} KB of inputs; on Aside they travel inside the script, at most ${MAX_ASIDE_INPUTS_BYTES / 1024} KB in all. Pass smaller files, or run with --engine chromium.`);
  }
  const files: Array<[string, string]> = [];
  for (const f of inputs) {
    const { fh } = await openRegular(f.source, f.source);
    try {
      files.push([f.name, (await readBounded(fh, f.source, MAX_ASIDE_INPUTS_BYTES)).toString('base64')]);
    } finally {
      await fh.close();
    }
  }
  return `{ for (const [n, b] of ${JSON.stringify(files)}) { await fs.writeFile(path.join(pwd, n), Buffer.from(b, "base64")); console.log("INPUT=" + n); } }\n`;
}
