// `gstack sessions import-cookies FILE`: brings logins from elsewhere into a session.
// Formats: Playwright storageState JSON ({ cookies, origins }), a bare JSON array of cookies
// (browser-extension exports), and Netscape cookies.txt (curl, yt-dlp, "cookies.txt"
// extensions) including `#HttpOnly_` lines; `--from-browser` hands in cookies read from a
// browser's own database (browser-cookies.ts). Cookie values are secrets: no message, error or
// summary here ever contains one — parse errors name the line number and the field only.
import { UsageError } from '../errors.js';
import { readFile } from 'node:fs/promises';
import { readRegularFile } from '../read-file.js';

/** A cookies file of a whole browser is a few MiB at most. */
const MAX_COOKIE_FILE_BYTES = 64 * 1024 * 1024;
import { isIP } from 'node:net';
import type { SessionPaths } from '../sessions/key.js';
import { oneLine } from '../runtime/output.js';

export interface ImportCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  /** Unix seconds; -1 = session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

export interface ImportOrigin {
  origin: string;
  localStorage: Array<{ name: string; value: string }>;
}

export interface ParsedCookies {
  format: 'storageState' | 'cookie-array' | 'netscape' | 'browser';
  cookies: ImportCookie[];
  origins: ImportOrigin[];
}

/** The latest expiry browsers store (9999-12-31): beyond it Playwright refuses the cookie. */
const MAX_EXPIRES_S = 253402300799;

/** A cookie file that cannot be imported is a usage error (exit USAGE). */
export class CookieFileError extends UsageError {}

/** A domain cookie (leading dot) cannot exist for an IP address or localhost: browsers reject
 * it, so those stay host-only whatever the file says. */
export function normalizeDomain(domain: string): string {
  const bare = domain.replace(/^\./, '');
  const host = bare.replace(/^\[|\]$/g, '');
  return isIP(host) || host === 'localhost' ? bare : domain;
}

/** True when a cookie's domain (leading dot or not) is one of `sites` or below one of them. */
export function matchesDomains(cookieDomain: string, sites: string[]): boolean {
  const host = cookieDomain.replace(/^\./, '').toLowerCase();
  return sites.some((s) => host === s || host.endsWith('.' + s));
}

/** Keeps the cookies and localStorage origins of `sites` (`--domain`); all when none given. */
export function filterByDomains(parsed: ParsedCookies, sites: string[]): ParsedCookies {
  if (!sites.length) return parsed;
  const originHost = (o: string) => {
    try {
      return new URL(o).hostname;
    } catch {
      return '';
    }
  };
  return {
    ...parsed,
    cookies: parsed.cookies.filter((c) => matchesDomains(c.domain, sites)),
    origins: parsed.origins.filter((o) => matchesDomains(originHost(o.origin), sites)),
  };
}

function sameSiteOf(v: unknown): ImportCookie['sameSite'] {
  const s = String(v ?? '').toLowerCase();
  if (s === 'strict') return 'Strict';
  if (s === 'lax') return 'Lax';
  if (s === 'none' || s === 'no_restriction') return 'None';
  return undefined; // "unspecified" and unknown: let the browser default apply
}

function fromJsonCookie(c: Record<string, unknown>, i: number): ImportCookie {
  const where = `cookie #${i + 1}`;
  if (typeof c.name !== 'string' || !c.name) throw new CookieFileError(`${where}: missing "name"`);
  if (typeof c.value !== 'string') throw new CookieFileError(`${where} (${c.name}): missing "value"`);
  let domain = typeof c.domain === 'string' ? c.domain : '';
  if (!domain && typeof c.url === 'string') {
    try {
      domain = new URL(c.url).hostname;
    } catch {
      /* reported below */
    }
  }
  if (!domain) throw new CookieFileError(`${where} (${c.name}): missing "domain"`);
  // Extension exports say hostOnly:false for domain cookies without the leading dot.
  if (c.hostOnly === false && !domain.startsWith('.')) domain = '.' + domain;
  const expiresRaw = c.expires ?? c.expirationDate;
  const session = c.session === true || expiresRaw === undefined || Number(expiresRaw) <= 0;
  if (!session && !(Number(expiresRaw) <= MAX_EXPIRES_S)) throw new CookieFileError(`${where} (${c.name}): "expires" is not a Unix time in seconds`);
  return {
    name: c.name,
    value: c.value,
    domain: normalizeDomain(domain),
    path: typeof c.path === 'string' && c.path ? c.path : '/',
    expires: session ? -1 : Math.floor(Number(expiresRaw)),
    httpOnly: c.httpOnly === true,
    secure: c.secure === true,
    sameSite: sameSiteOf(c.sameSite),
  };
}

function parseNetscape(text: string): ImportCookie[] {
  const cookies: ImportCookie[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, idx) => {
    let line = raw;
    let httpOnly = false;
    if (line.startsWith('#HttpOnly_')) {
      httpOnly = true;
      line = line.slice('#HttpOnly_'.length);
    } else if (line.startsWith('#') || !line.trim()) {
      return;
    }
    let fields = line.split('\t');
    if (fields.length < 6) fields = line.trim().split(/\s+/); // hand-edited files with spaces
    if (fields.length < 6) {
      throw new CookieFileError(`line ${idx + 1}: expected 7 tab-separated fields (domain, subdomains, path, secure, expires, name, value), found ${fields.length}`);
    }
    const [domainField, subdomains, path, secure, expires, name] = fields;
    const value = fields.slice(6).join('\t');
    if (!name) throw new CookieFileError(`line ${idx + 1}: empty cookie name`);
    const exp = Number(expires);
    if (!Number.isFinite(exp) || exp > MAX_EXPIRES_S) throw new CookieFileError(`line ${idx + 1} (${name}): expiry is not a Unix time in seconds`);
    const bare = domainField.replace(/^\./, '');
    cookies.push({
      name,
      value,
      // TRUE in the second field: the cookie also applies to subdomains (a domain cookie).
      domain: normalizeDomain(subdomains.toUpperCase() === 'TRUE' ? '.' + bare : bare),
      path: path || '/',
      expires: exp > 0 ? Math.floor(exp) : -1,
      httpOnly,
      secure: secure.toUpperCase() === 'TRUE',
    });
  });
  return cookies;
}

/** Parses any supported cookie file. Errors never quote cookie values. */
export function parseCookieText(text: string): ParsedCookies {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let data: unknown;
    try {
      data = JSON.parse(trimmed);
    } catch (err) {
      // JSON.parse messages can quote the input around the error: keep only the position.
      const pos = /position \d+/.exec(String((err as Error).message))?.[0];
      throw new CookieFileError(`not valid JSON${pos ? ` (at ${pos})` : ''}; expected a Playwright storageState file or a cookie array`);
    }
    if (Array.isArray(data)) {
      return { format: 'cookie-array', cookies: data.map((c, i) => fromJsonCookie(c as Record<string, unknown>, i)), origins: [] };
    }
    const obj = data as { cookies?: unknown; origins?: unknown };
    if (!Array.isArray(obj.cookies)) throw new CookieFileError('JSON has no "cookies" array; expected a Playwright storageState file');
    const origins: ImportOrigin[] = [];
    if (Array.isArray(obj.origins)) {
      for (const [i, o] of (obj.origins as Array<Record<string, unknown>>).entries()) {
        if (typeof o?.origin !== 'string' || !Array.isArray(o.localStorage)) continue;
        if (!/^https?:$/.test(URL.canParse(o.origin) ? new URL(o.origin).protocol : '')) {
          throw new CookieFileError(`origin #${i + 1}: not an http(s) origin; expected one like "https://example.com"`);
        }
        origins.push({
          origin: o.origin,
          localStorage: (o.localStorage as Array<Record<string, unknown>>)
            .filter((e) => typeof e?.name === 'string')
            .map((e) => ({ name: String(e.name), value: String(e.value ?? '') })),
        });
      }
    }
    return {
      format: 'storageState',
      cookies: obj.cookies.map((c, i) => fromJsonCookie(c as Record<string, unknown>, i)),
      origins,
    };
  }
  return { format: 'netscape', cookies: parseNetscape(text), origins: [] };
}

export async function parseCookieFile(file: string): Promise<ParsedCookies> {
  // Opened without waiting and read bounded: a FIFO, a pipe that never closes or /dev/zero is
  // refused at once, never waited on (docs/SECURITY.md, "Bad input is a usage error, never a hang").
  const read = await readRegularFile(file, MAX_COOKIE_FILE_BYTES);
  if (!read.ok) throw new CookieFileError(`cannot read ${file}: ${read.detail}. Give a regular file: a Playwright storageState JSON or a Netscape cookies.txt.`);
  const text = read.bytes.toString('utf8');
  try {
    return parseCookieText(text);
  } catch (err) {
    if (err instanceof CookieFileError) throw new CookieFileError(`${file}: ${err.message}`);
    throw err;
  }
}

export interface ImportSummary {
  target: 'profile' | 'storageState';
  where: string;
  format: ParsedCookies['format'];
  cookies: number;
  domains: string[];
  origins: number;
  /** Session cookies given an expiry so they survive in a profile (Chromium drops them on close). */
  sessionCookiesKept: number;
}

export { SESSION_COOKIE_KEEP_S, keepSessionCookies } from '../sessions/session-cookies.js';
import { keepSessionCookies } from '../sessions/session-cookies.js';

function summarize(parsed: ParsedCookies, target: ImportSummary['target'], where: string, kept: number): ImportSummary {
  return {
    target,
    where,
    format: parsed.format,
    cookies: parsed.cookies.length,
    domains: [...new Set(parsed.cookies.map((c) => c.domain.replace(/^\./, '')))].sort(),
    origins: parsed.origins.length,
    sessionCookiesKept: kept,
  };
}

/** Merges into a session's storageState file (remote-browser sessions). Same name + domain +
 * path replaces; everything else already there is kept. */
export async function importIntoStorageState(parsed: ParsedCookies, storageStatePath: string): Promise<ImportSummary> {
  const { writeStorageState } = await import('../engines/remote.js');
  let state: { cookies: ImportCookie[]; origins: ImportOrigin[] } = { cookies: [], origins: [] };
  try {
    const old = JSON.parse(await readFile(storageStatePath, 'utf8'));
    if (Array.isArray(old?.cookies)) state = { cookies: old.cookies, origins: Array.isArray(old.origins) ? old.origins : [] };
  } catch {
    /* none yet, or damaged: start fresh */
  }
  const id = (c: ImportCookie) => `${c.name}\u0000${c.domain}\u0000${c.path}`;
  const incoming = new Set(parsed.cookies.map(id));
  state.cookies = [...state.cookies.filter((c) => !incoming.has(id(c))), ...parsed.cookies];
  for (const o of parsed.origins) {
    const existing = state.origins.find((x) => x.origin === o.origin);
    if (!existing) state.origins.push(o);
    else {
      const names = new Set(o.localStorage.map((e) => e.name));
      existing.localStorage = [...existing.localStorage.filter((e) => !names.has(e.name)), ...o.localStorage];
    }
  }
  await writeStorageState(storageStatePath, state);
  return summarize(parsed, 'storageState', storageStatePath, 0);
}

/**
 * Adds the cookies (and localStorage) to a local Chromium profile: under the session lock,
 * stops the session's host, starts the profile's browser the way a call does
 * (browser/launch.ts), adds them, closes. localStorage is written by visiting each origin
 * with every request answered locally (page.route), so nothing is fetched.
 */
export async function importIntoProfile(
  parsed: ParsedCookies,
  opts: { paths: Pick<SessionPaths, 'profileDir' | 'sessionDir'>; key: string; lockTimeoutMs: number; onWait?: (msg: string) => void; env?: NodeJS.ProcessEnv },
): Promise<ImportSummary> {
  const { acquireProfileLock, clearStaleChromiumSingletons, describeHolder } = await import('../sessions/lock.js');
  const { findChromium } = await import('../browser/chromium-find.js');
  const { mkdir } = await import('node:fs/promises');
  findChromium(opts.env); // NoChromiumError (exit 3) before we take the lock
  await mkdir(opts.paths.profileDir, { recursive: true, mode: 0o700 });
  const lock = await acquireProfileLock(opts.paths.profileDir, {
    timeoutMs: opts.lockTimeoutMs,
    key: opts.key,
    onWait: (h) => opts.onWait?.(`waiting for the session's profile: held by ${describeHolder(h)}`),
  });
  const { cookies, kept } = keepSessionCookies(parsed.cookies);
  try {
    // The session's host keeps its browser on this profile between calls: stop it first, so
    // the browser started here is the only one writing the profile.
    const { stopSessionHost } = await import('../hosts/control.js');
    await stopSessionHost(opts.paths.profileDir);
    await clearStaleChromiumSingletons(opts.paths.profileDir);
    const { launchPersistent } = await import('../browser/launch.js');
    const opened = await launchPersistent(opts.paths.profileDir, false, opts.env);
    const { context } = opened;
    try {
      if (cookies.length) await context.addCookies(cookies);
      if (parsed.origins.length) {
        const page = await context.newPage();
        await page.route('**/*', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>import</title>' }));
        for (const o of parsed.origins) {
          await page.goto(o.origin);
          await page.evaluate((items) => {
            for (const { name, value } of items) localStorage.setItem(name, value);
          }, o.localStorage);
        }
        await page.close();
      }
    } catch (err) {
      // Playwright's text is several lines (a call log, ANSI codes): one line, as everywhere.
      throw new CookieFileError(`the browser refused the import: ${oneLine((err as Error)?.message ?? String(err))}. Check the file's cookie fields (domain, path, expires, sameSite) and origins, then import again.`);
    } finally {
      await opened.close(); // Browser.close: the profile is flushed before the lock is released
    }
  } finally {
    await lock.release();
  }
  return summarize(parsed, 'profile', opts.paths.profileDir, kept);
}
