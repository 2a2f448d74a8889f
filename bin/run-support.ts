// Shared by the commands that run a flow script (run, cookbook): reading the script and
// mapping CLI flags onto runScript options.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunOptions } from '../driver/run.js';
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

function runFlagsToOptions(argv: Record<string, unknown>): RunOptions {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  for (const name of ['timeout', 'lock-timeout', 'max-output']) {
    const v = argv[name];
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)) {
      throw new UsageError(`--${name} must be a positive number (got ${String(v)}).`);
    }
  }
  return {
    engine: argv.engine as RunOptions['engine'],
    session: argv.session as string | undefined,
    profile: argv.profile as string | undefined,
    ephemeral: !!argv.ephemeral,
    timeoutMs: num(argv.timeout),
    lockTimeoutMs: num(argv['lock-timeout']),
    maxOutput: num(argv['max-output']),
    out: argv.out as string | undefined,
    connect: argv.connect as string | undefined,
    cdp: argv.cdp as string | undefined,
    headed: !!argv.headed,
    allowFileUrls: !!argv['allow-file-urls'],
  };
}

/** Runs a flow script the way every script-running command does: lines streamed to stdout
 * (or one JSON object with --json), notices to stderr, the IO's abort signal (SIGINT/SIGTERM,
 * or a host's client going away) stops the call, and the call's truthful code becomes the
 * exit code. */
export async function runFlowCall(script: string, argv: Record<string, unknown>, io: CliIo): Promise<void> {
  const { runScript } = await import('../driver/run.js');
  const json = !!argv.json;
  const result = await runScript(script, {
    ...runFlagsToOptions(argv),
    env: io.env,
    cwd: io.cwd,
    signal: io.signal,
    callerPid: io.callerPid,
    sessionHost: io.sessionHost,
    armDeadline: io.armDeadline,
    onLine: json ? undefined : (line) => io.out(line + '\n'),
    onNotice: (line) => io.err(line + '\n'),
  });
  if (json) io.out(JSON.stringify(result) + '\n');
  io.exitCode = result.exitCode;
}
