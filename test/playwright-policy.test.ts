// The membrane's policy tables (driver/catalog.json "playwright") against the installed
// Playwright's own type declarations, and the proxy's shape: no browser, no build.
//
// - every public member of every class the tables cover has exactly one policy, and the tables
//   name no member Playwright lacks (a Playwright upgrade that adds or renames a method fails
//   here, not silently at run time); a renamed method in a fixture copy of the types makes that
//   test fail;
// - every `confine` entry has its handler in driver/runtime/membrane.ts, and no handler is unlisted;
// - every Proxy trap answers without handing out a Playwright object;
// - objects made in the script's realm (`{ has: locator }`) go back into Playwright unwrapped;
// - raw CDP messages are plain data before they are checked against the allow-list;
// - the fidelity figure: every member with a policy has a fidelity check or a refusal test in
//   test/helpers/fidelity-checks.ts (run by test/playwright-fidelity.e2e.test.ts), except the
//   few no script can reach, which are tested here on a stand-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { loadCatalog } from '../driver/catalog.js';
import { CONFINERS, Membrane, PROXY_TRAPS } from '../driver/runtime/membrane.js';
import { checkCdp, PolicyTable } from '../driver/runtime/playwright-policy.js';
import { confinementFor } from '../driver/runtime/confined-fs.js';
import { PLAYWRIGHT_TYPES, playwrightMembers } from './helpers/playwright-types.js';
import { CHECKS, UNREACHABLE, fidelityCoverage } from './helpers/fidelity-checks.js';

const catalog = loadCatalog();
const table = new PolicyTable(catalog.playwright);

/** The classes issue 24 names: each must have a table. */
const REQUIRED = [
  'Page', 'Frame', 'Locator', 'FrameLocator', 'ElementHandle', 'JSHandle', 'BrowserContext', 'Browser', 'Keyboard', 'Mouse',
  'Touchscreen', 'Request', 'Response', 'Route', 'WebSocket', 'Dialog', 'Download', 'FileChooser', 'ConsoleMessage',
  'APIRequestContext', 'APIResponse', 'CDPSession', 'Tracing', 'Video', 'Clock', 'Coverage',
];

/** What is wrong between the tables and a types file: members without a policy, with two, or
 * listed but not declared. Empty when they agree. */
function policyGaps(typesFile: string): string[] {
  const declared = playwrightMembers(typesFile);
  const gaps: string[] = [];
  for (const cls of REQUIRED) if (!catalog.playwright.classes[cls]) gaps.push(`${cls}: no policy table`);
  for (const [cls, p] of Object.entries(catalog.playwright.classes)) {
    const members = declared.get(cls);
    if (!members) {
      gaps.push(`${cls}: not a class of the installed Playwright`);
      continue;
    }
    const listed = [...p.pass, ...Object.keys(p.confine ?? {}), ...Object.keys(p.refuse ?? {})];
    const count = new Map<string, number>();
    for (const m of listed) count.set(m, (count.get(m) ?? 0) + 1);
    for (const m of members) if (!count.has(m)) gaps.push(`${cls}.${m}: public member with no policy`);
    for (const [m, n] of count) {
      if (n > 1) gaps.push(`${cls}.${m}: ${n} policies`);
      if (!members.has(m)) gaps.push(`${cls}.${m}: listed, but Playwright has no such member`);
    }
  }
  return gaps;
}

test('every public member of the covered Playwright classes has exactly one policy', () => {
  const file = process.env.GSTACK_PLAYWRIGHT_TYPES ?? PLAYWRIGHT_TYPES;
  assert.deepEqual(policyGaps(file), [], `driver/catalog.json "playwright" disagrees with ${file}`);
  const total = Object.values(catalog.playwright.classes).reduce((n, p) => n + p.pass.length + Object.keys(p.confine ?? {}).length + Object.keys(p.refuse ?? {}).length, 0);
  assert.ok(total > 500, `only ${total} members`);
});

test('a method renamed in a copy of the type declarations makes the policy test fail', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-pwtypes-'));
  const copy = join(dir, 'types.d.ts');
  const src = readFileSync(PLAYWRIGHT_TYPES, 'utf8');
  // Locator's `filter(options?: {` is declared once: rename it there only.
  const renamed = src.replace(/^(\s+)filter\(options\?: \{/m, '$1filterBy(options?: {');
  assert.notEqual(renamed, src, 'the fixture rename did not apply: pick another method');
  writeFileSync(copy, renamed);
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-name-pattern=exactly one policy', self], {
    // Without NODE_TEST_CONTEXT the child reports for itself instead of to this runner.
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, GSTACK_PLAYWRIGHT_TYPES: copy },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 1, `the policy test passed on a renamed method:\n${run.stdout}`);
  assert.match(run.stdout, /Locator\.filterBy: public member with no policy/);
  assert.match(run.stdout, /Locator\.filter: listed, but Playwright has no such member/);
});

test('every confined member has its handler in membrane.ts, and every handler is a listed confinement', () => {
  const listed = Object.entries(catalog.playwright.classes).flatMap(([cls, p]) => Object.keys(p.confine ?? {}).map((m) => `${cls}.${m}`));
  assert.deepEqual(Object.keys(CONFINERS).sort(), listed.sort());
});

test('every refusal names what to use instead', () => {
  for (const [cls, p] of Object.entries(catalog.playwright.classes)) {
    for (const [m, why] of Object.entries(p.refuse ?? {})) assert.match(why, /:|instead|use /i, `${cls}.${m}: ${why}`);
  }
  for (const [m, why] of Object.entries(catalog.playwright.cdp.refuse)) assert.ok(why.length > 10, m);
});

/** What the stand-ins were called with, in order: Playwright's view of the arguments. */
const calls: Array<{ cls: string; m: string; a: unknown[]; self: unknown }> = [];

/** A stand-in for a Playwright object of `cls`: an instance of a class with every listed
 * member, plus private fields like Playwright's own. */
function fake(cls: string, extra: Record<string, unknown> = {}): object {
  const p = catalog.playwright.classes[cls];
  class Fake {
    _secret = { raw: true };
    _mainFrame = { raw: true };
  }
  for (const m of [...p.pass, ...Object.keys(p.confine ?? {}), ...Object.keys(p.refuse ?? {})]) {
    if (m.startsWith('[')) continue;
    Object.defineProperty(Fake.prototype, m, { value: function (this: unknown, ...a: unknown[]) { calls.push({ cls, m, a, self: this }); return calls.length; }, configurable: true, writable: true });
  }
  return Object.assign(new Fake(), extra);
}

function membrane(): Membrane {
  return new Membrane({ files: confinementFor(tmpdir()), allowFileUrls: false });
}

test('objects are told apart by their public members, not by Playwright private fields', () => {
  for (const cls of REQUIRED) assert.equal(table.classOf(fake(cls)), cls, cls);
  assert.equal(table.classOf({ _type: 'Page' } as object), undefined);
});

test('every Proxy trap answers, and none hands out a Playwright object or its internals', () => {
  const m = membrane();
  const keyboard = fake('Keyboard');
  const rawPage = fake('Page', { keyboard });
  const pg = m.wrap(rawPage);
  const isRaw = (v: unknown) => v === rawPage || v === keyboard || (!!v && typeof v === 'object' && (v as { raw?: unknown }).raw === true);
  // The traps a Proxy can have are Reflect's functions; apply/construct need a function target.
  const traps = Object.getOwnPropertyNames(Reflect).filter((n) => typeof (Reflect as Record<string, unknown>)[n] === 'function');
  assert.deepEqual([...PROXY_TRAPS, 'apply', 'construct'].sort(), traps.sort());
  const probes: Record<string, () => void> = {
    get: () => {
      assert.equal(pg._mainFrame, undefined);
      assert.equal(pg.constructor, undefined);
      assert.ok(!isRaw(pg.keyboard) && m.rawOf(pg.keyboard) === keyboard);
    },
    set: () => assert.throws(() => (pg.goto = 1), /read-only/),
    has: () => {
      assert.equal('_mainFrame' in pg, false);
      assert.equal('goto' in pg, true);
    },
    deleteProperty: () => assert.throws(() => delete pg.goto, /read-only/),
    defineProperty: () => assert.throws(() => Object.defineProperty(pg, 'x', { value: 1 }), /read-only/),
    getOwnPropertyDescriptor: () => {
      assert.equal(Object.getOwnPropertyDescriptor(pg, '_mainFrame'), undefined);
      assert.equal(Object.getOwnPropertyDescriptor(pg, '_secret'), undefined);
      const d = Object.getOwnPropertyDescriptor(pg, 'keyboard');
      assert.ok(d && !isRaw(d.value) && m.rawOf(d.value) === keyboard, 'keyboard descriptor is a proxy');
      for (const v of Object.values(Object.getOwnPropertyDescriptors(pg))) assert.ok(!isRaw(v.value));
    },
    ownKeys: () => assert.deepEqual(Reflect.ownKeys(pg), ['keyboard']),
    getPrototypeOf: () => assert.equal(Object.getPrototypeOf(pg), null),
    setPrototypeOf: () => assert.throws(() => Object.setPrototypeOf(pg, {}), /read-only/),
    isExtensible: () => assert.equal(Object.isExtensible(pg), true),
    preventExtensions: () => assert.throws(() => Object.preventExtensions(pg), /read-only/),
    apply: () => assert.throws(() => (pg as () => void)(), TypeError),
    construct: () => assert.throws(() => new (pg as new () => object)(), TypeError),
  };
  assert.deepEqual(Object.keys(probes).sort(), traps.sort());
  for (const [trap, probe] of Object.entries(probes)) {
    try {
      probe();
    } catch (err) {
      throw new Error(`trap ${trap}: ${(err as Error).message}`);
    }
  }
  // Spread and JSON see the same: no private field, no raw object.
  assert.ok(!Object.values({ ...pg }).some(isRaw));
  m.revoke();
  assert.throws(() => pg.keyboard, /This call has ended/);
});

test('members the tables refuse or do not list throw what to use instead', () => {
  const m = membrane();
  const ctx = m.wrap(fake('BrowserContext'));
  assert.throws(() => ctx.close(), /closeTab\(pg\)/);
  const rawPage = fake('Page');
  (rawPage as Record<string, unknown>).listenerCount = () => 3;
  const pg = m.wrap(rawPage);
  assert.throws(() => pg.pause(), /snapshot\(pg\)/);
  assert.throws(() => pg.listenerCount('x'), /not part of Playwright's public API/);
  assert.equal(pg.then, undefined, 'a proxy is not a thenable');
  // Object's own toString acts on the proxy, harmlessly, and names the class (pass 39, A39).
  assert.equal(`${pg}`, '[object Playwright Page]');
});

test('objects made in the script realm go back into Playwright as the objects behind the proxies', () => {
  const m = membrane();
  const rawOuter = fake('Locator');
  const rawInner = fake('Locator');
  const rawHandle = fake('ElementHandle');
  const outer = m.wrap(rawOuter);
  const inner = m.wrap(rawInner);
  const handle = m.wrap(rawHandle);
  const ctx = vm.createContext({ outer, inner, handle });
  let reads = 0;
  const out = vm.runInContext(
    `({
      filter: outer.filter({ has: inner, hasNot: inner, hasText: "x" }),
      and: outer.and(inner),
      drag: outer.dragTo(inner, { targetPosition: { x: 1, y: 2 } }),
      evaluate: outer.evaluate((a) => a, { list: [handle, { deep: [inner] }], n: 1 }),
    })`,
    ctx,
  );
  const args = (i: number) => calls[i - 1].a;
  assert.deepEqual(args(out.filter)[0], { has: rawInner, hasNot: rawInner, hasText: 'x' });
  assert.equal((args(out.filter)[0] as { has: unknown }).has, rawInner);
  assert.equal(args(out.and)[0], rawInner);
  assert.equal(args(out.drag)[0], rawInner);
  assert.deepEqual(args(out.evaluate)[1], { list: [rawHandle, { deep: [rawInner] }], n: 1 });
  assert.equal((args(out.evaluate)[1] as { list: unknown[] }).list[0], rawHandle);
  // A getter in options is read once: Playwright gets the value that was there then.
  const opts = { get hasText() { reads++; return reads === 1 ? 'first' : 'second'; } };
  assert.deepEqual(args(outer.filter(opts))[0], { hasText: 'first' });
});

test('raw CDP messages become plain data before the allow-list check', () => {
  const mkString = vm.runInNewContext('new String("DOM.setFileInputFiles")');
  const c = checkCdp(mkString, { files: { toJSON: () => ['/etc/passwd'] }, nodeId: 1 }, table);
  assert.equal(c.method, 'DOM.setFileInputFiles');
  assert.deepEqual(c.paths.map((p) => p.value), ['/etc/passwd'], 'toJSON files are seen as the paths they stand for');
  const drag = checkCdp('Input.dispatchDragEvent', { type: 'drop', x: 1, y: 1, data: { items: [], files: ['a', 'b'], dragOperationsMask: 1 } }, table);
  assert.deepEqual(drag.paths.map((p) => p.value), ['a', 'b']);
  assert.throws(() => checkCdp({ toJSON: () => 'Browser.setDownloadBehavior' }, { behavior: 'allow', downloadPath: '/tmp' }, table), /not available in a flow script.*saveAs/);
  assert.throws(() => checkCdp('Extensions.loadUnpacked', { path: '/tmp' }, table), /domain Extensions is not available/);
  // Pass 30 (A30): an MHTML snapshot writes field values in quoted-printable, past the cut.
  assert.throws(() => checkCdp('Page.captureSnapshot', { format: 'mhtml' }, table), /Page\.captureSnapshot is not available in a flow script: its MHTML .*pg\.content\(\)/);
  assert.throws(() => checkCdp('Page.navigate', { get url() { throw new Error('boom'); } }, table), /plain JSON data/);
  let n = 0;
  const flip = { get url() { return n++ === 0 ? 'http://a/' : 'file:///etc/passwd'; } };
  assert.deepEqual(checkCdp('Page.navigate', flip, table).params, { url: 'http://a/' });
  assert.equal(checkCdp('Browser.getVersion', {}, table).browserWide, true);
});

test('an error Playwright raises through the membrane ends with a next step', async () => {
  const m = membrane();
  const raw = fake('Locator');
  Object.defineProperty(Object.getPrototypeOf(raw), 'count', { value: async () => { throw new Error('Something Playwright says'); } });
  Object.defineProperty(Object.getPrototypeOf(raw), 'filter', { value: () => { throw new Error('Inner "has" locator must belong to the same frame.'); } });
  const loc = m.wrap(raw);
  await assert.rejects(loc.count(), (e: Error) => /^Something Playwright says \(from Locator\.count\)\. Check its arguments .*snapshot\(pg\)/.test(e.message));
  assert.throws(() => loc.filter({}), /must belong to the same frame\. Build the inner locator from the same page or frame/);
});

test('every member with a policy has a fidelity check or a refusal test: N of N', () => {
  const { all, covered, missing, unknown } = fidelityCoverage(catalog);
  assert.deepEqual(unknown, [], 'the fidelity suite names members the policy tables do not list');
  const unreachable = Object.keys(UNREACHABLE);
  assert.deepEqual(missing.filter((m) => !unreachable.includes(m)), [], 'members with a policy but no fidelity check or refusal test in test/helpers/fidelity-checks.ts');
  assert.deepEqual(unreachable.filter((m) => covered.has(m)), [], 'listed as unreachable but a check calls it: take it off UNREACHABLE');
  const classes = Object.keys(catalog.playwright.classes).length;
  assert.equal(covered.size + unreachable.length, all.length);
  // The reason a Video is unreachable is itself checked by the e2e suite.
  assert.match(CHECKS.find((c) => c.name === 'contextReads')!.body, /pg\.video\(\)/);
  console.log(`# ${all.length} of ${all.length} public members of ${classes} classes have a policy and a fidelity test (${unreachable.length} unreachable ones on a stand-in)`);
});

test('the idioms of Playwright\'s docs that issue 24 names are each a fidelity check', () => {
  const idioms = [
    'filterHasGridcell', 'filterHasNot', 'locatorOptionHas', 'locatorOptionHasNot', 'filterHasText', 'filterHasNotText', 'filterVisible',
    'andOr', 'nthFirstLast', 'frameLocator', 'contentFrame', 'handleAsEvaluateArg', 'nestedHandles', 'dragTo', 'waitForResponse', 'routeFulfill',
    'toPassPolling', 'describe', 'ariaSnapshot', 'setInputFilesFromPwd', 'clock', 'keyboard', 'mouse',
  ];
  const names = new Set(CHECKS.map((c) => c.name));
  assert.deepEqual(idioms.filter((n) => !names.has(n)), []);
  assert.equal(names.size, CHECKS.length, 'two checks share a name');
});

test('Video, which no flow script can reach, acts through the membrane as its policy says', async () => {
  const pwd = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-video-')));
  const m = new Membrane({ files: confinementFor(pwd), allowFileUrls: false });
  const seen: string[] = [];
  class FakeVideo {
    async path() {
      return '/recordings/video-1.webm';
    }
    async delete() {
      seen.push('delete');
    }
    async saveAs(p: string) {
      seen.push(p);
      await writeFile(p, 'WEBM-BYTES');
    }
  }
  const video = m.wrap(new FakeVideo());
  assert.equal(table.classOf(new FakeVideo()), 'Video');
  assert.equal(await video.path(), '/recordings/video-1.webm');
  await video.saveAs('clip.webm');
  assert.equal(readFileSync(join(pwd, 'clip.webm'), 'utf8'), 'WEBM-BYTES', 'saveAs wrote under pwd');
  assert.ok(!seen[0].startsWith(pwd), 'Playwright never got the script\'s path');
  await assert.rejects(video.saveAs(join(tmpdir(), 'outside.webm')), /inside pwd/);
  assert.ok(!existsSync(join(tmpdir(), 'outside.webm')));
  await video.delete();
  assert.deepEqual(seen.slice(1), ['delete']);
});
