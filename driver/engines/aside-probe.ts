// The Aside readiness probe (docs/ARCHITECTURE.md, "One call") and the one place that spawns `aside repl`.
// Everything that talks to the Aside CLI goes through runAsideRepl, so the deadline, the
// line streaming and the process-group kill are written once and shared by the probe, the
// run adapter (aside.ts) and `gstack render`.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';

export type { ProbeOutcome } from '../catalog.gen.js';
import type { ProbeOutcome } from '../catalog.gen.js';

export interface ProbeResult {
  outcome: ProbeOutcome;
  /** One short line for humans and agents: never raw CLI output, private paths or tokens. */
  reason: string;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;
/** Tests (and impatient users) shorten the probe deadline without a flag. */
export const PROBE_TIMEOUT_ENV = 'GSTACK_ASIDE_PROBE_TIMEOUT_MS';
const READY_MARKER = 'ASIDE_READY';
const PROBE_SCRIPT = 'console.log("ASIDE_READY " + pwd)';
/** After SIGTERM, how long the CLI gets to tidy up before SIGKILL. */
const KILL_GRACE_MS = 2_000;

/** `command -v aside`, done in Node: no shell is spawned, so a machine without Aside pays
 * only a few stat calls. */
export function findAsideCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'aside');
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here (or not executable): keep looking, like the shell does
    }
  }
  return undefined;
}

export interface AsideReplOptions {
  timeoutMs: number;
  /** Each stdout line as it arrives (without the newline). */
  onLine?: (line: string) => void;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** The CLI to run; defaults to `aside` resolved on env.PATH. */
  asidePath?: string;
}

export interface AsideReplResult {
  /** null when the CLI was killed (timeout, abort) or could not be started. */
  exitCode: number | null;
  timedOut: boolean;
  /** Every stdout line, in order. */
  lines: string[];
  aborted?: boolean;
  /** The CLI could not be started at all (not found, not executable). */
  spawnError?: string;
  /** Last bytes of stderr, for classification only: callers must not print it verbatim. */
  stderrTail?: string;
  /** The CLI's process id (also its process group id), for callers that audit cleanup. */
  pid?: number;
}

/**
 * Runs `aside repl '<script>'`, streams stdout lines, and enforces the deadline. The CLI runs
 * in its own process group so that a timeout or abort takes down everything it started
 * (SIGTERM to the group, SIGKILL after a short grace), and the promise settles only once the
 * CLI is gone — no process is left behind.
 */
export function runAsideRepl(script: string, opts: AsideReplOptions): Promise<AsideReplResult> {
  const env = opts.env ?? process.env;
  const cli = opts.asidePath ?? findAsideCli(env);
  if (!cli) return Promise.resolve({ exitCode: null, timedOut: false, lines: [], spawnError: 'no `aside` command on PATH' });

  return new Promise((resolve) => {
    const lines: string[] = [];
    let timedOut = false;
    let aborted = false;
    let stderrTail = '';
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const child = spawn(cli, ['repl', script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });

    const killGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        if (process.platform !== 'win32') process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // already gone
      }
    };
    const stop = (): void => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    };

    const deadline = setTimeout(() => {
      timedOut = true;
      stop();
    }, Math.max(1, opts.timeoutMs));
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });

    const rl = createInterface({ input: child.stdout!, crlfDelay: Infinity });
    rl.on('line', (line) => {
      lines.push(line);
      // After the deadline the call is over: late lines must not reach the caller's output.
      if (!timedOut && !aborted) opts.onLine?.(line);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
    });

    const finish = (exitCode: number | null, spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      // A grandchild that outlived the CLI would keep the group alive: make sure it does not.
      if (timedOut || aborted) killGroup('SIGKILL');
      resolve({ exitCode, timedOut, lines, aborted: aborted || undefined, spawnError, stderrTail: stderrTail || undefined, pid: child.pid });
    };
    child.on('error', (err: NodeJS.ErrnoException) => finish(null, err.code ?? 'spawn failed'));
    // 'close' waits for stdout to drain, so every line has been delivered before we settle.
    child.on('close', (code) => finish(timedOut || aborted ? null : code));
    // A grandchild outside the group that inherited stdout would hold 'close' back forever:
    // once the CLI itself has exited, give the pipe a moment, then stop waiting for it.
    child.on('exit', (code) => {
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(timedOut || aborted ? null : code);
      }, 1_000).unref();
    });
  });
}

/** Heuristic for CLIs that exit non-zero when the app is closed: still "not running". */
const NOT_RUNNING_HINT = /not running|is not open|could not connect|cannot connect|ECONNREFUSED|no such file or directory.*sock/i;
/** Aside CLI 1.26 with the app open but no browser window: `No browser window is open for
 * account u0` on stderr, exit 1 (the probe and every script). */
const NO_WINDOW = /no browser window is open/i;

/** Whether the aside CLI's output says it has no browser window to run in. */
export function asideSaysNoWindow(output: string | undefined): boolean {
  return NO_WINDOW.test(output ?? '');
}

/** The probe's answer when there is no `aside` command to ask (a few stat calls, no spawn):
 * NEEDS_ASIDE; undefined when there is one, and only running it can tell. */
export function probeWithoutSpawning(env: NodeJS.ProcessEnv): ProbeResult | undefined {
  return findAsideCli(env) ? undefined : { outcome: 'NEEDS_ASIDE', reason: 'no `aside` command on PATH' };
}

/**
 * The readiness probe: `command -v aside`, then `aside repl 'console.log("ASIDE_READY " + pwd)'`
 * under a deadline (30 s, or GSTACK_ASIDE_PROBE_TIMEOUT_MS, or opts.timeoutMs).
 */
export async function probeAside(opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProbeResult> {
  const env = opts.env ?? process.env;
  const known = probeWithoutSpawning(env);
  if (known) return known;
  const cli = findAsideCli(env)!;

  const envTimeout = Number(env[PROBE_TIMEOUT_ENV]);
  const timeoutMs = opts.timeoutMs ?? (Number.isFinite(envTimeout) && envTimeout > 0 ? envTimeout : DEFAULT_PROBE_TIMEOUT_MS);
  const res = await runAsideRepl(PROBE_SCRIPT, { timeoutMs, env, asidePath: cli });

  if (res.timedOut) return { outcome: 'ASIDE_TIMEOUT', reason: `the aside CLI did not answer the readiness probe within ${formatSeconds(timeoutMs)}` };
  if (res.spawnError) return { outcome: 'ASIDE_CLI_ERROR', reason: `the aside CLI could not be started (${res.spawnError})` };
  const ready = res.lines.some((l) => l.startsWith(READY_MARKER + ' ') && l.length > READY_MARKER.length + 1);
  if (res.exitCode === 0 && ready) return { outcome: 'READY: aside', reason: 'the aside CLI answered the readiness probe' };
  if (res.exitCode !== 0) {
    const said = res.lines.join('\n') + '\n' + (res.stderrTail ?? '');
    // The account name the CLI prints is not repeated: the reason says only what to do.
    if (asideSaysNoWindow(said)) return { outcome: 'ASIDE_NOT_RUNNING', reason: 'the Aside app has no browser window open (open a window in Aside, then run again)' };
    if (NOT_RUNNING_HINT.test(said)) return { outcome: 'ASIDE_NOT_RUNNING', reason: 'the aside CLI says the Aside app is not running (open Aside)' };
    return { outcome: 'ASIDE_CLI_ERROR', reason: `the aside CLI exited with code ${res.exitCode ?? 'unknown'}` };
  }
  return { outcome: 'ASIDE_NOT_RUNNING', reason: 'the aside CLI answered without the readiness marker (is the Aside app open?)' };
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
