// `gstack sessions import-cookies --from-browser` end to end: a real Chromium profile laid out
// as the user's own browser (under a temp XDG_CONFIG_HOME), cookies set by a real page, the
// import through the CLI, and the next `gstack run` of the session signed in. Also each error
// (missing browser or profile, locked or damaged database, no keyring key) as one line with its
// catalog exit code, the keyring (`v11`) and macOS Keychain keys through doubles of
// `secret-tool` and `security`, and a database whose last writes are still in its WAL.
// No output of any command may contain a cookie value.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import initSqlJs from 'sql.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { cliEnv, runCli, tempHome } from './helpers/cli.js';
import { browseWithChromium, cookieDbOf, readCookieRows, reencryptCookieDb } from './helpers/browser-profile.js';
import { loadCatalog } from '../driver/catalog.js';
import { readBrowserCookies } from '../driver/profiles/browser-cookies.js';
import { CommandError } from '../driver/command-errors.js';

let server: FixtureServer;
let home: string; // GSTACK_HOME
let work: string; // the user's HOME, config dirs, doubles
let config: string; // XDG_CONFIG_HOME holding chromium/ (the user's browser)
let localhostOrigin: string;

before(async () => {
  server = await startFixtureServer();
  localhostOrigin = server.origin.replace('127.0.0.1', 'localhost');
  home = await tempHome();
  work = await mkdtemp(join(tmpdir(), 'gstack-signin-'));
  config = join(work, 'config');
  // The user signed in as alice on 127.0.0.1 and as mallory on localhost (another site).
  await browseWithChromium(join(config, 'chromium'), [`${server.origin}/signin?user=alice&persist=1`, `${localhostOrigin}/signin?user=mallory&persist=1`]);
});
after(async () => {
  await server.close();
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const envFor = (extra: NodeJS.ProcessEnv = {}) => cliEnv(home, { HOME: work, XDG_CONFIG_HOME: config, ...extra });
const tokens = () => [...server.signins.keys()];
function assertNoSecret(text: string, where: string) {
  for (const t of tokens()) assert.ok(!text.includes(t), `${where} contains a cookie value:\n${text}`);
}

const whoScript = (origins: string[]) =>
  origins
    .map((o, i) => `{ const pg = await openTab(${JSON.stringify(o + '/whoami')}); console.log("WHO${i}=" + await pg.textContent("#who")); await closeTab(pg); }`)
    .join('\n') + '\nconsole.log("GSTACK_STEP_OK");';

/** Copies the user's chromium/ folder to a new config home (as `browserDir`), to damage it. */
async function copyOfBrowser(name: string, browserDir = 'chromium'): Promise<string> {
  const dir = join(work, name);
  await cp(join(config, 'chromium'), join(dir, browserDir), { recursive: true });
  return dir;
}

test('import-cookies --from-browser chromium --domain: the v10 cookies of a real profile sign the next run in; only that domain; no value printed', { timeout: 180_000 }, async () => {
  const db = cookieDbOf(join(config, 'chromium'));
  const { rows } = await readCookieRows(db);
  assert.ok(rows.length >= 2, 'the page set its cookies');
  for (const r of rows) assert.equal(Buffer.from(r.encrypted_value.subarray(0, 3)).toString(), 'v10', `${r.name}@${r.host_key} is v10-encrypted`);

  const imp = await runCli(['sessions', 'import-cookies', '--from-browser', 'chromium', '--domain', '127.0.0.1', '--session', 'br-1'], { env: envFor() });
  assert.equal(imp.code, 0, imp.stderr);
  assert.match(imp.stdout, new RegExp(`^FROM_BROWSER chromium profile=Default cookies=${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  assert.match(imp.stdout, /^IMPORTED cookies=1 domains=127\.0\.0\.1 origins=0 format=browser into=profile /m);

  const run = await runCli(['run', '--session', 'br-1', whoScript([server.origin, localhostOrigin])], { env: envFor() });
  assert.equal(run.code, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /^WHO0=alice$/m, 'the imported sign-in works on 127.0.0.1');
  assert.match(run.stdout, /^WHO1=nobody$/m, '--domain 127.0.0.1 left localhost out');

  // --json, and a URL as --domain: the same cookie, still no value.
  const json = await runCli(['sessions', 'import-cookies', '--from-browser', 'chromium', '--domain', `${localhostOrigin}/`, '--session', 'br-2', '--json'], { env: envFor() });
  assert.equal(json.code, 0, json.stderr);
  const obj = JSON.parse(json.stdout);
  assert.equal(obj.cookies, 1);
  assert.deepEqual(obj.domains, ['localhost']);
  assert.equal(obj.browser, 'chromium');
  assert.equal(obj.browserProfile, 'Default');
  const run2 = await runCli(['run', '--session', 'br-2', whoScript([localhostOrigin])], { env: envFor() });
  assert.match(run2.stdout, /^WHO0=mallory$/m, run2.stderr);

  for (const [what, r] of [['import', imp], ['run', run], ['import --json', json], ['run 2', run2]] as const) assertNoSecret(r.stdout + r.stderr, what);
});

test('from-browser errors: one line each with the next step and the catalog exit code; no value printed', { timeout: 120_000 }, async () => {
  const emptyDb = async (file: string) => {
    const SQL = await initSqlJs();
    const d = new SQL.Database();
    d.run('CREATE TABLE meta(key TEXT, value TEXT)');
    await writeFile(file, d.export());
    d.close();
  };
  const garbage = await copyOfBrowser('garbage', 'google-chrome');
  await writeFile(cookieDbOf(join(garbage, 'google-chrome')), Buffer.alloc(4096, 0x41));
  const noTable = await copyOfBrowser('no-table');
  await emptyDb(cookieDbOf(join(noTable, 'chromium')));
  // A hot journal that never goes away: the browser is in the middle of writing the database.
  const writing = await copyOfBrowser('writing');
  const hot = Buffer.alloc(512);
  Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]).copy(hot);
  await writeFile(cookieDbOf(join(writing, 'chromium')) + '-journal', hot);
  // The same database as a browser using the desktop keyring writes it (v11), on a machine
  // without secret-tool.
  const keyring = await copyOfBrowser('keyring');
  const names = new Map([...server.signins].map(([t, u]) => [u, t]));
  const plainOf = (r: { host_key: string }) => names.get(r.host_key === '127.0.0.1' ? 'alice' : 'mallory');
  await reencryptCookieDb(cookieDbOf(join(keyring, 'chromium')), plainOf, { password: 'kr-pass', iterations: 1, prefix: 'v11' });
  const noTools = await mkdtemp(join(work, 'path-'));

  const cases: Array<{ name: string; args: string[]; env?: NodeJS.ProcessEnv; code: number; re: RegExp }> = [
    { name: 'BROWSER_NOT_FOUND', args: ['--from-browser', 'brave'], code: 2, re: /^\[error\] No Brave data for this user at .*BraveSoftware\/Brave-Browser .*`gstack sessions import-cookies FILE`\.$/ },
    { name: 'BROWSER_PROFILE_NOT_FOUND', args: ['--from-browser', 'chromium', '--browser-profile', 'Work'], code: 2, re: /^\[error\] Chromium has no profile "Work" in .* \(profiles there: Default.*\)\. Pass --browser-profile with one of them\.$/ },
    { name: 'COOKIE_DB_CORRUPT (not SQLite)', args: ['--from-browser', 'chrome'], env: { XDG_CONFIG_HOME: garbage }, code: 2, re: /^\[error\] .*Cookies is not a readable Chrome cookie database .*Start and close Chrome once/ },
    { name: 'COOKIE_DB_CORRUPT (no cookies table)', args: ['--from-browser', 'chromium'], env: { XDG_CONFIG_HOME: noTable }, code: 2, re: /^\[error\] .*Cookies is not a readable Chromium cookie database/ },
    { name: 'COOKIE_DB_LOCKED', args: ['--from-browser', 'chromium'], env: { XDG_CONFIG_HOME: writing }, code: 2, re: /^\[error\] Cannot read Chromium's cookie database .* \(Chromium was writing it on every try\)\. Close Chromium \(or wait a moment\) and run the command again\.$/ },
    { name: 'KEYRING_UNAVAILABLE', args: ['--from-browser', 'chromium'], env: { XDG_CONFIG_HOME: keyring, PATH: noTools }, code: 3, re: /^\[error\] Cannot decrypt Chromium's cookies: .*`secret-tool` is not installed.*`gstack sessions import-cookies FILE`.*`gstack login URL`\.$/ },
    { name: 'NO_MATCHING_COOKIES', args: ['--from-browser', 'chromium', '--domain', 'example.com'], code: 2, re: /^\[error\] Chromium profile "Default" has no unexpired cookie for example\.com\. Ask the user to sign in/ },
    { name: 'FILE and --from-browser', args: ['cookies.txt', '--from-browser', 'chromium'], code: 2, re: /^\[error\] `sessions import-cookies`: give a cookie FILE or --from-browser, not both$/ },
  ];
  for (const c of cases) {
    const r = await runCli(['sessions', 'import-cookies', ...c.args, '--session', 'br-err'], { env: envFor(c.env) });
    assert.equal(r.code, c.code, `${c.name}: exit ${r.code}\n${r.stderr}`);
    assert.equal(r.stdout, '', `${c.name}: nothing on stdout`);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `${c.name}: one line\n${r.stderr}`);
    assert.match(lines[0], c.re, c.name);
    assertNoSecret(r.stderr, c.name);
  }
  // The exit codes are the catalog's.
  const errs = new Map((loadCatalog().commands.find((x) => x.name === 'sessions')!.errors ?? []).map((e) => [e.name, e.exitCode]));
  const named = cases.filter((x) => errs.has(x.name.split(' ')[0]));
  assert.equal(named.length, cases.length - 1, 'every case but the usage one is a catalog error');
  for (const c of named) assert.equal(c.code, errs.get(c.name.split(' ')[0]), c.name);
});

test('v11 (desktop keyring): the key secret-tool gives decrypts the cookies; a wrong one is an error', { timeout: 120_000 }, async () => {
  const keyring = await copyOfBrowser('keyring-ok');
  const names = new Map([...server.signins].map(([t, u]) => [u, t]));
  await reencryptCookieDb(cookieDbOf(join(keyring, 'chromium')), (r) => (r.host_key === '127.0.0.1' ? names.get('alice') : undefined), {
    password: 'kr-pass',
    iterations: 1,
    prefix: 'v11',
  });
  // Test double of libsecret's secret-tool: answers Chromium's Secret Service entry.
  const doubles = await mkdtemp(join(work, 'secret-tool-'));
  const log = join(doubles, 'calls.log');
  const tool = join(doubles, 'secret-tool');
  const writeTool = (password: string) =>
    writeFile(tool, `#!/bin/sh\necho "$*" >> '${log}'\n[ "$*" = "lookup application chromium" ] && printf '%s' '${password}' && exit 0\nexit 1\n`).then(() => chmod(tool, 0o755));
  await writeTool('kr-pass');
  const env = envFor({ XDG_CONFIG_HOME: keyring, PATH: `${doubles}:${process.env.PATH}` });
  const imp = await runCli(['sessions', 'import-cookies', '--from-browser', 'chromium', '--session', 'br-v11'], { env });
  assert.equal(imp.code, 0, imp.stderr);
  assert.match(imp.stdout, /^IMPORTED cookies=1 domains=127\.0\.0\.1 /m);
  assert.match(await readFile(log, 'utf8'), /^lookup application chromium$/m);
  const run = await runCli(['run', '--session', 'br-v11', whoScript([server.origin])], { env });
  assert.match(run.stdout, /^WHO0=alice$/m, run.stderr);

  await writeTool('not-the-key');
  const bad = await runCli(['sessions', 'import-cookies', '--from-browser', 'chromium', '--session', 'br-v11b'], { env });
  assert.equal(bad.code, 3);
  assert.match(bad.stderr.trim(), /^\[error\] Cannot decrypt Chromium's cookies: the key Chromium keeps in the desktop keyring does not decrypt its cookies\. .*import-cookies FILE/);
  for (const r of [imp, run, bad]) assertNoSecret(r.stdout + r.stderr, 'v11');
  assert.ok(!(imp.stdout + bad.stderr).includes('kr-pass') && !bad.stderr.includes('not-the-key'), 'the keyring password is never printed');
});

test('macOS: the Keychain key (1003 iterations) decrypts; a refused Keychain is KEYRING_UNAVAILABLE', async () => {
  // The macOS layout under a temp HOME, the values encrypted with a Keychain password, and a
  // test double of `security` that answers for "Chrome Safe Storage".
  const macHome = await mkdtemp(join(work, 'mac-'));
  const userData = join(macHome, 'Library', 'Application Support', 'Google', 'Chrome');
  await mkdir(dirname(userData), { recursive: true });
  await cp(join(config, 'chromium'), userData, { recursive: true });
  const names = new Map([...server.signins].map(([t, u]) => [u, t]));
  await reencryptCookieDb(cookieDbOf(userData), (r) => names.get(r.host_key === '127.0.0.1' ? 'alice' : 'mallory'), { password: 'mac-pass', iterations: 1003, prefix: 'v10' });
  const doubles = await mkdtemp(join(work, 'security-'));
  await writeFile(join(doubles, 'security'), `#!/bin/sh\n[ "$*" = "find-generic-password -w -s Chrome Safe Storage" ] && echo 'mac-pass' && exit 0\nexit 44\n`);
  await chmod(join(doubles, 'security'), 0o755);
  const env = { HOME: macHome, PATH: `${doubles}:${process.env.PATH}` };
  const got = await readBrowserCookies({ browser: 'chrome', platform: 'darwin', env, domains: ['localhost'] });
  assert.deepEqual(
    got.cookies.map((c) => [c.name, c.domain, c.value === names.get('mallory')]),
    [['auth', 'localhost', true]],
  );
  const refused = await readBrowserCookies({ browser: 'brave', platform: 'darwin', env: { HOME: macHome, PATH: doubles } }).catch((e) => e);
  assert.ok(refused instanceof CommandError && refused.code === 'BROWSER_NOT_FOUND', String(refused));
  await cp(userData, join(macHome, 'Library', 'Application Support', 'Microsoft Edge'), { recursive: true });
  const denied = await readBrowserCookies({ browser: 'edge', platform: 'darwin', env: { HOME: macHome, PATH: doubles } }).catch((e) => e);
  assert.ok(denied instanceof CommandError && denied.code === 'KEYRING_UNAVAILABLE' && denied.exitCode === 3, String(denied));
  assert.match(denied.message, /the macOS Keychain did not give the "Microsoft Edge Safe Storage" key .*import-cookies FILE/);
  const windows = await readBrowserCookies({ browser: 'chrome', platform: 'win32', env }).catch((e) => e);
  assert.ok(windows instanceof CommandError && windows.code === 'KEYRING_UNAVAILABLE', String(windows));
  assert.match(windows.message, /Linux and macOS only, not win32\. .*import-cookies FILE/);
});

test('a database whose last writes are still in its -wal file: the copy includes them', async (t) => {
  if (spawnSync('python3', ['-c', 'import sqlite3'], { stdio: 'ignore' }).status !== 0) return t.skip('python3 with sqlite3 is not installed: it writes the WAL database (real SQLite)');
  const walConfig = await copyOfBrowser('wal');
  const db = cookieDbOf(join(walConfig, 'chromium'));
  // Real SQLite switches the database to WAL, adds a cookie, and the files are copied while
  // it still holds them open (no checkpoint): the new row exists only in Cookies-wal.
  const py = `
import sqlite3, shutil, sys
db = sys.argv[1]
c = sqlite3.connect(db)
c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')
row = c.execute("SELECT * FROM cookies WHERE host_key='127.0.0.1'").fetchone()
cols = [d[0] for d in c.execute('SELECT * FROM cookies').description]
new = dict(zip(cols, row)); new['name'] = 'walcookie'; new['value'] = 'WAL-ONLY-VALUE'; new['encrypted_value'] = b''
c.execute('INSERT INTO cookies (%s) VALUES (%s)' % (','.join(cols), ','.join('?' * len(cols))), [new[k] for k in cols])
c.commit()
shutil.copy(db, db + '.main'); shutil.copy(db + '-wal', db + '.wal')
c.close()
shutil.move(db + '.main', db); shutil.move(db + '.wal', db + '-wal')
`;
  const r = spawnSync('python3', ['-c', py, db], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const got = await readBrowserCookies({ browser: 'chromium', env: { HOME: work, XDG_CONFIG_HOME: walConfig }, platform: 'linux', domains: ['127.0.0.1'] });
  const wal = got.cookies.find((c) => c.name === 'walcookie');
  assert.equal(wal?.value, 'WAL-ONLY-VALUE', 'the committed row in the WAL is read');
  assert.equal(got.cookies.find((c) => c.name === 'auth')?.value, [...server.signins].find(([, u]) => u === 'alice')?.[0]);
});
