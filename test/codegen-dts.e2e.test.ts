// generated/script-api.d.ts types the flow-script API from the catalog's tsType fields. Proof
// that it is usable: every generated cookbook script type-checks against it with tsc (strict,
// checkJs), and a script that calls a Page method outside the catalog, or passes a wrong type,
// does not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../driver/catalog.js';

const ROOT = join(import.meta.dirname, '..');
const DTS = join(ROOT, 'generated', 'script-api.d.ts');
const catalog = loadCatalog();

/** A flow script as the body of a function whose parameters are the typed catalog globals. */
function wrap(name: string, script: string): string {
  const globals = catalog.globals.map((g) => g.name).join(', ');
  return [
    '// @ts-check',
    `/** @param {import(${JSON.stringify(DTS.replace(/\.d\.ts$/, ''))}).GstackScriptGlobals} g */`,
    `async function ${name.replace(/\W/g, '_')}(g) {`,
    `  const { ${globals} } = g;`,
    script,
    '}',
    '',
  ].join('\n');
}

/** The scripts of all three tests, type-checked in ONE tsc program (each tsc start loads
 * Playwright's and the DOM's types: ~20 s a run on a loaded 2-core machine), and each test reads
 * the errors of its own files. Alone or together, every file sees the same declarations: the
 * wrapped scripts import the .d.ts, ref.js references it, and none declares anything. */
const FILES: Record<string, string> = {};
let errorsByFile: Map<string, string[]> | undefined;
let tscOut = '';

function typeCheckAll(): void {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-dts-'));
  try {
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          allowJs: true,
          checkJs: true,
          noEmit: true,
          strict: true,
          // Flow scripts are plain JavaScript without annotations: the point is the API surface.
          noImplicitAny: false,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          // The DOM lib types the code passed to pg.evaluate, which runs in the page.
          lib: ['ES2022', 'DOM'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          skipLibCheck: true,
        },
        files: Object.keys(FILES),
      }),
    );
    // Run in the program's folder, so errors name a file as FILES does (`bad.js(8,3): error ...`).
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    tscOut = r.stdout + r.stderr;
    assert.ok(r.status === 0 || r.status === 2, `tsc ran (exit ${r.status}):\n${tscOut}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // tsc prints one `FILE(LINE,COL): error TS...` line per error (continuation lines indented).
  errorsByFile = new Map();
  for (const line of tscOut.split('\n')) {
    const m = /^([^(\s]+)\(\d+,\d+\): error /.exec(line);
    if (m) errorsByFile.set(m[1], [...(errorsByFile.get(m[1]) ?? []), line]);
  }
}

/** The tsc error lines of `names` (files of this program), after the one shared run. */
function errorsOf(names: string[]): string {
  if (!errorsByFile) typeCheckAll();
  return names.flatMap((n) => errorsByFile!.get(n) ?? []).join('\n');
}

const cookbookDir = join(ROOT, 'generated', 'cookbook');
const COOKBOOK = readdirSync(cookbookDir).filter((f) => f.endsWith('.js'));
for (const f of COOKBOOK) FILES[f] = wrap(`flow_${f}`, readFileSync(join(cookbookDir, f), 'utf8'));

FILES['bad.js'] = wrap(
  'bad',
  [
    'const pg = await openTab("http://127.0.0.1:8080/");',
    'await pg.exposeBinding("x", () => 1);',
    'await sleep("soon");',
    'const s = await snapshot(pg, { interactive: "yes" });',
    'console.log("GSTACK_STEP_OK");',
  ].join('\n'),
);

FILES['ref.js'] = [
  `/// <reference path=${JSON.stringify(DTS)} />`,
  '// @ts-check',
  'async function flow() {',
  '  const pg = await openTab("http://127.0.0.1:8080/");',
  '  const s = await snapshot(pg, { interactive: true });',
  '  await pg.locator("e12").click();',
  '  await fs.writeFile(path.join(pwd, "tree.txt"), s.tree);',
  '  await closeTab(pg);',
  '}',
  '',
].join('\n');

test('every generated cookbook script type-checks against generated/script-api.d.ts', () => {
  assert.ok(COOKBOOK.length >= 9);
  assert.equal(errorsOf(COOKBOOK), '', tscOut);
});

test('the .d.ts rejects Page methods outside the catalog and wrong argument types', () => {
  const out = errorsOf(['bad.js']);
  assert.notEqual(out, '', tscOut);
  assert.match(out, /exposeBinding/);
  assert.match(out, /"soon"|string' is not assignable to parameter of type 'number'/);
  assert.match(out, /bad\.js\(8,\d+\): error TS2322: Type 'string' is not assignable to type 'boolean \| undefined'/);
});

// The reference form needs the file to be a module for `declare global`; the .d.ts is one.
test('a script that references the .d.ts sees the globals without wrapping', () => {
  assert.equal(errorsOf(['ref.js']), '', tscOut);
});
