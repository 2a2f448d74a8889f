// The Chromium engine: runs one flow script on a browser context — our own Chromium on the
// session's profile (cookies and localStorage survive between calls), a session host's browser
// that stays up between calls (driver/hosts/session-browser.ts), or a remote browser
// (--connect / --cdp, with the session's state kept as a storageState file).
//
// Owns: the script's deadline inside the process that runs it, and what happens to the
// browser when the script ends, throws, times out or is interrupted. Not the sandbox
// (driver/runtime/sandbox.ts) nor what a call may touch (driver/runtime/membrane.ts).
import type { BrowserContext } from 'playwright-core';
import { loadPlaywright } from '../browser/playwright-load.js';
import { loadCatalog } from '../catalog.js';
import { findChromium } from '../browser/chromium-find.js';
import { AgentError, rewriteError } from '../errors.js';
import { watchStrayRejections } from '../runtime/stray-rejections.js';
import { runInSandbox, type SandboxRun } from '../runtime/sandbox.js';
import type { DeadlineHandle } from '../hosts/wire.js';
import type { EngineRunInput, EngineRunOutcome } from './types.js';
import { browserEnv } from '../browser/browser-env.js';
import { trace } from '../trace.js';
import { browserGoneMessage, stoppedMessage } from '../stop-cause.js';
import type { BrowserExit } from '../browser/chromium-process.js';

/** Default per-action timeout for a flow script: long enough for a slow local app, short
 * enough that a wrong selector fails within the call budget. */
export const ACTION_TIMEOUT_MS = 15_000;
export const NAVIGATION_TIMEOUT_MS = 30_000;

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
   * `restart` when the call changed the context in a way that cannot be undone.
   */
  release?(cleanUp: () => Promise<void>, restart: boolean): void;
}

export interface ChromiumRunInput extends EngineRunInput {
  profileDir: string;
  headed?: boolean;
  /** Replaces the local persistent launch (a session host's browser, remote browsers). */
  openContext?: () => Promise<OpenedContext>;
  /** The call's environment: which Chromium (GSTACK_CHROMIUM, PLAYWRIGHT_BROWSERS_PATH) and
   * the browser's own environment (TZ, LANG, proxies, display). */
  env?: NodeJS.ProcessEnv;
  /** Whoever keeps the call's deadline outside this event loop (the host's client, or the
   * watchdog thread of an in-process call). */
  deadline?: DeadlineHandle;
  /** `file:` URLs may be opened (--allow-file-urls). */
  allowFileUrls?: boolean;
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
  const { startChromium } = await import('../browser/chromium-process.js');
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

export async function runOnChromium(input: ChromiumRunInput): Promise<EngineRunOutcome> {
  const catalog = loadCatalog();
  let opened: OpenedContext | undefined;
  let run: SandboxRun | undefined;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<EngineRunOutcome>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          completed: false,
          timedOut: true,
          error: `The script did not finish within ${input.timeoutMs} ms (--timeout); its browser was stopped and starts afresh on the next call. A page may be slow or a wait never satisfied: print progress lines to see how far it got, wait for specific elements, or raise --timeout.`,
        }),
      input.timeoutMs,
    );
    timer.unref?.();
    onAbort = () => resolve({ completed: false, error: stoppedMessage(input.signal?.reason) });
    // A listener added to an already aborted signal never fires: the caller may have gone while
    // the session lock was being taken.
    if (input.signal?.aborted) onAbort();
    else input.signal?.addEventListener('abort', onAbort, { once: true });
  });
  // The browser dying under the call (crash, out-of-memory kill, a kill from outside) ends the
  // call with how it died, not with whatever Playwright error the script saw first.
  let browserGone: (exit: BrowserExit | undefined) => void = () => undefined;
  const gone = new Promise<EngineRunOutcome>((resolve) => {
    browserGone = (exit) => resolve({ completed: false, error: browserGoneMessage(opened?.browserPid, exit) });
  });
  const strays = watchStrayRejections();
  const work = (async (): Promise<EngineRunOutcome> => {
    opened = await (input.openContext ? input.openContext() : launchPersistent(input.profileDir, input.headed, input.env));
    void opened.gone?.then(browserGone);
    input.deadline?.browserStarted(opened.browserPid);
    trace('context open');
    opened.context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    opened.context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    run = runInSandbox(input.script, { context: opened.context, pwd: input.pwd, onLine: input.onLine, allowFileUrls: !!input.allowFileUrls, params: input.params }, catalog);
    trace('sandbox and membrane set up, script started');
    try {
      await run.done;
      trace('script done');
      await strays.settle();
      if (strays.seen) {
        return {
          completed: false,
          error: `Something the script did not await failed (a page call without await, or a throw in an event or route handler): ${rewriteError(strays.first)} Put await before every page call (await pg.evaluate(...)) and catch errors inside handlers.`,
        };
      }
      return { completed: true };
    } catch (err) {
      return { completed: false, error: err instanceof AgentError ? err.message : String(err) };
    }
  })();
  try {
    let outcome: EngineRunOutcome = await Promise.race([work, deadline, gone]);
    if (!outcome.completed && !outcome.timedOut && !input.signal?.aborted && opened?.gone && /closed|crash|disconnect/i.test(outcome.error ?? '')) {
      // The script's own error may have come first ("Target page, context or browser has been
      // closed"); a browser that is gone, or going within a moment, is the real cause.
      const late = await Promise.race([gone, new Promise<undefined>((r) => setTimeout(r, 500))]);
      if (late) outcome = late;
    }
    // From here on nothing the script still holds may act: its tabs, context view, fs and
    // console refuse, so a script that outlives its call cannot touch the next one.
    run?.revoke();
    // A failed call explains itself: each open tab's evidence, before any tab closes (also
    // after a timeout or an interruption, while the browser is still there; bounded, see
    // driver/runtime/evidence.ts).
    if (run && input.evidence !== false && (!outcome.completed || input.failsAnyway?.())) {
      outcome.evidence = await run.collectEvidence();
      trace('evidence taken');
    }
    if (outcome.timedOut) {
      // The page may be wedged: kill (a host restarts its browser). The launch may still be
      // in flight: whatever it opens later is killed too.
      void work.then(() => opened?.kill(), () => opened?.kill());
      await opened?.kill();
    } else if (opened?.release && run) {
      // A host's browser outlives the call: the call's tabs and changes are undone after the
      // answer, before the next call gets the context.
      opened.release(run.cleanUp, run.dirty);
    } else if (input.signal?.aborted) {
      // Interrupted (SIGINT/SIGTERM, or the host's client went away): shut the browser down in
      // order, as Chromium does by itself when an in-process CLI is killed, so cookies and
      // logins of the interrupted call are kept; a browser that does not close in 2 s is
      // killed.
      void work.then(() => opened?.close(2000), () => opened?.kill());
      await opened?.close(2000);
    } else {
      // Tabs the script left open need no closing of their own: they go with the browser.
      await opened?.close();
    }
    return { artifactDir: input.pwd, ...outcome };
  } catch (err) {
    run?.revoke();
    await opened?.kill();
    throw err;
  } finally {
    strays.stop();
    clearTimeout(timer);
    if (onAbort) input.signal?.removeEventListener('abort', onAbort);
  }
}
