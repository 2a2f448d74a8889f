// The warm worker process (see protocol.ts for why it exists and what it keeps: code only).
//
// Life cycle: started detached by a call that ran without one; takes a singleton lock next to
// its socket (a second worker for the same build exits at once); loads Playwright, the CLI and
// the call path; listens; runs each `gstack` invocation handed to it through the CLI (`serve`,
// bin/cli.ts) with that client's arguments, environment, directory, stdin and streams; exits
// after GSTACK_WARM_IDLE_MS without calls (default 10 min) or when its build is replaced.
//
// Each call is what an in-process call would be: a fresh sandbox, the session's own lock and
// profile, a Chromium of its own that is closed (or killed) before the result is sent. A client
// that goes away mid-call (killed, SIGKILLed, its process group killed) aborts that call: the
// browser is shut down in order and the lock released, as when an in-process CLI dies.
import { appendFileSync, statSync, truncateSync, unlinkSync } from 'node:fs';
import { chmod, unlink } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { loadPlaywright } from '../playwright-load.js';
import { loadCatalog } from '../catalog.js';
import { withTraceSink } from '../trace.js';
import { buildId, decoder, encode, MAX_CONCURRENT_CALLS, workerAddress, workerLockTarget, type ClientMessage, type WarmIo, type WorkerMessage } from './protocol.js';

const DEFAULT_IDLE_MS = 10 * 60_000;

export interface WorkerOptions {
  /** Runs one `gstack` invocation and returns its exit code (the CLI, bin/cli.ts). */
  serve(argv: string[], io: WarmIo): Promise<number>;
  /** Loads what the served commands use, before the worker starts listening. */
  preload(): Promise<void>;
}

export async function runWorker(opts: WorkerOptions): Promise<void> {
  const address = workerAddress(process.env, true);
  if (!address) return;
  // One log for every build's workers (starts, exits, failures), kept small: it is restarted
  // when it passes 256 KiB.
  const logFile = join(address.dir, 'worker.log');
  try {
    if (statSync(logFile).size > 256 * 1024) truncateSync(logFile, 0);
  } catch {
    /* no log yet */
  }
  const log = (line: string) => {
    try {
      appendFileSync(logFile, `${new Date().toISOString()} pid ${process.pid} build ${address.id} ${line}\n`, { mode: 0o600 });
    } catch {
      /* logging never stops the worker */
    }
  };

  const { acquireProfileLock } = await import('../sessions/lock.js');
  let lock: Awaited<ReturnType<typeof acquireProfileLock>>;
  try {
    lock = await acquireProfileLock(workerLockTarget(address), { timeoutMs: 0, key: 'gstack warm worker' });
  } catch {
    return; // another worker for this build is alive
  }

  // Everything a call loads, loaded once: the point of the worker.
  loadPlaywright();
  loadCatalog();
  await opts.preload();
  await Promise.all([
    import('../run.js'),
    import('../engines/chromium.js'),
    import('../engines/chromium-process.js'),
    import('../engines/select.js'),
    import('../sessions/registry.js'),
    import('../sessions/housekeep.js'),
    import('../sandbox.js'),
  ]);

  await unlink(address.socket).catch(() => undefined); // a dead worker's socket (we hold the lock)
  let active = 0;
  const idleMs = Number(process.env.GSTACK_WARM_IDLE_MS) > 0 ? Number(process.env.GSTACK_WARM_IDLE_MS) : DEFAULT_IDLE_MS;
  let lastActivity = Date.now();

  // V8 lets the heap of a long-lived process grow (~0.4 MB a call here) while nothing presses
  // it; what a call leaves is garbage (the live heap stays ~45 MB). A full collection once the
  // worker has been idle a second keeps it small without costing a call any time. The worker is
  // started with --expose-gc for this; without it, V8's own schedule applies.
  let gcTimer: NodeJS.Timeout | undefined;
  const collectWhenIdle = () => {
    const collect = (globalThis as { gc?: () => void }).gc;
    if (!collect) return;
    clearTimeout(gcTimer);
    gcTimer = setTimeout(() => {
      if (active === 0) collect();
    }, 1_000);
    gcTimer.unref();
  };

  const server = net.createServer((socket) => {
    const send = (msg: WorkerMessage) => {
      if (!socket.destroyed) socket.write(encode(msg));
    };
    socket.on('error', () => undefined);
    send({ t: 'hello', pid: process.pid, accepting: active < MAX_CONCURRENT_CALLS });
    let started = false;
    const controller = new AbortController();
    let stdinWaiter: ((data: string) => void) | undefined;
    socket.on('close', () => {
      controller.abort();
      stdinWaiter?.('');
    });
    socket.on(
      'data',
      decoder((raw) => {
        const msg = raw as ClientMessage | undefined;
        if (msg?.t === 'abort') return controller.abort();
        if (msg?.t === 'stdin') {
          stdinWaiter?.(msg.data);
          stdinWaiter = undefined;
          return;
        }
        if (msg?.t !== 'cli' || started) return;
        started = true;
        if (active >= MAX_CONCURRENT_CALLS) {
          send({ t: 'busy' });
          socket.end();
          return;
        }
        active++;
        lastActivity = Date.now();
        send({ t: 'accepted' });
        const io: WarmIo = {
          out: (text) => send({ t: 'out', s: text }),
          err: (text) => send({ t: 'err', s: text }),
          readStdin: () =>
            new Promise<string>((resolve) => {
              stdinWaiter = resolve;
              send({ t: 'need-stdin' });
            }),
          env: msg.env,
          cwd: msg.cwd,
          columns: msg.columns,
          signal: controller.signal,
          callerPid: msg.pid,
        };
        const t0 = performance.now();
        const traceLine = (phase: string) => io.err(`[trace] warm +${(performance.now() - t0).toFixed(0).padStart(4)} ms  ${phase}\n`);
        const call = () => opts.serve(msg.argv, io);
        (msg.trace ? withTraceSink(traceLine, call) : call())
          .then(
            (code) => {
              send({ t: 'exit', code });
              socket.end();
            },
            (err: unknown) => {
              log(`invocation failed outside the CLI: ${(err as Error)?.stack ?? String(err)}`);
              socket.destroy(); // the client reports a worker failure
            },
          )
          .finally(() => {
            active--;
            lastActivity = Date.now();
            collectWhenIdle();
          });
      }),
    );
  });

  const shutdown = (why: string) => {
    log(`exiting: ${why}`);
    server.close();
    try {
      unlinkSync(address.socket);
    } catch {
      /* already gone */
    }
    void lock.release().finally(() => process.exit(0));
  };
  process.on('uncaughtException', (err) => {
    log(`uncaught: ${err?.stack ?? String(err)}`);
    try {
      unlinkSync(address.socket);
    } catch {
      /* already gone */
    }
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? String(err)}`));
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => shutdown(sig));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.socket, () => resolve());
  });
  await chmod(address.socket, 0o600);
  log('listening');

  // Idle and staleness check: cheap (three stats), every few seconds.
  const tick = setInterval(() => {
    if (active > 0) return;
    if (Date.now() - lastActivity > idleMs) shutdown(`idle for ${idleMs} ms`);
    else if (buildId() !== address.id) shutdown('the build changed');
  }, Math.min(5_000, idleMs));
  tick.unref();
  // The server keeps the process alive; the tick never does.
}
