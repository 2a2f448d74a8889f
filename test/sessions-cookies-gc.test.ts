// The sessions library without the CLI: the cookie-file parsers (Netscape, storageState, cookie
// arrays; errors never quote a value), durations, and the once-a-day housekeeping. The
// `gstack sessions` commands themselves run end to end in sessions-manage.e2e.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempHome } from './helpers/cli.js';
import { sessionPaths, slugFor } from '../driver/sessions/key.js';
import { parseCookieText, CookieFileError } from '../driver/profiles/cookies.js';
import { parseDuration } from '../driver/profiles/manage.js';
import { maybeHousekeep, HOUSEKEEPING_STAMP } from '../driver/profiles/daily-sweep.js';
import { touchSession } from '../driver/sessions/registry.js';

const inAYear = () => Math.floor(Date.now() / 1000) + 365 * 86400;

test('parseCookieText: Netscape (incl. #HttpOnly_), storageState, cookie arrays; errors never quote values', () => {
  const txt = [
    '# Netscape HTTP Cookie File',
    '',
    `127.0.0.1\tFALSE\t/\tFALSE\t${inAYear()}\tplain\tSECRET-plain`,
    `#HttpOnly_.example.com\tTRUE\t/app\tTRUE\t0\thonly\tSECRET-h`,
    `.127.0.0.1\tTRUE\t/\tFALSE\t${inAYear()}\tipdomain\tSECRET-ip`,
  ].join('\n');
  const n = parseCookieText(txt);
  assert.equal(n.format, 'netscape');
  assert.equal(n.cookies.length, 3);
  assert.deepEqual(
    { ...n.cookies[1] },
    { name: 'honly', value: 'SECRET-h', domain: '.example.com', path: '/app', expires: -1, httpOnly: true, secure: true },
  );
  assert.equal(n.cookies[0].httpOnly, false);
  assert.equal(n.cookies[2].domain, '127.0.0.1', 'no domain cookie for an IP address');

  const st = parseCookieText(
    JSON.stringify({
      cookies: [{ name: 'a', value: 'SECRET-a', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }],
      origins: [{ origin: 'http://127.0.0.1:1', localStorage: [{ name: 'k', value: 'v' }] }],
    }),
  );
  assert.equal(st.format, 'storageState');
  assert.equal(st.cookies[0].sameSite, 'Lax');
  assert.equal(st.origins[0].localStorage[0].value, 'v');

  const arr = parseCookieText(JSON.stringify([{ name: 'b', value: 'SECRET-b', domain: 'example.org', hostOnly: false, expirationDate: 2e9, sameSite: 'no_restriction', secure: true }]));
  assert.equal(arr.format, 'cookie-array');
  assert.equal(arr.cookies[0].domain, '.example.org');
  assert.equal(arr.cookies[0].sameSite, 'None');
  assert.equal(arr.cookies[0].expires, 2e9);

  for (const bad of [
    `127.0.0.1\tFALSE\tSECRET-short`,
    `127.0.0.1\tFALSE\t/\tFALSE\tnotanumber\tname\tSECRET-exp`,
    '{"cookies": [{"name": "x", "value": "SECRET-json", "path": "/"}]}',
    '{"cookies": [{"name": "x", "value": "SECRET-trunc"',
  ]) {
    const err = (() => {
      try {
        parseCookieText(bad);
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof CookieFileError, bad);
    assert.equal(err.exitCode, 2);
    assert.doesNotMatch(err.message, /SECRET/, `error quotes a value: ${err.message}`);
  }
});

test('housekeeping runs at most once a day, never throws, and removes long-idle sessions', async () => {
  const h = await tempHome();
  const e = { GSTACK_HOME: h } as NodeJS.ProcessEnv;
  const p = sessionPaths(slugFor('hk-old'), e);
  await mkdir(p.profileDir, { recursive: true });
  await mkdir(join(p.artifactsDir, 'call-1'), { recursive: true });
  const old = new Date(Date.now() - 40 * 86400e3);
  await touchSession(p, 'hk-old');
  await writeFile(join(p.sessionDir, 'session.json'), JSON.stringify({ key: 'hk-old', lastUsed: old.toISOString(), profileDir: p.profileDir }));
  for (const d of [p.profileDir, p.sessionDir, p.artifactsDir, join(p.artifactsDir, 'call-1')]) await utimes(d, old, old);

  const first = await maybeHousekeep({ env: e });
  assert.deepEqual(first, { ran: true, removedSessions: 1, prunedArtifacts: 0 });
  assert.equal(existsSync(p.profileDir), false);
  assert.ok((await stat(join(h, HOUSEKEEPING_STAMP))).isFile());
  assert.deepEqual(await maybeHousekeep({ env: e }), { ran: false }, 'not twice a day');
  assert.equal((await maybeHousekeep({ env: e, now: Date.now() + 25 * 3600e3 })).ran, true, 'again the next day');
  assert.deepEqual(await maybeHousekeep({ env: { ...e, GSTACK_HOUSEKEEPING: '0' }, now: Date.now() + 50 * 3600e3 }), { ran: false });
  // An unusable home never throws.
  await writeFile(join(h, 'file'), 'x');
  assert.deepEqual(await maybeHousekeep({ env: { GSTACK_HOME: join(h, 'file', 'sub') } }), { ran: false });
  await rm(h, { recursive: true, force: true });
});

test('parseDuration', () => {
  assert.equal(parseDuration('7d'), 7 * 86400e3);
  assert.equal(parseDuration('12h'), 12 * 3600e3);
  assert.equal(parseDuration('30m'), 30 * 60e3);
  assert.equal(parseDuration('90s'), 90e3);
  assert.equal(parseDuration('2w'), 14 * 86400e3);
  assert.equal(parseDuration('0'), 0);
  assert.throws(() => parseDuration('7'), /unit/);
  assert.throws(() => parseDuration('soon'));
});

// Red-team pass 23 (C23): a long key whose last 32 readable characters began with a dash made
// a slug `sessions clear SLUG` read as a flag.
test('a slug never starts with a dash or a dot, however the key is cut to its last 32 characters', () => {
  for (const key of ['x'.repeat(40) + '\n-SESSION c23a', 'a'.repeat(10) + '-'.repeat(3) + 'b'.repeat(30), '--rf', '...hidden', '\n-x']) {
    assert.match(slugFor(key), /^[A-Za-z0-9_]/, `${JSON.stringify(key)} -> ${slugFor(key)}`);
  }
  // An ordinary key keeps its slug.
  assert.match(slugFor('my-project'), /^my-project-[0-9a-f]{8}$/);
});
