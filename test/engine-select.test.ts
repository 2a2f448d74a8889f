// selectEngine (driver/engines/select.ts) as a library call, against the Aside CLI test double.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { selectEngine, AsideUnavailableError, skipAside } from '../driver/engines/select.js';

const DOUBLES = fileURLToPath(new URL('./doubles/', import.meta.url));

function env(aside: boolean, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, PATH: (aside ? DOUBLES + delimiter : '') + (process.env.PATH ?? '') };
  for (const k of ['GSTACK_SKIP_ASIDE', 'ASIDE_DOUBLE_MODE', 'GSTACK_ASIDE_PROBE_TIMEOUT_MS', 'ASIDE_DOUBLE_CALL_LOG']) delete e[k];
  return { ...e, ...extra };
}
const callLog = () => join(mkdtempSync(join(tmpdir(), 'gstack-sel-')), 'calls.log');

test('auto + ready Aside -> aside, no fallback note', async () => {
  const s = await selectEngine({ engine: 'auto', env: env(true) });
  assert.equal(s.engine, 'aside');
  assert.equal(s.probe?.outcome, 'READY: aside');
  assert.equal(s.fallbackNote, undefined);
});

test('auto + no aside on PATH -> chromium with the one-line note', async () => {
  const s = await selectEngine({ engine: 'auto', env: env(false) });
  assert.equal(s.engine, 'chromium');
  assert.equal(s.probe?.outcome, 'NEEDS_ASIDE');
  assert.match(s.fallbackNote!, /^gstack: Aside not used \(NEEDS_ASIDE: no `aside` command on PATH.*\); running on chromium\.$/);
  assert.ok(!s.fallbackNote!.includes('\n'));
});

test('auto + hanging Aside -> chromium after the (shortened) probe deadline', async () => {
  const s = await selectEngine({ engine: 'auto', env: env(true, { ASIDE_DOUBLE_MODE: 'hang' }), probeTimeoutMs: 300 });
  assert.equal(s.engine, 'chromium');
  assert.equal(s.probe?.outcome, 'ASIDE_TIMEOUT');
  assert.match(s.fallbackNote!, /ASIDE_TIMEOUT/);
});

test('chromium never probes; GSTACK_SKIP_ASIDE=1 skips the probe under auto', async () => {
  const log = callLog();
  assert.deepEqual(await selectEngine({ engine: 'chromium', env: env(true, { ASIDE_DOUBLE_CALL_LOG: log }) }), { engine: 'chromium' });
  assert.deepEqual(await selectEngine({ engine: 'auto', env: env(true, { ASIDE_DOUBLE_CALL_LOG: log, GSTACK_SKIP_ASIDE: '1' }) }), { engine: 'chromium' });
  assert.equal(existsSync(log), false, 'the aside CLI was never run');
  assert.equal(skipAside({ GSTACK_SKIP_ASIDE: '0' }), false);
  assert.equal(skipAside({ GSTACK_SKIP_ASIDE: 'true' }), true);
});

test('--engine aside probes even with GSTACK_SKIP_ASIDE (asked for by name)', async () => {
  const log = callLog();
  const s = await selectEngine({ engine: 'aside', env: env(true, { ASIDE_DOUBLE_CALL_LOG: log, GSTACK_SKIP_ASIDE: '1' }) });
  assert.equal(s.engine, 'aside');
  assert.equal(readFileSync(log, 'utf8').trim().split('\n').length, 1);
});

test('--engine aside without a usable Aside throws exitCode 3 with the outcome and the next step', async () => {
  for (const [aside, mode, outcome] of [
    [false, '', 'NEEDS_ASIDE'],
    [true, 'not-running', 'ASIDE_NOT_RUNNING'],
    [true, 'fail', 'ASIDE_CLI_ERROR'],
  ] as const) {
    await assert.rejects(
      selectEngine({ engine: 'aside', env: env(aside, mode ? { ASIDE_DOUBLE_MODE: mode } : {}) }),
      (err: unknown) => {
        assert.ok(err instanceof AsideUnavailableError);
        assert.equal(err.exitCode, 3);
        assert.equal(err.probe.outcome, outcome);
        assert.match(err.message, new RegExp(`^--engine aside: Aside is not usable \\(${outcome}: `));
        assert.match(err.message, /--engine chromium/);
        assert.doesNotMatch(err.message, /SECRET|\/Users\/alice/);
        return true;
      },
    );
  }
});
