// Where a CLI invocation reads and writes. In a normal process that is the process itself; in
// the warm worker (driver/warm/) it is the socket of the client process that invoked `gstack`,
// so a command never touches process.stdout, process.exit or signals directly.
import type { WarmIo } from '../driver/warm/protocol.js';

export interface CliIo extends WarmIo {
  /** The arguments after `gstack` (render reads its steps from them in order). */
  argv: string[];
  /** Set by a command; the process (or the warm client) exits with it. */
  exitCode: number;
  /** True inside the warm worker (yargs must not exit the process there). */
  inWorker: boolean;
}

/** The IO of this process: stdout/stderr (a reader that goes away, `| head -1`, is ignored
 * rather than crashing the call half-way), stdin, and SIGINT/SIGTERM as the abort signal. */
export function processIo(argv: string[]): CliIo {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let readerGone = false;
  let stderrGone = false;
  const gone = (err: NodeJS.ErrnoException) => err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED';
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (gone(err)) readerGone = true;
    else throw err;
  });
  // `2>&1 | head` closes stderr's reader too.
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (gone(err)) stderrGone = true;
    else throw err;
  });
  return {
    argv,
    exitCode: 0,
    inWorker: false,
    env: process.env,
    cwd: process.cwd(),
    columns: process.stdout.columns,
    signal: controller.signal,
    out: (text) => {
      if (!readerGone) process.stdout.write(text);
    },
    err: (text) => {
      if (!stderrGone) process.stderr.write(text);
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Exit once everything written to stdout/stderr has been handed to the OS, so a reader on a
 * slow pipe never loses the last lines (the sentinel or the [error] line). */
export function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.destroyed || !stream.writable) done();
    else stream.write('', done);
  }
  // A pipe whose reader is stuck must not keep a finished call alive forever.
  setTimeout(() => process.exit(code), 5000).unref();
}
