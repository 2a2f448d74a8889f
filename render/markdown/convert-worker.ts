// The worker thread of convert.ts: Stage 1 of `gstack pdf` on each input it is sent, one at a
// time, its result (or its error) posted back; it stays up, its parser modules loaded, for the
// next call.
import { parentPort } from 'node:worker_threads';
import { StrictAssetError } from './assets.js';
import { convertHere, type ConvertInput, type ConvertReply } from './convert.js';

parentPort!.on('message', (input: ConvertInput) => {
  convertHere(input).then(
    (out) => parentPort!.postMessage({ ok: true, out } satisfies ConvertReply),
    (err: unknown) => parentPort!.postMessage({ ok: false, strict: err instanceof StrictAssetError, message: err instanceof Error ? err.message : String(err) } satisfies ConvertReply),
  );
});
