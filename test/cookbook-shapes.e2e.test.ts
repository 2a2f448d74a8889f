// `gstack cookbook` through the built CLI, on the paths that need no browser: list, --print
// (with and without the required parameters) and usage errors. The shapes as a library are in
// cookbook-shapes.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHAPES, buildScript, findShape } from '../cookbook/index.js';
import { runCli } from './helpers/cli.js';

test('gstack cookbook list prints every shape and its parameters', async () => {
  const r = await runCli(['cookbook', 'list']);
  assert.equal(r.code, 0, r.stderr);
  for (const s of SHAPES) {
    assert.ok(r.lines.includes(`SHAPE ${s.name} ${s.summary}`), s.name);
    for (const p of Object.keys(s.params.properties)) assert.ok(r.lines.some((l) => l.startsWith(`  PARAM ${p} (`)), `${s.name}.${p}`);
  }
});

test('gstack cookbook <shape> --print prints the script it would run', async () => {
  const r = await runCli(['cookbook', 'element-shot', '--url', 'http://127.0.0.1:8080/', '--params', '{"selector":"h1"}', '--print']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, buildScript(findShape('element-shot')!, { url: 'http://127.0.0.1:8080/', selector: 'h1' }));
});

// A trial agent asked for `gstack cookbook flow --print` to see the script to adapt, and got a
// parameter error: --print is for reading, so what it was not given comes from the example.
test('gstack cookbook <shape> --print with required parameters missing prints the script with the example\'s values and says which to edit', async () => {
  const shape = findShape('flow')!;
  const r = await runCli(['cookbook', 'flow', '--print']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, buildScript(shape, { url: shape.example.url, steps: shape.example.steps }));
  assert.match(r.stderr, /PARAMS url, steps are the shape's example; edit them/);
  // A given value wins; only the missing one is filled and named.
  const given = await runCli(['cookbook', 'flow', '--print', '--url', 'http://127.0.0.1:9/x']);
  assert.equal(given.code, 0, given.stderr);
  assert.match(given.stdout, /"url": "http:\/\/127\.0\.0\.1:9\/x"/);
  assert.match(given.stderr, /PARAMS steps is the shape's example; edit it/);
});

test('gstack cookbook usage errors exit 2 with what to do', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['cookbook', 'read'], /must have required property 'url'/],
    [['cookbook', 'element-shot', '--url', 'http://127.0.0.1:8080/'], /required property 'selector'/],
    // Only a press may leave out the element's name (it then goes to the page).
    [['cookbook', 'flow', '--url', 'http://127.0.0.1:8080/', '--params', '{"steps":[{"action":"click"}]}'], /params\.steps\.0 must have required property 'name'/],
    [['cookbook', 'read', '--url', 'http://127.0.0.1:8080/', '--params', '{nope'], /--params is not valid JSON/],
    [['cookbook', 'read', '--url', 'http://127.0.0.1:8080/', '--params', '[1]'], /--params must be a JSON object/],
    [['cookbook', 'nosuch', '--url', 'http://127.0.0.1:8080/'], /Invalid values:\s+Argument: shape, Given: "nosuch", Choices: "list", "read"/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout + r.stderr, message);
  }
});
