// End-to-end: remote browsers. A Playwright browser server (launchServer on 127.0.0.1) for
// --connect, and a Chromium with --remote-debugging-port for --cdp. The session's cookies and
// localStorage set in one call are there in the next, via the storageState file (mode 0600).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import { chromiumArgs, findChromium } from '../driver/browser/chromium-find.js';
import { sessionPaths, slugFor } from '../driver/sessions/key.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliEnv, runCli, tempHome } from './helpers/cli.js';

let server: FixtureServer;
let home: string;
let env: NodeJS.ProcessEnv;
let browserServer: BrowserServer;

before(async () => {
  server = await startFixtureServer();
  home = await tempHome();
  env = cliEnv(home);
  browserServer = await chromium.launchServer({
    executablePath: findChromium().path,
    args: chromiumArgs(),
    host: '127.0.0.1',
    port: 0,
    headless: true,
  });
});
after(async () => {
  await browserServer.close();
  await server.close();
  await rm(home, { recursive: true, force: true });
});

const lit = (s: string) => JSON.stringify(s);

const setState = (origin: string, value: string) => `
  const pg = await openTab(${lit(`${origin}/set-cookie?name=remote_sid&value=${value}`)});
  await pg.evaluate((v) => localStorage.setItem("remote_key", v), ${lit('ls-' + value)});
  console.log("SET");
  await closeTab(pg);
  console.log("GSTACK_STEP_OK");`;

const readState = (origin: string) => `
  const pg = await openTab(${lit(origin + '/echo-title?t=remote-read')});
  console.log("TITLE=" + await pg.title());
  console.log("LS=" + await pg.evaluate(() => localStorage.getItem("remote_key")));
  const me = await (await fetch(${lit(origin + '/api/me')})).json();
  console.log("COOKIE=" + me.cookie);
  await closeTab(pg);
  console.log("GSTACK_STEP_OK");`;

test('--connect: cookies and localStorage set in one call are there in the next', { timeout: 120_000 }, async () => {
  const ws = browserServer.wsEndpoint();
  assert.match(ws, /^ws:\/\/127\.0\.0\.1:/);
  const key = 'remote-connect';
  const paths = sessionPaths(slugFor(key), { GSTACK_HOME: home });

  const first = await runCli(['run', '--session', key, '--connect', ws, setState(server.origin, 'c1')], { env });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.ok(existsSync(paths.storageStatePath), 'storageState saved in the session dir');
  assert.equal(statSync(paths.storageStatePath).mode & 0o777, 0o600, 'state file readable only by its owner');
  assert.equal(existsSync(paths.profileDir), false, 'a remote session has no local profile');
  assert.equal(existsSync(paths.sessionDir + '.lock'), false, 'lock released');

  const second = await runCli(['run', '--session', key, '--connect', ws, readState(server.origin)], { env });
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(second.stdout, /TITLE=remote-read/);
  assert.match(second.stdout, /^LS=ls-c1$/m);
  assert.match(second.stdout, /COOKIE=.*remote_sid=c1/);

  // Another session on the same remote browser sees none of it (a fresh context per call).
  const other = await runCli(['run', '--session', 'remote-other', '--connect', ws, readState(server.origin)], { env });
  assert.equal(other.code, 0, other.stdout + other.stderr);
  assert.match(other.stdout, /^LS=null$/m);
  assert.doesNotMatch(other.stdout, /remote_sid/);

  // import-cookies into a remote session goes to its storageState file; the next call sees it
  // and keeps the state it had. The value is never printed.
  const cookieFile = join(home, 'import.txt');
  await writeFile(cookieFile, `127.0.0.1\tFALSE\t/\tFALSE\t${Math.floor(Date.now() / 1000) + 3600}\timported\tVALUE-remote-9d1f\n`);
  const imp = await runCli(['sessions', 'import-cookies', cookieFile, '--session', key], { env });
  assert.equal(imp.code, 0, imp.stdout + imp.stderr);
  assert.match(imp.stdout, /IMPORTED cookies=1 .*into=storageState/);
  assert.ok(!(imp.stdout + imp.stderr).includes('VALUE-remote-9d1f'));
  const third = await runCli(['run', '--session', key, '--connect', ws, readState(server.origin)], { env });
  assert.equal(third.code, 0, third.stdout + third.stderr);
  assert.match(third.stdout, /COOKIE=.*imported=VALUE-remote-9d1f/);
  assert.match(third.stdout, /COOKIE=.*remote_sid=c1/);

  const list = await runCli(['sessions', 'list'], { env });
  assert.match(list.stdout, new RegExp(`SESSION ${slugFor(key)} key="${key}".*remote=yes`));
});

test('--connect to a server that is not there: exit 3 with what to check', { timeout: 60_000 }, async () => {
  const r = await runCli(['run', '--session', 'remote-none', '--connect', 'ws://127.0.0.1:9/nothing', 'console.log("GSTACK_STEP_OK")'], { env });
  assert.equal(r.code, 3, r.stdout + r.stderr);
  assert.match(r.stdout + r.stderr, /Could not connect to the remote browser at ws:\/\/127\.0\.0\.1:9/);
});

test('--cdp: state persists between calls over a CDP endpoint', { timeout: 120_000 }, async () => {
  const userDataDir = await mkdtemp(join(tmpdir(), 'gstack-cdp-'));
  const proc: ChildProcess = spawn(
    findChromium().path,
    [...chromiumArgs(), '--headless', '--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0', `--user-data-dir=${userDataDir}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  try {
    let port = '';
    for (let i = 0; i < 100 && !port; i++) {
      port = (await readFile(join(userDataDir, 'DevToolsActivePort'), 'utf8').catch(() => '')).split('\n')[0];
      if (!port) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(port, 'Chromium published its DevTools port');
    const cdp = `http://127.0.0.1:${port}`;
    const key = 'remote-cdp';
    const first = await runCli(['run', '--session', key, '--cdp', cdp, setState(server.origin, 'd2')], { env });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const second = await runCli(['run', '--session', key, '--cdp', cdp, readState(server.origin)], { env });
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stdout, /^LS=ls-d2$/m);
    assert.match(second.stdout, /COOKIE=.*remote_sid=d2/);
    assert.equal(proc.exitCode, null, 'disconnecting did not shut down a browser we did not launch');
  } finally {
    proc.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    await rm(userDataDir, { recursive: true, force: true });
  }
});
