// The commands that run a flow script (`run`, `cookbook <shape>`, `flows save|run|check`)
// from their parsed call on (docs/ARCHITECTURE.md, "One call"). Their command line was read by
// the client (driver/hosts/route.ts) or by the yargs layer (bin/commands/); either way the call
// comes here as a value, with its target (driver/hosts/call-target.ts):
// - `dispatchCall`, in the invoking process: hands the call to its session's host, or runs it
//   here when it has none (or none could take it);
// - `runResolvedCall`, in either process: runs it. A session host calls it directly for each
//   call it is handed: no argv parse, no CLI.
// Every line passes the one control filter, and a failure ends the call as the CLI ends one
// (`[error] …` on stderr, the error's exit code).
import { jsonErrorWhere } from '../flows/params.js';
import type { CliIo } from './process-io.js';
import { expandParamFiles, paramsText, readScriptSource, runFlowScript } from './flow-call.js';
import { UsageError, exitCodeOf } from '../errors.js';
import { oneLine, terminalSafe } from '../runtime/output.js';
import { HEADER_START } from '../flows/header.js';
import { resolveCallTarget, type CallTarget } from '../hosts/call-target.js';
import type { HostCall, ResolvedCall } from '../hosts/call.js';

/** Runs a parsed call from the invoking process: on its session's host when it has one, else
 * here. `io.exitCode` is the call's exit code. */
export async function dispatchCall(call: HostCall, io: CliIo): Promise<void> {
  const target = resolveCallTarget(call.flags, io.env, io.cwd, { hosts: !io.inHost && !io.hostTried });
  if (target.host) {
    const { callViaHost } = await import('../hosts/client.js');
    const code = await callViaHost(io, { target: target.host, call: { call, target } });
    if (code !== undefined) {
      io.exitCode = code;
      return;
    }
  }
  io.exitCode = await runResolvedCall({ call, target: { ...target, host: undefined } }, io);
}

/** Runs a call here and returns its exit code; errors become the `[error]` line on stderr. */
export async function runResolvedCall({ call, target }: ResolvedCall, rawIo: CliIo): Promise<number> {
  const io: CliIo = { ...rawIo, exitCode: 0, out: (t) => rawIo.out(terminalSafe(t)), err: (t) => rawIo.err(terminalSafe(t)) };
  try {
    switch (call.command) {
      case 'run':
        await runCommand(call, target, io);
        break;
      case 'cookbook':
        await cookbookCommand(call, target, io);
        break;
      case 'flows':
        await flowsCommand(call, target, io);
        break;
    }
    return io.exitCode;
  } catch (err) {
    // A usage error's second line is our hint; anything else may be a library's multi-line text.
    const message = err instanceof UsageError ? err.message : oneLine(err instanceof Error ? err.message : String(err));
    io.err(`[error] ${message}\n`);
    return exitCodeOf(err);
  }
}

/** `gstack run '<script>' | -f FILE | -`. */
async function runCommand(call: Extract<HostCall, { command: 'run' }>, target: CallTarget, io: CliIo): Promise<void> {
  const { flags } = call;
  const source = await readScriptSource(call.script, flags.file, io, flags.timeout);
  // `params` (catalog global): --params, checked against a saved flow's schema when the
  // script is one (driver/flows/params.ts, loaded only then).
  let params: Record<string, unknown> | undefined;
  if (flags.params !== undefined || source.startsWith(HEADER_START)) {
    const { paramsForScript } = await import('../flows/params.js');
    params = paramsForScript(source, await paramsText(flags.params, io, flags.timeout, call.script === '-' || flags.file === '-'));
  }
  io.exitCode = (await runFlowScript(source, flags, target, io, { params, print: true })).exitCode;
}

/** `gstack cookbook <shape> --url URL [--params JSON]`: the shape's script, run like `gstack run`. */
async function cookbookCommand(call: Extract<HostCall, { command: 'cookbook' }>, target: CallTarget, io: CliIo): Promise<void> {
  const { findShape, buildScript } = await import('../../cookbook/index.js');
  const shape = findShape(call.shape);
  if (!shape) throw new UsageError(`Unknown cookbook shape "${call.shape}". \`gstack cookbook list\` names them.`);
  const params = parseCookbookParams(await paramsText(call.flags.params, io, call.flags.timeout));
  if (call.flags.url !== undefined) params.url = call.flags.url;
  const script = buildScript(shape, params);
  io.exitCode = (await runFlowScript(script, call.flags, target, io, { print: true })).exitCode;
}

/** `--params JSON` of a cookbook shape: a JSON object. */
export function parseCookbookParams(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new UsageError(`--params is not valid JSON (${jsonErrorWhere(err)}). Quote it for the shell: --params '{"selector":"h1"}'.`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError('--params must be a JSON object, e.g. --params \'{"selector":"h1"}\'.');
  }
  return value as Record<string, unknown>;
}

/** `gstack flows save|run|check`: driver/cli/flows.ts, running scripts like `gstack run`. */
async function flowsCommand(call: Extract<HostCall, { command: 'flows' }>, target: CallTarget, io: CliIo): Promise<void> {
  const { runFlowsCommand } = await import('./flows.js');
  const f = call.flags;
  const args = call.args;
  let source: string | undefined;
  if (call.action === 'save' && args.length) {
    if (args[1] === undefined && f.file === undefined) {
      throw new UsageError(`No script given. Usage: gstack flows save ${args[0]} -f flow.js | gstack flows save ${args[0]} '<script>' | echo '<script>' | gstack flows save ${args[0]} -`);
    }
    source = await readScriptSource(args[1], f.file, io, f.timeout);
  }
  // `--param @FILE` / `@-` holds parameters off the command line (a test password above all):
  // save declares them with their JSON types (trial V8: save could only take one on argv).
  const param = call.action === 'run' || call.action === 'check' || call.action === 'save' ? await expandParamFiles(f.param, io, f.timeout, { typed: call.action === 'save', stdinTaken: call.action === 'save' && (args[1] === '-' || f.file === '-') }) : f.param;
  io.exitCode = await runFlowsCommand(
    { action: call.action, args, source, describe: f.describe, param, required: f.required, inputs: f.in, out: f.out, global: f.global, force: f.force, json: f.json },
    { out: (l) => io.out(l.endsWith('\n') ? l : l + '\n'), err: (l) => io.err(l + '\n'), cwd: io.cwd, env: io.env },
    // A saved flow's recorded inputs stand in for --in when none is given.
    (script, params, print, inputs, secrets, beforeForget) => runFlowScript(script, inputs ? { ...f, in: inputs } : f, target, io, { params, print, secrets, beforeForget }),
  );
}
