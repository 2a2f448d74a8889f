// The flow-script sandbox: a Node `vm` context whose globals are exactly the catalog's
// `globals`. It is NOT a security boundary (the docs say so); its job is that a script
// written here also runs on Aside. Page content never executes in Node.
import { GLOBAL_NAMES, type FetchResponse, type GlobalName, type ScriptGlobals } from '../catalog.gen.js';
import vm from 'node:vm';
import path from 'node:path';
import { inspect } from 'node:util';
import { isAnyArrayBuffer } from 'node:util/types';
import bufferModule from 'node:buffer';
import type { BrowserContext } from 'playwright-core';
import type { Catalog } from '../catalog.js';
import { createConfinedFs } from './confined-fs.js';
import { AgentError, MAX_TIMER_MS, fsMemberMissing, rewriteError, toAgentError } from '../errors.js';
import { Tabs, failedScriptsNotice, unansweredScriptsNotice } from './tabs.js';
import { CallEnded, PLAYWRIGHT_TAG, scriptLineOf, type CallSite } from './membrane.js';
import type { TabEvidence } from './evidence.js';
import { SCRIPT_MAIN, SENTINEL, defuseSentinel, pageCallbackScope, printedFromScriptBody, sentinelSpelledAt, type LineOptions } from './output.js';
import { plainUrl } from './url-policy.js';

export interface SandboxHost {
  context: BrowserContext;
  pwd: string;
  onLine: (line: string, opts?: LineOptions) => void;
  /** Notices for stderr (tabs.ts: a field the page marks secret was typed into). */
  onNotice?: (line: string) => void;
  /** `file:` URLs may be opened (--allow-file-urls). */
  allowFileUrls?: boolean;
  /** The script's source as compiled: where it printed the sentinel must spell it. Set by
   * runInSandbox. */
  source?: string;
  /** The call's parameters (the `params` global); `{}` when absent. */
  params?: Readonly<Record<string, unknown>>;
}

/** Each catalog global's implementation: from the call's host and tabs to the value the script
 * sees, of the type the catalog declares (catalog.gen.ts), so a global the catalog adds,
 * drops or retypes without the code following is a compile error. */
type Implementations = { [K in GlobalName]: (host: SandboxHost, tabs: Tabs) => ScriptGlobals[K] };

/**
 * Node's own `path` and `Buffer` as a script sees them: usable as usual, but assigning to or
 * deleting their members throws. A session host runs every call of its session in one
 * process, so a script's `path.join = ...` must not change what the next call gets. (The
 * sandbox is still no security boundary: see README, "Security model".)
 */
const zeroFilled = (size: number): Buffer => Buffer.alloc(size);


/** Node keeps small Buffers as slices of one shared 8 KiB pool, and `buf.buffer` is the whole
 * pool: bytes an earlier call encoded there (a secret parameter, `Buffer.from("admin:" +
 * params.password)`) showed through a later call's `Buffer.from("x").buffer` (pass 30, C30). The
 * script's own Buffers are each their own memory. */
const POOLED = new Set(['from', 'concat', 'of', 'copyBytesFrom']);
function unpooled(fn: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return function (this: unknown, ...args: unknown[]) {
    const b = Reflect.apply(fn, this, args);
    // `Buffer.from(arrayBuffer, offset, length)` is a view of the script's own memory, shared on
    // purpose, as in Node.
    if (isAnyArrayBuffer(args[0])) return b;
    if (!Buffer.isBuffer(b) || (b.byteOffset === 0 && b.buffer.byteLength === b.length)) return b;
    const own = Buffer.alloc(b.length);
    b.copy(own);
    return own;
  };
}
const unpooledFunctions = new Map<string, (...args: unknown[]) => unknown>();

/** One guarded proxy per shared function, so `Buffer.from === Buffer.from` still holds. */
const guardedFunctions = new WeakMap<object, object>();
function guardedFunction(fn: object, guard: ProxyHandler<object>): object {
  let p = guardedFunctions.get(fn);
  if (!p) guardedFunctions.set(fn, (p = new Proxy(fn, guard)));
  return p;
}

function readOnly<T extends object>(target: T, name: string): T {
  const refuse = (): never => {
    throw new AgentError(`${name} is read-only in a flow script: keep your own helper in a variable instead of changing ${name}.`);
  };
  const guard: ProxyHandler<object> = { set: refuse, defineProperty: refuse, deleteProperty: refuse, setPrototypeOf: refuse };
  return new Proxy<T>(target, {
    ...(guard as ProxyHandler<T>),
    // path.posix / path.win32 are the same kind of shared object.
    get: (t, key, receiver) => {
      // Buffer.allocUnsafe hands out memory the host used before, in an earlier call too (a
      // page's password the snapshot cut, another call's file): a script's unsafe buffers are
      // zero-filled, as Buffer.alloc's are. (Each call starts clean.)
      if (name === 'Buffer' && (key === 'allocUnsafe' || key === 'allocUnsafeSlow')) return zeroFilled;
      if (name === 'Buffer' && typeof key === 'string' && POOLED.has(key)) {
        let f = unpooledFunctions.get(key);
        if (!f) unpooledFunctions.set(key, (f = unpooled(Reflect.get(t, key) as (...args: unknown[]) => unknown)));
        return guardedFunction(f, guard);
      }
      const v = Reflect.get(t, key, receiver);
      if (name === 'path' && (key === 'posix' || key === 'win32') && v && typeof v === 'object') return readOnly(v as object, name);
      // Their functions are shared too: `Buffer.from.cache = …` would reach the next call. (Not
      // `prototype`: instanceof compares it by identity; the tamper check watches it.)
      if (typeof v === 'function' && key !== 'prototype' && key !== 'constructor') return guardedFunction(v as object, guard);
      return v;
    },
  });
}

function formatArg(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Error || (v && typeof v === 'object' && 'message' in v && 'stack' in v)) return String((v as Error).message);
  if (v === undefined) return 'undefined';
  // Bytes print as their size, not as a list of numbers: no line filter reads a secret back out
  // of `[69,120,112,…]`, and the numbers tell an agent nothing. Print text as text
  // (`buf.toString()`), which the filter reads like any other line.
  if (isBytes(v)) return bytesPlaceholder(v);
  const playwright = playwrightPlaceholder(v);
  if (playwright) return playwright;
  try {
    // Bytes inside an object or array too (`{ post: req.postDataBuffer() }`): JSON would write a
    // Buffer as {"type":"Buffer","data":[112,119,…]}. The replacer sees the value before toJSON.
    // An Error, a Map or a Set inside it too: JSON writes them as {} (`console.log({ e })` lost
    // the message of the error it caught; pass 37, A37). As Node's console would: the error's
    // name and message, a Map's entries, a Set's values. Checked by tag, across realms.
    const json = JSON.stringify(v, function (this: Record<string, unknown>, key: string, value: unknown) {
      const own = key === '' ? v : this[key];
      if (isBytes(own)) return bytesPlaceholder(own);
      const tag = Object.prototype.toString.call(own);
      if (tag === '[object Error]') return `${String((own as Error).name)}: ${String((own as Error).message)}`;
      if (tag === '[object Map]') {
        const entries = Array.from((own as Map<unknown, unknown>).entries());
        return entries.every(([k]) => typeof k === 'string' || typeof k === 'number') ? Object.fromEntries(entries) : entries;
      }
      if (tag === '[object Set]') return Array.from(own as Set<unknown>);
      return playwrightPlaceholder(own) ?? value;
    });
    if (json !== undefined) return json;
  } catch {
    /* circular: fall through */
  }
  // A circular object: inspect, with no element of an array or byte of a Buffer listed.
  const maxBytes = bufferModule.INSPECT_MAX_BYTES;
  bufferModule.INSPECT_MAX_BYTES = 0;
  try {
    return inspect(v, { depth: 4, breakLength: Infinity, maxArrayLength: 0 });
  } finally {
    bufferModule.INSPECT_MAX_BYTES = maxBytes;
  }
}

/** What to print of a Playwright object, by class: JSON of one is `{}` (its data is behind
 * methods), which told an agent nothing while it debugged (pass 39, A39). */
const PRINT_HINTS: Record<string, string> = {
  Response: 'resp.status(), resp.url(), await resp.text()',
  Request: 'req.method(), req.url(), req.postData()',
  Locator: 'await loc.textContent(), await loc.count()',
  Page: 'pg.url(), await pg.title()',
  Frame: 'frame.url(), frame.name()',
  ElementHandle: 'await el.textContent()',
  Download: 'd.suggestedFilename(), d.url()',
  ConsoleMessage: 'msg.type(), msg.text()',
  Dialog: 'dialog.type(), dialog.message()',
};

/** The placeholder for a membrane proxy (its toStringTag names the class), else undefined. */
function playwrightPlaceholder(v: unknown): string | undefined {
  const tag = Object.prototype.toString.call(v);
  const prefix = `[object ${PLAYWRIGHT_TAG}`;
  if (!tag.startsWith(prefix)) return undefined;
  const kind = tag.slice(prefix.length, -1);
  return `<${kind}: a Playwright object; print its values, e.g. ${PRINT_HINTS[kind] ?? 'the results of its methods'}>`;
}

function isBytes(v: unknown): v is ArrayBufferView | ArrayBuffer {
  return ArrayBuffer.isView(v) || v instanceof ArrayBuffer || Object.prototype.toString.call(v) === '[object ArrayBuffer]';
}

function bytesPlaceholder(v: ArrayBufferView | ArrayBuffer): string {
  return `<${Buffer.isBuffer(v) ? 'Buffer' : Object.prototype.toString.call(v).slice(8, -1)} ${v.byteLength} bytes: print .toString() for its text>`;
}

function fetchResponse(res: import('playwright-core').APIResponse, tabs: Tabs): FetchResponse {
  const headers = defuseSentinel(res.headers());
  let body: Promise<Buffer> | undefined;
  // The body is read while the call lives, or never (whileLive): text().then(...) chained by
  // a script that has ended must not run.
  // The body, headers and URL are the page's data: a sentinel in them is marked (output.ts).
  const bytes = () => whileLive(tabs, (body ??= res.body().then((b) => defuseSentinel(b))));
  // `satisfies`: a member here that the catalog's FetchResponse lacks is a compile error too,
  // so the script API's .d.ts never misses what the sandbox gives.
  return Object.freeze({
    ok: res.ok(),
    status: res.status(),
    statusText: defuseSentinel(res.statusText()),
    url: defuseSentinel(res.url()),
    headers: Object.freeze({
      get: (name: string) => headers[String(name).toLowerCase()] ?? null,
      has: (name: string) => String(name).toLowerCase() in headers,
      entries: () => Object.entries(headers),
    }),
    text: async () => (await bytes()).toString('utf8'),
    // Parsed, then marked: a JSON escape spells the sentinel only once parsed.
    json: async () => defuseSentinel(JSON.parse((await bytes()).toString('utf8'))),
    arrayBuffer: async () => {
      const b = await bytes();
      const copy = new ArrayBuffer(b.byteLength);
      new Uint8Array(copy).set(b);
      return copy;
    },
  } satisfies FetchResponse);
}

/** What a call started that must not outlive it (docs/SECURITY.md, "Each call starts clean"):
 * its sleeps. Cleared when the call is revoked, so a continuation scheduled on one never runs
 * and whatever it holds (a big buffer) is released. */
const sleeps = new WeakMap<Tabs, Set<NodeJS.Timeout>>();

/** A URL's origin (`http://127.0.0.1:8080`); `…` for what is no URL with one. */
function originOnly(url: string): string {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? '…' : o;
  } catch {
    return '…';
  }
}

/** Counts a global's promise among the calls the script waits in, with the script line that
 * called `fn`: a call its deadline ends in a long sleep, a tab that never loaded or a snapshot
 * says which, and where (trial V12). */
function pending<T>(tabs: Tabs, fn: Function, describe: () => string, out: Promise<T>): Promise<T> {
  const site: CallSite = {};
  Error.captureStackTrace(site, fn);
  tabs.membrane.countPending(describe, out, site);
  return out;
}

/** A promise the script awaits, cut off at the end of its call: settled as `p` is while the
 * call lives, never after (the membrane does the same for Playwright's promises). */
function whileLive<T>(tabs: Tabs, p: Promise<T>): Promise<T> {
  const never = () => new Promise<never>(() => undefined);
  return p.then(
    (v) => (tabs.membrane.revoked || tabs.membrane.ended ? never() : v),
    (err) => (tabs.membrane.revoked || tabs.membrane.ended ? never() : Promise.reject(err)),
  );
}

const chromiumOnlyMissing = (name: string) => async () => {
  throw new AgentError(
    `${name}() is only available on the Aside engine (the user's own browser tabs). This call runs on our Chromium profile, which has no user tabs: open your own tab with openTab(url) instead.`,
    'ENGINE_UNSUPPORTED',
  );
};

/** Implementation of every catalog global on the Chromium engine. Keys must match the
 * catalog exactly (a test checks both directions). */
export const CHROMIUM_GLOBALS: Implementations = {
  // openTab() is a blank tab; openTab(undefined) is a URL that was missing (trial V8:
  // `openTab(params.url)` without the param opened about:blank and the next wait ran 15 s).
  openTab: (_h, tabs) =>
    function openTab(...args: unknown[]) {
      if (args.length && args[0] === undefined) return Promise.reject(new AgentError('openTab(url): url is undefined (a missing params value, or a variable not set?). Pass a URL string, or call openTab() with no argument for a blank tab.'));
      const url = args[0];
      // Only the URL's origin: its path or query may hold a token the script kept from its output
      // (a sign-in link read from an email); the line tells which openTab it was.
      return pending(tabs, openTab, () => `openTab(${typeof url === 'string' ? JSON.stringify(`${originOnly(url)}/…`) : ''})`, whileLive(tabs, tabs.open(url as string | undefined)));
    },
  closeTab: (_h, tabs) => (pg: unknown) => whileLive(tabs, tabs.close(pg)),
  snapshot: (_h, tabs) =>
    function snapshot(pg: unknown, opts?: object) {
      return pending(tabs, snapshot, () => 'snapshot', whileLive(tabs, tabs.snapshot(pg, opts).then((r) => defuseSentinel(r))));
    },
  annotatedScreenshot: (_h, tabs) => (pg: unknown) => whileLive(tabs, tabs.annotatedScreenshot(pg)),
  sleep: (_h, tabs) => function sleep(ms: unknown) {
    // A number only, as waitForTimeout takes: `sleep(params.delay)` with a missing or text value
    // ("", null, true) went on at once (pass 36, C36).
    const n = typeof ms === 'number' ? ms : NaN;
    if (!Number.isFinite(n) || n < 0) return Promise.reject(new AgentError(`sleep(ms): ms must be a number ≥ 0 (got ${typeof ms === 'number' ? String(ms) : typeof ms}). Convert a text value with Number(), and check a value that may be missing.`));
    // Node makes a longer timer 1 ms: the flow would go on as if the time had passed (pass 31, C31).
    if (n > MAX_TIMER_MS) return Promise.reject(new AgentError(`sleep(ms): ms is at most ${MAX_TIMER_MS} (about 24.8 days, Node's longest timer; a call's --timeout ends it sooner anyway). Got ${n}.`));
    if (tabs.membrane.revoked) return new Promise<void>(() => undefined);
    let timers = sleeps.get(tabs);
    if (!timers) sleeps.set(tabs, (timers = new Set()));
    const own = timers;
    const slept = new Promise<void>((r) => {
      const t = setTimeout(() => {
        own.delete(t);
        r();
      }, n);
      own.add(t);
    });
    return pending(tabs, sleep, () => `sleep(${n})`, slept);
  },
  pwd: (h) => h.pwd,
  fs: (h, tabs) => liveOnly(createConfinedFs(h.pwd), tabs),
  path: () => readOnly(path, 'path'),
  Buffer: () => readOnly(Buffer, 'Buffer'),
  fetch: (h, tabs) => (value: unknown, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) => whileLive(tabs, (async () => {
    if (tabs.membrane.revoked) throw new CallEnded();
    const url = plainUrl(value);
    if (typeof url !== 'string') throw new AgentError('fetch(url, init): url must be a string.');
    const refusal = tabs.membrane.urlRefusal(url);
    if (refusal) throw refusal;
    try {
      const res = await tabs.membrane.trackRequest(h.context.request.fetch(url, {
        method: init.method ?? 'GET',
        headers: init.headers,
        data: init.body as string | undefined,
        failOnStatusCode: false,
        maxRedirects: 10,
      }));
      return fetchResponse(res, tabs);
    } catch (err) {
      throw toAgentError(err);
    }
  })()),
  console: (h, tabs) => {
    // A script that outlives its call prints nothing more: its output has been answered.
    // Only the script's own single string, printed outside a page callback, can be the
    // sentinel (output.ts): not a value made of several, not a page message relayed.
    const line = (...args: unknown[]) => {
      if (tabs.membrane.revoked) return;
      const own = args.length === 1 && typeof args[0] === 'string' && !pageCallbackScope.getStore();
      // The sentinel counts only where the script spelled it (output.ts sentinelSpelledAt),
      // and only from the script's own body, not a callback whose time the page may choose
      // (output.ts printedFromScriptBody).
      let unspelled: 'value' | 'callback' | undefined;
      // From inside a page callback (a listener, a waitForEvent predicate, a locator handler)
      // it never counts, and is shown marked like any other callback's (pass 21, A21).
      if (!own && args.length === 1 && args[0] === SENTINEL && pageCallbackScope.getStore()) unspelled = 'callback';
      if (own && args[0] === SENTINEL && h.source !== undefined) {
        const site: { stack?: string } = {};
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 200;
        try {
          Error.captureStackTrace(site, line);
        } finally {
          Error.stackTraceLimit = limit;
        }
        const stack = site.stack ?? '';
        unspelled = !sentinelSpelledAt(h.source, stack) ? 'value' : !printedFromScriptBody(stack) ? 'callback' : undefined;
      }
      h.onLine(args.map(formatArg).join(' '), { sentinel: own && !unspelled, unspelled });
    };
    return Object.freeze({ log: line, info: line, warn: line, error: line, debug: line });
  },
  // A deep-frozen copy: a script cannot change what the caller passed, nor what it records.
  params: (h) => deepFreeze(structuredClone(h.params ?? {})),
  listBrowserTabs: () => chromiumOnlyMissing('listBrowserTabs'),
  attachBrowserTab: () => chromiumOnlyMissing('attachBrowserTab'),
};

/** The script's JSON.parse marks the sentinel in what it parses (output.ts defuseSentinel): a
 * careless script parses page text (`JSON.parse(await r.text())`), and JSON escapes
 * (`GSTACK\u005fSTEP_OK`) would spell the sentinel only once parsed. The decoders a script
 * runs on page text (a URL's `?error=GSTACK%5FSTEP%5FOK` through decodeURIComponent, base64
 * through atob) mark what they decode the same way. */
function markJsonParse(ctx: vm.Context): void {
  const install = vm.runInContext(
    `(mark) => {
      const original = JSON.parse;
      Object.defineProperty(JSON, "parse", { value: function parse(text, reviver) { return mark(original.call(JSON, text, reviver)); }, writable: true, configurable: true });
      for (const name of ["decodeURIComponent", "decodeURI", "unescape", "atob"]) {
        const decode = globalThis[name];
        if (typeof decode !== "function") continue;
        Object.defineProperty(globalThis, name, { value: { [name](s) { return mark(decode(s)); } }[name], writable: true, configurable: true });
      }
    }`,
    ctx,
  ) as (mark: typeof defuseSentinel) => void;
  install(defuseSentinel);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The script's `fs`, refusing once its call has ended. */
function liveOnly<T extends Record<string, Function>>(fs: T, tabs: Tabs): T {
  const out: Record<string, Function> = {};
  for (const [name, fn] of Object.entries(fs)) {
    // A file under pwd may hold what a page sent (a download): what is read is marked too.
    out[name] = (...args: unknown[]) => (tabs.membrane.revoked ? Promise.reject(new CallEnded()) : whileLive(tabs, Promise.resolve(fn(...args)).then((v) => defuseSentinel(v))));
  }
  // A script that reaches for Node's fs (writeFileSync, fs.promises) is told what this fs has,
  // rather than getting undefined and a TypeError.
  const members = Object.freeze(out);
  return new Proxy(members, {
    get: (t, prop) => {
      if (typeof prop === 'string' && !Object.hasOwn(t, prop) && NODE_FS_NAME.test(prop)) throw new AgentError(fsMemberMissing(prop));
      return Reflect.get(t, prop);
    },
  }) as unknown as T;
}

/** Node fs members a script may reach for: the *Sync ones, fs.promises and the stream and
 * link calls (not every missing name: inspection asks for others). */
const NODE_FS_NAME = /Sync$|^(?:promises|exists|createReadStream|createWriteStream|open|lstat|readlink|symlink|link|chmod|chown|watch|cp|truncate|opendir|realpath|utimes)$/;

export interface SandboxRun {
  /** Resolves when the script ends; rejects with an AgentError message. */
  done: Promise<void>;
  /** The call is over: whatever the script still holds refuses to act from now on. */
  revoke(): void;
  /** Closes the call's tabs, popups and downloads and undoes its changes to the context
   * (for a browser that outlives the call); `beforeClose` runs once the call no longer watches
   * the context for new tabs and its script is revoked, before its tabs close. Never throws. */
  cleanUp(beforeClose?: () => Promise<void>): Promise<void>;
  /** The call changed the context in a way cleanUp cannot undo: restart the browser. */
  readonly dirty: boolean;
  /** Each open tab's evidence for a failed call (driver/runtime/evidence.ts); bounded, never throws. */
  collectEvidence(): Promise<TabEvidence[]>;
  /** The open tabs' URLs and failed requests, from what the call already recorded (tabs.ts). */
  whereTabsAre(): Array<Pick<TabEvidence, 'url' | 'networkErrors'>>;
  /** A failed call without evidence: learns the open tabs' secret fields all the same; false
   * when a tab did not answer. Bounded, never throws. */
  learnSecretsOnFailure(): Promise<boolean>;
  /** A failed call's tab did not answer, so its secret fields were not read. */
  readonly unreadAtFailure: boolean;
  /** The Playwright call the script still waits in, in words (membrane.ts pendingCall). */
  pendingCall(): string | undefined;
}

/**
 * What a script did wrong outside its own `await` chain, named as Node itself names it: a
 * promise it rejected with no handler, or a throw from a callback it gave Playwright (an event
 * listener) — Node would end the process with either; here they end the call (issue 25,
 * "truthful failures"). A thrown non-Error says so instead of printing a bare value.
 */
export function describeThrown(err: unknown, names: string[]): string {
  if (err instanceof Error || (err && typeof err === 'object' && 'message' in err && 'stack' in err)) {
    const message = rewriteError(err, { availableGlobals: names });
    const line = thrownAtLine(err) ?? scriptLineOf(err);
    return line === undefined ? message : `${message} (line ${line})`;
  }
  return `the script threw a non-Error value: ${formatArg(err)}. Throw an Error instead (throw new Error("what went wrong")), so the message says what happened.`;
}

/** The line of the script where JavaScript itself threw `err` (a TypeError, ReferenceError or
 * RangeError in its own code): the first frame of the stack is the script's. A plain Error the
 * script threw on purpose says what it means in its own words (as a cookbook shape's do), and
 * one from this runtime says what to do: neither gets a line here (trial V4: a TypeError said
 * no line, while a syntax error did). A failed Playwright call gets the line it was called on
 * from the membrane (scriptLineOf). */
const LANGUAGE_ERRORS = new Set(['TypeError', 'ReferenceError', 'RangeError', 'SyntaxError', 'URIError', 'EvalError']);
function thrownAtLine(err: unknown): number | undefined {
  if (err instanceof AgentError || !LANGUAGE_ERRORS.has(String((err as { name?: unknown }).name))) return undefined;
  const stack = String((err as { stack?: unknown }).stack ?? '');
  const first = /\n\s+at (.*)/.exec(stack)?.[1] ?? '';
  const at = /(?:^|\()flow\.js:(\d+):\d+\)?$/.exec(first);
  return at ? Number(at[1]) : undefined;
}

function describeUnhandled(reason: unknown, names: string[]): string {
  const what = reason instanceof Error || (reason && typeof reason === 'object' && 'message' in reason) ? `${(reason as Error).name ?? 'Error'}: ${rewriteError(reason, { availableGlobals: names })}` : formatArg(reason);
  return `Unhandled promise rejection in the script: ${what.replace(/\.+$/, '')}. A promise was rejected and nothing awaited or caught it (Node ends a program for this too): await the call that made it, or add .catch().`;
}

function describeListenerThrow(err: unknown, names: string[]): string {
  const what = err instanceof Error || (err && typeof err === 'object' && 'message' in err) ? `${(err as Error).name ?? 'Error'}: ${rewriteError(err, { availableGlobals: names })}` : `a non-Error value: ${formatArg(err)}`;
  return `Uncaught exception in a callback the script gave Playwright (an event listener such as pg.on(...)): ${what.replace(/\.+$/, "")}. Node ends a program for this too: catch errors inside the callback.`;
}

/** Compiles the script (wrapped as an async function so top-level await works; named, so a
 * stack shows when the script's own body is running: output.ts printedFromScriptBody). Throws
 * an AgentError for syntax errors, with the line number in the user's script. */
export function compileScript(script: string, availableGlobals: string[]): vm.Script {
  const code = `(async function ${SCRIPT_MAIN}() {\n${script}\n})()`;
  try {
    return new vm.Script(code, {
      filename: 'flow.js',
      lineOffset: -1,
      importModuleDynamically: (() => {
        throw new AgentError(`import() is not available in a flow script: it runs as one self-contained script. Available globals: ${availableGlobals.join(', ')}.`);
      }) as never,
    });
  } catch (err) {
    const e = err as Error;
    const where = /flow\.js:(\d+)/.exec(e.stack ?? '')?.[1];
    const detail = rewriteError(e, { availableGlobals });
    throw new AgentError(where && !/import is not available/.test(detail) ? `${detail} (line ${where})` : detail, 'SYNTAX');
  }
}

/**
 * The process's own Object.prototype and Array.prototype take no new properties once a script
 * has run in it. Values the API hands a script (evaluate results, cookies, snapshot()) are this
 * realm's objects: a careless deep merge of page JSON into one (`{"__proto__": {"path": …}}`)
 * would otherwise add `path` to every object here, and Playwright read it as the path of a
 * pdf(), screenshot(), storageState() or route.fulfill() called without options, a file the
 * page chose (pass 19, C19). What is already there can still be changed: the tamper check
 * (driver/hosts/tamper.ts) ends a host whose built-ins a call changed.
 */
let prototypesSealed = false;
export function sealSharedPrototypes(): void {
  if (prototypesSealed) return;
  prototypesSealed = true;
  Object.preventExtensions(Object.prototype);
  Object.preventExtensions(Array.prototype);
}

export function runInSandbox(script: string, host: SandboxHost, catalog: Catalog): SandboxRun {
  sealSharedPrototypes();
  const names = catalog.globals.map((g) => g.name);
  const compiled = compileScript(script, names);
  // The first failure outside the script's own await chain (see describeThrown) ends the call.
  let failOutside: ((message: string) => void) | undefined;
  const outside = new Promise<never>((_, reject) => {
    failOutside = (message) => reject(new AgentError(message));
  });
  outside.catch(() => undefined);
  const tabs = new Tabs(host.context, {
    pwd: host.pwd,
    onLine: host.onLine,
    onNotice: host.onNotice,
    allowFileUrls: host.allowFileUrls,
    onListenerError: (err) => failOutside?.(describeListenerThrow(err, names)),
  });
  const globals: Record<string, unknown> = Object.create(null);
  const withSource: SandboxHost = { ...host, source: script };
  for (const name of GLOBAL_NAMES) globals[name] = CHROMIUM_GLOBALS[name](withSource, tabs);
  const ctx = vm.createContext(globals, { name: 'gstack flow script', codeGeneration: { strings: true, wasm: false } });
  markJsonParse(ctx);
  // Node 20 puts Symbol.dispose and Symbol.asyncDispose on its own realm's Symbol only; a script
  // written for Playwright on Node calls `page[Symbol.asyncDispose]()`, so its realm gets the same
  // symbols (the membrane knows them by identity).
  const scriptSymbol = vm.runInContext('Symbol', ctx) as unknown as Record<string, symbol | undefined>;
  for (const k of ['dispose', 'asyncDispose']) {
    const own = (Symbol as unknown as Record<string, symbol | undefined>)[k];
    if (own && scriptSymbol[k] === undefined) Object.defineProperty(scriptSymbol, k, { value: own });
  }
  // A promise the script made (its realm's Promise) or one our API handed it (rejected with our
  // AgentError) that nobody handled: Node reports it on the process after the microtasks run.
  const scriptPromise = vm.runInContext('Promise', ctx) as PromiseConstructor;
  const onUnhandled = (reason: unknown, promise: Promise<unknown>) => {
    if (tabs.membrane.revoked) return;
    if (promise instanceof scriptPromise || reason instanceof AgentError) failOutside?.(describeUnhandled(reason, names));
  };
  process.on('unhandledRejection', onUnhandled);
  const done = (async () => {
    try {
      const run = (async () => {
        try {
          await tabs.closeLeftovers();
          await (compiled.runInContext(ctx, { displayErrors: false }) as Promise<unknown>);
        } catch (err) {
          throw new AgentError(describeThrown(tabs.membrane.callbackError ?? err, names));
        } finally {
          // From the body's last line on, a continuation the script left (a fetch body's
          // .then(spin), a page call's) never runs, though the call is revoked a moment later.
          tabs.membrane.ended = true;
        }
        // Node reports a rejection nobody handled once the microtasks have run: give it that
        // turn, so a script that rejects and then ends at once still fails.
        await new Promise((r) => setImmediate(r));
      })();
      run.catch(() => undefined); // when `outside` wins, the script's own end is not news
      await Promise.race([run, outside]);
      if (!tabs.membrane.callbackError) {
        for (const notice of [unansweredScriptsNotice(tabs.unansweredScripts), failedScriptsNotice(tabs.failedScripts)]) if (notice) host.onNotice?.(notice);
      }
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    // A route handler or listener that threw fails the call (membrane.ts, callbackError); when
    // the script failed too, most often because of it, that error is the one told.
    if (tabs.membrane.callbackError) throw tabs.membrane.callbackError;
  })();
  return {
    done,
    revoke: () => {
      tabs.revoke();
      for (const t of sleeps.get(tabs) ?? []) clearTimeout(t);
      sleeps.delete(tabs);
      // Node 20 keeps its promise hooks on while an AsyncLocalStorage is enabled (every promise
      // then costs ~3x): a call that ran a page callback switches it on, its end switches it off.
      pageCallbackScope.disable();
    },
    cleanUp: (beforeClose) => tabs.cleanUp(beforeClose),
    collectEvidence: () => tabs.collectEvidence(),
    whereTabsAre: () => tabs.whereTabsAre(),
    learnSecretsOnFailure: () => tabs.learnSecretsOnFailure(),
    get unreadAtFailure() {
      return tabs.unreadAtFailure;
    },
    pendingCall: () => tabs.membrane.pendingCall(),
    get dirty() {
      return tabs.membrane.dirty || tabs.membrane.requestsInFlight > 0;
    },
  };
}
