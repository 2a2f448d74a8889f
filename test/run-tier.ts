// Runs one test tier with node:test (`npm run test:unit`, `npm run test:e2e`; `npm test` runs
// both, unit first). Which file is in which tier: test/helpers/test-tiers.ts.
//
//   node --import tsx test/run-tier.ts unit|e2e [node --test options] [test files of that tier]
//
// unit: files in parallel, and no browser: GSTACK_CHROMIUM names no file, so a unit test that
// starts Chromium after all fails with "No Chromium found" instead of quietly slowing the tier.
// e2e: one file at a time: the suites share the per-user render host and look for their own
// leftover processes by command line, so side by side they would fail each other
// (docs/ARCHITECTURE.md, "Tests").
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { E2E_SUFFIX, testFiles, tierOf, type Tier } from './helpers/test-tiers.js';

const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));

/** Unit files are small and often wait on child processes and timers, so more of them than
 * cores keeps both cores busy: on a loaded 2-core machine 4 at a time ran the tier in 188 s
 * where 2 took 256 s (about 34 s of CPU in all). */
const CONCURRENCY: Record<Tier, number> = { unit: 4, e2e: 1 };

/** Not a path any Chromium lives at: the unit tier has no browser. */
const NO_BROWSER = '/nonexistent/unit-tests-run-without-a-browser';

function main(argv: string[]): Promise<number> {
  const [tier, ...rest] = argv;
  if (tier !== 'unit' && tier !== 'e2e') {
    process.stderr.write('usage: node --import tsx test/run-tier.ts unit|e2e [node --test options] [test files]\n');
    return Promise.resolve(2);
  }
  const named = rest.filter((a) => a.endsWith('.test.ts'));
  const wrong = named.filter((f) => tierOf(f) !== tier);
  if (wrong.length) {
    process.stderr.write(`${wrong.join(', ')}: not in the ${tier} tier (end-to-end files end in ${E2E_SUFFIX}). Run them with npm run test:${tier === 'unit' ? 'e2e' : 'unit'} -- FILE.\n`);
    return Promise.resolve(2);
  }
  const files = named.length ? named : testFiles(TEST_DIR, tier);
  const options = rest.filter((a) => !named.includes(a));
  const env = tier === 'unit' ? { ...process.env, GSTACK_CHROMIUM: NO_BROWSER } : process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${CONCURRENCY[tier]}`, ...options, ...files], { stdio: 'inherit', env });
  return new Promise((done) => child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
}

process.exitCode = await main(process.argv.slice(2));
