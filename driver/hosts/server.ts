// A host process (docs/ARCHITECTURE.md, "Hosts"): a detached background Node process with
// Playwright loaded that runs the `gstack` calls handed to it over a Unix socket by the thin
// client (client.ts).
//
// Two kinds:
// - a session host: one per session profile. It keeps that session's persistent-context
//   Chromium running between calls (session-browser.ts) and runs the session's `run`,
//   `cookbook` and `flows` calls, each in a fresh sandbox, one at a time under the session
//   lock. It gets each call parsed and resolved by its client (driver/hosts/call.ts) and runs it
//   directly (driver/cli/call.ts): no argv parse, no CLI. Sessions
//   never share a host, so nothing one session's script touches is seen by another.
// - the render host: one per user, for `render`, `pdf` and `diagram`. They run page
//   JavaScript only (no user script in Node); it keeps a browser up and gives each render a
//   fresh context (render/engines/browser-pool.ts).
//
// Life cycle: started detached by a client that found none; takes its singleton lock (a
// second host for the same target exits at once); loads what its calls use; listens; exits
// after GSTACK_HOST_IDLE_MS without calls (default 5 minutes), on SIGTERM (`gstack sessions
// stop`), when a client of another build asks it to, when its own build changes on disk, or
// after a call that changed objects it shares between calls (tamper.ts). Its browser is shut
// down in order on the way out, so cookies reach the profile.
import { appendFileSync, statSync, truncateSync } from 'node:fs';
import { rssKb, treeRssKb } from './proc-rss.js';
import { chmod, unlink } from 'node:fs/promises';
import net from 'node:net';
import { join } from 'node:path';
import { withTraceSink } from '../trace.js';
import { acquireProfileLock } from '../sessions/lock.js';
import { buildId, hostAddress, openRuntimeDir, type HostTarget } from './address.js';
import { decoder, encode, parseClientMessage, type ClientMessage, type HostMessage, type HostStatus } from './wire.js';
import type { CallIo, DeadlineHandle } from '../call-io.js';
import type { TamperCheck } from './tamper.js';
import { clearStopNote, readStopNote } from './control.js';
import type { StopCause } from '../stop-cause.js';
import { terminalSafe } from '../runtime/output.js';

export const DEFAULT_IDLE_MS = 5 * 60_000;

/** What a call asks a host to run: a resolved call (session hosts) or argv (the render host). */
export type CallRequest = Pick<Extract<ClientMessage, { t: 'call' }>, 'call' | 'argv'>;

/** Is this call this host's to run? A session host runs resolved calls for its own profile, the
 * render host argv. Anything else is a client that does not speak this host's protocol. */
function callIsOurs(target: HostTarget, msg: Extract<ClientMessage, { t: 'call' }>): boolean {
  if (target.kind === 'render') return msg.argv !== undefined;
  return msg.call !== undefined && msg.call.target.host?.profileDir === target.profileDir && msg.call.target.profileDir === target.profileDir;
}

export interface HostOptions {
  target: HostTarget;
  /** Runs one call and returns its exit code: a session host's resolved call directly
   * (driver/cli/call.ts), a render host's argv through the CLI (bin/cli.ts). */
  serve(call: CallRequest, io: CallIo): Promise<number>;
  /** Loads what the calls use, before the host listens. */
  preload(): Promise<void>;
  /** Shuts the host's browser(s) down in order. */
  shutdownBrowsers(): Promise<void>;
  /** For `sessions list`: the browser's pid. */
  browserPid?(): number | undefined;
  /** Session hosts: objects shared between calls to watch (tamper.ts). */
  tamper?(): TamperCheck;
  /** The session key of the host's latest call, for `sessions list`. */
  lastKey?(): string | undefined;
  /** Called every few seconds while no call runs, with how long the host has been idle: a
   * session host sheds its spare tab and then its browser (session-browser.ts). */
  onIdle?(idleMs: number): void;
}

export async function runHost(opts: HostOptions): Promise<void> {
  const dir = openRuntimeDir(process.env, true);
  if (!dir) return;
  const address = hostAddress(dir, opts.target);
  const build = buildId();
  if (!build) return;
  const logFile = join(dir.prefix, 'hosts.log');
  try {
    if (statSync(logFile).size > 256 * 1024) truncateSync(logFile, 0);
  } catch {
    /* no log yet */
  }
  const what = opts.target.kind === 'session' ? `session host for ${opts.target.profileDir}` : 'render host';
  const log = (line: string) => {
    try {
      appendFileSync(logFile, `${new Date().toISOString()} pid ${process.pid} ${what}: ${line}\n`, { mode: 0o600 });
    } catch {
      /* logging never stops the host */
    }
  };

  try {
    await serve(opts, address, build, log);
  } catch (err) {
    log(`failed: ${(err as Error)?.stack ?? String(err)}`);
    throw err;
  }
}

async function serve(opts: HostOptions, address: ReturnType<typeof hostAddress>, build: string, log: (line: string) => void): Promise<void> {
  const what = opts.target.kind === 'session' ? `session host for ${opts.target.profileDir}` : 'render host';
  let lock: Awaited<ReturnType<typeof acquireProfileLock>>;
  try {
    lock = await acquireProfileLock(address.lockTarget, { timeoutMs: 0, key: what });
  } catch {
    return; // another host serves this target; our client connects to it
  }

  clearStopNote(address.lockTarget);
  await opts.preload();
  const tamper = opts.tamper?.();
  await unlink(address.socket).catch(() => undefined); // a dead host's socket (we hold the lock)

  const idleMs = Number(process.env.GSTACK_HOST_IDLE_MS) > 0 ? Number(process.env.GSTACK_HOST_IDLE_MS) : DEFAULT_IDLE_MS;
  let active = 0;
  let calls = 0;
  let lastActivity = Date.now();
  let stopping = false;
  const running = new Set<AbortController>();

  // A long-lived process's heap grows while nothing presses it; a full collection once the
  // host has been idle a second keeps it small at no cost to a call (--expose-gc).
  let gcTimer: NodeJS.Timeout | undefined;
  const collectWhenIdle = () => {
    const collect = (globalThis as { gc?: () => void }).gc;
    if (!collect) return;
    clearTimeout(gcTimer);
    gcTimer = setTimeout(() => active === 0 && collect(), 1_000);
    gcTimer.unref();
  };

  let exiting = false;
  /** Ends the host. A call still running is aborted with `cause` (who stopped the host), or
   * with the host's own reason, so its `[error]` line says what happened. */
  const shutdown = async (why: string, cause?: StopCause) => {
    if (exiting) return;
    exiting = true;
    stopping = true;
    log(`exiting: ${why}`);
    server.close();
    await unlink(address.socket).catch(() => undefined);
    for (const c of running) c.abort(cause ?? ({ kind: 'host', why, pid: process.pid } satisfies StopCause));
    // Calls in flight answer their clients first (they were aborted: their tabs close).
    for (let i = 0; i < 100 && active > 0; i++) await new Promise((r) => setTimeout(r, 20));
    await opts.shutdownBrowsers().catch(() => undefined);
    await lock.release().catch(() => undefined);
    process.exit(0);
  };
  /** Stop taking calls; exit as soon as the running ones have answered. */
  const drain = (why: string) => {
    stopping = true;
    if (active === 0) void shutdown(why);
    else log(`will exit after the running calls: ${why}`);
  };

  const status = (): HostStatus => ({
    pid: process.pid,
    kind: opts.target.kind,
    build,
    profileDir: opts.target.kind === 'session' ? opts.target.profileDir : undefined,
    key: opts.lastKey?.(),
    browserPid: opts.browserPid?.(),
    browserRssKb: treeRssKb(opts.browserPid?.()),
    hostRssKb: rssKb(process.pid) ?? Math.round(process.memoryUsage().rss / 1024),
    busy: active > 0,
    idleMs: active > 0 ? 0 : Date.now() - lastActivity,
    calls,
  });

  const server = net.createServer((socket) => {
    const send = (msg: HostMessage) => {
      if (!socket.destroyed) socket.write(encode(msg));
    };
    socket.on('error', () => undefined);
    send({ t: 'hello', pid: process.pid, build });
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
        if (socket.destroyed) return;
        const msg = parseClientMessage(raw);
        if (!msg) {
          socket.destroy(); // a peer that does not speak the protocol
          return;
        }
        switch (msg.t) {
          case 'abort':
            return controller.abort(msg.cause);
          case 'stdin':
            stdinWaiter?.(msg.data);
            stdinWaiter = undefined;
            return;
          case 'status':
            send({ t: 'status', status: status() });
            socket.end();
            return;
          case 'stop':
            send({ t: 'stopping' });
            socket.end();
            drain('asked to stop by a client');
            return;
          case 'call':
            break;
        }
        if (started) return;
        started = true;
        // Checked again at the start of each call, not only at the end of the last: a change a
        // script scheduled for after its own end (through the host realm, which a script can
        // reach) must not decide this call's verdict. The client retries in a fresh host.
        const leftBehind = tamper?.changes() ?? [];
        if (leftBehind.length) {
          send({ t: 'stale' });
          socket.end();
          drain(`an earlier call changed shared objects after it ended: ${leftBehind.join(', ')}`);
          return;
        }
        if (stopping || msg.build !== build) {
          send({ t: 'stale' });
          socket.end();
          if (msg.build !== build) drain(`a client of another build (${msg.build}) came`);
          return;
        }
        // After the build check: a client of another build may speak another protocol.
        if (!callIsOurs(opts.target, msg)) {
          log('a call that is not this host\'s (another profile, or the wrong kind) was refused');
          socket.destroy();
          return;
        }
        active++;
        calls++;
        running.add(controller);
        lastActivity = Date.now();
        send({ t: 'accepted' });
        const noDeadline: DeadlineHandle = { browserStarted: () => undefined, done: () => undefined };
        const io: CallIo = {
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
          armDeadline: (ms) => {
            send({ t: 'deadline', ms });
            return noDeadline;
          },
        };
        const t0 = performance.now();
        const traceLine = (phase: string) => io.err(`[trace] host +${(performance.now() - t0).toFixed(0).padStart(4)} ms  ${phase}\n`);
        const call = () => opts.serve(msg.call ? { call: msg.call } : { argv: msg.argv }, io);
        (msg.trace ? withTraceSink(traceLine, call) : call())
          .then(
            (code) => {
              const changed = tamper?.changes() ?? [];
              if (changed.length) {
                // Through the terminal filter: a changed key's name is the script's (or the page's) text.
                io.err(terminalSafe(`gstack: this call changed objects the session host shares between calls (${changed.slice(0, 3).join(', ')}); the host restarts so the next call starts clean.\n`));
                stopping = true;
              }
              send({ t: 'exit', code });
              socket.end();
              if (changed.length) drain(`a call changed shared objects: ${changed.join(', ')}`);
            },
            (err: unknown) => {
              log(`invocation failed outside the CLI: ${(err as Error)?.stack ?? String(err)}`);
              socket.destroy(); // the client reports a host failure
            },
          )
          .finally(() => {
            active--;
            running.delete(controller);
            lastActivity = Date.now();
            collectWhenIdle();
            if (stopping && active === 0) void shutdown('stopping');
          });
      }, (err) => {
        log(`client connection closed: ${err.message}`);
        socket.destroy();
      }),
    );
  });

  process.on('uncaughtException', (err) => {
    log(`uncaught: ${err?.stack ?? String(err)}`);
    void shutdown('uncaught exception');
  });
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? String(err)}`));
  // `gstack sessions stop` leaves a note saying who it is before it signals (control.ts).
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(sig, () => {
      const note = readStopNote(address.lockTarget);
      const why = note?.kind === 'command' ? `stopped by \`${note.command}\` (pid ${note.pid})` : `it received ${sig} from outside gstack`;
      void shutdown(why, note);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.socket, () => resolve());
  });
  await chmod(address.socket, 0o600);
  log(`listening (build ${build})`);

  // Idle and staleness: cheap (three stats), every few seconds. Housekeeping never ends a call:
  // nothing here runs while one is active.
  const tick = setInterval(() => {
    if (active > 0 || stopping) return;
    const idle = Date.now() - lastActivity;
    if (idle > idleMs) void shutdown(`idle for ${idleMs} ms`);
    else if (buildId(true) !== build) void shutdown('the build changed');
    else opts.onIdle?.(idle);
  }, Math.min(5_000, idleMs));
  tick.unref();
}
