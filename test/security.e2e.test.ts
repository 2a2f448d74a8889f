// Security tests: each one is an attack (or a careless script) and checks that it is stopped.
// Run alone (it builds first): npm run test:e2e -- test/security.e2e.test.ts
// The pure rule of item 6 (which fields are secret) is test/secret-fields.test.ts.
//
// Covered (README "Security model" says what each promise is):
//   1-2. Every object reachable from a Page writes and reads local files only under pwd
//        (element handles, frames, the context, storageState, tracing, video, downloads,
//        setInputFiles, route.fulfill({ path })); `file:` navigation is refused.
//        Raw CDP (_sendToTarget, CDPSession) is held to the same rules.
//   3.   fs race: a concurrent process swapping a directory for a symlink never lets any `fs`
//        method (readFile, writeFile, appendFile, mkdir, readdir, stat, access, rm, unlink,
//        rename, copyFile) read, write or remove outside pwd; pg.screenshot({ path }) neither.
//   4.   Terminal control: page text with 7-bit and 8-bit escape sequences, C1 controls and
//        bidi overrides reaches no byte of stdout or stderr: `gstack render --eval` and
//        `--wait-expr` errors, EVAL values, `gstack run` lines, `sessions list`, `diagram`.
//   5.   Render server: a page cannot fetch dotfiles (.ssh/id_ed25519, .git/config) next to
//        it; serving $HOME, / or a directory above the file's project is said on stderr.
//   6.   Redaction: secret-looking fields (names at word/camelCase boundaries, autocomplete
//        tokens) are redacted in snapshots, innocent look-alikes are not; pg.content() does
//        not return a prefilled password.
//   7.   Permissions: under GSTACK_HOME every directory is 0700 and every file 0600, also when
//        GSTACK_HOME, its subdirectories or --profile DIR existed with looser modes; a
//        directory that is not ours is reported, not changed.
//   8.   Raw library text: a malformed import-cookies file gives one [error] line without
//        Playwright's call log or ANSI codes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { BIN, cliWith, runCli } from './helpers/cli.js';
import { filesUnder, looseModes, startSwapper, unsafeFor } from './helpers/security-support.js';
import { createConfinedFs } from '../driver/runtime/confined-fs.js';

let site: FixtureServer;
let work: string;
before(async () => {
  assert.ok(existsSync(BIN), `build first: npm run build (missing ${BIN})`);
  site = await startFixtureServer();
  work = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-security-')));
});
after(async () => {
  await site?.close();
});

const fresh = (name: string) => {
  const dir = join(work, `${name}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
/** `gstack ...` in its own process (no session host left behind), with its own GSTACK_HOME. */
const gstack = cliWith(() => ({ cwd: work, env: { GSTACK_HOME: join(work, 'home'), GSTACK_NO_WARM: '1', GSTACK_HOUSEKEEPING: '0' } }));
const assertTerminalSafe = (r: { stdout: string; stderr: string }, what: string) => {
  assert.equal(unsafeFor(r.stdout), undefined, `${what}: stdout`);
  assert.equal(unsafeFor(r.stderr), undefined, `${what}: stderr`);
};

// ---- Items 1-2 (lead): objects reachable from a Page; file inputs, fulfilled paths, file: ----
let outside: string; // a directory outside every pwd: nothing may be written here
let secret: string; // a local file no page may read
before(() => {
  outside = mkdtempSync(join(tmpdir(), 'gstack-outside-'));
  secret = join(outside, 'secret.txt');
  writeFileSync(secret, 'TOP-SECRET-CONTENT');
});
after(async () => {
  await runCli(['sessions', 'stop', 'attacker'], { env: { GSTACK_HOME: join(work, 'home-1-2') } });
});

const lit = (s: string) => JSON.stringify(s);
/** A call in a session of its own (served by its session host, as by default). */
const run = (script: string, extra: string[] = []) => runCli(['run', script, '--session', 'attacker', ...extra], { cwd: work, env: { GSTACK_HOME: join(work, 'home-1-2'), GSTACK_HOUSEKEEPING: '0' } });

/** Runs each attempt in its own try/catch and prints `<name> refused: <message>` or
 * `<name> ALLOWED`; the page content is then checked for leaked file text. */
function attempts(entries: Record<string, string>): string {
  return Object.entries(entries)
    .map(([name, body]) => `try { await (async () => { ${body} })(); console.log(${lit(name)} + " ALLOWED"); } catch (e) { console.log(${lit(name)} + " refused: " + e.message); }`)
    .join('\n');
}

test('1. writes outside pwd through every object reachable from a Page are refused', { timeout: 120_000 }, async () => {
  const p = (name: string) => lit(join(outside, name));
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    ${attempts({
      elementHandleShot: `await (await pg.$("body")).screenshot({ path: ${p('a.png')} })`,
      frameBackRefShot: `await pg.mainFrame().page().screenshot({ path: ${p('b.png')} })`,
      locatorShot: `await pg.locator("body").screenshot({ path: ${p('c.png')} })`,
      contextStorageState: `await pg.context().storageState({ path: ${p('cookies.json')} })`,
      requestStorageState: `await pg.context().request.storageState({ path: ${p('req.json')} })`,
      pagePdf: `await pg.pdf({ path: ${p('d.pdf')} })`,
      tracing: `await pg.context().tracing.start({ screenshots: false }); await pg.context().tracing.stop({ path: ${p('trace.zip')} })`,
      relativeEscape: `await pg.screenshot({ path: "../../escape.png" })`,
      cdpDownloads: `await pg._sendToTarget("Page.setDownloadBehavior", { behavior: "allow", downloadPath: ${lit(outside)} })`,
    })}
    await pg.screenshot({ path: "inside.png" });
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const name of ['elementHandleShot', 'frameBackRefShot', 'locatorShot', 'contextStorageState', 'requestStorageState', 'pagePdf', 'tracing', 'relativeEscape']) {
    assert.match(r.stdout, new RegExp(`^${name} refused: .*may only read and write inside pwd`, 'm'), `${name}\n${r.stdout}`);
  }
  // The browser would write downloads there by itself: the CDP method is refused outright.
  assert.match(r.stdout, /^cdpDownloads refused: Page\.setDownloadBehavior is not available in a flow script: .*download\.saveAs/m);
  assert.deepEqual(readdirSync(outside), ['secret.txt'], 'nothing was written outside pwd');
  assert.ok(!r.stdout.includes(' ALLOWED'), r.stdout);
});

test('2. local files cannot be handed to a page: uploads, fulfilled routes, init scripts, file: URLs, raw CDP', { timeout: 120_000 }, async () => {
  const r = await run(`
    const pg = await openTab(${lit(site.url + 'form.html')});
    await pg.setContent('<input type=file id=f>');
    ${attempts({
      locatorUpload: `await pg.locator("#f").setInputFiles(${lit(secret)})`,
      pageUpload: `await pg.setInputFiles("#f", [${lit(secret)}])`,
      handleUpload: `await (await pg.$("#f")).setInputFiles(${lit(secret)})`,
      // The refusal happens inside the route handler: it aborts the request and reports it.
      routeFulfill: `let why = "not refused"; await pg.route("**/leak", async (route) => { try { await route.fulfill({ path: ${lit(secret)} }); } catch (e) { why = e.message; await route.abort(); } }); const t = await pg.evaluate(() => fetch("/leak").then((r) => r.text()).catch(() => "failed")); if (t.includes("TOP-SECRET")) throw new Error("NOT REFUSED: " + t); throw new Error(why);`,
      initScriptPath: `await pg.addInitScript({ path: ${lit(secret)} })`,
      scriptTagPath: `await pg.addScriptTag({ path: ${lit(secret)} })`,
      openTabFile: `await openTab(${lit('file://' + secret)})`,
      gotoFile: `await pg.goto(${lit('file://' + secret)})`,
      viewSource: `await pg.goto(${lit('view-source:file://' + secret)})`,
      cdpNavigate: `await pg._sendToTarget("Page.navigate", { url: ${lit('file://' + secret)} })`,
      cdpFileInput: `const doc = await pg._sendToTarget("DOM.getDocument", {}); const q = await pg._sendToTarget("DOM.querySelector", { nodeId: doc.root.nodeId, selector: "#f" }); await pg._sendToTarget("DOM.setFileInputFiles", { nodeId: q.nodeId, files: [${lit(secret)}] })`,
      cdpSession: `const s = await pg.context().newCDPSession(pg); await s.send("Page.navigate", { url: ${lit('file://' + secret)} })`,
    })}
    // A page that navigates itself to file: (renderer-initiated) is blocked by Chromium.
    await pg.evaluate((u) => { location.href = u; }, ${lit('file://' + secret)}).catch(() => {});
    await sleep(300);
    const content = await pg.content();
    console.log("LEAKED=" + content.includes("TOP-SECRET"));
    const files = await pg.evaluate(() => document.getElementById("f")?.files?.length ?? 0);
    console.log("FILES=" + files);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const name of ['locatorUpload', 'pageUpload', 'handleUpload', 'routeFulfill', 'initScriptPath', 'scriptTagPath', 'cdpFileInput']) {
    assert.match(r.stdout, new RegExp(`^${name} refused: .*may only read and write inside pwd`, 'm'), `${name}\n${r.stdout}`);
  }
  for (const name of ['openTabFile', 'gotoFile', 'viewSource', 'cdpNavigate', 'cdpSession']) {
    assert.match(r.stdout, new RegExp(`^${name} refused: Refused to open .*file: URLs are off.*--allow-file-urls`, 'm'), `${name}\n${r.stdout}`);
  }
  assert.match(r.stdout, /^LEAKED=false$/m);
  assert.match(r.stdout, /^FILES=0$/m);
  assert.ok(!r.stdout.includes('TOP-SECRET'), 'no local file text in the output');
});

test('2. files inside pwd still work for uploads and routes; --allow-file-urls lets a call open file: URLs', { timeout: 120_000 }, async () => {
  const r = await run(`
    await fs.writeFile("upload.txt", "mine");
    const pg = await openTab(${lit(site.url + 'form.html')});
    await pg.setContent('<input type=file id=f>');
    await pg.locator("#f").setInputFiles("upload.txt");
    console.log("FILES=" + await pg.evaluate(() => document.getElementById("f").files[0].name));
    const tab = await openTab(${lit('file://' + secret)});
    console.log("FILE_TEXT=" + (await tab.content()).includes("TOP-SECRET-CONTENT"));
    console.log("GSTACK_STEP_OK");`, ['--allow-file-urls']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^FILES=upload\.txt$/m);
  assert.match(r.stdout, /^FILE_TEXT=true$/m, 'allowed for this call only');
  const next = await run(`await openTab(${lit('file://' + secret)}); console.log("GSTACK_STEP_OK");`);
  assert.equal(next.code, 1, 'the next call without the flag refuses again');
  assert.match(next.lines.at(-1) ?? '', /file: URLs are off/);
  assert.ok(!existsSync(join(outside, 'upload.txt')));
});


// ---- Item 3: the check-then-use race in the script's fs ----

test('3. a process swapping a dir for a symlink in a tight loop never gets any fs method outside pwd', { skip: process.platform !== 'linux' && 'the race-free walk needs /proc/self/fd (Linux); elsewhere a narrower race remains (README)' }, async () => {
  const base = fresh('race');
  const pwd = join(base, 'pwd');
  const outside = join(base, 'outside');
  mkdirSync(join(pwd, 'd'), { recursive: true });
  mkdirSync(join(outside, 'victim-dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE');
  writeFileSync(join(outside, 'victim.txt'), 'keep');
  writeFileSync(join(pwd, 'src.txt'), 'src');
  const fs = createConfinedFs(pwd);
  const leaks: string[] = [];
  const swapper = startSwapper(join(pwd, 'd'), outside);
  let rounds = 0;
  try {
    const ignore = () => undefined;
    // At least 1.5 s and 100 rounds (a loaded machine gets fewer per second), at most 10 s.
    for (const started = Date.now(); (Date.now() - started < 1500 || rounds < 100) && Date.now() - started < 10_000; rounds++) {
      const i = rounds;
      await Promise.all([
        fs.writeFile(`d/w${i}.txt`, 'x').catch(ignore),
        fs.appendFile('d/a.txt', 'x').catch(ignore),
        fs.mkdir(`d/m${i}`).catch(ignore),
        fs.copyFile('src.txt', `d/c${i}.txt`).catch(ignore),
        fs.writeFile(`r${i}.txt`, 'r').then(() => fs.rename(`r${i}.txt`, `d/r${i}.txt`)).catch(ignore),
        fs.readFile('d/secret.txt', 'utf8').then((s) => leaks.push(`readFile read ${s}`), ignore),
        fs.readdir('d').then((l) => l.includes('secret.txt') && leaks.push('readdir listed outside'), ignore),
        fs.stat('d/secret.txt').then(() => leaks.push('stat saw outside'), ignore),
        fs.access('d/secret.txt').then(() => leaks.push('access saw outside'), ignore),
        fs.unlink('d/victim.txt').catch(ignore),
        fs.rm('d/victim-dir', { recursive: true }).catch(ignore),
      ]);
    }
  } finally {
    await swapper.stop();
  }
  assert.ok(rounds > 20, `too few rounds to mean anything (${rounds})`);
  assert.deepEqual(leaks, []);
  assert.deepEqual(readdirSync(outside).sort(), ['secret.txt', 'victim-dir', 'victim.txt'], 'something landed outside pwd, or was removed there');
  assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'OUTSIDE');
  assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'keep');
});

test('3. pg.screenshot({ path }) under the same attack never writes outside pwd', { skip: process.platform !== 'linux' && 'needs /proc/self/fd (Linux)' }, async () => {
  const base = fresh('shot-race');
  const pwd = join(base, 'pwd');
  const outside = join(base, 'outside');
  mkdirSync(join(pwd, 'd'), { recursive: true });
  mkdirSync(outside);
  const { chromium } = await import('playwright-core');
  const { findChromium, chromiumArgs } = await import('../driver/browser/chromium-find.js');
  const { Tabs } = await import('../driver/runtime/tabs.js');
  const browser = await chromium.launch({ executablePath: findChromium().path, args: chromiumArgs() });
  const swapper = startSwapper(join(pwd, 'd'), outside);
  try {
    const tabs = new Tabs(await browser.newContext(), { pwd, onLine: () => undefined });
    const pg = await tabs.open(`${site.url}index.html`);
    // Until a few got through the swaps (refused ones are fine), at most 60 tries.
    let written = 0;
    for (let i = 0; i < 60 && written < 4; i++) {
      await pg.screenshot({ path: `d/shot${i}.png` }).then(() => written++, () => undefined);
    }
    await swapper.stop();
    assert.deepEqual(readdirSync(outside), [], 'a screenshot landed outside pwd');
    // On a loaded machine every try can fall in the swapper's window and be refused, which is
    // the point; one taken after the race proves the refusals were the race's, not a broken path.
    if (written === 0) {
      await pg.screenshot({ path: 'd/after-race.png' });
      written++;
    }
    assert.equal(filesUnder(pwd).filter((f) => f.endsWith('.png')).length, written, 'every screenshot reported written is in pwd');
  } finally {
    await swapper.stop();
    await browser.close();
  }
});

// ---- Item 4: page text never drives the terminal ----

const BOOM_PAGE = `<!doctype html><title>boom</title><script>
  const ESC = '\\u001b', BEL = '\\u0007';
  window.evil = 'boom-start ' + ESC + ']0;pwned-title' + BEL + ESC + '[2J' + '\\n[error] forged line' + ' \\u009d0;8bit-title\\u009c \\u009b2J \\u202egnp.exe\\u202c \\u2066iso\\u2069 \\u0085nel';
  window.boom = () => { throw new Error(window.evil); };
  window.evilValue = () => window.evil;
</script>`;

test('4. render: an --eval that throws page text, --wait-expr\'s last error and EVAL values reach the terminal clean', async () => {
  const dir = fresh('term-render');
  writeFileSync(join(dir, 'boom.html'), BOOM_PAGE);
  const thrown = await gstack(['render', 'boom.html', '--eval', 'boom()'], { cwd: dir });
  assert.equal(thrown.code, 1, thrown.stdout + thrown.stderr);
  assert.match(thrown.lines.at(-1)!, /^\[error\] .*the expression threw in the page: Error: boom-start/);
  assertTerminalSafe(thrown, 'render --eval boom()');
  assert.equal(thrown.lines.filter((l) => l.startsWith('[error]')).length, 1, 'the page forged a second [error] line');

  const waited = await gstack(['render', 'boom.html', '--wait-expr', 'boom()', '--wait-timeout', '3000', '--eval', '1'], { cwd: dir });
  assert.equal(waited.code, 1, waited.stdout + waited.stderr);
  assert.match(waited.lines.at(-1)!, /--wait-expr never became truthy .*last error: Error: boom-start/);
  assertTerminalSafe(waited, 'render --wait-expr');

  const value = await gstack(['render', 'boom.html', '--eval', 'evilValue()'], { cwd: dir });
  assert.equal(value.code, 0, value.stdout + value.stderr);
  // JSON-quoted, the ESC and BEL would read `\u001b` and `\u0007`, which jq -r decodes back into
  // controls: the filter cuts the written-out escape as it cuts the character; C1 and bidi
  // (which JSON leaves raw) are filtered as ever.
  assert.ok(value.stdout.includes('EVAL 1: "boom-start \uFFFD]0;pwned-title\uFFFD'), value.stdout);
  assert.ok(value.stdout.includes('\uFFFDgnp.exe\uFFFD'), value.stdout);
  assertTerminalSafe(value, 'render EVAL line');
});

test('4. run: C1 controls, 8-bit sequences and bidi overrides in page text are filtered from every line (and from --json)', async () => {
  const script = `const pg = await openTab("${site.url}terminal.html");
    const t = await pg.textContent("#text");
    console.log("TEXT=" + t);
    console.log("HAS_C1=" + /[\\u0080-\\u009f]/.test(t) + " HAS_BIDI=" + /[\\u202a-\\u202e\\u2066-\\u2069]/.test(t));
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`;
  const r = await gstack(['run', script, '--session', 'term']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /HAS_C1=true HAS_BIDI=true/, 'the page did not produce the hostile text');
  // A whole sequence and a lone control or override each show as one U+FFFD; CR ends the line.
  assert.match(r.stdout, /TEXT=osc8:\uFFFD csi8:\uFFFD nel:\uFFFD bidi:\uFFFDfdp\.exe\uFFFD isolate:\uFFFDx\uFFFD osc7:\uFFFD cr:\nend\n/);
  assertTerminalSafe(r, 'gstack run');
  const j = await gstack(['run', script, '--session', 'term', '--json']);
  assertTerminalSafe(j, 'gstack run --json');
  assert.equal(JSON.parse(j.stdout).exitCode, 0);
});

test('4. sessions list and diagram: a session key and a mermaid error carrying controls are filtered on stdout and stderr', async () => {
  const home = fresh('term-home');
  const key = 'evil\u202e\u009d0;t\u009c\u001b]0;x\u0007-key';
  const run = await gstack(['run', 'console.log("GSTACK_STEP_OK")', '--session', key], { env: { GSTACK_HOME: home } });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const list = await gstack(['sessions', 'list'], { env: { GSTACK_HOME: home } });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /SESSION evil.*-key/);
  assertTerminalSafe(list, 'sessions list');

  const dir = fresh('term-diagram');
  writeFileSync(join(dir, 'bad.mmd'), 'flowchart TD\n  A --> \u001b]0;pwned\u0007\u009b2J\u202e((B\n');
  const d = await gstack(['diagram', 'bad.mmd', '--svg', 'out.svg'], { cwd: dir });
  assert.equal(d.code, 1, d.stdout + d.stderr);
  assert.match(d.stderr, /bad\.mmd/);
  assertTerminalSafe(d, 'diagram');
});

// ---- Item 5: the render server never serves dotfiles; a wide root is said ----

test('5. a page rendered from a home-like directory cannot fetch .ssh/id_ed25519 or .git/config; the wide root is said on stderr', async () => {
  const home = fresh('fake-home');
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  mkdirSync(join(home, 'proj', '.git'), { recursive: true });
  writeFileSync(join(home, 'proj', '.git', 'config'), '[core]');
  writeFileSync(join(home, 'proj', '.env'), 'TOKEN=1');
  writeFileSync(join(home, 'notes.txt'), 'plain');
  symlinkSync(join(home, '.ssh', 'id_ed25519'), join(home, 'key-link'));
  writeFileSync(join(home, 'page.html'), '<!doctype html><title>p</title>');
  const probe = (p: string) => `fetch(${JSON.stringify(p)}).then((r) => r.status)`;
  const r = await gstack(
    ['render', 'page.html', '--eval', probe('.ssh/id_ed25519'), '--eval', probe('proj/.git/config'), '--eval', probe('proj/.env'), '--eval', probe('key-link'), '--eval', probe('notes.txt')],
    { cwd: home, env: { HOME: home } },
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  for (const [i, status] of [[1, 404], [2, 404], [3, 404], [4, 404], [5, 200]]) assert.match(r.stdout, new RegExp(`EVAL ${i}: ${status}\\b`), `EVAL ${i}`);
  assert.match(r.stderr, /the served root .* is your home directory; the page can fetch every file under it except dot-paths/);
});

test('5. serving / or a directory above the file\'s project is said; the file\'s own directory is not', async () => {
  const base = fresh('wide-root');
  mkdirSync(join(base, 'proj', 'docs'), { recursive: true });
  writeFileSync(join(base, 'proj', 'package.json'), '{}');
  writeFileSync(join(base, 'proj', 'docs', 'page.html'), '<!doctype html><title>p</title>');
  const above = await gstack(['render', 'proj/docs/page.html', '--serve-root', '.', '--eval', '1'], { cwd: base });
  assert.equal(above.code, 0, above.stderr);
  assert.match(above.stderr, new RegExp(`is above the project the file belongs to \\(${join(base, 'proj').replace(/[/\\.]/g, '\\$&')}\\)`));
  const root = await gstack(['render', join(base, 'proj/docs/page.html'), '--serve-root', '/', '--eval', '1'], { cwd: base });
  assert.equal(root.code, 0, root.stderr);
  assert.match(root.stderr, /the served root \/ is the file system root/);
  const own = await gstack(['render', 'proj/docs/page.html', '--eval', '1'], { cwd: base });
  assert.equal(own.code, 0, own.stderr);
  assert.doesNotMatch(own.stderr, /served root/);
});

// ---- Item 6: redaction ----

test('6. snapshots redact secret-looking fields by name and autocomplete, not look-alikes; pg.content() has no prefilled password', async () => {
  const r = await gstack(['run', `const pg = await openTab("${site.url}secrets.html");
    await pg.fill('[name="userPassword"]', "typed-secret-10");
    const s = await snapshot(pg);
    console.log("TREE_START"); console.log(s.tree); console.log("TREE_END");
    const html = await pg.content();
    console.log("HTML_LEN=" + html.length + " HAS_FORM=" + html.includes("<form"));
    console.log(html);
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`, '--session', 'redact']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /HAS_FORM=true/);
  for (const secret of ['prefilled-secret-1', 'secret-userPassword-2', 'typed-secret-10', 'secret-accessToken-3', 'secret-passwordConfirm-4', 'secret-pwd-5', '492817', 'secret-apiKey-6', 'secret-otc-7', '4111111111111111', 'secret-newpw-8', 'secret-privateKey-9', '4321']) {
    assert.ok(!r.stdout.includes(secret), `leaked ${secret}`);
  }
  for (const innocent of ['ada-lovelace', 'innocent-pineapple', 'innocent-passenger', 'innocent-compass', 'innocent-topic']) {
    assert.ok(r.stdout.includes(innocent), `over-redacted ${innocent}`);
  }
  assert.match(r.stdout, /textbox "Current" \[ref=e\d+\]: \[redacted\]/);
  assert.match(r.stdout, /value="\[redacted\]"/);
});

// ---- Item 7: owner-only files under GSTACK_HOME ----

test('7. a loose pre-existing GSTACK_HOME, its subdirs, a stale housekeeping stamp and a --profile DIR end up 0700/0600', async () => {
  const home = fresh('loose-home');
  for (const sub of ['profiles', 'sessions', 'artifacts']) mkdirSync(join(home, sub), { mode: 0o777 });
  chmodSync(home, 0o755);
  for (const sub of ['profiles', 'sessions', 'artifacts']) chmodSync(join(home, sub), 0o777);
  writeFileSync(join(home, '.last-housekeeping'), 'old\n', { mode: 0o644 });
  const twoDaysAgo = (Date.now() - 2 * 86400e3) / 1000;
  utimesSync(join(home, '.last-housekeeping'), twoDaysAgo, twoDaysAgo);
  const profile = join(fresh('loose-profile'), 'profile');
  mkdirSync(profile, { mode: 0o777 });
  chmodSync(profile, 0o777);
  const script = `const pg = await openTab("${site.url}set-cookie?name=sid&value=v1");
    await pg.screenshot({ path: "shot.png" }); await fs.writeFile("notes/a.txt", "a");
    await closeTab(pg); console.log("GSTACK_STEP_OK");`;
  const a = await gstack(['run', script, '--session', 'perm'], { env: { GSTACK_HOME: home, GSTACK_HOUSEKEEPING: '1' } });
  assert.equal(a.code, 0, a.stdout + a.stderr);
  const b = await gstack(['run', script, '--session', 'perm2', '--profile', profile], { env: { GSTACK_HOME: home } });
  assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.deepEqual(looseModes(home), [], 'GSTACK_HOME holds something other users can read');
  assert.deepEqual(looseModes(profile), [], '--profile DIR holds something other users can read');
});

test('7. a directory under GSTACK_HOME that is not ours is reported (what, and what to do), not changed', { skip: process.getuid?.() !== 0 && 'needs root to hand a directory to another user' }, async () => {
  const home = fresh('foreign-home');
  chmodSync(home, 0o700);
  mkdirSync(join(home, 'profiles'), { mode: 0o755 });
  chmodSync(join(home, 'profiles'), 0o755);
  chownSync(join(home, 'profiles'), 65534, 65534);
  const r = await gstack(['sessions', 'list'], { env: { GSTACK_HOME: home } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, new RegExp(`gstack: ${join(home, 'profiles').replace(/[/\\.]/g, '\\$&')} is readable by other users \\(mode 0755, owned by uid 65534, not by this user\\).*chmod 700`));
  assert.equal(statSync(join(home, 'profiles')).mode & 0o777, 0o755);
});

// ---- Item 8: raw library text in errors ----

test('8. a malformed import-cookies file: one [error] line, no call log, no ANSI; the library path too', async () => {
  const dir = fresh('cookies');
  writeFileSync(join(dir, 'bad.json'), JSON.stringify({ cookies: [{ name: 'sid', value: 'VALUE-NEVER-PRINTED', domain: 'example.com', path: '/' }], origins: [{ origin: 'notaurl', localStorage: [{ name: 'a', value: 'b' }] }] }));
  const r = await gstack(['sessions', 'import-cookies', join(dir, 'bad.json'), '--session', 'cookies']);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  const lines = (r.stdout + r.stderr).split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `expected one line:\n${r.stdout}${r.stderr}`);
  assert.match(lines[0], /^\[error\] .*bad\.json: origin #1: not an http\(s\) origin/);
  assertTerminalSafe(r, 'import-cookies');
  assert.ok(!lines[0].includes('VALUE-NEVER-PRINTED'));

  // What the parser does not catch is refused by the browser: still one line.
  const { importIntoProfile } = await import('../driver/profiles/cookies.js');
  const profile = fresh('cookies-profile');
  const err = await importIntoProfile(
    { format: 'storageState', cookies: [], origins: [{ origin: 'notaurl', localStorage: [{ name: 'a', value: 'b' }] }] },
    { paths: { profileDir: join(profile, 'p'), sessionDir: join(profile, 's') }, key: 'k', lockTimeoutMs: 5000 },
  ).then(() => undefined, (e: Error) => e);
  assert.ok(err, 'the browser accepted an origin that is not a URL');
  assert.match(err.message, /^the browser refused the import: .*invalid URL/i);
  assert.ok(!/\n|Call log|\u001b/.test(err.message), JSON.stringify(err.message));
});
