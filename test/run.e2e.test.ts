// Live end-to-end tests of `gstack run` on the Chromium engine: a real Chromium driving the
// fixture site on 127.0.0.1, through the compiled CLI exactly as an agent calls it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { BIN, runCli, tempHome } from './helpers/cli.js';
import { processesMentioning } from './helpers/processes.js';

let site: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  home = tempHome();
});
after(async () => {
  await site.close();
});

const run = (script: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  runCli(['run', script, '--session', 'e2e', ...extra], { env: { GSTACK_HOME: home, ...env } });
/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const net = await import('node:net');
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as import('node:net').AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}
const last = (lines: string[]) => lines[lines.length - 1];

test('form flow: interactive snapshot, act by ref, password value never printed', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}form.html");
    await pg.fill("#pass", "hunter2-secret");
    await pg.fill("#otp", "918273");
    const s = await snapshot(pg, { interactive: true });
    console.log(s.tree);
    const user = s.tree.split("\\n").find((l) => l.includes('textbox "Username"'));
    const ref = /ref=(e\\d+)/.exec(user)[1];
    await pg.locator(ref).fill("ada");
    await pg.locator("@" + /ref=(e\\d+)/.exec(s.tree.split("\\n").find((l) => l.includes('button "Sign in"')))[1]).click();
    await pg.waitForURL("**/form.html?done=1");
    const after = await snapshot(pg, { interactive: true });
    console.log("DIFF_START"); console.log(after.diff); console.log("DIFF_END");
    console.log("URL=" + pg.url());
    console.log("RESULT=" + await pg.textContent("#result"));
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /- textbox "Password" \[ref=e\d+\]: \[redacted\]/);
  assert.ok(!r.stdout.includes('hunter2-secret'), 'password value leaked');
  assert.ok(!r.stdout.includes('918273'), 'one-time code leaked');
  assert.match(r.stdout, /URL=.*form\.html\?done=1/);
  assert.match(r.stdout, /RESULT=Welcome, ada/);
  assert.equal(last(r.lines), 'GSTACK_STEP_OK');
});

test('snapshot options: depth limits nesting, selector snapshots one element, compact drops wrappers; bad options say so', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}form.html");
    const full = await snapshot(pg);
    const shallow = await snapshot(pg, { depth: 0 });
    const form = await snapshot(pg, { selector: "form" });
    const compact = await snapshot(pg, { compact: true });
    console.log("FULL_LINES=" + full.tree.split("\\n").length);
    console.log("DEPTH0=" + JSON.stringify(shallow.tree.split("\\n").map((l) => l.match(/^ */)[0].length)));
    console.log("FORM_HAS_HEADING=" + form.tree.includes("heading"));
    console.log("FORM_HAS_BUTTON=" + form.tree.includes('button "Sign in"'));
    console.log("COMPACT_GENERIC=" + /- generic \\[ref=e\\d+\\]:?$/m.test(compact.tree));
    console.log("FULL_GENERIC=" + /- generic( \\[active\\])? \\[ref=e\\d+\\]:?$/m.test(full.tree));
    try { await snapshot(pg, { depth: -1 }); } catch (e) { console.log("BAD_DEPTH=" + e.message); }
    try { await snapshot(pg, { selector: "#nope" }); } catch (e) { console.log("BAD_SELECTOR=" + e.message); }
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(Number(/FULL_LINES=(\d+)/.exec(r.stdout)![1]) > 5);
  assert.deepEqual(JSON.parse(/DEPTH0=(.*)/.exec(r.stdout)![1]).filter((n: number) => n > 0), []);
  assert.match(r.stdout, /FORM_HAS_HEADING=false/);
  assert.match(r.stdout, /FORM_HAS_BUTTON=true/);
  assert.match(r.stdout, /FULL_GENERIC=true/);
  assert.match(r.stdout, /COMPACT_GENERIC=false/);
  assert.match(r.stdout, /BAD_DEPTH=snapshot option depth must be a whole number/);
  assert.match(r.stdout, /BAD_SELECTOR=snapshot: no element matched selector "#nope" within 5 s — if the page is still drawing, wait for it first/);
});

test('a selector snapshot whose first match is hidden says so and names :visible, instead of printing nothing (trial V6)', async () => {
  site.setPage('/two-dialogs.html', '<title>D</title><div role="dialog" aria-label="Old" style="display:none"><button>Hidden one</button></div><div role="dialog" aria-label="Open"><button>Visible one</button></div><div id="gone" hidden><button>x</button></div>');
  const r = await run(`
    const pg = await openTab("${site.url}two-dialogs.html");
    console.log("FIRST=" + (await snapshot(pg, { selector: "[role=dialog]" })).tree);
    console.log("SHOWN=" + (await snapshot(pg, { selector: "[role=dialog]:visible", interactive: true })).tree.split("\\n").join("|"));
    console.log("ONE=" + (await snapshot(pg, { selector: "#gone" })).tree);
    // Two shown, the first with nothing to list in interactive mode (trial V17).
    await pg.evaluate(() => document.body.insertAdjacentHTML("afterbegin", '<div class="box"><p>no controls</p></div><div class="box"><button>Go</button></div>'));
    console.log("EMPTY=" + (await snapshot(pg, { selector: ".box", interactive: true })).tree);
    console.log("LAST=" + (await snapshot(pg, { selector: ".box >> nth=-1", interactive: true })).tree);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^FIRST=\[selector "\[role=dialog\]" took its first match, which is hidden \(2 matches in all\): add :visible to take the one shown, "\[role=dialog\]:visible"\]$/m);
  // An open dialog keeps its line in an interactive snapshot, its controls under it.
  assert.match(r.stdout, /^SHOWN=- dialog "Open" \[ref=e\d+\]:\|  - button "Visible one" \[ref=e\d+\]$/m);
  assert.match(r.stdout, /^ONE=\[selector "#gone" matches one element, which is hidden: open what shows it first, or take a full snapshot\]$/m);
  assert.match(r.stdout, /^EMPTY=\[selector "\.box" took its first match of 2, which has nothing to list here: name the one you mean \("\.box >> nth=-1" is the last one, often the one opened last\), or take a full snapshot\]$/m);
  assert.match(r.stdout, /^LAST=- button "Go" \[ref=e\d+\]$/m);
});

test('SPA re-render: a stale ref fails fast naming the element it was', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}spa.html");
    const s = await snapshot(pg, { interactive: true });
    const addRef = /button "Add" \\[ref=(e\\d+)\\]/.exec(s.tree)[1];
    const inputRef = /textbox "New item" \\[ref=(e\\d+)\\]/.exec(s.tree)[1];
    await pg.locator(inputRef).fill("Gamma");
    await pg.locator(addRef).click();
    const t = Date.now();
    try { await pg.locator(addRef).click(); console.log("NO_ERROR"); }
    catch (e) { console.log("STALE_MS=" + (Date.now() - t)); console.log("STALE=" + e.message); }
    const s2 = await snapshot(pg);
    console.log("DIFF_START"); console.log(s2.diff); console.log("DIFF_END");
    await pg.locator(addRef).click();
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 1);
  assert.ok(!r.stdout.includes('NO_ERROR'));
  const ms = Number(/STALE_MS=(\d+)/.exec(r.stdout)?.[1]);
  assert.ok(ms < 1000, `stale ref took ${ms} ms`);
  assert.match(r.stdout, /STALE=Ref e\d+ is stale — the element \(button "Add"\) no longer exists\. Take a new snapshot\./);
  assert.match(last(r.lines), /^\[error\] Ref e\d+ is stale — the element \(button "Add"\) no longer exists/);
  assert.ok(!r.stdout.includes('GSTACK_STEP_OK'));
});

test('iframe and open shadow root are in the snapshot; frame refs and shadow refs act', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}frames.html");
    const s = await snapshot(pg);
    console.log(s.tree);
    const fref = /button "Inner button" \\[ref=(f\\d+e\\d+)\\]/.exec(s.tree)[1];
    await pg.locator(fref).click();
    console.log("INNER=" + await pg.frameLocator("iframe").locator("button").textContent());
    const sh = await openTab("${site.url}shadow.html");
    const t = (await snapshot(sh, { interactive: true })).tree;
    await sh.locator(/button "Shadow button" \\[ref=(e\\d+)\\]/.exec(t)[1]).click();
    console.log("SHADOW=" + (await snapshot(sh)).tree.includes("Shadow clicked"));
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /iframe/);
  assert.match(r.stdout, /heading "Inner heading"/);
  assert.match(r.stdout, /INNER=Inner clicked/);
  assert.match(r.stdout, /SHADOW=true/);
});

test('console errors on load are captured by a hook installed with _sendToTarget before goto', async () => {
  const r = await run(`
    const pg = await openTab();
    await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: "window.__errs = []; addEventListener('error', (e) => __errs.push(e.message)); const ce = console.error; console.error = (...a) => { __errs.push(a.join(' ')); ce.apply(console, a); };" });
    await pg.goto("${site.url}console-error.html");
    await pg.waitForFunction(() => window.__errs.length >= 2);
    console.log("CONSOLE_ERRORS=" + JSON.stringify(await pg.evaluate(() => window.__errs)));
    const v = await pg._sendToTarget("Runtime.evaluate", { expression: "6 * 7", returnByValue: true });
    console.log("CDP=" + v.result.value);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /CONSOLE_ERRORS=.*early console error from head/);
  assert.match(r.stdout, /CONSOLE_ERRORS=.*uncaught boom on load/);
  assert.match(r.stdout, /CDP=42/);
});

// Pass 39 (A39): console.log of a Response printed {} while an agent debugged.
test('console.log of a Playwright object names its class and what to print of it, alone or inside an object', async () => {
  const r = await run(`
    const pg = await openTab();
    const resp = await pg.goto("${site.url}");
    console.log(resp);
    console.log({ resp, req: resp.request(), loc: pg.locator("h1") });
    console.log("TAG " + Object.prototype.toString.call(pg));
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^<Response: a Playwright object; print its values, e\.g\. resp\.status\(\), resp\.url\(\)/m);
  assert.match(r.stdout, /\{"resp":"<Response: [^"]*>","req":"<Request: [^"]*req\.method\(\)[^"]*>","loc":"<Locator: [^"]*>"\}/);
  assert.match(r.stdout, /^TAG \[object Playwright Page\]$/m);
});

// IndexedDB is what the skills say lasts beyond cookies and storage (an app's local database).
const IDB = `(mode, value) => new Promise((resolve, reject) => {
  const open = indexedDB.open("gstack-test", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("kv");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const tx = open.result.transaction("kv", mode);
    const req = mode === "readwrite" ? tx.objectStore("kv").put(value, "k") : tx.objectStore("kv").get("k");
    tx.oncomplete = () => resolve(mode === "readwrite" ? true : req.result ?? null);
    tx.onerror = () => reject(tx.error);
  };
})`;

test('cookies, localStorage and IndexedDB persist across two calls of one session; --ephemeral does not', async () => {
  const sess = ['--session', 'persist'];
  const a = await runCli(['run', `
    const pg = await openTab("${site.url}set-cookie?name=sid&value=persisted42");
    await pg.evaluate(() => localStorage.setItem("k", "local-v"));
    await pg.evaluate(([mode, value]) => (${IDB})(mode, value), ["readwrite", "idb-v"]);
    console.log("GSTACK_STEP_OK");`, ...sess], { env: { GSTACK_HOME: home } });
  assert.equal(a.code, 0, a.stdout + a.stderr);
  const probe = `
    const res = await fetch("${site.url}api/me");
    console.log("COOKIE_SEEN=" + (await res.json()).cookie.includes("sid=persisted42"));
    const pg = await openTab("${site.url}");
    console.log("LOCAL=" + await pg.evaluate(() => localStorage.getItem("k")));
    console.log("IDB=" + await pg.evaluate(([mode]) => (${IDB})(mode), ["readonly"]));
    console.log("GSTACK_STEP_OK");`;
  const b = await runCli(['run', probe, ...sess], { env: { GSTACK_HOME: home } });
  assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.match(b.stdout, /COOKIE_SEEN=true/);
  assert.match(b.stdout, /LOCAL=local-v/);
  assert.match(b.stdout, /IDB=idb-v/);
  const c = await runCli(['run', probe, ...sess, '--ephemeral'], { env: { GSTACK_HOME: home } });
  assert.equal(c.code, 0, c.stdout + c.stderr);
  assert.match(c.stdout, /COOKIE_SEEN=false/);
  assert.match(c.stdout, /LOCAL=null/);
  assert.match(c.stdout, /IDB=null/);
});

test('a session cookie set in a call (a login without "Remember me") outlasts the session\'s browser stopping and starting again (trial V16)', async () => {
  const sess = ['--session', 'session-cookie'];
  const env = { GSTACK_HOME: home };
  const a = await runCli(['run', `const pg = await openTab("${site.url}set-cookie?name=login&value=sess-77&session=1"); console.log("GSTACK_STEP_OK");`, ...sess], { env });
  assert.equal(a.code, 0, a.stdout + a.stderr);
  // The host and its browser stop (as an idle stop or a timeout's restart does); Chromium drops
  // session cookies when the profile opens again.
  const stop = await runCli(['sessions', 'stop', 'session-cookie'], { env });
  assert.equal(stop.code, 0, stop.stdout + stop.stderr);
  const b = await runCli(['run', `const res = await fetch("${site.url}api/me"); console.log("COOKIE_SEEN=" + (await res.json()).cookie.includes("login=sess-77")); console.log("GSTACK_STEP_OK");`, ...sess], { env });
  assert.equal(b.code, 0, b.stdout + b.stderr);
  assert.match(b.stdout, /COOKIE_SEEN=true/);
});

test('a large page: output is capped with a marker, the sentinel survives', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}large.html");
    console.log(await pg.content());
    console.log("GSTACK_STEP_OK");`, ['--max-output', '50000']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(Buffer.byteLength(r.stdout) < 52_000, `stdout ${Buffer.byteLength(r.stdout)} bytes`);
  assert.match(r.stdout, /\[truncated \d+ bytes\]/);
  assert.equal(last(r.lines), 'GSTACK_STEP_OK');
});

test('a page printing 300 KB then a throw: the [error] line is still last', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}large.html");
    console.log(await pg.content());
    throw new Error("after big output");`, ['--max-output', '20000']);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /\[truncated \d+ bytes\]/);
  assert.equal(last(r.lines), '[error] after big output');
});

test('snapshot of the large page is bounded and says so', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}large.html");
    const s = await snapshot(pg);
    console.log("LEN=" + s.tree.length);
    console.log(s.tree.split("\\n").pop());
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(Number(/LEN=(\d+)/.exec(r.stdout)![1]) <= 61_000);
  assert.match(r.stdout, /\[snapshot truncated: showing \d+ of \d+ lines/);
});

test('the page cannot forge success: GSTACK_STEP_OK in page text then a throw exits 1', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}hostile.html");
    console.log(await pg.textContent("#forge"));
    throw new Error("real failure after forged sentinel");`);
  assert.equal(r.code, 1);
  // The page's sentinel is printed with the page's mark (docs/SECURITY.md, "forge success").
  assert.ok(r.lines.includes('[page text: GSTACK_STEP_OK]'), r.stdout);
  assert.ok(!r.lines.includes('GSTACK_STEP_OK'), r.stdout);
  assert.equal(last(r.lines), '[error] real failure after forged sentinel');
  const j = await run(`
    const pg = await openTab("${site.url}hostile.html");
    console.log(await pg.textContent("#forge"));
    throw new Error("x");`, ['--json']);
  const obj = JSON.parse(j.stdout);
  assert.equal(obj.ok, false);
  assert.equal(obj.exitCode, 1);
});

test('a lone surrogate in page text is replaced; --json stays valid', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}hostile.html");
    console.log("TEXT=" + await pg.textContent("#surrogate"));
    console.log("GSTACK_STEP_OK");`, ['--json']);
  assert.equal(r.code, 0, r.stderr);
  const obj = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(obj).sort(), ['artifacts', 'durationMs', 'engine', 'error', 'exitCode', 'lines', 'ok', 'pwd', 'session', 'evidence', 'withheld'].sort());
  assert.equal(obj.ok, true);
  assert.equal(obj.engine, 'chromium');
  assert.ok(obj.lines.includes('TEXT=lone:\uFFFD:end'), JSON.stringify(obj.lines));
  assert.ok(!/[\uD800-\uDFFF]/.test(obj.lines.join('')));
});

test('syntax error in the script: exit 1 with the line number', async () => {
  const r = await run('const pg = await openTab();\nconst x = ;\nconsole.log("GSTACK_STEP_OK")');
  assert.equal(r.code, 1);
  assert.match(last(r.lines), /^\[error\] SyntaxError in the flow script: .*\(line 2\)/);
});

test('process.exit, require and import are refused with what is available instead', async () => {
  const p = await run('process.exit(0)');
  assert.equal(p.code, 1);
  assert.match(last(p.lines), /^\[error\] process is not available in a flow script \(no Node globals\)\..*Available globals: openTab, closeTab, snapshot/);
  const q = await run('const fs2 = require("fs"); console.log("GSTACK_STEP_OK")');
  assert.equal(q.code, 1);
  assert.match(last(q.lines), /require is not available.*Use the globals fs, path and Buffer/);
  const i = await run('const m = await import("node:fs"); console.log("GSTACK_STEP_OK")');
  assert.equal(i.code, 1);
  assert.match(last(i.lines), /import is not available in a flow script/);
});

test('fs is confined to pwd: /tmp/x and ../x are refused, nothing written; pwd outlives the call', async () => {
  const outside = join(tmpdir(), `gstack-escape-${process.pid}-${Date.now()}`);
  const r = await run(`
    await fs.writeFile("inside.txt", "ok");
    for (const p of [${JSON.stringify(outside)}, "../escape-${process.pid}.txt"]) {
      try { await fs.writeFile(p, "pwned"); console.log("WROTE " + p); }
      catch (e) { console.log("REFUSED " + e.message); }
    }
    console.log("PWD=" + pwd);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(!r.stdout.includes('WROTE'));
  assert.equal((r.stdout.match(/REFUSED fs refused/g) ?? []).length, 2);
  assert.ok(!existsSync(outside));
  const pwd = /PWD=(.*)/.exec(r.stdout)![1];
  assert.ok(!existsSync(join(pwd, '..', `escape-${process.pid}.txt`)));
  assert.equal(readFileSync(join(pwd, 'inside.txt'), 'utf8'), 'ok');
});

test('screenshot and pdf paths are confined to pwd too; relative paths land there', async () => {
  const outside = join(tmpdir(), `gstack-shot-escape-${process.pid}.png`);
  const r = await run(`
    const pg = await openTab("${site.url}");
    await pg.screenshot({ path: "rel/shot.png" });
    await pg.locator("h1").screenshot({ path: "h1.png" });
    try { await pg.screenshot({ path: ${JSON.stringify(outside)} }); console.log("WROTE"); }
    catch (e) { console.log("REFUSED " + e.message); }
    try { await pg.pdf({ path: "../escape.pdf" }); console.log("WROTE"); }
    catch (e) { console.log("REFUSED " + e.message); }
    try { await pg.pdf({ path: '../say "hi".pdf' }); console.log("WROTE"); }
    catch (e) { console.log("REFUSED " + e.message); }
    console.log("PWD=" + pwd);
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(!r.stdout.includes('WROTE'));
  assert.match(r.stdout, /REFUSED screenshot\(\{ path \}\) refused ".*": flow scripts may only read and write inside pwd/);
  assert.match(r.stdout, /REFUSED pdf\(\{ path \}\) refused "\.\.\/escape\.pdf"/);
  // A name with a quote is quoted as JSON once, not the fs's own message repeated after it.
  assert.match(r.stdout, /^REFUSED pdf\(\{ path \}\) refused "\.\.\/say \\"hi\\"\.pdf": flow scripts may only read and write inside pwd[^\n]*$/m);
  assert.doesNotMatch(r.stdout, /refused [^\n]*fs refused/);
  assert.ok(!existsSync(outside));
  const pwd = /PWD=(.*)/.exec(r.stdout)![1];
  assert.ok(existsSync(join(pwd, 'rel', 'shot.png')));
  assert.ok(existsSync(join(pwd, 'h1.png')));
  assert.ok(!existsSync(join(pwd, '..', 'escape.pdf')));
});

test('a reader that goes away early (| head -1) does not crash the call; its browser closes in order', async () => {
  const { spawn } = await import('node:child_process');
  const profile = mkdtempSync(join(tmpdir(), 'gstack-epipe-profile-'));
  const child = spawn(process.execPath, [BIN, 'run', `
    const pg = await openTab("${site.url}large.html");
    for (let i = 0; i < 200; i++) console.log("line " + i + " " + "x".repeat(4000));
    console.log("GSTACK_STEP_OK");`, '--profile', profile], { env: { ...process.env, GSTACK_HOME: home, GSTACK_SKIP_ASIDE: '1', GSTACK_NO_HOST: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled/);
  assert.deepEqual(await processesMentioning(`--user-data-dir=${profile}`), []);
});

test('a reader of both streams that goes away early (2>&1 | head -1) does not crash the call either', async () => {
  const { spawn } = await import('node:child_process');
  const profile = mkdtempSync(join(tmpdir(), 'gstack-epipe2-profile-'));
  const child = spawn(process.execPath, [BIN, 'run', `
    const pg = await openTab("${site.url}large.html");
    for (let i = 0; i < 200; i++) console.log("line " + i + " " + "x".repeat(4000));
    console.log("GSTACK_STEP_OK");`, '--profile', profile], { env: { ...process.env, GSTACK_HOME: home, GSTACK_SKIP_ASIDE: '1', GSTACK_TRACE: '1', GSTACK_NO_HOST: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  // GSTACK_TRACE=1 makes the call write to stderr all along; both readers vanish at once.
  child.stderr.once('data', () => {
    child.stderr.destroy();
    child.stdout.destroy();
  });
  const code = await new Promise((r) => child.on('close', r));
  assert.equal(code, 0);
  assert.deepEqual(await processesMentioning(`--user-data-dir=${profile}`), []);
});

test('a script that never ends: --timeout kills the browser, exit 1, no orphan process', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'gstack-timeout-profile-'));
  // 8 s: the deadline counts the start of a browser on a new profile, which took over 4 s on a
  // loaded CI machine (STARTED never printed); the deadline must end the script's own wait.
  const r = await runCli(['run', `const pg = await openTab("${site.url}"); console.log("STARTED"); await new Promise(() => {});`, '--profile', profile, '--timeout', '8000'], { env: { GSTACK_HOME: home } });
  assert.equal(r.code, 1);
  assert.ok(r.lines.includes('STARTED'), r.stdout + r.stderr);
  assert.match(last(r.lines), /^\[error\] The script did not finish within 8000 ms \(--timeout\)/);
  assert.doesNotMatch(last(r.lines), /It was waiting in/, 'its own promise is no Playwright call');
  assert.deepEqual(await processesMentioning(`--user-data-dir=${profile}`), []);
});

test('an unreachable URL says what to check', async () => {
  const port = await closedPort();
  const r = await run(`const pg = await openTab("http://127.0.0.1:${port}/"); console.log("GSTACK_STEP_OK")`);
  assert.equal(r.code, 1);
  assert.match(last(r.lines), new RegExp(`^\\[error\\] Could not load http://127\\.0\\.0\\.1:${port}/ \\(net::ERR_CONNECTION_REFUSED\\)\\. Nothing answered there: check that the server is running`));
});

test('element not found and ambiguous locators get next steps', async () => {
  const nf = await run(`const pg = await openTab("${site.url}form.html"); await pg.click("#nope", { timeout: 1500 }); console.log("GSTACK_STEP_OK")`);
  assert.equal(nf.code, 1);
  assert.match(last(nf.lines), /Element not found.*Take a snapshot.*ref/);
  const many = await run(`const pg = await openTab("${site.url}"); await pg.locator("a").click(); console.log("GSTACK_STEP_OK")`);
  assert.equal(many.code, 1);
  assert.match(last(many.lines), /^\[error\] The locator locator\('a'\) matched \d+ elements, so the action is ambiguous: 1\) <a .*; 2\) <a .*To act on one, narrow it .*act by its ref/);
});

test('a script that ends without the sentinel is not a success', async () => {
  const r = await run('const pg = await openTab(); console.log("done")');
  assert.equal(r.code, 1);
  assert.match(last(r.lines), /finished without printing GSTACK_STEP_OK/);
});

test('--out copies artifacts and prints ARTIFACT lines; annotatedScreenshot draws refs', async () => {
  const out = mkdtempSync(join(tmpdir(), 'gstack-out-'));
  const r = await run(`
    const pg = await openTab("${site.url}form.html");
    await pg.screenshot({ path: path.join(pwd, "form.png") });
    const { base64Image } = await annotatedScreenshot(pg);
    await fs.writeFile(path.join(pwd, "annotated.png"), Buffer.from(base64Image, "base64"));
    console.log("GSTACK_STEP_OK");`, ['--out', out]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual(readdirSync(out).sort(), ['annotated.png', 'form.png']);
  // The ARTIFACT lines come before the sentinel, which stays the last line.
  assert.deepEqual(r.lines.slice(-3), [`ARTIFACT ${join(out, 'annotated.png')}`, `ARTIFACT ${join(out, 'form.png')}`, 'GSTACK_STEP_OK']);
  const png = readFileSync(join(out, 'annotated.png'));
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.notDeepEqual(png, readFileSync(join(out, 'form.png')), 'annotated screenshot should differ from the plain one');
});

test('script from -f FILE and from stdin', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-script-'));
  const file = join(dir, 'flow.js');
  writeFileSync(file, `const pg = await openTab("${site.url}"); console.log("TITLE=" + await pg.title()); console.log("GSTACK_STEP_OK");`);
  const f = await runCli(['run', '-f', file, '--session', 'e2e'], { env: { GSTACK_HOME: home } });
  assert.equal(f.code, 0, f.stderr);
  assert.ok(f.lines.includes('TITLE=Fixture Home'));
  const s = await runCli(['run', '-', '--session', 'e2e'], { env: { GSTACK_HOME: home }, input: `console.log("FROM_STDIN"); console.log("GSTACK_STEP_OK")` });
  assert.equal(s.code, 0, s.stderr);
  assert.deepEqual(s.lines, ['FROM_STDIN', 'GSTACK_STEP_OK']);
});

test('usage errors exit 2; no Chromium exits 3 with the install command', async () => {
  const none = await runCli(['run'], { env: { GSTACK_HOME: home } });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /No script given/);
  const bad = await runCli(['run', 'x', '--no-such-flag'], { env: { GSTACK_HOME: home } });
  assert.equal(bad.code, 2);
  const missing = await runCli(['run', '-f', '/nonexistent/flow.js'], { env: { GSTACK_HOME: home } });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /Cannot read script file/);
  const noChrome = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--engine', 'chromium'], { env: { GSTACK_HOME: home, GSTACK_CHROMIUM: '/nonexistent/chrome' } });
  assert.equal(noChrome.code, 3);
  assert.match(last(noChrome.lines), /^\[error\] No Chromium found .*Install one with: .*apt-get install -y chromium/);
});

test('Aside-only globals fail on Chromium with what to do instead', async () => {
  const r = await run('await listBrowserTabs(); console.log("GSTACK_STEP_OK")');
  assert.equal(r.code, 1);
  assert.match(last(r.lines), /listBrowserTabs\(\) is only available on the Aside engine.*openTab\(url\)/);
});

test('dialogs: each one the runner handles is a DIALOG line; dismissed by default, the script can take over', async () => {
  const r = await run(`
    const pg = await openTab("${site.url}dialogs.html");
    await pg.click("#alert");
    await pg.click("#confirm");
    await pg.click("#prompt");
    console.log("DEFAULT " + await pg.title());
    pg.on("dialog", (d) => d.accept());
    await pg.click("#confirm");
    console.log("HANDLED " + await pg.title());
    console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  // The message is JSON-quoted: page text stays one inert line (the escape is spelled out).
  // A prompt's default value is what a person sees in its box (pass 29, A29).
  assert.deepEqual(r.lines.filter((l) => l.startsWith('DIALOG')), ['DIALOG alert "Saved \uFFFD[31mred"', 'DIALOG confirm "Delete?"', 'DIALOG prompt "Payment status" default "Status: OK"', 'DIALOG confirm "Delete?"']);
  assert.ok(r.lines.includes('DEFAULT confirm=false'), 'dismissed when the script does not listen');
  assert.ok(r.lines.includes('HANDLED confirm=true'), "the script's own handler decides");
  assert.ok(!r.stdout.includes('\u001b'), 'no raw escape reaches the output');
});
