// What stopped a call, checked at the boundary it crosses (a socket message, a stop note on disk)
// and told in one [error] sentence per cause (driver/stop-cause.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserGoneMessage, parseStopCause, stoppedMessage } from '../driver/stop-cause.js';

test('a stop cause is parsed from untrusted data, or not at all', () => {
  assert.deepEqual(parseStopCause({ kind: 'command', command: 'gstack sessions stop --all --force', pid: 42 }), { kind: 'command', command: 'gstack sessions stop --all --force', pid: 42 });
  assert.deepEqual(parseStopCause({ kind: 'signal', signal: 'SIGINT', pid: 7, extra: 'ignored' }), { kind: 'signal', signal: 'SIGINT', pid: 7 });
  for (const bad of [null, 'x', [], { kind: 'command', pid: 1 }, { kind: 'command', command: 'x', pid: -1 }, { kind: 'command', command: 'x', pid: 1.5 }, { kind: 'signal', signal: 'S'.repeat(50), pid: 1 }, { kind: 'other', pid: 1 }, { kind: 'command', command: 'x'.repeat(500), pid: 1 }]) {
    assert.equal(parseStopCause(bad), undefined, JSON.stringify(bad));
  }
});

test('each cause says who stopped the call and whether to run it again', () => {
  assert.match(stoppedMessage({ kind: 'command', command: 'gstack sessions stop --all --force', pid: 42 }), /^The call was stopped by `gstack sessions stop --all --force` \(pid 42\).*run the call again/);
  assert.match(stoppedMessage({ kind: 'signal', signal: 'SIGTERM', pid: 9 }), /^The call was interrupted: this gstack process \(pid 9\) received SIGTERM/);
  assert.match(stoppedMessage({ kind: 'host', why: 'uncaught exception', pid: 3 }), /session host \(pid 3\) stopped: uncaught exception/);
  // An AbortSignal aborted without a cause (the client's socket went away) still reads as a sentence.
  assert.match(stoppedMessage(new DOMException('This operation was aborted', 'AbortError')), /^The call was interrupted before its script finished/);
  assert.match(browserGoneMessage(123, { code: null, signal: 'SIGKILL' }), /^The browser \(pid 123\) was killed with SIGKILL during the call \(the system may have run out of memory/);
  assert.match(browserGoneMessage(undefined, { code: 139, signal: null }), /exited with code 139 during the call \(it crashed\)/);
});
