// The call's deadline has one owner (driver/deadline.ts): one CallDeadline arms the timer in
// the call's event loop and the enforcer outside it (a host's client, or the watchdog thread)
// with the same milliseconds, forwards the browser's pid to that enforcer, and after `done`
// nothing fires. The engines race it; its messages are the only spelling of a timeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallDeadline, DEADLINE_GRACE_MS, stuckMessage, timedOutMessage } from '../driver/deadline.js';

const after = (ms: number) => new Promise<'later'>((r) => setTimeout(() => r('later'), ms));

test('a started deadline expires after its ms and arms the outside enforcer with the same ms and the stuck message', async () => {
  const armed: Array<[number, string]> = [];
  const pids: Array<number | undefined> = [];
  let outsideDone = 0;
  const d = new CallDeadline(80, (ms, message) => {
    armed.push([ms, message]);
    return { browserStarted: (pid) => void pids.push(pid), done: () => void outsideDone++ };
  });
  assert.equal(await Promise.race([d.expired.then(() => 'expired'), after(150)]), 'later', 'nothing runs before start');
  assert.deepEqual(armed, []);
  const started = Date.now();
  d.start();
  d.start(); // once only
  assert.deepEqual(armed, [[80, stuckMessage(80)]]);
  d.browserStarted(4242);
  assert.deepEqual(pids, [4242]);
  // (The timer does not keep a process alive by itself: the browser the call waits on does.)
  assert.equal(await Promise.race([d.expired.then(() => 'expired'), after(1000)]), 'expired');
  assert.ok(Date.now() - started >= 75, `expired after ${Date.now() - started} ms`);
  d.done();
  assert.equal(outsideDone, 1);
});

test('done before the ms: the timer never fires and the outside enforcer is disarmed', async () => {
  let outsideDone = 0;
  const d = new CallDeadline(60, () => ({ browserStarted: () => undefined, done: () => void outsideDone++ }));
  d.start();
  d.done();
  d.done();
  assert.equal(outsideDone, 1);
  assert.equal(await Promise.race([d.expired.then(() => 'expired'), after(150)]), 'later');
});

test('a library call (no outside enforcer) still times out in its own loop', async () => {
  const d = new CallDeadline(30);
  d.start();
  d.browserStarted(1);
  assert.equal(await Promise.race([d.expired.then(() => 'expired'), after(500)]), 'expired');
  d.done();
});

test('the messages name the ms, --timeout and the next step; the grace leaves room for evidence', () => {
  assert.match(timedOutMessage(3000), /^The script did not finish within 3000 ms \(--timeout\); its browser was stopped .* raise --timeout\.$/);
  assert.match(timedOutMessage(3000, 'chromium', "locator.click on getByRole('button', { name: 'Save' }) (waiting 2.9 s)"), /starts afresh on the next call\. It was waiting in locator\.click on getByRole\('button', \{ name: 'Save' \}\) \(waiting 2\.9 s\)\. A page may be slow/);
  assert.match(timedOutMessage(3000, 'aside'), /^The script did not finish within 3 s \(--timeout\); aside repl was stopped\./);
  assert.match(stuckMessage(3000), /^The script did not finish within 3000 ms \(--timeout\) and did not give control back \(a loop that never awaits\?\); its browser was stopped\. Make every loop await/);
  assert.match(stuckMessage(5, 'the host was stopped.'), /never awaits\?\); the host was stopped\. Make every loop/);
  assert.ok(DEADLINE_GRACE_MS >= 1500, 'a timed-out call takes its evidence (1.5 s at most) within the grace');
});
