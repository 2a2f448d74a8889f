// The catalog drives the code's types (driver/catalog.gen.ts): renaming a command's positional
// or one of its error names in driver/catalog.json, then regenerating, makes `tsc` fail where
// the code still uses the old name, instead of a command that reads `undefined` at run time or
// throws an error the skills no longer document. Runs on a temporary copy of the sources,
// never the real tree (as test/codegen-check.e2e.test.ts does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
// What `npm run gen` reads and what tsconfig.json compiles.
const SOURCES = ['templates', 'generated', 'cookbook', 'driver', 'bin', 'render', 'package.json', 'tsconfig.json'];

function copyRepo(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-codegen-tsc-'));
  for (const rel of SOURCES) cpSync(join(ROOT, rel), join(dir, rel), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function run(dir: string, args: string[]) {
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', timeout: 240_000 });
  return { code: r.status, out: r.stdout + r.stderr };
}

const gen = (dir: string) => run(dir, ['--import', 'tsx', 'templates/gen.ts']);
const tsc = (dir: string) => run(dir, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit']);

function editCatalog(dir: string, from: string, to: string): void {
  const path = join(dir, 'driver', 'catalog.json');
  const before = readFileSync(path, 'utf8');
  assert.equal(before.split(from).length, 2, `${from} appears once in the catalog`);
  writeFileSync(path, before.replace(from, to));
}

test('renaming a positional or a command error in the catalog fails tsc where the code uses the old name', { timeout: 300_000 }, (t) => {
  const dir = copyRepo(t);
  // `gstack skills get NAME`: the positional `name` becomes `skill`.
  editCatalog(dir, '{ "name": "name", "description": "get: the skill to print', '{ "name": "skill", "description": "get: the skill to print');
  // `gstack login`'s NO_DISPLAY becomes NO_SCREEN.
  editCatalog(dir, '"name": "NO_DISPLAY"', '"name": "NO_SCREEN"');
  const g = gen(dir);
  assert.equal(g.code, 0, g.out);
  const generated = readFileSync(join(dir, 'driver', 'catalog.gen.ts'), 'utf8');
  assert.match(generated, /\n {2}skill\?: string;/);
  assert.match(generated, /NO_SCREEN: "NO_ENGINE",/);
  const r = tsc(dir);
  assert.notEqual(r.code, 0, `tsc passed after the renames:\n${r.out}`);
  // The positional: the command body still destructures `name`.
  assert.match(r.out, /bin\/commands\/skills\.ts\(\d+,\d+\): error TS\d+: Property 'name' does not exist on type 'SkillsPositionals'/, r.out);
  // The error name: the code still throws NO_DISPLAY, which `login` no longer lists.
  assert.match(r.out, /driver\/sessions\/login\.ts\(\d+,\d+\): error TS\d+: [^\n]*"NO_DISPLAY"/, r.out);
});
