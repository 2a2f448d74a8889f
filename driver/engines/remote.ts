// Remote browsers (docs/ARCHITECTURE.md, "One call"; README "Other commands"): `--connect ws://…` (a Playwright
// browser server, e.g. launchServer or a grid that speaks its protocol) or `--cdp URL` (a CDP
// endpoint such as Browserless or a Selenium Grid node). A remote browser has no local
// profile, so the session's cookies and localStorage live in a storageState file under the
// session dir: loaded into a fresh context at start, saved back at the end. The caller holds
// the session lock around open..close, so two calls never interleave their state.
import { GstackError } from '../errors.js';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadPlaywright } from '../browser/playwright-load.js';
import type { Browser, BrowserContext } from 'playwright-core';

export interface RemoteContextOptions {
  /** Playwright browser server websocket endpoint (ws://…). */
  connect?: string;
  /** CDP endpoint (http://host:port or ws://…/devtools/browser/…). */
  cdp?: string;
  /** The session's storageState file; created (mode 0600) on close. */
  storageStatePath: string;
  /** Deadline for connecting. */
  timeoutMs: number;
  /** Where a failure to save state is reported (close() never throws). Default: stderr. */
  onWarning?: (message: string) => void;
}

export interface RemoteContext {
  context: BrowserContext;
  browser: Browser;
  /** Saves storageState (mode 0600), closes the context and disconnects. Idempotent. */
  close(): Promise<void>;
}

/** The remote browser could not be reached: no engine for the call (exit NO_ENGINE). */
export class RemoteConnectError extends GstackError {
  constructor(message: string) {
    super(message, 'NO_ENGINE');
  }
}

async function loadState(file: string): Promise<object | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const state = JSON.parse(text);
    if (state && Array.isArray(state.cookies)) return state;
  } catch {
    /* fall through */
  }
  // A damaged state file must not block the session forever; it is replaced at close.
  return undefined;
}

/** Writes the state file atomically and readable only by the user (it holds login cookies). */
export async function writeStorageState(file: string, state: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}

export async function openRemoteContext(opts: RemoteContextOptions): Promise<RemoteContext> {
  if (!!opts.connect === !!opts.cdp) throw new Error('openRemoteContext needs exactly one of connect or cdp');
  const { chromium } = loadPlaywright();
  const endpoint = (opts.connect ?? opts.cdp)!;
  let browser: Browser;
  try {
    browser = opts.connect
      ? await chromium.connect(opts.connect, { timeout: opts.timeoutMs })
      : await chromium.connectOverCDP(opts.cdp!, { timeout: opts.timeoutMs });
  } catch (err) {
    const how = opts.connect ? '--connect (a Playwright browser server, e.g. launchServer)' : '--cdp (a CDP endpoint)';
    throw new RemoteConnectError(
      `Could not connect to the remote browser at ${endpoint} via ${how}: ${firstLine(err)}. ` +
        'Check that the browser server is running and the URL is right, or drop the flag to use the local Chromium.',
    );
  }
  let context: BrowserContext;
  try {
    const storageState = await loadState(opts.storageStatePath);
    context = await browser.newContext(storageState ? { storageState: storageState as never } : {});
  } catch (err) {
    await browser.close().catch(() => {});
    throw err;
  }
  const warn = opts.onWarning ?? ((m: string) => process.stderr.write(m + '\n'));
  let closing: Promise<void> | undefined;
  return {
    context,
    browser,
    close() {
      closing ??= (async () => {
        try {
          if (browser.isConnected()) await writeStorageState(opts.storageStatePath, await context.storageState());
          else warn(`[warn] remote browser disconnected before its session state could be saved to ${opts.storageStatePath}`);
        } catch (err) {
          warn(`[warn] could not save the remote session state to ${opts.storageStatePath}: ${firstLine(err)}`);
        }
        await context.close().catch(() => {});
        // For connect() and connectOverCDP() alike this drops our contexts and disconnects;
        // it does not shut down a browser we did not launch.
        await browser.close().catch(() => {});
      })();
      return closing;
    },
  };
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0];
}
