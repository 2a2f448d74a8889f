// What is known about Aside (gstack's public contract tests, verified against Aside CLI 1.26)
// and how we honour it: the catalog marks each Page member's Aside support and the docs and
// .d.ts say it; no cookbook shape calls a member Aside lacks or nobody verified there. That the
// responsive shape runs on the Aside double and a missing browser window is classified by the
// probe is shown through the CLI in aside-facts.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acorn from 'acorn';
import { loadCatalog } from '../driver/catalog.js';
import { SHAPES, buildScript } from '../cookbook/index.js';
import { ROOT } from './helpers/cli.js';

const catalog = loadCatalog();
type Node = acorn.Node & Record<string, any>;

/** Aside support of every Page member a script can name: the catalog's pageMethods and the
 * Page extras (`locator`, `_sendToTarget`). */
const ASIDE_SUPPORT = new Map<string, string>([
  ...catalog.pageMethods.map((m) => [m.name, m.aside] as [string, string]),
  ...catalog.pageExtras.map((e) => [e.name, e.engines.aside] as [string, string]),
]);

function* nodes(node: Node): Generator<Node> {
  yield node;
  for (const [key, v] of Object.entries(node)) {
    if (key === 'loc') continue;
    if (Array.isArray(v)) for (const c of v) if (c && typeof c.type === 'string') yield* nodes(c);
    if (v && typeof (v as Node).type === 'string') yield* nodes(v as Node);
  }
}

/** Every Page member a script uses that is not verified on Aside, as `pg.member (support)`.
 * Pages are the variables assigned from openTab()/attachBrowserTab(), and function parameters
 * of the same name (the shapes' helpers take the page as `pg`). */
function asideUnsafeCalls(source: string): string[] {
  const ast = acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true }) as Node;
  const pages = new Set<string>();
  for (const n of nodes(ast)) {
    const init = n.type === 'VariableDeclarator' ? (n.init?.type === 'AwaitExpression' ? n.init.argument : n.init) : undefined;
    if (init?.type === 'CallExpression' && ['openTab', 'attachBrowserTab'].includes(init.callee.name) && n.id.type === 'Identifier') pages.add(n.id.name);
  }
  const out: string[] = [];
  for (const n of nodes(ast)) {
    if (n.type !== 'MemberExpression' || n.computed || n.object.type !== 'Identifier' || !pages.has(n.object.name)) continue;
    const support = ASIDE_SUPPORT.get(n.property.name) ?? 'not in the catalog';
    if (support !== 'yes') out.push(`${n.object.name}.${n.property.name} (Aside: ${support})`);
  }
  return out;
}

test('the checker flags Page members Aside lacks or nobody verified there, and passes verified ones', () => {
  const script = (body: string) => `const pg = await openTab();\n${body}\nawait closeTab(pg);\nconsole.log("GSTACK_STEP_OK");`;
  assert.deepEqual(asideUnsafeCalls(script('await pg.setViewportSize({ width: 375, height: 800 });')), ['pg.setViewportSize (Aside: no)']);
  assert.deepEqual(asideUnsafeCalls(script('pg.on("console", () => {});')), ['pg.on (Aside: no)']);
  assert.deepEqual(asideUnsafeCalls(script('console.log(await pg.title());')), ['pg.title (Aside: unverified)']);
  assert.deepEqual(asideUnsafeCalls(script('async function f(pg) { await pg.reload(); }')), ['pg.reload (Aside: unverified)']);
  assert.deepEqual(asideUnsafeCalls(script('await pg.goto("http://127.0.0.1/"); await pg.locator("e1").click(); await pg._sendToTarget("Page.enable", {});')), []);
});

test('no cookbook shape calls a Page member the catalog marks unsupported or unverified on Aside', () => {
  for (const shape of SHAPES) assert.deepEqual(asideUnsafeCalls(buildScript(shape, shape.example)), [], `cookbook shape "${shape.name}"`);
});

// The docs promise that the same script runs on Aside and on Chromium; a trial agent found the
// worked flows calling pg.title(), which the reference lists as not verified on Aside. Page
// events (pg.on for a dialog handler) are the one exception, and the docs say Chromium only.
test('the scripts in the browse and qa docs call only Page members verified on Aside (page events aside, marked Chromium only)', () => {
  for (const doc of ['browse/SKILL.md', 'browse/REFERENCE.md', 'qa/SKILL.md', 'qa/REFERENCE.md']) {
    const md = readFileSync(join(ROOT, 'generated', doc), 'utf8');
    for (const m of md.matchAll(/```(?:js|javascript)\n([\s\S]*?)```/g)) {
      // Page events (a dialog handler, a download) are Chromium only, and the docs say so there.
      const unsafe = asideUnsafeCalls(m[1]).filter((c) => c !== 'pg.on (Aside: no)' && c !== 'pg.waitForEvent (Aside: unverified)');
      assert.deepEqual(unsafe, [], `${doc}, script at line ${md.slice(0, m.index).split('\n').length}`);
    }
  }
});

test('the catalog marks every Page member with its Aside support; the docs and the .d.ts say it', () => {
  const names = catalog.pageMethods.map((m) => m.name);
  assert.equal(new Set(names).size, names.length, 'each Page member once');
  const support = (name: string) => catalog.pageMethods.find((m) => m.name === name)?.aside;
  for (const absent of ['setViewportSize', 'on', 'once', 'off']) assert.equal(support(absent), 'no', absent);
  for (const verified of ['goto', 'evaluate', 'screenshot', 'locator', '_sendToTarget']) assert.equal(support(verified), 'yes', verified);
  assert.equal(support('waitForLoadState'), 'unverified');

  const dts = readFileSync(join(ROOT, 'generated', 'script-api.d.ts'), 'utf8');
  for (const m of catalog.pageMethods.filter((x) => !catalog.pageExtras.some((e) => e.name === x.name))) {
    const doc = new RegExp(`/\\*\\* Aside: ([^\\n]*) \\*/\\n {2}${m.name}: PlaywrightPage\\["${m.name}"\\];`).exec(dts);
    assert.ok(doc, `the .d.ts declares ${m.name} with its Aside support`);
    assert.match(doc[1], m.aside === 'yes' ? /^verified/ : m.aside === 'no' ? /^not available\. Aside has no/ : /^not verified/, m.name);
  }
  // The per-member list lives in the skill's full reference; the core names the members that are absent.
  const browse = readFileSync(join(ROOT, 'generated', 'browse', 'REFERENCE.md'), 'utf8');
  assert.match(browse, /^ {2}- `setViewportSize`: Aside has no setViewportSize: size the view through CDP/m);
  assert.match(browse, /^ {2}- `on`, `once`, `off`: Aside has no page events/m);
  assert.match(browse, /^- \*\*Not verified on Aside\*\*/m);
});
