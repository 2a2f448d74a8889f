// No import cycles in the product's code: driver/, bin/, render/ and cookbook/ (every import
// counts, type-only and dynamic ones too: test/helpers/import-graph.ts), and render/'s folders
// are layers — no folder imports one that imports it back. The checker is first run on a
// fixture that has a cycle of each kind, so a checker that stopped seeing cycles fails here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { findCycles, folderEdges, importGraph, sourceFiles } from './helpers/import-graph.js';
import { ROOT } from './helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'import-cycle');
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

test('driver/, bin/, render/ and cookbook/ have no import cycle', () => {
  const files = sourceFiles(['driver', 'bin', 'render', 'cookbook'].map((d) => join(ROOT, d)));
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
