// One script, two engines: the same script FILE run through
// `gstack run -f FILE --engine chromium` and through `--engine aside` (the Aside CLI test
// double, test/doubles/aside, which drives its own browser independently of our engine)
// prints the same evidence labels in the same order, for a hand-written flow. Every cookbook
// shape's parity is checked where the suite already runs it on the double
// (test/helpers/cookbook-live.ts, assertSameOnChromium): a second Aside call per shape here
// cost the tier about a minute.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter, basename } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, cliWith, type CliResult } from './helpers/cli.js';
import { labelsOf } from './helpers/cookbook-live.js';

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
