// Where hosts keep their sockets (driver/hosts/address.ts): the runtime dir is per user. The
// hosts themselves run end to end in session-host.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runtimeDirPath } from '../driver/hosts/address.js';

test('the runtime dir is per user: $XDG_RUNTIME_DIR/gstack, else ~/.gstack/run', () => {
  assert.equal(runtimeDirPath({ XDG_RUNTIME_DIR: '/run/user/1' }), '/run/user/1/gstack');
  assert.equal(runtimeDirPath({ HOME: '/home/u' }), '/home/u/.gstack/run');
});
