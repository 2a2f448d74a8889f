// The library API `render(spec)` that `gstack pdf` and `gstack diagram` build on: in-memory
// pages, outputs returned as bytes, several steps in one browser session, the offline
// guarantee with a callback, device scale, and typed failures with exit codes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { render, RenderError } from '../render/index.js';
import { imageSize, pdfInfo, pdfText } from './helpers/inspect.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'gstack-render-lib-'));
  writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#c00"/></svg>');
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('an in-memory page with disk assets; outputs come back as bytes; steps share one session', async () => {
  const blocked: string[] = [];
  const html = `<!doctype html><html><head><title>Memory doc</title>
    <link rel="stylesheet" href="https://fonts.example.invalid/css">
    </head><body><h1>Generated in memory</h1><img id="logo" src="logo.svg">
    <script>window.steps = 0;</script></body></html>`;
  const result = await render({
    file: join(dir, 'generated.html'), // exists only in `files`
    files: { 'generated.html': html },
    engine: 'chromium',
    waits: { expression: 'document.getElementById("logo").complete' },
    onBlockedRequest: (url) => blocked.push(url),
    deviceScaleFactor: 2,
    steps: [
      { kind: 'eval', expression: 'document.getElementById("logo").naturalWidth' },
      { kind: 'eval', expression: '(document.body.insertAdjacentHTML("beforeend", "<p>added by step two</p>"), ++window.steps)' },
      { kind: 'pdf', tagged: true, headerTemplate: '<div style="font-size:10px">HDR</div>' },
      { kind: 'screenshot', width: 300, height: 200, viewportOnly: true },
      { kind: 'eval', expression: 'window.steps' },
    ],
  });
  assert.equal(result.engine, 'chromium');
  assert.deepEqual(result.evals.map((e) => e.value), [40, 1, 1]);
  assert.deepEqual(result.evals.map((e) => e.index), [1, 2, 3]);
  assert.deepEqual(blocked, ['https://fonts.example.invalid/css']);
  assert.deepEqual(result.blockedRequests, blocked);

  const pdf = result.artifacts.find((a) => a.kind === 'pdf')!;
  assert.equal(pdf.path, undefined);
  assert.ok(pdf.data && pdf.data.subarray(0, 5).toString() === '%PDF-');
  const pdfPath = join(dir, 'from-bytes.pdf');
  writeFileSync(pdfPath, pdf.data);
  assert.equal(pdfInfo(pdfPath).Tagged, 'yes');
  const text = pdfText(pdfPath);
  assert.match(text, /Generated in memory/);
  assert.match(text, /added by step two/, 'the PDF step saw the DOM change made by the eval before it');
  assert.match(text, /HDR/);

  const shot = result.artifacts.find((a) => a.kind === 'screenshot')!;
  const shotPath = join(dir, 'shot.png');
  writeFileSync(shotPath, shot.data!);
  assert.deepEqual(imageSize(shotPath), { type: 'png', width: 600, height: 400 }); // 2x device scale
});

test('the loopback server lives only for the render', async () => {
  const result = await render({
    file: join(dir, 'origin.html'),
    files: { 'origin.html': '<p>origin</p>' },
    engine: 'chromium',
    steps: [{ kind: 'eval', expression: 'location.href' }],
  });
  const url = String(result.evals[0].value);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/origin\.html$/);
  await assert.rejects(fetch(url), (e: any) => /ECONNREFUSED/.test(String(e?.cause?.code ?? e?.cause ?? e)));
});

test('allowNetwork lets requests through (none blocked)', async () => {
  const result = await render({
    file: join(dir, 'net.html'),
    files: { 'net.html': '<img src="http://127.0.0.1:9/unreachable.png"><p>x</p>' },
    engine: 'chromium',
    allowNetwork: true,
    steps: [{ kind: 'eval', expression: '1' }],
  });
  assert.deepEqual(result.blockedRequests, []);
});

test('failures are RenderErrors with the exit code the CLI uses', async () => {
  await assert.rejects(
    render({ file: join(dir, 'missing.html'), engine: 'chromium', steps: [{ kind: 'eval', expression: '1' }] }),
    (e: unknown) => e instanceof RenderError && e.exitCode === 2 && /input file not found/.test(e.message),
  );
  await assert.rejects(
    render({ file: join(dir, 'logo.svg'), engine: 'chromium', steps: [] }),
    (e: unknown) => e instanceof RenderError && e.exitCode === 2 && /at least one step/.test(e.message),
  );
  await assert.rejects(
    render({ file: join(dir, 'logo.svg'), engine: 'chromium', steps: [{ kind: 'pdf', paper: 'b9' }] }),
    (e: unknown) => e instanceof RenderError && e.exitCode === 2 && /unknown paper "b9"/.test(e.message),
  );
  await assert.rejects(
    render({ file: join(dir, 'logo.svg'), engine: 'chromium', env: { ...process.env, GSTACK_CHROMIUM: join(dir, 'nope') }, steps: [{ kind: 'eval', expression: '1' }] }),
    (e: unknown) => e instanceof RenderError && e.exitCode === 3 && /Install one with/.test(e.message),
  );
  await assert.rejects(
    render({ file: join(dir, 'logo.svg'), engine: 'chromium', steps: [{ kind: 'pdf', out: join(dir, 'a.pdf') }, { kind: 'pdf', out: join(dir, 'a.pdf') }] }),
    (e: unknown) => e instanceof RenderError && e.exitCode === 2 && /also writes/.test(e.message),
  );
});
