// The catalog is the single source of the script API and the CLI: it must match its schema,
// and the implementation must match it in both directions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { commandSpec, loadCatalog, CATALOG_PATH, CatalogError } from '../driver/catalog.js';
import { validateCatalog } from '../templates/catalog-file.js';
import { CHROMIUM_GLOBALS, runInSandbox } from '../driver/runtime/sandbox.js';

const catalog = loadCatalog();

test('catalog.json matches catalog.schema.json', () => {
  validateCatalog(JSON.parse(readFileSync(CATALOG_PATH, 'utf8')));
});

test('the code reads the catalog `npm run gen` validated and wrote, never the file', () => {
  assert.deepEqual(loadCatalog(), JSON.parse(readFileSync(CATALOG_PATH, 'utf8')), 'driver/catalog.gen.ts is stale: run npm run gen');
  // No call reads catalog.json or compiles its schema: only the codegen does (templates/catalog-file.ts).
  const source = readFileSync(new URL('../driver/catalog.ts', import.meta.url), 'utf8');
  assert.doesNotMatch(source, /readFileSync|require\(|from 'ajv'|from '\.\.\/templates\//);
});

test('a catalog that breaks the schema is rejected with the offending path', () => {
  const broken = JSON.parse(readFileSync(CATALOG_PATH, 'utf8'));
  delete broken.globals[0].engines;
  broken.exitCodes.push({ code: 'nine' });
  assert.throws(() => validateCatalog(broken), (e: Error) => e instanceof CatalogError && /\/globals\/0/.test(e.message) && /\/exitCodes\/\d+/.test(e.message));
});

test('every catalog global has a Chromium implementation, and nothing else is implemented', () => {
  const declared = catalog.globals.map((g) => g.name).sort();
  assert.deepEqual(Object.keys(CHROMIUM_GLOBALS).sort(), declared);
});

test('the sandbox exposes exactly the catalog globals (no Node globals leak in)', async () => {
  const lines: string[] = [];
  const fakeContext = { pages: () => [], on() {}, off() {} } as never;
  const run = runInSandbox(
    `const names = Object.getOwnPropertyNames(globalThis).filter((n) => !${JSON.stringify(builtins())}.includes(n));
     console.log(JSON.stringify(names.sort()));
     console.log(typeof process, typeof require, typeof setTimeout, typeof module);`,
    { context: fakeContext, pwd: '/tmp', onLine: (l) => lines.push(l) },
    catalog,
  );
  await run.done;
  // `console` is also a V8 intrinsic of every context; the catalog's console replaces it (its
  // lines reaching onLine above prove that), so compare the rest.
  const expected = catalog.globals.map((g) => g.name).filter((n) => !builtins().includes(n)).sort();
  assert.deepEqual(JSON.parse(lines[0]), expected);
  assert.equal(lines[1], 'undefined undefined undefined undefined');
});

/** The ECMAScript intrinsics every vm context has (they are the language, not Node). */
function builtins(): string[] {
  const vmGlobals = new (require('node:vm') as typeof import('node:vm')).Script('Object.getOwnPropertyNames(globalThis)').runInNewContext();
  return vmGlobals as string[];
}
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);

test('gstack pdf and gstack render get the print options from one flag group: same names, aliases and defaults', () => {
  const print = catalog.flagGroups?.print ?? [];
  assert.ok(print.length >= 10);
  for (const cmd of ['pdf', 'render']) {
    const flags = commandSpec(cmd, catalog).flags;
    for (const f of print) {
      const { step, ...flag } = flags.find((x) => x.name === f.name) ?? { name: '' };
      assert.deepEqual(flag, f, `${cmd} lacks --${f.name} from the print group`);
      // In gstack render each print option configures the --pdf step before it.
      assert.equal(step, cmd === 'render' ? 'pdf' : undefined);
    }
  }
  const byName = Object.fromEntries(print.map((f) => [f.name, f]));
  assert.deepEqual(byName.paper.aliases, ['page-size', 'paper-in']);
  assert.deepEqual(byName.margin.aliases, ['margins']);
  assert.equal(byName['page-numbers'].default, true);
});

test('a command naming a missing flag group, or a flag twice, is rejected', () => {
  const missing = JSON.parse(readFileSync(CATALOG_PATH, 'utf8'));
  missing.commands.find((c: { name: string }) => c.name === 'pdf').flags.push({ group: 'nope' });
  assert.throws(() => validateCatalog(missing), (e: Error) => e instanceof CatalogError && /no flag group "nope"/.test(e.message));
  const twice = JSON.parse(readFileSync(CATALOG_PATH, 'utf8'));
  twice.commands.find((c: { name: string }) => c.name === 'pdf').flags.push({ name: 'margins', type: 'string', description: 'x' });
  assert.throws(() => validateCatalog(twice), (e: Error) => e instanceof CatalogError && /"pdf" has the flag --margins twice/.test(e.message));
});
