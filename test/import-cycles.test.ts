// No import cycles in the product's code: driver/, bin/, render/, cookbook/ and templates/ (every
// import counts, type-only and dynamic ones too: test/helpers/import-graph.ts); every folder
// imports only what docs/ARCHITECTURE.md's "Import directions" allows it, read from that table,
// and no two folders import each other; render/'s folders are layers. Each checker is first run
// on a fixture that breaks its rule, so a checker that stopped seeing the fault fails here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { checkDirections, directionsFromMarkdown, findCycles, folderEdges, importGraph, sourceFiles } from './helpers/import-graph.js';
import { ROOT } from './helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'import-cycle');
/** The product's code: every folder under these is checked. */
const PRODUCT = ['driver', 'bin', 'render', 'cookbook', 'templates'];
const show = (cycle: string[], from = ROOT) => cycle.map((f) => relative(from, f) || '.').join(' -> ');

test('the checker finds a cycle made of static, type-only and dynamic imports, and a folder cycle', () => {
  const { edges, unresolved } = importGraph(sourceFiles([FIXTURE]));
  assert.deepEqual(unresolved, []);
  const cycles = findCycles(edges).map((c) => show(c, FIXTURE));
  assert.equal(cycles.length, 1, cycles.join('\n'));
  // The same cycle whichever file the search happened to start from.
  const ring = ['a.ts', 'b.ts', 'c.ts'];
  const parts = cycles[0].split(' -> ');
  assert.equal(parts.length, 4);
  assert.equal(parts[0], parts[3]);
  const at = ring.indexOf(parts[0]);
  assert.deepEqual(parts.slice(0, 3), [...ring.slice(at), ...ring.slice(0, at)]);

  // layers/low/x -> layers/high/y -> layers/low/z: no file cycle, a folder cycle.
  const folders = findCycles(folderEdges(edges, join(FIXTURE, 'layers'))).map((c) => c.join(' -> '));
  assert.equal(folders.length, 1, folders.join('\n'));
  assert.match(folders[0], /^(low -> high -> low|high -> low -> high)$/);
});

test('the checker reports a relative import that names no file instead of skipping it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-import-graph-'));
  try {
    writeFileSync(join(dir, 'lone.ts'), "import { gone } from './gone.js';\nimport { z } from 'some-package';\nexport const lone = [gone, z];\n");
    const { edges, unresolved } = importGraph(sourceFiles([dir]));
    assert.deepEqual(unresolved, [`${join(dir, 'lone.ts')}: './gone.js'`]);
    assert.deepEqual(edges.get(join(dir, 'lone.ts')), [], 'a package import is not an edge');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('driver/, bin/, render/, cookbook/ and templates/ have no import cycle', () => {
  const files = sourceFiles(PRODUCT.map((d) => join(ROOT, d)));
  assert.ok(files.length > 50, `expected the project's sources, found ${files.length}`);
  const { edges, unresolved } = importGraph(files);
  assert.deepEqual(unresolved, [], 'relative imports that name no file');
  const cycles = findCycles(edges).map((c) => show(c));
  assert.deepEqual(cycles, [], `import cycles (cut one import in each):\n${cycles.join('\n')}`);
});

/** render/'s layers, bottom first, as render/index.ts and docs/ARCHITECTURE.md list them
 * ('.' is render/index.ts): a folder may import only folders before it. */
const RENDER_LAYERS = ['api', 'page', 'engines', 'orchestrate', '.', 'cli', 'mermaid', 'markdown'];

test("render/'s folders are layers: no folder cycle, and each imports only the layers below it", () => {
  const { edges } = importGraph(sourceFiles([join(ROOT, 'render')]));
  const folders = folderEdges(edges, join(ROOT, 'render'));
  const cycles = findCycles(folders).map((c) => c.join(' -> '));
  assert.deepEqual(cycles, [], `folder cycles in render/:\n${cycles.join('\n')}`);
  assert.deepEqual([...folders.keys()].filter((f) => !RENDER_LAYERS.includes(f)), [], 'a folder of render/ missing from its layers');
  const upward = [...folders].flatMap(([from, tos]) => tos.filter((to) => RENDER_LAYERS.indexOf(to) > RENDER_LAYERS.indexOf(from)).map((to) => `${from} -> ${to}`));
  assert.deepEqual(upward, [], 'imports from a lower layer into a higher one');
});

const DIRECTIONS_FIXTURE = join(ROOT, 'test', 'fixtures', 'import-directions');

test('the directions check fails on an import its rows do not allow, on a folder cycle, on a missing or stale row', () => {
  const { edges } = importGraph(sourceFiles([DIRECTIONS_FIXTURE]));
  // low/a.ts -> high/b.ts -> low/c.ts: no file cycle, one folder cycle.
  assert.deepEqual(findCycles(edges), []);
  const strict = checkDirections(edges, DIRECTIONS_FIXTURE, new Map([['low', []], ['high', ['low']]]));
  assert.deepEqual(strict, { unlisted: [], stale: [], against: ['low -> high (low/a.ts -> high/b.ts)'], cycles: ['low -> high -> low'], ruleCycles: [] });
  // Rows that allow both ways: nothing is against them, and the cycle is still found, in the
  // imports and in the rows.
  const loose = checkDirections(edges, DIRECTIONS_FIXTURE, new Map([['low', ['high']], ['high', ['low']]]));
  assert.deepEqual(loose.against, []);
  assert.deepEqual(loose.cycles, ['low -> high -> low']);
  assert.deepEqual(loose.ruleCycles, ['low -> high -> low']);
  const missing = checkDirections(edges, DIRECTIONS_FIXTURE, new Map([['low', []], ['gone', []]]));
  assert.deepEqual([missing.unlisted, missing.stale], [['high'], ['gone']]);
});

test('the directions table is read from its section: one row per folder, trailing slashes dropped', () => {
  const md = '# T\n\n## Import directions\n\n| folder | may import | why |\n|---|---|---|\n| `a/` | — | x |\n| `a/b/` | `a/`, `c.ts` | y |\n\n## Next\n\n| `z/` | `a/` |\n';
  assert.deepEqual([...directionsFromMarkdown(md, '## Import directions')], [['a', []], ['a/b', ['a', 'c.ts']]]);
  assert.throws(() => directionsFromMarkdown(md.replace('`a/b/`', '`a/`'), '## Import directions'), /a has two rows/);
});

test("every folder imports only what ARCHITECTURE.md's import directions allow, and no folders import each other", () => {
  const directions = directionsFromMarkdown(readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8'), '## Import directions');
  assert.ok(directions.size > 15 && directions.has('driver/runtime'), `the table's rows (${[...directions.keys()].join(', ')})`);
  const { edges } = importGraph(sourceFiles(PRODUCT.map((d) => join(ROOT, d))));
  const report = checkDirections(edges, ROOT, directions);
  assert.deepEqual(report.unlisted, [], 'folders with no row in "Import directions" (add one: what may they import?)');
  assert.deepEqual(report.stale, [], 'rows in "Import directions" for folders that hold no source file');
  assert.deepEqual(report.against, [], 'imports "Import directions" does not allow (move the code, or change the table and say why)');
  assert.deepEqual(report.cycles, [], 'folders that import each other');
  assert.deepEqual(report.ruleCycles, [], '"Import directions" allows a cycle');
});
