// The flow script's `fs` (driver/runtime/confined-fs.ts), every method, on both resolvers: the Linux
// one (a walk from a handle on pwd through /proc/self/fd, no link ever followed) and the
// portable fallback (real-path checks, opened files verified). The race it closes is attacked
// in test/security.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync, existsSync, mkdirSync, readFileSync, writeFileSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createConfinedFs } from '../driver/runtime/confined-fs.js';

const MODES = [
  { name: 'openat walk', useProcFd: true },
  { name: 'real-path fallback', useProcFd: false },
];

const setup = (useProcFd: boolean) => {
  const base = mkdtempSync(join(tmpdir(), 'confined-'));
  const pwd = join(base, 'pwd');
  mkdirSync(pwd);
  const outside = join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE');
  return { base, pwd, outside, fs: createConfinedFs(pwd, { useProcFd }) };
};
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

for (const { name, useProcFd } of MODES) {
  test(`${name}: every method works inside pwd; new files are 0600, new dirs 0700`, async () => {
    const { pwd, fs } = setup(useProcFd);
    await fs.writeFile('a/b/c.txt', 'hi');
    assert.equal(readFileSync(join(pwd, 'a/b/c.txt'), 'utf8'), 'hi');
    assert.equal(mode(join(pwd, 'a')), '700');
    assert.equal(mode(join(pwd, 'a/b/c.txt')), '600');
    assert.equal(await fs.readFile(join(pwd, 'a/b/c.txt'), 'utf8'), 'hi');
    assert.deepEqual(await fs.readFile('a/b/c.txt'), Buffer.from('hi'));
    assert.equal(await fs.readFile('a/b/c.txt', { encoding: 'utf8' }), 'hi');
    await fs.writeFile('a/b/c.txt', 'x'); // replaces, shorter
    await fs.appendFile('a/b/c.txt', 'yz');
    assert.equal(await fs.readFile('a/b/c.txt', 'utf8'), 'xyz');
    await assert.rejects(fs.appendFile('nope/x.txt', 'x'), { code: 'ENOENT' });
    assert.deepEqual(await fs.readdir('a'), ['b']);
    assert.deepEqual((await fs.readdir()).sort(), ['a']);
    // Pass 34 (C35): Node's Dirents were silently plain names.
    await assert.rejects(fs.readdir('a', { withFileTypes: true }), /fs\.readdir: \{ withFileTypes \} is not taken: it answers the names in one folder\. .*isDirectory\(\)/);
    await assert.rejects(fs.readdir('a', { recursive: true }), /\{ recursive \} is not taken/);
    assert.deepEqual(await fs.readdir('a', { encoding: 'utf8' }), ['b']);
    assert.equal(await fs.mkdir('m/n/o'), join(pwd, 'm'));
    assert.equal(await fs.mkdir('m/n/o'), undefined);
    assert.equal(mode(join(pwd, 'm/n')), '700');
    await assert.rejects(fs.mkdir('m', { recursive: false }), { code: 'EEXIST' });
    await assert.rejects(fs.mkdir('x/y', { recursive: false }), { code: 'ENOENT' });
    const st = await fs.stat('a/b/c.txt');
    assert.equal(st.size, 3);
    assert.ok(st.isFile());
    assert.ok((await fs.stat('a')).isDirectory());
    assert.ok((await fs.stat('.')).isDirectory());
    await fs.access('a/b/c.txt');
    await assert.rejects(fs.access('missing'), { code: 'ENOENT' });
    await fs.copyFile('a/b/c.txt', 'copy.txt');
    assert.equal(readFileSync(join(pwd, 'copy.txt'), 'utf8'), 'xyz');
    assert.equal(mode(join(pwd, 'copy.txt')), '600');
    await fs.rename('copy.txt', 'm/moved.txt');
    assert.equal(readFileSync(join(pwd, 'm/moved.txt'), 'utf8'), 'xyz');
    await fs.unlink('m/moved.txt');
    assert.ok(!existsSync(join(pwd, 'm/moved.txt')));
    await assert.rejects(fs.rm('m'), (e: NodeJS.ErrnoException) => /EISDIR/.test(String(e.code)));
    await fs.rm('m', { recursive: true });
    assert.ok(!existsSync(join(pwd, 'm')));
    await fs.rm('m', { force: true });
    await assert.rejects(fs.rm('m'), { code: 'ENOENT' });
  });

  test(`${name}: errors name the script's path, never /proc/self/fd`, async () => {
    const { fs } = setup(useProcFd);
    await assert.rejects(fs.readFile('dir/none.txt'), (e: Error) => !e.message.includes('/proc/') && /ENOENT/.test(e.message));
    await assert.rejects(fs.readFile('none.txt'), (e: Error) => /'none\.txt'/.test(e.message) && !e.message.includes('/proc/'));
    await assert.rejects(fs.rename('a.txt', 'b.txt'), (e: Error) => /'a\.txt' -> 'b\.txt'/.test(e.message));
  });

  test(`${name}: absolute paths outside, ../ and links are refused by every method, nothing outside touched`, async () => {
    const { base, pwd, outside, fs } = setup(useProcFd);
    await assert.rejects(fs.writeFile(join(base, 'out.txt'), 'x'), /fs refused/);
    await assert.rejects(fs.writeFile('../out2.txt', 'x'), /fs refused/);
    symlinkSync(outside, join(pwd, 'link'));
    symlinkSync(join(outside, 'secret.txt'), join(pwd, 'host'));
    writeFileSync(join(pwd, 'in.txt'), 'in');
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['writeFile through a dir link', () => fs.writeFile('link/out3.txt', 'x')],
      ['writeFile onto a file link', () => fs.writeFile('host', 'x')],
      ['appendFile', () => fs.appendFile('host', 'x')],
      ['readFile', () => fs.readFile('host', 'utf8')],
      ['readFile through a dir link', () => fs.readFile('link/secret.txt', 'utf8')],
      ['readdir', () => fs.readdir('link')],
      ['stat', () => fs.stat('link/secret.txt')],
      ['access', () => fs.access('link/secret.txt')],
      ['mkdir', () => fs.mkdir('link/made')],
      ['rm', () => fs.rm('link/secret.txt')],
      ['unlink', () => fs.unlink('link/secret.txt')],
      ['rename from', () => fs.rename('link/secret.txt', 'stolen.txt')],
      ['rename to', () => fs.rename('in.txt', 'link/planted.txt')],
      ['copyFile from', () => fs.copyFile('link/secret.txt', 'stolen.txt')],
      ['copyFile to', () => fs.copyFile('in.txt', 'link/planted.txt')],
    ];
    for (const [what, attempt] of attempts) await assert.rejects(attempt(), /fs refused/, what);
    await assert.rejects(fs.rm('.', { recursive: true }), /pwd itself cannot be removed/);
    assert.deepEqual(readdirSync(outside), ['secret.txt']);
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'OUTSIDE');
    assert.ok(!existsSync(join(base, 'out.txt')) && !existsSync(join(base, 'out2.txt')));
    // The links themselves are inside pwd: removing one removes the link, never its target.
    await fs.unlink('host');
    await fs.rm('link', { recursive: true });
    assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'OUTSIDE');
  });
}

// Pass 42 (C42): a script read `await download.path()` (Playwright's temporary file, outside pwd)
// and was told only "Use path.join(pwd, ...)".
test('reading a download where Playwright keeps it names saveAs', async () => {
  const { fs } = setup(true);
  await assert.rejects(fs.readFile('/tmp/playwright-artifacts-Ab12Cd/4c47fcfa-1bc7-4b53-92ff-93b9942954ad'), /download\.saveAs\(path\.join\(pwd, download\.suggestedFilename\(\)\)\)/);
  await assert.rejects(fs.readFile('/etc/hostname'), /Use path\.join\(pwd, "name"\)\.$/);
});

// Pass 42 (C42): fs.access of a missing file said "open 'x'", the open behind it.
test('a missing file\'s error names the operation the script called, as Node\'s does', async () => {
  for (const { useProcFd } of MODES) {
    const { fs } = setup(useProcFd);
    for (const [op, call] of [['stat', () => fs.stat('nope.txt')], ['access', () => fs.access('nope.txt')], ['scandir', () => fs.readdir('nodir')], ['open', () => fs.readFile('nope.txt')]] as const) {
      await assert.rejects(call(), (e: NodeJS.ErrnoException) => {
        assert.equal(e.code, 'ENOENT');
        assert.match(e.message, new RegExp(`^ENOENT: no such file or directory, ${op} '(nope\\.txt|nodir)'$`));
        return true;
      });
    }
  }
});

test('a link inside pwd that points inside is not followed either (one rule, no real-path exceptions)', async () => {
  const { pwd, fs } = setup(true);
  mkdirSync(join(pwd, 'real'));
  symlinkSync(join(pwd, 'real'), join(pwd, 'alias'));
  await assert.rejects(fs.writeFile('alias/x.txt', 'x'), /symbolic links are never followed/);
  await fs.writeFile('real/x.txt', 'x');
});

test('pwd given through a link (like /tmp -> /private/tmp) works with either spelling', async () => {
  const { base, pwd } = setup(true);
  symlinkSync(pwd, join(base, 'pwd-alias'));
  const fs = createConfinedFs(join(base, 'pwd-alias'));
  await fs.writeFile(join(base, 'pwd-alias', 'a.txt'), 'a');
  await fs.writeFile(join(pwd, 'b.txt'), 'b');
  assert.deepEqual(readdirSync(pwd).sort(), ['a.txt', 'b.txt']);
});

// Red-team pass 30 (C30): a script's own Uint8Array (another realm, so not `instanceof` the
// host's) was written as the text "1,2,3", an ArrayBuffer as "[object ArrayBuffer]"; options
// Node takes ({ mode }, { flag }) threw only after the file was opened, leaving it empty.
test('writeFile takes bytes of any realm and node:fs options, and refuses what Node refuses before opening the file', async () => {
  const vm = await import('node:vm');
  const pwd = mkdtempSync(join(tmpdir(), 'gstack-cfs-data-'));
  const fs = createConfinedFs(pwd);
  const [u8, ab, view] = vm.runInNewContext('[new Uint8Array([1, 2, 3]), new Uint16Array([0x4142]).buffer, new DataView(new Uint8Array([9, 8]).buffer)]') as [Uint8Array, ArrayBuffer, DataView];
  await fs.writeFile('u8.bin', u8);
  await fs.writeFile('ab.bin', ab);
  await fs.writeFile('view.bin', view);
  assert.deepEqual([...readFileSync(join(pwd, 'u8.bin'))], [1, 2, 3]);
  assert.equal(readFileSync(join(pwd, 'ab.bin'), 'latin1'), 'BA');
  assert.deepEqual([...readFileSync(join(pwd, 'view.bin'))], [9, 8]);
  await fs.writeFile('t.txt', 'aGk=', { encoding: 'base64' });
  await fs.writeFile('t.txt', '!', { flag: 'a' });
  await fs.appendFile('t.txt', '?', 'utf8');
  assert.equal(readFileSync(join(pwd, 't.txt'), 'utf8'), 'hi!?');
  for (const [data, opts, why] of [[{ a: 1 }, undefined, /must be a string, a Buffer/], [42, undefined, /must be a string/], ['x', { mode: 0o6777 }, /\{ mode \} is not taken/], ['x', { flag: 'wx' }, /flag "wx" is not taken/], ['x', 'klingon', /not an encoding Node knows/]] as const) {
    await assert.rejects(fs.writeFile('refused.txt', data as never, opts as never), why);
  }
  assert.ok(!existsSync(join(pwd, 'refused.txt')), 'a refused write leaves no file');
});
