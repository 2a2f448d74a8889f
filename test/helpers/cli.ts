// The one way tests run the `gstack` CLI: the compiled entry (dist/bin/gstack.cjs, built by
// `npm test`) spawned the way an agent's shell runs it, each call the leader of its own process
// group (so a test can signal the whole group, as a terminal would). `runCli` runs a call to its
// end; `startCli` hands back the live process for tests that type into it, wait for a line or
// kill it; `cliWith` binds a suite's own defaults (cwd, env, a leading subcommand).
//
// The environment of a call: this process's, then the test defaults (no Aside probe, hosts
// idle out after 20 s), then `env`. A variable set to undefined in `env` is removed; `exactEnv`
// uses `env` alone.
//
// Each test file has its own GSTACK_HOME and runtime directory (isolatedEnv), set in this
// process's environment as soon as a file imports this helper: node --test runs every file in
// a process of its own, so files that run side by side (test/run-tier.ts) share no profile,
// session host, render host or socket, and a test that looks for its leftover processes by a
// profile path sees only its own.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'dist', 'bin', 'gstack.cjs');

/** Session hosts started by tests keep their browser this long after their last call (a real
 * user's wait 5 minutes): long enough for a test's consecutive calls to share one, short
 * enough that a suite's many sessions do not pile up browsers. An idle host and its browser
 * take about 2% of a core, so 20 s of it for each of the tier's ~130 hosts was ~50 CPU s. */
export const TEST_HOST_IDLE_MS = '8000';

const TEST_DEFAULTS: NodeJS.ProcessEnv = { GSTACK_SKIP_ASIDE: '1', GSTACK_HOST_IDLE_MS: TEST_HOST_IDLE_MS };

export interface CliOptions {
  /** On top of this process's environment and the test defaults; undefined removes a variable. */
  env?: NodeJS.ProcessEnv;
  /** Use `env` as the whole environment (tests that build it from scratch). */
  exactEnv?: boolean;
  /** Default: the repository root. */
  cwd?: string;
  /** Written to stdin, which then ends (unless keepStdinOpen). */
  input?: string;
  /** stdin stays open: a terminal the test types into later (child.stdin.write). startCli only. */
  keepStdinOpen?: boolean;
  /** runCli only: SIGKILL the call after this long (default 90 s), so a hung call fails its test
   * instead of the whole run. */
  timeoutMs?: number;
}

export interface CliResult {
  /** The arguments the call was given (after `gstack`). */
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout's non-empty lines. */
  lines: string[];
  pid: number;
  startedAt: number;
  endedAt: number;
  /** Wall time from spawn to exit. */
  ms: number;
}

export interface CliRun {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout has a line matching `re`. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  done: Promise<CliResult>;
}

/** A test file's own places: what GSTACK_HOME and XDG_RUNTIME_DIR name in its process. */
export interface IsolatedEnv {
  GSTACK_HOME: string;
  /** 0700, as a real per-user runtime directory is (driver/hosts/address.ts refuses others). */
  XDG_RUNTIME_DIR: string;
}

let isolated: IsolatedEnv | undefined;

/**
 * This test file's own GSTACK_HOME and XDG_RUNTIME_DIR, made on first use and set in this
 * process's environment, so the CLI calls it spawns and the library calls it makes in-process
 * both use them. When the process exits, the hosts started under them are stopped (a stop
 * scoped to this runtime directory touches no other file's or agent's host) and both
 * directories are removed.
 */
export function isolatedEnv(): IsolatedEnv {
  if (isolated) return isolated;
  const runtime = mkdtempSync(join(tmpdir(), 'gstack-test-xdg-'));
  chmodSync(runtime, 0o700);
  isolated = { GSTACK_HOME: mkdtempSync(join(tmpdir(), 'gstack-test-home-')), XDG_RUNTIME_DIR: runtime };
  Object.assign(process.env, isolated);
  process.once('exit', () => {
    const env = { ...process.env, ...TEST_DEFAULTS, ...isolated };
    // Sockets or locks in the runtime directory: some host may still run there.
    const hosts = join(runtime, 'gstack');
    if (existsSync(BIN) && existsSync(hosts) && readdirSync(hosts).length) {
      spawnSync(process.execPath, [BIN, 'sessions', 'stop', '--all', '--force'], { env, stdio: 'ignore', timeout: 20_000 });
    }
    for (const d of Object.values(isolated!)) rmSync(d, { recursive: true, force: true, maxRetries: 3 });
  });
  return isolated;
}

isolatedEnv();

export function tempHome(prefix = 'gstack-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The environment of the sessions suites: a private GSTACK_HOME, no housekeeping, and no
 * session key from the test runner's own environment (the key comes from --session). */
export function cliEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...isolatedEnv(),
    GSTACK_HOME: home,
    ...TEST_DEFAULTS,
    GSTACK_HOUSEKEEPING: '0',
    ...extra,
    GSTACK_SESSION_KEY: undefined,
    CLAUDE_SESSION_ID: undefined,
    CONDUCTOR_WORKSPACE_ID: undefined,
  };
}

function environment(opts: CliOptions): NodeJS.ProcessEnv {
  const env = opts.exactEnv ? { ...opts.env } : { ...process.env, ...TEST_DEFAULTS, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

/** Starts `gstack ...args` and returns at once. */
export function startCli(args: string[], opts: CliOptions = {}): CliRun {
  return startCommand(process.execPath, [BIN, ...args], args, environment(opts), opts);
}

/** Runs any command (npm, npx, an installed `gstack` shim) to its end with exactly `env`. */
export async function runCommand(cmd: string, args: string[], opts: Omit<CliOptions, 'exactEnv'> = {}): Promise<CliResult> {
  return finish(startCommand(cmd, args, args, environment({ ...opts, exactEnv: true }), opts), opts);
}

function startCommand(cmd: string, argv: string[], args: string[], env: NodeJS.ProcessEnv, opts: CliOptions): CliRun {
  const startedAt = Date.now();
  const child = spawn(cmd, argv, {
    cwd: opts.cwd ?? ROOT,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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
  // A command may stop reading before the input ends (a too-long script): that is its answer,
  // not the test's failure.
  child.stdin!.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
  if (opts.keepStdinOpen) child.stdin!.write(opts.input ?? '');
  else child.stdin!.end(opts.input ?? '');
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const endedAt = Date.now();
      resolve({ args, code, signal, stdout: out, stderr: err, lines: out.split('\n').filter((l) => l !== ''), pid: child.pid!, startedAt, endedAt, ms: endedAt - startedAt });
    });
  });
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
        void done.then(() => reject(new Error(`CLI exited before ${re} appeared. stdout:\n${out}\nstderr:\n${err}`)), () => {});
      });
    },
    done,
  };
}

/** Runs `gstack ...args` to its end. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return finish(startCli(args, opts), opts);
}

async function finish(run: CliRun, opts: CliOptions): Promise<CliResult> {
  const timer = setTimeout(() => run.child.kill('SIGKILL'), opts.timeoutMs ?? 90_000);
  try {
    return await run.done;
  } finally {
    clearTimeout(timer);
  }
}

export interface CliDefaults extends CliOptions {
  /** Arguments before each call's own, e.g. ['render']. */
  prefix?: string[];
}

/**
 * `runCli` with a suite's defaults bound. `defaults` may be a function, read at each call, for
 * values a suite sets up in before(). A call's own options win, and its env is layered on the
 * defaults' env.
 */
export function cliWith(defaults: CliDefaults | (() => CliDefaults)): (args: string[], opts?: CliOptions) => Promise<CliResult> {
  return (args, opts = {}) => {
    const { prefix = [], ...d } = typeof defaults === 'function' ? defaults() : defaults;
    return runCli([...prefix, ...args], { ...d, ...opts, env: { ...d.env, ...opts.env } });
  };
}

/** Asserts a call's exit code, showing the call and what it printed when it differs. */
export function expectExit(r: CliResult, code: number): void {
  assert.equal(r.code, code, `gstack ${r.args.join(' ')}\nexit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
}

/**
 * A script fragment that keeps its call running until the test calls `release(run)`: the call
 * prints HOLD_DIR=<its pwd>, then waits for a file named RELEASE there (the script's fs reaches
 * its own pwd only), `maxMs` at most, so a test that fails first leaves no call behind for
 * long. For a call that must still be running while the test does other things: a fixed sleep
 * must outlast all of them on the slowest machine (a 25 s one ran out under B's commands at
 * load 14), and then idles for the rest of it.
 */
export function holdScript(maxMs = 120_000): string {
  return `console.log("HOLD_DIR=" + pwd); for (const until = Date.now() + ${maxMs}; Date.now() < until && !(await fs.readdir(pwd)).includes("RELEASE");) await sleep(100);`;
}

/** Lets a call running `holdScript()` go on. */
export function release(run: CliRun): void {
  const dir = /^HOLD_DIR=(.+)$/m.exec(run.stdout())?.[1];
  assert.ok(dir, `the held call printed no HOLD_DIR= line:\n${run.stdout()}\n${run.stderr()}`);
  writeFileSync(join(dir, 'RELEASE'), '');
}
