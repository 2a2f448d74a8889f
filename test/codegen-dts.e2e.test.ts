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

function typeCheck(t: { after: (fn: () => void) => void }, files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-dts-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
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
      files: Object.keys(files),
    }),
  );
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

test('every generated cookbook script type-checks against generated/script-api.d.ts', (t) => {
  const dir = join(ROOT, 'generated', 'cookbook');
  const files: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.js'))) files[f] = wrap(`flow_${f}`, readFileSync(join(dir, f), 'utf8'));
  assert.ok(Object.keys(files).length >= 9);
  const r = typeCheck(t, files);
  assert.equal(r.code, 0, r.out);
});

test('the .d.ts rejects Page methods outside the catalog and wrong argument types', (t) => {
  const bad = [
    'const pg = await openTab("http://127.0.0.1:8080/");',
    'await pg.exposeBinding("x", () => 1);',
    'await sleep("soon");',
    'const s = await snapshot(pg, { interactive: "yes" });',
    'console.log("GSTACK_STEP_OK");',
  ].join('\n');
  const r = typeCheck(t, { 'bad.js': wrap('bad', bad) });
  assert.notEqual(r.code, 0);
  assert.match(r.out, /exposeBinding/);
  assert.match(r.out, /"soon"|string' is not assignable to parameter of type 'number'/);
  assert.match(r.out, /bad\.js\(8,\d+\): error TS2322: Type 'string' is not assignable to type 'boolean \| undefined'/);
});

test('a script that references the .d.ts sees the globals without wrapping', (t) => {
  const script = [
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
  // The reference form needs the file to be a module for `declare global`; the .d.ts is one.
  const r = typeCheck(t, { 'ref.js': script });
  assert.equal(r.code, 0, r.out);
});
