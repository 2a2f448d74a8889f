// `gstack sessions import-cookies --from-browser`: reads the cookies of the user's own
// Chrome, Chromium, Brave or Edge on this machine. This file finds the browser's profile and
// cookie database, reads a consistent copy of it (sqlite-snapshot.ts: the browser may be
// running) and turns its rows into cookies to import; decryption is browser-keys.ts, the
// import itself cookies.ts.
//
// Every failure is a CommandError named in the catalog (sessions.errors) whose one line says
// what happened and the next step. Cookie values are secrets: they are never in a message.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CommandError } from '../command-errors.js';
import type { CommandErrorName } from '../catalog.gen.js';
import {
  HOST_HASH_SCHEMA_VERSION,
  KeyUnavailable,
  LINUX_V10_KEY,
  decryptCookieValue,
  encryptionVersion,
  linuxV11Candidates,
  macKey,
  type KeyringFacts,
} from './browser-keys.js';
import { SnapshotError, loadSqlJs, snapshotSqlite } from './sqlite-snapshot.js';
import { matchesDomains, normalizeDomain, type ImportCookie, type ParsedCookies } from './cookies.js';

export const BROWSERS = ['chrome', 'chromium', 'brave', 'edge'] as const;
export type BrowserName = (typeof BROWSERS)[number];

interface BrowserFacts extends KeyringFacts {
  /** Under the XDG config home. */
  linuxDir: string;
  /** Under ~/Library/Application Support. */
  macDir: string;
}

const FACTS: Record<BrowserName, BrowserFacts> = {
  chrome: { label: 'Chrome', linuxDir: 'google-chrome', macDir: 'Google/Chrome', keychainService: 'Chrome Safe Storage', secretApplications: ['chrome'] },
  chromium: { label: 'Chromium', linuxDir: 'chromium', macDir: 'Chromium', keychainService: 'Chromium Safe Storage', secretApplications: ['chromium', 'chrome'] },
  // Forks keep their key under their own name or, built from Chromium's code, under Chrome's.
  brave: { label: 'Brave', linuxDir: 'BraveSoftware/Brave-Browser', macDir: 'BraveSoftware/Brave-Browser', keychainService: 'Brave Safe Storage', secretApplications: ['brave', 'chrome', 'chromium'] },
  edge: { label: 'Edge', linuxDir: 'microsoft-edge', macDir: 'Microsoft Edge', keychainService: 'Microsoft Edge Safe Storage', secretApplications: ['microsoft-edge', 'chrome', 'chromium'] },
};

const FILE_IMPORT = 'export the cookies to a file from the browser and run `gstack sessions import-cookies FILE`';

export interface BrowserCookieOptions {
  browser: BrowserName;
  /** Folder ("Default", "Profile 1") or the name the browser shows; default "Default". */
  profile?: string;
  /** Only these sites and their subdomains; all when empty. */
  domains?: string[];
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

export interface BrowserCookies extends ParsedCookies {
  browser: BrowserName;
  /** The profile's folder name. */
  profile: string;
  cookieDb: string;
  /** Cookies left out, by reason (never their values). */
  skipped: { undecryptable: number; partitioned: number; expired: number };
}

function fail(code: CommandErrorName<'sessions'>, message: string): CommandError {
  return new CommandError('sessions', code, message);
}

/** Where the browser keeps its profiles for this user (HOME / XDG_CONFIG_HOME respected). */
export function browserDataDir(browser: BrowserName, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', FACTS[browser].macDir);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), FACTS[browser].linuxDir);
}

interface ProfileEntry {
  dir: string;
  shown?: string;
}

/** Profiles the browser lists in its Local State, plus folders that hold a cookie database. */
function listProfiles(dataDir: string): ProfileEntry[] {
  const found = new Map<string, ProfileEntry>();
  try {
    const state = JSON.parse(readFileSync(join(dataDir, 'Local State'), 'utf8')) as { profile?: { info_cache?: Record<string, { name?: string }> } };
    for (const [dir, info] of Object.entries(state.profile?.info_cache ?? {})) found.set(dir, { dir, shown: typeof info?.name === 'string' ? info.name : undefined });
  } catch {
    /* no or unreadable Local State: the folders below still count */
  }
  try {
    for (const name of readdirSync(dataDir)) if (!found.has(name) && cookieDbOf(join(dataDir, name))) found.set(name, { dir: name });
  } catch {
    /* listed what we could */
  }
  return [...found.values()].sort((a, b) => a.dir.localeCompare(b.dir));
}

function describeProfiles(list: ProfileEntry[]): string {
  if (!list.length) return 'none';
  return list.map((p) => (p.shown && p.shown !== p.dir ? `${p.dir} ("${p.shown}")` : p.dir)).join(', ');
}

/** Chromium moved the cookie database into Network/ (version 96); older profiles have it at the top. */
function cookieDbOf(profileDir: string): string | undefined {
  for (const p of [join(profileDir, 'Network', 'Cookies'), join(profileDir, 'Cookies')]) {
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** The profile's folder and cookie database, or the catalog error that says what is missing. */
export function locateCookieDb(browser: BrowserName, profile: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { dir: string; db: string } {
  const facts = FACTS[browser];
  const dataDir = browserDataDir(browser, env, platform);
  if (!existsSync(dataDir)) {
    throw fail(
      'BROWSER_NOT_FOUND',
      `No ${facts.label} data for this user at ${dataDir} (not installed, or never started). Name the browser the user signs in with (--from-browser chrome|chromium|brave|edge), or ${FILE_IMPORT}.`,
    );
  }
  const profiles = listProfiles(dataDir);
  const wanted = profile.toLowerCase();
  const match =
    profiles.find((p) => p.dir === profile) ??
    profiles.find((p) => p.dir.toLowerCase() === wanted) ??
    profiles.find((p) => p.shown?.toLowerCase() === wanted);
  const dir = match?.dir ?? (existsSync(join(dataDir, profile)) ? profile : undefined);
  if (!dir) {
    throw fail(
      'BROWSER_PROFILE_NOT_FOUND',
      `${facts.label} has no profile "${profile}" in ${dataDir} (profiles there: ${describeProfiles(profiles)}). Pass --browser-profile with one of them.`,
    );
  }
  const db = cookieDbOf(join(dataDir, dir));
  if (!db) {
    throw fail(
      'BROWSER_PROFILE_NOT_FOUND',
      `${facts.label} profile "${dir}" in ${dataDir} has no cookie database yet (profiles there: ${describeProfiles(profiles)}). Ask the user to sign in to the site in that profile first, or pass --browser-profile with another one.`,
    );
  }
  return { dir, db };
}

interface Row {
  host: string;
  name: string;
  value: string;
  encrypted: Uint8Array;
  path: string;
  expiresUtc: number;
  persistent: boolean;
  secure: boolean;
  httpOnly: boolean;
  sameSite: number;
  partitioned: boolean;
}

/** Chromium stores times as microseconds since 1601-01-01. */
const CHROME_EPOCH_OFFSET_S = 11_644_473_600;

async function readRows(db: string, label: string): Promise<{ rows: Row[]; schema: number }> {
  let image: Uint8Array;
  try {
    image = await snapshotSqlite(db);
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    if (err.kind === 'not-sqlite') throw corrupt(db, label);
    const why = err.kind === 'busy' ? `${label} was writing it on every try` : `the OS refused to read it: ${err.errno}`;
    throw fail('COOKIE_DB_LOCKED', `Cannot read ${label}'s cookie database ${db} (${why}). Close ${label} (or wait a moment) and run the command again.`);
  }
  const SQL = await loadSqlJs();
  let database;
  try {
    database = new SQL.Database(image);
  } catch {
    throw corrupt(db, label);
  }
  try {
    const meta = database.exec("SELECT value FROM meta WHERE key = 'version'");
    const schema = Number(meta[0]?.values[0]?.[0] ?? 0);
    const stmt = database.prepare('SELECT * FROM cookies');
    const rows: Row[] = [];
    while (stmt.step()) {
      const r = stmt.getAsObject();
      const persistent = Number(r.is_persistent ?? r.persistent ?? r.has_expires ?? 1) === 1;
      rows.push({
        host: String(r.host_key ?? ''),
        name: String(r.name ?? ''),
        value: String(r.value ?? ''),
        encrypted: r.encrypted_value instanceof Uint8Array ? r.encrypted_value : new Uint8Array(),
        path: String(r.path || '/'),
        expiresUtc: Number(r.expires_utc ?? 0),
        persistent,
        secure: Number(r.is_secure ?? r.secure ?? 0) === 1,
        httpOnly: Number(r.is_httponly ?? r.httponly ?? 0) === 1,
        sameSite: Number(r.samesite ?? -1),
        partitioned: typeof r.top_frame_site_key === 'string' && r.top_frame_site_key !== '',
      });
    }
    stmt.free();
    return { rows, schema };
  } catch {
    // SQLite's own message can quote page contents: it is not repeated.
    throw corrupt(db, label);
  } finally {
    database.close();
  }
}

function corrupt(db: string, label: string): CommandError {
  return fail(
    'COOKIE_DB_CORRUPT',
    `${db} is not a readable ${label} cookie database (damaged, or not a Chromium profile). Start and close ${label} once so it rewrites it, or ${FILE_IMPORT}.`,
  );
}

function sameSiteOf(n: number, secure: boolean): ImportCookie['sameSite'] {
  if (n === 2) return 'Strict';
  if (n === 1) return 'Lax';
  // SameSite=None without Secure is refused by Chromium: leave it to the browser default.
  if (n === 0 && secure) return 'None';
  return undefined;
}

/**
 * Decrypts the rows' values with this OS's key for the browser. Keys are fetched only for the
 * versions present (no keyring prompt for a profile that needs none). Returns the values by
 * row index; a row whose value cannot be decrypted is left out.
 */
async function decryptRows(rows: Row[], schema: number, facts: BrowserFacts, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): Promise<Map<number, string>> {
  const hostHash = schema >= HOST_HASH_SCHEMA_VERSION;
  const values = new Map<number, string>();
  const byVersion = { v10: [] as number[], v11: [] as number[] };
  rows.forEach((r, i) => {
    if (r.encrypted.length === 0) values.set(i, r.value); // stored in clear (old profiles)
    else {
      const v = encryptionVersion(r.encrypted);
      if (v !== 'other') byVersion[v].push(i);
    }
  });
  const tryKeys = (indexes: number[], keys: Buffer[]): boolean => {
    // The first key that decrypts a sample is the browser's: a wrong one fails the padding or
    // the host hash.
    const sample = indexes.slice(0, 3);
    const key = keys.find((k) => sample.every((i) => decryptCookieValue(rows[i].encrypted, k, rows[i].host, hostHash) !== undefined));
    if (!key) return false;
    for (const i of indexes) {
      const v = decryptCookieValue(rows[i].encrypted, key, rows[i].host, hostHash);
      if (v !== undefined) values.set(i, v);
    }
    return true;
  };
  const unavailable = (reason: string) =>
    fail('KEYRING_UNAVAILABLE', `Cannot decrypt ${facts.label}'s cookies: ${reason}. Ask the user to ${FILE_IMPORT}, or to sign in with \`gstack login URL\`.`);

  if (platform === 'darwin') {
    const all = [...byVersion.v10, ...byVersion.v11];
    if (!all.length) return values;
    let key: Buffer;
    try {
      key = await macKey(facts, env);
    } catch (err) {
      if (err instanceof KeyUnavailable) throw unavailable(err.message);
      throw err;
    }
    if (!tryKeys(all, [key])) throw unavailable(`the "${facts.keychainService}" key does not decrypt them`);
    return values;
  }
  if (byVersion.v10.length && !tryKeys(byVersion.v10, [LINUX_V10_KEY])) {
    throw unavailable('its v10 values do not decrypt with the built-in key (damaged, or written by another OS)');
  }
  if (byVersion.v11.length) {
    const { keys, reason } = await linuxV11Candidates(facts, env);
    if (!tryKeys(byVersion.v11, keys)) throw unavailable(reason);
  }
  return values;
}

/** Reads, filters and decrypts the browser profile's cookies. Throws CommandError (catalog). */
export async function readBrowserCookies(opts: BrowserCookieOptions): Promise<BrowserCookies> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const facts = FACTS[opts.browser];
  if (platform !== 'linux' && platform !== 'darwin') {
    throw fail('KEYRING_UNAVAILABLE', `Reading ${facts.label}'s cookies is supported on Linux and macOS only, not ${platform}. Ask the user to ${FILE_IMPORT}.`);
  }
  const located = locateCookieDb(opts.browser, opts.profile || 'Default', env, platform);
  const { rows: all, schema } = await readRows(located.db, facts.label);
  const domains = (opts.domains ?? []).map(siteOf).filter(Boolean);
  const now = Date.now() / 1000;
  const skipped = { undecryptable: 0, partitioned: 0, expired: 0 };
  const rows = all.filter((r) => {
    if (domains.length && !matchesDomains(r.host, domains)) return false;
    // Partitioned (CHIPS) cookies belong to one top-level site; imported unpartitioned they
    // would apply everywhere, so they stay behind.
    if (r.partitioned) return (skipped.partitioned++, false);
    if (r.persistent && r.expiresUtc > 0 && r.expiresUtc / 1e6 - CHROME_EPOCH_OFFSET_S < now) return (skipped.expired++, false);
    return true;
  });
  if (!rows.length) {
    const which = domains.length ? `for ${domains.join(', ')}` : 'at all';
    throw fail(
      'NO_MATCHING_COOKIES',
      `${facts.label} profile "${located.dir}" has no unexpired cookie ${which}. Ask the user to sign in to the site in that profile first, or check --domain and --browser-profile.`,
    );
  }
  const values = await decryptRows(rows, schema, facts, env, platform);
  const cookies: ImportCookie[] = [];
  rows.forEach((r, i) => {
    const value = values.get(i);
    if (value === undefined) return void skipped.undecryptable++;
    cookies.push({
      name: r.name,
      value,
      domain: normalizeDomain(r.host),
      path: r.path,
      expires: r.persistent && r.expiresUtc > 0 ? Math.floor(r.expiresUtc / 1e6 - CHROME_EPOCH_OFFSET_S) : -1,
      httpOnly: r.httpOnly,
      secure: r.secure,
      sameSite: sameSiteOf(r.sameSite, r.secure),
    });
  });
  if (!cookies.length) {
    // Every value uses an encryption this OS cannot read (Windows' app-bound `v20`, say).
    throw fail('KEYRING_UNAVAILABLE', `Cannot decrypt ${facts.label}'s cookies: none of the ${rows.length} matching cookie(s) uses an encryption this machine can read. Ask the user to ${FILE_IMPORT}.`);
  }
  return { format: 'browser', cookies, origins: [], browser: opts.browser, profile: located.dir, cookieDb: located.db, skipped };
}

/** `--domain` as the user may write it: `example.com`, `.example.com`, a URL. */
export function siteOf(domain: string): string {
  let d = domain.trim().toLowerCase();
  if (d.includes('://')) {
    try {
      d = new URL(d).hostname;
    } catch {
      /* left as typed */
    }
  }
  return d.replace(/^\.+/, '').replace(/\.$/, '');
}
