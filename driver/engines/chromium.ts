// The Chromium engine: a Playwright persistent-context profile owned by this project (so
// cookies and localStorage survive between calls of one session), or a remote browser
// (--connect / --cdp) with the session's state kept as a storageState file.
import type { BrowserContext } from 'playwright-core';
import { loadCatalog, type Catalog } from '../catalog.js';
import { chromiumArgs, findChromium } from '../chromium-find.js';
import { AgentError } from '../errors.js';
import { runInSandbox } from '../sandbox.js';
import type { EngineRunInput, EngineRunOutcome } from './types.js';

/** Default per-action timeout for a flow script: long enough for a slow local app, short
 * enough that a wrong selector fails within the call budget. */
export const ACTION_TIMEOUT_MS = 15_000;
export const NAVIGATION_TIMEOUT_MS = 30_000;

export interface OpenedContext {
  context: BrowserContext;
  close(): Promise<void>;
  /** Kills the browser without ceremony (timeouts, signals). */
  kill(): Promise<void>;
}

export interface ChromiumRunInput extends EngineRunInput {
  profileDir: string;
  headed?: boolean;
  /** Replaces the local persistent launch (remote browsers). */
  openContext?: () => Promise<OpenedContext>;
  catalog?: Catalog;
}

export async function launchPersistent(profileDir: string, headed = false): Promise<OpenedContext> {
  const exe = findChromium(); // throws NoChromiumError (exit 3) before we pay for Playwright
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: exe.path,
    headless: !headed,
    args: chromiumArgs(),
    viewport: { width: 1280, height: 800 },
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await context.close().catch(() => undefined);
  };
  return {
    context,
    close,
    kill: async () => {
      // context.close() asks the browser to shut down; if it hangs (a wedged page), Playwright
      // kills the process when our process exits. Bound the wait either way.
      await Promise.race([close(), new Promise((r) => setTimeout(r, 3000))]);
    },
  };
}

export async function runOnChromium(input: ChromiumRunInput): Promise<EngineRunOutcome> {
  const catalog = input.catalog ?? loadCatalog();
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
    input.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const work = (async (): Promise<EngineRunOutcome> => {
    opened = await (input.openContext ? input.openContext() : launchPersistent(input.profileDir, input.headed));
    opened.context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    opened.context.setDefaultNavigationTimeout(NAVIGATION_TIMEOUT_MS);
    const run = runInSandbox(input.script, { context: opened.context, pwd: input.pwd, onLine: input.onLine, engine: 'chromium' }, catalog);
    try {
      await run.done;
      return { completed: true, artifactDir: input.pwd };
    } catch (err) {
      return { completed: false, error: err instanceof AgentError ? err.message : String(err), artifactDir: input.pwd };
    } finally {
      await run.tabs.closeAll();
    }
  })();
  try {
    const outcome = await Promise.race([work, deadline]);
    if (outcome.timedOut || input.signal?.aborted) {
      // The launch may still be in flight: whatever it opens later is killed too.
      void work.then(() => opened?.kill(), () => opened?.kill());
      await opened?.kill();
    } else {
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
