// Per-step evidence in the `flow` shape and diffs that read like what happened (issue 25,
// cookbook/flow.ts, driver/runtime/snapshot.ts): `gstack cookbook flow` through the compiled CLI, on a
// real Chromium and on the Aside test double, against test/fixtures/site/steps.html.
// Acceptance 3 (a console error appears under the step that caused it only), 4 (a blocked
// submit names its field and validation message) and 5 (a modal opening and closing: two
// one-line summaries, the dialog's tree under the first), and the settle before the
// after-snapshot (a late answer belongs to its own step).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, cliWith, tempHome } from './helpers/cli.js';

const DOUBLES = join(ROOT, 'test', 'doubles');
let site: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  home = tempHome('gstack-flow-steps-');
});
after(() => site.close());

const chromium = cliWith(() => ({ env: { GSTACK_HOME: home, GSTACK_SESSION_KEY: 'flow-steps-e2e' } }));
const aside = cliWith(() => ({
  env: {
    PATH: DOUBLES + delimiter + (process.env.PATH ?? ''),
    GSTACK_HOME: home,
    GSTACK_SESSION_KEY: 'flow-steps-e2e-aside',
    GSTACK_SKIP_ASIDE: undefined,
    ASIDE_DOUBLE_MODE: undefined,
    ASIDE_DOUBLE_HOME: mkdtempSync(join(tmpdir(), 'gstack-flow-steps-aside-')),
  },
}));

type Step = { action: string; name: string; value?: string };
const flow = (cli: typeof chromium, steps: Step[], engine: string) =>
  cli(['cookbook', 'flow', '--url', site.url + 'steps.html', '--engine', engine, '--params', JSON.stringify({ steps })]);

/** The lines of each STEP, up to the next STEP or the after screenshot. */
function stepsOf(lines: string[]): string[][] {
  const out: string[][] = [];
  for (const l of lines) {
    if (l.startsWith('STEP ')) out.push([]);
    else if (l.startsWith('SCREENSHOT=')) {
      if (out.length) break;
    } else out.at(-1)?.push(l);
  }
  return out;
}
/** A step's diff, between DIFF_START and DIFF_END. */
const diffOf = (step: string[]) => step.slice(step.indexOf('DIFF_START') + 1, step.indexOf('DIFF_END'));

for (const [engine, cli] of [['chromium', chromium], ['aside', aside]] as const) {
  test(`${engine}: three clicks, only the second logs a console error: it shows under step 2 only`, async () => {
    const r = await flow(cli, [{ action: 'click', name: 'First' }, { action: 'click', name: 'Second' }, { action: 'click', name: 'Third' }], engine);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const steps = stepsOf(r.lines);
    assert.equal(steps.length, 3);
    const errorsOf = (s: string[]) => s.filter((l) => l.startsWith('CONSOLE_ERRORS='));
    assert.deepEqual(errorsOf(steps[0]), []);
    assert.deepEqual(errorsOf(steps[1]), ['CONSOLE_ERRORS=["second button failed: quota exceeded"]']);
    assert.deepEqual(errorsOf(steps[2]), []);
  });

  test(`${engine}: a submit the browser blocked names the field and its validation message`, async () => {
    const r = await flow(cli, [{ action: 'click', name: 'Sign up' }], engine);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [step] = stepsOf(r.lines);
    const line = step.find((l) => l.startsWith('SUBMIT_BLOCKED='));
    assert.ok(line, step.join('\n'));
    assert.deepEqual(JSON.parse(line.slice('SUBMIT_BLOCKED='.length)), { field: 'Email', message: 'Please fill out this field.' });
    // Filled in, the same submit goes through: nothing blocked.
    const ok = await flow(cli, [{ action: 'fill', name: 'Email', value: 'qa@example.test' }, { action: 'click', name: 'Sign up' }], engine);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.ok(!ok.lines.some((l) => l.startsWith('SUBMIT_BLOCKED=')), ok.stdout);
  });

  test(`${engine}: a late answer is in the diff of the step that asked for it, not the next one`, async () => {
    const r = await flow(cli, [{ action: 'click', name: 'Late' }, { action: 'click', name: 'First' }], engine);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [late, first] = stepsOf(r.lines).map(diffOf);
    assert.ok(late.some((l) => /^\+ .*late answer arrived/.test(l)), late.join('\n'));
    assert.ok(!first.some((l) => /late answer arrived/.test(l) && l.startsWith('+')), first.join('\n'));
  });
}

test('chromium: a modal opening and closing reads as two one-line summaries, the dialog tree under the first', async () => {
  const r = await flow(chromium, [{ action: 'click', name: 'Save' }, { action: 'click', name: 'Confirm' }], 'chromium');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const [open, close] = stepsOf(r.lines).map(diffOf);
  assert.match(open[0], /^dialog "Save 1 change\?" opened; the page behind it is hidden \(\d+ lines\)$/);
  assert.deepEqual(
    open.slice(1).map((l) => l.replace(/ \[ref=e\d+\]/g, '').replace(/ \[active\]/g, '')),
    ['+ - dialog "Save 1 change?":', '+   - paragraph: You have one unsaved change.', '+   - button "Confirm"'],
  );
  assert.match(close[0], /^dialog "Save 1 change\?" closed; the page behind it is back \(\d+ lines\)$/);
  // Behind it, only what really changed: the status line, with one line of context.
  assert.deepEqual(close.slice(1).map((l) => l.replace(/ \[ref=e\d+\]/g, '')), ['    - button "Late"', '-   - paragraph: ready', '+   - paragraph: 1 change saved']);
});
