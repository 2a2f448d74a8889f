import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fsMemberMissing, isElementCovered, isElementFoundStuck, isElementNotFound, rewriteError } from '../driver/errors.js';
import { cssPrefixes, howFarItMatched, selectorSteps } from '../driver/runtime/locator-reach.js';

const pwErr = (name: string, message: string) => Object.assign(new Error(message), { name });

test('navigation timeout says the page may be slow or the URL wrong', () => {
  const m = rewriteError(pwErr('TimeoutError', 'page.goto: Timeout 30000ms exceeded.\nCall log:\n  - navigating to "http://x/", waiting until "load"'));
  assert.match(m, /Navigation timed out.*page may be slow or the URL wrong/);
  assert.ok(!m.includes('Call log'));
});

test('element not found says take a snapshot and use a ref', () => {
  const m = rewriteError(pwErr('TimeoutError', "locator.click: Timeout 1500ms exceeded.\nCall log:\n  - waiting for locator('#nope')"));
  assert.match(m, /Element not found.*#nope.*Take a snapshot.*pg\.locator\("e12"\)/);
});

test('not visible, disabled and covered elements each get their own next step', () => {
  assert.match(rewriteError(pwErr('TimeoutError', 'locator.click: Timeout 100ms exceeded.\nCall log:\n  - waiting for locator(\'#a\')\n    - element is not visible')), /not visible/);
  assert.match(rewriteError(pwErr('TimeoutError', 'locator.click: Timeout 100ms exceeded.\nCall log:\n  - waiting for locator(\'#a\')\n    - element is not enabled')), /disabled/);
  assert.match(rewriteError(pwErr('TimeoutError', 'locator.click: Timeout 100ms exceeded.\nCall log:\n  - waiting for locator(\'#a\')\n  - <div> intercepts pointer events')), /covers the target/);
});

// A trial agent hovering warning icons got "close the overlay or dialog (take a snapshot to find
// it)" where no overlay was open: a popover was in the way, which no snapshot shows.
test('a covered target names the element in the way, as Playwright\'s log does, and offers force for decorations', () => {
  const log = (line: string) => pwErr('TimeoutError', `locator.hover: Timeout 1500ms exceeded.\nCall log:\n\u001b[2m  - waiting for locator('#b')\u001b[22m\n\u001b[2m    - locator resolved to <button id="b">Go</button>\u001b[22m\n\u001b[2m      - ${line}\u001b[22m\n`);
  const direct = rewriteError(log('<div class="popover tip">…</div> intercepts pointer events'));
  assert.match(direct, /^Another element, <div class="popover tip">…<\/div>, covers the target locator\('#b'\) \(locator\.hover\)\./);
  assert.match(direct, /tooltip or popover, move away from it .*\{ force: true \}/);
  const child = rewriteError(log('<span>Hint</span> from <div class="modal">…</div> subtree intercepts pointer events'));
  assert.match(child, /^Another element, <div class="modal">…<\/div>, covers the target/);
});

test('strict mode violations point at refs', () => {
  const m = rewriteError(pwErr('Error', 'locator.click: Error: strict mode violation: locator(\'a\') resolved to 8 elements:'));
  assert.match(m, /matched 8 elements.*by its ref/);
  // A name that matches as a substring (trial V5: "Create" and "Create a local account"): each
  // element on a line of its own, and exact named.
  const named = rewriteError(pwErr('Error', "locator.click: Error: strict mode violation: getByRole('button', { name: 'Create' }) resolved to 2 elements:\n    1) <button class=\"btn\">Create a local account</button> aka getByTestId('create-local')\n    2) <button type=\"submit\">Create</button> aka getByRole('button', { name: 'Create', exact: true })\n\nCall log:\n  - waiting for getByRole('button', { name: 'Create' })"));
  assert.equal(named, 'The locator getByRole(\'button\', { name: \'Create\' }) matched 2 elements, so the action is ambiguous: 1) <button class="btn">Create a local account</button>; 2) <button type="submit">Create</button>. A name or text matches every element whose name or text contains it, in any case: pass { exact: true } to match it whole (getByRole("button", { name: "Create", exact: true }), getByText("Save", { exact: true })), or narrow it (.filter({ hasText }), a container\'s locator, .first()), or act by its ref from snapshot(pg, { interactive: true }): pg.locator("e12").');
  assert.doesNotMatch(rewriteError(pwErr('Error', "locator.click: Error: strict mode violation: getByText('Save', { exact: true }) resolved to 2 elements:")), /pass \{ exact: true \}/);
});

test('net errors say what to check', () => {
  assert.match(rewriteError(pwErr('Error', 'page.goto: net::ERR_NAME_NOT_RESOLVED at http://nope.invalid/')), /does not resolve/);
  assert.match(rewriteError(pwErr('Error', 'page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/')), /Could not load http:\/\/127\.0\.0\.1:1\/.*server is running/);
});

test('Node globals in a script are explained', () => {
  assert.match(rewriteError(new ReferenceError('setTimeout is not defined')), /Use `await sleep\(ms\)`/);
  assert.match(rewriteError(new ReferenceError('require is not defined'), { availableGlobals: ['openTab'] }), /Available globals: openTab\./);
});

test('terminal colour codes from Playwright never reach the message', () => {
  const m = rewriteError(pwErr('TimeoutError', "locator.click: Timeout 1000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Nope' })\u001b[22m\n"));
  assert.ok(!m.includes('\u001b') && !m.includes('[22m'), m);
});

test('event waits name the event and say to start waiting before the action; their log block is cut', () => {
  const m = rewriteError(pwErr('TimeoutError', 'page.waitForEvent: Timeout 30000ms exceeded while waiting for event "download"\n=========================== logs ===========================\nwaiting for event "download"\n============================================================'));
  assert.match(m, /^No "download" event came within 30 s \(page\.waitForEvent\)\. Start waiting before the click or navigation that downloads/);
  assert.doesNotMatch(m, /Element not found|logs|====/);
  const popup = rewriteError(pwErr('TimeoutError', 'page.waitForEvent: Timeout 500ms exceeded while waiting for event "popup"\n=== logs ===\nwaiting for event "popup"'));
  assert.match(popup, /^No "popup" event came within 500 ms .*the click that opens the popup/);
});

test('a click on a disabled element blames the disabled state, not visibility', () => {
  const m = rewriteError(pwErr('TimeoutError', "locator.click: Timeout 300ms exceeded.\nCall log:\n  - waiting for locator('button')\n    - locator resolved to <button disabled>Sign in</button>\n  - attempting click action\n    2 × waiting for element to be visible, enabled and stable\n      - element is not enabled\n"));
  assert.match(m, /^The element locator\('button'\) is disabled within 300 ms \(locator\.click\)/);
});

// One error type carries exit codes: a class anywhere else that grows its own exitCode field
// would be a second, unchecked way to end a command, and bin/cli.ts reads only GstackError's.
test('no error class outside driver/errors.ts carries its own exit code; every render error is a GstackError with the catalog code', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const root = join(import.meta.dirname, '..');
  const offenders: string[] = [];
  for (const dir of ['driver', 'bin', 'render', 'cookbook']) {
    for (const rel of readdirSync(join(root, dir), { recursive: true }) as string[]) {
      if (!rel.endsWith('.ts') || rel.endsWith('.gen.ts') || `${dir}/${rel}` === 'driver/errors.ts') continue;
      const src = readFileSync(join(root, dir, rel), 'utf8');
      // A class with its own exitCode field, or an Error given one after the fact.
      if (/class \w+ extends \w*Error\b[^{]*\{[^}]*exitCode\s*[=:;]/.test(src) || /Object\.assign\(\s*new \w*Error\([\s\S]{0,400}?\{\s*exitCode\b/.test(src)) offenders.push(`${dir}/${rel}`);
    }
  }
  assert.deepEqual(offenders, []);
  const { GstackError, exitCodeOf } = await import('../driver/errors.js');
  const { EXIT } = await import('../driver/catalog.gen.js');
  const { RenderError } = await import('../render/api/errors.js');
  const { RenderUsageError } = await import('../render/cli/cli-args.js');
  const { EngineFailure } = await import('../render/engines/engine-contract.js');
  const { OptionError } = await import('../render/api/pdf-options.js');
  const { StrictAssetError } = await import('../render/markdown/assets.js');
  const cases: Array<[Error, number]> = [
    [new RenderError('x'), EXIT.SCRIPT_FAILED],
    [new RenderError('x', 'USAGE'), EXIT.USAGE],
    [new RenderError('x', 'NO_ENGINE'), EXIT.NO_ENGINE],
    [new RenderUsageError('x'), EXIT.USAGE],
    [new OptionError('x'), EXIT.USAGE],
    [new EngineFailure('x', 'start', 'NO_ENGINE'), EXIT.NO_ENGINE],
    [new StrictAssetError('x'), EXIT.SCRIPT_FAILED],
    [new Error('plain'), EXIT.SCRIPT_FAILED],
  ];
  for (const [err, code] of cases) {
    assert.equal(exitCodeOf(err), code, `${err.constructor.name}`);
    if (!(err.constructor === Error)) assert.ok(err instanceof GstackError, err.constructor.name);
  }
});

test('a navigation cut short by another one, an unsafe port and a frame locator in a filter each get their own next step', () => {
  const cut = rewriteError(pwErr('Error', 'page.goto: Navigation to "http://127.0.0.1:5000/a.html" is interrupted by another navigation to "chrome-error://chromewebdata/"\nCall log:\n  - navigating to "http://127.0.0.1:5000/a.html", waiting until "load"'), { call: 'Page.goto' });
  assert.equal(cut, 'The navigation to http://127.0.0.1:5000/a.html was cut short by another one (to chrome-error://chromewebdata/). Let the page settle first (await pg.waitForLoadState()), or wait for where it ends up with pg.waitForURL().');
  assert.match(rewriteError(pwErr('Error', 'page.goto: net::ERR_UNSAFE_PORT at http://127.0.0.1:1/')), /\(net::ERR_UNSAFE_PORT\)\. Chromium never loads this port .*serve the site on another port\.$/);
  assert.match(
    rewriteError(pwErr('Error', `locator.count: Frame locators are not allowed inside composite locators, while querying "getByRole('row').filter({ has: locator('#frame').contentFrame().getByRole('button') })"`), { call: 'Locator.count' }),
    /^A locator inside an iframe cannot be .*\. Build the whole locator inside the frame: /,
  );
});

// Trial V2: a docs site's sidebar link at phone width (a closed drawer) timed out as "the page
// may be slow or the element missing", though Playwright had found it and said why.
test('an element outside the viewport says so; a found element that never took the action is not called missing', () => {
  const log = (lines: string) => pwErr('TimeoutError', `locator.click: Timeout 4000ms exceeded.\nCall log:\n  - waiting for getByRole('link', { name: 'ajv' })\n    - locator resolved to <a href="#a">ajv</a>\n  - attempting click action\n${lines}`);
  const outside = rewriteError(log('      - scrolling into view if needed\n      - done scrolling\n      - element is outside of the viewport\n    - retrying click action'));
  assert.match(outside, /is on the page but outside the viewport, where scrolling cannot bring it .*closed menu, drawer or sidebar.*pg\.setViewportSize/);
  assert.ok(!/element missing/.test(outside));
  const other = rewriteError(log('      - waiting for something new'));
  assert.match(other, /the element .* was found, but the action could not complete/);
  assert.ok(!other.includes('<a href'), 'no page markup');
});

test('a not-found locator says how far its chain matched, and only a not-found one is probed', () => {
  const notFound = pwErr('TimeoutError', "locator.click: Timeout 2000ms exceeded.\nCall log:\n  - waiting for locator('form').locator('fieldset')");
  assert.ok(isElementNotFound(notFound));
  assert.ok(!isElementNotFound(pwErr('TimeoutError', "locator.click: Timeout 2000ms exceeded.\nCall log:\n  - waiting for locator('#a')\n  - locator resolved to <button disabled>\n  - element is not enabled")));
  assert.ok(!isElementNotFound(pwErr('TimeoutError', 'page.goto: Timeout 30000ms exceeded.')));
  const m = rewriteError(notFound, { reach: "How far it matched: locator('form') → 1 element; then .locator('fieldset') → none." });
  assert.match(m, /^Element not found for locator\('form'\)\.locator\('fieldset'\) within 2 s \(locator\.click\)\. How far it matched: locator\('form'\) → 1 element; then \.locator\('fieldset'\) → none\. Take a snapshot/);
});

test('a selector is split into its steps at top-level >> only', () => {
  assert.deepEqual(selectorSteps('form >> fieldset >> internal:role=button[name="Sign in"i]'), ['form', 'fieldset', 'internal:role=button[name="Sign in"i]']);
  assert.deepEqual(selectorSteps('internal:role=listitem >> internal:has-text="x >> \\"y\\" >> z"i >> nth=2'), ['internal:role=listitem', 'internal:has-text="x >> \\"y\\" >> z"i', 'nth=2']);
  assert.deepEqual(selectorSteps("a[title='p >> q'] >> b"), ["a[title='p >> q']", 'b']);
  assert.deepEqual(selectorSteps('#one'), ['#one']);
});

test('the chain probe counts each step until one matches nothing, and gives up on a page that does not answer', async () => {
  const counts: Record<string, number> = { form: 1, 'form >> fieldset': 0 };
  const asked: string[] = [];
  const frame = (hang: boolean) => ({
    locator: (sel: string) => ({
      count: () => (asked.push(sel), hang ? new Promise<number>(() => undefined) : Promise.resolve(counts[sel] ?? 0)),
      toString: () => sel.split(' >> ').map((s, i) => (i ? `.locator('${s}')` : `locator('${s}')`)).join(''),
    }),
  });
  const chain = { _frame: frame(false), _selector: 'form >> fieldset >> button' };
  assert.equal(await howFarItMatched(chain), "How far it matched: locator('form') → 1 element; then .locator('fieldset') → none.");
  assert.deepEqual(asked, ['form', 'form >> fieldset'], 'stops at the first step that matches nothing');
  assert.equal(await howFarItMatched({ _frame: frame(false), _selector: '#one' }), undefined, 'one step: nothing to add');
  assert.equal(await howFarItMatched({ _selector: 'a >> b' }), undefined, 'not a Playwright locator');
  const started = Date.now();
  const alive = setInterval(() => undefined, 1_000); // the budget's timer is unref'd, as in a host
  assert.equal(await howFarItMatched({ _frame: frame(true), _selector: 'a >> b' }), undefined);
  clearInterval(alive);
  assert.ok(Date.now() - started < 5_000, 'a page that never answers costs the error at most the budget');
});

test('a navigation wait that timed out says where the page is; waitForNavigation names waitForURL', () => {
  const url = rewriteError(pwErr('TimeoutError', 'page.waitForURL: Timeout 2000ms exceeded.\n=========================== logs ===========================\nwaiting for navigation to "**/welcome" until "load"\n============================================================'), { url: 'http://127.0.0.1:5000/form.html?done=1' });
  assert.equal(url, 'The page did not reach a URL matching "**/welcome" within 2 s (page.waitForURL); the page is at http://127.0.0.1:5000/form.html?done=1. Check the pattern against that URL (a glob matches the whole URL, its query included: "**/done*" also matches /done?id=1; a RegExp may match a part of it), or wait for what the action shows instead (await pg.getByText("…").waitFor()).');
  const nav = rewriteError(pwErr('TimeoutError', 'page.waitForNavigation: Timeout 1000ms exceeded.\n=========================== logs ===========================\nwaiting for navigation until "load"\n============================================================'), { url: 'http://x/a' });
  assert.match(nav, /^No navigation came within 1 s \(page\.waitForNavigation\); the page is at http:\/\/x\/a\. Playwright deprecates waitForNavigation: .* await pg\.waitForURL\("\*\*\/path"\)/);
  // goto keeps its own words.
  assert.match(rewriteError(pwErr('TimeoutError', 'page.goto: Timeout 30000ms exceeded.')), /^Navigation timed out/);
});

test('names agents write from Playwright Test (page, browser, context, expect, test) say what a flow script does instead', () => {
  const said = (name: string) => rewriteError(Object.assign(new ReferenceError(`${name} is not defined`)), { availableGlobals: ['openTab'] });
  assert.equal(said('page'), 'page is not defined. There is no `page` global: a flow script opens its own tabs. Start with `const page = await openTab(url)` (a Playwright Page). Available globals: openTab.');
  assert.match(said('expect'), /^expect is not defined\. `expect` is Playwright Test's, not part of a flow script: wait with `await locator\.waitFor\(\)`/);
  assert.match(said('browser'), /already running\. Open a tab with `await openTab\(url\)`/);
  assert.match(said('context'), /pg\.context\(\)/);
  assert.match(said('test'), /not a Playwright Test file/);
  // Other names keep the plain message.
  assert.equal(said('foo'), 'foo is not defined. Available globals: openTab.');
});

test("Node's fs members a script reaches for (writeFileSync, promises, existsSync) are answered with this fs's own way", () => {
  assert.equal(fsMemberMissing('writeFileSync'), 'fs.writeFileSync is not part of a flow script\'s fs, which is promise-based (as on Aside) and confined to pwd: use await fs.writeFile(...). Paths are under pwd: path.join(pwd, "out.txt").');
  assert.match(fsMemberMissing('promises'), /fs is promise-based already: call fs\.writeFile\(\.\.\.\), fs\.readFile\(\.\.\.\) directly/);
  assert.match(fsMemberMissing('existsSync'), /await fs\.access\(path\.join\(pwd, name\)\)\.then\(\(\) => true, \(\) => false\)/);
  assert.match(fsMemberMissing('createReadStream'), /its members are readFile, writeFile, appendFile/);
  // Aside's fs says it in V8's words: the same answer.
  assert.equal(rewriteError(new TypeError('fs.readFileSync is not a function')), fsMemberMissing('readFileSync'));
});

test('an element the page keeps removing while the action waits is said so, not "could not complete" (trial V6)', () => {
  const m = rewriteError(pwErr('TimeoutError', "locator.click: Timeout 2000ms exceeded.\nCall log:\n  - waiting for getByText('Coffee Shop')\n    - locator resolved to <div>Coffee Shop</div>\n  - attempting click action\n    - waiting for element to be visible, enabled and stable\n    - element was detached from the DOM, retrying"));
  assert.equal(m, `The element getByText('Coffee Shop') was found, but the page removed or redrew it while the action waited within 2 s (locator.click): it is being re-rendered (a list updating, a row going away). Wait for what the last step changes before acting; if the element is meant to go, wait for that instead (await locator.waitFor({ state: "detached" })).`);
});

test('a wait for an element that never came says to wait for what the page shows, not to click a ref (trial V7)', () => {
  const m = rewriteError(pwErr('TimeoutError', "page.waitForSelector: Timeout 5000ms exceeded.\nCall log:\n  - waiting for locator('.chart') to be visible"));
  assert.equal(m, "Element not found for locator('.chart') within 5 s (page.waitForSelector). Take a snapshot (snapshot(pg, { interactive: true })) to see what the page shows, then wait for that (a role and name, a test id, a text), or raise { timeout } for a page that draws itself late.");
  assert.match(rewriteError(pwErr('TimeoutError', "locator.click: Timeout 5000ms exceeded.\nCall log:\n  - waiting for locator('.chart')")), /act on the element by its ref/);
});

test('a long CSS selector is a chain too: the probe counts each compound its combinators join (trial V9)', async () => {
  assert.deepEqual(cssPrefixes("g.node[id='gone x'] .button"), ["g.node[id='gone x']"]);
  assert.deepEqual(cssPrefixes('#chart > g.node  .port:not(.a .b)'), ['#chart', '#chart > g.node']);
  assert.deepEqual(cssPrefixes('a + b ~ c'), ['a', 'a + b']);
  for (const one of ['#one', 'internal:role=button[name="a b"i]', 'xpath=//div//span', 'text=Save all', 'a, b c', '//div a', 'internal:text=/members? match/i', 'internal:label=/e-?mail address/', 'internal:has-text=/a b/']) assert.deepEqual(cssPrefixes(one), [], one);
  assert.deepEqual(cssPrefixes('input:not([type=x]) span'), ['input:not([type=x])'], 'a pseudo-class is CSS still');
  const counts: Record<string, number> = { '#chart': 1, '#chart > g.node': 3 };
  const frame = {
    locator: (sel: string) => ({ count: () => Promise.resolve(counts[sel] ?? 0), toString: () => `locator('${sel}')` }),
  };
  assert.equal(await howFarItMatched({ _frame: frame, _selector: '#chart > g.node .port' }), "How far it matched: locator('#chart') → 1 element; then locator('#chart > g.node') → 3 elements; then locator('#chart > g.node .port') → none.");
});

// Trial V20: typing that missed its field opened an app menu over the button, and the click timed
// out with "found, but the action could not complete" and nothing about what was on top.
test('an action found but stuck for no named reason says what covers its element now, when something does', () => {
  const stuck = pwErr('TimeoutError', "locator.click: Timeout 15000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Add', exact: true })\n    - locator resolved to <button>Add</button>\n  - attempting click action\n    - waiting for element to be visible, enabled and stable\n");
  assert.equal(isElementFoundStuck(stuck), true);
  assert.equal(isElementCovered(stuck), false);
  const told = rewriteError(stuck, { reach: 'It is in menu "Filter Payee Category", whose buttons are "Payee" and "Category".' });
  assert.match(told, /was found, but the action could not complete\. Another element covers it now: it is in menu "Filter Payee Category", whose buttons are "Payee" and "Category"\. Take a snapshot/);
  assert.doesNotMatch(rewriteError(stuck), /covers it now/, 'nothing on top: nothing said');
  const covered = pwErr('TimeoutError', "locator.click: Timeout 100ms exceeded.\nCall log:\n    - locator resolved to <button>Add</button>\n  - <div> intercepts pointer events");
  assert.equal(isElementFoundStuck(covered), false, 'a covered target has its own words');
  assert.equal(isElementCovered(covered), true);
});
