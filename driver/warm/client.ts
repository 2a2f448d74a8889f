// The CLI's side of the warm worker (protocol.ts): hand an invocation to a worker if one is
// listening, and start one in the background after a call that ran without.
//
// This module is loaded by the `gstack` entry before anything else, so it (and what it
// imports) uses Node built-ins only. An invocation is handed over only after the worker has said hello and accepted it, so
// it is never run twice: no worker, a full worker or a silent one (1 s) means "run it here".
// Once accepted, the worker's output and exit code are this invocation's, and a worker that
// dies mid-call is reported as this call's failure (exit 1), never retried.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { trace } from '../trace.js';
import { findAsideCli } from '../engines/aside-probe.js';
import { skipAside } from '../engines/select.js';
import { decoder, encode, workerAddress, workerEntry, workerLockTarget, type WarmIo, type WorkerMessage } from './protocol.js';

const HELLO_TIMEOUT_MS = 1_000;

/** Commands the worker serves: those that drive a browser, whose fixed cost is loading
 * Playwright. The others (probe, sessions) are cheap and stay in the calling process. */
const WARM_COMMANDS = new Set(['run', 'cookbook', 'render', 'pdf', 'diagram']);

function flagValue(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1];
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
  }
  return undefined;
}

/**
 * Whether this invocation goes to the worker: a browser command that will run on Chromium. Help
 * stays here (yargs prints it), and so does a call that may go to the user's Aside browser:
 * `aside repl` is then the whole cost, and it should run from the user's own process.
 */
export function warmEligible(argv: string[], env: NodeJS.ProcessEnv): boolean {
  if (!WARM_COMMANDS.has(argv[0] ?? '')) return false;
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return false;
  const engine = flagValue(argv, 'engine') ?? 'auto';
  if (engine === 'chromium' || flagValue(argv, 'connect') !== undefined || flagValue(argv, 'cdp') !== undefined) return true;
  if (engine !== 'auto') return false;
  // The same test `--engine auto` makes (engines/select.ts): skipped, or no `aside` to probe.
  return skipAside(env) || !findAsideCli(env);
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * Hands this `gstack` invocation to a warm worker and relays its output; resolves with the
 * exit code, or undefined when no worker took it (the caller then runs the CLI itself).
 */
export function cliViaWarmWorker(io: WarmIo & { argv: string[] }): Promise<number | undefined> {
  if (!warmEligible(io.argv, io.env)) return Promise.resolve(undefined);
  const address = workerAddress(io.env);
  if (!address || !existsSync(address.socket)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const socket = net.connect(address.socket);
    let phase: 'connecting' | 'sent' | 'accepted' | 'done' = 'connecting';
    let workerPid = 0;
    const helloTimer = setTimeout(() => giveUp(), HELLO_TIMEOUT_MS);
    const onAbort = () => {
      if (!socket.destroyed) socket.write(encode({ t: 'abort' }));
    };
    const settle = (code: number | undefined) => {
      if (phase === 'done') return;
      phase = 'done';
      clearTimeout(helloTimer);
      io.signal.removeEventListener('abort', onAbort);
      resolve(code);
    };
    const giveUp = () => {
      if (phase !== 'connecting' && phase !== 'sent') return;
      socket.destroy();
      settle(undefined);
    };
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (phase !== 'accepted') return giveUp();
      io.err(
        `[error] The warm worker (pid ${workerPid}) running this call went away before it finished; its browser went with it. ` +
          'Run the call again; if this repeats, set GSTACK_NO_WARM=1 to run each call in its own process.\n',
      );
      settle(1);
    });
    socket.on(
      'data',
      decoder((raw) => {
        const msg = raw as WorkerMessage | undefined;
        if (!msg) return;
        switch (msg.t) {
          case 'hello':
            if (phase !== 'connecting') return;
            if (!msg.accepting) return giveUp();
            workerPid = msg.pid;
            phase = 'sent';
            socket.write(encode({ t: 'cli', argv: io.argv, env: stringEnv(io.env), cwd: io.cwd, columns: io.columns, trace: !!io.env.GSTACK_TRACE, pid: process.pid }));
            return;
          case 'busy':
            return giveUp();
          case 'accepted':
            if (phase !== 'sent') return;
            // From here on the invocation is the worker's: it is never run a second time.
            phase = 'accepted';
            clearTimeout(helloTimer);
            trace(`handed to warm worker pid ${workerPid}`);
            if (io.signal.aborted) onAbort();
            else io.signal.addEventListener('abort', onAbort, { once: true });
            return;
          case 'out':
            if (phase === 'accepted') io.out(msg.s);
            return;
          case 'err':
            if (phase === 'accepted') io.err(msg.s);
            return;
          case 'need-stdin':
            if (phase === 'accepted') {
              void io.readStdin().then(
                (data) => socket.write(encode({ t: 'stdin', data })),
                () => socket.write(encode({ t: 'stdin', data: '' })),
              );
            }
            return;
          case 'exit':
            if (phase !== 'accepted') return;
            trace('warm worker exit');
            settle(msg.code);
            socket.end();
            return;
        }
      }),
    );
  });
}

/** After a browser command that ran in its own process: start a worker for the next one,
 * unless a live one is there already (or warm calls are off, or this build has no worker
 * bundle). A socket whose worker died (SIGKILL, OOM) does not count: its lock names a dead
 * pid, and the new worker takes the lock over and replaces the socket. Never waits on it. */
export async function startWorkerInBackground(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const address = workerAddress(env, true);
  if (!address || !existsSync(workerEntry())) return;
  const { lockHolder } = await import('../sessions/lock.js');
  if (await lockHolder(workerLockTarget(address))) return;
  try {
    const child = spawn(process.execPath, ['--expose-gc', workerEntry()], { detached: true, stdio: 'ignore', env, cwd: address.dir });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    /* the next call simply runs in its own process too */
  }
}
