// The `gstack` process's side of a host (docs/ARCHITECTURE.md, "Hosts"): connect to the host
// of the call's session (or the render host), starting one if there is none, hand it the
// invocation, relay its output, and enforce the call's deadline from outside the host
// (driver/deadline.ts owns its milliseconds, grace and messages).
//
// The enforcing is the client's because a host cannot be trusted to do it: a flow script that
// never yields (`while(true){}`, `for(;;) await null`) stops the host's event loop. When the
// host announces the script's start (`deadline`), the client arms a timer for --timeout plus a
// grace; if the host has not answered by then, the client ends the host and its browser (the
// browser first asked to shut down, so cookies are flushed) and the call exits 1 saying so.
// The next call of the session then starts a fresh host at once: the session lock of a dead
// host is taken over without waiting.
//
// Loaded by the thin entry before anything else: Node built-ins only.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { trace } from '../trace.js';
import { describeHolder, lockHolder, ProfileBusyError, type LockHolder } from '../sessions/lock.js';
import { buildId, hostAddress, hostEntry, openRuntimeDir, UnsafeRuntimeDirError, type HostAddress, type HostTarget } from './address.js';
import { decoder, encode, parseHostMessage, type ClientMessage, type HostMessage, type HostStatus } from './wire.js';
import { MAX_SCRIPT_BYTES } from '../call-io.js';
import type { HostHandOff } from './route.js';
import { killHostTree, readStopNote } from './control.js';
import { parseStopCause, stoppedMessage } from '../stop-cause.js';
import { DEADLINE_GRACE_MS, stuckMessage } from '../deadline.js';
import { runResult } from '../runtime/run-result.js';

/** What the client needs of its process. */
export interface ClientIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  columns?: number;
  signal: AbortSignal;
  out(text: string): void;
  err(text: string): void;
  readStdin(maxBytes?: number): Promise<string>;
}

/** A host answers `hello` from its event loop at once, even during a call; one that does not is
 * wedged in a script that never yields. */
const HELLO_TIMEOUT_MS = 2_000;
/** A new host loads Playwright and the CLI before it listens. */
const START_TIMEOUT_MS = 20_000;
/** After an interrupt, how long the host may take to close the call's tabs and answer. */
const ABORT_GRACE_MS = 3_000;

type Outcome = { kind: 'exit'; code: number } | { kind: 'in-process'; why?: string };

/**
 * Runs this invocation in a host (a session host gets the resolved call, the render host the
 * argv); resolves with its exit code, or undefined when it must run in this process (no host
 * bundle, an unsafe runtime dir, a host that could not start). Once a host has accepted the
 * call it is never run a second time: a host that dies mid-call is this call's failure.
 */
export async function callViaHost(io: ClientIo, handOff: HostHandOff): Promise<number | undefined> {
  const target = handOff.target;
  const build = buildId();
  if (!build || !existsSync(hostEntry())) return undefined;
  let address: HostAddress;
  try {
    const dir = openRuntimeDir(io.env, true);
    if (!dir) return undefined;
    address = hostAddress(dir, target);
  } catch (err) {
    if (err instanceof UnsafeRuntimeDirError) {
      io.err(`gstack: not using a background host (${err.message}); running in this process.\n`);
      return undefined;
    }
    throw err;
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const socket = await connectOrStart(address, target, io.env);
    if (!socket) return undefined;
    const outcome = await runCall(socket, io, handOff, address, build);
    if (outcome === 'retry') continue;
    if (outcome.kind === 'exit') return outcome.code;
    if (outcome.why) io.err(`gstack: ${outcome.why}; running in this process.\n`);
    return undefined;
  }
  return undefined;
}

function connect(path: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(path);
    const fail = () => {
      socket.destroy();
      resolve(undefined);
    };
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.off('error', fail);
      socket.on('error', () => undefined);
      resolve(socket);
    });
  });
}

/** Connects to the host, starting it first when nothing listens. A host that another client
 * started at the same moment wins the singleton lock; ours then exits and we connect to theirs. */
async function connectOrStart(address: HostAddress, target: HostTarget, env: NodeJS.ProcessEnv): Promise<net.Socket | undefined> {
  const existing = await connect(address.socket);
  if (existing) return existing;
  trace('no host listening: starting one');
  const child = spawnHost(target, env);
  if (!child) return undefined;
  const started = Date.now();
  while (Date.now() - started < START_TIMEOUT_MS) {
    await new Promise((r) => setTimeout(r, 15));
    const socket = await connect(address.socket);
    if (socket) {
      trace('host listening');
      return socket;
    }
    // Our host gave way to another one that holds the lock: keep waiting for that one; if no
    // host holds it, ours failed to start.
    if (child.exited && !(await lockHolder(address.lockTarget))) return undefined;
  }
  return undefined;
}

function spawnHost(target: HostTarget, env: NodeJS.ProcessEnv): { exited: boolean } | undefined {
  const state = { exited: false };
  try {
    // A host mostly waits: a 4 MiB young generation (V8's default grows to 16 MiB per
    // semi-space and never gives it back) keeps an idle host ~25 MiB smaller, at no measurable
    // cost to a call (bench: test/bench/crowd.ts).
    const args = ['--expose-gc', '--max-semi-space-size=4', hostEntry(), target.kind];
    if (target.kind === 'session') args.push(target.profileDir);
    // Detached: its own session and process group, so the caller's terminal or harness never
    // kills it with the caller, and the client can end the host with its browser as a group.
    const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env });
    child.on('error', () => (state.exited = true));
    child.on('exit', () => (state.exited = true));
    child.unref();
    return state;
  } catch {
    return undefined;
  }
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') out[k] = v;
  return out;
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/** One call over an open socket. 'retry' when the host was of another build or wedged and has
 * been stopped: the caller connects again (and starts a fresh host). */
function runCall(socket: net.Socket, io: ClientIo, handOff: HostHandOff, address: HostAddress, build: string): Promise<Outcome | 'retry'> {
  return new Promise((resolve) => {
    let phase: 'hello' | 'sent' | 'accepted' | 'done' = 'hello';
    let hostPid = 0;
    let killTimer: NodeJS.Timeout | undefined;
    let abortTimer: NodeJS.Timeout | undefined;
    let deadlineMs = 0;
    /** The client is ending the host itself: its socket closing is expected. */
    let ending = false;
    const send = (msg: ClientMessage) => {
      if (!socket.destroyed) socket.write(encode(msg));
    };
    const settle = (outcome: Outcome | 'retry') => {
      if (phase === 'done') return;
      phase = 'done';
      clearTimeout(helloTimer);
      clearTimeout(killTimer);
      clearTimeout(abortTimer);
      io.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const fail = (message: string) => {
      printFailure(io, handOff, message);
      settle({ kind: 'exit', code: 1 });
    };

    // A host that does not say hello runs a script that does not give control back. While that
    // call's own caller lives, the host is busy, not wedged: the caller ends it at the call's
    // deadline, and this call waits as for any call holding the session, up to --lock-timeout,
    // then exits 4 (pass 45, C45: it ended the other call's host and ran in its place). A host
    // whose caller is gone (killed before its deadline) is wedged: end it and start afresh.
    const waitStarted = Date.now();
    let waitSaid = false;
    const helloLate = async () => {
      const host = await lockHolder(address.lockTarget);
      const busy = host && 'call' in handOff ? await liveCallIn(handOff.target.profileDir, host.pid) : undefined;
      if (phase !== 'hello') return;
      if (busy && 'call' in handOff) {
        const waited = Date.now() - waitStarted;
        const limit = handOff.call.call.flags.lockTimeout;
        if (waited < limit) {
          if (!waitSaid) {
            waitSaid = true;
            io.err(`gstack: waiting for session profile (held by ${describeHolder(busy)}, whose script has not given control back; --lock-timeout ${limit} ms)\n`);
          }
          helloTimer = setTimeout(() => void helloLate(), Math.min(HELLO_TIMEOUT_MS, limit - waited));
          return;
        }
        printFailure(io, handOff, new ProfileBusyError(handOff.target.profileDir, busy, waited).message, 4);
        return settle({ kind: 'exit', code: 4 });
      }
      socket.destroy();
      if (host) await killHostTree(host.pid);
      settle('retry');
    };
    let helloTimer = setTimeout(() => void helloLate(), HELLO_TIMEOUT_MS);
    /** The host sent the call's deadline: its script has the session (the lock is held). */
    let started = false;
    /** What the host asked of stdin was read: this call cannot be sent again. */
    let stdinRead = false;

    const killForDeadline = async () => {
      if (phase !== 'accepted') return;
      ending = true;
      await killHostTree(hostPid);
      fail(stuckMessage(deadlineMs, `the session's host (pid ${hostPid}) and its browser were stopped; the next call starts a fresh browser at once.`));
    };

    const onAbort = () => {
      send({ t: 'abort', cause: parseStopCause(io.signal.reason) });
      // The host closes the call's tabs and answers; one that cannot (its script never
      // yields) is ended so the interrupt always ends the call.
      abortTimer = setTimeout(() => {
        ending = true;
        void killHostTree(hostPid).then(() =>
          fail(`${stoppedMessage(io.signal.reason)} The session host (pid ${hostPid}) did not stop in time and was ended with its browser.`),
        );
      }, ABORT_GRACE_MS);
    };

    socket.on('close', () => {
      if (phase === 'done' || ending) return;
      if (phase !== 'accepted') return settle('retry');
      // Ended while this call waited for the session, its script not started (another call's
      // caller ended the host at that call's deadline; pass 45, C45): sent again to a fresh host.
      if (!started && !stdinRead) return settle('retry');
      // Stopped by another command (it left a note), or gone for a reason nobody wrote down.
      const note = readStopNote(address.lockTarget);
      fail(
        note
          ? stoppedMessage(note)
          : `The host running this call (pid ${hostPid}) ended before the call finished (killed or crashed); its browser went with it. Run the call again: a fresh host starts.`,
      );
    });
    socket.on(
      'data',
      decoder((raw) => {
        const msg: HostMessage | undefined = parseHostMessage(raw);
        if (!msg) {
          if (phase === 'accepted') fail('The host sent a malformed message; the call was abandoned. Run it again.');
          else settle('retry');
          return;
        }
        switch (msg.t) {
          case 'hello':
            if (phase !== 'hello') return;
            clearTimeout(helloTimer);
            hostPid = msg.pid;
            if (msg.build !== build) {
              // Another build's host: ask it to stop (after any call it runs), then start ours.
              send({ t: 'stop' });
              void waitGone(hostPid, 15_000).then(async (gone) => {
                if (!gone) await killHostTree(hostPid);
                settle('retry');
              });
              return;
            }
            phase = 'sent';
            send({
              t: 'call',
              ...('call' in handOff ? { call: handOff.call } : { argv: handOff.argv }),
              env: stringEnv(io.env),
              cwd: io.cwd,
              columns: io.columns,
              trace: !!io.env.GSTACK_TRACE,
              pid: process.pid,
              build,
            });
            return;
          case 'accepted':
            if (phase !== 'sent') return;
            phase = 'accepted';
            trace(`handed to host pid ${hostPid}`);
            if (io.signal.aborted) onAbort();
            else io.signal.addEventListener('abort', onAbort, { once: true });
            return;
          case 'deadline':
            if (phase !== 'accepted') return;
            started = true;
            deadlineMs = msg.ms;
            clearTimeout(killTimer);
            killTimer = setTimeout(() => void killForDeadline(), msg.ms + DEADLINE_GRACE_MS);
            return;
          case 'out':
            if (phase === 'accepted') io.out(msg.s);
            return;
          case 'err':
            if (phase === 'accepted') io.err(msg.s);
            return;
          case 'need-stdin':
            if (phase === 'accepted') {
              stdinRead = true;
              // A script at most: the host refuses more (the socket would not carry an endless pipe).
              void io.readStdin(MAX_SCRIPT_BYTES).then(
                (data) => send({ t: 'stdin', data }),
                () => send({ t: 'stdin', data: '' }),
              );
            }
            return;
          case 'exit':
            if (phase !== 'accepted') return;
            trace('host exit');
            return settle({ kind: 'exit', code: msg.code });
          case 'stale':
            void waitGone(hostPid, 15_000).then(() => settle('retry'));
            return;
          default:
            return;
        }
      }, (err) => {
        socket.destroy();
        if (phase === 'accepted') fail(`The host sent ${err.message} A call's result crosses it whole, its output and the list of the files it wrote: print less (write big data to a file under pwd and --out it) or lower --max-output, and write fewer files (many small ones: put them in one, or an archive).`);
        else settle('retry');
      }),
    );
  });
}

/** The session's call that `hostPid` runs, while the process it runs for lives. */
async function liveCallIn(profileDir: string, hostPid: number): Promise<LockHolder | undefined> {
  const call = await lockHolder(profileDir);
  if (!call || call.runnerPid !== hostPid || call.pid === process.pid) return undefined;
  try {
    process.kill(call.pid, 0);
    return call;
  } catch {
    return undefined;
  }
}

/** The call's last line when the client, not the host, ends it: `[error] …` on stdout, or the
 * one JSON object `--json` promises. */
function printFailure(io: ClientIo, handOff: HostHandOff, message: string, exitCode: 1 | 4 = 1): void {
  if ('call' in handOff && handOff.call.call.flags.json) {
    const { key } = handOff.call.target;
    const result = runResult({
      exitCode,
      engine: 'chromium',
      session: { key: key.key, source: key.source, slug: key.slug, profile: handOff.target.profileDir, ephemeral: false },
      error: message,
    });
    io.out(JSON.stringify(result) + '\n');
  } else {
    io.out(`[error] ${message}\n`);
  }
}

/** Asks a host for its status (`gstack sessions list`); undefined when none answers quickly. */
export async function queryHost(address: HostAddress, timeoutMs = 1_000): Promise<HostStatus | undefined> {
  const socket = await connect(address.socket);
  if (!socket) return undefined;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), timeoutMs);
    const done = (s: HostStatus | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(s);
    };
    socket.on('close', () => done(undefined));
    socket.on(
      'data',
      decoder((raw) => {
        const msg = parseHostMessage(raw);
        if (msg?.t === 'hello') socket.write(encode({ t: 'status' }));
        else if (msg?.t === 'status') done(msg.status);
        else if (!msg) done(undefined);
      }),
    );
  });
}
