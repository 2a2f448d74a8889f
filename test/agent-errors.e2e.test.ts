// Errors that used to mislead, live through the CLI: a timed-out wait says what it waited for
// (an event, a disabled or hidden element, a missing one) and what to do; a stray word before
// the command is named, with the command that was meant.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { runCli, tempHome } from './helpers/cli.js';

let site: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  home = tempHome('gstack-errors-');
});
after(async () => {
  await site.close();
});

const run = (script: string) => runCli(['run', script, '--session', 'errors'], { env: { GSTACK_HOME: home } });
const last = (lines: string[]) => lines[lines.length - 1];

test('a download that never comes: the error names the event and how to wait for it, not a missing element, and the line the wait was started on', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}export.html");
    // Long enough that the click ends first on a loaded machine: a wait that expires while the
    // click still runs is an unhandled rejection (as in Node), not the message under test.
    const download = pg.waitForEvent("download", { timeout: 2500 });
    await pg.getByRole("button", { name: "Export CSV" }).click();
    await download;
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const line = last(r.lines) ?? '';
  assert.match(line, /^\[error\] No "download" event came within 2\.5 s \(page\.waitForEvent\)\. Start waiting before the click or navigation that downloads \(const e = pg\.waitForEvent\("download"\); await <action>; await e\), check that the action really causes it, or raise \{ timeout \}\. \(line 5\) The page's own messages are in ALERTS= above: they may say why\.$/, r.stdout + r.stderr);
  // The page's own status line says what became of the click (trial V24: the reason was there).
  assert.ok(r.lines.includes('ALERTS=["Export queued"]'), r.stdout);
  assert.doesNotMatch(r.stdout, /Element not found|by its ref|=== logs ===/);
});

test('element waits say which state blocked them: disabled, hidden, missing (and how far a chain matched)', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}export.html");
    const tries = {
      // These two must see the element first: a longer wait, so a loaded machine still finds it.
      DISABLED: () => pg.getByRole("button", { name: "Delete report" }).click({ timeout: 2000 }),
      HIDDEN: () => pg.waitForSelector("#notice", { timeout: 2000 }),
      MISSING: () => pg.waitForSelector("#nope", { timeout: 500 }),
      // A chain says which of its steps stopped matching (a grid row's filter, a dialog's button).
      CHAIN: () => pg.locator("body").getByRole("button").filter({ hasText: "Import" }).click({ timeout: 500 }),
      NTH: () => pg.getByRole("button").nth(5).click({ timeout: 500 }),
      RESPONSE: () => pg.waitForResponse("**/api/never", { timeout: 500 }),
      CONDITION: () => pg.waitForFunction(() => document.title === "never", null, { timeout: 500 }),
      URL: () => pg.waitForURL("**/never", { timeout: 500 }),
      // Node's fs from memory: this fs is promise-based (as on Aside).
      FS_SYNC: async () => fs.writeFileSync("a.txt", "x"),
      FS_PROMISES: async () => fs.promises.writeFile("a.txt", "x"),
      // A URL that was missing (params.url without the param) is not a blank tab.
      OPEN_UNDEFINED: () => openTab(params.url),
    };
    for (const [name, f] of Object.entries(tries)) {
      try { await f(); console.log(name + "=no error"); } catch (e) { console.log(name + "=" + e.message); }
    }
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const said = (name: string) => r.lines.find((l) => l.startsWith(name + '='))!.slice(name.length + 1);
  assert.match(said('DISABLED'), /^The element getByRole\('button', \{ name: 'Delete report' \}\) is disabled within 2 s \(locator\.click\)\. Complete the required fields first/);
  assert.match(said('HIDDEN'), /^The element locator\('#notice'\) exists but is not visible within 2 s \(page\.waitForSelector\)\./);
  assert.match(said('MISSING'), /^Element not found for locator\('#nope'\) within 500 ms \(page\.waitForSelector\)\. Take a snapshot/);
  assert.match(said('CHAIN'), /^Element not found for locator\('body'\)\.getByRole\('button'\)\.filter\(\{ hasText: 'Import' \}\) within 500 ms \(locator\.click\)\. How far it matched: locator\('body'\) → 1 element; then \.getByRole\('button'\) → 2 elements; then \.filter\(\{ hasText: 'Import' \}\) → none\. Take a snapshot/);
  assert.match(said('NTH'), /How far it matched: getByRole\('button'\) → 2 elements; then \.nth\(5\) → none\./);
  assert.match(said('RESPONSE'), /^No response matching "\*\*\/api\/never" came within 500 ms \(page\.waitForResponse\)\. Start waiting before the action that sends it/);
  assert.match(said('URL'), new RegExp(`^The page did not reach a URL matching "\\*\\*/never" within 500 ms \\(page\\.waitForURL\\); the page is at ${site.url.replace(/[.?*]/g, '\\$&')}export\\.html\\. Check the pattern against that URL`));
  assert.match(said('FS_SYNC'), /^fs\.writeFileSync is not part of a flow script's fs, which is promise-based \(as on Aside\) and confined to pwd: use await fs\.writeFile\(\.\.\.\)/);
  assert.match(said('FS_PROMISES'), /^fs\.promises is not part of a flow script's fs.*call fs\.writeFile\(\.\.\.\), fs\.readFile\(\.\.\.\) directly/);
  assert.match(said('OPEN_UNDEFINED'), /^openTab\(url\): url is undefined \(a missing params value, or a variable not set\?\)\. Pass a URL string, or call openTab\(\) with no argument for a blank tab\.$/);
  assert.match(said('CONDITION'), /^The condition passed to page\.waitForFunction was not true within 500 ms\. Check it against the page/);
});

test('a stray word before the command is named, with the command that was meant (exit 2)', async () => {
  const r = await runCli(['gstack', 'cookbook', 'read', '--url', `${site.url}export.html`, '--params', `{"maxTextChars":"it's"}`], { env: { GSTACK_HOME: home } });
  assert.equal(r.code, 2);
  const first = r.stderr.split('\n')[0];
  assert.equal(first, `[error] "gstack" is not a command; the command comes first. Did you mean: gstack cookbook read --url ${site.url}export.html --params '{"maxTextChars":"it'\\''s"}'`);
  assert.doesNotMatch(r.stderr, /Unknown arguments/);
  // A mistyped command still gets yargs' own suggestion.
  const typo = await runCli(['cookbok', 'read'], { env: { GSTACK_HOME: home } });
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /Did you mean cookbook\?/);
});

test('an event wait that timed out while the action meant to cause it still waits names that action (trial V7: the error blamed the file chooser)', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}export.html");
    await Promise.all([pg.waitForEvent("filechooser", { timeout: 1500 }), pg.getByRole("button", { name: "Import CSV" }).click({ timeout: 6000 })]);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(last(r.lines) ?? '', /^\[error\] No "filechooser" event came within 1\.5 s \(page\.waitForEvent\)\. Another call of the script is still waiting: locator\.click on getByRole\('button', \{ name: 'Import CSV' \}\) \(line 3, waiting \d+(\.\d)? s\)\. If that is the action meant to cause it, it has not happened: fix that call first\. Start waiting before the click that opens the file chooser/);
});

test('a failed Playwright call names the script line it was made on, inside a helper too; a script that catches it and throws its own error gets no line (trial V6)', async () => {
  const r = await run(`const pg = await openTab("${site.url}export.html");
async function exportAs(name) {
  await pg.getByRole("button", { name }).click({ timeout: 800 });
}
await exportAs("Export CSV");
await exportAs("Export PDF");
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  // The click on line 3, not the helper's caller on line 6.
  assert.match(last(r.lines) ?? '', /^\[error\] Element not found for getByRole\('button', \{ name: 'Export PDF' \}\) within 800 ms \(locator\.click\)\..* \(line 3\)/);
  const own = await run(`const pg = await openTab("${site.url}export.html");
try {
  await pg.locator("#nope").click({ timeout: 300 });
} catch (e) {
  throw new Error("no such button: " + e.message.split(".")[0]);
}`);
  assert.equal(own.code, 1);
  assert.match(last(own.lines) ?? '', /^\[error\] no such button: Element not found for locator\('#nope'\) within 300 ms \(locator$/);
});

test('a role with a name that matched nothing says which other role has that name, or that only the text is there (trial V13: "Import members" was a link)', async () => {
  const r = await run(`const pg = await openTab("about:blank");
await pg.setContent('<div onclick="1">Import members</div><header><a href="#">Sign in</a></header><input type="password" placeholder="Password"><div class="auth"><button aria-label="Apply credentials">Authorize</button><a href="#x" aria-label="Docs home"><span>Read the docs</span></a></div>');
for (const [tag, loc] of [["LINK", pg.locator("header").getByRole("button", { name: "sign in" })], ["TEXT", pg.getByRole("button", { name: "Import members" })], ["OTHER", pg.locator(".auth").getByRole("button", { name: "Authorize" })], ["INNER", pg.getByRole("link", { name: "Read the docs" })], ["NONE", pg.getByRole("button", { name: "Nothing like it" })], ["EARLY", pg.locator("footer").getByRole("button", { name: "Sign in" })], ["LABEL", pg.getByLabel("Password")]]) {
  await loc.click({ timeout: 400 }).catch((e) => console.log(tag + " " + e.message));
}
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const said = (tag: string) => r.lines.find((l) => l.startsWith(tag + ' ')) ?? '';
  assert.match(said('LINK'), /How far it matched: locator\('header'\) → 1 element; then \.getByRole\('button', \{ name: 'sign in' \}\) → none\. No button has that name, but a link does: locator\('header'\)\.getByRole\('link', \{ name: 'sign in' \}\) → 1 element\. Take a snapshot/);
  assert.match(said('TEXT'), /No element with a role has that name, but the text is on the page: getByText\('Import members'\) → 1 element \(an element with no role: act on it by that text\)\./);
  // A control whose name is not its text (trial V33: Swagger UI's "Authorize" button is named
  // "Apply credentials"): named, with the locator that finds it; also for text inside it.
  assert.match(said('OTHER'), /the text is on the page: locator\('\.auth'\)\.getByText\('Authorize'\) → 1 element, in a button whose name is another \(button "Apply credentials": Authorize\): act on it by the name it has, getByRole\("button", \{ name: "Apply credentials" \}\), or by that text\./);
  assert.match(said('INNER'), /in a link whose name is another \(link "Docs home"[^)]*\): act on it by the name it has, getByRole\("link", \{ name: "Docs home" \}\)/);
  assert.doesNotMatch(said('NONE'), /has that name|the text is on the page/);
  // getByLabel on a field named by its placeholder (trials V16, V17).
  assert.match(said('LABEL'), /No field has that label, but a textbox has it as its name \(from its placeholder or title, which getByLabel does not read\): getByRole\('textbox', \{ name: 'Password' \}\) → 1 element\./);
  // An earlier step that matched nothing is the one to fix: no word about other roles.
  assert.match(said('EARLY'), /locator\('footer'\) → none\. Take a snapshot/);
});

test('an element that stayed hidden says how many of its matches are visible and how to take one (trial V9: a dialog kept closed behind the open one)', async () => {
  const r = await run(`const pg = await openTab("about:blank");
await pg.setContent('<div role="dialog" style="display:none"><button>OK</button></div><div role="dialog"><button>OK</button></div><p hidden id="gone">x</p>');
await pg.locator("[role=dialog]").first().waitFor({ timeout: 400 }).catch((e) => console.log("FIRST " + e.message));
await pg.locator("#gone").click({ timeout: 400 }).catch((e) => console.log("ALONE " + e.message));
await pg.locator("[role=dialog]").filter({ visible: true }).first().getByRole("button").click({ timeout: 2000 });
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const said = (tag: string) => r.lines.find((l) => l.startsWith(tag + ' ')) ?? '';
  assert.match(said('FIRST'), /exists but is not visible within 400 ms \(locator\.waitFor\)\. It matches 2 elements without its \.first\(\), 1 of them visible: take a visible one with \.filter\(\{ visible: true \}\) before \.first\(\) \(in a CSS selector, :visible\)\. Scroll or open/);
  assert.match(said('ALONE'), /exists but is not visible within 400 ms \(locator\.click\)\. Scroll or open/, 'nothing visible to offer');
});

test('a click another element covers says which part of the page that element is in, with its buttons (trial V19: an app\'s toast, named only by a generated class)', async () => {
  const r = await run(`
    const pg = await openTab();
    await pg.setContent('<button>Add new schedule</button><div class="css-x1" style="position:fixed;inset:0"><div role="alert" class="css-y2" style="position:absolute;inset:0;background:#fee"><p>Sync error: invalid fileId</p><button>Retry</button><button aria-label="Close">×</button></div></div>');
    await pg.getByRole("button", { name: "Add new schedule" }).click({ timeout: 1000 });
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(last(r.lines) ?? '', /^\[error\] Another element, <div class="css-x1">…<\/div>, covers the target getByRole\('button', \{ name: 'Add new schedule' \}\) \(locator\.click\)\. It is in alert "Sync error: invalid fileId Retry×", whose buttons are "Retry" and "Close"; pg\.getByRole\("alert"\)\.getByRole\("button", \{ name: "Close" \}\)\.click\(\) may close it\. If it is an overlay/, r.stdout);
  // A toast whose close button is only a ×.
  const x = await run(`
    const pg = await openTab();
    await pg.setContent('<button>Add</button><div role="status" style="position:fixed;inset:0;background:#eef">Saved <button>Undo</button><button>×</button></div>');
    await pg.getByRole("button", { name: "Add" }).click({ timeout: 1000 });`);
  assert.match(last(x.lines) ?? '', /It is in status "Saved Undo×", whose buttons are "Undo" and "×"; pg\.getByRole\("status"\)\.getByRole\("button", \{ name: "×" \}\)\.click\(\) may close it\./, x.stdout);
});

// Trial V17: an .or() locator that matched nothing was told as its first branch alone ("How far
// it matched: getByRole('button', { name: 'Save' }) → none"), as if the other were never tried.
test('an .or() that matched nothing counts each branch, and names another role that has a branch\'s name', async () => {
  const r = await run(`
    const pg = await openTab();
    await pg.setContent('<button>Go</button><a href="#s">Save</a>');
    await pg.getByRole("button", { name: "Save" }).or(pg.getByRole("button", { name: "Submit" })).first().click({ timeout: 500 });
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(last(r.lines) ?? '', /How far it matched, each branch of the \.or\(\): getByRole\('button', \{ name: 'Save' \}\) → none; getByRole\('button', \{ name: 'Submit' \}\) → none\. No button has that name, but a link does: getByRole\('link', \{ name: 'Save' \}\) → 1 element\./, r.stdout);
});
