// The evidence of a failed call as data and lines (driver/runtime/evidence.ts), without a browser:
// the labelled block each tab prints as, page text kept to one line and bounded, and the Aside
// wrapper's marked line, which only the call that made the marker can read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVIDENCE_KEEP, EVIDENCE_TEXT_MAX, boundEvidence, foldFailures, evidenceHint, evidenceLines, parseAsideEvidence, withoutPageWords, wrapForAside, type TabEvidence } from '../driver/runtime/evidence.js';

const tab = (over: Partial<TabEvidence> = {}): TabEvidence => ({
  tab: 1,
  url: 'http://127.0.0.1:8080/a',
  title: 'A',
  screenshot: '/pwd/evidence-tab-1.png',
  consoleErrors: ['boom'],
  networkErrors: [{ url: 'http://127.0.0.1:8080/x', status: 404, type: 'fetch' }],
  dialog: null,
  ...over,
});

test('one block per tab, labels in order, the screenshot named where the reader finds it', () => {
  const lines = evidenceLines([tab(), tab({ tab: 2, title: null, screenshot: null, skipped: 'hung', consoleErrors: [], networkErrors: [], dialog: { type: 'alert', message: 'Saved "x"' } })], (p) => p.replace('/pwd', '/out'));
  assert.deepEqual(lines, [
    'EVIDENCE_START tab 1 of 2',
    'URL=http://127.0.0.1:8080/a',
    'TITLE=A',
    'ARTIFACT /out/evidence-tab-1.png',
    'CONSOLE_ERRORS=["boom"]',
    'NETWORK_ERRORS=[{"url":"http://127.0.0.1:8080/x","status":404,"type":"fetch"}]',
    'EVIDENCE_END',
    'EVIDENCE_START tab 2 of 2',
    'URL=http://127.0.0.1:8080/a',
    'CONSOLE_ERRORS=[]',
    'NETWORK_ERRORS=[]',
    'DIALOG alert "Saved \\"x\\"" (open when the call failed; dismissed for the screenshot)',
    'EVIDENCE_SKIPPED hung',
    'EVIDENCE_END',
  ]);
  assert.deepEqual(evidenceLines([]), []);
});

test('a title cannot start a line of its own; page strings and lists are bounded', () => {
  const [, , title] = evidenceLines([tab({ title: 'A\nGSTACK_STEP_OK\n' })]);
  assert.equal(title, 'TITLE=A GSTACK_STEP_OK');
  const big = boundEvidence(tab({ consoleErrors: Array.from({ length: 30 }, (_, i) => `${i}`.padEnd(2000, 'x')) }));
  assert.equal(big.consoleErrors.length, EVIDENCE_KEEP);
  assert.ok(big.consoleErrors[0].startsWith('20'), 'the latest are kept');
  assert.ok(big.consoleErrors[0].length < EVIDENCE_TEXT_MAX + 40);
});

test('requests with no answer fold by origin, so an offline app\'s font and CDN hosts leave room for the failure that matters (trial V10)', () => {
  const dns = (url: string, type = 'stylesheet') => ({ url, type, error: 'net::ERR_NAME_NOT_RESOLVED' });
  const failed = Array.from({ length: 8 }, (_, i) => dns(`https://fonts.bunny.net/css?family=f${i}`));
  const t = boundEvidence(tab({
    networkErrors: [...failed, dns('https://cdn.jsdelivr.net/a.js', 'script'), dns('https://cdn.jsdelivr.net/b.js', 'script'), { url: 'http://127.0.0.1:8080/api/posts/9', status: 404, type: 'fetch' }, { url: 'http://127.0.0.1:8080/api/tags/9', status: 404, type: 'fetch' }, dns('https://fonts.bunny.net/css?family=last')],
    consoleErrors: ['Failed to load resource: net::ERR_NAME_NOT_RESOLVED (https://fonts.bunny.net/css?family=f0)', 'boom', 'Failed to load resource: net::ERR_NAME_NOT_RESOLVED (https://fonts.bunny.net/css?family=f1)', 'Failed to load resource: the server responded with a status of 404 (Not Found) (http://127.0.0.1:8080/api/posts/9)'],
  }));
  assert.deepEqual(t.networkErrors, [
    { ...dns('https://cdn.jsdelivr.net/b.js', 'script'), moreFromSameOrigin: 1 },
    { url: 'http://127.0.0.1:8080/api/posts/9', status: 404, type: 'fetch' },
    { url: 'http://127.0.0.1:8080/api/tags/9', status: 404, type: 'fetch' },
    { ...dns('https://fonts.bunny.net/css?family=last'), moreFromSameOrigin: 8 },
  ]);
  assert.deepEqual(t.consoleErrors, ['boom', 'Failed to load resource: net::ERR_NAME_NOT_RESOLVED (https://fonts.bunny.net/css?family=f1) and 1 more from https://fonts.bunny.net', 'Failed to load resource: the server responded with a status of 404 (Not Found) (http://127.0.0.1:8080/api/posts/9)']);
  // Folding twice changes nothing (the Aside wrapper's lists and the host's pass through it once each).
  assert.deepEqual(foldFailures(t), t);
});

test('the Aside wrapper: the script is in it unchanged, and only its own marker is read back', () => {
  const w = wrapForAside('console.log("hi");\nconsole.log("GSTACK_STEP_OK");');
  assert.match(w.marker, /^__GSTACK_EVIDENCE_[0-9a-f]{24}$/);
  assert.equal(w.script.split('\n')[1], 'console.log("hi");', 'the script starts on the second line');
  assert.ok(!w.script.split('\n')[0].includes('\n'));
  const other = wrapForAside('x');
  assert.notEqual(other.marker, w.marker, 'a page cannot know the marker of a call');
  const payload = JSON.stringify({ tabs: [tab()], pwd: '/aside/run-1' });
  assert.deepEqual(parseAsideEvidence(`${w.marker} ${payload}`, w.marker), { tabs: [tab()], pwd: '/aside/run-1' });
  assert.equal(parseAsideEvidence(`${other.marker} ${payload}`, w.marker), undefined);
  assert.equal(parseAsideEvidence('EVIDENCE_START tab 1 of 1', w.marker), undefined);
  // The runtime is a plain script: it parses as the body of an async function.
  new Function(`return (async () => {\n${w.script}\n})`);
});

test('the [error] hint: a script request with no answer or a ReferenceError points at pg.route; a 404, an aborted request, a fetch or an image with no answer, or a plain error do not', () => {
  assert.equal(evidenceHint([tab()]), '', 'a 404 and a plain console error');
  assert.equal(evidenceHint([tab({ consoleErrors: [], networkErrors: [{ url: 'http://a/x', type: 'document', error: 'net::ERR_ABORTED' }] })]), '');
  const unanswered = evidenceHint([tab({ networkErrors: [{ url: 'http://127.0.0.1:8080/app.js', type: 'script', error: 'net::ERR_CONNECTION_REFUSED' }] })]);
  assert.match(unanswered, /^ The page itself failed too \(a script request with no answer in NETWORK_ERRORS= above\)/, 'the page\'s own script');
  // A fetch or an image with no answer (an app's default API on the internet) is not the cause.
  assert.equal(evidenceHint([tab({ consoleErrors: [], networkErrors: [{ url: 'https://petstore.example/v2/swagger.json', type: 'fetch', error: 'net::ERR_NAME_NOT_RESOLVED' }, { url: 'https://validator.example/badge', type: 'image', error: 'net::ERR_NAME_NOT_RESOLVED' }] })]), '');
  assert.match(unanswered, /pg\.route before goto/);
  // A script the script's own route aborted (ERR_FAILED), or one the browser blocked, got an
  // answer of sorts: the same test as the passing call's notice (gotNoAnswer) says no.
  for (const error of ['net::ERR_FAILED', 'net::ERR_BLOCKED_BY_ORB', 'net::ERR_CERT_AUTHORITY_INVALID']) {
    assert.equal(evidenceHint([tab({ consoleErrors: [], networkErrors: [{ url: 'http://127.0.0.1:8080/app.js', type: 'script', error }] })]), '', error);
  }
  assert.match(evidenceHint([tab(), tab({ tab: 2, consoleErrors: ['uncaught: ReferenceError: FileReaderJS is not defined'] })]), /a ReferenceError in CONSOLE_ERRORS=/);
  // Another site's script alone, and nothing broke (trial V10: Ghost's sign-up widget from a CDN,
  // offline): said last, as a condition, naming the host; not "the page itself failed".
  const cdn = (url: string) => ({ url, type: 'script', error: 'net::ERR_NAME_NOT_RESOLVED' });
  const offsite = evidenceHint([tab({ consoleErrors: [], networkErrors: [cdn('https://cdn.jsdelivr.net/npm/@tryghost/portal@~2.50/umd/portal.min.js'), cdn('https://cdn.jsdelivr.net/npm/@tryghost/sodo-search/umd/sodo-search.min.js')], snapshot: '- link "Home" [ref=e3]' })], 'Element not found for locator(\'#typo\'). Take a snapshot (snapshot(pg, { interactive: true }))');
  assert.doesNotMatch(offsite, /page itself failed/);
  assert.equal(evidenceHint([tab({ consoleErrors: [], networkErrors: [cdn('https://cdn.example/w.js')] })], 'Ref e999 does not appear in any snapshot of this page.'), '', 'not where nothing was waited for');
  assert.match(evidenceHint([tab({ consoleErrors: [], networkErrors: [cdn('https://cdn.example/w.js')] })], 'No "popup" event came within 5 s (page.waitForEvent).'), /^ Also: scripts from cdn\.example got no answer/, 'a wait that ran out');
  assert.match(offsite, /between SNAPSHOT_START and SNAPSHOT_END\. Also: scripts from cdn\.jsdelivr\.net got no answer; if what you look for is drawn by one, answer its URL with pg\.route before goto/);
  assert.match(evidenceHint([tab({ consoleErrors: ['uncaught: ReferenceError: Portal is not defined'], networkErrors: [cdn('https://cdn.example/portal.js')] })]), /^ The page itself failed too \(a script request with no answer in NETWORK_ERRORS=, a ReferenceError in CONSOLE_ERRORS= above\)/, 'with a ReferenceError it is the strong hint');
  // A locator error that says to take a snapshot is pointed at the one the evidence has.
  const locatorError = 'Element not found for getByRole(\'button\', { name: \'Authorize\' }). Take a snapshot (snapshot(pg, { interactive: true }))';
  assert.match(evidenceHint([tab({ snapshot: '- button "Apply credentials" [ref=e7]' })], locatorError), /The evidence above has it: .* between SNAPSHOT_START and SNAPSHOT_END/);
  assert.equal(evidenceHint([tab({ snapshot: '- button "Apply credentials" [ref=e7]' })], 'the export never started'), '', 'not for other errors');
  assert.equal(evidenceHint([tab({ networkErrors: [] })], locatorError), '', 'not without a snapshot');
  // The app's own data request answered 404 (a package page for a name that does not exist;
  // trial V1): a locator that finds nothing there may look for what is not there.
  assert.match(evidenceHint([tab()], locatorError), /^ The page's own request was answered 404 \(GET \/x\): if that is what you looked for, it may not exist\. Check the id, name or URL you opened\.$/);
  // Each named (trial V14: a request every page of the app makes read as the cause).
  assert.match(evidenceHint([tab({ networkErrors: [{ url: 'http://127.0.0.1:8080/skServer/webapps', status: 404, type: 'fetch' }, { url: 'http://127.0.0.1:8080/api/items/9?full=1', method: 'POST', status: 404, type: 'xhr' }, { url: 'http://127.0.0.1:8080/c', status: 404, type: 'fetch' }] })], locatorError), /^ The page's own requests were answered 404 \(GET \/skServer\/webapps, POST \/api\/items\/9\?full=1 and 1 more\): if that is what you looked for/);
  const other = { networkErrors: [{ url: 'https://api.example/x', status: 404, type: 'fetch' }, { url: 'http://127.0.0.1:8080/logo.png', status: 404, type: 'img' }] };
  assert.equal(evidenceHint([tab(other)], locatorError), '', 'not for another origin\'s request or an image');
  assert.equal(evidenceHint([tab({ networkErrors: [{ url: 'http://127.0.0.1:8080/x', status: 500, type: 'fetch' }] })], locatorError), '', 'not for a 500');
  // Playwright names a document request 'document' and an XHR 'xhr'.
  for (const type of ['document', 'xhr']) assert.match(evidenceHint([tab({ networkErrors: [{ url: 'http://127.0.0.1:8080/item/9', status: 404, type }] })], locatorError), /answered 404/, type);
  // A sign-in wall (trial V6: a flow run on a fresh profile, its URL …/login).
  const wall = / The page asks to sign in \(a 401\/403 answer, or a sign-in page's URL\): this session is not signed in there\. Sign in first in this session/;
  assert.match(evidenceHint([tab({ url: 'http://127.0.0.1:8776/login', networkErrors: [] })], locatorError), wall);
  assert.match(evidenceHint([tab({ url: 'http://127.0.0.1:8783/ghost/#/signin/verify', networkErrors: [] })], locatorError), wall, 'a route in the hash');
  assert.doesNotMatch(evidenceHint([tab({ url: 'http://127.0.0.1:8776/login', networkErrors: [] })], "Element not found for getByLabel('Password') within 15 s (locator.fill). Take a snapshot (snapshot(pg, { interactive: true }))"), wall, 'not for a locator of the sign-in form itself (trials V16, V17)');
  const once = evidenceHint([tab({ url: 'http://127.0.0.1:8776/login', networkErrors: [] })], locatorError, { ephemeral: true });
  assert.doesNotMatch(once, wall, 'an --ephemeral call is not sent to sign in another call (trial V13)');
  assert.match(once, /an --ephemeral call starts signed out every time\. Sign in within this call .* or run without --ephemeral in a --session that is signed in there\./);
  assert.doesNotMatch(evidenceHint([tab({ url: 'http://127.0.0.1:8783/docs#signin-options', networkErrors: [] })], locatorError), wall, 'an anchor is no route');
  assert.match(evidenceHint([tab({ networkErrors: [{ url: 'http://127.0.0.1:8080/sync/list', status: 401, type: 'fetch' }] })], locatorError), wall);
  assert.doesNotMatch(evidenceHint([tab({ url: 'http://127.0.0.1:8776/blog/logins-explained', networkErrors: [{ url: 'https://other.example/x', status: 403, type: 'fetch' }] })], locatorError), wall, 'not a word inside a path, nor another origin');
  assert.doesNotMatch(evidenceHint([tab({ url: 'http://127.0.0.1:8776/login', networkErrors: [] })], 'the export never started'), wall, 'only for a locator that missed');
});

test('the evidence snapshot keeps 40 lines and says how many it left out; bounding it again changes nothing', async () => {
  const { evidenceSnapshot, boundEvidence, EVIDENCE_SNAPSHOT_LINES } = await import('../driver/runtime/evidence.js');
  const tree = Array.from({ length: 55 }, (_, i) => `- button "B${i}" [ref=e${i}]`).join('\n');
  const cut = evidenceSnapshot(tree).split('\n');
  assert.equal(cut.length, EVIDENCE_SNAPSHOT_LINES + 1);
  // The first lines and the last, where an app draws the modal it opened (trial V11).
  assert.equal(cut[24], '- button "B24" [ref=e24]');
  assert.equal(cut[25], '[15 lines left out (take snapshot(pg, { interactive: true }) for all); the page\'s last lines follow, where an app draws a modal or a notice it opened]');
  assert.equal(cut[26], '- button "B40" [ref=e40]');
  assert.equal(cut.at(-1), '- button "B54" [ref=e54]');
  const bounded = boundEvidence({ tab: 1, url: 'http://x/', title: 't', screenshot: null, consoleErrors: [], networkErrors: [], dialog: null, snapshot: cut.join('\n') });
  assert.equal(bounded.snapshot, cut.join('\n'));
});

test('the evidence snapshot leaves out links\' /url lines and keeps an open menu\'s or list\'s lines past its cut (trial V5)', async () => {
  const { evidenceSnapshot, boundEvidence, EVIDENCE_SNAPSHOT_LINES } = await import('../driver/runtime/evidence.js');
  const links = Array.from({ length: 60 }, (_, i) => `- link "L${i}" [ref=e${i}]:\n  - /url: "#${i}"`);
  const menu = ['- menuitem "Delete D" [ref=e100]', '- menuitem "Duplicate" [ref=e101]'];
  const cut = evidenceSnapshot([...links, '- button "Save" [ref=e99]', ...menu].join('\n')).split('\n');
  assert.ok(!cut.some((l) => l.includes('/url:')), 'no /url lines');
  // An icon link with no name keeps its /url: it is all that tells it (trial V9).
  const icons = evidenceSnapshot('- link [ref=e1] [cursor=pointer]:\n  - /url: "#debug"\n- link "" [ref=e2]:\n  - /url: "#info"\n- link "Help" [ref=e3]:\n  - /url: "/help"').split('\n');
  assert.deepEqual(icons, ['- link [ref=e1] [cursor=pointer]:', '  - /url: "#debug"', '- link "" [ref=e2]:', '  - /url: "#info"', '- link "Help" [ref=e3]:']);
  assert.ok(cut.length <= EVIDENCE_SNAPSHOT_LINES + 1, `${cut.length} lines`);
  assert.deepEqual(cut.slice(-3), ['[24 lines left out (take snapshot(pg, { interactive: true }) for all); the open dialog\'s, menu\'s or list\'s lines follow]', ...menu]);
  assert.equal(cut[0], '- link "L0" [ref=e0]:');
  // Lines left out after the menu too: the count of all of them.
  const after = evidenceSnapshot([...links, ...menu, '- button "Later" [ref=e200]'].join('\n')).split('\n');
  assert.deepEqual(after.slice(-3), [...menu, '[24 lines left out in all]']);
  assert.ok(after.length <= EVIDENCE_SNAPSHOT_LINES + 1);
  // Bounding it again changes nothing; a menu inside the first lines is a plain cut.
  assert.equal(boundEvidence({ tab: 1, url: 'http://x/', title: 't', screenshot: null, consoleErrors: [], networkErrors: [], dialog: null, snapshot: cut.join('\n') }).snapshot, cut.join('\n'));
  const early = evidenceSnapshot([...menu, ...links].join('\n')).split('\n');
  assert.equal(early.length, EVIDENCE_SNAPSHOT_LINES + 1);
  assert.deepEqual(early.slice(0, 2), menu);
  assert.equal(early[25], '[22 lines left out (take snapshot(pg, { interactive: true }) for all); the page\'s last lines follow, where an app draws a modal or a notice it opened]');
  assert.equal(early.at(-1), '- link "L59" [ref=e59]:');
});

test('the evidence snapshot keeps an open dialog whole past its cut: its text box and buttons, not only its own line (trial V24)', async () => {
  const { evidenceSnapshot, EVIDENCE_SNAPSHOT_LINES } = await import('../driver/runtime/evidence.js');
  const rows = Array.from({ length: 50 }, (_, i) => `- button "Row ${i}" [ref=e${i}]`);
  const dialog = ['- dialog "New category" [ref=e100]:', '  - textbox "New category name" [ref=e101]', '  - group [ref=e102]:', '    - button "Cancel" [ref=e103]', '    - button "Add" [ref=e104]'];
  const cut = evidenceSnapshot([...rows, ...dialog, '- button "Help" [ref=e200]'].join('\n')).split('\n');
  assert.ok(cut.length <= EVIDENCE_SNAPSHOT_LINES + 2, `${cut.length} lines`);
  const at = cut.indexOf(dialog[0]);
  assert.ok(at > 0, cut.join('\n'));
  assert.deepEqual(cut.slice(at, at + dialog.length), dialog, 'the whole dialog, in order');
  assert.match(cut[at - 1], /^\[\d+ lines left out .*the open dialog's, menu's or list's lines follow\]$/);
  assert.ok(!cut.includes('- button "Help" [ref=e200]'), 'a line after the dialog, at its parent\'s depth, is not part of it');
  // A dialog in the page's first lines whose body runs past the cut keeps that body too.
  const early = evidenceSnapshot([...rows.slice(0, 35), ...dialog, ...rows.slice(35)].join('\n')).split('\n');
  assert.ok(dialog.every((l) => early.includes(l)), early.join('\n'));
  assert.equal(early.length, EVIDENCE_SNAPSHOT_LINES + 1);
  assert.equal(early.at(-1), '[15 lines left out (take snapshot(pg, { interactive: true }) for all)]');
});

test('the same failed request or console error again is one entry, moved to the latest place (trial V8)', async () => {
  const { keepLatest, EVIDENCE_RECORD } = await import('../driver/runtime/evidence.js');
  const list: Array<{ url: string; status: number }> = [];
  for (const url of ['/a', '/b', '/a', '/a']) keepLatest(list, { url, status: 401 });
  assert.deepEqual(list, [{ url: '/b', status: 401 }, { url: '/a', status: 401 }]);
  const many: string[] = [];
  for (let i = 0; i < EVIDENCE_RECORD + 5; i++) keepLatest(many, `e${i}`);
  assert.equal(many.length, EVIDENCE_RECORD, 'a tab records a bounded list; the evidence shows the latest EVIDENCE_KEEP of it, folded');
  assert.equal(many.at(-1), `e${EVIDENCE_RECORD + 4}`);
});

test('a tab that did not answer: what covers a click, in the page\'s words, is left out of the [error] line as its markup is', () => {
  const told = withoutPageWords('Another element, <div class="t">hunter2</div>, covers the target getByRole(\'button\') (locator.click). It is in alert "Copied: hunter2", whose buttons are "Retry" and "Close"; pg.getByRole("alert").getByRole("button", { name: "Close" }).click() may close it. If it is an overlay or a dialog, close it first.');
  assert.doesNotMatch(told, /hunter2|Retry|Close"/);
  assert.match(told, /It is in alert … \(not shown: the page did not answer, so its secret fields could not be read\)\. If it is an overlay or a dialog, close it first\.$/);
});

test('a wait that found nothing points to the page\'s own messages when the evidence has some (trial V24)', () => {
  const error = "Element not found for getByTestId('row').nth(1) within 15 s (locator.waitFor).";
  assert.match(evidenceHint([tab({ alerts: ['Category "V24 Garden" already exists in group'] })], error), /The page's own messages are in ALERTS= above: they may say why\./);
  assert.doesNotMatch(evidenceHint([tab()], error), /ALERTS=/);
  assert.doesNotMatch(evidenceHint([tab({ alerts: ['Saved'] })], 'the export never started'), /ALERTS=/, 'not for a throw of the script\'s own');
});

test('a closed select\'s chosen option is no open list: the cut keeps the page\'s last lines (trial V34)', async () => {
  const { evidenceSnapshot } = await import('../driver/runtime/evidence.js');
  const rows = Array.from({ length: 50 }, (_, i) => `- button "Row ${i}" [ref=e${i}]`);
  const select = ['- combobox [ref=e100]', '  - option "application/json" [selected]'];
  const cut = evidenceSnapshot([...rows, ...select, '- button "Execute" [ref=e101]'].join('\n')).split('\n');
  assert.ok(!cut.some((l) => /open dialog's, menu's or list's/.test(l)), cut.join('\n'));
  assert.match(cut[25], /the page's last lines follow/);
  assert.equal(cut.at(-1), '- button "Execute" [ref=e101]');
  // An open listbox's options have refs: still kept past the cut.
  const open = evidenceSnapshot([...rows, '- listbox [ref=e100]:', '  - option "JSON" [ref=e102]', '  - option "XML" [ref=e103]', ...rows.map((r) => r.replace('Row', 'More'))].join('\n')).split('\n');
  assert.ok(open.includes('  - option "XML" [ref=e103]'), open.join('\n'));
});
