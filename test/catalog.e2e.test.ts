// The catalog against the built CLI: every command and flag it lists is one `gstack --help`
// shows, and every exit code one the CLI really exits with. (The catalog against its schema
// and the sandbox, without a build, is catalog.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandSpec, loadCatalog } from '../driver/catalog.js';
import { runCli } from './helpers/cli.js';

const catalog = loadCatalog();

test('every shared flag and run flag in the catalog is accepted by `gstack run --help`', async () => {
  const r = await runCli(['run', '--help']);
  assert.equal(r.code, 0, r.stderr);
  const run = commandSpec('run', catalog);
  // A flag counts only as an option line of its own (`  --cdp  ...`, `  -f, --file  ...`): the
  // prose of another flag that mentions it (--cdp's text names --connect) does not.
  const optionLine = (name: string, alias?: string) => new RegExp(`^\\s+${alias ? `-${alias}, ` : ''}--${name}\\b`, 'm');
  for (const f of [...(catalog.sharedFlags ?? []), ...run.flags]) assert.match(r.stdout, optionLine(f.name, f.alias), `--${f.name} missing from run --help`);
  // The check can fail: a flag only named in prose is not found.
  assert.doesNotMatch(r.stdout.replace(optionLine('connect'), '  (removed)'), optionLine('connect'));
});

test('every catalog command is a registered CLI subcommand', async () => {
  const r = await runCli(['--help']);
  assert.equal(r.code, 0, r.stderr);
  for (const c of catalog.commands) assert.match(r.stdout, new RegExp(`gstack ${c.name}\\b`), `${c.name} missing from --help`);
});

test('`gstack --version` and `-V` print the package version, as Playwright and agent-browser do', async () => {
  const { packageVersion } = await import('../driver/package-version.js');
  for (const flag of ['--version', '-V']) {
    const r = await runCli([flag]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), packageVersion());
    assert.match(r.stdout.trim(), /^\d+\.\d+\.\d+/);
  }
});

test('every exit code in the catalog is one the CLI really exits with, for the reason the catalog gives', { timeout: 120_000 }, async () => {
  const { acquireProfileLock } = await import('../driver/sessions/lock.js');
  const { sessionPaths, slugFor } = await import('../driver/sessions/key.js');
  const home = (await import('./helpers/cli.js')).tempHome();
  const env = { GSTACK_HOME: home, GSTACK_NO_HOST: '1' };
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCli(['run', ...args], { env: { ...env, ...extra } });
  // PROFILE_BUSY: this test holds the session's lock while a call waits for it.
  const lock = await acquireProfileLock(sessionPaths(slugFor('busy'), { GSTACK_HOME: home }).profileDir, { timeoutMs: 0, key: 'test' });
  const seen = new Map<string, number | null>([
    ['OK', (await run(['console.log("GSTACK_STEP_OK")', '--engine', 'chromium'])).code],
    ['SCRIPT_FAILED', (await run(['throw new Error("boom")', '--engine', 'chromium'])).code],
    ['USAGE', (await run(['console.log(1)', '--no-such-flag'])).code],
    ['NO_ENGINE', (await run(['console.log(1)', '--engine', 'chromium'], { GSTACK_CHROMIUM: '/nonexistent/chrome' })).code],
    ['PROFILE_BUSY', (await run(['console.log(1)', '--engine', 'chromium', '--session', 'busy', '--lock-timeout', '300'])).code],
  ]);
  await lock.release();
  assert.deepEqual(Object.fromEntries(seen), Object.fromEntries(catalog.exitCodes.map((e) => [e.name, e.code])));
});

