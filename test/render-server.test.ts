// The render loopback server must never become a way to read the rest of the disk: every
// attack path gets its status, and the secret text outside the root never appears in any
// response body.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { broadRootWarning, startLoopbackServer, type LoopbackServer } from '../render/orchestrate/server.js';

const OUTSIDE_SECRET = 'TOP-SECRET-OUTSIDE-THE-ROOT-7f3a';
const DOT_SECRET = 'PRIVATE-KEY-IN-A-DOTFILE-91c2';
let base: string;
let root: string;
let server: LoopbackServer;
const bodies: string[] = [];

interface Reply {
  status: number;
  type?: string;
  body: string;
}

/** A raw request: Node sends the path exactly as given (no ../ normalisation), like an
 * attacker's client would. */
function get(path: string, opts: { method?: string; host?: string } = {}): Promise<Reply> {
  const url = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: Number(url.port), path, method: opts.method ?? 'GET', headers: opts.host ? { host: opts.host } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          bodies.push(body);
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const s = () => `/${server.secret}`;

before(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'gstack-render-server-')));
  root = join(base, 'site');
  mkdirSync(join(root, 'sub', 'deeper'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>in root</title>');
  writeFileSync(join(root, 'style.css'), 'body{}');
  writeFileSync(join(root, 'app.js'), 'void 0;');
  writeFileSync(join(root, 'data.json'), '{}');
  writeFileSync(join(root, 'pic.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'pic.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  writeFileSync(join(root, 'font.woff2'), 'x');
  writeFileSync(join(root, 'blob.unknownext'), 'x');
  writeFileSync(join(root, 'sub', 'page.html'), '<p>sub page</p>');
  writeFileSync(join(root, 'with space.html'), '<p>space</p>');
  writeFileSync(join(base, 'outside.txt'), OUTSIDE_SECRET);
  mkdirSync(join(base, 'outside-dir'));
  writeFileSync(join(base, 'outside-dir', 'leak.txt'), OUTSIDE_SECRET);
  symlinkSync(join(base, 'outside.txt'), join(root, 'link-out.txt'));
  symlinkSync(join(base, 'outside-dir'), join(root, 'dir-link-out'));
  symlinkSync('/etc/passwd', join(root, 'passwd'));
  symlinkSync(join(root, 'index.html'), join(root, 'link-in.html'));
  mkdirSync(join(root, '.ssh'));
  writeFileSync(join(root, '.ssh', 'id_ed25519'), DOT_SECRET);
  writeFileSync(join(root, '.env'), DOT_SECRET);
  mkdirSync(join(root, 'sub', '.git'));
  writeFileSync(join(root, 'sub', '.git', 'config'), DOT_SECRET);
  symlinkSync(join(root, '.ssh', 'id_ed25519'), join(root, 'innocent.txt'));
  server = await startLoopbackServer({ root, files: { 'virtual/report.html': '<p>from memory</p>', 'index.html': '<p>memory wins</p>' } });
});

after(async () => {
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

test('binds 127.0.0.1 on an ephemeral port with a long random secret', () => {
  assert.match(server.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.notEqual(new URL(server.origin).port, '0');
  assert.match(server.secret, /^[0-9a-f]{32}$/);
  assert.equal(server.urlFor(join(root, 'sub', 'page.html')), `${server.origin}/${server.secret}/sub/page.html`);
  assert.equal(server.urlFor('with space.html'), `${server.origin}/${server.secret}/with%20space.html`);
});

test('files under the root are served with correct content types', async () => {
  const cases: Array<[string, RegExp]> = [
    ['sub/page.html', /^text\/html; charset=utf-8$/],
    ['style.css', /^text\/css; charset=utf-8$/],
    ['app.js', /^(text|application)\/javascript; charset=utf-8$/],
    ['data.json', /^application\/json; charset=utf-8$/],
    ['pic.svg', /^image\/svg\+xml/],
    ['pic.png', /^image\/png$/],
    ['font.woff2', /^font\/woff2$/],
    ['blob.unknownext', /^application\/octet-stream$/],
    ['with%20space.html', /^text\/html/],
  ];
  for (const [path, type] of cases) {
    const r = await get(`${s()}/${path}`);
    assert.equal(r.status, 200, path);
    assert.match(r.type ?? '', type, path);
  }
  assert.equal((await get(`${s()}/sub/page.html`)).body, '<p>sub page</p>');
});

test('in-memory files are served and win over disk', async () => {
  assert.equal((await get(`${s()}/virtual/report.html`)).body, '<p>from memory</p>');
  const idx = await get(`${s()}/index.html`);
  assert.equal(idx.body, '<p>memory wins</p>');
  assert.match(idx.type ?? '', /^text\/html/);
});

test('../ traversal out of the root is 403 (plain, encoded, nested)', async () => {
  for (const p of [
    `${s()}/../outside.txt`,
    `${s()}/sub/../../outside.txt`,
    `${s()}/%2e%2e/outside.txt`,
    `${s()}/sub/%2E%2E/%2E%2E/outside.txt`,
    `${s()}/../../../../etc/passwd`,
  ]) {
    const r = await get(p);
    assert.equal(r.status, 403, p);
  }
  // ../ that stays inside the root is fine.
  assert.equal((await get(`${s()}/sub/../sub/page.html`)).status, 200);
});

test('a symlink whose real path leaves the root is 403; one that stays inside is served', async () => {
  assert.equal((await get(`${s()}/link-out.txt`)).status, 403);
  assert.equal((await get(`${s()}/passwd`)).status, 403);
  assert.equal((await get(`${s()}/dir-link-out/leak.txt`)).status, 403);
  const inside = await get(`${s()}/link-in.html`);
  assert.equal(inside.status, 200);
  assert.match(inside.body, /in root/);
});

test('malformed percent-encoding and smuggled separators are 400', async () => {
  for (const p of [`${s()}/%zz.html`, `${s()}/bad%E0%A4%A.html`, `${s()}/%`, `${s()}/..%2foutside.txt`, `${s()}/sub%2fpage.html`, `${s()}/x%00.html`, `${s()}/..%5coutside.txt`]) {
    assert.equal((await get(p)).status, 400, p);
  }
});

test('a wrong, missing or differently-cased secret is 404', async () => {
  const wrong = server.secret.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
  for (const p of [`/${wrong}/index.html`, '/index.html', '/', `/${server.secret.toUpperCase()}/sub/page.html`, `/x${server.secret}/index.html`, `/${wrong}/../outside.txt`]) {
    const r = await get(p);
    assert.equal(r.status, 404, p);
  }
});

test('directories are 404 and never listed', async () => {
  for (const p of [`${s()}/`, s(), `${s()}/sub`, `${s()}/sub/`, `${s()}/sub/deeper`, `${s()}/dir-link-out/`]) {
    const r = await get(p);
    assert.equal(r.status, 404, p);
    assert.doesNotMatch(r.body, /page\.html|index\.html|deeper/, `${p} must not list the directory`);
  }
  assert.equal((await get(`${s()}/missing.html`)).status, 404);
});

test('only GET and HEAD; only the loopback Host', async () => {
  assert.equal((await get(`${s()}/sub/page.html`, { method: 'POST' })).status, 405);
  const head = await get(`${s()}/sub/page.html`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
  const port = new URL(server.origin).port;
  assert.equal((await get(`${s()}/sub/page.html`, { host: `evil.example:${port}` })).status, 403);
  assert.equal((await get(`${s()}/sub/page.html`, { host: `localhost:${port}` })).status, 200);
});

test('any segment starting with a dot is 404: as asked, percent-encoded, deeper down, or as the real path of a link', async () => {
  for (const p of [`${s()}/.env`, `${s()}/.ssh/id_ed25519`, `${s()}/%2essh/id_ed25519`, `${s()}/sub/.git/config`, `${s()}/sub/%2Egit/config`, `${s()}/innocent.txt`, `${s()}/./.env`]) {
    const r = await get(p);
    assert.equal(r.status, 404, p);
  }
  // ./ and ../ that normalise to an ordinary path are not dot-paths.
  assert.equal((await get(`${s()}/./sub/page.html`)).status, 200);
  for (const b of bodies) assert.ok(!b.includes(DOT_SECRET), 'a response leaked a dotfile');
});

test('broadRootWarning: /, $HOME, a parent of $HOME and a root above the file\'s project are said; the project itself is not', () => {
  const proj = join(base, 'proj');
  mkdirSync(join(proj, 'docs'), { recursive: true });
  writeFileSync(join(proj, 'package.json'), '{}');
  const file = join(proj, 'docs', 'page.html');
  const env = { HOME: join(base, 'home') };
  mkdirSync(env.HOME, { recursive: true });
  assert.match(broadRootWarning('/', file, env) ?? '', /is the file system root/);
  assert.match(broadRootWarning(env.HOME, join(env.HOME, 'page.html'), env) ?? '', /is your home directory/);
  assert.match(broadRootWarning(base, join(env.HOME, 'page.html'), env) ?? '', /holds your home directory/);
  assert.match(broadRootWarning(base, file, { HOME: '/nonexistent-home' }) ?? '', new RegExp(`above the project the file belongs to \\(${proj.replace(/[/\\.]/g, '\\$&')}\\)`));
  assert.equal(broadRootWarning(proj, file, { HOME: '/nonexistent-home' }), undefined);
  assert.equal(broadRootWarning(join(proj, 'docs'), file, { HOME: '/nonexistent-home' }), undefined);
});

test('nothing outside the root was ever served', () => {
  assert.ok(bodies.length > 20);
  for (const b of bodies) {
    assert.ok(!b.includes(OUTSIDE_SECRET), 'a response leaked a file from outside the root');
    assert.ok(!b.includes('root:x:0:0'), 'a response leaked /etc/passwd');
  }
});

test('the server is gone after close()', async () => {
  const own = await startLoopbackServer({ root });
  const port = Number(new URL(own.origin).port);
  await own.close();
  await assert.rejects(
    new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: `/${own.secret}/sub/page.html` }, resolve);
      req.on('error', reject);
    }),
    /ECONNREFUSED/,
  );
});

test('the offline variant serves the same files under its own secret, with the offline CSP', async () => {
  const { OFFLINE_CSP } = await import('../render/orchestrate/run-render.js');
  const own = await startLoopbackServer({ root, offlineHeaders: { 'content-security-policy': OFFLINE_CSP } });
  try {
    assert.match(own.offlineSecret ?? '', /^[0-9a-f]{32}$/);
    assert.notEqual(own.offlineSecret, own.secret);
    const port = Number(new URL(own.origin).port);
    const fetchRaw = (path: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path }, (res) => (res.resume(), resolve(res))).on('error', reject);
      });
    const plain = await fetchRaw(`/${own.secret}/sub/page.html`);
    const offline = await fetchRaw(`/${own.offlineSecret}/sub/page.html`);
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['content-security-policy'], undefined);
    assert.equal(offline.statusCode, 200);
    assert.equal(offline.headers['content-security-policy'], OFFLINE_CSP);
    // The same containment rules hold under the offline prefix.
    assert.equal((await fetchRaw(`/${own.offlineSecret}/link-out.txt`)).statusCode, 403);
    assert.equal((await fetchRaw(`/${own.offlineSecret}/%zz`)).statusCode, 400);
    assert.equal((await fetchRaw(`/${own.offlineSecret}/sub/`)).statusCode, 404);
    assert.equal(own.urlFor('sub/page.html', { offline: true }), `${own.origin}/${own.offlineSecret}/sub/page.html`);
  } finally {
    await own.close();
  }
  const without = await startLoopbackServer({ root });
  try {
    assert.equal(without.offlineSecret, undefined);
    assert.throws(() => without.urlFor('index.html', { offline: true }), /no offline variant/);
  } finally {
    await without.close();
  }
});
