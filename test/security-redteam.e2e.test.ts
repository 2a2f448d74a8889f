// Attacks from the red-team pass on the merged tree (issue 22's acceptance: fresh agents that saw
// only the docs tried to break docs/SECURITY.md's promises). Each is the script a careless agent
// would write; each failed before its fix.
// - ariaSnapshot() of a page or a locator printed a password field's value;
// - `--out DIR` copied files the page named (`.git/hooks/pre-commit`, `.envrc`) into DIR;
// - a secret field whose value held an `&` (`Tom&Jerry2024`) made every snapshot fail and its
//   copies print uncut: the HTML-reference decoder (an ES module package) failed to load in a
//   process whose code cache had replaced Node's compile for every require();
// - an <output> named "Verification code" or "API token" printed its value in snapshots and
//   the read and form shapes;
// - Buffer.allocUnsafe in a later call held memory of an earlier one (a password the snapshot
//   had cut, another call's file);
// - a GET form sent a secret-named radio's and button's values, and a wrap=hard textarea's value
//   broken by CRLFs, into the URL a script printed;
// - two session keys whose folder names collide (a 32-bit hash after a shared 32-character tail)
//   shared one profile and its cookies; a blank GSTACK_SESSION_KEY meant the directory session.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliEnv, runCli, tempHome } from './helpers/cli.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let server: FixtureServer;
let home: string;
let env: NodeJS.ProcessEnv;
before(async () => {
  server = await startFixtureServer();
  home = tempHome();
  env = cliEnv(home);
});
after(async () => {
  await runCli(['sessions', 'stop', 'redteam'], { env });
  await server.close();
  await rm(home, { recursive: true, force: true });
});
const run = (script: string, extra: string[] = [], cwd?: string) => runCli(['run', script, '--session', 'redteam', ...extra], { env, cwd });

test('ariaSnapshot() of the page and of a locator never prints a password value', async () => {
  const r = await run(`const pg = await openTab(${JSON.stringify(server.url + 'secrets.html')});
console.log("PAGE_ARIA_START\\n" + await pg.ariaSnapshot() + "\\nPAGE_ARIA_END");
console.log("LOC_ARIA_START\\n" + await pg.locator("input[type=password]").first().ariaSnapshot() + "\\nLOC_ARIA_END");
await closeTab(pg);
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /PAGE_ARIA_START[\s\S]*textbox[\s\S]*PAGE_ARIA_END/, 'the snapshot is printed');
  assert.doesNotMatch(r.stdout, /prefilled-secret-1|secret-passwordConfirm-4/, r.stdout);
  const json = await run(`const pg = await openTab(${JSON.stringify(server.url + 'secrets.html')});
try { await pg.ariaSnapshotJSON(); console.log("JSON=passed"); } catch (e) { console.log("JSON_REFUSED=" + e.message.split("\\n")[0]); }
await closeTab(pg); console.log("GSTACK_STEP_OK");`);
  assert.match(json.stdout, /^JSON_REFUSED=.*ariaSnapshot/m, json.stdout + json.stderr);
});

test('a secret with an & in it is learned and cut like any other, and a later line with an HTML reference prints', async () => {
  const r = await run(`const pg = await openTab(${JSON.stringify(server.url)});
await pg.setContent('<title>x</title><input type=password id=p value="Tom&amp;Jerry2024"><p>5 &lt; 6</p>');
await pg.evaluate(() => { document.title = "Welcome " + document.getElementById("p").value; });
console.log(await snapshot(pg));
console.log("TITLE=" + await pg.title());
console.log("RAW=a &lt; b &amp; c");
await closeTab(pg);
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^TITLE=Welcome \[redacted\]$/m, r.stdout);
  assert.match(r.stdout, /^RAW=a &lt; b &amp; c$/m, 'a line with HTML references prints as written');
  assert.doesNotMatch(r.stdout + r.stderr, /Jerry2024/);
});

test('an <output> field named by a secret word is cut in the snapshot and in copies', async () => {
  const r = await run(`const pg = await openTab(${JSON.stringify(server.url)});
await pg.setContent('<title>x</title><label for=o>Verification code</label><output id=o>739201</output><output name="api_token" aria-label="API token">tokA13output9f8e7d</output><output id=sum>42 items</output>');
await pg.evaluate(() => { document.title = "Your code " + document.getElementById("o").value; });
console.log(await snapshot(pg));
console.log("TITLE=" + await pg.title());
await closeTab(pg);
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /739201|tokA13output9f8e7d/, r.stdout);
  assert.match(r.stdout, /^TITLE=Your code \[redacted\]$/m);
  assert.match(r.stdout, /42 items/, 'an output named by no secret word prints');
});

test('a script\'s Buffer.allocUnsafe and allocUnsafeSlow are zero-filled, so no earlier call\'s memory shows', async () => {
  const r = await run(`await fs.writeFile("sec.txt", "EARLIER-CALL-SECRET ".repeat(500));
console.log("ZERO=" + [Buffer.allocUnsafe(8000), Buffer.allocUnsafeSlow(65536), Buffer.allocUnsafe(3)].every((b) => b.every((x) => x === 0)));
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ZERO=true$/m);
});

test('a script\'s small Buffers are their own memory: no earlier call\'s bytes show through .buffer (pass 30, C30)', async () => {
  // The host's Buffer kept small ones as slices of a shared 8 KiB pool: a later call's
  // `Buffer.from("x").buffer` held what an earlier call encoded.
  const first = await run(`const t = Buffer.from("admin:" + "POOLSECRET-" + "Hunter2").toString("base64"); Buffer.concat([Buffer.from("POOLSECRET-"), Buffer.from("two")]); console.log("LEN=" + t.length); console.log("GSTACK_STEP_OK");`);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const second = await run(`const views = [Buffer.from("report-v1"), Buffer.concat([Buffer.from("a"), Buffer.from("b")]), Buffer.of(1, 2), Buffer.from([7])];
console.log("OWN=" + views.every((b) => b.byteOffset === 0 && b.buffer.byteLength === b.length));
console.log("SEEN=" + views.some((b) => Buffer.from(b.buffer).toString("latin1").includes("POOLSECRET")));
console.log("GSTACK_STEP_OK");`);
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(second.stdout, /^OWN=true$/m);
  assert.match(second.stdout, /^SEEN=false$/m);
});

test('sleep past Node\'s longest timer is refused, not made 1 ms (pass 31, C31)', async () => {
  const r = await run('const t0 = Date.now(); await sleep(2 ** 31); console.log("SLEPT=" + (Date.now() - t0)); console.log("GSTACK_STEP_OK");');
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout, /SLEPT=/);
  assert.match(r.lines.at(-1) ?? '', /^\[error\] sleep\(ms\): ms is at most 2147483647 /);
});

test('a GET form\'s secret-named radio and button values, and a wrap=hard textarea\'s broken value, are cut from the URL', async () => {
  const r = await run(`const pg = await openTab(${JSON.stringify(server.url)});
await pg.setContent('<form method=get action="${server.url}"><label>API key <textarea name=k wrap=hard cols=4>Zq7wPalm9RTA15xK3vQ2W8n</textarea></label><input type=radio name=otp value=482913 checked aria-label="One-time code"><input type=checkbox name=remember value=true checked><button name=csrf_token value=BTN-RTA15-6612uu>Verify</button></form>');
await snapshot(pg);
await Promise.all([pg.waitForURL(/csrf_token/), pg.getByRole("button", { name: "Verify" }).click()]);
console.log("URL=" + pg.url());
await closeTab(pg);
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^URL=.*remember=true/m, 'a value that is no code prints');
  assert.doesNotMatch(r.stdout, /482913|BTN-RTA15-6612uu|Zq7wP|alm9R|K3vQ2/, r.stdout);
});

test('two session keys that name the same folder never share it: the second is refused; a blank GSTACK_SESSION_KEY is a usage error', async () => {
  const { createHash } = await import('node:crypto');
  const seen = new Map<string, string>();
  let pair: [string, string] | undefined;
  for (let i = 0; !pair; i++) {
    const k = `${i}-collision-session-tail-xxxxxxxxxxxxxxxxxx`;
    const h = createHash('sha256').update(k).digest('hex').slice(0, 8);
    if (seen.has(h)) pair = [seen.get(h)!, k];
    else seen.set(h, k);
  }
  const [a, b] = pair;
  const first = await runCli(['run', `const pg = await openTab(${JSON.stringify(server.url)}); await pg.context().addCookies([{ name: "owner", value: "ALICE-COOKIE", url: ${JSON.stringify(server.url)} }]); console.log("GSTACK_STEP_OK");`, '--session', a], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const second = await runCli(['run', `const pg = await openTab(${JSON.stringify(server.url)}); console.log("SEEN=" + JSON.stringify(await pg.context().cookies())); console.log("GSTACK_STEP_OK");`, '--session', b], { env });
  assert.equal(second.code, 2, second.stdout + second.stderr);
  assert.match(second.stdout + second.stderr, /names the same session folder .* as the key .*Choose another --session key/);
  assert.doesNotMatch(second.stdout + second.stderr, /ALICE-COOKIE/);
  await runCli(['sessions', 'stop', a], { env });
  const blank = await runCli(['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")'], { env: { ...env, GSTACK_SESSION_KEY: ' ' } });
  assert.equal(blank.code, 2, blank.stdout + blank.stderr);
  assert.ok(!blank.stdout.includes('RAN'));
  assert.match(blank.stdout + blank.stderr, /GSTACK_SESSION_KEY is set but empty/);
  // Pass 30 (C30): `zz ` quietly became the session `zz`, where `--session " zz"` is refused.
  const padded = await runCli(['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")'], { env: { ...env, GSTACK_SESSION_KEY: 'zz ' } });
  assert.equal(padded.code, 2, padded.stdout + padded.stderr);
  assert.ok(!padded.stdout.includes('RAN'));
  assert.match(padded.stderr, /GSTACK_SESSION_KEY "zz " has white space at an end/);
});

test('--out never copies a hidden name the page chose (.git/hooks, .envrc); visible files still come out', async () => {
  const out = mkdtempSync(join(tmpdir(), 'gstack-out-'));
  try {
    const r = await run(
      `for (const name of [".git/hooks/pre-commit", ".envrc", "-rf", "report/page.txt"]) {
  await fs.mkdir(path.dirname(path.join(pwd, name)), { recursive: true });
  await fs.writeFile(path.join(pwd, name), "from the page: " + name);
}
console.log("GSTACK_STEP_OK");`,
      ['--out', out],
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(existsSync(join(out, '.git', 'hooks', 'pre-commit')), false);
    assert.equal(existsSync(join(out, '.envrc')), false);
    assert.equal(readFileSync(join(out, 'report', 'page.txt'), 'utf8'), 'from the page: report/page.txt');
    assert.match(r.stderr, /--out: "\.git\/hooks\/pre-commit" was not copied \(a hidden name\)/);
    // Said as what it is (pass 45, C45: "-rf" was called a hidden name).
    assert.equal(existsSync(join(out, '-rf')), false);
    assert.match(r.stderr, /--out: "-rf" was not copied \(a name that starts like an option, as `-rf` does\)/);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

// Sixteenth pass (C16, B16): `--session " "` and `--profile "$P "` passed (Chromium strips the
// blank from a profile path: a second browser on P under another lock); a property put on a
// shared function (`Buffer.from.x`) reached the next call; a TAB in a file name was written,
// and --out copied names starting with a space or a dash (`-rf` in the user's folder).
test('a session key or profile with white space at an end is a usage error; shared functions take no properties; TAB names are refused and leading blanks or dashes not copied out', async () => {
  for (const args of [['--session', ' '], ['--session', '\t'], ['--session', 'key '], ['--profile', ' '], ['--profile', join(home, 'profile-x') + '\t'], ['--profile', join(home, 'profile-x') + '/ ']]) {
    const r = await runCli(['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', ...args], { env });
    assert.equal(r.code, 2, `${JSON.stringify(args)}: ${r.stdout}${r.stderr}`);
    assert.ok(!r.stdout.includes('RAN'), JSON.stringify(args));
    assert.match(r.stderr, /is empty|white space at its start or end/, JSON.stringify(args));
  }
  const set = await run(`for (const [what, f] of [["Buffer.from", Buffer.from], ["path.parse", path.parse], ["path.posix.join", path.posix.join]]) {
  try { f.leak = 1; console.log(what + " took it"); } catch (e) { console.log(what + " refused"); }
}
console.log("SAME=" + (Buffer.from === Buffer.from) + " " + Buffer.isBuffer(Buffer.from("x")));
console.log("GSTACK_STEP_OK");`);
  assert.equal(set.code, 0, set.stdout + set.stderr);
  assert.match(set.stdout, /^Buffer\.from refused$/m);
  assert.match(set.stdout, /^path\.parse refused$/m);
  assert.match(set.stdout, /^path\.posix\.join refused$/m);
  assert.match(set.stdout, /^SAME=true true$/m);
  const next = await run('console.log("LEAK=" + Buffer.from.leak + " " + path.parse.leak); console.log("GSTACK_STEP_OK")');
  assert.match(next.stdout, /^LEAK=undefined undefined$/m, next.stdout + next.stderr);
  const out = mkdtempSync(join(tmpdir(), 'gstack-out-'));
  try {
    const r = await run(`try { await fs.writeFile(path.join(pwd, "\\tinvoice.pdf\\t\\t.sh"), "x"); console.log("TAB written"); } catch (e) { console.log("TAB refused"); }
for (const name of [" x.txt", "-rf", "ok-name.txt"]) await fs.writeFile(path.join(pwd, name), name);
console.log("GSTACK_STEP_OK");`, ['--out', out]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^TAB refused$/m);
    assert.deepEqual(readdirSync(out), ['ok-name.txt']);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

// Eighteenth pass (C18): an --ephemeral or --profile DIR call holds no lock on its session's
// profile, so `sessions gc` and `clear` removed its pwd mid-call and it still exited 0.
test('sessions gc and clear leave the session of a running --ephemeral or --profile DIR call alone', { timeout: 120_000 }, async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gstack-inuse-'));
  const script = `await fs.writeFile("before.txt", "x");
console.log("PWD=" + pwd);
await sleep(7000);
console.log("READ=" + await fs.readFile("before.txt", "utf8"));
console.log("GSTACK_STEP_OK");`;
  try {
    for (const extra of [['--ephemeral'], ['--session', 'inuse-p', '--profile', join(cwd, 'own-profile')]]) {
      const call = runCli(['run', script, ...extra, '--timeout', '60000'], { env, cwd, timeoutMs: 60_000 });
      // The call has started and marked its session by then, or soon after on a loaded machine
      // (the script then sleeps 7 s, time enough for the checks below).
      await new Promise((r) => setTimeout(r, 3500));
      let slug = '';
      let name: string | undefined;
      for (let i = 0; i < 40 && !name; i++) {
        await new Promise((r) => setTimeout(r, 250));
        slug = (await runCli(['sessions', 'list', '--json'], { env, cwd })).stdout;
        name = extra[0] === '--ephemeral' ? /"slug":"(gstack-inuse-[^"]+)"/.exec(slug)?.[1] : /"slug":"(inuse-p-[^"]+)"/.exec(slug)?.[1];
      }
      assert.ok(name, `the session is listed: ${slug}`);
      const gc = await runCli(['sessions', 'gc', '--older-than', '1s'], { env, cwd });
      assert.doesNotMatch(gc.stdout, new RegExp(`^REMOVED ${name}`, 'm'), gc.stdout);
      const clear = await runCli(['sessions', 'clear', name!], { env, cwd });
      assert.equal(clear.code, 4, clear.stdout + clear.stderr);
      const r = await call;
      assert.equal(r.code, 0, `${JSON.stringify(extra)}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /^READ=x$/m);
    }
  } finally {
    // The --profile DIR session's host keeps its browser writing in DIR: stop it first.
    await runCli(['sessions', 'stop', 'inuse-p'], { env, cwd });
    await rm(cwd, { recursive: true, force: true, maxRetries: 5 });
  }
});

// Nineteenth pass (C19): page JSON with a "__proto__" key deep-merged into a value the API
// handed the script (an evaluate result, made in the host's realm) added `path` to the host's
// Object.prototype, and pdf(), storageState() and route.fulfill() called without options wrote
// or read the file the page named.
test('a __proto__ merge of page JSON into an API value adds nothing to the host\'s prototypes: no option reads a page-chosen path', async () => {
  const outside = join(tmpdir(), `gstack-c19-${process.pid}.pdf`);
  const r = await run(`const pg = await openTab(${JSON.stringify(server.url)});
const defaults = await pg.evaluate(() => ({ theme: "light", list: [1] }));
const pageCfg = JSON.parse(${JSON.stringify(JSON.stringify({ theme: 'dark', __proto__: { path: outside } }))});
function merge(t, s) { for (const k of Object.keys(s)) { if (s[k] && typeof s[k] === "object") { if (!t[k]) t[k] = {}; merge(t[k], s[k]); } else t[k] = s[k]; } return t; }
try { merge(defaults, pageCfg); } catch (e) { console.log("MERGE " + e.message); }
console.log("POLLUTED=" + ({}).path);
const bytes = await pg.pdf();
console.log("PDF=" + bytes.length);
console.log("GSTACK_STEP_OK");`);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^POLLUTED=undefined$/m);
  assert.equal(existsSync(outside), false, `${outside} was written`);
  assert.doesNotMatch(r.stderr, /changed objects the session host shares/);
});
