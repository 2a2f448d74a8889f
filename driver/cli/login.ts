// `gstack login URL`: the user signs in to a site in the session's own Chromium profile, in a
// visible window, so nothing they type passes through the agent. This file owns that window:
// the display check, the session lock (and stopping the session's host under it), the headed
// browser, waiting for the user (Enter, the window closed, --timeout, a signal), keeping the
// session cookies the site set, and saying which sites gained cookies — by cookie name and
// domain only, never a value. The thin yargs layer is bin/commands/login.ts.
import { createInterface } from 'node:readline';
import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Cookie, Page, Request } from 'playwright-core';
import { CommandError } from '../command-errors.js';
import { findChromium } from '../browser/chromium-find.js';
import { resolveSessionKey, sessionPaths } from '../sessions/key.js';
import { acquireProfileLock, clearStaleChromiumSingletons, describeHolder } from '../sessions/lock.js';
import { keepSessionCookies } from '../profiles/cookies.js';
import { touchSession } from '../sessions/registry.js';
import { trace } from '../trace.js';
import { stopSessionHost } from '../hosts/control.js';
import type { OpenedContext } from '../browser/launch.js';
import { FLAG_DEFAULTS, type LoginFlags } from '../catalog.gen.js';

/** `gstack login`'s flags (from the catalog) and its URL. */
export interface LoginArgs extends Partial<LoginFlags> {
  url: string;
}

export interface LoginIO {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Ends the wait like Enter would, but counts as interrupted (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** The user's terminal: a line (Enter) ends the wait. End of input alone does not. */
  stdin?: NodeJS.ReadableStream;
  platform?: NodeJS.Platform;
}

export type LoginEnd = 'enter' | 'window-closed' | 'timeout' | 'interrupted';

export interface SiteCookies {
  domain: string;
  /** Cookie names, never values. */
  cookies: string[];
}

/** How often the open window's cookies are read besides on every response (cookies a page
 * sets from script). */
const POLL_MS = 500;
/** How long Enter waits for the window's requests in flight: a user who presses Enter as the
 * site answers the sign-in form must still get the cookie that answer sets. */
const SETTLE_MS = 3_000;

/** A window can be shown: macOS and Windows always have a desktop; elsewhere X11 or Wayland. */
export function hasDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim());
}

function parseUrl(raw: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    /* reported below */
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CommandError('login', 'BAD_URL', `\`gstack login\` needs an http(s) URL, not ${JSON.stringify(raw)}: pass the site's sign-in page, e.g. https://example.com/login.`);
  }
  return url;
}

const cookieId = (c: Pick<Cookie, 'name' | 'domain' | 'path'>) => `${c.name}\u0000${c.domain}\u0000${c.path}`;

/** Cookies that are new or changed since `before`, grouped by site. Values are compared here
 * and go no further. */
export function gainedSites(before: Cookie[], after: Cookie[]): { sites: SiteCookies[]; count: number } {
  const old = new Map(before.map((c) => [cookieId(c), c.value]));
  const bySite = new Map<string, Set<string>>();
  let count = 0;
  for (const c of after) {
    if (old.get(cookieId(c)) === c.value) continue;
    count++;
    const domain = c.domain.replace(/^\./, '');
    if (!bySite.has(domain)) bySite.set(domain, new Set());
    bySite.get(domain)!.add(c.name);
  }
  const sites = [...bySite.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([domain, names]) => ({ domain, cookies: [...names].sort() }));
  return { sites, count };
}

/**
 * Keeps the latest reading of the window's cookies. When the user closes the window the browser
 * exits at once, dropping its session cookies, so they must have been read before: on every
 * response (Chromium stores a Set-Cookie before it reports the response) and every POLL_MS.
 * Once the last tab has closed the browser is shutting down and answers with its cookie store
 * half emptied: a reading that completes after that is not kept.
 */
function watchCookies(context: BrowserContext, initial: Cookie[]): { latest(): Cookie[]; settled(ms: number): Promise<void>; stop(): Promise<void> } {
  let latest = initial;
  // Requests in flight, so that Enter can wait for the answer to a form just sent.
  const inFlight = new Set<Request>();
  let onIdle: (() => void) | undefined;
  // Only what a sign-in sends: a page load (a form posted, a redirect) or a request that is no
  // GET (a fetch that posts the form). A long poll or an event stream a site keeps open is a
  // GET that never ends, and would make every Enter wait the full SETTLE_MS.
  const onRequest = (r: Request) => {
    if (!r.isNavigationRequest() && r.method() === 'GET') return;
    inFlight.add(r);
    trace(`login: request (${inFlight.size} in flight)`);
  };
  const onRequestDone = (r: Request) => {
    inFlight.delete(r);
    if (inFlight.size === 0) onIdle?.();
  };
  context.on('request', onRequest);
  context.on('requestfinished', onRequestDone);
  context.on('requestfailed', onRequestDone);
  let reading: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let closing = false;
  const onPageClose = () => {
    if (context.pages().length === 0) closing = true;
    trace(`login: a tab closed (${context.pages().length} left)`);
  };
  const watchPage = (p: Page) => p.on('close', onPageClose);
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  const read = () => {
    if (stopped || closing) return;
    if (reading) {
      again = true;
      return;
    }
    reading = context
      .cookies()
      .then(
        (c) => {
          trace(`login: cookies read (${c.length})${closing ? ', dropped: the window is closing' : ''}`);
          if (!closing) latest = c;
        },
        () => undefined,
      )
      .finally(() => {
        reading = undefined;
        if (again) {
          again = false;
          read();
        }
      });
  };
  const onResponse = () => {
    trace('login: response');
    read();
  };
  context.on('response', onResponse);
  const timer = setInterval(read, POLL_MS);
  return {
    latest: () => latest,
    settled: async (ms) => {
      // One round trip to the browser first: the events it sent before answering (a form's
      // request the server already has) arrive before the answer does.
      await context.cookies().catch(() => undefined);
      if (inFlight.size === 0) return;
      trace(`login: waiting for ${inFlight.size} request(s) in flight`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, ms);
        onIdle = () => {
          clearTimeout(t);
          resolve();
        };
      });
      onIdle = undefined;
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      context.off('response', onResponse);
      context.off('request', onRequest);
      context.off('requestfinished', onRequestDone);
      context.off('requestfailed', onRequestDone);
      context.off('page', watchPage);
      for (const p of context.pages()) p.off('close', onPageClose);
      await reading;
    },
  };
}

/** Waits for the user: a line on stdin, the browser gone, the deadline, or the signal. */
function waitForUser(context: BrowserContext, io: LoginIO, timeoutMs: number): { ended: Promise<LoginEnd>; dispose(): void } {
  const cleanups: Array<() => void> = [];
  const ended = new Promise<LoginEnd>((resolve) => {
    const browser = context.browser();
    const onGone = () => resolve('window-closed');
    if (browser) {
      browser.on('disconnected', onGone);
      cleanups.push(() => browser.off('disconnected', onGone));
      if (!browser.isConnected()) onGone();
    }
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    cleanups.push(() => clearTimeout(timer));
    if (io.signal) {
      const onAbort = () => resolve('interrupted');
      if (io.signal.aborted) onAbort();
      io.signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => io.signal?.removeEventListener('abort', onAbort));
    }
    if (io.stdin) {
      const rl = createInterface({ input: io.stdin, terminal: false });
      rl.on('line', () => resolve('enter'));
      cleanups.push(() => rl.close());
    }
  });
  return {
    ended,
    dispose: () => {
      for (const c of cleanups.splice(0)) c();
    },
  };
}

export async function runLogin(args: LoginArgs, io: LoginIO): Promise<number> {
  const env = io.env;
  const url = parseUrl(args.url);
  if (!hasDisplay(env, io.platform)) {
    throw new CommandError(
      'login',
      'NO_DISPLAY',
      'No display for the sign-in window (DISPLAY and WAYLAND_DISPLAY are unset: a CI box or an SSH session). Import the user\'s cookies instead: `gstack sessions import-cookies --from-browser chrome --domain ' +
        url.hostname +
        '` on the machine with their browser, or `gstack sessions import-cookies FILE` with a file they exported.',
    );
  }
  // Before the lock: nothing to wait for without a browser (NoChromiumError exits NO_ENGINE).
  findChromium(env, { headed: true });
  const key = resolveSessionKey({ session: args.session, cwd: io.cwd, env });
  const paths = sessionPaths(key.slug, env);
  await mkdir(paths.profileDir, { recursive: true, mode: 0o700 });
  const lock = await acquireProfileLock(paths.profileDir, {
    timeoutMs: args.lockTimeout ?? FLAG_DEFAULTS.login['lock-timeout'],
    key: key.key,
    signal: io.signal,
    onWait: (h) => io.err(`gstack: waiting for the session's profile: held by ${describeHolder(h)}`),
  });
  let ended: LoginEnd;
  let before: Cookie[] = [];
  let after: Cookie[] = [];
  let sessionCookiesKept = 0;
  try {
    // The session's host keeps a headless browser on this profile between calls: it must be
    // gone before the visible one opens the same profile.
    await stopSessionHost(paths.profileDir);
    await clearStaleChromiumSingletons(paths.profileDir);
    const { launchPersistent } = await import('../browser/launch.js');
    // Headed, the process's own environment reaches the browser (DISPLAY): login always runs
    // in the invoking process, never in a background one.
    const opened: OpenedContext = await launchPersistent(paths.profileDir, true, env);
    let latest: Cookie[] = [];
    try {
      const { context } = opened;
      before = await context.cookies();
      const page = context.pages()[0] ?? (await context.newPage());
      // The page gets the keyboard (not the address bar, where a new window starts), so the
      // sign-in field the site focuses takes what the user types.
      await page.bringToFront();
      // Not awaited: a slow or failing site shows in the window, where the user can go on.
      page.goto(url.href, { waitUntil: 'commit', timeout: 0 }).catch(() => undefined);
      io.err(
        `gstack: sign in to ${url.host} in the Chromium window, then close the window or press Enter here (it closes by itself after ${Math.round((args.timeout ?? FLAG_DEFAULTS.login.timeout) / 1000)} s).`,
      );
      const watch = watchCookies(context, before);
      const wait = waitForUser(context, io, args.timeout ?? FLAG_DEFAULTS.login.timeout);
      ended = await wait.ended;
      trace(`login: the wait ended (${ended})`);
      wait.dispose();
      if (ended === 'enter' && context.browser()?.isConnected()) await watch.settled(SETTLE_MS);
      await watch.stop();
      latest = watch.latest();
      if (ended !== 'window-closed' && context.browser()?.isConnected()) {
        // Still open (Enter, timeout, signal): read the final state and keep its session
        // cookies, then close in order so the profile is flushed.
        after = await context.cookies().catch(() => latest);
        const { cookies, kept } = keepSessionCookies(after.filter((c) => c.expires <= 0));
        if (kept) await context.addCookies(cookies).catch(() => undefined);
        sessionCookiesKept = kept;
        await opened.close();
      } else {
        ended = 'window-closed';
        await opened.close(); // already gone: reaps the process
      }
    } catch (err) {
      await opened.kill();
      throw err;
    }
    if (ended === 'window-closed') {
      // The user closed the window and the browser exited by itself, dropping the session
      // cookies (Chromium keeps them only while it runs). Give those the last reading saw an
      // expiry in the profile, and read what the profile now holds for the report.
      const reopened = await launchPersistent(paths.profileDir, false, env);
      try {
        const saved = await reopened.context.cookies();
        const have = new Set(saved.map(cookieId));
        const { cookies, kept } = keepSessionCookies(latest.filter((c) => c.expires <= 0 && !have.has(cookieId(c))));
        if (kept) await reopened.context.addCookies(cookies);
        sessionCookiesKept = kept;
        after = [...saved, ...cookies];
      } finally {
        await reopened.close();
      }
    }
  } finally {
    await lock.release();
  }
  await touchSession(paths, key.key, 'local');

  const { sites, count } = gainedSites(before, after);
  const failure =
    ended === 'timeout'
      ? new CommandError(
          'login',
          'SIGN_IN_TIMEOUT',
          `The sign-in window was still open after ${args.timeout ?? FLAG_DEFAULTS.login.timeout} ms (--timeout) and was closed; what was signed in so far is kept. Ask the user whether they finished, and run \`gstack login\` again if not.`,
        )
      : ended === 'interrupted'
        ? new CommandError('login', 'INTERRUPTED', 'Interrupted: the sign-in window was closed; what was signed in so far is kept. Ask the user whether they finished, and run `gstack login` again if not.')
        : undefined;
  if (args.json) {
    io.out(
      JSON.stringify({
        ok: !failure,
        exitCode: failure?.exitCode ?? 0,
        session: { key: key.key, slug: key.slug },
        profile: paths.profileDir,
        url: url.href,
        ended,
        sites,
        cookies: count,
        sessionCookiesKept,
        error: failure?.message ?? null,
      }),
    );
    return failure?.exitCode ?? 0;
  }
  for (const s of sites) io.out(`SITE ${s.domain} cookies=${s.cookies.join(',')}`);
  io.out(`LOGIN sites=${sites.length} cookies=${count} ended=${ended} session=${key.slug} profile=${paths.profileDir}`);
  if (sessionCookiesKept) io.out(`NOTE ${sessionCookiesKept} session cookie(s) had no expiry; they are kept for 30 days so the profile remembers them.`);
  if (failure) throw failure;
  return 0;
}
