// Launching Chromium on a session's profile, and the one shape every browser a call runs on has
// (docs/ARCHITECTURE.md, "One call"): the runner picks a BrowserProvider (a browser launched for
// this call, a session host's kept one, driver/hosts/session-browser.ts, or a remote one,
// driver/engines/remote.ts) and hands it to the engine, which opens the call's context from it.
import type { BrowserContext } from 'playwright-core';
import { loadPlaywright } from './playwright-load.js';
import { findChromium } from './chromium-find.js';
import { browserEnv } from './browser-env.js';
import { trace } from '../trace.js';
import type { BrowserExit } from './chromium-process.js';

export interface OpenedContext {
  context: BrowserContext;
  /** The browser process (its process group on expiry of an in-process watchdog). */
  browserPid?: number;
  /** The call is over: an in-process browser is shut down in order (profile flushed; killed
   * after `graceMs`). */
  close(graceMs?: number): Promise<void>;
  /** Kills the browser without ceremony (timeouts, signals); a host restarts it for the next call. */
  kill(): Promise<void>;
  /** Resolves with how the browser process ended, when it ends (a crash, an out-of-memory kill,
   * a `kill` from outside, or our own close): a call it ends under says so. */
  gone?: Promise<BrowserExit | undefined>;
  /**
   * Set when the browser outlives the call (a session host): instead of `close`, the engine
   * hands over the call's own clean-up (its tabs, routes, listeners, downloads), which the
   * host runs after the call has answered and before the next call gets the context;
   * `restart` when the call changed the context in a way that cannot be undone. `beforeClose`
   * runs once the call no longer watches the context for new tabs, before its tabs close.
   */
  release?(cleanUp: (beforeClose?: () => Promise<void>) => Promise<void>, restart: boolean): void;
}

/** Where a call's browser context comes from. */
export interface BrowserProvider {
  /** The call's context, on a browser started (or restarted) for the call's environment. */
  open(env: NodeJS.ProcessEnv, headed: boolean): Promise<OpenedContext>;
}

/** A browser launched on `profileDir` for one call and closed at its end (no session host). */
export function launchedBrowser(profileDir: string): BrowserProvider {
  return { open: (env, headed) => launchPersistent(profileDir, headed, env) };
}

export interface LaunchOptions {
  /** The browser leads a process group of its own (see chromium-process.ts). Default true. */
  ownGroup?: boolean;
}

/**
 * Opens the session's persistent profile. Chromium is spawned first and Playwright imported
 * while it starts (the two are the bulk of a cold call's fixed cost), then Playwright attaches
 * over CDP through a private relay (see chromium-process.ts). The profile's default context
 * is the persistent one: its cookies and localStorage are what the next call of the session
 * sees.
 */
export async function launchPersistent(profileDir: string, headed = false, env: NodeJS.ProcessEnv = process.env, opts: LaunchOptions = {}): Promise<OpenedContext> {
  const exe = findChromium(env, { headed }); // throws NoChromiumError (exit 3) before anything starts
  const { startChromium } = await import('./chromium-process.js');
  const browserProcess = startChromium({ executablePath: exe.path, profileDir, headed, env: browserEnv(env), ownGroup: opts.ownGroup ?? true });
  trace('chromium spawned');
  try {
    const { chromium } = loadPlaywright(); // blocks the main thread while Chromium starts
    const wsEndpoint = await browserProcess.wsEndpoint;
    trace('playwright loaded, chromium answering');
    const browser = await chromium.connectOverCDP(wsEndpoint, { timeout: 30_000 });
    trace('playwright connected');
    const context = browser.contexts()[0];
    if (!context) throw new Error('Chromium started without its default (profile) context.');
    return {
      context,
      browserPid: browserProcess.pid,
      gone: browserProcess.exited.then(() => browserProcess.exitStatus()),
      // Browser.close lets Chromium flush cookies and localStorage to the profile; bounded so
      // a wedged browser cannot hold the call (it is killed after the grace period).
      close: (graceMs = 5000) => browserProcess.close(graceMs),
      kill: async () => {
        browserProcess.kill();
        await browserProcess.exited;
      },
    };
  } catch (err) {
    browserProcess.kill();
    await browserProcess.exited;
    throw err;
  }
}
