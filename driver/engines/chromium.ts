// The Chromium engine: runs one flow script on the browser context its provider opens
// (driver/browser/launch.ts) — our own Chromium on the session's profile (cookies and
// localStorage survive between calls), a session host's browser that stays up between calls
// (driver/hosts/session-browser.ts), or a remote browser (--connect / --cdp, with the
// session's state kept as a storageState file).
//
// Owns: what happens to the browser when the script ends, throws, times out (its deadline is
// driver/deadline.ts's, started by the runner) or is interrupted. Not the sandbox
// (driver/runtime/sandbox.ts) nor what a call may touch (driver/runtime/membrane.ts).
import { loadCatalog } from '../catalog.js';
import { AgentError, rewriteError } from '../errors.js';
import { watchStrayRejections } from '../runtime/stray-rejections.js';
import { runInSandbox, type SandboxRun } from '../runtime/sandbox.js';
import type { EngineRunInput, EngineRunOutcome } from './types.js';
import { trace } from '../trace.js';
import { browserGoneMessage, stoppedMessage } from '../stop-cause.js';
import { timedOutMessage } from '../deadline.js';
import type { BrowserExit } from '../browser/chromium-process.js';
import type { BrowserProvider, OpenedContext } from '../browser/launch.js';

/** Default per-action timeout for a flow script: long enough for a slow local app, short
 * enough that a wrong selector fails within the call budget. */
export const ACTION_TIMEOUT_MS = 15_000;
export const NAVIGATION_TIMEOUT_MS = 30_000;

export interface ChromiumRunInput extends EngineRunInput {
  /** Where the call's browser context comes from (the runner picks it: a browser launched on
   * the session's profile for this call, a session host's kept browser, a remote browser). */
  browser: BrowserProvider;
  headed?: boolean;
  /** The call's environment: which Chromium (GSTACK_CHROMIUM, PLAYWRIGHT_BROWSERS_PATH) and
   * the browser's own environment (TZ, LANG, proxies, display). */
  env?: NodeJS.ProcessEnv;
  /** `file:` URLs may be opened (--allow-file-urls). */
  allowFileUrls?: boolean;
}

export async function runOnChromium(input: ChromiumRunInput): Promise<EngineRunOutcome> {
  const catalog = loadCatalog();
  let opened: OpenedContext | undefined;
  let run: SandboxRun | undefined;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<EngineRunOutcome>((resolve) => {
    void input.deadline.expired.then(() => resolve({ completed: false, timedOut: true, error: timedOutMessage(input.deadline.ms, 'chromium', run?.pendingCall()) }));
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
    opened = await input.browser.open(input.env ?? process.env, !!input.headed);
    void opened.gone?.then(browserGone);
    input.deadline.browserStarted(opened.browserPid);
    trace('context open');
    opened.context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    opened.context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    run = runInSandbox(input.script, { context: opened.context, pwd: input.pwd, onLine: input.onLine, onNotice: input.onNotice, allowFileUrls: !!input.allowFileUrls, params: input.params }, catalog);
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
    let outcome: EngineRunOutcome = await Promise.race([work, ended, gone]);
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
    if (run && (!outcome.completed || input.failsAnyway?.())) {
      if (input.evidence !== false) outcome.evidence = await run.collectEvidence();
      else {
        await run.learnSecretsOnFailure();
        outcome.tabsAtFailure = run.whereTabsAre();
      }
      outcome.unreadTabs = run.unreadAtFailure;
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
    if (onAbort) input.signal?.removeEventListener('abort', onAbort);
  }
}
