// The two test tiers and the rule that sorts a file into one (docs/ARCHITECTURE.md, "Tests").
// A test file's name says its tier: `test/<name>.e2e.test.ts` is end to end, any other
// `test/<name>.test.ts` is a unit test, which runs without a build, without a browser and
// without spawning the project's own commands, so the unit tier answers in a minute.
//
// `e2eNeeds` reads a test file (and the test helpers it imports, followed through test/ only:
// product code is what the tests exercise, not what they need) and says what in it needs the
// end-to-end tier. It works on the syntax tree (TypeScript's own parser), not on regexes over
// text, so a comment that mentions `runCli` or `dist/` does not count. What it cannot see
// statically (a library call that starts Chromium) the unit runner catches at run time: it
// runs with GSTACK_CHROMIUM pointing at no file (test/run-tier.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export type Tier = 'unit' | 'e2e';

export const E2E_SUFFIX = '.e2e.test.ts';
const TEST_SUFFIX = '.test.ts';

export function tierOf(file: string): Tier {
  return file.endsWith(E2E_SUFFIX) ? 'e2e' : 'unit';
}

/** The test files of a tier directly in `dir` (sub-folders hold helpers, fixtures, benchmarks). */
export function testFiles(dir: string, tier: Tier): string[] {
  return readdirSync(dir)
    .filter((n) => n.endsWith(TEST_SUFFIX) && tierOf(n) === tier)
    .sort()
    .map((n) => join(dir, n));
}

/** The exports of test/helpers/cli.ts that start the `gstack` CLI (or, BIN, name its build).
 * Its other exports (ROOT, tempHome, cliEnv, the types) are plain values a unit test may use. */
export const CLI_SPAWNERS = ['runCli', 'startCli', 'cliWith', 'runCommand', 'BIN'] as const;

const CLI_HELPER = join('helpers', 'cli.ts');
const BROWSER_PACKAGES = new Set(['playwright', 'playwright-core']);
// The names below are written as one string each, split, so that this file, read by its own
// rule, names none of them as a string of its own.
const POPPLER = new Set('pdftotext pdfinfo pdfimages pdftoppm pdffonts'.split(' '));
/** The project's build and packaging tools: the compiler and the codegen (a type build of a
 * whole tree), npm and npx (npm pack lists dist/; a lifecycle script builds). */
const BUILD_TOOLS = new Set('tsc templates/gen.ts npm npx'.split(' '));
/** A path into the build output: `dist` as a whole path segment, in a string without spaces
 * (a sentence that mentions such a path is not one). */
const DIST_PATH = /^(?:[^\s]*\/)?dist(?:\/[^\s]*)?$/;

/**
 * What in `file` needs the end-to-end tier, one reason per finding ("spawns the gstack CLI
 * (runCli)"), empty for a unit test. `testRoot` bounds which imports are followed: relative
 * imports of files under it (the helpers), transitively; a helper counts with everything in it,
 * except test/helpers/cli.ts, which counts only for the spawners imported from it.
 */
export function e2eNeeds(file: string, testRoot: string): string[] {
  const reasons: string[] = [];
  const seen = new Set<string>();
  const visit = (f: string, via: string[]) => {
    if (seen.has(f)) return;
    seen.add(f);
    const suffix = via.length ? ` via ${via.map((v) => relative(testRoot, v)).join(' -> ')}` : '';
    for (const r of needsIn(f, testRoot)) reasons.push(r + suffix);
    // test/helpers/cli.ts is judged by what is imported from it (above), not by its body.
    for (const dep of helperImports(f, testRoot)) if (relative(testRoot, dep) !== CLI_HELPER) visit(dep, [...via, dep]);
  };
  visit(resolve(file), []);
  return reasons;
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** `./x.js` as NodeNext resolves it in this project: `./x.ts`. Undefined for packages. */
function resolveRelative(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  return [base.replace(/\.js$/, '.ts'), base, `${base}.ts`].find((c) => existsSync(c) && c.endsWith('.ts'));
}

/** Module specifiers of static imports, re-exports, import() and require(). */
function specifiers(sf: ts.SourceFile): Array<{ spec: string; node: ts.Node }> {
  const out: Array<{ spec: string; node: ts.Node }> = [];
  const walk = (n: ts.Node) => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      out.push({ spec: n.moduleSpecifier.text, node: n });
    } else if (ts.isCallExpression(n) && n.arguments.length && ts.isStringLiteralLike(n.arguments[0])) {
      const callee = n.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isImport || isRequire) out.push({ spec: n.arguments[0].text, node: n });
    }
    ts.forEachChild(n, walk);
  };
  walk(sf);
  return out;
}

function helperImports(file: string, testRoot: string): string[] {
  return specifiers(parse(file))
    .map(({ spec }) => resolveRelative(file, spec))
    .filter((t): t is string => !!t && !relative(testRoot, t).startsWith('..'));
}

/** One reason per kind of need (the first place it shows), so a report stays short. */
function needsIn(file: string, testRoot: string): string[] {
  const sf = parse(file);
  const found = new Map<string, string>();
  const add = (kind: string, reason: string) => void (found.has(kind) || found.set(kind, reason));
  for (const { spec, node } of specifiers(sf)) {
    if (BROWSER_PACKAGES.has(spec)) add('browser', `launches a browser (imports ${spec})`);
    const target = resolveRelative(file, spec);
    if (target && relative(testRoot, target) === CLI_HELPER) {
      const used = cliSpawnersImported(node);
      if (used.length) add('cli', `spawns the gstack CLI (${used.join(', ')} from test/helpers/cli.ts)`);
    }
  }
  const walk = (n: ts.Node) => {
    if (ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      const text = n.text;
      if (DIST_PATH.test(text)) add('build-output', `reads the build output ('${text}')`);
      if (POPPLER.has(text)) add('poppler', `reads PDFs with poppler ('${text}')`);
      if (BUILD_TOOLS.has(text)) add('build-tools', `runs the project's build or packaging tools ('${text}')`);
    }
    ts.forEachChild(n, walk);
  };
  walk(sf);
  return [...found.values()];
}

/** The CLI spawners an import of test/helpers/cli.ts brings in: the named ones, or all of them
 * for a namespace import, a dynamic import or a re-export of everything. */
function cliSpawnersImported(node: ts.Node): string[] {
  const spawners: readonly string[] = CLI_SPAWNERS;
  if (ts.isImportDeclaration(node)) {
    const bindings = node.importClause?.namedBindings;
    if (!bindings) return [];
    if (ts.isNamespaceImport(bindings)) return [...spawners];
    return bindings.elements.map((e) => (e.propertyName ?? e.name).text).filter((n) => spawners.includes(n));
  }
  if (ts.isExportDeclaration(node)) {
    if (!node.exportClause) return [...spawners];
    if (ts.isNamedExports(node.exportClause)) return node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text).filter((n) => spawners.includes(n));
    return [...spawners];
  }
  return [...spawners]; // import('./helpers/cli.js'): whatever it is used for
}
