// One script, two engines: the same script FILE run through
// `gstack run -f FILE --engine chromium` and through `--engine aside` (the Aside CLI test
// double, test/doubles/aside, which drives its own browser independently of our engine)
// prints the same evidence labels in the same order. Covers a hand-written flow and every
// cookbook shape.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter, basename } from 'node:path';
import { loadCatalog } from '../driver/catalog.js';
import { SHAPES, buildScript } from '../cookbook/index.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, cliWith, type CliResult } from './helpers/cli.js';

const DOUBLES = join(ROOT, 'test', 'doubles');
const work = mkdtempSync(join(tmpdir(), 'gstack-parity-'));

let server: FixtureServer;
let base: string;
before(async () => {
  server = await startFixtureServer();
  base = server.url.replace(/\/$/, '');
});
after(() => server.close());

/** The Aside double on PATH and the probe allowed, so `--engine auto` can pick either. */
const gstack = cliWith(() => ({
  env: {
    PATH: DOUBLES + delimiter + (process.env.PATH ?? ''),
    GSTACK_HOME: join(work, 'home'),
    GSTACK_SESSION_KEY: 'engine-parity-test',
    GSTACK_SKIP_ASIDE: undefined,
    ASIDE_DOUBLE_MODE: undefined,
    ASIDE_DOUBLE_MAX_STDOUT: undefined,
  },
}));

const LABELS = loadCatalog().evidenceLabels.map((l) => l.label);
const FENCES: Record<string, string> = { TEXT_START: 'TEXT_END', SNAPSHOT_START: 'SNAPSHOT_END', DIFF_START: 'DIFF_END' };

/** The evidence labels of an output, in order. Lines inside a fence are page content (they
 * may differ in detail between engines) and are skipped; the fences themselves count. */
function labelsOf(lines: string[]): string[] {
  const out: string[] = [];
  let closing: string | undefined;
  for (const line of lines) {
    if (closing) {
      if (line === closing) {
        out.push(line);
        closing = undefined;
      }
      continue;
    }
    const label = LABELS.find((l) => (l.endsWith('=') ? line.startsWith(l) : line === l || line.startsWith(l + ' ')));
    if (!label) continue;
    out.push(label);
    if (FENCES[label]) closing = FENCES[label];
  }
  return out;
}

function valueOf(lines: string[], label: string): string[] {
  return lines.filter((l) => l.startsWith(label)).map((l) => l.slice(label.length));
}

async function bothEngines(file: string, outName: string): Promise<{ chromium: CliResult; aside: CliResult }> {
  // Sequential on purpose: the machine is small, and each engine launches a browser.
  const chromium = await gstack(['run', '-f', file, '--engine', 'chromium', '--out', join(work, outName, 'chromium')]);
  const aside = await gstack(['run', '-f', file, '--engine', 'aside', '--out', join(work, outName, 'aside')]);
  return { chromium, aside };
}

test('parity: the hand-written flow file prints the same labels, URLs, title and text on both engines', async () => {
  const file = join(work, 'parity-flow.js');
  writeFileSync(file, readFileSync(join(ROOT, 'test', 'fixtures', 'flows', 'parity-flow.js'), 'utf8').replace('__BASE__', base));
  const { chromium, aside } = await bothEngines(file, 'flow');
  assert.equal(chromium.code, 0, chromium.lines.join('\n') + chromium.stderr);
  assert.equal(aside.code, 0, aside.lines.join('\n') + aside.stderr);

  const expected = ['URL=', 'TITLE=', 'CONSOLE_ERRORS=', 'DIFF_START', 'DIFF_END', 'URL=', 'TEXT_START', 'TEXT_END', 'ASIDE_DIR=', 'ARTIFACT', 'ARTIFACT', 'GSTACK_STEP_OK'];
  assert.deepEqual(labelsOf(chromium.lines), expected);
  assert.deepEqual(labelsOf(aside.lines), expected);

  for (const label of ['URL=', 'TITLE=']) assert.deepEqual(valueOf(aside.lines, label), valueOf(chromium.lines, label), label);
  const text = (r: CliResult) => r.lines.slice(r.lines.indexOf('TEXT_START') + 1, r.lines.indexOf('TEXT_END'));
  assert.deepEqual(text(aside), text(chromium));
  assert.deepEqual(text(chromium), ['Welcome, ada']);
  for (const r of [chromium, aside]) {
    const errors = JSON.parse(valueOf(r.lines, 'CONSOLE_ERRORS=')[0]) as string[];
    assert.ok(errors.includes('early console error from head') && errors.includes('uncaught boom on load'), errors.join('|'));
    assert.ok(!r.lines.join('\n').includes('hunter2-secret'), 'neither engine prints the password');
    const diff = r.lines.slice(r.lines.indexOf('DIFF_START') + 1, r.lines.indexOf('DIFF_END')).join('\n');
    assert.match(diff, /textbox "Username".*: ada/, 'the diff shows the typed username');
    const artifacts = r.lines.filter((l) => l.startsWith('ARTIFACT ')).map((l) => basename(l.slice(9))).sort();
    assert.deepEqual(artifacts, ['form.png', 'notes.txt']);
  }
});

for (const shape of SHAPES) {
  test(`parity: cookbook shape "${shape.name}" prints the same evidence labels on both engines`, async () => {
    const params = JSON.parse(JSON.stringify(shape.example).replaceAll('http://127.0.0.1:8080', base));
    const file = join(work, `${shape.name}.js`);
    writeFileSync(file, buildScript(shape, params));
    const { chromium, aside } = await bothEngines(file, shape.name);
    assert.equal(chromium.code, 0, `chromium:\n${chromium.lines.join('\n')}\n${chromium.stderr}`);
    assert.equal(aside.code, 0, `aside:\n${aside.lines.join('\n')}\n${aside.stderr}`);
    const labels = labelsOf(chromium.lines);
    assert.deepEqual(labelsOf(aside.lines), labels);
    for (const l of shape.evidence) assert.ok(labels.includes(l), `shape "${shape.name}" printed ${l}`);
    assert.deepEqual(valueOf(aside.lines, 'URL='), valueOf(chromium.lines, 'URL='));
  });
}
