// The cookbook as a library: each shape's JSON schema and example, script building and
// parameter errors, the catalog entry of `gstack cookbook`. The CLI paths that need no browser
// (list, --print, usage errors) are in cookbook-shapes.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { loadCatalog } from '../driver/catalog.js';
import { SHAPES, buildScript, findShape, resolveParams, ShapeParamsError } from '../cookbook/index.js';
import { IS_LOCAL_HOST } from '../cookbook/snippets.js';

const catalog = loadCatalog();
const LABELS = new Set(catalog.evidenceLabels.map((l) => l.label));
const Ajv = createRequire(import.meta.url)('ajv') as typeof import('ajv').default;

test('the shapes the issue asks for exist, and the catalog entry of gstack cookbook lists exactly them', () => {
  const names = SHAPES.map((s) => s.name);
  for (const n of ['read', 'flow', 'annotated', 'responsive', 'links', 'perf', 'pdf', 'element-shot', 'form']) assert.ok(names.includes(n), n);
  const spec = catalog.commands.find((c) => c.name === 'cookbook');
  assert.ok(spec, 'catalog has a cookbook command');
  assert.deepEqual(spec.positionals?.[0]?.choices, ['list', ...names]);
  assert.deepEqual(spec.skills, ['browse', 'qa']);
});

test('each shape has a valid JSON schema (strict ajv), a default for every optional parameter, and a valid example', () => {
  for (const s of SHAPES) {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    const validate = ajv.compile(s.params);
    assert.ok(validate(structuredClone(s.example)), `${s.name} example: ${ajv.errorsText(validate.errors)}`);
    assert.ok(s.params.required.includes('url'), `${s.name} takes a url`);
    for (const [name, p] of Object.entries(s.params.properties)) {
      if (!s.params.required.includes(name)) assert.ok('default' in p, `${s.name}.${name} needs a default`);
      assert.ok(p.description, `${s.name}.${name} needs a description`);
    }
  }
});

test('each shape prints only catalog evidence labels, and its script prints each one it claims', () => {
  for (const s of SHAPES) {
    const script = buildScript(s, s.example);
    for (const label of s.evidence) {
      assert.ok(LABELS.has(label), `${s.name}: ${label} is not a catalog evidence label`);
      if (label !== catalog.sentinel) assert.ok(script.includes(`"${label}`), `${s.name} never prints ${label}`);
    }
    assert.ok(s.evidence.includes('ASIDE_DIR='), `${s.name} must print ASIDE_DIR= so --out works on Aside`);
    assert.ok(script.trimEnd().endsWith(`console.log("${catalog.sentinel}");`), `${s.name} ends with the sentinel`);
    assert.ok(/await closeTab\(pg\);\s*console\.log\("GSTACK_STEP_OK"\);\s*$/.test(script), `${s.name} closes its tab last`);
    // The console hook goes in before the page loads, through CDP (works on Aside too).
    const hook = script.indexOf('Page.addScriptToEvaluateOnNewDocument');
    const load = script.indexOf('pg.goto(PARAMS.url');
    assert.ok(hook > 0 && load > hook, `${s.name}: hook before goto`);
  }
});

// Sixteenth red-team pass (A17): `cookbook links --print` printed a broken script: the terminal
// filter every printed line passes turned the regex escapes of controls (`\u0000`, `\r`) into
// U+FFFD. What --print shows must be the script that runs.
test('every shape\'s script passes the terminal filter unchanged, so --print prints the script that runs', async () => {
  const { stripControls } = await import('../driver/runtime/output.js');
  for (const s of SHAPES) {
    for (const [i, line] of buildScript(s, s.example).split('\n').entries()) assert.equal(stripControls(line), line, `${s.name} line ${i + 1}`);
  }
});

test('buildScript embeds the parameters with their defaults filled in', () => {
  const read = findShape('read')!;
  const script = buildScript(read, { url: 'http://127.0.0.1:9/x' });
  assert.match(script, /const PARAMS = Object\.assign\(\{\n {2}"url": "http:\/\/127\.0\.0\.1:9\/x",\n {2}"selector": "",\n {2}"maxChars": 20000,\n {2}"waitFor": \{\n {4}"timeoutMs": 10000\n {2}\},\n {2}"settleMs": 300\n\}, params\);/);
  // Defaults are copies: filling them never mutates the schema or the caller's object.
  const given = { url: 'http://127.0.0.1:9/' };
  const resolved = resolveParams(findShape('responsive')!, given);
  assert.deepEqual(Object.keys(given), ['url']);
  (resolved.viewports as unknown[]).pop();
  assert.equal((resolveParams(findShape('responsive')!, given).viewports as unknown[]).length, 3);
});

test('bad parameters are usage errors that say what is wrong', () => {
  const links = findShape('links')!;
  const err = (params: Record<string, unknown>) => {
    try {
      buildScript(links, params);
    } catch (e) {
      assert.ok(e instanceof ShapeParamsError);
      assert.equal(e.exitCode, 2);
      return e.message;
    }
    assert.fail('expected a ShapeParamsError');
  };
  assert.match(err({}), /must have required property 'url'/);
  assert.match(err({ url: 'javascript:alert(1)' }), /params\.url must match pattern/);
  assert.match(err({ url: 'http://127.0.0.1/', maxLink: 5 }), /must NOT have additional properties "maxLink"/);
  assert.match(err({ url: 'http://127.0.0.1/', maxLinks: 0 }), /params\.maxLinks must be >= 1/);
  assert.throws(() => buildScript(findShape('pdf')!, { url: 'http://127.0.0.1/', file: '../escape.pdf' }), /params\.file must match pattern/);
  assert.match(err({ url: 'http://127.0.0.1/', waitFor: { text: 'Ready', selector: '#ready' } }), /params\.waitFor must not have both text and selector/);
  assert.match(err({ url: 'http://127.0.0.1/', waitFor: 'Ready' }), /params\.waitFor must be object/);
});

test('every page-loading shape takes waitFor next to settleMs', () => {
  for (const s of SHAPES) {
    const keys = Object.keys(s.params.properties);
    assert.ok(keys.includes('waitFor') && keys.includes('settleMs'), s.name);
    assert.equal(keys.indexOf('waitFor') + 1, keys.indexOf('settleMs'), `${s.name}: waitFor sits next to settleMs`);
    assert.match(buildScript(s, s.example), /await waitForReady\(pg(?:, [^\n]*)?\);\n(\s*)await sleep\(PARAMS\.settleMs\);/, `${s.name} waits for readiness, then settles`);
  }
});

test('the local-target rule: loopback, 0.0.0.0, *.localhost and *.test are local; *.local (mDNS) and anything else is not', async () => {
  // The snippet itself, run against a stand-in page at an address on that host.
  const decide = new Function('pg', `return (async () => { ${IS_LOCAL_HOST}\nreturn isLocal; })();`) as (pg: object) => Promise<boolean>;
  const isLocal = (host: string) => decide({ url: () => `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:8080/a?b=c` });
  for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', '0.0.0.0', 'app.localhost', 'shop.test', 'a.b.test', 'LOCALHOST', 'Shop.TEST']) assert.equal(await isLocal(h), true, h);
  for (const h of ['example.com', 'printer.local', 'nas.local', '127.0.0.1.nip.io', 'localhost.example.com', 'test', 'mytest', 'test.example.com', '10.0.0.1', '192.168.1.2', 'evil-localhost', '']) {
    assert.equal(await isLocal(h), false, h);
  }
});

test('the links shape never requests sign-out or destructive links', () => {
  const script = buildScript(findShape('links')!, { url: 'http://127.0.0.1/' });
  const unsafe = new RegExp(/const UNSAFE = \/(.+)\/i;/.exec(script)![1], 'i');
  for (const u of ['/logout', '/log-out', '/signout', '/sign-out', '/sign_off', '/account/delete', '/items/1/remove', '/subscription/cancel', '/unsubscribe?id=1']) assert.ok(unsafe.test(u), u);
  for (const t of ['Log out', 'Sign out', 'Delete account']) assert.ok(unsafe.test(t), t);
  for (const u of ['/form.html', '/blog/logo.png', '/about', '/docs/signing']) assert.ok(!unsafe.test(u), u);
});
