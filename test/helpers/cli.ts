// Spawns the compiled CLI (dist/bin/gstack.cjs, built by `npm test`) the way an agent does.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'dist', 'bin', 'gstack.cjs');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout's non-empty lines. */
  lines: string[];
  pid: number;
  /** Wall time from spawn to exit. */
  ms: number;
}

/** Session hosts started by tests keep their browser this long after their last call (a real
 * user's wait 5 minutes): long enough for a test's consecutive calls to share one, short
 * enough that a suite's many sessions do not pile up browsers. */
export const TEST_HOST_IDLE_MS = '20000';

export function tempHome(prefix = 'gstack-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Runs `gstack ...args` to its end. The environment is this process's with GSTACK_SKIP_ASIDE=1
 * and `env` on top, or exactly `env` with `exactEnv` (tests that remove variables, e.g. to let
 * the Aside probe run).
 */
export function runCli(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; exactEnv?: boolean; input?: string; cwd?: string; timeoutMs?: number; onSpawn?: (pid: number) => void } = {},
): Promise<CliResult> {
  const env = opts.exactEnv ? opts.env : { ...process.env, GSTACK_SKIP_ASIDE: '1', GSTACK_HOST_IDLE_MS: TEST_HOST_IDLE_MS, ...opts.env };
  return runCommand(process.execPath, [BIN, ...args], { ...opts, cwd: opts.cwd ?? ROOT, env });
}

/** Runs any command (npm, npx, an installed shim) to its end with exactly `env`; killed after
 * `timeoutMs` (default 90 s). */
export function runCommand(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string; timeoutMs?: number; onSpawn?: (pid: number) => void } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(cmd, args, { cwd: opts.cwd ?? ROOT, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'] });
    opts.onSpawn?.(child.pid!);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, lines: stdout.split('\n').filter((l) => l !== ''), pid: child.pid!, ms: Date.now() - started });
    });
    child.stdin.end(opts.input ?? '');
  });
}
