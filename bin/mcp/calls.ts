// How `gstack mcp` runs a tool call: as the `gstack` command itself, one child process per call
// (docs/ARCHITECTURE.md, "MCP").
//
// Owns: spawning the command, collecting its output, ending it when the call is cancelled or
// the client goes away, and knowing which calls are still running. Why a child and not an
// in-process call: the child is exactly what a shell runs, so a tool call gets the CLI's
// whole path for free and cannot drift from it: the session host, the session lock (its holder
// is the child's pid, so a lock is never left to a server that lives on), the client-side
// deadline that ends a wedged host (`--timeout`), file confinement and the output filter. The
// thin entry starts in tens of milliseconds; the browser stays up in the session host.
//
// Ending a call: SIGTERM is the CLI's interrupt (driver/cli/process-io.ts): the child tells the host to
// abort the script, closes the call's tabs and releases the lock; a host that does not answer
// within 3 s is ended with its browser (driver/hosts/client.ts). A child still there after that
// grace is killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../driver/catalog.js';

/** The command every tool call runs. */
export const GSTACK_ENTRY = join(PROJECT_ROOT, 'dist', 'bin', 'gstack.cjs');

/** After SIGTERM, how long a call may take to abort in order (the host's own 3 s, then its
 * kill, then the exit) before the child is killed. */
const ABORT_GRACE_MS = 8_000;

export interface CallResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The call was ended by a cancel or the client going away. */
  aborted: boolean;
}

export class Calls {
  private readonly running = new Set<ChildProcess>();

  constructor(private readonly opts: { env: NodeJS.ProcessEnv; cwd: string }) {}

  /** Runs `gstack <argv>` to its end (or until `signal` aborts it). */
  run(argv: string[], opts: { stdin?: string; signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {}): Promise<CallResult> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [GSTACK_ENTRY, ...argv], {
        cwd: this.opts.cwd,
        env: { ...this.opts.env, ...opts.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.running.add(child);
      let stdout = '';
      let stderr = '';
      let aborted = false;
      child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.stdin!.on('error', () => undefined); // a command that never reads stdin
      child.stdin!.end(opts.stdin ?? '');
      const onAbort = () => {
        aborted = true;
        this.end(child);
      };
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
      const done = (code: number) => {
        this.running.delete(child);
        opts.signal?.removeEventListener('abort', onAbort);
        resolve({ code, stdout, stderr, aborted });
      };
      child.on('error', (err) => {
        stderr += `[error] Could not start ${GSTACK_ENTRY}: ${err.message}. Build the package (npm run build) and start the server again.\n`;
        done(3);
      });
      child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
    });
  }

  /** Ends one call in order (the CLI's interrupt), then by force. */
  private end(child: ChildProcess): void {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), ABORT_GRACE_MS);
    timer.unref();
    child.once('close', () => clearTimeout(timer));
  }

  /** Ends every running call and resolves when all have exited. */
  async endAll(): Promise<void> {
    const children = [...this.running];
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('close', () => resolve());
            this.end(c);
          }),
      ),
    );
  }

  get size(): number {
    return this.running.size;
  }

  /** The processes of the calls still running. */
  pids(): number[] {
    return [...this.running].map((c) => c.pid).filter((p): p is number => p !== undefined);
  }
}
