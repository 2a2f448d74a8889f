// The command catalog's types and the code's view of it. Everything user-facing — sandbox
// globals, CLI flags, generated docs — is built from driver/catalog.json, which `npm run gen`
// validates (templates/catalog-file.ts: its JSON schema and the rules a schema cannot say) and
// writes into driver/catalog.gen.ts. At run time the catalog comes from there: no call reads
// the file or compiles the schema.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// A namespace import: the codegen loads this file too, and must run even when the generated
// file it is about to replace lacks an export (a catalog.gen.ts from before CATALOG_JSON).
import * as generated from './catalog.gen.js';

export type Support = 'yes' | 'no' | 'partial';
export interface ApiEntry {
  name: string;
  kind: 'function' | 'value' | 'object' | 'method';
  signature: string;
  tsType?: string;
  description: string;
  engines: { aside: Support; chromium: Support; note?: string };
  example: string;
}
/** A Playwright Page member a flow script may use, and whether Aside is known to have it. */
export interface PageMember {
  name: string;
  aside: 'yes' | 'no' | 'unverified';
  /** For `no`: what to use instead. */
  note?: string;
}
export interface Flag {
  name: string;
  alias?: string;
  /** Older long spellings, still accepted. */
  aliases?: string[];
  type: 'string' | 'number' | 'boolean' | 'array' | 'count';
  choices?: Array<string | number>;
  default?: unknown;
  description: string;
  placeholder?: string;
  /** A string flag given once per value (`--domain a --domain b`): the code reads a list. */
  repeatable?: boolean;
  /** gstack render: the step this flag opens (a flag named like its step) or configures. */
  step?: RenderStepKind;
  /** Set by resolveCommand on a flag that comes from the catalog's shared flags. */
  shared?: boolean;
  /** Set by resolveCommand: what a shared flag means for this command (catalog `sharedFlags`). */
  note?: string;
}
/** In a command's `sharedFlags`: a shared flag by name, optionally with what it means there. */
export type SharedFlagRef = string | { name: string; note: string };
/** The steps of `gstack render`. */
export type RenderStepKind = 'pdf' | 'screenshot' | 'eval';
/** In a command's flag list: every flag of `catalog.flagGroups[group]`, at that place. */
export interface FlagGroupRef {
  group: string;
  /** A note for catalog readers; the group's flags carry their own descriptions. */
  description?: string;
  /** Every flag of the group configures this render step. */
  step?: RenderStepKind;
}
/** A command as the catalog file writes it (flag groups by reference). */
export interface CatalogCommand extends Omit<Command, 'flags'> {
  flags: Array<Flag | FlagGroupRef>;
  /** The shared flags the command takes, after its own (resolveCommand appends them). */
  sharedFlags?: SharedFlagRef[];
}
/** A command with its flag groups and shared flags resolved: what the CLI, the docs and the
 * parsers use. */
export interface Command {
  name: string;
  usage: string;
  description: string;
  positionals?: Array<{ name: string; description: string; required?: boolean; variadic?: boolean; choices?: string[] }>;
  flags: Flag[];
  examples?: string[];
  output?: string[];
  /** The command's own failures, each thrown by name with this exit code (command-errors.ts). */
  errors?: CommandErrorSpec[];
  skills?: string[];
}
export interface CommandErrorSpec {
  name: string;
  exitCode: number;
  when: string;
  nextStep: string;
}
/** One tool (or, with perShape, one per cookbook shape) of `gstack mcp`. */
export interface McpToolSpec {
  name: string;
  command: string;
  requires?: 'allow-scripts';
  perShape?: boolean;
  /** The command's action (`flows list|run|save`). */
  action?: 'list' | 'run' | 'save';
  /** The arguments that name local files or folders (for `steps`, step options): confined to the
   * client's roots over MCP (bin/mcp/roots.ts). */
  paths?: string[];
  /** Positionals and flags by name, `*` for every other flag of the command, `steps` for render's steps. */
  arguments: string[];
  /** Argument descriptions that replace the command's (a CLI-only form would mislead). */
  describe?: Record<string, string>;
  /** Arguments required although the command's own positional is optional. */
  required?: string[];
  description: string;
}
export interface McpSpec {
  serverName: string;
  instructions: string;
  promptPreamble: string;
  sessionArgument: string;
  /** A usage error's next step through MCP (the CLI's names `--help`). */
  usageNextStep: string;
  tools: McpToolSpec[];
}
export interface Catalog {
  version: number;
  sentinel: string;
  globals: ApiEntry[];
  pageExtras: ApiEntry[];
  /** TypeScript declarations of the script API's types, a line per item (catalog.gen.ts and the .d.ts). */
  types: Array<{ name: string; ts: string[] }>;
  pageMethods: PageMember[];
  sharedFlags?: Flag[];
  /** Flags defined once for several commands (e.g. the print options of `pdf` and `render`). */
  flagGroups?: Record<string, Flag[]>;
  commands: CatalogCommand[];
  exitCodes: Array<{ code: number; name: string; meaning: string; nextStep: string }>;
  evidenceLabels: Array<{ label: string; meaning: string }>;
  probeOutcomes: Array<{ name: string; meaning: string; fallback: boolean }>;
  /** `gstack mcp`: the server's name, what it tells a client, and its tools (bin/mcp/). */
  mcp?: McpSpec;
  /** The membrane's policy tables (driver/runtime/playwright-policy.ts). */
  playwright: PlaywrightPolicies;
}

/** One Playwright class: every public member once, under pass, confine (what is restricted) or
 * refuse (what to use instead). */
export interface ClassPolicy {
  pass: string[];
  confine?: Record<string, string>;
  refuse?: Record<string, string>;
}
export interface PlaywrightPolicies {
  description: string;
  classes: Record<string, ClassPolicy>;
  /** Raw CDP: allowed domains, refused methods (with what to use instead), and the params of a
   * method that are local file paths (dotted, arrays walked). */
  cdp: { description: string; domains: string[]; refuse: Record<string, string>; paths: Record<string, string[]> };
}

/** The package root (where driver/catalog.json lives), whether this code runs from source
 * (driver/), compiled (dist/driver/) or bundled (dist/bin/): the nearest folder upwards that
 * holds driver/catalog.json. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'driver', 'catalog.json'))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`gstack-driver: driver/catalog.json not found above ${fileURLToPath(import.meta.url)}`);
}

/** The package root, found once per process. */
export const PROJECT_ROOT = projectRoot();
/** The catalog's source, for tools and tests; the code reads loadCatalog(). */
export const CATALOG_PATH = join(PROJECT_ROOT, 'driver', 'catalog.json');

export class CatalogError extends Error {}

function isGroupRef(f: Flag | FlagGroupRef): f is FlagGroupRef {
  return 'group' in f;
}

/** The flags of a flag group. */
export function flagGroup(group: string, catalog = loadCatalog()): Flag[] {
  const flags = catalog.flagGroups?.[group];
  if (!flags) throw new CatalogError(`driver/catalog.json: no flag group "${group}" (flagGroups lists ${Object.keys(catalog.flagGroups ?? {}).join(', ') || 'none'})`);
  return flags;
}

/** A catalog command with its flag-group references replaced by the groups' flags, and the
 * shared flags it takes appended (marked `shared`, with the command's note if it has one). */
export function resolveCommand(c: CatalogCommand, catalog: Catalog): Command {
  const { sharedFlags: sharedRefs = [], ...rest } = c;
  const own = c.flags.flatMap((f) => (isGroupRef(f) ? flagGroup(f.group, catalog).map((g) => (f.step ? { ...g, step: f.step } : g)) : [f]));
  const shared = sharedRefs.map((ref): Flag => {
    const name = typeof ref === 'string' ? ref : ref.name;
    const flag = catalog.sharedFlags?.find((s) => s.name === name);
    if (!flag) throw new CatalogError(`driver/catalog.json: command "${c.name}" takes the shared flag --${name}, which sharedFlags does not define`);
    return { ...flag, shared: true, ...(typeof ref === 'string' ? {} : { note: ref.note }) };
  });
  return { ...rest, flags: [...own, ...shared] };
}

/** The catalog, as `npm run gen` validated it and wrote it into driver/catalog.gen.ts. */
export function loadCatalog(): Catalog {
  const catalog = generated.CATALOG_JSON as Catalog | undefined;
  if (!catalog) throw new CatalogError('driver/catalog.gen.ts has no CATALOG_JSON: run `npm run gen`.');
  return catalog;
}

export function commandSpec(name: string, catalog = loadCatalog()): Command {
  const c = catalog.commands.find((x) => x.name === name);
  if (!c) throw new CatalogError(`catalog has no command "${name}"`);
  return resolveCommand(c, catalog);
}
