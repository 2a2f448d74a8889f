// A call a session host runs, as it crosses the socket (docs/ARCHITECTURE.md, "One call"): the
// command with its parsed positionals and flags, and where it runs (driver/hosts/call-target.ts).
//
// Owns the call's shape and its check at the host's edge (`parseResolvedCall`): the client
// parsed the command line (driver/hosts/route.ts, or the CLI's yargs layer when the line was
// not a plain one) and resolved the target, so the host runs the call without parsing argv
// again; what arrives is checked here once, against the catalog's flag table, into a typed
// value. Built-ins only: the client loads it.
import { HOST_COMMAND_FLAGS, type CookbookFlags, type CookbookPositionals, type FlowsFlags, type HostFlagSpec, type RunFlags } from '../catalog.gen.js';
import type { CallTarget } from './call-target.js';

/** The `gstack flows` actions that run a script (the others only read files). */
export const FLOWS_RUNNING = ['save', 'run', 'check'] as const;

export type FlowsAction = (typeof FLOWS_RUNNING)[number];
export type HostShape = Exclude<CookbookPositionals['shape'], 'list'>;

export type HostCall =
  /** `script`: the argument, `-` for stdin, absent with `-f`. */
  | { command: 'run'; script?: string; flags: RunFlags }
  | { command: 'cookbook'; shape: HostShape; flags: CookbookFlags }
  | { command: 'flows'; action: FlowsAction; args: string[]; flags: FlowsFlags };

/** Is this cookbook positional a shape a host runs (not `list`)? */
export const isHostShape = (s: string): s is HostShape => Object.hasOwn(HOST_SHAPES, s);

/** A call and where it runs: what the client hands a session host. */
export interface ResolvedCall {
  call: HostCall;
  target: CallTarget;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';
const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every(str);
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The flags object of a command, checked against the catalog's table: every field of the
 * right type, nothing else. */
function checkedFlags(v: unknown, specs: readonly HostFlagSpec[]): Obj | undefined {
  if (!isObj(v)) return undefined;
  const known = new Set(specs.map((f) => camel(f.name)));
  if (Object.keys(v).some((k) => !known.has(k))) return undefined;
  for (const f of specs) {
    const x = v[camel(f.name)];
    if (x === undefined) continue;
    const ok = f.list ? strings(x) : f.type === 'boolean' ? typeof x === 'boolean' : f.type === 'number' || f.type === 'count' ? typeof x === 'number' : str(x);
    if (!ok || (f.choices && !f.list && !f.choices.includes(x as string | number))) return undefined;
  }
  return v;
}

function checkedCall(v: unknown): HostCall | undefined {
  if (!isObj(v)) return undefined;
  switch (v.command) {
    case 'run': {
      const flags = checkedFlags(v.flags, HOST_COMMAND_FLAGS.run);
      if (!flags || (v.script !== undefined && !str(v.script))) return undefined;
      return { command: 'run', script: v.script as string | undefined, flags: flags as unknown as RunFlags };
    }
    case 'cookbook': {
      const flags = checkedFlags(v.flags, HOST_COMMAND_FLAGS.cookbook);
      if (!flags || !str(v.shape) || !Object.hasOwn(HOST_SHAPES, v.shape)) return undefined;
      return { command: 'cookbook', shape: v.shape as HostShape, flags: flags as unknown as CookbookFlags };
    }
    case 'flows': {
      const flags = checkedFlags(v.flags, HOST_COMMAND_FLAGS.flows);
      if (!flags || !(FLOWS_RUNNING as readonly unknown[]).includes(v.action) || !strings(v.args)) return undefined;
      return { command: 'flows', action: v.action as FlowsAction, args: v.args, flags: flags as unknown as FlowsFlags };
    }
    default:
      return undefined;
  }
}

/** The cookbook shapes a host runs: every one but `list` (a listing runs no script). A shape
 * the catalog adds or renames and this record misses does not compile. */
const HOST_SHAPES: Record<HostShape, true> = { read: true, flow: true, annotated: true, responsive: true, links: true, perf: true, pdf: true, 'element-shot': true, form: true };

function checkedTarget(v: unknown): CallTarget | undefined {
  if (!isObj(v) || !isObj(v.key) || !str(v.key.key) || !str(v.key.source) || !str(v.key.slug)) return undefined;
  if (!(v.profileDir === null || str(v.profileDir)) || typeof v.remote !== 'boolean' || typeof v.ephemeral !== 'boolean') return undefined;
  if (v.engine !== 'probe' && !(isObj(v.engine) && (v.engine.engine === null || str(v.engine.engine)) && str(v.engine.why))) return undefined;
  if (v.host !== undefined && !(isObj(v.host) && v.host.kind === 'session' && str(v.host.profileDir))) return undefined;
  return v as unknown as CallTarget;
}

/** A resolved call read off the socket, or undefined for anything malformed. */
export function parseResolvedCall(v: unknown): ResolvedCall | undefined {
  if (!isObj(v)) return undefined;
  const call = checkedCall(v.call);
  const target = checkedTarget(v.target);
  return call && target ? { call, target } : undefined;
}
