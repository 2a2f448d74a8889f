// Snapshot lines as agents read them, live through `gstack run` on Chromium: names with
// YAML-special characters survive every mode and stale-ref message; main-frame refs read eN
// after reloads and form posts (fNeM only inside iframes) and still resolve and go stale; and
// diffs compare lines without refs, with one line of context.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { runCli, tempHome } from './helpers/cli.js';

let site: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  home = tempHome('gstack-snaplines-');
});
after(async () => {
  await site.close();
});

const run = (script: string) => runCli(['run', script, '--session', 'snaplines'], { env: { GSTACK_HOME: home } });
/** The lines a script printed between `NAME_START` and `NAME_END`. */
function block(stdout: string, name: string): string[] {
  const m = new RegExp(`^${name}_START\\n([\\s\\S]*?)^${name}_END$`, 'm').exec(stdout);
  assert.ok(m, `no ${name} block in:\n${stdout}`);
  return m[1].split('\n').filter((l) => l !== '');
}

// Every accessible name in test/fixtures/site/yaml-names.html that Playwright prints as a
// YAML-quoted line, as the snapshot must print it (JSON-quoted name, no YAML quotes).
const QUOTED_NAMES = [
  'button "GET /vessels/{callsign} Find a vessel"',
  'button "POST /a: create"',
  'button "Tag #1 and #2"',
  'button "`code` span"',
  `button "It's {x}: 'y'"`,
  'combobox "Pick {one}: a|b"',
];
const PLAIN_NAMES = [
  'button "GET /berths List berths"',
  'button "Say \\"hello\\""',
  `button "It's 'quoted'"`,
  'button "[bracketed] start"',
  'button "Back\\\\slash\\\\path"',
  'link "& ampersand first"',
  'link "* star first"',
  'link "| pipe first"',
  'link "> greater first"',
  'link "@ at first"',
  'link "? question first"',
  'textbox "Amount:"',
  'checkbox "- dash label"',
  'button "true"',
  'button "123"',
  'button "Ends with colon:"',
];

test('names with YAML-special characters: every mode keeps every element, unquoted; refs act; stale refs name them', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}yaml-names.html");
    const modes = {
      FULL: {},
      INTERACTIVE: { interactive: true },
      COMPACT: { compact: true },
      DEPTH: { depth: 4 },
      SHALLOW: { depth: 2 },
      SELECTOR: { selector: "section" },
    };
    for (const [name, opts] of Object.entries(modes)) {
      console.log(name + "_START"); console.log((await snapshot(pg, opts)).tree); console.log(name + "_END");
    }
    // What the page really holds, counted in the page: every control the interactive tree must list.
    console.log("CONTROLS=" + await pg.evaluate(() => document.querySelectorAll("button, a[href], input, select").length));
    const tree = (await snapshot(pg, { interactive: true })).tree;
    const ref = /button "GET \\/vessels\\/\\{callsign\\} Find a vessel" \\[ref=(e\\d+)\\]/.exec(tree)[1];
    await pg.locator(ref).click();
    const frameRef = /button "\\{frame\\}: button #1" \\[ref=(f\\d+e\\d+)\\]/.exec((await snapshot(pg)).tree)[1];
    console.log("FRAME_TEXT=" + await pg.locator(frameRef).textContent());
    await pg.evaluate(() => document.querySelectorAll("button")[1].remove());
    try { await pg.locator(ref).click(); console.log("NO_ERROR"); } catch (e) { console.log("STALE=" + e.message); }
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);

  const modes = ['FULL', 'INTERACTIVE', 'COMPACT', 'DEPTH', 'SELECTOR'];
  for (const mode of modes) {
    const lines = block(r.stdout, mode);
    assert.ok(!lines.some((l) => /^\s*- '/.test(l)), `${mode}: no YAML-quoted line:\n${lines.join('\n')}`);
    for (const name of [...QUOTED_NAMES, ...PLAIN_NAMES]) {
      assert.ok(lines.some((l) => new RegExp(`^\\s*- ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (\\[[^\\]]+\\] )*\\[ref=e\\d+\\]`).test(l)), `${mode}: ${name} missing in:\n${lines.join('\n')}`);
    }
  }
  // The interactive tree lists exactly the page's controls (main page: 24 + the iframe's button
  // counted there too, since the snapshot includes iframes).
  const interactive = block(r.stdout, 'INTERACTIVE').filter((l) => /\[ref=/.test(l));
  const controls = Number(/CONTROLS=(\d+)/.exec(r.stdout)![1]);
  assert.equal(interactive.length, controls + 1, interactive.join('\n'));
  assert.ok(interactive.some((l) => /^- button "\{frame\}: button #1" \[ref=f\d+e\d+\]$/.test(l)), 'the iframe button, with its frame ref');
  // A select's options say what it can be set to.
  assert.ok(block(r.stdout, 'INTERACTIVE').includes('  - option "{x}: y" [selected]'));
  // Non-interactive quoted lines survive compact and depth too.
  for (const mode of ['FULL', 'COMPACT', 'DEPTH']) {
    assert.ok(block(r.stdout, mode).some((l) => /- heading "\{Heading\}: with #hash" \[level=2\] \[ref=e\d+\]$/.test(l)), mode);
  }
  assert.ok(block(r.stdout, 'SHALLOW').some((l) => /^\[depth 2: \d+ deeper lines not shown/.test(l)), 'depth says what it left out');
  assert.ok(!block(r.stdout, 'DEPTH').some((l) => /^\[depth/.test(l)), 'nothing left out, nothing said');
  assert.match(r.stdout, /FRAME_TEXT=\{frame\}: button #1/);
  assert.ok(!r.stdout.includes('NO_ERROR'));
  assert.match(r.stdout, /STALE=Ref e\d+ is stale — the element \(button "GET \/vessels\/\{callsign\} Find a vessel"\) no longer exists\. Take a new snapshot\./);
});

test('main-frame refs read eN after a form post and a reload, iframe refs fNeM; they resolve, go stale fast, and a fresh call gives the same', async () => {
  const script = `
    const pg = await openTab("${site.url}reload.html");
    const refsOf = (tree) => tree.split("\\n").filter((l) => /\\[ref=/.test(l)).map((l) => l.trim());
    let s = await snapshot(pg);
    console.log("S1_START"); console.log(s.tree); console.log("S1_END");
    const search = () => /button "Search" \\[ref=(\\w+)\\]/.exec(s.tree)[1];
    await pg.locator(/textbox "Query" \\[ref=(\\w+)\\]/.exec(s.tree)[1]).fill("boats");
    await pg.locator(search()).click();
    await pg.waitForURL("**/reload.html?q=boats");
    s = await snapshot(pg);
    console.log("S2_START"); console.log(s.tree); console.log("S2_END");
    console.log("DIFF2_START"); console.log(s.diff); console.log("DIFF2_END");
    await pg.reload();
    s = await snapshot(pg);
    console.log("S3_START"); console.log(s.tree); console.log("S3_END");
    console.log("DIFF3_START"); console.log(s.diff); console.log("DIFF3_END");
    // A ref from the current document's snapshot resolves...
    await pg.locator(/textbox "Query" \\[ref=(\\w+)\\]/.exec(s.tree)[1]).fill("ships");
    await pg.locator(search()).click();
    await pg.waitForURL("**/reload.html?q=ships");
    // ...and after the next navigation, without a new snapshot, it is stale at once.
    const t = Date.now();
    try { await pg.locator(search()).click(); console.log("NO_ERROR"); }
    catch (e) { console.log("STALE_MS=" + (Date.now() - t)); console.log("STALE=" + e.message); }
    s = await snapshot(pg);
    console.log("S4_START"); console.log(s.tree); console.log("S4_END");
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`;
  const r = await run(script);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const withRefs = (name: string) => block(r.stdout, name).filter((l) => /\[ref=/.test(l));
  const s1 = withRefs('S1');
  for (const name of ['S1', 'S2', 'S3', 'S4']) {
    const lines = withRefs(name);
    const inFrame = lines.filter((l) => /button "Help"/.test(l));
    assert.equal(inFrame.length, 1, name);
    assert.match(inFrame[0], /\[ref=f\d+e\d+\]$/, `${name}: the iframe's ref carries its frame`);
    for (const l of lines.filter((x) => !inFrame.includes(x))) assert.match(l, /\[ref=e\d+\]/, `${name}: main-frame ref reads eN: ${l}`);
    // The same page after a reload gives its elements the same refs.
    const strip = (l: string) => l.replace(/\[ref=f\d+e/, '[ref=fe');
    const status = (ls: string[]) => ls.filter((l) => !/status/.test(l)).map(strip);
    assert.deepEqual(status(lines), status(s1), `${name} refs equal the first snapshot's`);
  }
  assert.match(block(r.stdout, 'S2').join('\n'), /status \[ref=e\d+\]: "Searched: boats"/);
  assert.deepEqual(block(r.stdout, 'DIFF3'), ['[no changes since the previous snapshot]'], 'a reload of the same page changes nothing');
  assert.ok(block(r.stdout, 'DIFF2').length <= 4, `the post changed the status line and the query: ${block(r.stdout, 'DIFF2').join('\n')}`);
  assert.ok(!r.stdout.includes('NO_ERROR'));
  assert.ok(Number(/STALE_MS=(\d+)/.exec(r.stdout)![1]) < 1000, 'a stale ref fails fast');
  assert.match(r.stdout, /STALE=Ref e\d+ is stale — the element \(button "Search"\) no longer exists\. Take a new snapshot\./);

  // A fresh call on the same page gives the same refs.
  const again = await run(`
    const pg = await openTab("${site.url}reload.html");
    console.log("S1_START"); console.log((await snapshot(pg)).tree); console.log("S1_END");
    console.log("GSTACK_STEP_OK");`);
  assert.equal(again.code, 0, again.stdout + again.stderr);
  assert.deepEqual(block(again.stdout, 'S1').filter((l) => /\[ref=/.test(l)), s1);
});

test('a re-render that changes one value diffs as that value, with the label next to it; unchanged elements are unchanged', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}rerender.html");
    for (const opts of [{}, { compact: true }]) {
      const s = await snapshot(pg, opts);
      const button = /button "Recalculate" \\[ref=(e\\d+)\\]/.exec(s.tree)[1];
      await pg.locator(button).click();
      const after = await snapshot(pg, opts);
      console.log("NEWREF=" + (/button "Recalculate" \\[ref=(e\\d+)\\]/.exec(after.tree)[1] !== button));
      console.log("DIFF_START"); console.log(after.diff); console.log("DIFF_END");
      await pg.reload();
    }
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /NEWREF=true/, 'the re-render gave every element a new ref');
  const diffs = r.stdout.split('DIFF_START\n').slice(1).map((d) => d.split('\nDIFF_END')[0].split('\n'));
  assert.equal(diffs.length, 2);
  for (const diff of diffs) {
    const text = diff.join('\n');
    // One run per change: its context line, the old line without its ref, the new with it.
    assert.match(text, /^ {2}\s*- cell "Amount" \[ref=e\d+\]\n-\s+- cell "123"\n\+\s+- cell "456" \[ref=e\d+\]$/m, text);
    assert.match(text, /^ {2}\s*- text: Note\n-\s+- textbox "Note": draft\n\+\s+- textbox "Note" \[ref=e\d+\]: final$/m, text);
    assert.equal(diff.length, 6, `nothing else changed:\n${text}`);
    assert.ok(!/Recalculate|Currency|Invoice/.test(text), text);
  }
});

// A trial agent's diffs after each fill listed the field it left and the one it entered: focus
// moving (`[active]`) is not a change of the page.
test('focus moving from one field to another is not a diff; a value typed still is', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}form.html");
    await snapshot(pg, { interactive: true });
    await pg.getByLabel("Username").fill("alice");
    const typed = await snapshot(pg, { interactive: true });
    console.log("DIFF_START"); console.log(typed.diff); console.log("DIFF_END");
    await pg.getByLabel("Plan").focus();
    const moved = await snapshot(pg, { interactive: true });
    console.log("DIFF_START"); console.log(moved.diff); console.log("DIFF_END");
    console.log("TREE_START"); console.log(moved.tree); console.log("TREE_END");
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const diffs = r.stdout.split('DIFF_START\n').slice(1).map((d) => d.split('\nDIFF_END')[0]);
  assert.match(diffs[0], /^\+ - textbox "Username" \[active\] \[ref=e\d+\]: alice$/m);
  // An interactive diff says what it compares (trial V12: text an action showed read as no change).
  assert.equal(diffs[1], '[no changes since the previous snapshot in what can be clicked or filled; text it shows is not compared in interactive mode: take snapshot(pg) without it, or a screenshot]');
  // The tree itself still says where focus is.
  assert.match(r.stdout, /combobox "Plan" \[active\]/);
});

// A trial agent on the reveal.js demo: a link or button named only by its content (an icon's
// alt text) printed with no name in the interactive snapshot, which drops children.
test('the interactive snapshot names a link or button by its content (an icon\'s alt, a text child), as getByRole finds it', async () => {
  const gif = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
  const r = await run(`
    const pg = await openTab();
    await pg.setContent('<a href="/home"><img src="${gif}" alt="Home logo"></a><button><img src="${gif}" alt="Save"></button><button><img src="${gif}" alt="Undo"> <span>last</span></button><a href="/x" aria-label="Labelled">x</a>');
    const s = await snapshot(pg, { interactive: true });
    console.log("TREE_START\\n" + s.tree + "\\nTREE_END");
    await pg.getByRole("button", { name: "Save" }).click();
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const tree = block(r.stdout, 'TREE');
  assert.ok(tree.some((l) => /^- link "Home logo" \[ref=e\d+\]/.test(l)), tree.join('\n'));
  assert.ok(tree.some((l) => /^- button "Save" \[ref=e\d+\]/.test(l)), tree.join('\n'));
  assert.ok(tree.some((l) => /^- button "Undo last" \[ref=e\d+\]/.test(l)), tree.join('\n'));
  assert.ok(tree.some((l) => /^- link "Labelled" \[ref=e\d+\]/.test(l)), tree.join('\n'));
});

// Trial V18 on Actual Budget: the month picker's `<button><div title="Today"
// style="display:flex"><svg>` read `- button "Today"` in the interactive snapshot, a name the
// snapshot made up from the wrapper's title, and getByRole("button", { name: "Today" }) then
// found nothing (Playwright gives that button no name). Now the wrapper keeps its own line.
test('a button whose only name is a title on a wrapper is not given that name: the wrapper keeps its line, as Playwright prints it', async () => {
  const r = await run(`
    const pg = await openTab();
    await pg.setContent('<button onclick="document.title = 1 + (+document.title || 0)"><div title="Today" style="display:flex"><svg width="9" height="9"></svg></div></button><button><img alt="Save" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></button>');
    const s = await snapshot(pg, { interactive: true });
    console.log("TREE_START\\n" + s.tree + "\\nTREE_END");
    console.log("BY_ROLE=" + await pg.getByRole("button", { name: "Today" }).count());
    const ref = s.tree.match(/^- button \\[ref=(e\\d+)\\]:$/m)[1];
    await pg.locator(ref).click();
    await pg.getByTitle("Today").click();
    console.log("CLICKS=" + await pg.title());
    console.log("EMPTY=" + (await snapshot(pg, { interactive: true, selector: "svg" })).tree);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const tree = block(r.stdout, 'TREE');
  assert.ok(!tree.some((l) => /button "Today"/.test(l)), `the snapshot named the button from its wrapper's title:\n${tree.join('\n')}`);
  const at = tree.findIndex((l) => /^- button \[ref=e\d+\]:$/.test(l));
  assert.ok(at >= 0 && /^ {2}- generic "Today" \[ref=e\d+\]$/.test(tree[at + 1]), tree.join('\n'));
  assert.ok(tree.some((l) => /^- button "Save" \[ref=e\d+\]$/.test(l)), 'an icon\'s alt text still names its button\n' + tree.join('\n'));
  assert.match(r.stdout, /^BY_ROLE=0$/m, "Playwright's own getByRole gives that button no name");
  assert.match(r.stdout, /^CLICKS=2$/m, 'its ref and getByTitle both click it');
  assert.match(r.stdout, /^EMPTY=\[no interactive elements: if the page is still drawing, wait for what you need first/m);
});

// Trials V24, V28: a modal's controls read like the page's own in a flat interactive list, and
// the failure evidence's cut left out the dialog's text box. An open dialog keeps its line, with
// what can be acted on in it indented under it; a dialog with nothing to act on is left out.
test('an interactive snapshot keeps an open dialog\'s line, with its controls indented under it, and a disabled button with no ref', async () => {
  site.setPage('/modal.html', '<title>M</title><button>Open</button><div role="dialog" aria-label="New category"><p>Name it</p><input aria-label="Category name"><select aria-label="Group"><option>Bills</option></select><button>Add</button><button disabled style="pointer-events:none">Save</button></div><div role="alertdialog" aria-label="Notice"><p>Saved</p></div><button>After</button>');
  const r = await run(`const pg = await openTab(${JSON.stringify(site.url + 'modal.html')});
console.log("TREE_START\\n" + (await snapshot(pg, { interactive: true })).tree + "\\nTREE_END");
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(block(r.stdout, 'TREE').map((l) => l.replace(/ \[ref=e\d+\]/, '')), [
    '- button "Open"',
    '- dialog "New category":',
    '  - textbox "Category name"',
    '  - combobox "Group"',
    '    - option "Bills" [selected]',
    '  - button "Add"',
    // No ref (no pointer events, as MUI draws a disabled button), yet kept: the form waits for it.
    '  - button "Save" [disabled]',
    '- button "After"',
  ]);
});

test('an interactive snapshot keeps the [aria-hidden] line the page behind an open modal sits under, its controls indented and given no name they lack', async () => {
  // As MUI opens a modal: the app's root is aria-hidden, so its controls have no accessible name
  // and getByRole cannot find them (trials V30, V31: `button [ref=e52]: Login` read as the button
  // to click). A link named by its text gets no name from it there either.
  site.setPage('/behind.html', '<title>B</title><div id="root"><button>Login</button><a href="/help">Help</a><div aria-hidden="true"><p>decor</p></div></div><div role="dialog" aria-modal="true" aria-label="Sign in"><input aria-label="Username"><button>Close</button></div><script>document.getElementById("root").setAttribute("aria-hidden", "true")</script>');
  const r = await run(`const pg = await openTab(${JSON.stringify(site.url + 'behind.html')});
console.log("TREE_START\\n" + (await snapshot(pg, { interactive: true })).tree + "\\nTREE_END");
console.log("COUNT=" + await pg.getByRole("button", { name: "Login" }).count());
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(block(r.stdout, 'TREE').map((l) => l.replace(/ \[ref=e\d+\]/, '')), [
    '- generic [aria-hidden]:',
    '  - button: Login',
    '  - link [cursor=pointer]',
    '    - /url: /help',
    '- dialog "Sign in":',
    '  - textbox "Username"',
    '  - button "Close"',
  ]);
  assert.match(r.stdout, /^COUNT=0$/m, 'what the line says: getByRole does not find it');
});
