// The tools of `gstack mcp` (docs/ARCHITECTURE.md, "MCP"): their names, descriptions and input
// schemas, and how a call's arguments become the `gstack` command line that runs it.
//
// Owns: reading the catalog's `mcp.tools` (names, descriptions) and the commands' positionals and
// flags (argument schemas: one name per thing, so an argument is named like its flag), the
// cookbook shapes (one tool per shape, the shape's own JSON schema as its input schema), checking
// a call's arguments at this edge, and the argv. It runs nothing: bin/mcp/server.ts does.
//
// One tool per cookbook shape rather than one `cookbook` tool with the shape as a parameter: a
// client validates and shows each shape's own schema (required fields, enums, defaults) and the
// model sees each shape's description in the tool list, where a union of nine schemas behind a
// `shape` switch is a schema most clients render as "object" and cannot check.
import { createRequire } from 'node:module';
import { commandSpec, type Catalog, type Command, type Flag, type McpToolSpec } from '../../driver/catalog.js';
import { RENDER_STEP_FLAGS, RENDER_STEP_OF_OPTION } from '../../driver/catalog.gen.js';
import type { ParamSchema, Shape } from '../../cookbook/types.js';
import { FLOW_NAME } from '../../driver/flows/store.js';

export type JsonSchema = ParamSchema & { $comment?: string; propertyNames?: { pattern: string } };
export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
}

/** What runs a tool call: a flow call (`run`, a cookbook shape, a saved flow: JSON result,
 * images), a render (`render`, `pdf`, `diagram`: paths, confined to the client's roots), a
 * command whose lines are the answer (`flows list`), or the connection's sessions. */
export type ToolKind = 'flow' | 'render' | 'command' | 'sessions';

export interface ToolDef {
  name: string;
  description: string;
  inputSchema: ObjectSchema;
  kind: ToolKind;
  /** The arguments that name local files (catalog: a tool's `paths`); for render's `steps`, the
   * step options. bin/mcp/roots.ts confines them. */
  paths: string[];
  /** The `gstack` command line for checked arguments (the server adds `--session` and `--json`
   * to flow calls), and what the command reads from stdin. */
  argv(args: Record<string, unknown>): Invocation;
}

export interface Invocation {
  argv: string[];
  stdin?: string;
}

/** Arguments a tool refuses; the message names the field and says what to do. */
export class ToolArgumentsError extends Error {}

const SESSION_ARGS = new Set(['session', 'timeout', 'engine']);

/** The JSON schema of one catalog flag. */
function flagSchema(f: Flag): JsonSchema {
  const s: JsonSchema = { description: f.description };
  if (f.type === 'array') {
    s.type = 'array';
    s.items = { type: 'string' };
  } else if (f.type === 'count') s.type = 'integer';
  else s.type = f.type;
  if (f.choices) s.enum = [...f.choices];
  if (f.default !== undefined) s.default = f.default;
  return s;
}

/** `--name value` for one argument, as yargs reads it (a false boolean is `--no-name`). */
function flagArgv(name: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value === 'boolean') return [value ? `--${name}` : `--no-${name}`];
  if (Array.isArray(value)) return value.flatMap((v) => [`--${name}`, String(v)]);
  return [`--${name}`, String(value)];
}

function positionalSchema(p: NonNullable<Command['positionals']>[number]): JsonSchema {
  if (p.variadic) return { type: 'array', items: { type: 'string' }, minItems: 1, description: p.description };
  const s: JsonSchema = { type: 'string', description: p.description };
  if (p.choices) s.enum = [...p.choices];
  return s;
}

/** A tool over one command: its listed positionals and flags (shared flags included) become
 * arguments of the same names; `*` adds every other flag of the command. */
function commandTool(spec: McpToolSpec, catalog: Catalog, sessionText: string, kind: ToolKind): ToolDef {
  const cmd = commandSpec(spec.command, catalog);
  const shared = catalog.sharedFlags ?? [];
  const positionals = cmd.positionals ?? [];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const flagsUsed: Flag[] = [];
  const names = spec.arguments.flatMap((a) => (a === '*' ? cmd.flags.filter((f) => !f.step && !spec.arguments.includes(f.name)).map((f) => f.name) : [a]));
  for (const name of names) {
    const pos = positionals.find((p) => p.name === name);
    if (pos) {
      properties[name] = positionalSchema(pos);
      if (pos.required || spec.required?.includes(name)) required.push(name);
      continue;
    }
    if (name === 'steps') {
      properties.steps = renderStepsSchema(cmd);
      required.push('steps');
      continue;
    }
    const flag = cmd.flags.find((f) => f.name === name) ?? shared.find((f) => f.name === name);
    if (!flag) throw new Error(`driver/catalog.json mcp.tools "${spec.name}": "${name}" is neither a positional nor a flag of \`gstack ${cmd.name}\``);
    if (flag.name === 'json') continue; // the server always asks for JSON where the command has it
    properties[name] = flag.name === 'session' ? { type: 'string', minLength: 1, description: sessionText } : flagSchema(flag);
    flagsUsed.push(flag);
  }
  for (const [name, text] of Object.entries(spec.describe ?? {})) {
    if (!properties[name]) throw new Error(`driver/catalog.json mcp.tools "${spec.name}": describe names "${name}", which is not one of its arguments`);
    properties[name] = { ...properties[name], description: text };
  }
  const inputSchema: ObjectSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length) inputSchema.required = required;
  return {
    name: spec.name,
    description: spec.description + (kind === 'render' ? `\n\n\`gstack ${cmd.name}\`: ${cmd.description}` : ''),
    inputSchema,
    kind,
    paths: spec.paths ?? [],
    argv: (args) => {
      const out = [cmd.name];
      let stdin: string | undefined;
      for (const p of positionals) {
        const v = args[p.name];
        if (v === undefined || !(p.name in properties)) continue;
        // A script goes through stdin (`gstack run -`): no argument-length limit (128 KiB on
        // Linux), and a script that starts with `-` is never read as a flag.
        if (cmd.name === 'run' && p.name === 'script') {
          stdin = String(v);
          out.push('-');
        } else out.push(...(Array.isArray(v) ? v.map(String) : [String(v)]));
      }
      for (const f of flagsUsed) out.push(...flagArgv(f.name, args[f.name]));
      if (args.steps) out.push(...renderStepsArgv(args.steps as Array<Record<string, unknown>>));
      return { argv: out, stdin };
    },
  };
}

/** gstack render's ordered steps: each an object with one step flag (pdf, screenshot, eval) and
 * that step's options, named like the flags (catalog: a render flag's `step`). */
function renderStepsSchema(cmd: Command): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of cmd.flags.filter((x) => x.step)) properties[f.name] = flagSchema(f);
  return {
    type: 'array',
    minItems: 1,
    description: `The render steps, in order. Each is an object with exactly one of ${RENDER_STEP_FLAGS.join(', ')} and options of that step only.`,
    items: { type: 'object', properties, additionalProperties: false, minProperties: 1 },
  };
}

function renderStepsArgv(steps: Array<Record<string, unknown>>): string[] {
  return steps.flatMap((step) => {
    const opener = RENDER_STEP_FLAGS.find((s) => s in step)!;
    return [...flagArgv(opener, step[opener]), ...Object.entries(step).filter(([k]) => k !== opener).flatMap(([k, v]) => flagArgv(k, v))];
  });
}

/** What JSON schema cannot say of render's steps: exactly one step flag, options of that step. */
function checkRenderSteps(steps: Array<Record<string, unknown>>): void {
  steps.forEach((step, i) => {
    const openers = RENDER_STEP_FLAGS.filter((s) => s in step);
    if (openers.length !== 1) {
      throw new ToolArgumentsError(`\`steps[${i}]\` needs exactly one of ${RENDER_STEP_FLAGS.join(', ')} (it has ${openers.length ? openers.join(' and ') : 'none'}); put each step in its own object.`);
    }
    for (const key of Object.keys(step)) {
      if (key === openers[0]) continue;
      if (RENDER_STEP_OF_OPTION[key] !== openers[0]) {
        throw new ToolArgumentsError(`\`steps[${i}].${key}\` is an option of a ${RENDER_STEP_OF_OPTION[key] ?? 'different'} step, not of this ${openers[0]} step; move it to that step's object.`);
      }
    }
  });
}

/** One tool per cookbook shape: the shape's schema, plus the session arguments. */
function shapeTool(spec: McpToolSpec, shape: Shape, catalog: Catalog, sessionText: string): ToolDef {
  const run = commandTool({ ...spec, command: 'run', arguments: spec.arguments }, catalog, sessionText, 'flow');
  const { properties: shapeProps, ...rest } = structuredClone(shape.params);
  const inputSchema: ObjectSchema = { ...rest, type: 'object', properties: { ...shapeProps, ...run.inputSchema.properties } };
  return {
    name: `${spec.name}${shape.name.replace(/-/g, '_')}`,
    description: `${shape.summary} ${shape.description}\n\nPrints: ${shape.evidence.join(' ')}\n\n${spec.description}`,
    inputSchema,
    kind: 'flow',
    paths: [],
    argv: (args) => {
      const params = Object.fromEntries(Object.entries(args).filter(([k]) => !SESSION_ARGS.has(k)));
      const sessionArgs = Object.fromEntries(Object.entries(args).filter(([k]) => SESSION_ARGS.has(k)));
      // On stdin, never on the child's command line, which every user of the machine can read
      // (`ps`): a form's fields or a flow's typed values are test passwords (pass 41, A41).
      return { argv: ['cookbook', shape.name, '--params', '@-', ...run.argv(sessionArgs).argv.slice(1)], stdin: JSON.stringify(params) };
    },
  };
}

/** The sessions tool: list or stop this connection's own sessions (bin/mcp/server.ts runs it). */
function sessionsTool(spec: McpToolSpec, sessionText: string): ToolDef {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: {
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['list', 'stop'], description: 'list: this connection\'s sessions; stop: end one\'s background browser.' },
        session: { type: 'string', minLength: 1, description: `stop: which of this connection's sessions (default: its own). ${sessionText}` },
      },
      required: ['action'],
      additionalProperties: false,
    },
    kind: 'sessions',
    paths: [],
    argv: () => ({ argv: [] }),
  };
}

/** A `describe` text the catalog must give (an argument no flag describes). */
function described(spec: McpToolSpec, name: string): string {
  const text = spec.describe?.[name];
  if (!text) throw new Error(`driver/catalog.json mcp.tools "${spec.name}": describe "${name}" (no flag of \`gstack flows\` says what it is through MCP)`);
  return text;
}

/**
 * The saved-flow tools (`gstack flows list|run|save`). `run` and `save` are flow calls: the
 * server adds `--json` and `--session`, so a saved flow's result is read like `run`'s. A flow's
 * name must be a flow name before it reaches argv (never a flag); its parameters are checked
 * against the flow's own schema by the command, which names the one that is wrong.
 */
function flowsTool(spec: McpToolSpec, catalog: Catalog, sessionText: string): ToolDef {
  const action = spec.action;
  if (!action) throw new Error(`driver/catalog.json mcp.tools "${spec.name}": a \`gstack flows\` tool names its action (list, run or save)`);
  if (action === 'list') {
    if (spec.arguments.length) throw new Error(`driver/catalog.json mcp.tools "${spec.name}": flows list takes no arguments`);
    return { name: spec.name, description: spec.description, inputSchema: { type: 'object', properties: {}, additionalProperties: false }, kind: 'command', paths: [], argv: () => ({ argv: ['flows', 'list'] }) };
  }
  const own = new Set(action === 'run' ? ['name', 'params'] : ['name', 'script', 'param', 'required']);
  // The other arguments are flags of `gstack flows` (describe, global, force) and the shared
  // session flags, described and turned into argv as every command tool's are.
  const flags = commandTool({ ...spec, arguments: spec.arguments.filter((a) => !own.has(a)), describe: Object.fromEntries(Object.entries(spec.describe ?? {}).filter(([k]) => !own.has(k))) }, catalog, sessionText, 'flow');
  const properties: Record<string, JsonSchema> = {};
  for (const a of spec.arguments) {
    if (!own.has(a)) {
      properties[a] = flags.inputSchema.properties[a];
      continue;
    }
    const description = described(spec, a);
    if (a === 'name') properties.name = { type: 'string', pattern: FLOW_NAME.source, description };
    else if (a === 'script') properties.script = { type: 'string', minLength: 1, description };
    else if (a === 'params') {
      properties.params = { type: 'object', propertyNames: { pattern: '^[A-Za-z_$][\\w$]*$' }, additionalProperties: { type: ['string', 'number', 'boolean'] }, description };
    } else properties[a] = { type: 'array', items: { type: 'string', minLength: 1 }, description };
  }
  const inputSchema: ObjectSchema = { type: 'object', properties, additionalProperties: false, required: spec.required ?? ['name'] };
  return {
    name: spec.name,
    description: spec.description,
    inputSchema,
    kind: 'flow',
    paths: [],
    argv: (args) => {
      const out = ['flows', action, String(args.name)];
      let stdin: string | undefined;
      if (action === 'run') {
        // On stdin, never on the child's command line, which every user of the machine can
        // read (`ps`; pass 39, A39): `--param @-` reads them as `--param name=value` words, in
        // the flow's own types (`3` as a number, `true`).
        const params = (args.params as Record<string, unknown> | undefined) ?? {};
        if (Object.keys(params).length) {
          out.push('--param', '@-');
          stdin = JSON.stringify(params);
        }
      } else {
        stdin = String(args.script);
        out.push('-');
        for (const d of (args.param as string[] | undefined) ?? []) out.push('--param', d);
        for (const r of (args.required as string[] | undefined) ?? []) out.push('--required', r);
      }
      const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !own.has(k)));
      out.push(...flags.argv(rest).argv.slice(1));
      return { argv: out, stdin };
    },
  };
}

/** Every tool the server offers, in catalog order; `run` and `flows_save` only with --allow-scripts. */
export function buildTools(catalog: Catalog, shapes: readonly Shape[], opts: { allowScripts: boolean }): ToolDef[] {
  const mcp = catalog.mcp;
  if (!mcp) throw new Error('driver/catalog.json has no `mcp` section: `gstack mcp` cannot describe its tools.');
  const tools: ToolDef[] = [];
  for (const spec of mcp.tools) {
    if (spec.requires === 'allow-scripts' && !opts.allowScripts) continue;
    if (spec.perShape) tools.push(...shapes.map((s) => shapeTool(spec, s, catalog, mcp.sessionArgument)));
    else if (spec.command === 'sessions') tools.push(sessionsTool(spec, mcp.sessionArgument));
    else if (spec.command === 'flows') tools.push(flowsTool(spec, catalog, mcp.sessionArgument));
    else tools.push(commandTool(spec, catalog, mcp.sessionArgument, spec.command === 'run' ? 'flow' : 'render'));
  }
  return tools;
}

/** A tool's argument names, render's step options included. */
function argumentNames(tool: ToolDef): Set<string> {
  const steps = (tool.inputSchema.properties.steps as { items?: { properties?: Record<string, unknown> } } | undefined)?.items?.properties ?? {};
  return new Set([...Object.keys(tool.inputSchema.properties), ...Object.keys(steps)]);
}

/**
 * A message of the command, in the terms of the tool: a flag that is an argument (`--paper`,
 * `--no-outline`) becomes that argument (`paper`), render's `step 2 (--pdf)` becomes
 * `steps[1] (pdf)`, a saved flow's `--param name=value` its `params` and `gstack flows list`
 * the `flows_list` tool; a pointer to
 * `gstack X --help` is dropped (the tool's input schema is the client's help). Undefined for a
 * line that says nothing through MCP.
 */
export function inMcpTerms(tool: ToolDef, line: string): string | undefined {
  if (/^Run `gstack [a-z]+ --help` for usage\.?$/.test(line.trim())) return undefined;
  const names = argumentNames(tool);
  return line
    .replace(/\bstep (\d+) \(--(pdf|screenshot|eval)\)/g, (_m, n: string, kind: string) => `steps[${Number(n) - 1}] (${kind})`)
    .replace(/--param name=value/g, names.has('params') ? '`params` entries' : '--param name=value')
    .replace(/`gstack flows list`/g, '`flows_list`')
    .replace(/(?<![\w-])--(no-)?([a-z][a-z0-9-]*)/g, (m, _no: string | undefined, name: string) => (names.has(name) ? `\`${name}\`` : m));
}

type Validator = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }> | null;
};
const validators = new WeakMap<ToolDef, Validator>();

/** `steps/0/pdf` -> `steps[0].pdf`. */
function fieldName(instancePath: string, child?: unknown): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (child !== undefined) parts.push(String(child));
  return parts.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

/**
 * Checks a call's arguments against the tool's input schema (and what the schema cannot say);
 * throws ToolArgumentsError naming each field that is wrong. The cookbook shape's own rules are
 * checked again by `gstack cookbook` (cookbook/index.ts), which names the field the same way.
 */
export function checkArguments(tool: ToolDef, args: Record<string, unknown> | undefined): Record<string, unknown> {
  const value = args ?? {};
  let validate = validators.get(tool);
  if (!validate) {
    const require = createRequire(import.meta.url);
    const Ajv = require('ajv') as typeof import('ajv').default;
    validate = new Ajv({ allErrors: true, allowUnionTypes: true, strict: false }).compile(tool.inputSchema) as Validator;
    validators.set(tool, validate);
  }
  if (!validate(value)) {
    const problems = (validate.errors ?? [])
      .filter((e) => e.keyword !== 'if')
      .map((e) => {
        if (e.keyword === 'required') return `\`${fieldName(e.instancePath, e.params.missingProperty)}\` is required`;
        if (e.keyword === 'additionalProperties') return `\`${fieldName(e.instancePath, e.params.additionalProperty)}\` is not an argument of ${tool.name}`;
        if (e.keyword === 'not') return `\`${fieldName(e.instancePath) || 'arguments'}\` must not have both of the options that exclude each other`;
        const allowed = e.keyword === 'enum' ? ` (one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')})` : '';
        return `\`${fieldName(e.instancePath) || 'arguments'}\` ${e.message ?? 'is invalid'}${allowed}`;
      });
    const known = Object.keys(tool.inputSchema.properties).join(', ');
    throw new ToolArgumentsError(`Invalid arguments for ${tool.name}: ${[...new Set(problems)].join('; ')}. Its arguments are: ${known}.`);
  }
  if (tool.name === 'render' && Array.isArray(value.steps)) checkRenderSteps(value.steps as Array<Record<string, unknown>>);
  return value;
}
