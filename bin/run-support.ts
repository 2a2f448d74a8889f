// Shared by the commands that run a flow script (run, cookbook, flows): reading the script and
// mapping CLI flags onto runScript options.
import { readSharedFlags, type SharedFlags } from '../driver/catalog.gen.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunOptions, RunResult } from '../driver/run.js';
import { UsageError } from './cli-flags.js';
import type { CliIo } from './cli-io.js';

export async function readScriptSource(script: string | undefined, file: string | undefined, io: CliIo): Promise<string> {
  if (file !== undefined && script !== undefined) throw new UsageError('Give the script either as an argument or with -f FILE, not both.');
  if (file !== undefined) {
    if (file === '-') return io.readStdin();
    try {
      return await readFile(resolve(io.cwd, file), 'utf8');
    } catch (err) {
      throw new UsageError(`Cannot read script file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Check the path.`);
    }
  }
  if (script === '-') return io.readStdin();
  if (script === undefined || !script.trim()) {
    throw new UsageError("No script given. Usage: gstack run '<script>' | gstack run -f flow.js | echo '<script>' | gstack run -");
  }
  return script;
}

/** The options of runScript from the flags every script-running command shares (their names,
 * types and defaults are the catalog's: catalog.gen.ts). */
function runFlagsToOptions(flags: SharedFlags): RunOptions {
  for (const [name, v] of [['timeout', flags.timeout], ['lock-timeout', flags.lockTimeout], ['max-output', flags.maxOutput]] as const) {
    if (!Number.isFinite(v) || v <= 0) throw new UsageError(`--${name} must be a positive number (got ${String(v)}).`);
  }
  return {
    engine: flags.engine,
    session: flags.session,
    profile: flags.profile,
    ephemeral: flags.ephemeral,
    timeoutMs: flags.timeout,
    lockTimeoutMs: flags.lockTimeout,
    maxOutput: flags.maxOutput,
    out: flags.out,
    connect: flags.connect,
    cdp: flags.cdp,
    headed: flags.headed,
    allowFileUrls: flags.allowFileUrls,
    inputs: flags.in?.map(String),
    evidence: flags.evidence,
  };
}

/** Runs a flow script the way every script-running command does: lines streamed to stdout
 * (or one JSON object with --json), notices to stderr, the IO's abort signal (SIGINT/SIGTERM,
 * or a host's client going away) stops the call, and the call's truthful code becomes the
 * exit code. */
export async function runFlowCall(script: string, argv: Record<string, unknown>, io: CliIo, params?: Record<string, unknown>): Promise<void> {
  io.exitCode = (await runFlowScript(script, argv, io, { params, print: true })).exitCode;
}

/** One script run with the invocation's shared flags; `print`: stream its lines to stdout (or
 * print its --json object) as `gstack run` does, else only return the result (`flows check`). */
export async function runFlowScript(
  script: string,
  argv: Record<string, unknown>,
  io: CliIo,
  opts: { params?: Record<string, unknown>; print: boolean },
): Promise<RunResult> {
  const { runScript } = await import('../driver/run.js');
  const flags = readSharedFlags(argv);
  const json = flags.json;
  const print = opts.print;
  const result = await runScript(script, {
    ...runFlagsToOptions(flags),
    env: io.env,
    cwd: io.cwd,
    signal: io.signal,
    callerPid: io.callerPid,
    sessionHost: io.sessionHost,
    armDeadline: io.armDeadline,
    params: opts.params,
    onLine: json || !print ? undefined : (line) => io.out(line + '\n'),
    onNotice: (line) => io.err(line + '\n'),
  });
  if (json && print) io.out(JSON.stringify(result) + '\n');
  return result;
}
