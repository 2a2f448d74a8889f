// Which host, if any, a `gstack` invocation is handed to, and what it is handed
// (docs/ARCHITECTURE.md, "Hosts").
//
// Owns the client's reading of argv, before anything but Node built-ins is loaded:
// - `run`, `cookbook <shape>` and `flows save|run|check`: the command line is read here into a
//   call (driver/hosts/call.ts) and its target resolved (driver/hosts/call-target.ts); a call on the
//   local Chromium profile is handed to its session's host, which runs it without parsing argv
//   again. The reader takes the plain forms only (`--name value`, `--name=value`, `-f FILE`,
//   `--no-flag`, lists) and says undefined for anything else (help, an unknown or repeated
//   flag, `--`, a value that starts with `-`, a number that is not plain digits): the CLI's
//   yargs layer then reads the line in this process, says what is wrong with it or hands the
//   same call to the host itself (driver/cli/call.ts). Its reading of a plain line is yargs' reading.
// - `render`, `pdf` and `diagram` on Chromium go to the user's render host with their argv.
// - everything else runs in this process.
import { HOST_COMMAND_FLAGS, readCookbookFlags, readFlowsFlags, readRunFlags, type HostFlagSpec } from '../catalog.gen.js';
import { decideEngine } from '../engines/select.js';
import { probeWithoutSpawning } from '../engines/aside-probe.js';
import { hostsDisabled, resolveCallTarget } from './call-target.js';
import { FLOWS_RUNNING, isHostShape, type HostCall, type ResolvedCall } from './call.js';
import type { HostTarget } from './address.js';

/** What the client hands a host: a session host gets the resolved call, the render host argv. */
export type HostHandOff = { target: Extract<HostTarget, { kind: 'session' }>; call: ResolvedCall } | { target: Extract<HostTarget, { kind: 'render' }>; argv: string[] };

/** The value of `--name V` / `--name=V` (the last one wins, as in yargs). */
export function flagValue(argv: string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') break;
    if (argv[i] === `--${name}`) value = argv[i + 1];
    else if (argv[i].startsWith(`--${name}=`)) value = argv[i].slice(name.length + 3);
  }
  return value;
}

const RENDER_COMMANDS = new Set(['render', 'pdf', 'diagram']);

/** Does the engine rule (engines/select.ts) pick our Chromium for a render without probing Aside? */
function renderSurelyChromium(argv: string[], env: NodeJS.ProcessEnv): boolean {
  const engine = flagValue(argv, 'engine') ?? 'auto';
  if (engine !== 'auto' && engine !== 'aside' && engine !== 'chromium') return false; // the CLI says what is wrong
  const decision = decideEngine(engine, env, probeWithoutSpawning(env));
  return decision !== 'probe' && decision.engine === 'chromium';
}

/** The host for this invocation and what it is handed, or undefined to run it in this process. */
export function routeInvocation(argv: string[], env: NodeJS.ProcessEnv, cwd: string): HostHandOff | undefined {
  if (hostsDisabled(env)) return undefined;
  // A blank GSTACK_SESSION_KEY, or one with white space at an end, is a usage error, which the
  // full CLI says (bin/cli.ts).
  if (env.GSTACK_SESSION_KEY !== undefined && (!env.GSTACK_SESSION_KEY.trim() || env.GSTACK_SESSION_KEY.trim() !== env.GSTACK_SESSION_KEY)) return undefined;
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return undefined;
  if (RENDER_COMMANDS.has(argv[0] ?? '')) return renderSurelyChromium(argv, env) ? { target: { kind: 'render' }, argv } : undefined;
  const call = readHostCall(argv);
  if (!call) return undefined;
  const target = resolveCallTarget(call.flags, env, cwd, { hosts: true });
  return target.host ? { target: target.host, call: { call, target } } : undefined;
}

const NUMBER = /^\d{1,15}$/;

/**
 * A `run`, `cookbook <shape>` or `flows save|run|check` command line read into a call, or
 * undefined when it is anything but a plain one (see the top of this file). Flags are the
 * catalog's (HOST_COMMAND_FLAGS), defaults filled in by the same generated readers the yargs
 * layer uses.
 */
export function readHostCall(argv: string[]): HostCall | undefined {
  const command = argv[0];
  if (command !== 'run' && command !== 'cookbook' && command !== 'flows') return undefined;
  const specs: readonly HostFlagSpec[] = HOST_COMMAND_FLAGS[command];
  const byLong = new Map<string, HostFlagSpec>();
  const byShort = new Map<string, HostFlagSpec>();
  for (const f of specs) {
    byLong.set(f.name, f);
    for (const n of f.names) byLong.set(n, f);
    if (f.short) byShort.set(f.short, f);
  }
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const set = (f: HostFlagSpec, v: unknown): boolean => {
    if (f.list) {
      ((values[f.name] ??= []) as unknown[]).push(v);
      return true;
    }
    if (f.name in values) return false; // repeated: yargs would make a list of it
    values[f.name] = v;
    return true;
  };
  /** A flag's value (the next word): a word that starts with `-` is yargs' to read. */
  const valueOf = (f: HostFlagSpec, raw: string | undefined): unknown => {
    if (raw === undefined || raw === '' || raw.startsWith('-')) return undefined;
    // A session key or profile with white space at either end (`--session " "` from a blank
    // variable; Chromium strips it from a profile path) is a usage error, which yargs says.
    if ((f.name === 'session' || f.name === 'profile') && raw.trim() !== raw) return undefined;
    if (f.type === 'number') return NUMBER.test(raw) ? Number(raw) : undefined;
    if (f.choices && !f.choices.includes(raw)) return undefined;
    return raw;
  };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return undefined;
    if (a === '-' || !a.startsWith('-')) {
      positionals.push(a);
      continue;
    }
    let f: HostFlagSpec | undefined;
    let inline: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      inline = eq < 0 ? undefined : a.slice(eq + 1);
      f = byLong.get(name);
      if (!f && name.startsWith('no-') && inline === undefined) {
        const neg = byLong.get(name.slice(3));
        if (neg?.type !== 'boolean' || !set(neg, false)) return undefined;
        continue;
      }
    } else if (a.length === 2) {
      f = byShort.get(a[1]);
    }
    if (!f || f.type === 'count') return undefined;
    if (f.type === 'boolean') {
      // `--json false` would be yargs' (it takes a following true/false as the value).
      if (inline === undefined && (argv[i + 1] === 'true' || argv[i + 1] === 'false')) return undefined;
      if (inline !== undefined && inline !== 'true' && inline !== 'false') return undefined;
      if (!set(f, inline === undefined ? true : inline === 'true')) return undefined;
      continue;
    }
    if (f.type === 'array') {
      // An array flag takes every word up to the next flag, as yargs does.
      const words = inline !== undefined ? [inline] : [];
      while (inline === undefined && i + 1 < argv.length && !argv[i + 1].startsWith('-')) words.push(argv[++i]);
      if (!words.length || words.some((w) => valueOf(f, w) === undefined)) return undefined;
      for (const w of words) set(f, w);
      continue;
    }
    const raw = inline ?? argv[++i];
    const v = valueOf(f, raw);
    if (v === undefined || !set(f, v)) return undefined;
  }
  switch (command) {
    case 'run':
      if (positionals.length > 1) return undefined;
      return { command, script: positionals[0], flags: readRunFlags(values) };
    case 'cookbook': {
      const shape = positionals[0];
      if (positionals.length !== 1 || !isHostShape(shape) || values.print === true) return undefined;
      return { command, shape, flags: readCookbookFlags(values) };
    }
    case 'flows': {
      const [action, ...args] = positionals;
      const running = FLOWS_RUNNING.find((x) => x === action);
      if (!running) return undefined;
      return { command, action: running, args, flags: readFlowsFlags(values) };
    }
  }
}
