// Attacks on the render commands' promises (docs/SECURITY.md): `gstack pdf` never inlines an
// image from a dot-path (.ssh, .git, .env), as the render server never serves one; and no input
// of `gstack pdf`, `gstack diagram` or `gstack render` (the document, a --header/--footer file,
// an image) can hang a call: a FIFO, a device or a directory is refused at once. The compiled
// CLI, real Chromium, real files and FIFOs in a temp folder.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, cliWith, expectExit } from './helpers/cli.js';
import { pdfImageList } from './helpers/inspect.js';

let work: string;
let docs: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'gstack-sec-render-'));
  docs = join(work, 'docs');
  mkdirSync(join(docs, 'img'), { recursive: true });
});
after(() => rmSync(work, { recursive: true, force: true }));

const gstack = cliWith(() => ({ cwd: docs, env: { GSTACK_SKIP_ASIDE: '1', GSTACK_HOME: join(work, 'home') }, timeoutMs: 60_000 }));
const SWATCH = readFileSync(join(ROOT, 'test', 'fixtures', 'markdown', 'img', 'swatch.png'));
/** A call refused at once: well under any deadline it could have hung past. */
const QUICK_MS = 15_000;

test('gstack pdf never inlines an image under a dot-path, as written or as its real path, and says which and why', async () => {
  mkdirSync(join(docs, '.ssh'));
  mkdirSync(join(docs, '.git'));
  const sshBytes = Buffer.from('\x89PNG\r\n\x1a\nDOTSSHPNG\n', 'latin1');
  writeFileSync(join(docs, '.ssh', 'id.png'), sshBytes);
  writeFileSync(join(docs, '.git', 'x.png'), SWATCH);
  writeFileSync(join(docs, 'img', 'ok.png'), SWATCH);
  // A visible name whose real path is hidden.
  symlinkSync(join(docs, '.git', 'x.png'), join(docs, 'img', 'shown.png'));
  writeFileSync(join(docs, 'md2.md'), `# Report\n\n![s](.ssh/id.png)\n![g](.git/x.png)\n![l](img/shown.png)\n![f](file://${join(docs, '.git', 'x.png')})\n![ok](img/ok.png)\n`);

  const html = await gstack(['pdf', 'md2.md', 'out.html', '--to', 'html']);
  expectExit(html, 0);
  const page = readFileSync(join(docs, 'out.html'), 'utf8');
  assert.ok(!page.includes(sshBytes.toString('base64')), 'the .ssh file is inlined');
  const swatch = SWATCH.toString('base64');
  assert.equal(page.split(swatch).length - 1, 1, 'only img/ok.png is inlined, not the .git image behind any name');
  for (const ref of ['.ssh/id.png', '.git/x.png', 'img/shown.png']) {
    assert.match(html.stderr, new RegExp(`missing image ${ref.replace(/\./g, '\\.')} \\(under \\.(ssh|git): files and folders whose name starts with "\\." are never inlined\\)`), html.stderr);
  }

  // In a PDF: one image (the visible one), and --strict makes the refusal a failure.
  const pdf = await gstack(['pdf', 'md2.md', 'out.pdf']);
  expectExit(pdf, 0);
  const images = pdfImageList(join(docs, 'out.pdf')).trim().split('\n').slice(2);
  assert.equal(images.length, 1, pdfImageList(join(docs, 'out.pdf')));
  const strict = await gstack(['pdf', 'md2.md', 'strict.pdf', '--strict']);
  expectExit(strict, 1);
  assert.match(strict.stderr, /missing image \.ssh\/id\.png \(under \.ssh: .*never inlined\) \(--strict\)/);
  assert.ok(!existsSync(join(docs, 'strict.pdf')));
});

test('a FIFO, a device or a directory as an input of pdf, diagram or render is a usage error at once, never a hang', async () => {
  const fifo = (name: string) => {
    const p = join(docs, name);
    execFileSync('mkfifo', [p]);
    return p;
  };
  fifo('fifo.md');
  fifo('fifo.mmd');
  fifo('header.html');
  writeFileSync(join(docs, 'page.html'), '<!doctype html><title>p</title><p>page</p>');
  mkdirSync(join(docs, 'folder.md'));
  const calls: Array<{ args: string[]; says: RegExp }> = [
    { args: ['pdf', 'fifo.md', '--timeout', '3000'], says: /input fifo\.md is a FIFO \(named pipe\), not a regular file: only regular files are read/ },
    { args: ['pdf', '/dev/zero', 'zero.pdf'], says: /input \/dev\/zero is a device, not a regular file/ },
    { args: ['pdf', 'folder.md'], says: /input is a directory: folder\.md/ },
    { args: ['diagram', 'fifo.mmd'], says: /input fifo\.mmd is a FIFO \(named pipe\), not a regular file/ },
    { args: ['render', 'page.html', '--pdf', 'p.pdf', '--header', 'header.html'], says: /--header header\.html: the file is a FIFO \(named pipe\), not a regular file/ },
    { args: ['pdf', 'page.html', '--header', 'header.html'], says: /--header header\.html: the file is a FIFO/ },
  ];
  for (const c of calls) {
    const r = await gstack(c.args);
    expectExit(r, 2);
    assert.ok(r.ms < QUICK_MS, `gstack ${c.args.join(' ')} took ${r.ms} ms`);
    assert.match(r.stderr, c.says, `gstack ${c.args.join(' ')}`);
  }

  // An image that is a FIFO is a missing image (the render goes on), not a hang.
  fifo('img/pipe.png');
  writeFileSync(join(docs, 'pipe.md'), '# Pipe\n\n![p](img/pipe.png)\n');
  const r = await gstack(['pdf', 'pipe.md', 'pipe.html', '--to', 'html']);
  expectExit(r, 0);
  assert.ok(r.ms < QUICK_MS * 2, `took ${r.ms} ms`);
  assert.match(r.stderr, /missing image img\/pipe\.png \(a FIFO \(named pipe\), not a regular file\)/);
});

// Seventh red-team pass: an output path that is a FIFO held render, pdf and diagram past
// --timeout (nobody reads the pipe).
test('a FIFO as the output of render, pdf or diagram is a usage error at once, never a hang', async () => {
  writeFileSync(join(docs, 'out-page.html'), '<!doctype html><title>p</title><p>page</p>');
  writeFileSync(join(docs, 'out.md'), '# Out\n\ntext\n');
  writeFileSync(join(docs, 'out.mmd'), 'graph TD\n  A-->B\n');
  for (const name of ['o-render.pdf', 'o-md.pdf', 'o-dia.svg']) execFileSync('mkfifo', [join(docs, name)]);
  const calls = [
    ['render', 'out-page.html', '--pdf', 'o-render.pdf', '--timeout', '5000'],
    ['pdf', 'out.md', 'o-md.pdf', '--timeout', '5000'],
    ['diagram', 'out.mmd', '--svg', 'o-dia.svg'],
  ];
  for (const args of calls) {
    const r = await gstack(args);
    expectExit(r, 2);
    assert.ok(r.ms < QUICK_MS, `gstack ${args.join(' ')} took ${r.ms} ms`);
    assert.match(r.stderr, /it is a FIFO \(named pipe\), not a file/, `gstack ${args.join(' ')}`);
  }
});
