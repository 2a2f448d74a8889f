// docs/ARCHITECTURE.md's "One call" walks a host-mode `gstack run` through the files it names.
// A newcomer reads it first, so it stays short (at most 20 files, issue 29) and true: every file
// it names exists and is reached by the imports of the two processes of such a call, the
// `gstack` entry (bin/gstack.ts) and the host entry (bin/host.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importGraph } from './helpers/import-graph.js';
import { ROOT } from './helpers/cli.js';

/** The project files a markdown section (up to its first subsection) names in backticks. */
function filesNamed(markdown: string, heading: string): string[] {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no "${heading}" section`);
  const section = markdown.slice(at + heading.length + 2).split(/\n##+ /)[0];
  return [...new Set([...section.matchAll(/`((?:bin|driver|render|cookbook)\/[\w/.-]+\.ts)`/g)].map((m) => m[1]))];
}

test('the section reader finds each named file once, and only project paths', () => {
  const md = '# Doc\n\n## One call\n\n1. `bin/a.ts` then `driver/x/b.ts` (`bin/a.ts` again), `foo.ts`, `driver/` \n\n## Next\n\n`bin/c.ts`\n';
  assert.deepEqual(filesNamed(md, '## One call'), ['bin/a.ts', 'driver/x/b.ts']);
});

test('"One call" names at most 20 files, each exists and runs in a host-mode call', () => {
  const named = filesNamed(readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8'), '## One call');
  assert.ok(named.length >= 10, `the walk names ${named.length} files`);
  assert.ok(named.length <= 20, `the walk names ${named.length} files (at most 20): ${named.join(', ')}`);
  assert.deepEqual(named.filter((f) => !existsSync(join(ROOT, f))), [], 'files the walk names that do not exist');
  const { edges } = importGraph([join(ROOT, 'bin', 'gstack.ts'), join(ROOT, 'bin', 'host.ts')]);
  assert.deepEqual(named.filter((f) => !edges.has(join(ROOT, f))), [], 'files the walk names that neither process of the call imports');
});
