// The Chromium engine: our own Chromium on a profile owned by this project, attached over CDP
// (so cookies and localStorage survive between calls of one session), or a remote browser
// (--connect / --cdp) with the session's state kept as a storageState file.
import type { BrowserContext } from 'playwright-core';
import { loadPlaywright } from '../playwright-load.js';
import { loadCatalog } from '../catalog.js';
import { findChromium } from '../chromium-find.js';
import { AgentError } from '../errors.js';
import { runInSandbox } from '../sandbox.js';
import type { EngineRunInput, EngineRunOutcome } from './types.js';
import { trace } from '../trace.js';

/** Default per-action timeout for a flow script: long enough for a slow local app, short
 * enough that a wrong selector fails within the call budget. */
export const ACTION_TIMEOUT_MS = 15_000;
export const NAVIGATION_TIMEOUT_MS = 30_000;

export interface OpenedContext {
  context: BrowserContext;
  /** Shuts the browser down in order (profile flushed); killed after `graceMs`. */
  close(graceMs?: number): Promise<void>;
  /** Kills the browser without ceremony (timeouts, signals). */
  kill(): Promise<void>;
}

export interface ChromiumRunInput extends EngineRunInput {
  profileDir: string;
  headed?: boolean;
  /** Replaces the local persistent launch (remote browsers). */
  openContext?: () => Promise<OpenedContext>;
  /** The call's environment (GSTACK_CHROMIUM, PLAYWRIGHT_BROWSERS_PATH): a warm worker serves
   * calls with environments other than its own. */
  env?: NodeJS.ProcessEnv;
}

/**
 * Opens the session's persistent profile. Chromium is spawned first and Playwright imported
 * while it starts (the two are the bulk of a call's fixed cost), then Playwright attaches over
 * CDP through a private relay (see chromium-process.ts). The profile's default context is the
 * persistent one: its cookies and localStorage are what the next call of the session sees.
 */
export async function launchPersistent(profileDir: string, headed = false, env: NodeJS.ProcessEnv = process.env): Promise<OpenedContext> {
  const exe = findChromium(env, { headed }); // throws NoChromiumError (exit 3) before anything starts
  const { startChromium } = await import('./chromium-process.js');
  const browserProcess = startChromium({ executablePath: exe.path, profileDir, headed });
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
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const deadline = new Promise<EngineRunOutcome>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          completed: false,
          timedOut: true,
          error: `The script did not finish within ${input.timeoutMs} ms (--timeout); the browser was closed. A page may be slow or a wait never satisfied: print progress lines to see how far it got, wait for specific elements, or raise --timeout.`,
        }),
      input.timeoutMs,
    );
    timer.unref?.();
    onAbort = () => resolve({ completed: false, error: 'The call was interrupted (signal); the browser was closed.' });
    // A listener added to an already aborted signal never fires: the caller may have gone while
    // the session lock was being taken.
    if (input.signal?.aborted) onAbort();
    else input.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const work = (async (): Promise<EngineRunOutcome> => {
    opened = await (input.openContext ? input.openContext() : launchPersistent(input.profileDir, input.headed, input.env));
    opened.context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    opened.context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    const run = runInSandbox(input.script, { context: opened.context, pwd: input.pwd, onLine: input.onLine }, catalog);
    try {
      await run.done;
      trace('script done');
      return { completed: true };
    } catch (err) {
      return { completed: false, error: err instanceof AgentError ? err.message : String(err) };
    }
  })();
  try {
    const outcome = await Promise.race([work, deadline]);
    if (outcome.timedOut) {
      // The page may be wedged: kill. The launch may still be in flight: whatever it opens
      // later is killed too.
      void work.then(() => opened?.kill(), () => opened?.kill());
      await opened?.kill();
    } else if (input.signal?.aborted) {
      // Interrupted (SIGINT/SIGTERM, or the warm worker's caller went away): shut the browser
      // down in order, as Chromium does by itself when an in-process CLI is killed, so cookies
      // and logins of the interrupted call are kept; a browser that does not close in 2 s is
      // killed.
      void work.then(() => opened?.close(2000), () => opened?.kill());
      await opened?.close(2000);
    } else {
      // Tabs the script left open need no closing of their own: they go with the browser.
      await opened?.close();
    }
    return { artifactDir: input.pwd, ...outcome };
  } catch (err) {
    await opened?.kill();
    throw err;
  } finally {
    clearTimeout(timer);
    if (onAbort) input.signal?.removeEventListener('abort', onAbort);
  }
}
