// Support for the sessions end-to-end tests: spawn the compiled CLI in its own process group
// with a private GSTACK_HOME, and find browser processes that still use a profile.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN as CLI, TEST_HOST_IDLE_MS } from './cli.js';

export { ROOT, BIN as CLI } from './cli.js';

export async function tempHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'gstack-sessions-test-'));
}

export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GSTACK_HOME: home, GSTACK_SKIP_ASIDE: '1', GSTACK_HOUSEKEEPING: '0', GSTACK_HOST_IDLE_MS: TEST_HOST_IDLE_MS, ...extra };
  // The key must come from --session in these tests, never from the test runner's own env.
  delete env.GSTACK_SESSION_KEY;
  delete env.CLAUDE_SESSION_ID;
  delete env.CONDUCTOR_WORKSPACE_ID;
  return env;
}

export interface CliRun {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout has a line matching `re`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; startedAt: number; endedAt: number }>;
}

/** Starts `node dist/bin/gstack.cjs ...args` as a process-group leader (so a test can kill the
 * whole group, as a terminal or an agent harness would). stdin gets `input` and ends, unless
 * `keepStdinOpen`. */
export function startCli(args: string[], env: NodeJS.ProcessEnv, opts: { input?: string; keepStdinOpen?: boolean } = {}): CliRun {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: Array<{ re: RegExp; resolve: () => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of [...waiters]) if (w.re.test(out)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  // Open stdin is a terminal the test types into later (child.stdin.write).
  if (opts.keepStdinOpen) child.stdin!.write(opts.input ?? '');
  else child.stdin!.end(opts.input ?? '');
  const done = new Promise<Awaited<CliRun['done']>>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: err, startedAt, endedAt: Date.now() })),
  );
  return {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    waitFor(re, timeoutMs = 30_000) {
      if (re.test(out)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`timed out waiting for ${re} in stdout:\n${out}\nstderr:\n${err}`)), timeoutMs);
        waiters.push({ re, resolve: () => (clearTimeout(t), resolve()) });
        void done.then(() => reject(new Error(`CLI exited before ${re} appeared. stdout:\n${out}\nstderr:\n${err}`)));
      });
    },
    done,
  };
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv, opts: { input?: string } = {}) {
  return startCli(args, env, opts).done;
}

function isZombie(pid: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true; // gone
  }
}

/** Live processes whose command line mentions `fragment` (e.g. a profile dir). */
export async function processesMentioning(fragment: string): Promise<Array<{ pid: number; cmd: string }>> {
  const out: Array<{ pid: number; cmd: string }> = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmd: string;
    try {
      cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).split('\0').join(' ');
    } catch {
      continue;
    }
    if (cmd.includes(fragment) && !isZombie(name)) out.push({ pid: Number(name), cmd: cmd.slice(0, 160) });
  }
  return out;
}

/** Waits up to `ms` for no live process to mention `fragment`; returns what is left. */
export async function waitNoProcesses(fragment: string, ms = 3000): Promise<Array<{ pid: number; cmd: string }>> {
  const until = Date.now() + ms;
  for (;;) {
    const left = await processesMentioning(fragment);
    if (!left.length || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILL a process group, ignoring a group that is already gone. */
export function killGroup(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    /* gone */
  }
}

/** The process group id of a pid (Linux /proc). */
export function pgidOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}
