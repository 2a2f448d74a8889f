// Chromium discovery: the fixed order (GSTACK_CHROMIUM, Playwright's cache,
// the system), and inside a source the headless shell first for headless calls, the full
// browser for headed ones. Playwright's cache is faked with PLAYWRIGHT_BROWSERS_PATH.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findChromium, NoChromiumError } from '../driver/browser/chromium-find.js';

async function fakeExe(path: string): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, '#!/bin/sh\nexit 0\n');
  await chmod(path, 0o755);
  return path;
}

// Each fake cache is removed when the file ends: /tmp is shared with other sessions' runs.
const fakeRoots: string[] = [];
after(() => Promise.all(fakeRoots.map((root) => rm(root, { recursive: true, force: true }))));

async function fakeCache(): Promise<{ root: string; shell: string; browser: string; oldShell: string }> {
  const root = await mkdtemp(join(tmpdir(), 'gstack-pwcache-'));
  fakeRoots.push(root);
  return {
    root,
    oldShell: await fakeExe(join(root, 'chromium_headless_shell-1100', 'chrome-headless-shell-linux64', 'chrome-headless-shell')),
    shell: await fakeExe(join(root, 'chromium_headless_shell-1200', 'chrome-headless-shell-linux64', 'chrome-headless-shell')),
    browser: await fakeExe(join(root, 'chromium-1200', 'chrome-linux64', 'chrome')),
  };
}

test('a headless call prefers the newest headless shell in Playwright\'s cache', { skip: process.platform !== 'linux' }, async () => {
  const c = await fakeCache();
  const found = findChromium({ PLAYWRIGHT_BROWSERS_PATH: c.root });
  assert.deepEqual(found, { path: c.shell, source: 'playwright', kind: 'headless-shell' });
});

test('a headed call skips headless shells and takes the full browser', { skip: process.platform !== 'linux' }, async () => {
  const c = await fakeCache();
  const found = findChromium({ PLAYWRIGHT_BROWSERS_PATH: c.root }, { headed: true });
  assert.deepEqual(found, { path: c.browser, source: 'playwright', kind: 'browser' });
});

test('GSTACK_CHROMIUM wins over everything, headed or not', async () => {
  const c = await fakeCache();
  const mine = await fakeExe(join(c.root, 'mine', 'chrome'));
  assert.deepEqual(findChromium({ GSTACK_CHROMIUM: mine, PLAYWRIGHT_BROWSERS_PATH: c.root }), { path: mine, source: 'GSTACK_CHROMIUM', kind: 'unknown' });
  assert.equal(findChromium({ GSTACK_CHROMIUM: mine, PLAYWRIGHT_BROWSERS_PATH: c.root }, { headed: true }).path, mine);
});

test('a GSTACK_CHROMIUM that is not executable: NoChromiumError with the install command', () => {
  assert.throws(() => findChromium({ GSTACK_CHROMIUM: '/nonexistent/chrome' }), (err: unknown) => {
    assert.ok(err instanceof NoChromiumError);
    assert.match(err.message, /GSTACK_CHROMIUM=\/nonexistent\/chrome is not an executable file/);
    assert.match(err.message, /Install one with: /);
    return true;
  });
});

test('on this machine a headless call finds the headless shell set-up installed; a headed call never gets it', { skip: process.platform !== 'linux' }, () => {
  // bin/setup.sh installs Debian's chromium-headless-shell next to chromium (where apt exists).
  const debianShell = '/usr/lib/chromium/chromium-headless-shell';
  const found = findChromium({});
  if (existsSync(debianShell)) assert.equal(found.kind, 'headless-shell', `the shell is installed but ${found.path} was chosen`);
  let headed;
  try {
    headed = findChromium({}, { headed: true });
  } catch (err) {
    assert.ok(err instanceof NoChromiumError && /--headed needs a window/.test(err.message), String(err));
    return;
  }
  assert.equal(headed.kind, 'browser');
  assert.notEqual(headed.path, debianShell);
});
