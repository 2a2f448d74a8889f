// The codegen (`npm run gen`): renders the Handlebars templates in templates/ with the
// command catalog (driver/catalog.json) and the cookbook (cookbook/) into generated/.
// `npm run gen -- --check` renders in memory and compares with what is on disk instead.
//
// Skills: templates/skills/<skill>/SKILL.md.hbs renders the core an agent reads first
// (generated/<skill>/SKILL.md, at most CORE_LIMIT bytes, so an agent can hold it), and
// templates/skills/<skill>/REFERENCE.md.hbs the full reference next to it, which the core links
// to and the agent opens only when it needs a detail. A core over the limit, or one that does
// not link its reference, is a template error: the budget is checked where the bytes are made.
//
// Everything here is deterministic (no dates, sorted file lists) so two runs give identical
// bytes and CI can detect drift.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import { resolveCommand, type Catalog, type Flag } from '../driver/catalog.js';
import { readCatalogFile } from './catalog-file.js';
import { SHAPES, buildScript, type ParamSchema, type Shape } from '../cookbook/index.js';
import { paramType } from '../cookbook/list.js';
import { EVIDENCE_HOOK, PRINT_CONSOLE_ERRORS, PRINT_NETWORK_ERRORS } from '../cookbook/snippets.js';
import { CODE_PATH, renderCode } from './gen-code.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATES = join(ROOT, 'templates');
const OUT = 'generated';
const DESCRIPTION_LIMIT = 1024;
/** Bytes of a skill's core (SKILL.md): ~3k tokens, small enough to keep in an agent's context. */
export const CORE_LIMIT = 12 * 1024;
const CORE = 'SKILL.md';
const REFERENCE = 'REFERENCE.md';
const HOST_GLOBALS = new Set(['console', 'fetch', 'Buffer']);

export interface GeneratedFile {
  /** Path relative to the repo root, with forward slashes. */
  path: string;
  content: string;
}

export class TemplateError extends Error {}

const posix = (p: string) => p.split(sep).join('/');
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');
const listDir = (rel: string) => (existsSync(join(ROOT, rel)) ? readdirSync(join(ROOT, rel)).sort() : []);

/** Markdown table cell: no line breaks, pipes escaped. */
function cell(value: unknown): string {
  return String(value ?? '').replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** Inline code that survives backticks inside the value. */
function code(value: unknown): string {
  const s = String(value ?? '');
  const runs = s.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((r) => r.length)) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

/** The first sentence of a catalog text (for the cores' short tables; the reference has it all). */
function firstSentence(value: unknown): string {
  const s = String(value ?? '');
  const m = /^([\s\S]*?(?<!\be\.g|\bi\.e)\.)(\s|$)/.exec(s);
  return m ? m[1] : s;
}

function flagSignature(f: Flag): string {
  const value = f.type === 'boolean' || f.type === 'count' ? '' : ` ${f.choices ? f.choices.join('|') : (f.placeholder ?? f.type.toUpperCase())}`;
  return (f.alias ? `-${f.alias}, ` : '') + `--${f.name}${value}`;
}

function flagDefault(f: Flag): string {
  if (f.default === undefined) return '';
  return typeof f.default === 'string' ? f.default : JSON.stringify(f.default);
}

function paramRow(name: string, p: ParamSchema, required: boolean, nested = false) {
  return { name, type: paramType(p), required, nested, default: p.default === undefined ? '' : JSON.stringify(p.default), description: p.description ?? '' };
}

/** A shape's parameters, then the fields of each array parameter's items (`steps[].action`),
 * which an agent must know to write the array at all. */
function paramRows(shape: Shape) {
  const rows = [];
  for (const [name, p] of Object.entries(shape.params.properties)) {
    rows.push(paramRow(name, p, shape.params.required.includes(name)));
    const item = p.type === 'array' ? p.items : undefined;
    for (const [sub, q] of Object.entries(item?.properties ?? {})) rows.push(paramRow(`${name}[].${sub}`, q, (item?.required ?? []).includes(sub), true));
  }
  return rows;
}

function findApi(catalog: Catalog, name: string) {
  const entry = [...catalog.globals, ...catalog.pageExtras].find((g) => g.name === name);
  if (!entry) throw new TemplateError(`no catalog global or Page extra named "${name}"`);
  return entry;
}

function makeHandlebars(catalog: Catalog, shapes: ReadonlyArray<{ name: string }>) {
  const hb = Handlebars.create();
  hb.registerHelper('cell', (v: unknown) => cell(v));
  hb.registerHelper('code', (v: unknown) => code(v));
  hb.registerHelper('firstSentence', (v: unknown) => firstSentence(v));
  hb.registerHelper('json', (v: unknown) => JSON.stringify(v));
  hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hb.registerHelper('join', (list: unknown[], sepr: unknown) => (Array.isArray(list) ? list.join(typeof sepr === 'string' ? sepr : ', ') : ''));
  hb.registerHelper('codeList', (list: unknown[]) => (Array.isArray(list) ? list.map(code).join(', ') : ''));
  hb.registerHelper('flagSignature', (f: Flag) => flagSignature(f));
  hb.registerHelper('sharedWithoutNote', (flags: Flag[]) => flags.filter((f) => f.shared && !f.note));
  hb.registerHelper('flagDefault', (f: Flag) => flagDefault(f));
  hb.registerHelper('support', (v: string) => ({ yes: 'yes', no: 'no', partial: 'partial' })[v] ?? v);
  /** The commands whose `skills` include this skill, in catalog order. */
  hb.registerHelper('commandsFor', (skill: string) => catalog.commands.filter((c) => (c.skills ?? []).includes(skill)).map((c) => resolveCommand(c, catalog)));
  hb.registerHelper('includes', (list: unknown, item: unknown) => Array.isArray(list) && list.includes(item));
  hb.registerHelper('command', (name: string) => {
    const c = catalog.commands.find((x) => x.name === name);
    return c && resolveCommand(c, catalog);
  });
  /** A global's or Page extra's signature as a table cell (the core's API table). */
  hb.registerHelper('sig', (name: string) => cell(code(findApi(catalog, name).signature)));
  /** The enum of one field of an array parameter's items, e.g. (shape "flow", "steps", "action"). */
  hb.registerHelper('itemEnum', (shapeName: string, param: string, field: string) => {
    const values = (SHAPES.find((s) => s.name === shapeName)?.params.properties[param]?.items?.properties?.[field]?.enum ?? []).map(String);
    if (!values.length) throw new TemplateError(`shape "${shapeName}" has no enum at ${param}[].${field}`);
    return values;
  });
  hb.registerHelper('indent', (text: string, n: number) => String(text).replace(/\n(?!\n|$)/g, '\n' + ' '.repeat(n)));
  /** A catalog example as one line of inline code when it is one line, else undefined. */
  hb.registerHelper('oneLine', (s: string) => !String(s).includes('\n'));
  /** Text safe inside a JSDoc comment. */
  hb.registerHelper('doc', (s: string) => String(s).replace(/\*\//g, '*\\/').replace(/\r?\n/g, ' '));
  // Globals every TypeScript setup (DOM or Node types) already declares: redeclaring them in
  // `declare global` would conflict, so the .d.ts types them only in GstackScriptGlobals.
  hb.registerHelper('hostGlobal', (name: string) => HOST_GLOBALS.has(name));
  for (const file of listDir('templates/partials').filter((f) => f.endsWith('.hbs'))) {
    hb.registerPartial(file.replace(/\.hbs$/, ''), read(`templates/partials/${file}`));
  }
  return hb;
}

function render(hb: typeof Handlebars, templateRel: string, data: object): string {
  try {
    const template = hb.compile(read(templateRel), { noEscape: true, strict: true });
    // Blank-line runs collapse to one and the file ends with exactly one newline.
    return template(data).replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').replace(/\s*$/, '\n');
  } catch (err) {
    throw new TemplateError(`${templateRel}: ${(err as Error).message}`);
  }
}

/** A core must fit CORE_LIMIT and link the reference next to it; a core with an evidence table
 * (written by hand to fit) must still name every catalog label. */
function checkCore(path: string, content: string, hasReference: boolean, catalog: Catalog): void {
  const bytes = Buffer.byteLength(content);
  if (bytes > CORE_LIMIT) {
    throw new TemplateError(`${path} is ${bytes} bytes; a skill's core is at most ${CORE_LIMIT}: move detail to its ${REFERENCE}.`);
  }
  if (!hasReference) throw new TemplateError(`${path}: the skill has no ${REFERENCE}.hbs next to its ${CORE}.hbs.`);
  if (!content.includes(`](${REFERENCE})`)) throw new TemplateError(`${path}: the core must link its reference as [${REFERENCE}](${REFERENCE}).`);
  const evidence = /^## Evidence labels\n[\s\S]*?(?=\n## |(?![\s\S]))/m.exec(content)?.[0];
  const missing = evidence === undefined ? [] : catalog.evidenceLabels.filter((l) => !evidence.includes('`' + l.label.replace(/=$/, '')));
  if (missing.length) throw new TemplateError(`${path}: the evidence labels lack ${missing.map((l) => l.label).join(', ')} (templates/partials/evidence-core.hbs).`);
}

/** The YAML front matter of a SKILL.md must have a name and a description of ≤ 1024 chars. */
function checkFrontMatter(path: string, content: string): void {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(content);
  if (!m) throw new TemplateError(`${path}: a SKILL.md must start with YAML front matter (---).`);
  const name = /^name: (.+)$/m.exec(m[1]);
  const description = /^description: (.+)$/m.exec(m[1]);
  if (!name || !description) throw new TemplateError(`${path}: front matter needs one-line name: and description: fields.`);
  if (description[1].length > DESCRIPTION_LIMIT) {
    throw new TemplateError(`${path}: description is ${description[1].length} characters; the limit is ${DESCRIPTION_LIMIT}.`);
  }
}

/** Renders every generated file in memory. Throws TemplateError on any template problem. */
export function renderAll(): GeneratedFile[] {
  const catalog = readCatalogFile(join(ROOT, 'driver', 'catalog.json'));
  const shapes = SHAPES.map((s) => ({
    ...s,
    params: paramRows(s),
    script: buildScript(s, s.example),
    file: `${OUT}/cookbook/${s.name}.js`,
  }));
  const hb = makeHandlebars(catalog, shapes);
  // Page members grouped by their known Aside support, for the docs.
  const pageMembers = {
    yes: catalog.pageMethods.filter((m) => m.aside === 'yes').map((m) => m.name),
    unverified: catalog.pageMethods.filter((m) => m.aside === 'unverified').map((m) => m.name),
    // Members that share a note (on/once/off) are listed together under it.
    no: [...new Set(catalog.pageMethods.filter((m) => m.aside === 'no').map((m) => m.note!))].map((note) => ({
      names: catalog.pageMethods.filter((m) => m.aside === 'no' && m.note === note).map((m) => m.name),
      note,
    })),
  };
  // The cookbook's own evidence code, for hand-written scripts (the browse reference prints it).
  const snippets = { evidenceHook: EVIDENCE_HOOK, printConsoleErrors: PRINT_CONSOLE_ERRORS, printNetworkErrors: PRINT_NETWORK_ERRORS };
  // What differs from Playwright (catalog "playwright"): refused and confined members, by class.
  const byKind = (kind: 'refuse' | 'confine') =>
    Object.entries(catalog.playwright.classes).flatMap(([cls, p]) => Object.entries(p[kind] ?? {}).map(([member, text]) => ({ member: `${cls}.${member}`, text })));
  const playwright = {
    refusals: byKind('refuse'),
    confinements: byKind('confine'),
    cdpRefusals: Object.entries(catalog.playwright.cdp.refuse).map(([method, text]) => ({ method, text })),
    cdpPaths: Object.entries(catalog.playwright.cdp.paths).map(([method, params]) => ({ method, params })),
    cdpDomains: catalog.playwright.cdp.domains,
    classes: Object.keys(catalog.playwright.classes),
    members: Object.values(catalog.playwright.classes).reduce((n, p) => n + p.pass.length + Object.keys(p.confine ?? {}).length + Object.keys(p.refuse ?? {}).length, 0),
  };
  // The mermaid the renderer bundles (package-lock pins it): the diagram skill names it, so an
  // agent knows which diagram types and chart kinds it can draw.
  const mermaidVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'mermaid', 'package.json'), 'utf8')) as { version: string }).version;
  const base = { catalog, shapes, pageMembers, snippets, playwright, sentinel: catalog.sentinel, mermaidVersion };
  const files: GeneratedFile[] = [];

  for (const skill of listDir('templates/skills')) {
    const docs = listDir(`templates/skills/${skill}`).filter((f) => f.endsWith('.md.hbs')).map((f) => f.replace(/\.hbs$/, ''));
    if (!docs.includes(CORE)) throw new TemplateError(`templates/skills/${skill}/ has no ${CORE}.hbs.`);
    for (const doc of docs) {
      const template = `templates/skills/${skill}/${doc}.hbs`;
      const path = `${OUT}/${skill}/${doc}`;
      const source = `${template} (with templates/partials/), driver/catalog.json and cookbook/`;
      const content = render(hb, template, { ...base, skill, source });
      if (doc === CORE) {
        checkFrontMatter(path, content);
        checkCore(path, content, docs.includes(REFERENCE), catalog);
      }
      files.push({ path, content });
    }
  }
  for (const shape of shapes) {
    const source = `cookbook/${shape.name}.ts via templates/cookbook-script.js.hbs`;
    files.push({ path: shape.file, content: render(hb, 'templates/cookbook-script.js.hbs', { ...base, shape, source }) });
  }
  const pageMethods = catalog.pageMethods.filter((m) => !catalog.pageExtras.some((e) => e.name === m.name));
  // The catalog as code: driver/catalog.gen.ts (constants, unions, script API types, flags).
  files.push({ path: CODE_PATH, content: renderCode(catalog) });
  files.push({
    path: `${OUT}/script-api.d.ts`,
    content: render(hb, 'templates/script-api.d.ts.hbs', { ...base, pageMethods, source: 'driver/catalog.json via templates/script-api.d.ts.hbs' }),
  });
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Files under generated/ now (relative, forward slashes). */
function existingFiles(): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(ROOT, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  if (existsSync(join(ROOT, OUT))) walk(OUT);
  return out.sort();
}

/** `--check`: FRESH/STALE per file; true when everything is fresh. */
export function check(log: (line: string) => void): boolean {
  const files = renderAll();
  let fresh = true;
  for (const f of files) {
    const abs = join(ROOT, f.path);
    if (!existsSync(abs)) {
      log(`STALE: ${f.path} (missing)`);
      fresh = false;
    } else if (readFileSync(abs, 'utf8') !== f.content) {
      log(`STALE: ${f.path}`);
      fresh = false;
    } else {
      log(`FRESH: ${f.path}`);
    }
  }
  const expected = new Set(files.map((f) => f.path));
  for (const p of existingFiles().filter((p) => !expected.has(p))) {
    log(`STALE: ${p} (no longer generated)`);
    fresh = false;
  }
  return fresh;
}

/** Writes what changed, removes files no longer generated. */
export function generate(log: (line: string) => void): void {
  const files = renderAll();
  for (const f of files) {
    const abs = join(ROOT, f.path);
    if (existsSync(abs) && readFileSync(abs, 'utf8') === f.content) continue;
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, f.content);
    log(`WROTE: ${f.path}`);
  }
  const expected = new Set(files.map((f) => f.path));
  for (const p of existingFiles().filter((p) => !expected.has(p))) {
    rmSync(join(ROOT, p));
    log(`REMOVED: ${p}`);
  }
  log(`GENERATED ${files.length} files in ${posix(relative(process.cwd(), join(ROOT, OUT))) || OUT}/`);
}

/** `npm run gen [--check] [--quiet]`: the exit code; every line goes to `log`. (Exported so the
 * codegen tests run it in-process on copies of the sources, a tenth of a process's cost.) */
export function main(args: string[], log: (line: string) => void = (l) => console.log(l)): number {
  const checkOnly = args.includes('--check');
  // --quiet (the build's check): only what is wrong is printed.
  const quiet = args.includes('--quiet');
  try {
    if (checkOnly) {
      const ok = check((l) => (quiet && l.startsWith('FRESH: ') ? undefined : log(l)));
      if (!ok) log('[error] generated/ is stale: run `npm run gen` and commit the result.');
      return ok ? 0 : 1;
    }
    generate(log);
    return 0;
  } catch (err) {
    log(`[error] ${err instanceof TemplateError ? 'template ' : ''}${(err as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main(process.argv.slice(2));
