// A page's viewport screenshot through one CDP capture (docs/ARCHITECTURE.md, "One call"): the
// same image Playwright's `page.screenshot()` takes, in about half the time. Most of a
// screenshot is Chromium compressing the PNG; Playwright asks for the smallest file, this path
// for the fastest encoding (`optimizeForSpeed`): the same pixels in a larger file (about 1.5x).
// Around the capture it does what Playwright does, with fewer round trips: in a world of its
// own (page scripts cannot see or change it; one per document) it waits for fonts and
// hides the text caret of the focused field (the only one that paints a caret), and puts the
// caret back afterwards.
//
// Only where the image is the same: a PNG of the viewport of a page without child frames,
// with Playwright's defaults (caret hidden, animations running, device scale) and nothing
// else asked for. Every other screenshot, and any hitch on the way (a document that went away
// under it, fonts that do not settle in time), is Playwright's own.
import { randomBytes } from 'node:crypto';
import type { CDPSession, Page } from 'playwright-core';

/** The options a fast capture takes as Playwright's defaults mean them. */
const SAME_AS_DEFAULT: Record<string, (v: unknown) => boolean> = {
  type: (v) => v === undefined || v === 'png',
  timeout: (v) => v === undefined || typeof v === 'number',
  caret: (v) => v === undefined || v === 'hide',
  animations: (v) => v === undefined || v === 'allow',
  scale: (v) => v === undefined || v === 'device',
  fullPage: (v) => v === undefined || v === false,
};

/** Whether Playwright's screenshot with `options` is a plain viewport PNG (no path: the
 * membrane has taken it out and writes the bytes itself). */
export function isPlainViewportShot(options: unknown): boolean {
  if (options === undefined) return true;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return false;
  return Object.entries(options).every(([k, v]) => SAME_AS_DEFAULT[k]?.(v) ?? false);
}

interface ShotSession {
  cdp: CDPSession;
  /** The main frame's id: a page keeps it across navigations. */
  frameId: string;
  /** Our isolated world in the page's current document, as of the last capture. */
  world?: number;
  /** What our world holds (`__gstackShot`) to know itself by: an execution context id may be
   * reused by the next document's process for a context of the page's own, which cannot hold
   * this value. */
  token: string;
}
const sessions = new WeakMap<Page, Promise<ShotSession>>();

const WORLD = 'gstack-screenshot';

/**
 * In the isolated world: waits for fonts (as Playwright does) at most `ms`, then gives the
 * focused editable element (through open shadow roots) a transparent caret, as Playwright's
 * caret hiding does for every editable element — only the focused one paints a caret. Answers
 * 'ready', 'hidden' (a caret to put back) or 'slow' (fonts not ready in time).
 */
const PREPARE = (ms: number) => `(async () => {
  const settled = await Promise.race([document.fonts.ready.then(() => true), new Promise((r) => setTimeout(() => r(false), ${ms}))]);
  if (!settled) return 'slow';
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || !el.matches('input,textarea,[contenteditable]')) return 'ready';
  globalThis.__gstackCaret = { el, value: el.style.getPropertyValue('caret-color'), priority: el.style.getPropertyPriority('caret-color') };
  el.style.setProperty('caret-color', 'transparent', 'important');
  return 'hidden';
})()`;
const RESTORE = `(() => { const c = globalThis.__gstackCaret; globalThis.__gstackCaret = undefined; if (c) c.el.style.setProperty('caret-color', c.value, c.priority); })()`;

async function session(page: Page): Promise<ShotSession> {
  let s = sessions.get(page);
  if (!s) {
    s = (async () => {
      const cdp = await page.context().newCDPSession(page);
      const tree = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
      return { cdp, frameId: tree.frameTree.frame.id, token: randomBytes(16).toString('hex') };
    })();
    sessions.set(page, s);
    s.catch(() => sessions.delete(page));
  }
  return s;
}

async function evaluate(s: ShotSession, contextId: number, expression: string): Promise<unknown> {
  const r = (await s.cdp.send('Runtime.evaluate', { expression, contextId, awaitPromise: true, returnByValue: true })) as { result: { value?: unknown }; exceptionDetails?: unknown };
  return r.exceptionDetails ? undefined : r.result.value;
}

const PREPARED = new Set(['ready', 'hidden', 'slow']);

/** PREPARE in our world of the page's current document: the one of the previous capture when
 * it still answers with our token, else a new one (a navigation ended the old one). */
async function prepare(s: ShotSession, ms: number): Promise<{ state: unknown; contextId: number }> {
  const token = JSON.stringify(s.token);
  if (s.world !== undefined) {
    const state = await evaluate(s, s.world, `globalThis.__gstackShot === ${token} ? ${PREPARE(ms)} : 'elsewhere'`).catch(() => undefined);
    if (PREPARED.has(state as string)) return { state, contextId: s.world };
  }
  s.world = ((await s.cdp.send('Page.createIsolatedWorld', { frameId: s.frameId, worldName: WORLD })) as { executionContextId: number }).executionContextId;
  return { state: await evaluate(s, s.world, `(globalThis.__gstackShot = ${token}, ${PREPARE(ms)})`), contextId: s.world };
}

/**
 * The viewport PNG of `page` through one CDP capture, or undefined when this path would not
 * give Playwright's image (child frames, options beyond the defaults, fonts still loading):
 * the caller then takes Playwright's.
 */
export async function fastScreenshot(page: Page, options: unknown): Promise<Buffer | undefined> {
  if (!isPlainViewportShot(options) || page.frames().length !== 1 || !page.viewportSize()) return undefined;
  const s = await session(page);
  const timeout = (options as { timeout?: number } | undefined)?.timeout;
  let prepared: { state: unknown; contextId: number };
  try {
    prepared = await prepare(s, Math.min(timeout && timeout > 0 ? timeout : 5_000, 5_000));
  } catch {
    return undefined; // the document went away under us: Playwright's path waits for the next
  }
  if (prepared.state !== 'ready' && prepared.state !== 'hidden') return undefined;
  try {
    const shot = (await s.cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true })) as { data: string };
    return Buffer.from(shot.data, 'base64');
  } finally {
    if (prepared.state === 'hidden') await evaluate(s, prepared.contextId, RESTORE).catch(() => undefined);
  }
}
