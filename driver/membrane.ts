// What a flow script may do with the Playwright objects it reaches (docs/ARCHITECTURE.md,
// "One call"): every object a script gets from the API — pages, frames, locators, element
// handles, the context, requests, routes, downloads, tracing, CDP sessions, event payloads —
// is a proxy made here, for one call.
//
// The proxies:
// - confine files: whatever writes a file (screenshot, pdf, storageState, saveAs, tracing) may
//   only write under pwd, and whatever reads one (setInputFiles, route.fulfill({ path }),
//   addInitScript/addScriptTag({ path }), routeFromHAR, DOM.setFileInputFiles) may only read
//   from it; relative paths land in pwd. Playwright never gets the script's path: the bytes are
//   read or written through the call's Confinement (confined-fs.ts, which follows no link on
//   the way, so a concurrent swap cannot redirect it), and where Playwright insists on a path
//   it gets one in a private temporary directory of the call;
// - refuse `file:` URLs (goto, CDP params) unless the call allows them (--allow-file-urls);
// - rewrite errors for agents (driver/errors.ts);
// - keep a call to itself: they refuse to act once the call has ended (a script that outlives
//   its call cannot touch the next one), refuse to change or replace Playwright's own objects
//   (which a session host keeps between calls), hide Playwright's internals (`_` members), and
//   record what a call changed on the shared context (routes, init scripts, exposed bindings,
//   listeners, headers, permissions, geolocation, offline, tracing) so that `cleanUp` undoes it.
//   Changes that cannot be undone (a clock installed on the context, raw Browser.* CDP) mark the
//   call `dirty`: a host then restarts its browser before the next call.
//
// The vm sandbox is not a security boundary (see README, "Security model"); these rules hold
// for every script that uses the API as documented, which is what keeps sessions and calls
// apart inside one host.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { AgentError, toAgentError } from './errors.js';
import type { Confinement } from './confined-fs.js';
import { findFileUrl, isFileUrl, plainData, plainUrl } from './url-policy.js';
import { pageCallbackScope } from './output.js';

export interface MembraneOptions {
  /** Every file a script's API call reads or writes goes through this (pwd only). */
  files: Confinement;
  allowFileUrls: boolean;
  /** Page/Frame content() with secret field values cut (snapshot.ts redaction). */
  redactedContent?: (raw: object, kind: 'Page' | 'Frame') => Promise<string>;
  /** A Page's or Locator's ariaSnapshot() text with secret field values cut (snapshot.ts). */
  redactedAria?: (raw: object, kind: 'Page' | 'Locator', text: string) => Promise<string>;
  /** Page-specific members (`locator` with refs, `_sendToTarget`); see page.ts. */
  pageMember?: (raw: object, prop: string) => unknown;
  /** Locator methods guarded by a ref's staleness check; see page.ts. */
  beforeLocatorAction?: (raw: object, method: string) => Promise<void> | undefined;
}

/** Playwright's class of an object, for the rules below: ChannelOwner objects say it in
 * `_type`; helpers (Locator, Keyboard, ...) are told apart by their members. */
function kindOf(raw: any): string {
  const t = raw?._type;
  if (typeof t === 'string') return t;
  if (typeof raw?.and === 'function' && typeof raw?.or === 'function' && typeof raw?.nth === 'function') return 'Locator';
  if (typeof raw?.setFiles === 'function' && typeof raw?.isMultiple === 'function') return 'FileChooser';
  if (typeof raw?.install === 'function' && typeof raw?.runFor === 'function') return 'Clock';
  if (typeof raw?.saveAs === 'function' && typeof raw?.suggestedFilename === 'function') return 'Download';
  if (typeof raw?.saveAs === 'function' && typeof raw?.path === 'function') return 'Video';
  if (typeof raw?.dispose === 'function' && Object.keys(raw).length <= 2) return 'Disposable';
  return 'Object';
}

const BUILTIN_PROTOS = new Set<object | null>([
  null, Object.prototype, Array.prototype, Date.prototype, RegExp.prototype, Map.prototype, Set.prototype,
  ArrayBuffer.prototype, Uint8Array.prototype, Buffer.prototype, Error.prototype, URL.prototype,
]);

/** Plain data (and Buffers) passes as it is; any other class instance coming out of Playwright
 * is a Playwright object and gets a proxy. */
function isPlaywrightObject(v: unknown): v is object {
  if (!v || (typeof v !== 'object' && typeof v !== 'function') || typeof v === 'function') return false;
  const proto = Object.getPrototypeOf(v);
  if (BUILTIN_PROTOS.has(proto)) return false;
  if (v instanceof Error || ArrayBuffer.isView(v) || v instanceof Promise) return false;
  return true;
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => !!v && (typeof v === 'object' || typeof v === 'function') && typeof (v as { then?: unknown }).then === 'function';

/** Methods whose function arguments Playwright calls back in Node (so they get wrapped: their
 * arguments are proxied, and they stop once the call ends). evaluate() and friends send their
 * function to the page as source text: those are left alone. */
const CALLBACK_METHODS = new Set([
  'on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'off', 'removeListener',
  'route', 'unroute', 'routeWebSocket', 'exposeFunction', 'exposeBinding', 'waitForEvent',
  'waitForRequest', 'waitForResponse', 'waitForURL', 'addLocatorHandler', 'onMessage', 'onClose',
]);
const ADD_LISTENER = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
const REMOVE_LISTENER = new Set(['off', 'removeListener']);

/** BrowserContext members that only read, or whose effect is the session's persistent state
 * (cookies), or that the membrane undoes itself. Any other context member marks the call
 * dirty: a host restarts its browser after it. */
const CONTEXT_SAFE = new Set([
  'pages', 'newPage', 'cookies', 'addCookies', 'clearCookies', 'storageState', 'request', 'tracing',
  'waitForEvent', 'newCDPSession', 'backgroundPages', 'serviceWorkers', 'setDefaultTimeout', 'setDefaultNavigationTimeout',
  'route', 'routeWebSocket', 'routeFromHAR', 'unroute', 'unrouteAll', 'addInitScript', 'exposeBinding', 'exposeFunction',
  'setExtraHTTPHeaders', 'grantPermissions', 'clearPermissions', 'setGeolocation', 'setOffline',
  'on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'off', 'removeListener', 'listenerCount', 'listeners',
  'browser', 'close', 'clock', 'isClosed',
]);

type Listener = { emitter: any; event: string | symbol; fn: (...a: unknown[]) => unknown };

export class CallEnded extends AgentError {
  constructor() {
    super('This call has ended: its tabs, context and files are closed. Keep the whole flow in one script, and await every step before printing GSTACK_STEP_OK.', 'CALL_ENDED');
  }
}

export class Membrane {
  private readonly proxies = new WeakMap<object, object>();
  private readonly raws = new WeakMap<object, object>();
  private readonly callbacks = new WeakMap<Function, Function>();
  private readonly listeners: Listener[] = [];
  private readonly disposables: Array<{ dispose(): Promise<unknown> }> = [];
  private readonly undo = new Map<string, () => Promise<unknown>>();
  private readonly tracings = new Set<any>();
  revoked = false;
  /** The call changed the shared context in a way cleanUp cannot undo. */
  dirty = false;

  constructor(private readonly opts: MembraneOptions) {}

  /** The script's view of `value`: proxies for Playwright objects (also inside arrays and
   * promises); data as it is. */
  wrap(value: unknown): any {
    if (isThenable(value) && !isPlaywrightObject(value)) {
      // Once the call has ended nothing settles into the script any more: what it chained on
      // a page call (a spin, a write, a held buffer) never runs and is released with it.
      return Promise.resolve(value).then(
        (v) => (this.revoked ? never() : this.wrap(v)),
        (err) => {
          if (this.revoked) return never();
          throw toAgentError(err);
        },
      );
    }
    if (Array.isArray(value)) return value.some(isPlaywrightObject) ? value.map((v) => this.wrap(v)) : value;
    if (!isPlaywrightObject(value)) return value;
    const known = this.proxies.get(value);
    if (known) return known;
    const proxy = this.makeProxy(value);
    this.proxies.set(value, proxy);
    this.raws.set(proxy, value);
    return proxy;
  }

  /** The Playwright object behind a proxy this membrane made (undefined for anything else). */
  rawOf(v: unknown): any {
    return v && typeof v === 'object' ? this.raws.get(v) : undefined;
  }

  private checkLive(): void {
    if (this.revoked) throw new CallEnded();
  }

  private makeProxy(raw: object): object {
    const kind = kindOf(raw);
    const methods = new Map<string | symbol, Function>();
    const self = this;
    const refuse = (): never => {
      throw new AgentError(`Playwright objects are read-only in a flow script (a ${kind} cannot be changed): keep your own state in a variable.`);
    };
    return new Proxy(raw, {
      get(target, prop) {
        self.checkLive();
        if (typeof prop === 'string') {
          if (kind === 'Page' && self.opts.pageMember) {
            const member = self.opts.pageMember(target, prop);
            if (member !== undefined) return member;
          }
          // Playwright's internals (channels, connections, parents) are not part of the API.
          if (prop.startsWith('_') || prop === 'constructor') return undefined;
          if (kind === 'BrowserContext' && prop === 'browser') return () => null;
        }
        const value = Reflect.get(target, prop, target);
        if (typeof value === 'function') {
          let fn = methods.get(prop);
          if (!fn) {
            fn = self.method(kind, target, String(prop), value);
            methods.set(prop, fn);
          }
          return fn;
        }
        return self.wrap(value);
      },
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
      // Neither Playwright's prototypes nor its objects' own fields are the script's to reach.
      getPrototypeOf: () => null,
      ownKeys: (target) => Reflect.ownKeys(target).filter((k) => typeof k !== 'string' || !k.startsWith('_')),
    });
  }

  /** One wrapped method: refuses after the call, checks and rewrites arguments, records what
   * must be undone, and wraps the result. */
  private method(kind: string, target: any, prop: string, value: Function): Function {
    const self = this;
    return function (this: unknown, ...args: unknown[]) {
      self.checkLive();
      const refusal = self.refusal(kind, prop, args);
      if (refusal) throw refusal;
      if ((kind === 'BrowserContext' && !CONTEXT_SAFE.has(prop)) || kind === 'Clock') self.dirty = true;
      try {
        const before = kind === 'Locator' ? self.opts.beforeLocatorAction?.(target, prop) : undefined;
        const prepared = self.prepareArgs(kind, prop, args);
        const call = (a: unknown[]) => {
          self.checkLive();
          return self.record(kind, target, prop, a, value.apply(target, a));
        };
        const viaFiles = self.fileCall(kind, prop, target, call);
        if (!before && !isThenable(prepared) && !viaFiles) return self.wrap(call(prepared as unknown[]));
        const action = Promise.resolve(prepared).then((a) => (viaFiles ? viaFiles(a as unknown[]) : call(a as unknown[])));
        if (!before) return self.wrap(action);
        // A ref's staleness check runs beside the action, not before it (one round trip less
        // per action): a live ref answers with the action; a stale one fails at once, and its
        // action, which could only wait for an element that is gone, is abandoned.
        action.catch(() => undefined);
        return self.wrap(before.then(() => action));
      } catch (err) {
        throw toAgentError(err);
      }
    };
  }

  /** Refusals that need no I/O. */
  private refusal(kind: string, prop: string, args: unknown[]): Error | undefined {
    if (prop === 'removeAllListeners') {
      return new AgentError('removeAllListeners() is not available in a flow script (the runner listens too): remove your own listener with off(event, handler).');
    }
    if (kind === 'BrowserContext' && prop === 'close') {
      return new AgentError("The browser context is the session's and outlives the call: close your own tabs with closeTab(pg) instead.");
    }
    // URLs are checked as what will be sent (url-policy.ts): the coerced value replaces the
    // script's, so a toJSON or String object cannot say one thing to the check and another
    // to the browser.
    if ((kind === 'Page' || kind === 'Frame') && prop === 'goto') return this.urlRefusal((args[0] = plainUrl(args[0])));
    if (kind === 'Route' && (prop === 'continue' || prop === 'fallback' || prop === 'fetch')) {
      const o = args[0] as { url?: unknown } | undefined;
      if (o && typeof o === 'object' && 'url' in o) args[0] = { ...o, url: plainUrl(o.url) };
      return this.urlRefusal((args[0] as { url?: unknown } | undefined)?.url);
    }
    if (kind === 'APIRequestContext' && prop === 'dispose') {
      return new AgentError("The context's request client is the session's and serves fetch(): it cannot be disposed by a flow script.");
    }
    if (kind === 'APIRequestContext' && ['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head'].includes(prop)) return this.urlRefusal((args[0] = plainUrl(args[0])));
    if (kind === 'CDPSession' && prop === 'send') {
      args[0] = plainUrl(args[0]);
      if (args.length > 1) args[1] = plainData(args[1]);
      return this.cdpRefusal(args[0], args[1]);
    }
    if (prop === 'routeFromHAR' && (args[1] as { update?: unknown } | undefined)?.update) {
      return new AgentError('routeFromHAR({ update: true }) is not available in a flow script (it would write the HAR outside the call): replay a HAR you saved in pwd, without update.');
    }
    return undefined;
  }

  /** `file:` URLs (also behind `view-source:`) are refused unless the call allows them. */
  urlRefusal(url: unknown): Error | undefined {
    if (this.opts.allowFileUrls || !isFileUrl(url)) return undefined;
    return new AgentError(`Refused to open ${JSON.stringify(String(plainUrl(url))).slice(0, 120)}: file: URLs are off for flow scripts (they would hand local files to the page). Serve the file over http (e.g. \`python3 -m http.server\` in its folder), or run the call with --allow-file-urls.`, 'FILE_URL');
  }

  /** Raw CDP (`_sendToTarget`, CDPSession.send), with `params` already plain data (what the
   * wire carries, url-policy.ts `plainData`): file: URLs anywhere in the params are refused,
   * file paths are confined like the Playwright API's, Browser.* marks the call dirty. */
  cdpRefusal(method: unknown, params: unknown): Error | undefined {
    if (typeof method !== 'string') return undefined;
    if (method === 'Page.setDownloadBehavior' || method === 'Browser.setDownloadBehavior') {
      // The browser would write downloads there by itself, past any check of ours.
      return new AgentError(`${method} is not available in a flow script: wait for the download with pg.waitForEvent("download") and save it with download.saveAs(path.join(pwd, "name")).`, 'FS_CONFINED');
    }
    if (method.startsWith('Browser.') || method.startsWith('Target.setAutoAttach')) this.dirty = true;
    const found = this.opts.allowFileUrls ? undefined : findFileUrl(params);
    return found !== undefined ? this.urlRefusal(found) : undefined;
  }

  /** CDP params with local paths in them, made safe: files to upload are read from pwd and
   * handed to the browser as private copies. */
  async confineCdpParams(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown> | undefined> {
    if (!params) return params;
    if (method === 'DOM.setFileInputFiles' && Array.isArray(params.files)) {
      return { ...params, files: await Promise.all(params.files.map((f) => this.privateCopy(`${method} files`, f))) };
    }
    return params;
  }

  /** What a confinement refusal says, named after the API the script called. */
  private refused(what: string, p: unknown, err: unknown): Error {
    if (!(err instanceof AgentError)) return toAgentError(err);
    const detail = err.message.replace(/^fs refused "([^"]*)": /, '');
    return new AgentError(`${what} refused "${String(p)}": ${detail}`, 'FS_CONFINED');
  }

  private async read(what: string, p: unknown): Promise<Buffer> {
    try {
      return await this.opts.files.readFile(p);
    } catch (err) {
      throw this.refused(what, p, err);
    }
  }

  private async write(what: string, p: unknown, data: Buffer | string | AsyncIterable<Uint8Array | string>): Promise<void> {
    try {
      await this.opts.files.writeFile(p, data);
    } catch (err) {
      throw this.refused(what, p, err);
    }
  }

  /** Fails fast, before slow work (a screenshot), when the path cannot be under pwd. */
  private async check(what: string, p: unknown): Promise<void> {
    try {
      await this.opts.files.check(p);
    } catch (err) {
      throw this.refused(what, p, err);
    }
  }

  private temp: Promise<string> | undefined;
  /** A private (0700) directory of this call for files Playwright or the browser must have by
   * path; removed at the end of the call. */
  private tempPath(name: string): Promise<string> {
    this.temp ??= mkdtemp(join(tmpdir(), 'gstack-call-'));
    return this.temp.then((dir) => join(dir, `${Math.random().toString(36).slice(2)}-${basename(name) || 'file'}`));
  }

  /** A private copy of a file under pwd, for an API that takes a path. */
  private async privateCopy(what: string, p: unknown): Promise<string> {
    const bytes = await this.read(what, p);
    const copy = await this.tempPath(String(p));
    await writeFile(copy, bytes, { mode: 0o600 });
    return copy;
  }

  /**
   * Arguments on their way into Playwright: proxies become the objects behind them (at any
   * depth: handles inside evaluate arguments, locators inside options), callbacks are wrapped,
   * and file paths are confined to pwd. Returns the list, or a promise of it when a path had
   * to be resolved on disk.
   */
  private prepareArgs(kind: string, prop: string, args: unknown[]): unknown[] | Promise<unknown[]> {
    let out = args.map((a) => this.unwrapDeep(a, 0));
    if (CALLBACK_METHODS.has(prop)) out = out.map((a) => this.wrapCallbackArg(a));
    if (kind === 'CDPSession' && prop === 'send' && typeof out[0] === 'string') {
      const method = out[0];
      return this.confineCdpParams(method, out[1] as Record<string, unknown> | undefined).then((params) => [method, params]);
    }
    return out;
  }

  /** A script value on its way into Playwright: proxies become the objects behind them. */
  unwrap(v: unknown): unknown {
    return this.unwrapDeep(v, 0);
  }

  private unwrapDeep(v: unknown, depth: number): unknown {
    if (!v || typeof v !== 'object') return v;
    const raw = this.raws.get(v);
    if (raw) return raw;
    if (depth > 4) return v;
    if (Array.isArray(v)) return v.some((x) => x && typeof x === 'object') ? v.map((x) => this.unwrapDeep(x, depth + 1)) : v;
    if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return v;
    let changed = false;
    const copy: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = this.unwrapDeep(x, depth + 1);
      if (y !== x) changed = true;
      copy[k] = y;
    }
    return changed ? copy : v;
  }

  private wrapCallbackArg(a: unknown): unknown {
    if (typeof a === 'function') return this.callback(a);
    // waitForEvent(event, { predicate }) and waitForRequest(url|predicate, ...)
    if (a && typeof a === 'object' && !Array.isArray(a) && typeof (a as { predicate?: unknown }).predicate === 'function' && Object.getPrototypeOf(a) === Object.prototype) {
      return { ...(a as object), predicate: this.callback((a as { predicate: Function }).predicate) };
    }
    return a;
  }

  /** The function Playwright calls instead of the script's: its arguments are proxied, and it
   * does nothing once the call has ended. The same script function always maps to the same
   * wrapper, so off(event, fn) finds it. */
  private callback(fn: Function): Function {
    let w = this.callbacks.get(fn);
    if (!w) {
      const self = this;
      w = function (this: unknown, ...args: unknown[]) {
        if (self.revoked) return undefined;
        // What the callback prints is the page's doing relayed, never the sentinel (output.ts).
        return pageCallbackScope.run(true, () => fn.apply(undefined, args.map((x) => self.wrap(x))));
      };
      this.callbacks.set(fn, w);
    }
    return w;
  }

  /**
   * The methods that read or write local files, done without giving Playwright the script's
   * path: returns how to make the call (undefined: an ordinary call). Writes fail fast on a
   * path outside pwd, then write the bytes Playwright returns through the confinement; reads
   * take the bytes from pwd and hand them over as content.
   */
  private fileCall(kind: string, prop: string, target: any, call: (a: unknown[]) => unknown): ((a: unknown[]) => Promise<unknown>) | undefined {
    const what = `${prop}()`;
    const optPath = (a: unknown[], i: number): unknown => {
      const o = a[i] as Record<string, unknown> | undefined;
      return o && typeof o === 'object' ? o.path : undefined;
    };
    const without = (a: unknown[], i: number, extra: Record<string, unknown> = {}) => {
      const { path: _path, ...rest } = a[i] as Record<string, unknown>;
      const copy = a.slice();
      copy[i] = { ...rest, ...extra };
      return copy;
    };
    switch (prop) {
      case 'screenshot':
      case 'pdf':
        return async (a) => {
          const p = optPath(a, 0);
          if (p === undefined) return call(a);
          // Playwright picks a screenshot's format from the path's extension; keep that.
          const type = prop === 'screenshot' && (a[0] as { type?: unknown }).type === undefined ? screenshotType(String(p)) : undefined;
          // The path is checked while the page is captured (a refused path wastes one capture).
          const capture = Promise.resolve(call(without(a, 0, type ? { type } : {}))) as Promise<Buffer>;
          capture.catch(() => undefined);
          await this.check(`${prop}({ path })`, p);
          const bytes = await capture;
          await this.write(`${prop}({ path })`, p, bytes);
          return bytes;
        };
      case 'storageState':
        return async (a) => {
          const p = optPath(a, 0);
          if (p === undefined) return call(a);
          await this.check('storageState({ path })', p);
          const state = await call(without(a, 0));
          await this.write('storageState({ path })', p, JSON.stringify(state, undefined, 2));
          return state;
        };
      case 'saveAs':
        return async (a) => {
          await this.check(what, a[0]);
          // The download (or video) goes to a private file first: Playwright writes by name.
          const temp = await this.tempPath(String(a[0]));
          await call([temp]);
          await this.write(what, a[0], createReadStream(temp));
          await rm(temp, { force: true });
        };
      case 'stop':
      case 'stopChunk':
        if (kind !== 'Tracing') return undefined;
        return async (a) => {
          const p = optPath(a, 0);
          if (p === undefined) return call(a);
          await this.check(`tracing.${prop}({ path })`, p);
          const temp = await this.tempPath(String(p));
          const out = await call([{ ...(a[0] as object), path: temp }]);
          await this.write(`tracing.${prop}({ path })`, p, createReadStream(temp));
          await rm(temp, { force: true });
          return out;
        };
      case 'setInputFiles':
      case 'setFiles': {
        const i = prop === 'setInputFiles' && (kind === 'Page' || kind === 'Frame') ? 1 : 0;
        return async (a) => {
          const f = a[i];
          const list = Array.isArray(f) ? f : [f];
          if (!list.some((x) => typeof x === 'string')) return call(a); // { name, mimeType, buffer } payloads read nothing local
          const payloads = await Promise.all(
            list.map(async (x) => (typeof x === 'string' ? { name: basename(x), mimeType: mimeOf(x), buffer: await this.read(what, x) } : x)),
          );
          const copy = a.slice();
          copy[i] = Array.isArray(f) ? payloads : payloads[0];
          return call(copy);
        };
      }
      case 'fulfill':
        return async (a) => {
          const p = optPath(a, 0);
          if (p === undefined) return call(a);
          const o = a[0] as { contentType?: string };
          return call(without(a, 0, { body: await this.read('fulfill({ path })', p), contentType: o.contentType ?? mimeOf(String(p)) }));
        };
      case 'addInitScript':
      case 'addScriptTag':
      case 'addStyleTag':
        return async (a) => {
          const p = optPath(a, 0);
          if (p === undefined) return call(a);
          return call(without(a, 0, { content: (await this.read(`${prop}({ path })`, p)).toString('utf8') }));
        };
      case 'routeFromHAR':
        return async (a) => {
          if (typeof a[0] !== 'string') return call(a);
          const copy = a.slice();
          copy[0] = await this.privateCopy(what, a[0]);
          return call(copy);
        };
      case 'content':
        if ((kind !== 'Page' && kind !== 'Frame') || !this.opts.redactedContent) return undefined;
        return () => this.opts.redactedContent!(target, kind);
      case 'ariaSnapshot':
        if ((kind !== 'Page' && kind !== 'Locator') || !this.opts.redactedAria) return undefined;
        return async (a) => this.opts.redactedAria!(target, kind, (await call(a)) as string);
      default:
        return undefined;
    }
  }

  /** Notes what a call changed on the shared context (to undo), and the pages it created. */
  private record(kind: string, target: any, prop: string, args: unknown[], out: unknown): unknown {
    if (kind === 'BrowserContext') {
      switch (prop) {
        case 'route':
        case 'routeWebSocket':
        case 'routeFromHAR':
          this.undo.set('routes', () => target.unrouteAll({ behavior: 'ignoreErrors' }));
          break;
        case 'setExtraHTTPHeaders':
          this.undo.set('headers', () => target.setExtraHTTPHeaders({}));
          break;
        case 'grantPermissions':
          this.undo.set('permissions', () => target.clearPermissions());
          break;
        case 'setGeolocation':
          this.undo.set('geolocation', () => target.setGeolocation(null));
          break;
        case 'setOffline':
          this.undo.set('offline', () => target.setOffline(false));
          break;
      }
    }
    if (kind === 'Tracing' && (prop === 'start' || prop === 'startChunk')) this.tracings.add(target);
    // Listeners are the wrapped callbacks (prepareArgs), the same for on() and off().
    const fn = args.find((a) => typeof a === 'function') as Listener['fn'] | undefined;
    if (fn && ADD_LISTENER.has(prop)) this.listeners.push({ emitter: target, event: args[0] as string, fn });
    if (fn && REMOVE_LISTENER.has(prop)) {
      const i = this.listeners.findIndex((l) => l.emitter === target && l.event === args[0] && l.fn === fn);
      if (i >= 0) this.listeners.splice(i, 1);
    }
    if (isThenable(out)) {
      return Promise.resolve(out).then((v) => {
        this.keepDisposable(v);
        return v;
      });
    }
    this.keepDisposable(out);
    return out;
  }

  private keepDisposable(v: unknown): void {
    if (v && typeof v === 'object' && kindOf(v) === 'Disposable') this.disposables.push(v as { dispose(): Promise<unknown> });
  }


  /** The call is over: every proxy, callback and wrapper refuses from now on. */
  revoke(): void {
    this.revoked = true;
  }

  /** Undoes what the call changed on the shared context. Never throws. */
  async cleanUp(): Promise<void> {
    this.revoke();
    const quiet = (p: unknown) => Promise.resolve(p).catch(() => undefined);
    for (const l of this.listeners.splice(0)) {
      try {
        l.emitter?.off(l.event, l.fn);
      } catch {
        /* the page is gone */
      }
    }
    await Promise.all([
      ...this.disposables.splice(0).map((d) => quiet(d.dispose())),
      ...[...this.undo.values()].map((u) => quiet(u())),
      ...[...this.tracings].map((t) => quiet(t.stop())),
    ]);
    this.undo.clear();
    this.tracings.clear();
    if (this.temp) await this.temp.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => undefined);
  }
}

/** A promise that never settles: what the script gets once its call has ended. */
const never = (): Promise<never> => new Promise<never>(() => undefined);

const requireCjs = createRequire(import.meta.url);
let mimeTypes: typeof import('mime-types') | undefined;
function mimeOf(p: string): string {
  mimeTypes ??= requireCjs('mime-types') as typeof import('mime-types');
  return mimeTypes.lookup(p) || 'application/octet-stream';
}

function screenshotType(p: string): 'png' | 'jpeg' {
  const ext = /\.([^./\\]+)$/.exec(p)?.[1]?.toLowerCase();
  if (ext === 'jpg' || ext === 'jpeg') return 'jpeg';
  if (ext === 'png') return 'png';
  throw new AgentError(`screenshot({ path }): cannot tell the image format from "${p}". Name the file .png or .jpg, or pass { type: "png" }.`);
}
