// Tier-1 checks of the Aside render script (render/engines/aside-render-script.js): it parses,
// it uses only what driver/catalog.json says Aside has (no Node globals), it ends with the
// sentinel, its failure messages are the shared ones (render/api/messages.ts) filled in by the
// same rule. That it ships in the package (npm pack) is render-aside-script.e2e.test.ts; the
// render itself on Aside is tested end to end against the aside test double in
// render-aside.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import * as acorn from 'acorn';
import { resolvePdfParams } from '../render/api/pdf-options.js';
import { fillMessage, RENDER_MESSAGES } from '../render/api/messages.js';
import { ASIDE_RENDER_SCRIPT_PATH, asideRenderScript } from '../render/engines/aside-render.js';
import type { RenderStep } from '../render/index.js';
import { checkScript } from './helpers/script-check.js';

type Node = acorn.Node & Record<string, any>;
const FILE_TEXT = readFileSync(ASIDE_RENDER_SCRIPT_PATH, 'utf8');
const parse = (source: string) =>
  acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, ranges: true, locations: true }) as Node;

/** The script as one render sends it: every step kind, waits, the offline URL. */
function sentScript(): string {
  const steps: RenderStep[] = [
    { kind: 'pdf', out: '/x/a.pdf', tagged: true },
    { kind: 'screenshot', out: '/x/s.png', width: 640, selector: '#chart' },
    { kind: 'eval', expression: 'document.title' },
  ];
  return asideRenderScript({
    url: 'http://127.0.0.1:5555/secret/r.html',
    offlineUrl: 'http://127.0.0.1:5555/offline-secret/r.html',
    origin: 'http://127.0.0.1:5555',
    steps,
    pdfParams: [resolvePdfParams(steps[0] as Extract<RenderStep, { kind: 'pdf' }>), undefined, undefined],
    waitSelector: '#ready',
    waitExpression: 'window.ready',
    waitTimeoutMs: 5000,
    allowNetwork: false,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
  });
}

function* nodes(node: Node): Generator<Node> {
  yield node;
  for (const v of Object.values(node)) {
    if (Array.isArray(v)) for (const c of v) if (c && typeof c.type === 'string') yield* nodes(c);
    if (v && typeof v.type === 'string') yield* nodes(v);
  }
}

test('the file parses on its own, as the body of an async function', () => {
  assert.doesNotThrow(() => parse(FILE_TEXT));
  assert.ok(FILE_TEXT.startsWith('// '), 'the file says in its first comment what it is');
});

test('the script as sent uses only what the catalog says Aside has, and ends with the sentinel', () => {
  assert.deepEqual(checkScript(sentScript(), { engine: 'aside' }), []);
});

test('the Aside check catches Node globals, globals and Page members Aside lacks, and accepts a feature-tested one', () => {
  const script = (body: string) => `const pg = await openTab('about:blank');\n${body}\nawait closeTab(pg);\nconsole.log('GSTACK_STEP_OK');`;
  assert.deepEqual(checkScript(script("await pg.goto('http://127.0.0.1/'); await pg._sendToTarget('Page.enable', {});"), { engine: 'aside' }), []);
  assert.match(checkScript(script('process.exit(0);'), { engine: 'aside' }).join(), /`process` is not a catalog global/);
  assert.match(checkScript(script('setTimeout(() => 1, 5);'), { engine: 'aside' }).join(), /`setTimeout`/);
  assert.match(checkScript(script("require('fs');"), { engine: 'aside' }).join(), /`require`/);
  assert.match(checkScript(script("pg.on('pageerror', () => {});"), { engine: 'aside' }).join(), /pg\.on is not marked available on Aside/);
  assert.match(checkScript(script('await pg.setViewportSize({ width: 1, height: 1 });'), { engine: 'aside' }).join(), /pg\.setViewportSize/);
  assert.match(checkScript(script('await pg.route("**", (r) => r.abort());'), { engine: 'aside' }).join(), /pg\.route/);
  assert.deepEqual(checkScript(script("if (typeof pg.on === 'function') pg.on('pageerror', () => {});"), { engine: 'aside' }), []);
  assert.deepEqual(checkScript(script("const listens = typeof pg.on === 'function';\nif (listens) pg.on('pageerror', () => {});"), { engine: 'aside' }), []);
  // Tested somewhere is not enough: the use must be in the branch the test guards.
  assert.match(checkScript(script("const listens = typeof pg.on === 'function';\nif (!listens) pg.on('pageerror', () => {});"), { engine: 'aside' }).join(), /pg\.on/);
  assert.match(checkScript(script("if (typeof pg.on !== 'function') pg.on('pageerror', () => {});"), { engine: 'aside' }).join(), /pg\.on/);
  // A catalog global that only Chromium lacks is fine on Aside; the reverse would be reported.
  assert.deepEqual(checkScript(script('await listBrowserTabs();'), { engine: 'aside' }), []);
  assert.match(checkScript(script('1;').replace("console.log('GSTACK_STEP_OK');", "console.log('DONE');"), { engine: 'aside' }).join(), /does not end with/);
});

test('every message the script says is a shared render message, given exactly its slots', () => {
  const slots = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const said: string[] = [];
  for (const n of nodes(parse(FILE_TEXT))) {
    if (n.type !== 'CallExpression' || n.callee.type !== 'Identifier' || n.callee.name !== 'say') continue;
    const [name, values] = n.arguments;
    assert.equal(name.type, 'Literal', `line ${n.loc?.start.line}: say() names its message with a string literal`);
    const template = (RENDER_MESSAGES as Record<string, string>)[name.value];
    assert.ok(template !== undefined, `line ${n.loc?.start.line}: "${name.value}" is not in RENDER_MESSAGES (render/api/messages.ts)`);
    assert.equal(values.type, 'ObjectExpression', `line ${n.loc?.start.line}: say() takes an object literal`);
    const given = values.properties.map((p: Node) => p.key.name ?? p.key.value).sort();
    assert.deepEqual(given, slots(template), `line ${n.loc?.start.line}: the slots of "${name.value}"`);
    said.push(name.value);
  }
  for (const name of ['loadTimeout', 'pageStatus', 'waitSelectorInvalid', 'waitSelectorTimeout', 'waitExprInvalid', 'waitExprTimeout', 'stepFailed', 'selectorNoMatch', 'evalThrew', 'stepLabel']) {
    assert.ok(said.includes(name), `the script reports ${name} through the shared messages`);
  }
  // No failure text of its own: every fail() gets a say().
  for (const n of nodes(parse(FILE_TEXT))) {
    if (n.type === 'CallExpression' && n.callee.type === 'Identifier' && n.callee.name === 'fail' && n.arguments[0]?.type !== 'Identifier') {
      const arg = n.arguments[0];
      assert.ok(arg.type === 'CallExpression' && arg.callee.name === 'say', `line ${n.loc?.start.line}: fail() with a message of its own`);
    }
  }
});

test("the script's say() fills a message exactly as fillMessage does, and the job carries every message", () => {
  const sent = sentScript();
  const job = JSON.parse(sent.slice('const job = '.length, sent.indexOf(';\n')));
  assert.deepEqual(job.messages, RENDER_MESSAGES);
  // Run the script's own `say` declaration against the job it is sent with.
  const decl = [...nodes(parse(FILE_TEXT))].find((n) => n.type === 'VariableDeclarator' && n.id.name === 'say')!;
  const say = vm.runInNewContext(`(${FILE_TEXT.slice(decl.init.start, decl.init.end)})`, { job }) as (n: string, v: Record<string, unknown>) => string;
  const tricky = { label: 'step 2 (--eval)', cause: "TypeError: {label} $& $1 '{x}'", ms: 1500, selector: '#a"b', status: 404, lastError: '', n: 3, kind: 'pdf' };
  for (const name of Object.keys(RENDER_MESSAGES)) {
    assert.equal(say(name, tricky), fillMessage((RENDER_MESSAGES as Record<string, string>)[name], tricky), name);
  }
});

