// `--in FILE…`: the user's files a flow script may use (an upload, a fixture to paste), copied
// into the call's `pwd` before the script starts, read-only. It is the only way a script sees a
// user's file: the sandbox's `fs` and every file-taking Playwright method stay confined to
// `pwd` (driver/runtime/confined-fs.ts, driver/runtime/membrane.ts). Checked before anything starts (usage
// errors, exit 2): regular files only (no directories, devices, FIFOs or sockets), one name
// each, and a size limit. On Aside, whose `pwd` exists only once the script runs, the files
// travel inside the script instead (asidePreamble): written into that `pwd` by its first line. Relative paths are the caller's: a session host resolves them against
// the client's cwd, and runs as the same user, so it may read what the caller may. The reading
// (non-blocking, regular files only, bounded by the bytes read) is driver/read-file.ts's, the
// same as a render's inputs.
import { realpath, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { stripControls } from './output.js';
import { readRegularFile, statRegularFile, type ReadRefusal } from '../read-file.js';

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

/** The usage error for an `--in` file that cannot be read (`limit`: the one it was read under). */
function refused(given: string, path: string, r: ReadRefusal, limit: number): UsageError {
  switch (r.why) {
    case 'missing':
      return new UsageError(`--in ${given}: no such file (looked at ${path}). Check the path; a relative one is taken from your current directory.`);
    case 'directory':
    case 'special':
      return new UsageError(`--in ${given}: is ${r.detail.replace(/, not a regular file$/, '')}; only regular files can be passed in. Name each file (zip a folder first).`);
    case 'too-big':
      return r.size === undefined
        ? new UsageError(`--in ${given}: more than ${mb(limit)} (read so far; its size on disk said otherwise, as files under /proc do). Pass a regular file of at most ${mb(limit)}.`)
        : new UsageError(`--in ${given}: ${mb(r.size)} is over the ${mb(limit)} limit for one input. Pass a smaller file.`);
    default:
      return new UsageError(`--in ${given}: ${r.detail} (looked at ${path}). Check the path; a relative one is taken from your current directory.`);
  }
}

/** The whole `--in` file, at most `limit` bytes. Kernel files (/proc, /sys) call themselves
 * regular, say 0 bytes and may never end: refused by name before the reader bounds them. */
async function readInput(path: string, given: string, limit: number): Promise<Buffer> {
  await refuseKernelFile(path, given);
  const r = await readRegularFile(path, limit);
  if (!r.ok) throw refused(given, path, r, limit);
  return r.bytes;
}

async function refuseKernelFile(path: string, given: string): Promise<void> {
  const real = await realpath(path).catch(() => path);
  if (/^\/(?:proc|sys)\//.test(real)) throw new UsageError(`--in ${given}: is a kernel file (${real}), not a regular file. Copy what you need into a file first.`);
}

/** Checks every `--in` path (exists, a regular file, within the limits, names unique). */
export async function checkInputs(paths: string[], cwd: string): Promise<InputFile[]> {
  const out: InputFile[] = [];
  let total = 0;
  for (const given of paths) {
    const source = resolve(cwd, given);
    await refuseKernelFile(source, given);
    const st = await statRegularFile(source, MAX_INPUT_BYTES);
    if (!st.ok) throw refused(given, source, st, MAX_INPUT_BYTES);
    const size = st.size;
    total += size;
    if (total > MAX_INPUTS_TOTAL_BYTES) throw new UsageError(`--in: the inputs add up to more than ${mb(MAX_INPUTS_TOTAL_BYTES)}. Pass fewer or smaller files.`);
    const name = basename(source);
    // The name is printed (`INPUT=name`) and listed in pwd: a newline in it would print a line
    // of its own (a bare sentinel), an RLO would show another name.
    if (stripControls(name) !== name) throw new UsageError(`--in ${JSON.stringify(given)}: its name holds a control or invisible character; rename the file (or copy it to a plain name) first.`);
    const twin = out.find((f) => f.name === name);
    if (twin) throw new UsageError(`--in ${given}: another input is also named ${name} (${twin.source}); names in pwd must differ. Rename or copy one first.`);
    out.push({ name, source, size });
  }
  return out;
}

/** Copies the checked inputs into `pwd`, each read-only (mode 0400); returns their names. */
export async function copyInputs(inputs: InputFile[], pwd: string): Promise<string[]> {
  for (const f of inputs) {
    await writeFile(join(pwd, f.name), await readInput(f.source, f.source, MAX_INPUT_BYTES), { mode: 0o400, flag: 'wx' });
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
  for (const f of inputs) files.push([f.name, (await readInput(f.source, f.source, MAX_ASIDE_INPUTS_BYTES)).toString('base64')]);
  return `{ for (const [n, b] of ${JSON.stringify(files)}) { await fs.writeFile(path.join(pwd, n), Buffer.from(b, "base64")); console.log("INPUT=" + n); } }\n`;
}
