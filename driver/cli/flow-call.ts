// Shared by the commands that run a flow script (run, cookbook, flows): reading the script and
// mapping CLI flags onto runScript options.
import { readSharedFlags, type SharedFlags } from '../catalog.gen.js';
import type { CallTarget } from '../hosts/call-target.js';
import { MAX_SCRIPT_BYTES } from '../call-io.js';
import { resolve } from 'node:path';
import { millisecondsProblem, UsageError } from '../errors.js';
import { readRegularFile } from '../read-file.js';
import type { RunOptions, RunResult } from '../runner/run-script.js';
import type { CliIo } from './process-io.js';
import { jsonText } from '../runtime/output.js';

/** The largest script file `-f` reads (a flow script is a few KB; 4 MiB is far past any). */
export { MAX_SCRIPT_BYTES };

/**
 * `-f FILE`, read before the call's deadline starts, so it must never block: read by the one
 * bounded reader (driver/read-file.ts: opened without waiting, a regular file checked on the
 * open handle, at most MAX_SCRIPT_BYTES counted in the bytes read); a FIFO, socket, device or
 * directory is a usage error.
 */
async function readScriptFile(file: string, cwd: string): Promise<string> {
  // `/dev/stdin` and `/proc/self/fd/0` name the standard input of whichever process opens them
  // (a session host's is /dev/null; a socket fails to open): the script comes in on `-`.
  if (/^\/dev\/(?:stdin|fd\/\d+)$|^\/proc\/(?:self|thread-self|\d+)\/fd\/\d+$/.test(resolve(cwd, file))) {
    throw new UsageError(`Script file ${file} names a standard input, not a file: pass the script on stdin with \`gstack run -\` (e.g. \`cat flow.js | gstack run -\`).`);
  }
  const r = await readRegularFile(resolve(cwd, file), MAX_SCRIPT_BYTES);
  if (r.ok) return r.bytes.toString('utf8');
  switch (r.why) {
    case 'directory':
      throw new UsageError(`Script file ${file} is a directory: give the path of a .js file.`);
    case 'special':
      throw new UsageError(`Script file ${file} is ${r.detail.replace(/, not a regular file$/, '')}, not a regular file: give a file, or pipe the script in with \`gstack run - < ${file}\`.`);
    case 'too-big':
      throw new UsageError(
        r.size === undefined
          ? `Script file ${file} grew past ${MAX_SCRIPT_BYTES} bytes while it was read.`
          : `Script file ${file} is ${r.size} bytes; a flow script may have at most ${MAX_SCRIPT_BYTES}. Split the flow into several calls.`,
      );
    default:
      throw new UsageError(`Cannot read script file ${file}: ${r.detail}. Check the path.`);
  }
}

/** Stdin, bounded in size and in time: a pipe that never closes would hold the call before its
 * deadline is armed, and an endless `yes |` grew the client without bound (docs/SECURITY.md,
 * "bad input is a usage error, never a hang"). The script (`-`) and `--params @-` read it so. */
async function readStdinBounded(io: Pick<CliIo, 'readStdin'>, timeoutMs: number, maxBytes: number, why: { late: string; tooBig: string }): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UsageError(why.late)), timeoutMs);
    timer.unref?.();
  });
  const text = await Promise.race([io.readStdin(maxBytes), late]).finally(() => clearTimeout(timer));
  if (Buffer.byteLength(text) > maxBytes) throw new UsageError(why.tooBig);
  return text;
}

/** A script from stdin: at most MAX_SCRIPT_BYTES, as `-f`. */
function readStdinScript(io: CliIo, timeoutMs: number): Promise<string> {
  return readStdinBounded(io, timeoutMs, MAX_SCRIPT_BYTES, {
    late: `The script on stdin did not end within --timeout (${timeoutMs} ms): the pipe was never closed. Close it after the script (e.g. \`gstack run - <<'EOF'\` … \`EOF\`), or pass the script with -f FILE.`,
    tooBig: `The script on stdin is over ${MAX_SCRIPT_BYTES} bytes; a flow script may have at most that. Split the flow into several calls.`,
  });
}

/** The most output a call keeps (--max-output): its result crosses the host socket whole, whose
 * bound is 64 MiB, and `--json` spells a line longer than it is (pass 36, C36). */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** The most a `--params @FILE` may hold: parameters, not data (data goes in with --in). */
export const MAX_PARAMS_FILE_BYTES = 1024 * 1024;

/**
 * `--params` as given, or, for `@FILE`, the JSON in FILE (relative to the caller's folder), or
 * for `@-` the JSON on stdin: a test password in a command line is readable by every user of
 * the machine (`ps`), a file of mode 0600 only by its owner (docs/SECURITY.md, "Values on a
 * command line"). Read like `-f`: bounded, a regular file, never a FIFO. A JSON object never
 * starts with `@`. `stdinTaken`: the script came on stdin, so the parameters cannot.
 */
export async function paramsText(raw: string | undefined, io: Pick<CliIo, 'cwd' | 'readStdin'>, timeoutMs: number, stdinTaken = false, flag = '--params'): Promise<string | undefined> {
  if (raw === undefined || !raw.startsWith('@')) return raw;
  const file = raw.slice(1);
  if (!file) throw new UsageError(`${flag} @ names no file: give ${flag} @params.json, ${flag} @- (stdin), or the JSON itself.`);
  if (file === '-') {
    if (stdinTaken) throw new UsageError(`${flag} @-: stdin holds the script. Give the script with -f FILE, or the parameters with ${flag} @params.json.`);
    return readStdinParams(io, timeoutMs, flag);
  }
  // Process substitution (`@<(printf …)`) names a pipe of the caller's shell, which a session
  // host (another process) cannot open, and which is no regular file (trial V3).
  if (/^\/(?:dev|proc\/self)\/fd\//.test(file)) {
    throw new UsageError(`${flag} @${file}: a pipe of your shell (process substitution), which gstack does not read. Pipe the JSON to ${flag} @- (stdin), or write it to a file of mode 0600 and give ${flag} @FILE.`);
  }
  const r = await readRegularFile(resolve(io.cwd, file), MAX_PARAMS_FILE_BYTES);
  if (r.ok) return r.bytes.toString('utf8');
  const why = r.why === 'too-big' ? `more than ${MAX_PARAMS_FILE_BYTES} bytes (parameters, not data: pass data with --in)` : r.detail;
  throw new UsageError(`${flag} @${file}: ${why}. Give the path of a JSON file holding one object, e.g. {"password":"…"}, or pipe it to ${flag} @-.`);
}

/** A parameter name as a flow declares one (and a `--param` word can spell it). */
const PARAM_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * `flows run` and `flows check` --param words, where a word `@FILE` (relative to the caller's
 * folder) or `@-` (stdin) stands for a JSON object of parameters, read like `--params @FILE`:
 * a secret on a command line is readable by every user of the machine (`ps`), and `gstack mcp`
 * hands its `flows_run` parameters over this way (pass 39, A39). Each value is a word, as if
 * given as `--param name=value`: the flow's own types read it. No message quotes a value.
 */
export async function expandParamFiles(words: readonly string[], io: CliIo, timeoutMs: number, opts: { typed?: boolean; stdinTaken?: boolean } = {}): Promise<string[]> {
  const out: string[] = [];
  if (words.filter((w) => w === '@-').length > 1) throw new UsageError('--param @- is given twice: stdin holds one JSON object of parameters. Put them all in it, or give the others as --param name=value.');
  for (const word of words) {
    if (!word.startsWith('@')) {
      out.push(word);
      continue;
    }
    const text = await paramsText(word, io, timeoutMs, !!opts.stdinTaken, '--param');
    const bad = (why: string) => new UsageError(`--param ${word}: ${why}. Give a JSON object of parameters, e.g. {"email":"a@b.test","password":"…"}.`);
    let value: unknown;
    try {
      value = JSON.parse(text ?? '');
    } catch {
      throw bad('not JSON');
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad('not a JSON object');
    for (const [name, v] of Object.entries(value)) {
      if (!PARAM_NAME.test(name)) throw bad(`${JSON.stringify(name)} is not a parameter name`);
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw bad(`the value of ${name} is not a string, number or boolean`);
      // `flows save` declares each parameter's type from the word (name:number=3); a run's types are the flow's.
      const type = opts.typed && typeof v !== 'string' ? `:${typeof v}` : '';
      out.push(`${name}${type}=${String(v)}`);
    }
  }
  return out;
}

function readStdinParams(io: Pick<CliIo, 'readStdin'>, timeoutMs: number, flag: string): Promise<string> {
  return readStdinBounded(io, timeoutMs, MAX_PARAMS_FILE_BYTES, {
    late: `${flag} @-: stdin did not end within --timeout (${timeoutMs} ms). Close it after the JSON, or give ${flag} @params.json.`,
    tooBig: `${flag} @-: more than ${MAX_PARAMS_FILE_BYTES} bytes on stdin (parameters, not data: pass data with --in).`,
  });
}

/** One word that ends like a script file's name (flow.js, ./checks/login.mjs). */
const SCRIPT_FILE_NAME = /^[^\s'"`;(){}=+]+\.(?:js|mjs|cjs|ts)$/;

export async function readScriptSource(script: string | undefined, file: string | undefined, io: CliIo, timeoutMs: number): Promise<string> {
  if (file !== undefined && script !== undefined) throw new UsageError('Give the script either as an argument or with -f FILE, not both.');
  if (file !== undefined) {
    if (file === '-') return readStdinScript(io, timeoutMs);
    return readScriptFile(file, io.cwd);
  }
  if (script === '-') return readStdinScript(io, timeoutMs);
  if (script === undefined || !script.trim()) {
    throw new UsageError("No script given. Usage: gstack run '<script>' | gstack run -f flow.js | echo '<script>' | gstack run -");
  }
  // `gstack run flow.js` would run the name as code and fail as "flow is not defined"; no script
  // of one word ending in .js means anything else (trial on a real app).
  if (SCRIPT_FILE_NAME.test(script.trim())) {
    throw new UsageError(`${JSON.stringify(script.trim())} is a file name, not a script: the argument is the script's code. Read a file with -f: -f ${JSON.stringify(script.trim())}.`);
  }
  return script;
}

/** The options of runScript from the flags every script-running command shares (their names,
 * types and defaults are the catalog's: catalog.gen.ts). */
function runFlagsToOptions(flags: SharedFlags): RunOptions {
  for (const [name, v] of [['timeout', flags.timeout], ['lock-timeout', flags.lockTimeout]] as const) {
    const problem = millisecondsProblem(name, v);
    if (problem) throw new UsageError(problem);
  }
  if (!Number.isSafeInteger(flags.maxOutput) || flags.maxOutput <= 0 || flags.maxOutput > MAX_OUTPUT_BYTES) throw new UsageError(`--max-output must be a whole number of bytes from 1 to ${MAX_OUTPUT_BYTES} (32 MiB; got ${String(flags.maxOutput)}).`);
  // Both name the call's profile: one would be dropped without a word (pass 35, C35).
  if (flags.ephemeral && flags.profile !== undefined) throw new UsageError('--ephemeral and --profile both choose the call\'s profile (a throwaway one, or DIR): give one of them.');
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
    inputs: flags.in.length ? flags.in : undefined,
    evidence: flags.evidence,
  };
}

/** One script run with the invocation's shared flags, on the call's target (its session,
 * profile, engine: driver/hosts/call-target.ts); `print`: stream its lines to stdout (or print its
 * --json object) as `gstack run` does, else only return the result (`flows check`). Lines go
 * to stdout (or one JSON object with --json), notices to stderr; the IO's abort signal
 * (SIGINT/SIGTERM, or a host's client going away) stops the call. */
export async function runFlowScript(
  script: string,
  flags: SharedFlags,
  target: CallTarget,
  io: CliIo,
  opts: { params?: Record<string, unknown>; print: boolean; secrets?: readonly string[]; beforeForget?: (cut: (text: string) => string) => void },
): Promise<RunResult> {
  const { runScript } = await import('../runner/run-script.js');
  const json = flags.json;
  const print = opts.print;
  const result = await runScript(script, {
    ...runFlagsToOptions(flags),
    target,
    env: io.env,
    cwd: io.cwd,
    signal: io.signal,
    callerPid: io.callerPid,
    sessionHost: io.sessionHost,
    armDeadline: io.armDeadline,
    params: opts.params,
    secrets: opts.secrets,
    beforeForget: opts.beforeForget,
    onLine: json || !print ? undefined : (line) => io.out(line + '\n'),
    onNotice: (line) => io.err(line + '\n'),
  });
  if (json && print) io.out(jsonText(result) + '\n');
  return result;
}
