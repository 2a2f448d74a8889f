// `gstack login URL` end to end under a virtual display (Xvfb, started here): the CLI opens
// the session's profile in a visible Chromium window; the sign-in happens in that window (the
// page signs in by itself, or xdotool types into it as a person would); the user presses Enter
// in the terminal or closes the window; the next headless `gstack run` of the session is
// signed in. Also: no display, a bad URL, and --timeout, each with its catalog exit code. No
// output may contain a cookie value.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliEnv, runCli, startCli, tempHome } from './helpers/cli.js';
import { waitNoProcesses } from './helpers/processes.js';
import { ensureTools, startXvfb, waitForWindow, xdotool, type VirtualDisplay } from './helpers/xvfb.js';
import { sessionPaths, slugFor } from '../driver/sessions/key.js';
import { loadCatalog } from '../driver/catalog.js';

let server: FixtureServer;
let home: string;
let xvfb: VirtualDisplay | undefined;
let noXvfb: string | undefined;
let noXdotool: string | undefined;

before(async () => {
  server = await startFixtureServer();
  home = await tempHome();
  noXvfb = ensureTools([{ pkg: 'xvfb', cmd: 'Xvfb' }]);
  noXdotool = ensureTools([{ pkg: 'xdotool', cmd: 'xdotool' }]);
  if (!noXvfb) xvfb = await startXvfb();
});
after(async () => {
  await xvfb?.stop();
  await server.close();
  await rm(home, { recursive: true, force: true });
});

/** undefined removes a variable from the call's environment (test/helpers/cli.ts). */
function envWith(display: string | undefined): NodeJS.ProcessEnv {
  return { ...cliEnv(home), WAYLAND_DISPLAY: undefined, DISPLAY: display || undefined };
}
const tokens = () => [...server.signins.keys()];
function assertNoSecret(text: string, where: string) {
  for (const t of tokens()) assert.ok(!text.includes(t), `${where} contains a cookie value:\n${text}`);
}
async function signedIn(user: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (![...server.signins.values()].includes(user)) {
    if (Date.now() > until) throw new Error(`${user} never signed in`);
    await new Promise((r) => setTimeout(r, 5)); // Enter follows the sign-in as closely as it can
  }
}
const whoami = (session: string, env: NodeJS.ProcessEnv) =>
  runCli(['run', '--session', session, `const pg = await openTab(${JSON.stringify(server.origin + '/whoami')}); console.log("WHO=" + await pg.textContent("#who")); await closeTab(pg); console.log("GSTACK_STEP_OK");`], { env });
const loginErrors = () => new Map((loadCatalog().commands.find((c) => c.name === 'login')!.errors ?? []).map((e) => [e.name, e.exitCode]));

test('login, Enter in the terminal: the sign-in done in the window is there in the next headless run; sites by name only', { timeout: 120_000 }, async (t) => {
  if (!xvfb) return t.skip(`no virtual display: ${noXvfb}`);
  const env = envWith(xvfb.display);
  // The page signs in by itself on load (a form it submits); the session cookie it gets has no
  // expiry. Its answer comes 1 s after the server records the sign-in, and Enter is pressed in
  // that second: login waits for the request in flight before it reads the cookies.
  // GSTACK_TRACE: a failure shows when the requests, the Enter and the cookie readings came.
  const cli = startCli(['login', `${server.origin}/signin?auto=alice&slow=1000`, '--session', 'login-enter', '--json'], { env: { ...env, GSTACK_TRACE: '1' }, keepStdinOpen: true });
  await signedIn('alice');
  cli.child.stdin!.write('\n'); // the user presses Enter
  const r = await cli.done;
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(r.stderr, /sign in to 127\.0\.0\.1:\d+ in the Chromium window, then close the window or press Enter here/);
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, true);
  assert.equal(out.ended, 'enter');
  assert.deepEqual(out.sites, [{ domain: '127.0.0.1', cookies: ['auth'] }], r.stderr);
  assert.equal(out.cookies, 1);
  assert.equal(out.sessionCookiesKept, 1, 'the session cookie got an expiry, or the next call would not see it');
  // Given time to go: on a loaded machine a closed browser's last processes take seconds to exit.
  assert.deepEqual(await waitNoProcesses(sessionPaths(slugFor('login-enter'), env).profileDir, 20_000), [], 'the window is gone');

  const run = await whoami('login-enter', envWith(undefined));
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^WHO=alice$/m, 'the next headless call is signed in');
  for (const x of [r, run]) assertNoSecret(x.stdout + x.stderr, 'login/run');
});

test('login, the user types in the window and closes it: signed in in the next run', { timeout: 120_000 }, async (t) => {
  if (!xvfb) return t.skip(`no virtual display: ${noXvfb}`);
  if (noXdotool) return t.skip(`cannot type into the window: ${noXdotool}`);
  const env = envWith(xvfb.display);
  // GSTACK_TRACE: a failure shows when the window's cookies were read and when its tabs closed.
  const cli = startCli(['login', `${server.origin}/signin`, '--session', 'login-close'], { env: { ...env, GSTACK_TRACE: '1' }, keepStdinOpen: true });
  try {
    const win = await waitForWindow(xvfb.display, '^Sign in - '); // the page is there, its field focused
    // As a person would: focus the window, type the name in the focused field, press Return.
    await xdotool(xvfb.display, ['windowfocus', '--sync', win]);
    await xdotool(xvfb.display, ['type', '--delay', '30', 'bob']);
    await xdotool(xvfb.display, ['key', 'Return']);
    await signedIn('bob');
    await waitForWindow(xvfb.display, '^Signed in', 30_000);
    // A person reads the page before closing it: on a loaded machine the CLI's cookie read that
    // follows the sign-in response can take longer than xdotool takes to close the window.
    const until = Date.now() + 20_000;
    while (!/login: cookies read \([1-9]/.test(cli.stderr()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await xdotool(xvfb.display, ['key', '--clearmodifiers', 'ctrl+shift+w']); // closes the window
  } catch (err) {
    cli.child.kill('SIGTERM');
    throw err;
  }
  const r = await cli.done;
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const slug = slugFor('login-close');
  assert.match(r.stdout, /^SITE 127\.0\.0\.1 cookies=auth$/m, r.stderr);
  assert.match(r.stdout, new RegExp(`^LOGIN sites=1 cookies=1 ended=window-closed session=${slug} profile=\\S+$`, 'm'));
  assert.match(r.stdout, /^NOTE 1 session cookie\(s\) had no expiry; they are kept for 30 days/m);

  const run = await whoami('login-close', envWith(undefined));
  assert.match(run.stdout, /^WHO=bob$/m, run.stderr);
  for (const x of [r, run]) assertNoSecret(x.stdout + x.stderr, 'login/run');
});

test('login --timeout: the window is closed, what was signed in is kept, exit 1 with the [error] line last', { timeout: 120_000 }, async (t) => {
  if (!xvfb) return t.skip(`no virtual display: ${noXvfb}`);
  const env = envWith(xvfb.display);
  // The clock starts as the page is asked for; the page signs itself in on load, which on a
  // loaded 2-core machine (three test files beside a headful browser) can take seconds.
  const cli = startCli(['login', `${server.origin}/signin?auto=carol`, '--session', 'login-timeout', '--timeout', '12000'], { env, keepStdinOpen: true });
  const r = await cli.done;
  assert.equal(r.code, loginErrors().get('SIGN_IN_TIMEOUT'));
  assert.match(r.stdout, /^LOGIN sites=1 cookies=1 ended=timeout /m);
  const last = r.stderr.trim().split('\n').at(-1)!;
  assert.match(last, /^\[error\] The sign-in window was still open after 12000 ms \(--timeout\) and was closed; what was signed in so far is kept\. Ask the user/);
  const run = await whoami('login-timeout', envWith(undefined));
  assert.match(run.stdout, /^WHO=carol$/m, run.stderr);
  assertNoSecret(r.stdout + r.stderr + run.stdout, 'login --timeout');
});

test('login with no display fails at once naming the import path; a non-http URL is a usage error', async () => {
  const started = Date.now();
  const r = await runCli(['login', `${server.origin}/signin`, '--session', 'login-nodisplay'], { env: envWith(undefined) });
  assert.equal(r.code, loginErrors().get('NO_DISPLAY'));
  assert.equal(r.code, 3);
  assert.ok(Date.now() - started < 10_000, 'at once');
  assert.equal(r.stdout, '');
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /^\[error\] No display for the sign-in window \(DISPLAY and WAYLAND_DISPLAY are unset.*`gstack sessions import-cookies --from-browser chrome --domain 127\.0\.0\.1`.*`gstack sessions import-cookies FILE`/);

  const bad = await runCli(['login', 'file:///etc/passwd', '--session', 'login-nodisplay'], { env: envWith(':0') });
  assert.equal(bad.code, loginErrors().get('BAD_URL'));
  assert.equal(bad.code, 2);
  assert.match(bad.stderr.trim(), /^\[error\] `gstack login` needs an http\(s\) URL, not "file:\/\/\/etc\/passwd": pass the site's sign-in page/);
});
