// The catalog as code (docs/ARCHITECTURE.md, "Codegen"): `npm run gen` writes
// driver/catalog.gen.ts from driver/catalog.json, so that the names the code uses (the
// sentinel, engine and probe-outcome unions, exit codes, script API types, each command's
// flags and defaults) come from the catalog and a disagreement is a compile error.
//
// Owns: turning the catalog into TypeScript source text, the catalog itself included
// (CATALOG_JSON, which driver/catalog.ts hands the code, so no call reads the JSON file). The
// catalog it is given was read and validated by templates/catalog-file.ts.
import type { Catalog, Command, Flag } from '../driver/catalog.js';
import { resolveCommand } from '../driver/catalog.js';

export const CODE_PATH = 'driver/catalog.gen.ts';

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
const pascal = (name: string) => camel(name).replace(/^[a-z]/, (c) => c.toUpperCase());
const lit = (v: unknown) => JSON.stringify(v);
const doc = (s: string, indent = '') => `${indent}/** ${s.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim()} */`;

function flagType(f: Flag): string {
  if (f.repeatable) return 'string[]';
  if (f.choices) return f.choices.map(lit).join(' | ');
  switch (f.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'count':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return 'string[]';
  }
}

/** A flag given once per value: an array flag, or a string flag the catalog marks repeatable. */
const isList = (f: Flag) => f.type === 'array' || f.repeatable === true;

/** A flag the reader always fills (a default, a boolean, a count or a list) is required in the type. */
const alwaysSet = (f: Flag) => f.default !== undefined || f.type === 'boolean' || f.type === 'count' || isList(f);

/** The typed view of a command's parsed flags, and (with `reader`) its reader from yargs' argv. */
function flagsCode(typeName: string, flags: Flag[], reader = true): string {
  const fields = flags.map((f) => `${doc(`--${f.name}: ${f.description}`, '  ')}\n  ${camel(f.name)}${alwaysSet(f) ? '' : '?'}: ${flagType(f)};`);
  const reads = flags.map((f) => {
    // yargs gives a repeated flag as an array and a single one as a value: a list either way.
    if (isList(f)) return `    ${camel(f.name)}: list(argv[${lit(f.name)}]),`;
    const fallback = f.default !== undefined ? ` ?? ${lit(f.default)}` : f.type === 'boolean' ? ' ?? false' : f.type === 'count' ? ' ?? 0' : '';
    return `    ${camel(f.name)}: (argv[${lit(f.name)}] as ${flagType(f)} | undefined)${fallback},`;
  });
  return [
    `export interface ${typeName} {`,
    ...fields,
    '}',
    ...(reader
      ? [
          '',
          `/** The ${typeName} of one invocation, from yargs' argv (which has already checked types and choices). */`,
          `export function read${typeName}(argv: Record<string, unknown>): ${typeName} {`,
          '  return {',
          reads.join('\n'),
          '  };',
          '}',
        ]
      : []),
  ].join('\n');
}

type Positional = NonNullable<Command['positionals']>[number];

function positionalType(p: Positional): string {
  if (p.variadic) return 'string[]';
  return p.choices ? p.choices.map(lit).join(' | ') : 'string';
}

/** A command's positionals by their catalog names, and their reader from yargs' argv. */
function positionalsCode(typeName: string, positionals: Positional[]): string {
  const fields = positionals.map((p) => `${doc(`<${p.name}>: ${p.description}`, '  ')}\n  ${camel(p.name)}${p.required || p.variadic ? '' : '?'}: ${positionalType(p)};`);
  const reads = positionals.map((p) => {
    const v = `argv[${lit(p.name)}]`;
    if (p.variadic) return `    ${camel(p.name)}: list(${v}),`;
    const value = p.choices ? `String(${v}) as ${positionalType(p)}` : `String(${v})`;
    return `    ${camel(p.name)}: ${p.required ? value : `${v} === undefined ? undefined : ${value}`},`;
  });
  return [
    `export interface ${typeName} {`,
    ...fields,
    '}',
    '',
    `/** The ${typeName} of one invocation, from yargs' argv (which has already checked choices and that required ones are there). */`,
    `export function read${typeName}(argv: Record<string, unknown>): ${typeName} {`,
    '  return {',
    reads.join('\n'),
    '  };',
    '}',
  ].join('\n');
}

export function renderCode(catalog: Catalog): string {
  const engineFlag = catalog.sharedFlags?.find((f) => f.name === 'engine');
  if (!engineFlag?.choices) throw new Error('driver/catalog.json: the shared --engine flag must list its choices');
  const commands: Command[] = catalog.commands.map((c) => resolveCommand(c, catalog));
  const shared = catalog.sharedFlags ?? [];
  // The fields of the one JSON object `--json` prints (driver/runtime/run-result.ts builds it), as the
  // shared flag's description names them: a field renamed there is a compile error there.
  const jsonFlag = shared.find((f) => f.name === 'json');
  const runResultFields = /`\{ ([a-zA-Z, ]+) \}`/.exec(jsonFlag?.description ?? '')?.[1].split(', ');
  if (!runResultFields) throw new Error('driver/catalog.json: the shared --json flag must name its fields as `{ a, b, ... }`');
  const exitName = (code: number) => {
    const e = catalog.exitCodes.find((x) => x.code === code);
    if (!e) throw new Error(`driver/catalog.json: exit code ${code} is not one of the catalog's exitCodes`);
    return e.name;
  };
  const out: string[] = [
    '// AUTO-GENERATED from driver/catalog.json by templates/gen-code.ts. Do not edit: edit the catalog and run `npm run gen`.',
    '//',
    "// The catalog's names as code (docs/ARCHITECTURE.md, \"Codegen\"): code that uses a name the",
    '// catalog no longer has does not compile.',
    "import type { Locator, Page as PlaywrightPage } from 'playwright-core';",
    '',
    '/** The last line of a script that completed every step. */',
    `export const SENTINEL = ${lit(catalog.sentinel)};`,
    '',
    '/** `--engine` choices (the shared flag). */',
    `export const ENGINE_CHOICES = [${engineFlag.choices.map(lit).join(', ')}] as const;`,
    'export type EngineChoice = (typeof ENGINE_CHOICES)[number];',
    "/** An engine that runs scripts (`auto` picks one of these). */",
    "export type EngineName = Exclude<EngineChoice, 'auto'>;",
    '',
    '/** What the Aside readiness probe can say. */',
    `export type ProbeOutcome = ${catalog.probeOutcomes.map((p) => lit(p.name)).join(' | ')};`,
    '',
    '/** Exit codes by name. */',
    'export const EXIT = {',
    ...catalog.exitCodes.map((e) => `${doc(e.meaning, '  ')}\n  ${e.name}: ${e.code},`),
    '} as const;',
    'export type ExitName = keyof typeof EXIT;',
    'export type ExitCode = (typeof EXIT)[ExitName];',
    '',
    '/** The evidence labels the cookbook and the runner print. */',
    `export type EvidenceLabel = ${catalog.evidenceLabels.map((l) => lit(l.label)).join(' | ')};`,
    '',
    '/** The fields of the object `--json` prints for a script call (the shared flag\'s description). */',
    `export const RUN_RESULT_FIELDS = [${runResultFields.map(lit).join(', ')}] as const;`,
    'export type RunResultField = (typeof RUN_RESULT_FIELDS)[number];',
    '',
    '/** Every `gstack` command. */',
    `export const COMMAND_NAMES = [${commands.map((c) => lit(c.name)).join(', ')}] as const;`,
    'export type CommandName = (typeof COMMAND_NAMES)[number];',
    '',
    '/** Each command\'s own failures (catalog `commands[].errors`), by name, with the exit they end the call with. */',
    'export const COMMAND_ERRORS = {',
    ...commands
      .filter((c) => c.errors?.length)
      .map((c) => `  ${lit(c.name)}: {\n${c.errors!.map((e) => `${doc(e.when, '    ')}\n    ${e.name}: ${lit(exitName(e.exitCode))},`).join('\n')}\n  },`),
    '} as const satisfies Partial<Record<CommandName, Record<string, ExitName>>>;',
    'export type CommandWithErrors = keyof typeof COMMAND_ERRORS;',
    '/** The error names of command C: a name the catalog does not list does not compile. */',
    'export type CommandErrorName<C extends CommandWithErrors> = C extends CommandWithErrors ? keyof (typeof COMMAND_ERRORS)[C] & string : never;',
    '',
    '/** A flag value yargs gives once or, repeated, as an array: always a list. */',
    'function list(v: unknown): string[] {',
    '  return v === undefined || v === null ? [] : (Array.isArray(v) ? v : [v]).map(String);',
    '}',
    '',
    '// ---- The script API: its types (catalog "types"), the Page a script gets, every global ----',
    '',
    ...catalog.types.flatMap((t) => [...t.ts, '']),
    '/** The Page members added to Playwright\'s (catalog "pageExtras"). */',
    'export interface PageExtras {',
    ...catalog.pageExtras.map((e) => `${doc(e.description, '  ')}\n  ${e.name}: ${e.tsType ?? 'unknown'};`),
    '}',
    '',
    '/** A tab as a script sees it. */',
    'export type Page = PlaywrightPage & PageExtras;',
    'export type { Locator };',
    '',
    '/** Every global a flow script sees (catalog "globals"): the sandbox implements exactly these. */',
    'export interface ScriptGlobals {',
    ...catalog.globals.map((g) => `${doc(g.description, '  ')}\n  ${g.name}: ${g.tsType ?? 'unknown'};`),
    '}',
    'export type GlobalName = keyof ScriptGlobals;',
    `export const GLOBAL_NAMES = [${catalog.globals.map((g) => lit(g.name)).join(', ')}] as const satisfies readonly GlobalName[];`,
    '',
    '// ---- Each command\'s flags and positionals: their names, types and defaults ----',
    '',
    flagsCode('SharedFlags', shared),
    '',
  ];
  out.push(
    '// ---- The catalog itself (driver/catalog.json, validated by `npm run gen`): driver/catalog.ts types it ----',
    '',
    `export const CATALOG_JSON: unknown = ${JSON.stringify(catalog, null, 1)};`,
    '',
  );
  for (const c of commands) {
    // A command of ordered steps (render) reads its raw tokens (render/cli/cli-args.ts): yargs'
    // argv loses the order, so it gets no argv reader.
    out.push(flagsCode(`${pascal(c.name)}Flags`, c.flags, !c.flags.some((f) => f.step)), '');
    if (c.positionals?.length) out.push(positionalsCode(`${pascal(c.name)}Positionals`, c.positionals), '');
  }
  const renderFlags = commands.find((c) => c.name === 'render')?.flags ?? [];
  const stepFlags = renderFlags.filter((f) => f.step && f.step === f.name);
  const stepOptions = renderFlags.filter((f) => f.step && f.step !== f.name);
  out.push(
    '/** `gstack render`: the flags that open a step, and the step each step option configures (the',
    ' * nearest such step before it on the command line; catalog: a render flag\'s "step"). */',
    `export const RENDER_STEP_FLAGS = [${stepFlags.map((f) => lit(f.name)).join(', ')}] as const;`,
    'export type RenderStepFlag = (typeof RENDER_STEP_FLAGS)[number];',
    'export const RENDER_STEP_OF_OPTION: Readonly<Record<string, RenderStepFlag>> = {',
    ...stepOptions.map((f) => `  ${lit(f.name)}: ${lit(f.step)},`),
    '};',
    '',
  );
  // The commands a session host runs, read by the client without yargs (driver/hosts/route.ts readHostCall)
  // and checked again at the host's edge (driver/hosts/call.ts): every spelling a flag has, its
  // type, whether it is a list, its choices and whether it needs a value.
  const hostCommands = commands.filter((c) => ['run', 'cookbook', 'flows'].includes(c.name));
  const spec = (f: Flag) =>
    `    { name: ${lit(f.name)}, type: ${lit(f.type)}, list: ${isList(f)}, names: ${lit([...(f.aliases ?? [])])}, short: ${lit(f.alias ?? null)}, choices: ${lit(f.choices ?? null)}, needsValue: ${!!f.placeholder} },`;
  out.push(
    '/** One flag of a command a session host runs: every spelling, its type, whether it is a list. */',
    "export interface HostFlagSpec { name: string; type: 'string' | 'number' | 'boolean' | 'array' | 'count'; list: boolean; names: readonly string[]; short: string | null; choices: readonly (string | number)[] | null; needsValue: boolean }",
    '/** The flags of the commands a session host runs (`run`, `cookbook`, `flows`). */',
    'export const HOST_COMMAND_FLAGS = {',
    ...hostCommands.map((c) => `  ${lit(c.name)}: [\n${c.flags.map(spec).join('\n')}\n  ],`),
    '} as const satisfies Record<string, readonly HostFlagSpec[]>;',
    '',
  );
  const defaults = (flags: Flag[]) => flags.filter((f) => f.default !== undefined).map((f) => `    ${lit(f.name)}: ${lit(f.default)},`);
  out.push(
    '/** Every flag default, per command (the shared flags under "shared"). */',
    'export const FLAG_DEFAULTS = {',
    `  shared: {\n${defaults(shared).join('\n')}\n  },`,
    ...commands.map((c) => `  ${lit(c.name)}: {\n${defaults(c.flags).join('\n')}\n  },`),
    '} as const;',
    '',
  );
  return out.join('\n').replace(/\n{3,}/g, '\n\n').replace(/\s*$/, '\n');
}
