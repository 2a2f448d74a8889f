// The deadline of a call that runs in the `gstack` process itself (GSTACK_NO_HOST=1,
// --ephemeral, --connect/--cdp): a watchdog on its own thread, so it keeps time even when a
// flow script never yields and the main thread's event loop stops (`while(true){}`,
// `for(;;) await null`). A host's calls need none: their client keeps the deadline.
//
// The main thread's own timer handles an ordinary timeout (driver/engines/chromium.ts). If the
// main thread has not ended the call by the deadline plus a grace, its loop is stuck: the
// watchdog ends the browser's process group (SIGTERM first, so cookies are flushed), prints
// the call's final line, and exits the process with code 1 by running `process.exit(1)` on the
// main thread through an inspector session (a V8 interrupt, the one a debugger's "pause" uses,
// which runs even inside a loop that never yields; the process's exit handlers still run, so
// the session lock is released). Breaking the loop instead (Runtime.terminateExecution) is not
// an option: Node aborts when execution is terminated inside an async callback.
import { Worker } from 'node:worker_threads';

export interface Watchdog {
  /** The call ended in time. */
  disarm(): void;
  /** The browser this call started (its process group is ended on expiry). */
  setBrowserPid(pid: number | undefined): void;
}

export interface WatchdogOptions {
  /** When the script may take until (ms from now), and how long past that the main thread
   * has to report the timeout itself. */
  deadlineMs: number;
  graceMs?: number;
  /** What the watchdog prints on stdout if it has to end the call itself (the `[error]` line,
   * or the JSON object of --json). */
  finalLine: string;
}

// CommonJS, evaluated in the worker: it must not depend on the main thread's module state.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const fs = require('node:fs');
const state = new Int32Array(workerData.shared); // [0] disarmed, [1] browser pid
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const groupAlive = (pid) => { try { process.kill(-pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
(async () => {
  await sleep(workerData.waitMs);
  if (Atomics.load(state, 0)) return;
  // The browser first: SIGTERM lets Chromium shut down in order (cookies flushed).
  const pid = Atomics.load(state, 1);
  if (pid) {
    try { process.kill(-pid, 'SIGTERM'); } catch {}
    for (let i = 0; i < 60 && groupAlive(pid); i++) await sleep(25);
    try { process.kill(-pid, 'SIGKILL'); } catch {}
  }
  if (Atomics.load(state, 0)) return;
  try { fs.writeSync(1, workerData.finalLine + '\\n'); } catch {}
  // Node reports an attached inspector session on stderr as it exits; nothing else is left
  // to say there, so stderr goes to /dev/null first.
  try { fs.closeSync(2); fs.openSync('/dev/null', 'w'); } catch {}
  const session = new inspector.Session();
  session.connectToMainThread();
  session.post('Runtime.evaluate', { expression: 'process.exit(1)' });
  await sleep(2000);
  process.kill(process.pid, 'SIGKILL');
})();
`;

export function armWatchdog(opts: WatchdogOptions): Watchdog {
  const shared = new SharedArrayBuffer(8);
  const state = new Int32Array(shared);
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { shared, waitMs: opts.deadlineMs + (opts.graceMs ?? 2_000), finalLine: opts.finalLine },
    // The watchdog must not keep the call's process alive, nor print anything of its own.
    stdout: true,
    stderr: true,
  });
  worker.unref();
  worker.on('error', () => undefined);
  return {
    disarm() {
      Atomics.store(state, 0, 1);
      void worker.terminate();
    },
    setBrowserPid(pid) {
      Atomics.store(state, 1, pid ?? 0);
    },
  };
}
