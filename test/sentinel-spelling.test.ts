// The sentinel has one spelling, the catalog's ("sentinel" in driver/catalog.json): the code
// reads it as SENTINEL from driver/catalog.gen.ts, so renaming it there renames it in every
// message, check and cookbook script. A hand-written source file that spells it out would
// keep the old word after such a rename. Tests, templates and docs may spell it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SENTINEL } from '../driver/catalog.gen.js';

const ROOT = join(import.meta.dirname, '..');
const SOURCE_DIRS = ['driver', 'bin', 'render', 'cookbook', 'templates'];
const GENERATED = 'driver/catalog.gen.ts';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

test('no hand-written source file spells the sentinel: they interpolate SENTINEL', () => {
  const files = SOURCE_DIRS.flatMap((d) => tsFiles(join(ROOT, d))).map((f) => relative(ROOT, f).split('\\').join('/'));
  assert.ok(files.length > 50 && files.includes('driver/runner/run-script.ts'), `found the sources (${files.length})`);
  const spelled = files
    .filter((f) => f !== GENERATED)
    .flatMap((f) => readFileSync(join(ROOT, f), 'utf8').split('\n').map((line, i) => ({ where: `${f}:${i + 1}`, line })))
    .filter((l) => l.line.includes(SENTINEL));
  assert.deepEqual(spelled.map((l) => `${l.where}: ${l.line.trim()}`), [], `use SENTINEL from ${GENERATED} instead`);
  assert.ok(readFileSync(join(ROOT, GENERATED), 'utf8').includes(`export const SENTINEL = ${JSON.stringify(SENTINEL)};`));
});
