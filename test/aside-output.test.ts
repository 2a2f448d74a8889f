// How the Aside adapter judges what `aside repl` printed (judgeAsideOutput in
// driver/engines/aside.ts), rule by rule, without running the CLI. The adapter against the Aside
// double, with a browser behind it, is aside-adapter.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeAsideOutput } from '../driver/engines/aside.js';

test('judgeAsideOutput: the rules in isolation', () => {
  assert.deepEqual(judgeAsideOutput(['GSTACK_STEP_OK'], 0), { completed: true, artifactDir: undefined });
  assert.equal(judgeAsideOutput(['[error] early', 'GSTACK_STEP_OK'], 0).completed, true, 'an [error line before the sentinel is evidence, not failure');
  assert.equal(judgeAsideOutput(['GSTACK_STEP_OK', '[error] late'], 0).completed, false);
  assert.equal(judgeAsideOutput(['  GSTACK_STEP_OK'], 0).completed, false, 'only an exact sentinel line counts');
  assert.match(judgeAsideOutput(['GSTACK_STEP_OK'], 2).error!, /exited with code 2 after the script printed GSTACK_STEP_OK/);
  assert.match(judgeAsideOutput([], 5).error!, /exited with code 5 before the script finished/);
  // The first is the script's own; a later one may be page text spelling the label (pass 16, A16),
  // and --out would copy from where it points.
  assert.equal(judgeAsideOutput(['ASIDE_DIR=/a', 'ASIDE_DIR=/home/user', 'GSTACK_STEP_OK'], 0).artifactDir, '/a');
});
