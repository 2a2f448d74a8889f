// Evidence the cookbook shapes owed agents, live through `gstack cookbook` against the fixture
// site: NETWORK_ERRORS= (read, flow, perf) lists every failed request of the page's own loads
// and reads the same on the Aside double; perf's resources carry their status; `waitFor`
// reads a page that fills itself late once it is ready (and fails clearly when it never is);
// the flow shape's refs stay eN across the reloads its steps cause.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, delimiter } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, runCli, tempHome, type CliResult } from './helpers/cli.js';

let site: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  home = tempHome('gstack-evidence-');
});
after(async () => {
  await site.close();
});

function cookbook(shape: string, path: string, params: object = {}, engine: 'chromium' | 'aside' = 'chromium'): Promise<CliResult> {
  const args = ['cookbook', shape, '--url', site.url + path.replace(/^\//, ''), '--params', JSON.stringify(params), '--engine', engine];
  if (engine === 'chromium') return runCli(args, { env: { GSTACK_HOME: home } });
  const env = { ...process.env, PATH: join(ROOT, 'test', 'doubles') + delimiter + (process.env.PATH ?? ''), GSTACK_HOME: home, ASIDE_DOUBLE_HOME: join(home, 'aside'), GSTACK_SKIP_ASIDE: undefined, ASIDE_DOUBLE_MODE: undefined };
  return runCli(args, { env, exactEnv: true, timeoutMs: 120_000 });
}
const value = (r: CliResult, label: string) => r.lines.find((l) => l.startsWith(label))?.slice(label.length);
const json = (r: CliResult, label: string) => {
  const v = value(r, label);
  assert.ok(v !== undefined, `${label} missing in:\n${r.stdout}`);
  return JSON.parse(v);
};
/** The page text a shape printed between TEXT_START and TEXT_END. */
const text = (r: CliResult) => r.lines.slice(r.lines.indexOf('TEXT_START') + 1, r.lines.indexOf('TEXT_END')).join('\n');

// What test/fixtures/site/broken.html's loads do wrong, as NETWORK_ERRORS= must list it.
const BROKEN = (o: string) => [
  { url: `${o}/api/missing`, status: 404, type: 'fetch' },
  // Not GET: its method is said (trial V4: TiddlyWiki's HEAD / read as the page failing to load).
  { url: `${o}/api/missing-head`, method: 'HEAD', status: 404, type: 'fetch' },
  { url: `${o}/bg-missing.png`, status: 404, type: 'css' },
  { url: `${o}/missing.js`, status: 404, type: 'script' },
  { url: `${o}/missing.png`, status: 404, type: 'img' },
  { url: `${o}/status?code=500`, status: 500, type: 'xmlhttprequest' },
  { url: 'http://127.0.0.1:1/nope', type: 'fetch', error: 'Failed to fetch' },
];
const byUrl = (list: Array<{ url: string }>) => [...list].sort((a, b) => (a.url < b.url ? -1 : 1));
const READY = { waitFor: { text: 'requests done' } };

test('read and perf list every failed request of the load in NETWORK_ERRORS=, and nothing that worked; perf resources carry their status', async () => {
  const o = site.origin;
  const read = await cookbook('read', '/broken.html', READY);
  assert.equal(read.code, 0, read.stdout + read.stderr);
  assert.deepEqual(byUrl(json(read, 'NETWORK_ERRORS=')), byUrl(BROKEN(o)));
  assert.ok(read.lines.indexOf('NETWORK_ERRORS=' + value(read, 'NETWORK_ERRORS=')) > read.lines.findIndex((l) => l.startsWith('CONSOLE_ERRORS=')), 'after CONSOLE_ERRORS=');

  const perf = await cookbook('perf', '/broken.html', { ...READY, topResources: 20 });
  assert.equal(perf.code, 0, perf.stdout + perf.stderr);
  assert.deepEqual(byUrl(json(perf, 'NETWORK_ERRORS=')), byUrl(BROKEN(o)));
  assert.equal(json(perf, 'NAV=').status, 200);
  const resources = json(perf, 'RESOURCES=') as Array<{ url: string; status: number | null }>;
  const status = (url: string) => resources.find((r) => r.url === url)?.status;
  assert.equal(status(`${o}/missing.png`), 404, JSON.stringify(resources));
  assert.equal(status(`${o}/status?code=500`), 500);
  assert.equal(status(`${o}/status?code=200`), 200);

  // A page whose own document is a 404 says so too, and the read fails after printing it all:
  // an agent that reads only the last line saw GSTACK_STEP_OK (trial V1, Verdaccio).
  const missing = await cookbook('read', '/no-such-page.html');
  assert.equal(missing.code, 1, missing.stdout + missing.stderr);
  assert.deepEqual(json(missing, 'NETWORK_ERRORS='), [{ url: `${o}/no-such-page.html`, status: 404, type: 'navigation' }]);
  assert.ok(missing.lines.includes('TEXT_START'), 'the error page is printed');
  assert.match(missing.lines.at(-1) ?? '', /^\[error\] The server answered HTTP 404 for .*no-such-page\.html: what is printed above is its error page\. Check the URL/);
  // A clean page has none.
  assert.deepEqual(json(await cookbook('read', '/form.html'), 'NETWORK_ERRORS='), []);
});

// A trial agent's responsive check of a deck with broken remote images said nothing about them.
test('responsive lists the failed requests of its load in NETWORK_ERRORS=', async () => {
  const r = await cookbook('responsive', '/broken.html', { ...READY, viewports: [{ name: 'phone', width: 375, height: 812 }], fullPage: false });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(byUrl(json(r, 'NETWORK_ERRORS=')), byUrl(BROKEN(site.origin)));
});

test('NETWORK_ERRORS= reads the same on the Aside double (in-page, no page events)', async () => {
  const r = await cookbook('read', '/broken.html', READY, 'aside');
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(byUrl(json(r, 'NETWORK_ERRORS=')), byUrl(BROKEN(site.origin)));
});

test('flow prints NETWORK_ERRORS= for the page it ended on, and its refs stay eN across the reloads its steps cause', async () => {
  const r = await cookbook('flow', '/reload.html', {
    steps: [
      { action: 'fill', role: 'textbox', name: 'Query', value: 'boats' },
      { action: 'click', role: 'button', name: 'Search' },
      { action: 'fill', role: 'textbox', name: 'Query', value: 'ships' },
      { action: 'click', role: 'button', name: 'Search' },
    ],
  });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const steps = r.lines.filter((l) => l.startsWith('STEP '));
  assert.equal(steps.length, 4);
  for (const s of steps) assert.match(s, / ref=e\d+$/, s);
  // The same element after a reload has the same ref.
  assert.equal(steps[0].split(' ref=')[1], steps[2].split(' ref=')[1]);
  assert.equal(steps[1].split(' ref=')[1], steps[3].split(' ref=')[1]);
  assert.ok(r.lines.at(-2)!.startsWith('NETWORK_ERRORS='), r.stdout);
  assert.deepEqual(json(r, 'NETWORK_ERRORS='), []);
  assert.match(r.lines.filter((l) => l.startsWith('URL=')).at(-1)!, /reload\.html\?q=ships$/);
});

test('waitFor reads a page that fills itself after load once it is ready; a waitFor that never comes fails saying what to do', async () => {
  const early = await cookbook('read', '/late.html');
  assert.equal(early.code, 0, early.stdout + early.stderr);
  assert.match(text(early), /Loading…/, 'without waitFor the read catches the page mid-load');

  const byText = await cookbook('read', '/late.html', { waitFor: { text: '3 VESSELS' } });
  assert.equal(byText.code, 0, byText.stdout + byText.stderr);
  assert.match(text(byText), /3 vessels\nAurora\nBorealis\nCygnus/);

  const bySelector = await cookbook('element-shot', '/late.html', { selector: '#fleet', waitFor: { selector: '#vessels li' } });
  assert.equal(bySelector.code, 0, bySelector.stdout + bySelector.stderr);
  assert.match(text(bySelector), /Cygnus/);

  const never = await cookbook('read', '/late.html', { waitFor: { text: '4 vessels', timeoutMs: 2000 } });
  assert.equal(never.code, 1);
  assert.match(never.lines.at(-1)!, /^\[error\] waitFor text "4 vessels" was not visible 2000 ms after load \(not in the page's visible text\)\. Run without that waitFor to see what the page shows, then fix the text, or raise its timeoutMs\.$/);

  const badSelector = await cookbook('read', '/late.html', { waitFor: { selector: '#nope', timeoutMs: 500 } });
  assert.equal(badSelector.code, 1);
  // The whole line, its advice last (trial V6: a locator's advice inside it pushed the end past the cap).
  assert.match(badSelector.lines.at(-1)!, /^\[error\] waitFor selector "#nope" was not visible 500 ms after load \(Element not found for locator\('#nope'\) within 500 ms \(page\.waitForSelector\)\)\. Run without that waitFor to see what the page shows, then fix the selector, or raise its timeoutMs\.( The evidence above has it: .*)?$/);

  // responsive waits at each width: the one it failed at is named (trial V26: a phone layout
  // left out the text the desktop one showed).
  const narrow = await cookbook('responsive', '/late.html', { viewports: [{ name: 'phone', width: 375, height: 812 }], waitFor: { text: '4 vessels', timeoutMs: 1000 } });
  assert.equal(narrow.code, 1);
  assert.match(narrow.lines.at(-1)!, /^\[error\] waitFor text "4 vessels" was not visible 1000 ms after load at phone \(375x812\) \(not in the page's visible text\)\./, narrow.stdout);
});

// A trial agent writing its own flow had no way to the evidence lines short of copying a shape.
// The browse reference now prints the cookbook's own code for it; this runs that very script.
test('the browse reference\'s own-script evidence snippet prints CONSOLE_ERRORS= and NETWORK_ERRORS= as the shapes do', async () => {
  const { readFileSync, writeFileSync, mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const ref = readFileSync(join(ROOT, 'generated', 'browse', 'REFERENCE.md'), 'utf8');
  const section = ref.slice(ref.indexOf('### Evidence lines in your own script'));
  const script = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(script?.includes('EVIDENCE_HOOK'), 'the reference has the snippet script');
  // The documented placeholder URL, pointed at the fixture; the steps wait as READY does.
  const adapted = script!
    .replace('"http://127.0.0.1:8080/"', JSON.stringify(site.url + 'broken.html'))
    .replace('// ... your steps: snapshot, act by ref, print the diff ...', 'await pg.getByText("requests done").waitFor();');
  const file = join(mkdtempSync(join(tmpdir(), 'gstack-snippet-')), 'own.js');
  writeFileSync(file, adapted);
  const r = await runCli(['run', '-f', file, '--engine', 'chromium'], { env: { GSTACK_HOME: home } });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(byUrl(json(r, 'NETWORK_ERRORS=')), byUrl(BROKEN(site.origin)));
  assert.ok(Array.isArray(json(r, 'CONSOLE_ERRORS=')));
  assert.equal(r.lines.at(-1), 'GSTACK_STEP_OK');
});

// Trial V21: Actual Budget's sign-in page draws its field with no <form> around it, and the form
// shape filled it, then failed on its default selector `form` after 5 s.
test('form on a page with no <form> fills the fields and shows the whole page', async () => {
  site.setPage('/formless.html', '<title>Formless</title><label>Display name <input id="n"></label><button>Save</button>');
  const r = await cookbook('form', '/formless.html', { fields: { 'Display name': 'Ada' } });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(r.lines.includes('FIELD Display name: filled'), r.stdout);
  const snap = r.lines.slice(r.lines.indexOf('SNAPSHOT_START') + 1, r.lines.indexOf('SNAPSHOT_END'));
  assert.ok(snap.some((l) => /textbox "Display name"/.test(l)) && snap.some((l) => /button "Save"/.test(l)), r.stdout);
  assert.ok(value(r, 'SCREENSHOT='), r.stdout);
});

test('pdf of a page with nothing to print says the PDF is blank; a page with text does not (trial V38: a text-only email\'s HTML view)', async () => {
  site.setPage('/blank.html', '<title></title><div></div>');
  site.setPage('/worded.html', '<title>W</title><p>Meeting: 18 December</p>');
  const blank = await cookbook('pdf', '/blank.html');
  assert.equal(blank.code, 0, blank.stdout + blank.stderr);
  assert.ok(blank.lines.includes("[the page has no text and no pictures: the PDF is blank. Check the address (an app's view may answer an empty page), or pass waitFor for what it draws late]"), blank.stdout);
  const worded = await cookbook('pdf', '/worded.html');
  assert.equal(worded.code, 0, worded.stdout + worded.stderr);
  assert.ok(!worded.lines.some((l) => l.startsWith('[the page has no text')), worded.stdout);
});
