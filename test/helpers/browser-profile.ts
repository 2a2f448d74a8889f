// A user's own browser, for the `import-cookies --from-browser` tests: a real Chromium profile
// laid out as the browser keeps it (<config>/chromium/Default/...), whose cookies real pages
// set; plus Chromium's cookie encryption, to turn its database into the variants this machine's
// Chromium does not write itself (keyring `v11`, macOS Keychain keys). The encryption is
// written here from Chromium's scheme (AES-128-CBC, PBKDF2-SHA1 "saltysalt", IV of spaces,
// SHA-256 of the host first from schema 24), independently of driver/profiles/browser-keys.ts.
import { createCipheriv, createHash, pbkdf2Sync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import initSqlJs from 'sql.js';
import { findChromium } from '../../driver/browser/chromium-find.js';

/** Opens a real (full) Chromium on `userDataDir` with the basic password store (so its cookie
 * values are `v10`), loads each URL, closes it in order. */
export async function browseWithChromium(userDataDir: string, urls: string[]): Promise<void> {
  const exe = findChromium(process.env, { headed: true });
  const args = ['--password-store=basic'];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: exe.path, headless: true, args });
  try {
    const page = await context.newPage();
    for (const url of urls) await page.goto(url);
  } finally {
    await context.close();
  }
}

export function cookieDbOf(userDataDir: string, profile = 'Default'): string {
  const network = join(userDataDir, profile, 'Network', 'Cookies');
  return existsSync(network) ? network : join(userDataDir, profile, 'Cookies');
}

export interface DbRow {
  host_key: string;
  name: string;
  encrypted_value: Uint8Array;
}

/** The rows of a cookie database (host, name, encrypted value) and its schema version. */
export async function readCookieRows(db: string): Promise<{ rows: DbRow[]; schema: number }> {
  const SQL = await initSqlJs();
  const d = new SQL.Database(await readFile(db));
  try {
    const schema = Number(d.exec("SELECT value FROM meta WHERE key='version'")[0].values[0][0]);
    const res = d.exec('SELECT host_key, name, encrypted_value FROM cookies')[0];
    const rows = (res?.values ?? []).map(([host_key, name, encrypted_value]) => ({ host_key: String(host_key), name: String(name), encrypted_value: encrypted_value as Uint8Array }));
    return { rows, schema };
  } finally {
    d.close();
  }
}

export function encryptLikeChromium(plain: string, opts: { password: string; iterations: number; prefix: 'v10' | 'v11'; hostKey: string; hostHash: boolean }): Buffer {
  const key = pbkdf2Sync(opts.password, 'saltysalt', opts.iterations, 16, 'sha1');
  const c = createCipheriv('aes-128-cbc', key, Buffer.alloc(16, 0x20));
  const body = Buffer.concat([opts.hostHash ? createHash('sha256').update(opts.hostKey).digest() : Buffer.alloc(0), Buffer.from(plain, 'utf8')]);
  return Buffer.concat([Buffer.from(opts.prefix, 'latin1'), c.update(body), c.final()]);
}

/** Rewrites every cookie's value with `plainOf(row)` encrypted under another key (rows it
 * returns undefined for are dropped), the way a browser using that key would have stored it. */
export async function reencryptCookieDb(db: string, plainOf: (row: DbRow) => string | undefined, key: { password: string; iterations: number; prefix: 'v10' | 'v11' }): Promise<void> {
  const SQL = await initSqlJs();
  const d = new SQL.Database(await readFile(db));
  const schema = Number(d.exec("SELECT value FROM meta WHERE key='version'")[0].values[0][0]);
  const rows = (d.exec('SELECT host_key, name, encrypted_value FROM cookies')[0]?.values ?? []).map(([h, n, e]) => ({ host_key: String(h), name: String(n), encrypted_value: e as Uint8Array }));
  for (const row of rows) {
    const plain = plainOf(row);
    if (plain === undefined) d.run('DELETE FROM cookies WHERE host_key = ? AND name = ?', [row.host_key, row.name]);
    else {
      const enc = encryptLikeChromium(plain, { ...key, hostKey: row.host_key, hostHash: schema >= 24 });
      d.run('UPDATE cookies SET encrypted_value = ?, value = ? WHERE host_key = ? AND name = ?', [enc, '', row.host_key, row.name]);
    }
  }
  await writeFile(db, d.export());
  d.close();
  await rm(db + '-journal', { force: true });
}
