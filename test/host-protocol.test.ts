// The host socket's line decoder (driver/hosts/wire.ts; issue 22, item 9): a line is scanned
// once however many chunks it arrives in, and a line over the cap ends the stream with an error
// instead of growing without bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decoder, MAX_LINE_BYTES } from '../driver/hosts/wire.js';

test('messages split across chunks and multi-byte characters come out whole', () => {
  const got: unknown[] = [];
  const feed = decoder((m) => got.push(m), () => assert.fail('no error expected'));
  const bytes = Buffer.from('{"t":"out","s":"héllo ✓"}\n\n{"t":"abort"}\nnot json\n{"t":"st');
  for (let i = 0; i < bytes.length; i += 3) feed(bytes.subarray(i, i + 3));
  feed(Buffer.from('op"}\n'));
  assert.deepEqual(got, [{ t: 'out', s: 'héllo ✓' }, { t: 'abort' }, undefined, { t: 'stop' }]);
});

test('an unterminated line over the cap ends the stream at once with an error, in linear time', () => {
  let error: Error | undefined;
  let messages = 0;
  const feed = decoder(() => messages++, (err) => (error = err));
  const chunk = Buffer.alloc(64 * 1024, 0x61); // 'a', never a newline
  const started = performance.now();
  let fed = 0;
  while (!error && fed < MAX_LINE_BYTES * 2) {
    feed(chunk);
    fed += chunk.length;
  }
  const ms = performance.now() - started;
  assert.ok(error, 'the decoder gave up');
  assert.match(error.message, /longer than \d+ bytes/);
  assert.ok(fed <= MAX_LINE_BYTES + chunk.length, `stopped at the cap (${fed} bytes fed)`);
  // Not a speed budget: ~1 s here alone, 5 s on a loaded CI machine; a decoder that rescanned its
  // buffer per chunk would scan ~500x as much and take many minutes.
  assert.ok(ms < 60_000, `scanned once: ${ms.toFixed(0)} ms for ${fed} bytes`);
  // After the error the decoder ignores the rest of the stream.
  feed(Buffer.from('\n{"t":"abort"}\n'));
  assert.equal(messages, 0);
});

test('a long line under the cap is scanned once, not once per chunk', () => {
  const got: unknown[] = [];
  const feed = decoder((m) => got.push(m), (err) => assert.fail(err));
  const s = 'x'.repeat(16 * 1024 * 1024);
  const bytes = Buffer.from(JSON.stringify({ t: 'stdin', data: s }) + '\n');
  const started = performance.now();
  for (let i = 0; i < bytes.length; i += 16 * 1024) feed(bytes.subarray(i, i + 16 * 1024));
  const ms = performance.now() - started;
  assert.equal((got[0] as { data: string }).data.length, s.length);
  assert.ok(ms < 5000, `${ms.toFixed(0)} ms for 16 MiB in 16 KiB chunks`);
});
