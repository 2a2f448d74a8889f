// The browser a session host keeps running between calls (docs/ARCHITECTURE.md, "Hosts").
//
// Owns: starting the session's persistent-context Chromium, handing each call its view of it,
// settling a call's leftovers after the call has answered (its tabs closed, its changes to the
// context undone, a fresh blank tab made ready for the next call), and restarting the browser
// when it must: a call whose browser environment (TZ, LANG, proxies, display, which binary,
// --headed) differs from the running browser's, a browser that crashed or was killed, a call
// that timed out, or one that changed the context beyond undoing. Every `open` runs under the
// session's profile lock (driver/runner/run-script.ts takes it).
import type { BrowserContext, Page } from 'playwright-core';
import { findChromium } from '../browser/chromium-find.js';
import { launchPersistent, type BrowserProvider, type OpenedContext } from '../browser/launch.js';
import { browserFingerprint } from '../browser/browser-env.js';
import { clearStaleChromiumSingletons } from '../sessions/lock.js';
import { makePrivateDir } from '../sessions/owner-only.js';
import { keepSessionCookies } from '../sessions/session-cookies.js';
import { DEFAULT_VIEWPORT } from '../runtime/tabs.js';
import { trace } from '../trace.js';

/** Closing a call's tabs and opening the next blank one take a few round trips. */
const SETTLE_TIMEOUT_MS = 5_000;

/** An idle session should cost little (many sessions share one machine): after this long
 * without a call the ready blank tab is closed (its renderer process goes), and after
 * GSTACK_BROWSER_IDLE_MS (default 2 minutes) the browser itself shuts down in order, keeping
 * the profile; the host, which outlives it (GSTACK_HOST_IDLE_MS), starts it again for the next
 * call. */
export const SPARE_IDLE_MS = 15_000;
export const DEFAULT_BROWSER_IDLE_MS = 2 * 60_000;

export function browserIdleMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.GSTACK_BROWSER_IDLE_MS);
  return v > 0 ? v : DEFAULT_BROWSER_IDLE_MS;
}

interface Running {
  opened: OpenedContext;
  fingerprint: string;
  /** The browser went away (crashed, killed): the next call starts a new one. */
  gone: boolean;
  /** Resolves when it goes away (an operation in flight then may never answer). */
  disconnected: Promise<void>;
  /** The idle host closed the ready blank tab; the next settle makes a new one. */
  spareDropped?: boolean;
}

export class SessionBrowser implements BrowserProvider {
  private current: Running | undefined;
  /** The previous call's clean-up; the next call waits for it. */
  private settling: Promise<void> = Promise.resolve();

  constructor(readonly profileDir: string) {}

  get browserPid(): number | undefined {
    return this.current && !this.current.gone ? this.current.opened.browserPid : undefined;
  }

  /** This call's view of the session's browser, started (or restarted) for the call's
   * environment. Called with the session's profile lock held. */
  async open(env: NodeJS.ProcessEnv, headed: boolean): Promise<OpenedContext> {
    await this.settling;
    const exe = findChromium(env, { headed }); // NoChromiumError (exit 3) before anything changes
    const fingerprint = browserFingerprint(exe.path, headed, env);
    if (this.current && (this.current.gone || this.current.fingerprint !== fingerprint)) {
      trace(this.current.gone ? 'session browser gone: starting a new one' : "call's browser environment differs: restarting the browser");
      await this.stop(this.current, 3_000);
    }
    if (!this.current) {
      // No browser of ours runs on the profile now (we hold its lock): whatever a killed one
      // left behind (Singleton* entries, an orphan still shutting down) is stale.
      for (const w of await makePrivateDir(this.profileDir)) trace(w);
      await clearStaleChromiumSingletons(this.profileDir);
      const opened = await launchPersistent(this.profileDir, headed, env, { ownGroup: false });
      let onGone: () => void = () => undefined;
      const running: Running = { opened, fingerprint, gone: false, disconnected: new Promise<void>((r) => (onGone = r)) };
      opened.context.browser()?.on('disconnected', () => {
        running.gone = true;
        onGone();
      });
      this.current = running;
    }
    const running = this.current;
    return {
      context: running.opened.context,
      browserPid: running.opened.browserPid,
      gone: running.opened.gone,
      close: async () => undefined,
      // A timed-out call: the page may be wedged; the browser is shut down (in order, briefly)
      // and the next call starts a new one. Bound to this browser: a late kill never reaches
      // the next call's.
      kill: () => this.stop(running, 1_000),
      release: (cleanUp, restart) => {
        this.settling = this.settle(running, cleanUp, restart);
      },
    };
  }

  /** After a call has answered: its tabs and changes are undone and a blank tab at the default
   * viewport is made ready, so the next call's openTab costs nothing. A browser that does not
   * settle in time (it died or hangs mid-way) is replaced: the next call never waits on it. */
  private async settle(running: Running, cleanUp: (beforeClose?: () => Promise<void>) => Promise<void>, restart: boolean): Promise<void> {
    running.spareDropped = false;
    const context = running.opened.context;
    const keepBrowser = !(restart || running.gone);
    // A tab that holds the call's renderer process while its tabs close, so the spare tab
    // opens in that process and the next call on the same site reuses it (with
    // --renderer-process-limit=1, driver/browser/chromium-process.ts): a new renderer process
    // costs ~200 ms of CPU. Opened once the call no longer watches for tabs, only while one of
    // its tabs is open (a script that closed its last tab left no process to keep) and only for
    // a call that left no init script or binding (the tab would run them): driver/runtime/tabs.ts
    // cleanUp decides. Closed unused once the spare exists; no call ever gets it.
    let anchor: Page | undefined;
    const openAnchor = async () => {
      anchor = await context.newPage().catch(() => undefined);
    };
    // cleanUp stops watching the context for new pages at once and closes the call's own; any
    // page still open after it is a stray (a popup a page opened as the call ended, a tab made
    // through CDP): closed now, not at the next call's start, so it cannot run with the
    // session's cookies in between (docs/SECURITY.md, "Each call starts clean").
    // Then the sign-ins the call made keep, whatever the browser does next (an idle stop, a
    // restart): its session cookies are given an expiry (trial V16: a login without "Remember
    // me" was gone after a timeout restarted the browser).
    const done = cleanUp(keepBrowser ? openAnchor : undefined).then(() => closeStrays(context, anchor)).then(() => keepSessionLogins(context));
    // The spare tab is made after the strays are closed (else it would be one of them) and the
    // call's changes to the context are undone.
    const closeAnchor = () => anchor?.close({ runBeforeUnload: false }).catch(() => undefined);
    const work = keepBrowser
      ? done.then(async () => {
          const spare = await openSpare(context);
          await closeAnchor();
          await closeStrays(context, spare);
          if (spare) await emptyClipboard(spare);
        })
      : done;
    let timer: NodeJS.Timeout | undefined;
    const settled = await Promise.race([
      work.then(() => true, () => false),
      running.disconnected.then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), SETTLE_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    if (!settled) running.gone = true;
    if (restart || running.gone) await this.stop(running, settled ? 3_000 : 500);
    trace('previous call settled');
  }

  private async stop(running: Running, graceMs: number): Promise<void> {
    if (this.current === running) this.current = undefined;
    await running.opened.close(graceMs).catch(() => undefined);
  }

  /**
   * Sheds what an idle session does not need, by how long it has been idle (no call running:
   * the host calls this only between calls). The work is queued behind any settling, and the
   * next call's `open` waits for it, so a call never meets a half-closed browser.
   */
  shed(idleMs: number, browserIdle: number): void {
    const running = this.current;
    if (!running || running.gone) return;
    if (idleMs >= browserIdle) {
      trace('session idle: closing its browser (the profile stays)');
      this.settling = this.settling.then(() => this.stop(running, 5_000));
    } else if (idleMs >= SPARE_IDLE_MS && !running.spareDropped) {
      running.spareDropped = true;
      this.settling = this.settling.then(() => dropSpare(running.opened.context));
    }
  }

  /** The host is going away: the browser shuts down in order (cookies flushed to the profile). */
  async shutdown(): Promise<void> {
    await this.settling.catch(() => undefined);
    if (this.current) await this.stop(this.current, 5_000);
  }
}

/** Closes the blank tabs kept ready for the next call (each holds a renderer process). */
async function dropSpare(context: BrowserContext): Promise<void> {
  await Promise.all(context.pages().filter((p) => p.url() === 'about:blank').map((p) => p.close().catch(() => undefined)));
}

async function closeStrays(context: BrowserContext, keep?: Page): Promise<void> {
  await Promise.all(context.pages().filter((p) => p !== keep).map((p) => p.close({ runBeforeUnload: false }).catch(() => undefined)));
}

/** The blank tab the next call starts with, at the default viewport. */
async function openSpare(context: BrowserContext): Promise<Page | undefined> {
  try {
    const page = await context.newPage();
    await page.setViewportSize(DEFAULT_VIEWPORT);
    return page;
  } catch {
    return undefined; // the browser is going away: the next call restarts it
  }
}

/** The browser's clipboard outlives tabs: what a page (or a script's Ctrl+C) copied in this
 * call would paste into the next one. Emptied from the spare tab, which no page controls, once
 * every other tab is closed. */
async function emptyClipboard(spare: Page): Promise<void> {
  await spare
    .evaluate(() => {
      document.addEventListener('copy', (e) => {
        e.clipboardData?.setData('text/plain', '');
        e.preventDefault();
      }, { once: true });
      document.execCommand('copy');
    })
    .catch(() => undefined);
}

/** Gives the context's session cookies (no expiry) the profile's keep, so a sign-in made in a
 * call lasts as `gstack login`'s does: Chromium drops session cookies whenever the browser starts
 * again. One round trip when there are none. Never throws. */
async function keepSessionLogins(context: BrowserContext): Promise<void> {
  try {
    const session = (await context.cookies()).filter((c) => c.expires <= 0);
    if (!session.length) return;
    await context.addCookies(keepSessionCookies(session).cookies);
  } catch {
    // A context that is closing keeps what it had.
  }
}
