// Runs one test tier with node:test (`npm run test:unit`, `npm run test:e2e`), or both (`npm
// test`: `all`). Which file is in which tier: test/helpers/test-tiers.ts.
//
//   node --import tsx test/run-tier.ts unit|e2e [node --test options] [test files of that tier]
//   node --import tsx test/run-tier.ts all
//
// all: the unit tier starts at once, beside the build and then the e2e files: the unit tier
// waits on child processes and timers much of its minute, time the e2e tier (CPU-bound on 2
// cores) fills. Its output is printed first, as soon as it ends; if it fails, no further e2e
// file starts (those running finish) and the run fails: a broken unit test still stops the run
// early, as unit-then-e2e did, without the e2e tier waiting a minute for it when it passes.
//
// unit: files in parallel, and no browser: GSTACK_CHROMIUM names no file, so a unit test that
// starts Chromium after all fails with "No Chromium found" instead of quietly slowing the tier.
// e2e: several files at a time. Each file has its own GSTACK_HOME and runtime directory
// (isolatedEnv in test/helpers/cli.ts), so no two share a profile, a session host, the render
// host or a socket, and a file that looks for its leftover processes by a profile path sees
// only its own (docs/ARCHITECTURE.md, "Tests"). GSTACK_TEST_CONCURRENCY overrides the number.
// Each e2e file runs as its own `node --test`, its output printed in one block when it ends
// (side by side, lines would interleave), and the run ends with every file's wall time,
// slowest first: the list to cut from when the tier grows slow.
// The slowest files start first (test/e2e-times.json, each file's wall time in an earlier whole
// run; a file not listed counts as slow), so no long file starts last and runs alone at the end.
// `--record-times` writes this run's times back to that table.
// Every file runs with TMPDIR set to one temp folder of this run, removed when the run ends: what
// a test leaves in the temp dir (its scratch folders, the artifacts folder of a host it killed
// with SIGKILL) goes with it, not into the /tmp that other sessions on the machine share.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_SUFFIX, testFiles, tierOf, type Tier } from './helpers/test-tiers.js';

const TEST_DIR = fileURLToPath(new URL('.', import.meta.url));

/** Unit files are small and often wait on child processes and timers, so more of them than
 * cores keeps both cores busy: on a loaded 2-core machine 4 at a time ran the tier in 188 s
 * where 2 took 256 s (about 34 s of CPU in all). E2e files wait on browsers, servers and
 * hosts much of the time too; see E2E_CONCURRENCY. Not more: at 5 at a time a quiet 2-core
 * machine ran each e2e file about twice as long (the tier is CPU-bound there) and deadline
 * tests missed their bounds. */
const E2E_CONCURRENCY = 3;
const CONCURRENCY: Record<Tier, number> = { unit: 4, e2e: Number(process.env.GSTACK_TEST_CONCURRENCY) || E2E_CONCURRENCY };

const FAILED_TAIL_LINES = 60;

const TIMES_FILE = new URL('./e2e-times.json', import.meta.url);
const RECORD_FLAG = '--record-times';

function readTimes(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(TIMES_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** Longest first (the classic greedy schedule: the run ends about when its longest file or the
 * even share of the rest does, not a long file's length after everything else). */
function slowestFirst(files: string[]): string[] {
  const times = readTimes();
  const time = (f: string) => times[basename(f)] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => time(b) - time(a));
}

/** Not a path any Chromium lives at: the unit tier has no browser. */
const NO_BROWSER = '/nonexistent/unit-tests-run-without-a-browser';

function main(argv: string[]): Promise<number> {
  const [tier, ...rest] = argv;
  if (tier === 'all' && rest.length === 0) return runAll();
  if (tier !== 'unit' && tier !== 'e2e') {
    process.stderr.write('usage: node --import tsx test/run-tier.ts unit|e2e [node --test options] [test files]\n       node --import tsx test/run-tier.ts all\n');
    return Promise.resolve(2);
  }
  const named = rest.filter((a) => a.endsWith('.test.ts'));
  const wrong = named.filter((f) => tierOf(f) !== tier);
  if (wrong.length) {
    process.stderr.write(`${wrong.join(', ')}: not in the ${tier} tier (end-to-end files end in ${E2E_SUFFIX}). Run them with npm run test:${tier === 'unit' ? 'e2e' : 'unit'} -- FILE.\n`);
    return Promise.resolve(2);
  }
  const files = named.length ? named : testFiles(TEST_DIR, tier);
  const record = rest.includes(RECORD_FLAG);
  const options = rest.filter((a) => !named.includes(a) && a !== RECORD_FLAG);
  if (tier === 'e2e') return runEachFile(slowestFirst(files), options, CONCURRENCY.e2e, record);
  return exitOf(unitTier(options, files, 'inherit'));
}

/** A child's exit code once it has closed (1 when a signal ended it). */
function exitOf(child: ChildProcess): Promise<number> {
  return new Promise((done) => child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0))));
}

/** The unit tier: one `node --test` over its files, in parallel, with no browser to start. */
function unitTier(options: string[], files: string[], stdio: 'inherit' | 'pipe') {
  const env = { ...process.env, GSTACK_CHROMIUM: NO_BROWSER };
  return spawn(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${CONCURRENCY.unit}`, ...options, ...files], { stdio: ['ignore', stdio, stdio], env });
}

/** `npm test`: the unit tier beside the build and the e2e tier (see the top of this file). */
async function runAll(): Promise<number> {
  const started = Date.now();
  const unit = unitTier([], testFiles(TEST_DIR, 'unit'), 'pipe');
  let unitOutput = '';
  unit.stdout!.setEncoding('utf8').on('data', (d: string) => (unitOutput += d));
  unit.stderr!.setEncoding('utf8').on('data', (d: string) => (unitOutput += d));
  const unitCode = exitOf(unit).then((result) => {
    process.stdout.write(`\n# unit tier (${((Date.now() - started) / 1000).toFixed(1)} s, exit ${result})\n${unitOutput}`);
    if (result !== 0) stopStarting = true;
    return result;
  });
  const built = await exitOf(spawn('npm', ['run', 'build'], { stdio: 'inherit' }));
  const e2e = built === 0 && !stopStarting ? await runEachFile(slowestFirst(testFiles(TEST_DIR, 'e2e')), [], CONCURRENCY.e2e, false) : 1;
  const unitResult = await unitCode;
  if (unitResult !== 0) process.stdout.write('# the unit tier failed (its output is above): no e2e file started after it did\n');
  if (built !== 0) process.stdout.write('# npm run build failed: no e2e file ran\n');
  return unitResult || e2e;
}

/** Set when the unit tier of `all` fails: no further e2e file starts. */
let stopStarting = false;

interface FileRun {
  file: string;
  ms: number;
  code: number;
}

/** `node --test` on one file, its stdout and stderr kept together until it ends. */
function runOne(file: string, options: string[]): Promise<FileRun & { output: string }> {
  const started = Date.now();
  const reporter = options.some((o) => o.startsWith('--test-reporter')) ? [] : ['--test-reporter=spec'];
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...reporter, ...options, file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
  return new Promise((done) =>
    child.on('close', (code, signal) => done({ file, ms: Date.now() - started, code: code ?? (signal ? 1 : 0), output })),
  );
}

async function runEachFile(files: string[], options: string[], concurrency: number, record: boolean): Promise<number> {
  const queue = [...files];
  const runs: FileRun[] = [];
  const failedOutput = new Map<string, string>();
  const started = Date.now();
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined && !stopStarting; file = queue.shift()) {
      const { output, ...run } = await runOne(file, options);
      runs.push(run);
      if (run.code !== 0) failedOutput.set(run.file, output);
      process.stdout.write(`\n# ${relative(process.cwd(), file)} (${(run.ms / 1000).toFixed(1)} s, exit ${run.code})\n${output}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  const failed = runs.filter((r) => r.code !== 0);
  process.stdout.write(`\n# e2e: ${runs.length === files.length ? '' : `${runs.length} of `}${files.length} files, ${concurrency} at a time, in ${((Date.now() - started) / 1000).toFixed(1)} s; by wall time:\n`);
  for (const r of [...runs].sort((a, b) => b.ms - a.ms)) process.stdout.write(`#   ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${r.code === 0 ? 'ok    ' : 'FAILED'}  ${relative(process.cwd(), r.file)}\n`);
  // A failed file's output again, last, from its end (the reporter's list of failing tests):
  // a CI log cut to its tail still shows why.
  for (const [file, output] of failedOutput) {
    const tail = output.trimEnd().split('\n').slice(-FAILED_TAIL_LINES).join('\n');
    process.stdout.write(`\n# FAILED ${relative(process.cwd(), file)}, the last ${FAILED_TAIL_LINES} lines of its output again:\n${tail}\n`);
  }
  if (failed.length) process.stdout.write(`# failed: ${failed.map((r) => relative(process.cwd(), r.file)).join(', ')}\n`);
  if (record) {
    const times = { ...readTimes(), ...Object.fromEntries(runs.map((r) => [basename(r.file), Math.round(r.ms / 1000)])) };
    const sorted = Object.fromEntries(Object.entries(times).sort((a, b) => b[1] - a[1]));
    writeFileSync(TIMES_FILE, JSON.stringify(sorted, null, 1) + '\n');
  }
  return failed.length ? 1 : 0;
}

/** The run's temp folder, TMPDIR of every child (see the top of this file). */
function withRunTemp(run: () => Promise<number>): Promise<number> {
  const temp = mkdtempSync(join(tmpdir(), 'gstack-tier-'));
  process.env.TMPDIR = temp;
  return run().finally(() => rmSync(temp, { recursive: true, force: true, maxRetries: 3 }));
}

process.exitCode = await withRunTemp(() => main(process.argv.slice(2)));
