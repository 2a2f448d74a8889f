// Reading a file the user names so that it can never hang and never read without end: a render's
// input (the Markdown or Mermaid file, a --header/--footer file, an image to inline,
// render/api/inputs.ts) and a call's `--in` files (driver/runtime/inputs.ts). A plain open of a FIFO
// with no writer waits forever, before any --timeout is armed; a device or /proc file says size
// 0 and never ends. So the file is opened without blocking, checked to be a regular file on the
// open handle (what is read is what was checked), and read up to a limit counted in the bytes
// actually read. Callers turn a refusal into their own message (a usage error for an input, a
// missing image for an asset) and set their own limits; docs/SECURITY.md, "Bad input is a usage
// error, never a hang".
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

export type ReadRefusal =
  | { ok: false; why: 'missing' | 'directory' | 'unreadable'; detail: string }
  /** A FIFO, socket or device: reading it could wait forever. */
  | { ok: false; why: 'special'; detail: string }
  /** `size`: what the file's stat said, when that was already too big; without it, the bytes
   * read outgrew the limit (a file that grew, or a kernel file whose stat says 0). */
  | { ok: false; why: 'too-big'; detail: string; size?: number };
export type ReadResult = { ok: true; bytes: Buffer } | ReadRefusal;

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;

function openFailure(err: unknown): ReadRefusal {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, why: 'missing', detail: 'not found' };
  if (code === 'EISDIR') return { ok: false, why: 'directory', detail: 'a directory' };
  return { ok: false, why: 'unreadable', detail: code === 'EACCES' ? 'permission denied' : (code ?? (err as Error).message) };
}

/** The devices /proc and /sys live on: their files call themselves regular and hold the
 * process's environment, its command line, the kernel's state (`--header /proc/self/environ`
 * would print the environment into a PDF). Known by the open handle's device, so a link to one
 * is caught too. */
let kernelDevices: Set<number> | undefined;
function onKernelFileSystem(st: Stats): boolean {
  if (!kernelDevices) {
    kernelDevices = new Set();
    for (const dir of ['/proc/self', '/sys/kernel']) {
      try {
        kernelDevices.add(statSync(dir).dev);
      } catch {
        /* not mounted here */
      }
    }
  }
  return kernelDevices.has(st.dev);
}

function typeRefusal(st: Stats, limit: number): ReadRefusal | undefined {
  if (st.isDirectory()) return { ok: false, why: 'directory', detail: 'a directory' };
  if (!st.isFile()) {
    const what = st.isFIFO() ? 'a FIFO (named pipe)' : st.isSocket() ? 'a socket' : 'a device';
    return { ok: false, why: 'special', detail: `${what}, not a regular file` };
  }
  if (onKernelFileSystem(st)) return { ok: false, why: 'special', detail: 'a kernel file (/proc or /sys), not a regular file' };
  if (st.size > limit) return { ok: false, why: 'too-big', detail: `${st.size} bytes, more than ${mib(limit)}`, size: st.size };
  return undefined;
}

const grew = (limit: number): ReadRefusal => ({ ok: false, why: 'too-big', detail: `more than ${mib(limit)} (read so far)` });

/** Whether `path` is a regular file of at most `limit` bytes (its size as stat says), without
 * reading it: `--in` checks every file before a call starts and reads them later. */
export async function statRegularFile(path: string, limit: number): Promise<{ ok: true; size: number } | ReadRefusal> {
  let fh;
  try {
    fh = await open(path, FLAGS);
  } catch (err) {
    return openFailure(err);
  }
  try {
    const st = await fh.stat();
    return typeRefusal(st, limit) ?? { ok: true, size: st.size };
  } catch (err) {
    return openFailure(err);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The whole regular file at `path`, at most `limit` bytes, or why not. */
export async function readRegularFile(path: string, limit: number): Promise<ReadResult> {
  let fh;
  try {
    fh = await open(path, FLAGS);
  } catch (err) {
    return openFailure(err);
  }
  try {
    const refused = typeRefusal(await fh.stat(), limit);
    if (refused) return refused;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(1024 * 1024);
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
      total += bytesRead;
      if (total > limit) return grew(limit);
      chunks.push(chunk.subarray(0, bytesRead));
    }
  } catch (err) {
    return openFailure(err);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** readRegularFile for the synchronous callers (render's asset policy, its flag parsing). */
export function readRegularFileSync(path: string, limit: number): ReadResult {
  let fd: number;
  try {
    fd = openSync(path, FLAGS);
  } catch (err) {
    return openFailure(err);
  }
  try {
    const refused = typeRefusal(fstatSync(fd), limit);
    if (refused) return refused;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(1024 * 1024);
      const bytesRead = readSync(fd, chunk, 0, chunk.length, null);
      if (bytesRead === 0) return { ok: true, bytes: Buffer.concat(chunks, total) };
      total += bytesRead;
      if (total > limit) return grew(limit);
      chunks.push(chunk.subarray(0, bytesRead));
    }
  } catch (err) {
    return openFailure(err);
  } finally {
    closeSync(fd);
  }
}
