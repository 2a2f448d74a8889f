// The tier rule, enforced rather than remembered: a test file that spawns the gstack CLI, reads
// the build output (dist/), launches a browser, reads PDFs with poppler or runs the project's
// build or packaging tools (tsc, the codegen, npm) is named test/<name>.e2e.test.ts; every
// other test file runs in the unit tier, which needs no build (docs/ARCHITECTURE.md, "Tests"). The checker (test/helpers/test-tiers.ts)
// is first run on fixtures with one file of each kind, so a checker that stopped seeing a need
// fails here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from './helpers/cli.js';
import { CLI_SPAWNERS, e2eNeeds, testFiles, tierOf } from './helpers/test-tiers.js';

const TEST_DIR = join(ROOT, 'test');
const FIXTURE = join(TEST_DIR, 'fixtures', 'tiers');

/** Each unit-named test file in `dir` that needs the e2e tier, with why. */
function misnamed(dir: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of testFiles(dir, 'unit')) {
    const needs = e2eNeeds(f, TEST_DIR);
    if (needs.length) out[relative(dir, f)] = needs;
  }
  return out;
}

test('the checker sees the CLI, dist/, a browser, poppler and the build tools (also through helpers), and nothing in a unit test', () => {
  assert.deepEqual(misnamed(FIXTURE), {
    'launches.test.ts': ['launches a browser (imports playwright-core)'],
    'packs.test.ts': ["runs the project's build or packaging tools ('npm')"],
    'reads-dist.test.ts': ["reads the build output ('../../../dist/driver/catalog-validate.cjs')"],
    'spawns-cli.test.ts': ['spawns the gstack CLI (runCli from test/helpers/cli.ts)'],
    'through-helper.test.ts': ["reads PDFs with poppler ('pdfinfo') via fixtures/tiers/helper.ts -> helpers/inspect.ts"],
  });
  // The same file named .e2e. is in its tier; the name alone decides.
  assert.equal(tierOf(join(FIXTURE, 'allowed.e2e.test.ts')), 'e2e');
  assert.deepEqual(e2eNeeds(join(FIXTURE, 'allowed.e2e.test.ts'), TEST_DIR), ['spawns the gstack CLI (runCli from test/helpers/cli.ts)']);
  assert.equal(testFiles(FIXTURE, 'e2e').length, 1);
});

test('every test file that needs the build, a browser, poppler or the CLI is named .e2e.', () => {
  const wrong = misnamed(TEST_DIR);
  const advice = Object.entries(wrong).map(
    ([f, why]) => `test/${f} ${why.join('; ')}: rename it to test/${f.replace(/\.test\.ts$/, '.e2e.test.ts')} or move those tests into one`,
  );
  assert.deepEqual(advice, []);
  assert.ok(testFiles(TEST_DIR, 'unit').length >= 20, 'the unit tier was found');
});

test('the CLI spawners the checker looks for are what test/helpers/cli.ts exports', () => {
  // A renamed runCli would otherwise pass unseen through every unit test that imports it.
  const source = ts.createSourceFile('cli.ts', readFileSync(join(TEST_DIR, 'helpers', 'cli.ts'), 'utf8'), ts.ScriptTarget.Latest);
  const exported = new Set<string>();
  for (const s of source.statements) {
    const isExported = ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!isExported) continue;
    if (ts.isFunctionDeclaration(s) && s.name) exported.add(s.name.text);
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) exported.add(d.name.text);
  }
  for (const name of CLI_SPAWNERS) assert.ok(exported.has(name), `test/helpers/cli.ts no longer exports ${name}`);
});

test('npm test runs both tiers (test/run-tier.ts all: the unit tier beside the build and the e2e tier), and the unit tier builds nothing', () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(scripts.test, 'node --import tsx test/run-tier.ts all');
  const runner = readFileSync(join(ROOT, 'test', 'run-tier.ts'), 'utf8');
  assert.match(runner, /spawn\('npm', \['run', 'build'\]/, 'all builds before its e2e files, as test:e2e does');
  assert.doesNotMatch(scripts['test:unit'], /build|tsc/);
  assert.match(scripts['test:e2e'], /^npm run build && /);
});
