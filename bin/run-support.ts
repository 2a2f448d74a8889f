// Shared by the commands that run a flow script (run, cookbook): reading the script,
// mapping CLI flags onto runScript options, and exiting only after stdout is flushed.
import { readFile } from 'node:fs/promises';
import type { RunOptions } from '../driver/run.js';
import { UsageError } from './cli-flags.js';

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readScriptSource(script: string | undefined, file: string | undefined): Promise<string> {
  if (file !== undefined && script !== undefined) throw new UsageError('Give the script either as an argument or with -f FILE, not both.');
  if (file !== undefined) {
    if (file === '-') return readStdin();
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`Cannot read script file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Check the path.`);
    }
  }
  if (script === '-') return readStdin();
  if (script === undefined || !script.trim()) {
    throw new UsageError("No script given. Usage: gstack run '<script>' | gstack run -f flow.js | echo '<script>' | gstack run -");
  }
  return script;
}

export function runFlagsToOptions(argv: Record<string, unknown>): RunOptions {
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
  };
}

/** Exit once everything written to stdout/stderr has been handed to the OS, so a reader on a
 * slow pipe never loses the last lines (the sentinel or the [error] line). */
export function exitAfterFlush(code: number): void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.destroyed || !stream.writable) done();
    else stream.write('', done);
  }
  // A pipe whose reader is stuck must not keep a finished call alive forever.
  setTimeout(() => process.exit(code), 5000).unref();
}

/** Runs a flow script the way every script-running command does: lines streamed to stdout
 * (or one JSON object with --json), notices to stderr, SIGINT/SIGTERM stop the call and its
 * browser, and the process exits with the call's truthful code. */
export async function runAndExit(script: string, argv: Record<string, unknown>): Promise<void> {
  const { runScript } = await import('../driver/run.js');
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const json = !!argv.json;
  // A reader that goes away (`| head -1`) must not crash the call half-way: stop writing, let
  // the call finish and close its browser in order, and exit with its code.
  let readerGone = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') readerGone = true;
    else throw err;
  });
  const out = (text: string) => {
    if (!readerGone) process.stdout.write(text);
  };
  const result = await runScript(script, {
    ...runFlagsToOptions(argv),
    signal: controller.signal,
    onLine: json ? undefined : (line) => out(line + '\n'),
    onNotice: (line) => process.stderr.write(line + '\n'),
  });
  if (json) out(JSON.stringify(result) + '\n');
  exitAfterFlush(result.exitCode);
}
