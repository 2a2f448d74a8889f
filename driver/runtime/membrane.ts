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
// - follow one policy per Playwright class (driver/runtime/playwright-policy.ts, data in
//   driver/catalog.json "playwright"): every public member passes, is confined (the handlers
//   in CONFINERS below, one per confined member) or is refused with what to use instead; a
//   member the tables do not list is refused;
// - hand Playwright its own objects back: a proxy going into Playwright (an argument, inside
//   options, arrays and evaluate arguments, `has`/`hasNot`, `and`/`or`, a `dragTo` target) is
//   replaced by the object behind it, and plain option objects are copied once (getters read a
//   single time), so what was checked is what Playwright gets;
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
import { types } from 'node:util';
import { createRequire } from 'node:module';
import { AgentError, MAX_TIMER_MS, isElementCovered, isElementFoundStuck, isElementHidden, isElementNotFound, sealScriptFacing, toAgentError } from '../errors.js';
import type { Confinement } from './confined-fs.js';
import { checkCdp, everyString, memberKey, plainData, policies, type PolicyTable } from './playwright-policy.js';
import { isFileUrl, plainUrl } from './url-policy.js';
import { defuseSentinel, pageCallbackScope } from './output.js';
import { cleanPdfInfo } from './pdf-info.js';
import { SENTINEL } from '../catalog.gen.js';
import { howFarItMatched, visibleOthers, whatCovers } from './locator-reach.js';
import type { Page } from 'playwright-core';
import { maskSecrets, withMask } from './secret-mask.js';

export interface MembraneOptions {
  /** Every file a script's API call reads or writes goes through this (pwd only). */
  files: Confinement;
  allowFileUrls: boolean;
  /** Page/Frame content() with secret field values cut (snapshot.ts redaction). */
  redactedContent?: (raw: object, kind: 'Page' | 'Frame') => Promise<string>;
  /** A Page's or Locator's ariaSnapshot() text with secret field values cut (snapshot.ts). */
  ariaRedactor?: (raw: object, kind: 'Page' | 'Locator') => Promise<(text: string) => string>;
  /** What cuts the secret field values of a target's page from an innerHTML()/innerText() text
   * (snapshot.ts): asked beside the read, so the page's secrets are collected in the same round
   * trip instead of after it. */
  htmlRedactor?: (raw: object, kind: 'Page' | 'Frame' | 'Locator' | 'ElementHandle') => Promise<(html: string) => string>;
  /** Page-specific members (`locator` with refs, `_sendToTarget`); see tabs.ts. */
  pageMember?: (raw: object, prop: string) => unknown;
  /** Learns the secret field values of the call's open tabs (output.ts cuts them from every
   * later line): raw CDP that dumps the DOM or the accessibility tree is a read like content(). */
  learnSecretFields?: () => Promise<void>;
  /** Locator methods guarded by a ref's staleness check; see tabs.ts. */
  beforeLocatorAction?: (raw: object, method: string) => Promise<void> | undefined;
  /** Runs, and is awaited, before a Locator action starts (a value about to be typed is
   * learned as a secret first: tabs.ts learnTyped). Never rejects. */
  beforeLocatorTyping?: (raw: object, method: string, args: readonly unknown[]) => Promise<void> | undefined;
  /** A function the script gave Playwright (an event listener, a route handler) threw or
   * rejected. Playwright calls them from its event loop, where a throw would be an uncaught
   * exception of the whole process (a session host's): it is caught and reported here instead
   * (the call then fails). */
  onListenerError?: (err: unknown) => void;
}

const BUILTIN_PROTOS = new Set<object | null>([
  null, Object.prototype, Array.prototype, Date.prototype, RegExp.prototype, Map.prototype, Set.prototype,
  ArrayBuffer.prototype, Uint8Array.prototype, Buffer.prototype, Error.prototype, URL.prototype,
]);

/** The toStringTag of a proxy: `Object.prototype.toString` reads `[object Playwright Response]`. */
export const PLAYWRIGHT_TAG = 'Playwright ';

/** Plain data (and Buffers) passes as it is; any other class instance coming out of Playwright
 * is a Playwright object and gets a proxy. */
function isPlaywrightObject(v: unknown): v is object {
  if (!v || (typeof v !== 'object' && typeof v !== 'function') || typeof v === 'function') return false;
  const proto = Object.getPrototypeOf(v);
  if (BUILTIN_PROTOS.has(proto)) return false;
  if (v instanceof Error || ArrayBuffer.isView(v) || v instanceof Promise) return false;
  return true;
}

/** An object literal of any realm: the script's `{ has: ... }` is made in the vm's realm, whose
 * Object.prototype is not this one's. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as object | null;
  if (proto === null || proto === Object.prototype) return true;
  return Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(v) === '[object Object]' && typeof (proto as { hasOwnProperty?: unknown }).hasOwnProperty === 'function';
}

/** Object.prototype of any realm (the end of an options object's prototype chain). */
function isObjectPrototype(o: object): boolean {
  return Object.getPrototypeOf(o) === null && Object.prototype.hasOwnProperty.call(o, 'isPrototypeOf');
}

/** Values Playwright takes as they are (bytes, patterns, dates, collections, errors, boxed
 * primitives, promises): not options objects. */
function isBuiltinValue(v: object): boolean {
  return (
    types.isArrayBufferView(v) || types.isAnyArrayBuffer(v) || types.isRegExp(v) || types.isDate(v) || types.isMap(v) || types.isSet(v) ||
    types.isNativeError(v) || types.isBoxedPrimitive(v) || types.isPromise(v) || typeof v === 'function'
  );
}

/** Whether an error's message quotes page markup (`<a href="…">Forgot</a>`). */
function quotesMarkup(err: unknown): boolean {
  const message = (err as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && /<[a-zA-Z][\w-]*[\s>]/.test(message);
}
/** The error of a failed call, with the script line the call was made on (`scriptLineOf`), from
 * the first frame of the script in the stack captured when the call began. An error that
 * already has a line (one rewritten twice) keeps the first. */
function atScriptLine(err: AgentError, site: CallSite): AgentError {
  if (scriptLines.has(err)) return err;
  const line = lineOfSite(site);
  if (line) scriptLines.set(err, line);
  return err;
}
/** Where the script made a call: frames captured when it began (Error.captureStackTrace),
 * formatted only when read. */
export type CallSite = { stack?: string };
/** The script's line in a call site, from its first frame of the script; undefined without one. */
export function lineOfSite(site: CallSite): number | undefined {
  const line = Number(/\bflow\.js:(\d+):\d+/.exec(site.stack ?? '')?.[1]);
  return Number.isInteger(line) && line > 0 ? line : undefined;
}
/** Kept beside the error, not on it: the script can catch it and change its own properties. */
const scriptLines = new WeakMap<object, number>();
/** The line of the script whose Playwright call failed with `err`; undefined for any other error. */
export function scriptLineOf(err: unknown): number | undefined {
  return typeof err === 'object' && err !== null ? scriptLines.get(err) : undefined;
}

function currentUrl(target: { url?: () => unknown }): string | undefined {
  try {
    const url = target.url?.();
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
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
/** Members that answer an image or a PDF: their bytes are passed as they are (not text). */
const IMAGE_MEMBERS = new Set(['screenshot', 'pdf']);
const ADD_LISTENER = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
const REMOVE_LISTENER = new Set(['off', 'removeListener']);

/** BrowserContext members that only read, or whose effect is the session's persistent state
 * (cookies), or that the membrane undoes itself. Any other context member marks the call
 * dirty: a host restarts its browser after it. */
const CONTEXT_SAFE = new Set([
  'pages', 'newPage', 'cookies', 'addCookies', 'clearCookies', 'storageState', 'request', 'tracing',
  'waitForEvent', 'newCDPSession', 'backgroundPages', 'serviceWorkers', 'setDefaultTimeout', 'setDefaultNavigationTimeout',
  // Not routeWebSocket: Playwright has no way to take a context's WebSocket route back
  // (unrouteAll leaves it), so a call that sets one restarts the browser after it.
  'route', 'routeFromHAR', 'unroute', 'unrouteAll', 'addInitScript', 'exposeBinding', 'exposeFunction',
  'setExtraHTTPHeaders', 'grantPermissions', 'clearPermissions', 'setGeolocation', 'setOffline',
  'on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'off', 'removeListener',
  'browser', 'close', 'clock', 'isClosed',
]);
/** Classes whose every effect stays in the session's browser after the call: using one marks
 * the call dirty. */
const DIRTYING_CLASSES = new Set(['Clock', 'Credentials']);

/** The proxy traps: every one a Proxy can have on an object target (apply and construct only
 * exist for function targets, and a proxy here never wraps a function). Exported for the test
 * that enumerates them against Reflect's list. */
export const PROXY_TRAPS = [
  'get', 'set', 'has', 'deleteProperty', 'defineProperty', 'getOwnPropertyDescriptor', 'ownKeys',
  'getPrototypeOf', 'setPrototypeOf', 'isExtensible', 'preventExtensions',
] as const;

type Listener = { emitter: any; event: string | symbol; fn: (...a: unknown[]) => unknown };
type Call = (args: unknown[]) => unknown;
/** How one confined member runs: gets the prepared arguments and the plain call. */
type Confiner = (m: Membrane, a: unknown[], call: Call, target: any) => unknown;

export class CallEnded extends AgentError {
  constructor() {
    super(`This call has ended: its tabs, context and files are closed. Keep the whole flow in one script, and await every step before printing ${SENTINEL}.`, 'CALL_ENDED');
  }
}
sealScriptFacing(CallEnded);

export class Membrane {
  private readonly proxies = new WeakMap<object, object>();
  private readonly raws = new WeakMap<object, object>();
  private readonly callbacks = new WeakMap<Function, Function>();
  private readonly listeners_ = new WeakMap<Function, Function>();
  private readonly listeners: Listener[] = [];
  private readonly disposables: Array<{ dispose(): Promise<unknown> }> = [];
  private readonly undo = new Map<string, () => Promise<unknown>>();
  private readonly tracings = new Set<any>();
  private readonly table: PolicyTable = policies();
  revoked = false;
  /** The script's own body has finished: what it left pending never settles into it any more,
   * even in the moments before the call is revoked (sandbox.ts sets it). */
  ended = false;
  /** The first error a script function threw when Playwright called it (a route handler, a
   * listener): the call fails with it when the script ends, instead of the host crashing. */
  callbackError: AgentError | undefined;
  /** The call changed the shared context in a way cleanUp cannot undo. */
  dirty = false;
  /** Requests the call sent through the context's request API (`fetch`, `context.request`)
   * that have not answered yet. One still in flight when the call ends could change the
   * session's cookies during the next call (a late Set-Cookie, a sign-out), so the call counts
   * as dirty and its browser, with the request, is restarted before the next call. */
  requestsInFlight = 0;

  /** The Playwright calls the script awaits now, by when they started: a call its deadline ended
   * says which one it was still waiting in (trial V5: "print progress lines" was all it said). */
  private readonly waiting = new Map<number, { describe: () => string; site: CallSite; since: number }>();
  private nextWait = 0;

  /** The longest-waiting Playwright call (or `sleep`) still pending, in words: `locator.click on
   * getByRole('button', { name: 'Save' }) (line 12, waiting 18.2 s)`; undefined when none is. */
  pendingCall(now = Date.now(), except?: number): string | undefined {
    const first = [...this.waiting.entries()].find(([id]) => id !== except)?.[1];
    if (!first) return undefined;
    const line = lineOfSite(first.site);
    return `${first.describe()} (${line ? `line ${line}, ` : ''}waiting ${Math.round((now - first.since) / 100) / 10} s)`;
  }

  /** Counts `out` among the calls in flight until it settles; its id, or undefined. */
  private countWaiting(kind: string, prop: string, target: unknown, out: unknown, site: CallSite): number | undefined {
    if (!isThenable(out) || isPlaywrightObject(out)) return undefined;
    // A locator names itself as written (locator('form').getByRole(...)), asked only when told.
    const describe = () => {
      let on = '';
      if (kind === 'Locator') {
        try {
          on = ` on ${String(target).slice(0, 200)}`;
        } catch {
          on = '';
        }
      }
      return `${kind[0].toLowerCase()}${kind.slice(1)}.${prop}${on}`;
    };
    return this.countPending(describe, out, site);
  }

  /** Counts a wait of the script's own (a `sleep`) among the calls in flight until it settles. */
  countPending(describe: () => string, out: unknown, site: CallSite): number {
    const id = this.nextWait++;
    this.waiting.set(id, { describe, site, since: Date.now() });
    const done = () => void this.waiting.delete(id);
    Promise.resolve(out).then(done, done);
    return id;
  }

  /** Counts `p` in requestsInFlight until it settles. */
  trackRequest<T>(p: Promise<T>): Promise<T> {
    this.requestsInFlight++;
    const done = () => void this.requestsInFlight--;
    p.then(done, done);
    return p;
  }

  constructor(private readonly opts: MembraneOptions) {}

  /** The script's view of `value`: proxies for Playwright objects (also inside arrays, Maps and
   * promises); data as it is. */
  wrap(value: unknown, rewrite: (err: unknown) => Error = toAgentError, image = false): any {
    if (isThenable(value) && !isPlaywrightObject(value)) {
      // Once the call has ended nothing settles into the script any more: what it chained on
      // a page call (a spin, a write, a held buffer) never runs and is released with it.
      return Promise.resolve(value).then(
        (v) => (this.revoked || this.ended ? never() : this.wrap(v, toAgentError, image)),
        (err) => {
          if (this.revoked || this.ended) return never();
          // An error that quotes the page's elements (a strict-mode violation lists each one it
          // matched, with its text, href and title) is a read: the call learns its tabs' secret
          // fields first, so a copy of one in what it quotes prints cut (pass 32, A32).
          if (this.opts.learnSecretFields && quotesMarkup(err)) {
            return this.opts.learnSecretFields().catch(() => undefined).then(() => {
              throw rewrite(err);
            });
          }
          throw rewrite(err);
        },
      );
    }
    // Data from the page carries the page's mark wherever it holds the sentinel (output.ts),
    // except an image's bytes, which are not text and must stay a valid image.
    if (!image && !isPlaywrightObject(value)) value = defuseSentinel(value);
    if (Array.isArray(value)) return value.some(isPlaywrightObject) ? value.map((v) => this.wrap(v)) : value;
    // JSHandle.getProperties() answers a Map of handles.
    if (value instanceof Map) return [...value.values()].some(isPlaywrightObject) ? new Map([...value].map(([k, v]) => [k, this.wrap(v)])) : value;
    // exposeBinding's source ({ context, page, frame }) and other records holding objects.
    if (isPlainObject(value) && Object.values(value).some((v) => isPlaywrightObject(v) || Array.isArray(v))) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.wrap(v)]));
    }
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

  /**
   * The script's view of one Playwright object. The proxy's target is an empty stand-in, never
   * the Playwright object: whatever trap a script uses (descriptors, key listings, prototypes),
   * the language can only ever answer with what these traps give, and they give the table's
   * members, wrapped. The real object stays in this closure.
   */
  private makeProxy(raw: object): object {
    const cls = this.table.classOf(raw);
    const kind = cls ?? 'Object';
    const methods = new Map<string | symbol, Function>();
    const self = this;
    const refuse = (): never => {
      throw new AgentError(`Playwright objects are read-only in a flow script (a ${kind} cannot be changed): keep your own state in a variable.`);
    };
    /** The script-visible value of a member, or undefined for one the script may not see. */
    const member = (prop: string | symbol): unknown => {
      self.checkLive();
      // What `console.log(resp)` and a template string show: the class, not `{}` or
      // `[object Object]` (driver/runtime/sandbox.ts formatArg; pass 39, A39).
      if (prop === Symbol.toStringTag) return `${PLAYWRIGHT_TAG}${kind}`;
      if (typeof prop === 'string') {
        if (kind === 'Page' && self.opts.pageMember) {
          const extra = self.opts.pageMember(raw, prop);
          if (extra !== undefined) return extra;
        }
        // Playwright's internals (channels, connections, parents) are not part of the API.
        // toJSON: JSON.stringify of a Playwright object sees the (empty) data members instead.
        if (prop.startsWith('_') || prop === 'constructor' || prop === 'toJSON') return undefined;
      }
      const key = memberKey(prop);
      const listed = key !== undefined && self.table.has(cls, key);
      const value = Reflect.get(raw, prop, raw);
      if (!listed) {
        // Object's own methods (toString for a template string) act on the proxy, harmlessly.
        if (typeof prop === 'string' && prop in Object.prototype && value === (Object.prototype as Record<string, unknown>)[prop]) return value;
        if (typeof value !== 'function' || typeof prop !== 'string') return undefined;
        // Runtime members the type declarations do not document (EventEmitter's listeners, emit,
        // ...): not part of the API a script was written against.
        return () => {
          throw new AgentError(`${kind}.${prop}() is not part of Playwright's public API for ${cls ? `the ${cls} class` : 'this object'}, so a flow script cannot call it (the policy tables in driver/catalog.json "playwright" list what it can). Use the documented members of ${cls ?? 'the object'}.`, 'NOT_IN_POLICY');
        };
      }
      if (typeof value === 'function') {
        let fn = methods.get(prop);
        if (!fn) {
          fn = self.method(kind, raw, key!, value);
          methods.set(prop, fn);
        }
        return fn;
      }
      return self.wrap(value);
    };
    /** The data members (keyboard, mouse, request, ...) the table lists and the object has. */
    const ownKeys = (): string[] =>
      Object.keys(raw).filter((k) => !k.startsWith('_') && self.table.has(cls, k) && typeof (raw as Record<string, unknown>)[k] !== 'function');
    const handler: Required<Pick<ProxyHandler<object>, (typeof PROXY_TRAPS)[number]>> = {
      get: (_t, prop) => member(prop),
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
      preventExtensions: refuse,
      // The stand-in stays extensible (so the descriptors below may be reported), and says so.
      isExtensible: () => true,
      // Neither Playwright's prototypes nor its objects' own fields are the script's to reach.
      getPrototypeOf: () => null,
      has: (_t, prop) => {
        if (typeof prop === 'string' && (prop.startsWith('_') || prop === 'constructor')) return kind === 'Page' && prop === '_sendToTarget';
        const key = memberKey(prop);
        return key !== undefined && self.table.has(cls, key) && Reflect.has(raw, prop);
      },
      ownKeys: () => ownKeys(),
      getOwnPropertyDescriptor: (_t, prop) => {
        if (typeof prop !== 'string' || !ownKeys().includes(prop)) return undefined;
        return { value: member(prop), writable: false, enumerable: true, configurable: true };
      },
    };
    return new Proxy(Object.create(null) as object, handler);
  }

  /** One wrapped method: applies the member's policy, checks and rewrites arguments, records
   * what must be undone, and wraps the result. */
  private method(kind: string, target: any, prop: string, value: Function): Function {
    const self = this;
    const policy = this.table.policy(kind, prop);
    const confiner = policy?.kind === 'confine' ? CONFINERS[`${kind}.${prop}`] : undefined;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      // Where the script made the call: a failed call's error names its line, as a TypeError's
      // does (trial V6). The frames are captured here and formatted only if the call fails.
      const site: CallSite = {};
      Error.captureStackTrace(site, wrapped);
      self.checkLive();
      if (policy?.kind === 'refuse') throw new AgentError(policy.message, 'REFUSED');
      if (policy?.kind === 'confine' && !confiner) throw new AgentError(`${kind}.${prop} is confined but has no handler in driver/runtime/membrane.ts: this is a bug in gstack; report it.`);
      if ((kind === 'BrowserContext' && !CONTEXT_SAFE.has(prop)) || DIRTYING_CLASSES.has(kind)) self.dirty = true;
      let waitId: number | undefined;
      const call: Call = (a) => {
        self.checkLive();
        const out = self.record(kind, target, prop, a, value.apply(target, a));
        waitId = self.countWaiting(kind, prop, target, out, site);
        return (kind === 'APIRequestContext' || (kind === 'Route' && prop === 'fetch')) && out instanceof Promise ? self.trackRequest(out) : out;
      };
      // A navigation wait that timed out says where the page is (page.url() asks the page nothing).
      const urlNow = () => ((kind === 'Page' || kind === 'Frame') && (prop === 'waitForURL' || prop === 'waitForNavigation') ? currentUrl(target) : undefined);
      // A wait for an event, a request or a URL that timed out while another call of the
      // script still waits (the click meant to cause it, which found no element): that call may
      // be why (trial V7: the error blamed the file chooser).
      const alsoWaiting = () => (/^waitFor(?:Event|Request|Response|URL|Navigation)$/.test(prop) ? self.pendingCall(Date.now(), waitId) : undefined);
      const rewrite = (err: unknown) => atScriptLine(toAgentError(err, { call: `${kind}.${prop}`, url: urlNow(), alsoWaiting: alsoWaiting() }), site);
      // A locator that never matched says which step of its chain stopped matching.
      const explained = (out: unknown) =>
        kind !== 'Locator' || !isThenable(out) || isPlaywrightObject(out)
          ? out
          : Promise.resolve(out).catch(async (err: unknown) => {
              if (self.revoked || self.ended) throw err;
              if (isElementNotFound(err)) throw atScriptLine(toAgentError(err, { call: `${kind}.${prop}`, reach: await howFarItMatched(target) }), site);
              // Found but hidden: which of its matches are visible, if any (trial V9).
              if (isElementHidden(err)) throw atScriptLine(toAgentError(err, { call: `${kind}.${prop}`, reach: await visibleOthers(target) }), site);
              // Covered by another element: the part of the page it is in, by role (trial V19).
              if (isElementCovered(err) || isElementFoundStuck(err)) throw atScriptLine(toAgentError(err, { call: `${kind}.${prop}`, reach: await whatCovers(target) }), site);
              throw err;
            });
      try {
        const before = kind === 'Locator' ? self.opts.beforeLocatorAction?.(target, prop) : undefined;
        const gate = kind === 'Locator' ? self.opts.beforeLocatorTyping?.(target, prop, args) : undefined;
        const prepared = self.prepareArgs(`${kind}.${prop}`, prop, args, policy?.kind === 'confine');
        const image = IMAGE_MEMBERS.has(prop);
        if (!before && !confiner && !gate) return self.wrap(explained(call(prepared)), rewrite, image);
        const act = () => (confiner ? confiner(self, prepared, call, target) : call(prepared));
        if (!before) return self.wrap(explained(gate ? gate.then(act) : act()), rewrite, image);
        // A ref's staleness check runs beside the action, not before it (one round trip less
        // per action): a live ref answers with the action; a stale one fails at once, and its
        // action, which could only wait for an element that is gone, is abandoned.
        const action = (gate ?? Promise.resolve()).then(act);
        action.catch(() => undefined);
        return self.wrap(explained(before.then(() => action)), rewrite, image);
      } catch (err) {
        throw rewrite(err);
      }
    };
    return wrapped;
  }

  /** The origins of the URLs the script itself gave (openTab, goto, fetch, a route's URL):
   * the ones a tab's evidence may name when its fields could not be read (tabs.ts
   * withheldUnread), since any other origin is the page's choice and its host can spell a
   * secret (`http://<password>.localhost/`; pass 26, A26). */
  readonly scriptOrigins = new Set<string>();

  /** `file:` URLs (also behind `view-source:`) are refused unless the call allows them. */
  urlRefusal(url: unknown): Error | undefined {
    // Only what reads as an absolute URL (every string of a raw CDP call comes here).
    if (typeof url === 'string' && /^\s*[a-z][a-z0-9+.-]*:/i.test(url)) {
      try {
        const origin = new URL(url).origin;
        if (origin !== 'null') this.scriptOrigins.add(origin);
      } catch {
        // Not a URL: no origin to name.
      }
    }
    if (this.opts.allowFileUrls || !isFileUrl(url)) return undefined;
    return new AgentError(`Refused to open ${JSON.stringify(String(plainUrl(url))).slice(0, 120)}: file: URLs are off for flow scripts (they would hand local files to the page). Serve the file over http (e.g. \`python3 -m http.server\` in its folder), or run the call with --allow-file-urls.`, 'FILE_URL');
  }

  /** Throws the refusal of a `file:` URL, if it is one. */
  checkUrl(url: unknown): void {
    const refusal = this.urlRefusal(url);
    if (refusal) throw refusal;
  }

  /**
   * Raw CDP (`_sendToTarget`, CDPSession.send), made safe to send: the message becomes plain
   * data, its method must be on the catalog's allow-list, a `file:` URL anywhere in it is
   * refused, the params that name local files get private copies of files under pwd, and a
   * browser-wide method marks the call dirty.
   */
  async checkedCdp(method: unknown, params: unknown): Promise<{ method: string; params: Record<string, unknown> | undefined }> {
    const msg = checkCdp(method, params, this.table);
    if (!this.opts.allowFileUrls) everyString(msg.params, (s) => this.checkUrl(s));
    // `DOM.getOuterHTML`, `DOMSnapshot.captureSnapshot`, `Accessibility.getFullAXTree` answer
    // with the fields' values, as content() would: the call learns its secret fields first, so
    // whatever of them the script prints is cut (red-team pass 25, A25).
    if (/^(?:DOM|DOMSnapshot|Accessibility)\./.test(msg.method)) await this.opts.learnSecretFields?.();
    if (msg.browserWide) this.dirty = true;
    for (const p of msg.paths) {
      (p.holder as Record<string | number, unknown>)[p.key] = await this.privateCopy(`${msg.method} ${p.param}`, p.value);
    }
    return { method: msg.method, params: msg.params };
  }

  /** What a confinement refusal says, named after the API the script called, with the name as
   * the confined fs showed it, always a JSON string (controls replaced; a name refused for a
   * secret's value, relative to pwd: the runner's own folder names there, such as a session
   * key's, would print cut too). */
  private refused(what: string, p: unknown, err: unknown): Error {
    if (!(err instanceof AgentError)) return toAgentError(err);
    const m = /^fs refused ("(?:[^"\\]|\\.)*"): /.exec(err.message);
    const shown = m ? m[1] : JSON.stringify(String(p));
    return new AgentError(`${what} refused ${shown}: ${m ? err.message.slice(m[0].length) : err.message}`, 'FS_CONFINED');
  }

  async read(what: string, p: unknown): Promise<Buffer> {
    try {
      return await this.opts.files.readFile(p);
    } catch (err) {
      throw this.refused(what, p, err);
    }
  }

  async write(what: string, p: unknown, data: Buffer | string | AsyncIterable<Uint8Array | string>): Promise<void> {
    try {
      await this.opts.files.writeFile(p, data);
    } catch (err) {
      throw this.refused(what, p, err);
    }
  }

  /** Fails fast, before slow work (a screenshot), when the path cannot be under pwd. */
  async check(what: string, p: unknown): Promise<void> {
    try {
      await this.opts.files.check(p);
    } catch (err) {
      throw this.refused(what, p, err);
    }
  }

  private temp: Promise<string> | undefined;
  /** A private (0700) directory of this call for files Playwright or the browser must have by
   * path; removed at the end of the call. */
  tempPath(name: string): Promise<string> {
    this.temp ??= mkdtemp(join(tmpdir(), 'gstack-call-'));
    // A folder per file, so the file keeps its own name (an upload shows it to the page).
    return this.temp.then(async (dir) => join(await mkdtemp(join(dir, 'f-')), basename(name) || 'file'));
  }

  /** A private copy of a file under pwd, for an API that takes a path. */
  async privateCopy(what: string, p: unknown): Promise<string> {
    const bytes = await this.read(what, p);
    const copy = await this.tempPath(String(p));
    await writeFile(copy, bytes, { mode: 0o600 });
    return copy;
  }

  /**
   * Arguments on their way into Playwright: proxies become the objects behind them (at any
   * depth: handles inside evaluate arguments, locators inside options), plain objects are
   * copied, and callbacks are wrapped.
   */
  private prepareArgs(where: string, prop: string, args: unknown[], confined = false): unknown[] {
    let out = args.map((a) => this.unwrapDeep(confined ? this.flattenOptions(a, new Set()) : a, new Set()));
    if (CALLBACK_METHODS.has(prop)) out = out.map((a) => this.wrapCallbackArg(a, where));
    checkTimeouts(where, prop, out);
    return out;
  }

  /**
   * For a member that touches files (a `confine` policy): an options object whose path, files
   * or `sources` a prototype supplies (a class with a `path` getter, `Object.create({ path })`)
   * is read whole into a plain object, every property Playwright could read, own or inherited,
   * each read once. The confiner then checks exactly what Playwright gets: checked alone, the
   * own properties of such an object hid an inherited path Playwright still used.
   */
  private flattenOptions(v: unknown, seen: Set<object>, depth = 0): unknown {
    if (!v || typeof v !== 'object' || this.raws.has(v) || seen.has(v) || depth > 16 || isBuiltinValue(v)) return v;
    seen.add(v);
    if (Array.isArray(v)) return Array.from(v as unknown[], (x) => this.flattenOptions(x, seen, depth + 1));
    const flat: Record<string, unknown> = {};
    if (isPlainObject(v)) {
      // Its own properties are what Playwright reads; a value in it may be such an object.
      for (const [k, x] of Object.entries(v)) flat[k] = this.flattenOptions(x, seen, depth + 1);
      return flat;
    }
    // Only an object whose prototypes give it data (a value or a getter, not just methods such
    // as toJSON or toString, which the URL and CDP coercions read) is read whole.
    const inherits = (o: object): boolean =>
      Object.getOwnPropertyNames(o).some((k) => {
        const d = Object.getOwnPropertyDescriptor(o, k)!;
        return k !== 'constructor' && (d.get !== undefined || typeof d.value !== 'function');
      });
    let gives = false;
    for (let o = Object.getPrototypeOf(v) as object | null; o && !isObjectPrototype(o); o = Object.getPrototypeOf(o) as object | null) gives ||= inherits(o);
    if (!gives) return v;
    for (let o: object | null = v; o && !isObjectPrototype(o); o = Object.getPrototypeOf(o) as object | null) {
      for (const k of Object.getOwnPropertyNames(o)) {
        if (k === 'constructor' || k === '__proto__' || Object.prototype.hasOwnProperty.call(flat, k)) continue;
        flat[k] = this.flattenOptions((v as Record<string, unknown>)[k], seen, depth + 1);
      }
    }
    return flat;
  }

  /** A script value on its way into Playwright: proxies become the objects behind them. */
  unwrap(v: unknown): unknown {
    return this.unwrapDeep(v, new Set());
  }

  /** Proxies replaced by their objects, arrays and plain objects (of either realm) copied, each
   * getter read once; anything else (Buffers, RegExps, functions) as it is. */
  private unwrapDeep(v: unknown, seen: Set<object>): unknown {
    if (!v || typeof v !== 'object') return v;
    const raw = this.raws.get(v);
    if (raw) return raw;
    if (seen.has(v) || seen.size > 10_000) return v;
    if (Array.isArray(v)) {
      seen.add(v);
      // Array.from, not map: map would make the copy in the script's realm (species).
      const copy = Array.from(v as unknown[], (x) => this.unwrapDeep(x, seen));
      seen.delete(v);
      return copy;
    }
    if (!isPlainObject(v)) return v;
    seen.add(v);
    const copy: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) copy[k] = this.unwrapDeep(x, seen);
    seen.delete(v);
    return copy;
  }

  private wrapCallbackArg(a: unknown, where: string): unknown {
    if (typeof a === 'function') return this.callback(a, where);
    // waitForEvent(event, { predicate }): functions in options.
    if (isPlainObject(a)) {
      let copy: Record<string, unknown> | undefined;
      for (const k of ['predicate', 'handler']) {
        if (typeof a[k] === 'function') (copy ??= { ...a })[k] = this.callback(a[k] as Function, where);
      }
      return copy ?? a;
    }
    return a;
  }

  /** The function Playwright calls instead of the script's: its arguments are proxied, and it
   * does nothing once the call has ended. The same script function always maps to the same
   * wrapper, so off(event, fn) finds it. What it returns goes back into Playwright unwrapped.
   * What it throws is kept for the end of the call (callbackError): thrown into Playwright's
   * event dispatch, it would end the process. */
  private callback(fn: Function, where: string): Function {
    let w = this.callbacks.get(fn);
    if (!w) {
      const self = this;
      const failed = (err: unknown) => {
        self.callbackError ??= new AgentError(`The function the script passed to ${where} threw: ${toAgentError(err).message}`);
        // The call fails now, as Node would end a program (the sandbox's onListenerError).
        self.opts.onListenerError?.(err);
        return undefined;
      };
      w = function (this: unknown, ...args: unknown[]) {
        if (self.revoked) return undefined;
        try {
          // What the callback prints is the page's doing relayed, never the sentinel (output.ts).
          const out = pageCallbackScope.run(true, () => fn.apply(undefined, args.map((x) => self.wrap(x))));
          return isThenable(out) ? Promise.resolve(out).then((v) => self.unwrap(v), failed) : self.unwrap(out);
        } catch (err) {
          return failed(err);
        }
      };
      this.callbacks.set(fn, w);
    }
    return w;
  }

  /** Notes what a call changed on the shared context (to undo), and the pages it created. */
  private record(kind: string, target: any, prop: string, args: unknown[], out: unknown): unknown {
    if (kind === 'BrowserContext') {
      switch (prop) {
        case 'route':
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
    if (v && typeof v === 'object' && isPlaywrightObject(v) && this.table.classOf(v) === 'Disposable') this.disposables.push(v as { dispose(): Promise<unknown> });
  }

  /** The call is over: every proxy, callback and wrapper refuses from now on. */
  revoke(): void {
    this.revoked = true;
  }

  /** The call left init scripts or bindings (undone by cleanUp): until then a new tab would
   * run them. */
  get hasDisposables(): boolean {
    return this.disposables.length > 0;
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
      // Once more after a moment when it fails: a page still closing makes Playwright refuse.
      ...[...this.undo.values()].map((u) => quiet(u().catch(() => new Promise((r) => setTimeout(r, 200)).then(u)))),
      ...[...this.tracings].map((t) => quiet(t.stop())),
    ]);
    this.undo.clear();
    this.tracings.clear();
    if (this.temp) await this.temp.then((dir) => rm(dir, { recursive: true, force: true })).catch(() => undefined);
  }

  /** Page/Frame content() with secret values cut, when the call was given the redactor. */
  redacted(target: object, kind: 'Page' | 'Frame'): Promise<string> | undefined {
    return this.opts.redactedContent?.(target, kind);
  }

  /** A text read (`read`) with the secret field values of its page cut (tabs.ts). The page's
   * secrets are collected while the read runs, not after it: the two evaluations share one wait
   * instead of adding a round trip to every innerText(), textContent() and innerHTML(). */
  async readRedacted<T>(target: object, kind: 'Page' | 'Frame' | 'Locator' | 'ElementHandle', read: () => Promise<T> | T, cut: (value: T, redact: (html: string) => string) => T): Promise<T> {
    if (!this.opts.htmlRedactor) return read();
    const redactor = this.opts.htmlRedactor(target, kind);
    redactor.catch(() => undefined); // a failed read's own error wins
    const value = await read();
    return cut(value, await redactor);
  }

  /** An ariaSnapshot() text with the secret field values of its page cut (tabs.ts), collected
   * beside the read as readRedacted does. */
  async redactedAria(target: object, kind: 'Page' | 'Locator', read: () => Promise<string>): Promise<string> {
    if (!this.opts.ariaRedactor) return read();
    const redactor = this.opts.ariaRedactor(target, kind);
    redactor.catch(() => undefined);
    const text = await read();
    return (await redactor)(text);
  }
}

// ---- The confined members: one handler per `confine` entry of the catalog's tables ---------

/** The `path` option of argument `i`, or undefined. */
const optPath = (a: unknown[], i: number): unknown => (isPlainObject(a[i]) ? (a[i] as Record<string, unknown>).path : undefined);

/** Argument list with `path` taken out of argument `i` (and `extra` merged in). */
function without(a: unknown[], i: number, extra: Record<string, unknown> = {}): unknown[] {
  const { path: _path, ...rest } = a[i] as Record<string, unknown>;
  const copy = a.slice();
  copy[i] = { ...rest, ...extra };
  return copy;
}

/** `screenshot("shot.png")`: Playwright takes options only, returns the image and writes no
 * file, so a script that then reads or copies `shot.png` finds nothing (pass 42, C42). */
function refuseBarePath(prop: 'screenshot' | 'pdf', a: unknown[]): void {
  if (typeof a[0] !== 'string') return;
  throw new AgentError(
    `${prop}(${JSON.stringify(a[0].slice(0, 80))}) takes an options object, not a path: Playwright would return the bytes and write no file. Write it with ${prop}({ path: path.join(pwd, ${JSON.stringify(basename(a[0]) || `out.${prop === 'pdf' ? 'pdf' : 'png'}`)}) }).`,
    'REFUSED',
  );
}

/** screenshot({ path }): the capture is returned by Playwright and written through the
 * confinement; the path is checked while the page is captured (a refused path wastes one). */
const capture = (prop: 'screenshot'): Confiner => async (m, a, call) => {
  refuseBarePath(prop, a);
  const p = optPath(a, 0);
  if (p === undefined) return call(a);
  // Playwright picks a screenshot's format from the path's extension; keep that.
  const type = prop === 'screenshot' && (a[0] as { type?: unknown }).type === undefined ? screenshotType(String(p)) : undefined;
  const shot = Promise.resolve(call(without(a, 0, type ? { type } : {}))) as Promise<Buffer>;
  shot.catch(() => undefined);
  await m.check(`${prop}({ path })`, p);
  const bytes = await shot;
  await m.write(`${prop}({ path })`, p, bytes);
  return bytes;
};

/** An element's screenshot, with what on its page holds a secret the call has seen masked
 * (driver/runtime/secret-mask.ts; a page's own screenshot masks in Tabs, where the runner's
 * captures take it too). */
const captureElement: Confiner = async (m, a, call, target) => {
  refuseBarePath('screenshot', a);
  const page = (typeof target.page === 'function' ? target.page() : (await target.ownerFrame())?.page()) as Page | undefined;
  const masked = page ? await maskSecrets(page) : undefined;
  if (!masked) return capture('screenshot')(m, a, call, target);
  try {
    return await capture('screenshot')(m, [withMask(a[0], masked.locator), ...a.slice(1)], call, target);
  } finally {
    await masked.unmark();
  }
};

/** pdf(): the printed PDF's Title (Chromium copies the page's `document.title` there) and its
 * other text fields pass the terminal filter before the script or a file gets it; a `path` is
 * written through the confinement, checked while the page prints. */
const printPdf: Confiner = async (m, a, call) => {
  refuseBarePath('pdf', a);
  const p = optPath(a, 0);
  const printed = Promise.resolve(call(p === undefined ? a : without(a, 0))) as Promise<Buffer>;
  printed.catch(() => undefined);
  if (p !== undefined) await m.check('pdf({ path })', p);
  const bytes = await cleanPdfInfo(await printed);
  if (p !== undefined) await m.write('pdf({ path })', p, bytes);
  return bytes;
};

/** storageState({ path }): the state is written through the confinement. */
const storageState: Confiner = async (m, a, call) => {
  const p = optPath(a, 0);
  if (p === undefined) return call(a);
  await m.check('storageState({ path })', p);
  const state = await call(without(a, 0));
  await m.write('storageState({ path })', p, JSON.stringify(state, undefined, 2));
  return state;
};

/** saveAs(path): Playwright writes to a private file first, copied under pwd. */
const saveAs: Confiner = async (m, a, call) => {
  await m.check('saveAs()', a[0]);
  const temp = await m.tempPath(String(a[0]));
  await call([temp]);
  await m.write('saveAs()', a[0], createReadStream(temp));
  await rm(temp, { force: true });
};

/** Files to upload: paths are read from pwd and handed over as payloads. */
const uploads = (i: number, what: string): Confiner => async (m, a, call) => {
  const f = a[i];
  const list = Array.isArray(f) ? f : [f];
  if (list.some(isPlainObject) && list.some((x) => !isPlainObject(x))) {
    // Playwright's own rule, kept although the paths become payloads here.
    throw new AgentError(`${what}: file paths cannot be mixed with buffers (as in Playwright). Pass only paths under pwd, or only { name, mimeType, buffer } payloads.`);
  }
  if (!list.some((x) => typeof x === 'string' || (x !== null && typeof x === 'object' && !isPlainObject(x)))) return call(a); // { name, mimeType, buffer } payloads read nothing local
  const payloads = await Promise.all(
    list.map(async (x) => (isPlainObject(x) ? x : { name: basename(String(x)), mimeType: mimeOf(String(x)), buffer: await m.read(what, x) })),
  );
  const copy = a.slice();
  copy[i] = Array.isArray(f) ? payloads : payloads[0];
  return call(copy);
};

/** drop({ files }): the files of the payload as uploads() takes them (paths read from pwd). */
const dropFiles: Confiner = (m, a, call, target) => {
  const payload = a[0];
  if (!isPlainObject(payload) || payload.files === undefined) return call(a);
  return uploads(0, 'drop({ files })')(m, [payload.files], ([files]) => call([{ ...payload, files }, ...a.slice(1)]), target);
};

/** `{ path }` of a script or style: its text is read from pwd and handed over as content. */
const contentFromPath = (prop: string): Confiner => async (m, a, call) => {
  const p = optPath(a, 0);
  // addInitScript(path-less forms): a function, a string of code, { content }.
  if (p === undefined) return call(a);
  return call(without(a, 0, { content: (await m.read(`${prop}({ path })`, p)).toString('utf8') }));
};

const routeFromHAR: Confiner = async (m, a, call) => {
  if ((a[1] as { update?: unknown } | undefined)?.update) {
    throw new AgentError('routeFromHAR({ update: true }) is not available in a flow script (it would write the HAR outside the call): replay a HAR you saved in pwd, without update.');
  }
  if (a[0] instanceof URL || typeof a[0] !== 'string') throw new AgentError('routeFromHAR(har): har must be the path of a HAR file under pwd, e.g. path.join(pwd, "site.har").');
  const copy = a.slice();
  copy[0] = await m.privateCopy('routeFromHAR()', a[0]);
  return call(copy);
};

/** A URL argument (or `{ url }` option) that must not be a file: URL. It is checked as what
 * will be sent (url-policy.ts): the coerced value replaces the script's, so a String object or a
 * toJSON value cannot say one thing to the check and another to the browser. */
const urlAt = (where: 'arg' | 'option'): Confiner => (m, a, call) => {
  const args = a.slice();
  if (where === 'arg') args[0] = plainUrl(args[0]);
  else if (isPlainObject(args[0]) && 'url' in args[0]) args[0] = { ...args[0], url: plainUrl(args[0].url) };
  m.checkUrl(where === 'arg' ? args[0] : isPlainObject(args[0]) ? args[0].url : undefined);
  return call(args);
};

/** Trace names become file names in Playwright's traces folder: a plain name only. */
const traceName: Confiner = (_m, a, call) => {
  const name = isPlainObject(a[0]) ? a[0].name : undefined;
  // `sources` copies every file on the call's stack into the trace: files outside pwd (the
  // session host's, and whatever a `//# sourceURL` names).
  if (isPlainObject(a[0]) && a[0].sources) {
    throw new AgentError('tracing.start({ sources: true }) refused: it copies the source files on the stack into the trace, and those live outside pwd. Record without sources: tracing.start({ screenshots: true, snapshots: true }).', 'FS_CONFINED');
  }
  if (name !== undefined && (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/.test(name) || name.includes('..'))) {
    throw new AgentError(`tracing.start({ name }) refused ${JSON.stringify(typeof name === 'string' ? name.slice(0, 80) : typeof name)}: the name must be a plain file name (letters, digits, ".", "_", "-"; no folders). Write the trace under pwd with tracing.stop({ path: path.join(pwd, "trace.zip") }).`, 'FS_CONFINED');
  }
  return call(a);
};

/** tracing.stop({ path }): Playwright writes a private file, copied under pwd. */
const traceStop = (prop: string): Confiner => async (m, a, call) => {
  const p = optPath(a, 0);
  if (p === undefined) return call(a);
  await m.check(`tracing.${prop}({ path })`, p);
  const temp = await m.tempPath(String(p));
  const out = await call([{ ...(a[0] as object), path: temp }]);
  await m.write(`tracing.${prop}({ path })`, p, createReadStream(temp));
  await rm(temp, { force: true });
  return out;
};

/** setStorageState(path | state): a path is read from pwd and parsed here, so neither another
 * project's file nor the bytes of a file that is not a storage state reach anyone. */
const setStorageState: Confiner = async (m, a, call) => {
  let state = a[0];
  if (typeof state === 'string' || Object.prototype.toString.call(state) === '[object String]') {
    const p = String(state);
    const bytes = await m.read('setStorageState()', p);
    try {
      state = JSON.parse(bytes.toString('utf8'));
    } catch {
      state = undefined;
    }
    if (!isPlainObject(state) || !Array.isArray(state.cookies)) {
      throw new AgentError(`setStorageState() refused "${p}": it is not a Playwright storage-state JSON file ({ cookies, origins }). Save one with context.storageState({ path: path.join(pwd, "state.json") }).`, 'FS_CONFINED');
    }
  } else if (!isPlainObject(state) || !Array.isArray(state.cookies)) {
    // `{ path }` (storageState's own option, written from memory) is no state: Playwright would
    // set an empty one and drop the session's cookies without a word (pass 36, C36).
    throw new AgentError('setStorageState() takes a path (a string) or a state object { cookies, origins }, not { path }: give setStorageState(path.join(pwd, "state.json")).');
  }
  return call([plainData(state, 'setStorageState(state)'), ...a.slice(1)]);
};

const content = (kind: 'Page' | 'Frame'): Confiner => (m, a, call, target) => m.redacted(target, kind) ?? call(a);

/** innerHTML() holds prefilled `value` attributes: secret ones are cut as content() cuts them. */
const innerHTML = (kind: 'Page' | 'Frame' | 'Locator' | 'ElementHandle'): Confiner => (m, a, call, target) =>
  m.readRedacted(target, kind, async () => String(await call(a)), (html, redact) => redact(html));

/** innerText()/textContent() (and their all* forms) hold a textarea's or a rich-text box's
 * text: secret values are cut as snapshot() cuts them (redactHtml's text rule). */
const innerText = (kind: 'Page' | 'Frame' | 'Locator' | 'ElementHandle'): Confiner => (m, a, call, target) =>
  m.readRedacted(target, kind, () => call(a) as unknown, (out, redact) => {
    if (Array.isArray(out)) return out.map((t) => (typeof t === 'string' ? redact(t) : t));
    return typeof out === 'string' ? redact(out) : out;
  });

/** ariaSnapshot() prints field values: secret ones are cut as snapshot() cuts them. */
const ariaSnapshot = (kind: 'Page' | 'Locator'): Confiner => (m, a, call, target) => m.redactedAria(target, kind, async () => String(await call(a)));

const cdpSend: Confiner = async (m, a, call) => {
  const msg = await m.checkedCdp(a[0], a[1]);
  return call([msg.method, msg.params]);
};

/** Every confined member's handler, by `Class.member`: exactly the `confine` entries of the
 * catalog's tables (test/playwright-policy.test.ts holds both directions). */
export const CONFINERS: Record<string, Confiner> = {
  'Page.goto': urlAt('arg'),
  'Frame.goto': urlAt('arg'),
  'Page.screenshot': capture('screenshot'),
  'Locator.screenshot': captureElement,
  'ElementHandle.screenshot': captureElement,
  'Page.pdf': printPdf,
  'Page.setInputFiles': uploads(1, 'setInputFiles()'),
  'Frame.setInputFiles': uploads(1, 'setInputFiles()'),
  'Locator.setInputFiles': uploads(0, 'setInputFiles()'),
  'ElementHandle.setInputFiles': uploads(0, 'setInputFiles()'),
  'Locator.drop': dropFiles,
  'FileChooser.setFiles': uploads(0, 'setFiles()'),
  'Page.addInitScript': contentFromPath('addInitScript'),
  'BrowserContext.addInitScript': contentFromPath('addInitScript'),
  'Page.addScriptTag': contentFromPath('addScriptTag'),
  'Frame.addScriptTag': contentFromPath('addScriptTag'),
  'Page.addStyleTag': contentFromPath('addStyleTag'),
  'Frame.addStyleTag': contentFromPath('addStyleTag'),
  'Page.routeFromHAR': routeFromHAR,
  'BrowserContext.routeFromHAR': routeFromHAR,
  'Page.content': content('Page'),
  'Page.innerHTML': innerHTML('Page'),
  'Frame.innerHTML': innerHTML('Frame'),
  'Locator.innerHTML': innerHTML('Locator'),
  'ElementHandle.innerHTML': innerHTML('ElementHandle'),
  'Page.innerText': innerText('Page'),
  'Page.textContent': innerText('Page'),
  'Frame.innerText': innerText('Frame'),
  'Frame.textContent': innerText('Frame'),
  'Locator.innerText': innerText('Locator'),
  'Locator.textContent': innerText('Locator'),
  'Locator.allInnerTexts': innerText('Locator'),
  'Locator.allTextContents': innerText('Locator'),
  'ElementHandle.innerText': innerText('ElementHandle'),
  'ElementHandle.textContent': innerText('ElementHandle'),
  'Page.ariaSnapshot': ariaSnapshot('Page'),
  'Locator.ariaSnapshot': ariaSnapshot('Locator'),
  'Frame.content': content('Frame'),
  'BrowserContext.storageState': storageState,
  'APIRequestContext.storageState': storageState,
  'BrowserContext.setStorageState': setStorageState,
  'Download.saveAs': saveAs,
  'Video.saveAs': saveAs,
  'Route.fulfill': async (m, a, call) => {
    const p = optPath(a, 0);
    if (p === undefined) return call(a);
    const o = a[0] as { contentType?: string };
    return call(without(a, 0, { body: await m.read('fulfill({ path })', p), contentType: o.contentType ?? mimeOf(String(p)) }));
  },
  'Route.continue': urlAt('option'),
  'Route.fallback': urlAt('option'),
  'Route.fetch': urlAt('option'),
  'APIRequestContext.fetch': urlAt('arg'),
  'APIRequestContext.get': urlAt('arg'),
  'APIRequestContext.post': urlAt('arg'),
  'APIRequestContext.put': urlAt('arg'),
  'APIRequestContext.patch': urlAt('arg'),
  'APIRequestContext.delete': urlAt('arg'),
  'APIRequestContext.head': urlAt('arg'),
  'CDPSession.send': cdpSend,
  'Tracing.start': traceName,
  'Tracing.startChunk': traceName,
  'Tracing.stop': traceStop('stop'),
  'Tracing.stopChunk': traceStop('stopChunk'),
};

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

/** Members whose first argument is a time in milliseconds. */
const MS_FIRST = new Set(['waitForTimeout', 'setDefaultTimeout', 'setDefaultNavigationTimeout']);

/**
 * A wait of NaN, a negative time or one past Node's longest timer: Playwright reads them as
 * "now" (`waitForTimeout(params.delay * 1000)` with no `delay` went on at once and the call
 * passed; pass 35, C35), as Node did for `sleep`. Refused, naming the member and the value, for
 * `waitForTimeout` and the default timeouts, and for any `{ timeout }` option (0: no limit).
 */
function checkTimeouts(where: string, prop: string, args: readonly unknown[]): void {
  const bad = (v: unknown) => typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_TIMER_MS;
  if (MS_FIRST.has(prop) && bad(args[0])) {
    throw new AgentError(`${where}(ms): ms must be a number from 0 to ${MAX_TIMER_MS} (Node's longest timer); got ${typeof args[0] === 'number' ? String(args[0]) : typeof args[0]}. A wait computed from a missing value (params.delay * 1000) is NaN: check the value first.`);
  }
  for (const a of args) {
    if (!a || typeof a !== 'object' || Array.isArray(a) || !Object.prototype.hasOwnProperty.call(a, 'timeout')) continue;
    const t = (a as { timeout?: unknown }).timeout;
    if (t !== undefined && bad(t)) {
      throw new AgentError(`${where}: { timeout } must be a number of milliseconds from 0 (no limit) to ${MAX_TIMER_MS}; got ${typeof t === 'number' ? String(t) : typeof t}.`);
    }
  }
}
