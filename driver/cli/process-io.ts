// Where a CLI invocation reads and writes. In a normal process that is the process itself; in
// a host (driver/hosts/) it is the socket of the client process that invoked `gstack`, so a
// command never touches process.stdout, process.exit or signals directly.
import type { CallIo, DeadlineHandle } from '../call-io.js';
import { DEADLINE_GRACE_MS } from '../deadline.js';
import type { SessionHostBinding } from '../runner/run-script.js';
import { armWatchdog } from '../runner/watchdog.js';
import { runResult } from '../runtime/run-result.js';
import type { StopCause } from '../stop-cause.js';
import type { HostCall } from '../hosts/call.js';

export interface CliIo extends CallIo {
  /** The arguments after `gstack` (render reads its steps from them in order). */
  argv: string[];
  /** Set by a command; the process (or the host's client) exits with it. */
  exitCode: number;
  /** True inside a host (yargs must not exit the process there). */
  inHost: boolean;
  /** Set in a session host: the call runs on the host's browser. */
  sessionHost?: SessionHostBinding;
  /** The entry already offered this call to a host, which could not take it: run it here. */
  hostTried?: boolean;
  /** What the yargs layer does with a parsed script call (default: driver/cli/call.ts dispatchCall).
   * test/host-call.test.ts takes the call instead, to hold the quick reader equal to yargs. */
  dispatch?: (call: HostCall, io: CliIo) => Promise<void>;
}

/** The IO of this process: stdout/stderr (a reader that goes away, `| head -1`, is ignored
 * rather than crashing the call half-way), stdin, SIGINT/SIGTERM as the abort signal, and a
 * watchdog thread for the deadline of a script run here (driver/runner/watchdog.ts). */
export function processIo(argv: string[]): CliIo {
  const controller = new AbortController();
  // The abort's reason names the signal and this process, so the call's `[error]` line can say
  // what stopped it (driver/stop-cause.ts).
  const stop = (signal: NodeJS.Signals) => controller.abort({ kind: 'signal', signal, pid: process.pid } satisfies StopCause);
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
    inHost: false,
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
    readStdin: async (maxBytes?: number) => {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const c of process.stdin) {
        total += (c as Buffer).length;
        // Over the limit: stop reading (and say so) instead of holding all of an endless pipe.
        chunks.push(c as Buffer);
        if (maxBytes !== undefined && total > maxBytes) {
          process.stdin.destroy();
          return Buffer.concat(chunks).subarray(0, maxBytes + 1).toString('utf8');
        }
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    armDeadline: (ms: number, message: string): DeadlineHandle => {
      const finalLine = argv.includes('--json')
        ? JSON.stringify(runResult({ exitCode: 1, engine: 'chromium', error: message }))
        : `[error] ${message}`;
      const dog = armWatchdog({ deadlineMs: ms, graceMs: DEADLINE_GRACE_MS, finalLine });
      return { browserStarted: (pid) => dog.setBrowserPid(pid), done: () => dog.disarm() };
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
