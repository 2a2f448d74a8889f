// runOnChromium with a signal that was aborted before the call reached the engine (a host's
// client left while the session lock was being taken): the call is interrupted at
// once, and whatever the launch opens is closed, not left running the script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOnChromium } from '../driver/engines/chromium.js';
import type { OpenedContext } from '../driver/browser/launch.js';
import { CallDeadline } from '../driver/deadline.js';

test('a signal aborted before the engine starts interrupts the call and closes what the launch opened', async () => {
  const controller = new AbortController();
  controller.abort();
  let closed = 0;
  const lines: string[] = [];
  const fakeContext = { setDefaultTimeout() {}, setDefaultNavigationTimeout() {}, pages: () => [], on() {}, off() {} };
  const outcome = await runOnChromium({
    script: 'await sleep(1000); console.log("RAN")',
    pwd: '/tmp',
    deadline: new CallDeadline(30_000),
    onLine: (l) => lines.push(l),
    signal: controller.signal,
    browser: {
      open: async (): Promise<OpenedContext> => ({
        context: fakeContext as never,
        close: async () => void closed++,
        kill: async () => void closed++,
      }),
    },
  });
  assert.equal(outcome.completed, false);
  assert.match(outcome.error ?? '', /interrupted/);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(closed > 0, true, 'the context the launch opened was closed');
  assert.deepEqual(lines, []);
});
