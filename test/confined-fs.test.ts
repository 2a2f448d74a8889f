import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createConfinedFs } from '../driver/confined-fs.js';

const setup = () => {
  const base = mkdtempSync(join(tmpdir(), 'confined-'));
  const pwd = join(base, 'pwd');
  mkdirSync(pwd);
  return { base, pwd, fs: createConfinedFs(pwd) };
};

test('relative paths land in pwd; nested dirs are created', async () => {
  const { pwd, fs } = setup();
  await fs.writeFile('a/b/c.txt', 'hi');
  assert.equal(readFileSync(join(pwd, 'a/b/c.txt'), 'utf8'), 'hi');
  assert.equal(await fs.readFile(join(pwd, 'a/b/c.txt'), 'utf8'), 'hi');
  assert.deepEqual(await fs.readdir('a'), ['b']);
});

test('absolute paths outside, ../ and symlinks that leave pwd are refused before writing', async () => {
  const { base, pwd, fs } = setup();
  await assert.rejects(fs.writeFile(join(base, 'out.txt'), 'x'), /fs refused/);
  await assert.rejects(fs.writeFile('../out2.txt', 'x'), /fs refused/);
  symlinkSync(base, join(pwd, 'link'));
  await assert.rejects(fs.writeFile('link/out3.txt', 'x'), /fs refused/);
  symlinkSync('/etc/hostname', join(pwd, 'host'));
  await assert.rejects(fs.readFile('host', 'utf8'), /fs refused/);
  await assert.rejects(fs.rm('.', { recursive: true }), /pwd itself cannot be removed/);
  for (const f of ['out.txt', 'out2.txt', 'out3.txt']) assert.ok(!existsSync(join(base, f)));
});
