// A careless script's faults, and what one call may leave behind for the next (issue 22, items
// 6, 7, 8 and 13; docs/SECURITY.md, "The script is careless, not hostile"). Real CLI, real
// session hosts, real Chromium.
// Run alone (needs the build):
//   npm run build && node --import tsx --test test/security-script.e2e.test.ts
//
//   6. A script's async work does not outlive its call: a spin scheduled after a sleep (or after
//      a page call that fails once the tab is closed) never runs, so the next call of the
//      session is not blamed for it; a big buffer it kept alive is released.
//   7. `-f FIFO` (or a device) is a usage error at once, however often; the session keeps working.
//   8. `--timeout` is checked at the CLI: a whole number of milliseconds up to the stated maximum.
//  13. Delayed tampering: a shared built-in changed after a call's end (through the host realm's
//      own timer, which a hostile script can reach) is seen at the next call's start, and that
//      call runs in a fresh host, so its verdict is its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, cliEnv, runCli, startCli, tempHome, type CliResult } from './helpers/cli.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

let home: string;
let work: string;
let site: FixtureServer;
const sessions = new Set<string>();
/** The session of the tests that need no host of their own: they run one after another, so
 * each also checks that the calls before it left nothing behind (a host and browser start is
 * about 2.5 CPU s, a tenth of this file's). Tests that restart, poison or measure their host
 * keep their own. */
const SHARED = `sec-shared-${process.pid}`;

before(async () => {
  assert.ok(existsSync(BIN), `build first: npm run build (missing ${BIN})`);
  site = await startFixtureServer();
  home = tempHome('gstack-sec-script-');
  work = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-sec-script-work-')));
});
after(async () => {
  // Only this suite's own session hosts (never --all: other sessions on this machine are not ours).
  for (const s of sessions) await runCli(['sessions', 'stop', s], { cwd: work, env: cliEnv(home) });
  await site?.close();
});

const show = (r: CliResult) => `exit ${r.code} after ${r.ms} ms\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
const lastLine = (r: CliResult) => r.lines[r.lines.length - 1] ?? '';
const gstack = (session: string, args: string[], timeoutMs = 90_000) => {
  sessions.add(session);
  return runCli([...args, '--session', session], { cwd: work, env: cliEnv(home), timeoutMs });
};
const hostPid = async (session: string): Promise<number | undefined> => {
  const r = await runCli(['sessions', 'list'], { cwd: work, env: cliEnv(home) });
  const line = r.lines.find((l) => l.includes(`key="${session}"`) || l.includes(`key=${session} `));
  const m = line ? /host=pid:(\d+)/.exec(line) : null;
  return m ? Number(m[1]) : undefined;
};
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

test('6. async work a script left running does not outlive its call', { timeout: 180_000 }, async () => {
  const s = `sec-async-${process.pid}`;
  for (const leftover of [
    'sleep(1500).then(() => { while (true) {} });',
    'pg.waitForTimeout(1500).finally(() => { while (true) {} });',
    'fs.writeFile("x.txt", "y").then(() => sleep(1500)).then(() => { while (true) {} });',
    `const r = await fetch(${JSON.stringify(site.url)}); r.text().then(() => { while (true) {} });`,
  ]) {
    const first = await gstack(s, ['run', `const pg = await openTab(); ${leftover} console.log("GSTACK_STEP_OK");`]);
    assert.equal(first.code, 0, `${leftover}\n${show(first)}`);
    await new Promise((r) => setTimeout(r, 2500)); // the leftover's moment has passed
    const next = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")', '--timeout', '8000'], 60_000);
    assert.equal(next.code, 0, `after ${leftover}\n${show(next)}`);
    assert.equal(lastLine(next), 'GSTACK_STEP_OK');
  }
});

test('6. a buffer a script left reachable from pending work is released after the call', { timeout: 120_000 }, async () => {
  const s = `sec-buffer-${process.pid}`;
  const first = await gstack(s, ['run', 'const big = Buffer.alloc(300 * 1024 * 1024, 1); sleep(600000).then(() => console.log(big.length)); console.log("GSTACK_STEP_OK");']);
  assert.equal(first.code, 0, show(first));
  const pid = await hostPid(s);
  assert.ok(pid, 'the session has a host');
  // The host collects garbage once it has been idle a second.
  let rss = rssMiB(pid);
  for (let i = 0; i < 20 && rss > 250; i++) {
    await new Promise((r) => setTimeout(r, 500));
    rss = rssMiB(pid);
  }
  assert.ok(rss < 250, `the session host still holds ${rss.toFixed(0)} MiB after the call`);
});

test('7. -f FIFO or device: a usage error at once, and the session keeps working', { timeout: 120_000 }, async () => {
  const s = SHARED;
  const fifo = join(work, 'flow.fifo');
  execFileSync('mkfifo', [fifo]);
  for (const file of [fifo, fifo, fifo, fifo, '/dev/zero', work]) {
    const r = await gstack(s, ['run', '-f', file, '--timeout', '3000'], 30_000);
    assert.equal(r.code, 2, `${file}: ${show(r)}`);
    assert.match(r.stdout + r.stderr, /not a regular file|is a directory/, `${file}: ${show(r)}`);
    assert.ok(r.ms < 15_000, `${file}: answered in ${r.ms} ms`);
  }
  const ok = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")', '--timeout', '20000'], 60_000);
  assert.equal(ok.code, 0, show(ok));
});

test('8. --timeout is a whole number of milliseconds within the stated maximum', { timeout: 120_000 }, async () => {
  const s = SHARED;
  for (const bad of ['3000000000', '1500.5', '0', '-5', 'abc', '86400001', '0x10', '1e3', ' 100']) {
    const r = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")', '--timeout', bad], 30_000);
    assert.equal(r.code, 2, `--timeout ${bad}: ${show(r)}`);
    assert.match(r.stdout + r.stderr, /--timeout must be a whole number of milliseconds from 1 to 86400000/, `--timeout ${bad}: ${show(r)}`);
    assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning|malformed message/, `--timeout ${bad}: ${show(r)}`);
  }
  const ok = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")', '--timeout', '86400000'], 60_000);
  assert.equal(ok.code, 0, show(ok));
  // Pass 34 (C35): Playwright's waits took NaN, negatives and overflow as "now", as sleep did.
  const waits = await gstack(s, ['run', `const pg = await openTab();
    for (const [label, f] of [["NAN", () => pg.waitForTimeout(params.delaySeconds * 1000)], ["BIG", () => pg.waitForTimeout(3e9)], ["NEG", () => pg.waitForTimeout(-5)], ["OPT", () => pg.waitForFunction(() => true, undefined, { timeout: 3e9 })], ["DEF", () => pg.setDefaultTimeout(Infinity)], ["SLEEPSTR", () => sleep("")], ["STATE", () => pg.context().setStorageState({ path: "/etc/hostname" })]]) {
      const t0 = Date.now();
      try { await f(); console.log(label + " waited " + (Date.now() - t0)); } catch (e) { console.log(label + " " + e.message); }
    }
    await pg.waitForTimeout(10); await pg.waitForFunction(() => true, undefined, { timeout: 0 });
    console.log("GSTACK_STEP_OK");`], 60_000);
  assert.equal(waits.code, 0, show(waits));
  assert.match(waits.stdout, /^NAN Page\.waitForTimeout\(ms\): ms must be a number from 0 to 2147483647 \(Node's longest timer\); got NaN\./m, show(waits));
  assert.match(waits.stdout, /^BIG Page\.waitForTimeout\(ms\): .*got 3000000000\./m);
  assert.match(waits.stdout, /^NEG Page\.waitForTimeout\(ms\): .*got -5\./m);
  assert.match(waits.stdout, /^OPT Page\.waitForFunction: \{ timeout \} must be a number of milliseconds from 0 \(no limit\) to 2147483647; got 3000000000\./m);
  assert.match(waits.stdout, /^DEF Page\.setDefaultTimeout\(ms\): .*got Infinity\./m);
  // Pass 36 (C36): sleep("") went on at once; setStorageState({ path }) set an empty state.
  assert.match(waits.stdout, /^SLEEPSTR sleep\(ms\): ms must be a number ≥ 0 \(got string\)/m);
  assert.match(waits.stdout, /^STATE setStorageState\(\) takes a path \(a string\) or a state object \{ cookies, origins \}, not \{ path \}/m);
});

test('13. a shared built-in changed after a call ended cannot decide the next call\'s verdict', { timeout: 120_000 }, async () => {
  const s = `sec-delayed-${process.pid}`;
  // A hostile script reaches the host realm's timer through a function's constructor, and
  // rewrites every exit message to say 0, after the host's end-of-call check.
  const tamper = `
    const hostTimer = openTab.constructor("return setTimeout")();
    const hostJSON = openTab.constructor("return JSON")();
    hostTimer(() => {
      const original = hostJSON.stringify;
      hostJSON.stringify = function (v, ...rest) { return original.call(this, v && v.t === "exit" ? { ...v, code: 0 } : v, ...rest); };
    }, 1000);
    console.log("GSTACK_STEP_OK");`;
  const first = await gstack(s, ['run', tamper]);
  assert.equal(first.code, 0, show(first));
  await new Promise((r) => setTimeout(r, 2000));
  const next = await gstack(s, ['run', 'throw new Error("this call failed")']);
  assert.equal(next.code, 1, show(next));
  assert.match(lastLine(next), /^\[error\] .*this call failed/, show(next));
});

// From the second red-team pass (issue 22): what a careless (or clumsy) script still got through.
test('12b. tracing.start({ sources: true }) is refused: it copied the files on the stack, outside pwd, into the trace', { timeout: 120_000 }, async () => {
  const r = await gstack(SHARED, ['run', `
    const pg = await openTab();
    await pg.context().tracing.start({ screenshots: true, snapshots: true, sources: true });`]);
  assert.equal(r.code, 1, show(r));
  assert.match(lastLine(r), /^\[error\] tracing\.start\(\{ sources: true \}\) refused: .*outside pwd/, show(r));
});

test('13b. a change to the prototype of an error the API threw does not outlive the call', { timeout: 120_000 }, async () => {
  const s = `sec-errproto-${process.pid}`;
  const first = await gstack(s, ['run', `
    let e; try { await fs.readFile("/nope"); } catch (x) { e = x; }
    const proto = Object.getPrototypeOf(e);
    Object.getPrototypeOf(proto).toString = function () { return "GSTACK_STEP_OK"; };
    proto.toString = function () { return "GSTACK_STEP_OK"; };
    Object.getPrototypeOf(proto).constructor.mark = "LEFT";
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(first.code, 0, show(first));
  // The careless next call never prints the sentinel; it prints a caught error as a string.
  const next = await gstack(s, ['run', `
    try { await fs.writeFile("/etc/nope", "x"); } catch (e) { console.log(String(e)); console.log(Object.getPrototypeOf(Object.getPrototypeOf(e)).constructor.mark ?? "CLEAN"); }`]);
  assert.equal(next.code, 1, show(next));
  assert.ok(next.lines.includes('CLEAN'), show(next));
  assert.match(lastLine(next), /^\[error\] The script finished without printing GSTACK_STEP_OK/, show(next));
});

// Twenty-second red-team pass (C22): a careless deep merge of page JSON into an fs.stat()
// result set isDirectory on the host's Stats prototype; every later -f call of the session
// then exited 2 ("st.isDirectory is not a function").
test('13c. a __proto__ merge into an fs.stat() result does not outlive the call: the next -f call of the session runs', { timeout: 120_000 }, async () => {
  const s = `sec-statproto-${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), 'gstack-statproto-'));
  writeFileSync(join(dir, 'next.js'), 'console.log("HELLO"); console.log("GSTACK_STEP_OK");');
  try {
    const first = await gstack(s, ['run', `
      function merge(t, src) { for (const k of Object.keys(src)) { if (src[k] && typeof src[k] === "object") { if (!t[k] || typeof t[k] !== "object") t[k] = {}; merge(t[k], src[k]); } else t[k] = src[k]; } return t; }
      await fs.writeFile(path.join(pwd, "a.txt"), "x");
      const meta = JSON.parse('{"__proto__":{"isFile":"yes","isDirectory":"no"},"owner":"site"}');
      const info = merge(await fs.stat(path.join(pwd, "a.txt")), meta);
      console.log("OWNER=" + info.owner);
      console.log("GSTACK_STEP_OK");`]);
    // The call that did it may fail by its own doing; the host says what changed and restarts.
    assert.match(first.stderr, /this call changed objects the session host shares between calls \(Stats\.prototype/, show(first));
    const next = await gstack(s, ['run', '-f', join(dir, 'next.js')]);
    assert.equal(next.code, 0, show(next));
    assert.ok(next.lines.includes('HELLO'), show(next));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('7b. --in of a /proc file (stat says 0 bytes, it never ends), deep --params and an over-long script on stdin are usage errors', { timeout: 120_000 }, async () => {
  const s = SHARED;
  const r = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")', '--timeout', '20000', '--in', '/proc/self/pagemap'], 60_000);
  assert.equal(r.code, 2, show(r));
  assert.match(r.stdout + r.stderr, /--in \/proc\/self\/pagemap: is a kernel file/, show(r));
  const deep = '{"a":' + '['.repeat(60_000) + ']'.repeat(60_000) + '}';
  const d = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")', '--params', deep]);
  assert.equal(d.code, 2, show(d));
  assert.match(d.stdout + d.stderr, /--params nests deeper than 64 levels/, show(d));
  // A script on stdin is held to the -f limit: more is a usage error, not a client that grows.
  const big = await runCli(['run', '-', '--session', s], { cwd: work, env: cliEnv(home), timeoutMs: 60_000, input: 'y\n'.repeat(2_200_000) });
  assert.equal(big.code, 2, show(big));
  assert.match(big.stdout + big.stderr, /The script on stdin is over 4194304 bytes/, show(big));
  const ok = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")']);
  assert.equal(ok.code, 0, show(ok));
});

test('1b. raw CDP cannot tunnel a message past its checks, and what a call left open is closed before the next one runs', { timeout: 180_000 }, async () => {
  const s = SHARED;
  for (const method of ['Target.sendMessageToTarget', 'Target.attachToTarget', 'Target.setAutoAttach', 'Target.attachToBrowserTarget']) {
    const r = await gstack(s, ['run', `const pg = await openTab(); await pg._sendToTarget(${JSON.stringify(method)}, {});`]);
    assert.equal(r.code, 1, show(r));
    assert.match(lastLine(r), new RegExp(`^\\[error\\] ${method.replace(".", "\\.")} is not available in a flow script`), show(r));
  }
  // A careless call leaves a CDP-made tab and a page-opened popup behind.
  const first = await gstack(s, ['run', `
    const pg = await openTab(${JSON.stringify(site.url)});
    await pg._sendToTarget("Target.createTarget", { url: ${JSON.stringify(site.url + '?left=cdp')} });
    await pg.evaluate(() => { setTimeout(() => window.open(location.href + "?left=popup", "_blank", "noopener"), 50); });
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(first.code, 0, show(first));
  await new Promise((r) => setTimeout(r, 500));
  const next = await gstack(s, ['run', `const pg = await openTab(); console.log("PAGES=" + pg.context().pages().map((p) => p.url()).join(",")); console.log("GSTACK_STEP_OK");`]);
  assert.equal(next.code, 0, show(next));
  assert.doesNotMatch(next.stdout, /left=/, show(next));
});

test('3b. --out does not write through a link already in DIR', { timeout: 120_000 }, async () => {
  const out = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-sec-out-')));
  const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-sec-elsewhere-')));
  symlinkSync(elsewhere, join(out, 'docs'));
  const r = await gstack(SHARED, ['run', `await fs.mkdir(path.join(pwd, "docs"), { recursive: true }); await fs.writeFile(path.join(pwd, "docs", "evil.txt"), "x"); await fs.writeFile(path.join(pwd, "ok.txt"), "y"); console.log("GSTACK_STEP_OK");`, '--out', out]);
  assert.equal(r.code, 0, show(r));
  assert.ok(!existsSync(join(elsewhere, 'evil.txt')), `written through the link:\n${show(r)}`);
  assert.ok(existsSync(join(out, 'ok.txt')), show(r));
  assert.match(r.stderr, /--out: "docs\/evil\.txt" was not copied \(a link/, show(r));
});

// Fifth red-team pass (careless script).
test('14c. an options object whose path, files or sources come from its prototype is checked as Playwright reads it', { timeout: 180_000 }, async () => {
  const s = SHARED;
  const outside = join(mkdtempSync(join(tmpdir(), 'gstack-sec-inherit-')), 'from-page.pdf');
  const secret = join(work, '..', `gstack-sec-inherit-secret-${process.pid}.txt`);
  writeFileSync(secret, 'INHERITED-SECRET-TEXT');
  site.setPage('/named.html', `<p id="name">${outside}</p><div id="drop">drop here</div>`);
  const r = await gstack(s, ['run', `
    class PdfOptions { constructor(n) { this.name = n; this.format = "A4"; } get path() { return this.name; } }
    const pg = await openTab(${JSON.stringify(site.url + 'named.html')});
    const name = await pg.textContent("#name");
    for (const [what, act] of [
      ["pdf", () => pg.pdf(new PdfOptions(name))],
      ["storageState", () => pg.context().storageState(Object.create({ path: name }))],
      ["addInitScript", () => pg.addInitScript(Object.create({ path: ${JSON.stringify(secret)} }))],
      ["tracing", () => pg.context().tracing.start(Object.create({ sources: true, name: "../../escape" }))],
    ]) {
      try { await act(); console.log("ACCEPTED " + what); } catch (e) { console.log("REFUSED " + what + ": " + e.message.slice(0, 100)); }
    }
    await pg.route("**/asset", (route) => route.fulfill(Object.create({ path: ${JSON.stringify(secret)}, status: 200 })).catch((e) => { console.log("REFUSED fulfill: " + e.message.slice(0, 80)); return route.abort(); }));
    await pg.goto(${JSON.stringify(site.url + 'asset')}).catch(() => {});
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(r.code, 0, show(r));
  for (const what of ['pdf', 'storageState', 'addInitScript', 'tracing', 'fulfill']) assert.ok(r.lines.some((l) => l.startsWith(`REFUSED ${what}`)), `${what} not refused:\n${show(r)}`);
  assert.ok(!existsSync(outside), 'no PDF outside pwd');
  assert.ok(!r.stdout.includes('INHERITED-SECRET-TEXT'), show(r));
});

test('6b. a request a call left in flight cannot change the next call\'s cookies', { timeout: 180_000 }, async () => {
  const s = SHARED;
  const first = await gstack(s, ['run', `
    fetch(${JSON.stringify(site.url + 'slow?ms=3000&cookie=late1')}).catch(() => {});
    (await openTab()).context().request.get(${JSON.stringify(site.url + 'slow?ms=3000&cookie=late2')}).catch(() => {});
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(first.code, 0, show(first));
  const next = await gstack(s, ['run', `
    const pg = await openTab(${JSON.stringify(site.url)});
    const names = async () => (await pg.context().cookies()).map((c) => c.name).filter((n) => n.startsWith("late"));
    console.log("T0 " + JSON.stringify(await names()));
    await sleep(4500);
    console.log("T1 " + JSON.stringify(await names()));
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(next.code, 0, show(next));
  assert.ok(next.lines.includes('T0 []') && next.lines.includes('T1 []'), show(next));
});

test('7c. a script on stdin whose pipe never closes is a usage error within --timeout', { timeout: 120_000 }, async () => {
  const s = `sec-stdin-${process.pid}`;
  sessions.add(s);
  const run = startCli(['run', '-', '--session', s, '--timeout', '3000'], { cwd: work, env: cliEnv(home), input: 'console.log("GSTACK_STEP_OK")\n', keepStdinOpen: true });
  const killer = setTimeout(() => run.child.kill('SIGKILL'), 60_000);
  const r = await run.done.finally(() => clearTimeout(killer));
  assert.equal(r.code, 2, show(r));
  assert.ok(r.ms < 30_000, `ended in time: ${r.ms} ms`);
  assert.match(r.stdout + r.stderr, /did not end within --timeout \(3000 ms\)/, show(r));
});

test('15. --profile through a link to a profile in use is that profile: busy, not a second browser on it', { timeout: 180_000 }, async () => {
  const s = `sec-proflink-${process.pid}`;
  const warm = await gstack(s, ['run', 'console.log("GSTACK_STEP_OK")']);
  assert.equal(warm.code, 0, show(warm));
  const profile = /profile=(\S+)/.exec((await runCli(['probe', '--session', s], { cwd: work, env: cliEnv(home) })).stdout)?.[1];
  assert.ok(profile && existsSync(profile), `the session's profile: ${profile}`);
  const link = join(mkdtempSync(join(tmpdir(), 'gstack-sec-proflink-')), 'profile');
  symlinkSync(profile!, link);
  const long = startCli(['run', 'await sleep(12000); console.log("GSTACK_STEP_OK")', '--session', s], { cwd: work, env: cliEnv(home) });
  await sleep(3000);
  const other = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--profile', link, '--lock-timeout', '1000'], { cwd: work, env: cliEnv(home), timeoutMs: 60_000 });
  assert.equal(other.code, 4, show(other));
  assert.match(lastLine(other), /busy/i, show(other));
  assert.equal((await long.done).code, 0);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('15b. a --profile that cannot be a profile (a file, a FIFO, /dev/null, /proc, a name past the limit) is a usage error naming why; a .git FIFO above the folder holds nothing (pass 30, C30)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gstack-sec-badprof-'));
  writeFileSync(join(dir, 'prof-file.txt'), 'x');
  execFileSync('mkfifo', [join(dir, 'prof-fifo')]);
  // Pass 34 (C34): a folder inside another profile (`<profile>/Default`) is no profile of its own.
  mkdirSync(join(dir, 'busy-profile', 'Default'), { recursive: true });
  writeFileSync(join(dir, 'busy-profile', 'Local State'), '{}');
  // Pass 41 (C41): a link to nowhere and a loop of links failed as "Chromium did not start".
  symlinkSync('/nonexistent/profdir', join(dir, 'prof-dangling'));
  symlinkSync(join(dir, 'prof-loop-b'), join(dir, 'prof-loop-a'));
  symlinkSync(join(dir, 'prof-loop-a'), join(dir, 'prof-loop-b'));
  // Pass 34 (C35): GSTACK_HOME itself and its folders hold the sessions' profiles and records.
  for (const [profile, why] of [[home, /it is inside GSTACK_HOME/], [join(home, 'profiles'), /it is inside GSTACK_HOME/], [join(home, 'sessions'), /it is inside GSTACK_HOME/], [join(dir, 'busy-profile', 'Default'), /it is inside the Chromium profile .*busy-profile: a browser here would write into that profile/], [join(dir, 'prof-file.txt'), /it is a file, not a directory/], [join(dir, 'prof-fifo'), /it is a FIFO, not a directory/], ['/dev/null', /kernel file system/], ['/proc/self', /kernel file system/], [join(dir, 'p'.repeat(300)), /longer than the file system takes/], [join(dir, 'prof-dangling'), /it is a symbolic link to a directory that does not exist/], [join(dir, 'prof-loop-a'), /it is a loop of symbolic links/], [join(dir, 'prof-file.txt', 'sub'), /it leads through a file/]] as const) {
    const r = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--profile', profile], { cwd: work, env: cliEnv(home), timeoutMs: 30_000 });
    assert.equal(r.code, 2, show(r));
    assert.match(lastLine(r), why, show(r));
  }
  // Pass 34 (C35): --ephemeral beside --profile dropped the profile without a word.
  const both = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--ephemeral', '--profile', join(dir, 'p2')], { cwd: work, env: cliEnv(home), timeoutMs: 30_000 });
  assert.equal(both.code, 2, show(both));
  assert.match(both.stderr, /--ephemeral and --profile both choose the call's profile/, show(both));
  const huge = await runCli(['run', 'console.log("GSTACK_STEP_OK")', '--max-output', '99999999999999999999999'], { cwd: work, env: cliEnv(home), timeoutMs: 30_000 });
  assert.equal(huge.code, 2, show(huge));
  assert.match(huge.stderr, /--max-output must be a whole number of bytes from 1 to 33554432 \(32 MiB/, show(huge));
  // With no session key, the session is the git worktree: a `.git` that is a FIFO (or a link to
  // a device) is no worktree, and is never opened.
  const repo = join(dir, 'g1');
  mkdirSync(join(repo, 'sub'), { recursive: true });
  execFileSync('mkfifo', [join(repo, '.git')]);
  const env = { ...cliEnv(home) };
  for (const k of ['GSTACK_SESSION_KEY', 'CLAUDE_SESSION_ID', 'CONDUCTOR_WORKSPACE_ID']) delete env[k];
  const probe = await runCli(['probe'], { cwd: join(repo, 'sub'), env, timeoutMs: 30_000 });
  assert.equal(probe.code, 0, show(probe));
  assert.match(probe.stdout, /session=\S+ \(cwd\)|source=cwd|\bcwd\b/, show(probe));
  rmSync(dir, { recursive: true, force: true });
});

test('16. a file name with control or invisible characters (a page title) is refused, so no listing shows another name', { timeout: 120_000 }, async () => {
  site.setPage('/rlo.html', '<title>rep\u001b[31mort\u{E0041}\u202Efdp.exe</title>');
  const r = await gstack(SHARED, ['run', `
    const pg = await openTab(${JSON.stringify(site.url + 'rlo.html')});
    await fs.writeFile(path.join(pwd, await pg.title()), "x");`]);
  assert.equal(r.code, 1, show(r));
  assert.match(lastLine(r), /fs refused .*the name holds control, invisible or look-alike/, show(r));
  // Eighth pass: look-alikes a hand-kept list lacked (a box-drawing slash, a Lisu letter that
  // reads as a dot, the Arabic full stop); a Japanese name keeps its Katakana ノ.
  site.setPage('/lookalike.html', '<title>etc\u2571passwd\uA4F8txt</title>');
  const names = await gstack(SHARED, ['run', `
    const pg = await openTab(${JSON.stringify(site.url + 'lookalike.html')});
    for (const name of [await pg.title(), "\uA4F8git", "report\u06D4pdf", "a\u0660b", "etc\u{1F67C}passwd", "etc\u0338passwd", "a\u2800b", "etc\u2AFDpasswd", "invoice\u20E5exe", "x\\\\u{0000202e}gnp.exe"]) {
      console.log(await fs.writeFile(path.join(pwd, name), "x").then(() => "WROTE " + name, (e) => "REFUSED " + name));
    }
    await fs.writeFile(path.join(pwd, "\u30B9\u30CE\u30FC.txt"), "x");
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(names.code, 0, show(names));
  assert.equal(names.lines.filter((l) => l.startsWith('REFUSED ')).length, 10, show(names));
  assert.ok(!names.lines.some((l) => l.startsWith('WROTE ')), show(names));
});

test('6c. a route.fetch a call left running cannot change the next call\'s cookies either', { timeout: 180_000 }, async () => {
  const s = SHARED;
  const first = await gstack(s, ['run', `
    const pg = await openTab(${JSON.stringify(site.url)});
    await pg.route("**/trigger", async (route) => { const r = await route.fetch({ url: ${JSON.stringify(site.url + 'slow?ms=3000&cookie=late3')} }); await route.fulfill({ response: r }); });
    pg.evaluate(() => fetch("/trigger")).catch(() => {});
    await sleep(500);
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(first.code, 0, show(first));
  const next = await gstack(s, ['run', `
    const pg = await openTab(${JSON.stringify(site.url)});
    await sleep(4500);
    console.log("LATE " + JSON.stringify((await pg.context().cookies()).map((c) => c.name).filter((n) => n.startsWith("late"))));
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(next.code, 0, show(next));
  assert.ok(next.lines.includes('LATE []'), show(next));
});

test('7d. --out naming a file or a FIFO is a usage error before the script runs', { timeout: 120_000 }, async () => {
  const file = join(work, 'not-a-folder.txt');
  writeFileSync(file, 'x');
  const r = await gstack(SHARED, ['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', '--out', file]);
  assert.equal(r.code, 2, show(r));
  assert.ok(!r.lines.includes('RAN'), show(r));
  assert.match(lastLine(r), /--out .*is not a folder \(a file\)/, show(r));
  // Eighth pass: an empty --out (an unset variable) copied nothing and said nothing.
  const empty = await gstack(SHARED, ['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', '--out', '']);
  assert.equal(empty.code, 2, show(empty));
  assert.ok(!empty.lines.includes('RAN'), show(empty));
  assert.match(lastLine(empty), /--out is empty/, show(empty));
  // Pass 34 (B34): a folder --out creates is a name in a listing (`--out "$TITLE"`).
  const hidden = await gstack(SHARED, ['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', '--out', join(work, 'o\u202eut', 'x')]);
  assert.equal(hidden.code, 2, show(hidden));
  assert.ok(!hidden.lines.includes('RAN'), show(hidden));
  assert.match(lastLine(hidden), /--out .*the folder "o\uFFFDut" it would create holds control, invisible or look-alike characters/, show(hidden));
  assert.ok(!existsSync(join(work, 'o\u202eut')), 'nothing was created');
  // Pass 41 (C41): a link to nowhere, a loop of links and a path through a file failed after
  // the script had acted (exit 1, a raw ENOENT/ELOOP/ENOTDIR); they are usage errors before it.
  symlinkSync('/nonexistent/outdir', join(work, 'out-dangling'));
  symlinkSync(join(work, 'out-loop-b'), join(work, 'out-loop-a'));
  symlinkSync(join(work, 'out-loop-a'), join(work, 'out-loop-b'));
  for (const [out, why] of [[join(work, 'out-dangling'), /is a symbolic link to a folder that does not exist/], [join(work, 'out-dangling', 'sub'), /leads through .*out-dangling, which is a symbolic link to a folder that does not exist/], [join(work, 'out-loop-a'), /is a loop of symbolic links/], [join(file, 'sub'), /leads through a file/]] as const) {
    const bad = await gstack(SHARED, ['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', '--out', out]);
    assert.equal(bad.code, 2, show(bad));
    assert.ok(!bad.lines.includes('RAN'), show(bad));
    assert.match(lastLine(bad), why, show(bad));
  }
  // A file that cannot be copied (DIR holds a folder of its name) is said, and the call's verdict
  // stands: the script has run.
  const clash = mkdtempSync(join(work, 'out-clash-'));
  mkdirSync(join(clash, 'result.txt'));
  const copied = await gstack(SHARED, ['run', 'await fs.writeFile("result.txt", "r"); await fs.writeFile("other.txt", "o"); console.log("GSTACK_STEP_OK")', '--out', clash]);
  assert.equal(copied.code, 0, show(copied));
  // Said in words, not Node's error code (C42: "ERR_FS_CP_NON_DIR_TO_DIR").
  assert.match(copied.stderr, /--out: "result\.txt" was not copied \(.*out-clash-\w+ has a folder of that name\); it stays in /, show(copied));
  assert.equal(readFileSync(join(clash, 'other.txt'), 'utf8'), 'o');
  // Pass 44 (B44): a hard link in DIR at a copied name (`ln ~/.bashrc DIR/result.txt`) was
  // written through; the name is replaced instead, and the file under its other name keeps its
  // contents.
  const linked = mkdtempSync(join(work, 'out-hardlink-'));
  writeFileSync(join(work, 'rc-b44'), 'echo original\n');
  linkSync(join(work, 'rc-b44'), join(linked, 'result.txt'));
  const through = await gstack(SHARED, ['run', 'await fs.writeFile("result.txt", "r"); console.log("GSTACK_STEP_OK")', '--out', linked]);
  assert.equal(through.code, 0, show(through));
  assert.equal(readFileSync(join(linked, 'result.txt'), 'utf8'), 'r');
  assert.equal(readFileSync(join(work, 'rc-b44'), 'utf8'), 'echo original\n');
});

// Seventh red-team pass: a flag given twice crashed (exit 1).
test('18. a flag given twice is a usage error (exit 2) that names it, before anything starts', { timeout: 120_000 }, async () => {
  for (const args of [['--session', 'a', '--session', 'b'], ['--out', 'o1', '--out', 'o2'], ['--profile', join(work, 'p1'), '--profile', join(work, 'p2')]]) {
    const r = await runCli(['run', 'console.log("GSTACK_STEP_OK")', ...args], { cwd: work, env: cliEnv(home) });
    assert.equal(r.code, 2, show(r));
    assert.match(r.stdout + r.stderr, new RegExp(`${args[0]} is given 2 times`), show(r));
  }
  assert.ok(!existsSync(join(work, 'p2.host.lock')) && !existsSync(join(work, 'p1.host.lock')), 'no host was started');
  // Fourteenth pass: an empty --session, --profile or sessions KEY (an unset variable) quietly
  // meant this directory's session, shared with whoever else works here.
  for (const args of [['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', '--session', ''], ['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', '--profile', ''], ['sessions', 'stop', ''], ['sessions', 'clear', ' ']]) {
    const r = await runCli(args, { cwd: work, env: cliEnv(home) });
    assert.equal(r.code, 2, show(r));
    assert.ok(!r.stdout.includes('RAN') && !/STOPPED|CLEARED/.test(r.stdout), show(r));
    assert.match(r.stderr, /is empty|empty KEY/, show(r));
  }
  // Eighth pass: on/off flags, where yargs kept the last (`=false` then bare read a file: URL).
  for (const args of [['--allow-file-urls=false', '--allow-file-urls'], ['--json', '--no-json'], ['--ephemeral', '--ephemeral']]) {
    const r = await runCli(['run', 'console.log("RAN"); console.log("GSTACK_STEP_OK")', ...args], { cwd: work, env: cliEnv(home) });
    assert.equal(r.code, 2, show(r));
    assert.ok(!r.stdout.includes('RAN'), show(r));
    assert.match(r.stderr, new RegExp(`--${args[0].replace(/^--(no-)?/, '').split('=')[0]} is given 2 times`), show(r));
  }
});

// Eighth pass: what a call leaves that the context cannot take back.
test('19. a WebSocket route, a CDP-made tab\'s late request and the clipboard do not reach the next call', { timeout: 240_000 }, async () => {
  const s = SHARED;
  const probe = `
    const pg = await openTab(${JSON.stringify(site.url)});
    console.log("WS=" + await pg.evaluate(() => new Promise((r) => { const w = new WebSocket("ws://127.0.0.1:9/x"); w.onopen = () => r("OPEN"); w.onerror = () => r("ERROR"); setTimeout(() => r("TIMEOUT"), 3000); })));
    await pg.setContent('<input id="t">');
    await pg.locator("#t").focus();
    await pg.keyboard.press("ControlOrMeta+V");
    console.log("PASTED=" + JSON.stringify(await pg.locator("#t").inputValue()));
    await sleep(3500);
    console.log("LATE " + JSON.stringify((await pg.context().cookies()).map((c) => c.name).filter((n) => n.startsWith("late"))));
    console.log("GSTACK_STEP_OK");`;
  const first = await gstack(s, ['run', `
    const pg = await openTab(${JSON.stringify(site.url)});
    await pg.context().routeWebSocket("ws://127.0.0.1:9/**", (ws) => { ws.onMessage((m) => ws.send("mock:" + m)); });
    await pg.setContent('<input id="c" value="planted by call one"><button onclick="c.select(); document.execCommand(\\'copy\\')">Copy</button>');
    await pg.getByRole("button", { name: "Copy" }).click();
    await pg._sendToTarget("Target.createTarget", { url: ${JSON.stringify(site.url + 'slow?ms=2500&cookie=latecdp')} });
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(first.code, 0, show(first));
  const next = await gstack(s, ['run', probe]);
  assert.equal(next.code, 0, show(next));
  assert.ok(next.lines.includes('WS=ERROR'), show(next));
  assert.ok(next.lines.includes('PASTED=""'), show(next));
  assert.ok(next.lines.includes('LATE []'), show(next));
});

// Ninth red-team pass (careless): files other commands read that hung on a FIFO, a key that
// spells another session's slug, and a repository whose .gstack folder is a link.
test('20. import-cookies and skills install --config refuse a FIFO at once; a key never reaches the session whose slug it spells; flows are not saved through a linked .gstack', { timeout: 180_000 }, async () => {
  const fifo = join(work, 'cookies.fifo');
  execFileSync('mkfifo', [fifo]);
  for (const args of [['sessions', 'import-cookies', fifo, '--session', SHARED], ['skills', 'install', '--mcp', 'cursor', '--config', fifo]]) {
    const r = await runCli(args, { cwd: work, env: cliEnv(home), timeoutMs: 20_000 });
    assert.equal(r.code, 2, `${args.join(' ')}: ${show(r)}`);
    assert.match(r.stderr, /FIFO|not a regular file/, show(r));
  }
  // "a b" gets the slug a-b-<hash>; a second session keyed by exactly that slug clears its own.
  const victim = 'a b';
  const first = await gstack(victim, ['run', `const pg = await openTab(${JSON.stringify(site.url + 'set-cookie?name=victim&value=1')}); console.log("GSTACK_STEP_OK")`]);
  assert.equal(first.code, 0, show(first));
  const list = await runCli(['sessions', 'list', '--json'], { cwd: work, env: cliEnv(home) });
  const slug = (JSON.parse(list.stdout).sessions as Array<{ key: string; slug: string }>).find((s) => s.key === victim)!.slug;
  const other = await gstack(slug, ['run', 'console.log("GSTACK_STEP_OK")']);
  assert.equal(other.code, 0, show(other));
  await runCli(['sessions', 'stop', slug], { cwd: work, env: cliEnv(home) });
  const cleared = await runCli(['sessions', 'clear', slug], { cwd: work, env: cliEnv(home) });
  assert.equal(cleared.code, 0, show(cleared));
  assert.ok(!cleared.stdout.includes('key="a b"'), `clearing the key ${slug} cleared "a b":\n${show(cleared)}`);
  const still = await gstack(victim, ['run', `const pg = await openTab(${JSON.stringify(site.url)}); console.log("COOKIES " + (await pg.context().cookies()).map((c) => c.name).join(",")); console.log("GSTACK_STEP_OK")`]);
  assert.match(still.stdout, /COOKIES .*victim/, show(still));
  // A repository whose .gstack is a link to a folder outside it.
  const repo = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-sec-repo-')));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-sec-outside-')));
  execFileSync('git', ['init', '-q'], { cwd: repo });
  symlinkSync(outside, join(repo, '.gstack'));
  writeFileSync(join(repo, 'ok.js'), 'console.log("GSTACK_STEP_OK")');
  const saved = await runCli(['flows', 'save', 'via', '-f', 'ok.js', '--session', `sec-flowlink-${process.pid}`], { cwd: repo, env: cliEnv(home) });
  sessions.add(`sec-flowlink-${process.pid}`);
  assert.equal(saved.code, 2, show(saved));
  assert.match(saved.stderr, /through a link, outside/, show(saved));
  assert.ok(!existsSync(join(outside, 'flows', 'via.js')), 'the flow was written outside the repository');
});

// Tenth red-team pass (careless): a context setting the call changed and then closed its tab
// without waiting: Playwright's undo met the closing page, failed and kept the old setting, so
// the next call started offline and sent the header to every site.
test('21. setOffline and setExtraHTTPHeaders a call left are undone even when it closed its tab', { timeout: 180_000 }, async () => {
  const s = SHARED;
  const first = await gstack(s, ['run', `
    const pg = await openTab(${JSON.stringify(site.url)});
    await pg.context().setOffline(true);
    await pg.context().setExtraHTTPHeaders({ "x-left-over": "call-one" });
    await closeTab(pg);
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(first.code, 0, show(first));
  const before = site.requests.length;
  const next = await gstack(s, ['run', `
    const pg = await openTab(${JSON.stringify(site.url + '?next=1')});
    console.log("ONLINE=" + await pg.evaluate(() => navigator.onLine));
    console.log("GSTACK_STEP_OK");`]);
  assert.equal(next.code, 0, show(next));
  assert.ok(next.lines.includes('ONLINE=true'), show(next));
  const seen = site.requests.slice(before);
  assert.ok(seen.length > 0 && seen.every((q) => q.headers['x-left-over'] === undefined), JSON.stringify(seen.map((q) => q.headers['x-left-over'])));
});
