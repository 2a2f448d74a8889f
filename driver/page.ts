// The Page a flow script sees: Playwright's Page behind a proxy that adds snapshot refs
// (`pg.locator("e12")`, `@e12`, `ref=e12`, frame refs `f1e2`) with fail-fast staleness,
// `_sendToTarget` (raw CDP, Aside's name), and agent-facing error messages.
import type { BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AgentError, toAgentError } from './errors.js';
import { pathConfinedTo } from './confined-fs.js';
import { newSnapshotState, playwrightRef, takeSnapshot, type PageSnapshotState, type SnapshotOptions } from './snapshot.js';

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

const REF_SELECTOR = /^(?:@|ref=|aria-ref=)?((?:f\d+)?e\d+)$/;

/** Locator methods that act on (or read) the element: a stale ref must fail before these. */
const REF_ACTIONS = new Set([
  'click', 'dblclick', 'fill', 'clear', 'press', 'pressSequentially', 'type', 'check', 'uncheck', 'setChecked',
  'selectOption', 'selectText', 'hover', 'focus', 'blur', 'tap', 'setInputFiles', 'dragTo', 'screenshot',
  'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'evaluate', 'evaluateHandle',
  'boundingBox', 'scrollIntoViewIfNeeded', 'dispatchEvent', 'isChecked', 'isEnabled', 'isDisabled',
  'isEditable', 'ariaSnapshot', 'elementHandle', 'highlight', 'waitFor',
]);
/** Methods that return another Locator (wrapped so its errors are rewritten too). */
const LOCATOR_FACTORIES = new Set([
  'locator', 'getByRole', 'getByLabel', 'getByText', 'getByPlaceholder', 'getByTestId', 'getByAltText',
  'getByTitle', 'first', 'last', 'nth', 'filter', 'and', 'or', 'describe',
]);

/** Methods that write a file when given `{ path }`: like `fs`, they may only write under pwd
 * (relative paths land there), so a script's artifacts always come out through `pwd`. */
const PATH_WRITERS = new Set(['screenshot', 'pdf']);
type Confine = (p: unknown) => Promise<string>;

async function confinedArgs(method: string, args: unknown[], confine: Confine | undefined): Promise<unknown[]> {
  const opts = args[0] as { path?: unknown } | undefined;
  if (!confine || !PATH_WRITERS.has(method) || !opts || typeof opts !== 'object' || opts.path === undefined) return args;
  let real: string;
  try {
    real = await confine(opts.path);
  } catch (err) {
    throw new AgentError(`${method}({ path }) ${(err as Error).message.replace(/^fs refused/, 'refused')}`, 'FS_CONFINED');
  }
  await mkdir(dirname(real), { recursive: true });
  return [{ ...opts, path: real }, ...args.slice(1)];
}

function rewriteAsync(value: unknown): unknown {
  if (value && typeof (value as Promise<unknown>).then === 'function') {
    return (value as Promise<unknown>).then(undefined, (err) => {
      throw toAgentError(err);
    });
  }
  return value;
}

/** The wrapper a proxied Page or Locator method gets: locator factories return wrapped
 * locators, file writers are confined to pwd, everything else has its errors rewritten (and
 * chaining methods that return `this` keep returning the proxy). */
function forward(target: object, prop: string, value: Function, receiver: unknown, confine: Confine | undefined) {
  if (LOCATOR_FACTORIES.has(prop)) return (...args: unknown[]) => wrapLocator(value.apply(target, args), confine);
  if (PATH_WRITERS.has(prop)) return async (...args: unknown[]) => rewriteAsync(value.apply(target, await confinedArgs(prop, args, confine)));
  return (...args: unknown[]) => {
    const out = value.apply(target, args);
    return out === target ? receiver : rewriteAsync(out);
  };
}

function wrapLocator(loc: Locator, confine: Confine | undefined, ref?: { id: string; state: PageSnapshotState }): Locator {
  return new Proxy(loc, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      if (ref && REF_ACTIONS.has(prop)) {
        return async (...args: unknown[]) => {
          await assertRefAlive(target, ref.id, ref.state);
          return rewriteAsync(value.apply(target, await confinedArgs(prop, args, confine)));
        };
      }
      return forward(target, prop, value, receiver, confine);
    },
  });
}

async function assertRefAlive(loc: Locator, id: string, state: PageSnapshotState): Promise<void> {
  const desc = state.refs.get(id);
  if (!desc) {
    throw new AgentError(
      state.snapshots === 0
        ? `Ref ${id} is unknown: this page has no snapshot yet in this script. Take one with snapshot(pg, { interactive: true }) and use a ref from its tree.`
        : `Ref ${id} does not appear in any snapshot of this page. Take a new snapshot and use a ref from its tree.`,
      'STALE_REF',
    );
  }
  // aria-ref resolution answers at once (no auto-wait) when the element is detached.
  const n = await loc.count().catch(() => 0);
  if (n === 0) throw new AgentError(`Ref ${id} is stale — the element (${desc}) no longer exists. Take a new snapshot.`, 'STALE_REF');
}

export interface ScriptPage extends Page {
  _sendToTarget(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

interface TabState {
  raw: Page;
  proxy: ScriptPage;
  snapshot: PageSnapshotState;
  cdp?: Promise<CDPSession>;
}

/** The tabs one script opened. Only these can be closed or snapshotted by the script. */
export class Tabs {
  private readonly byProxy = new Map<unknown, TabState>();
  private spare: Page[];

  private readonly confine: Confine | undefined;

  constructor(private readonly context: BrowserContext, initialPages: Page[] = [], pwd?: string) {
    this.confine = pwd ? pathConfinedTo(pwd) : undefined;
    // A persistent context starts with one blank tab: the first openTab() takes it over
    // instead of paying for a new one.
    this.spare = initialPages.filter((p) => !p.isClosed() && p.url() === 'about:blank');
  }

  async open(url?: unknown): Promise<ScriptPage> {
    if (url !== undefined && typeof url !== 'string') throw new AgentError('openTab(url): url must be a string like "http://127.0.0.1:8080/".');
    const raw = this.spare.shift() ?? (await this.context.newPage().catch((e) => { throw toAgentError(e); }));
    const tab = this.track(raw);
    // Same default viewport as a Playwright launch (1280x720), so screenshots and responsive
    // checks do not depend on how the browser window was sized.
    await raw.setViewportSize(DEFAULT_VIEWPORT).catch(() => undefined);
    if (url && url !== 'about:blank') {
      try {
        await raw.goto(url);
      } catch (err) {
        throw toAgentError(err);
      }
    }
    return tab.proxy;
  }

  state(pg: unknown, fn: string): TabState {
    const t = this.byProxy.get(pg);
    if (!t) throw new AgentError(`${fn}: that is not a tab this script opened. Pass a Page returned by openTab().`);
    return t;
  }

  async close(pg: unknown): Promise<void> {
    const t = this.byProxy.get(pg);
    if (!t) throw new AgentError('closeTab only closes tabs this script opened with openTab().');
    this.byProxy.delete(pg);
    // Not awaited: the tab is already unusable from the script, and waiting for the target to
    // be destroyed would only add a round trip to every call.
    if (!t.raw.isClosed()) void t.raw.close().catch(() => undefined);
  }

  snapshot(pg: unknown, opts?: SnapshotOptions) {
    const t = this.state(pg, 'snapshot');
    return takeSnapshot(t.raw, t.snapshot, opts ?? {});
  }

  private track(raw: Page): TabState {
    const confine = this.confine;
    const state: TabState = { raw, proxy: undefined as unknown as ScriptPage, snapshot: newSnapshotState() };
    const sendToTarget = async (method: unknown, params?: Record<string, unknown>) => {
      if (typeof method !== 'string') throw new AgentError('_sendToTarget(method, params): method must be a CDP method name like "Page.reload".');
      // Page.enable first: without it Chromium accepts Page.addScriptToEvaluateOnNewDocument on
      // a fresh session but never runs the script (the cookbook's console hook relies on it).
      state.cdp ??= this.context.newCDPSession(raw).then(async (s) => {
        await s.send('Page.enable').catch(() => undefined);
        return s;
      });
      try {
        return await (await state.cdp).send(method as never, params as never);
      } catch (err) {
        throw new AgentError(`CDP ${method} failed: ${(err as Error).message.split('\n')[0]}. Check the method name and params against the Chrome DevTools Protocol.`);
      }
    };
    state.proxy = new Proxy(raw, {
      get(target, prop, receiver) {
        if (prop === '_sendToTarget') return sendToTarget;
        const value = Reflect.get(target, prop, target);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        if (prop === 'locator') {
          return (selector: unknown, options?: unknown) => {
            const m = typeof selector === 'string' ? REF_SELECTOR.exec(selector.trim()) : null;
            if (m) return wrapLocator(target.locator(`aria-ref=${playwrightRef(state.snapshot, m[1])}`), confine, { id: m[1], state: state.snapshot });
            return wrapLocator(target.locator(selector as string, options as never), confine);
          };
        }
        return forward(target, prop, value, receiver, confine);
      },
    }) as ScriptPage;
    this.byProxy.set(state.proxy, state);
    raw.once('close', () => this.byProxy.delete(state.proxy));
    return state;
  }

  /** A screenshot with the ref label of every interactive element drawn on the page. */
  async annotatedScreenshot(pg: unknown): Promise<{ base64Image: string }> {
    const t = this.state(pg, 'annotatedScreenshot');
    // Its own snapshot must not become the "previous snapshot" the script's next diff uses.
    const previousTree = t.snapshot.previousTree;
    const snap = await takeSnapshot(t.raw, t.snapshot, { interactive: true });
    t.snapshot.previousTree = previousTree;
    const refs = [...snap.tree.matchAll(/\[ref=((?:f\d+)?e\d+)\]/g)].map((m) => m[1]).slice(0, 300);
    const boxes = (
      await Promise.all(
        refs.map(async (ref) => {
          const box = await t.raw.locator(`aria-ref=${playwrightRef(t.snapshot, ref)}`).boundingBox({ timeout: 1000 }).catch(() => null);
          return box ? { ref, ...box } : null;
        }),
      )
    ).filter((b): b is { ref: string; x: number; y: number; width: number; height: number } => !!b);
    const overlayId = `__gstack_annot_${Math.random().toString(36).slice(2)}`;
    try {
      await t.raw.evaluate(
        ({ boxes, overlayId }) => {
          const host = document.createElement('div');
          host.id = overlayId;
          host.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
          for (const b of boxes) {
            const frame = document.createElement('div');
            frame.style.cssText = `position:fixed;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px;outline:2px solid #e11d48;box-sizing:border-box`;
            const tag = document.createElement('div');
            tag.textContent = b.ref;
            tag.style.cssText = `position:fixed;left:${b.x}px;top:${Math.max(0, b.y - 16)}px;background:#e11d48;color:#fff;font:bold 11px/14px monospace;padding:0 3px;border-radius:2px`;
            host.append(frame, tag);
          }
          document.documentElement.appendChild(host);
        },
        { boxes, overlayId },
      );
      const png = await t.raw.screenshot({ type: 'png' });
      return { base64Image: png.toString('base64') };
    } catch (err) {
      throw toAgentError(err);
    } finally {
      await t.raw.evaluate((id) => document.getElementById(id)?.remove(), overlayId).catch(() => undefined);
    }
  }
}
