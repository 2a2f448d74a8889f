// The tabs of one call and the Page a flow script sees (docs/ARCHITECTURE.md, "One call").
//
// Owns: openTab/closeTab/snapshot/annotatedScreenshot, what the Page adds to Playwright's
// (`pg.locator("e12")` refs with fail-fast staleness, `_sendToTarget` for raw CDP), the
// runner's handling of dialogs (a `DIALOG <type> <message>` line each; dismissed unless the
// script listens for them) and downloads, and the end of the call: every tab, popup and
// download of the call is closed, and what the call changed on the context is undone
// (membrane.ts) so that the next call of a session host starts clean. What a script may touch
// on every Playwright object is membrane.ts's.
import type { BrowserContext, Dialog, Download, Frame, Page } from 'playwright-core';
import { AgentError, toAgentError } from '../errors.js';
import { confinementFor } from './confined-fs.js';
import { Membrane } from './membrane.js';
import { ALERT_BOUNDS, EVIDENCE_BUDGET_MS, freeName, HUNG_NOTE, gotNoAnswer, OUT_OF_TIME_NOTE, PAGE_ANSWER_MS, evidenceSnapshot, keepLatest, readAlerts, within, type NetworkError, type TabEvidence } from './evidence.js';
import { plainUrl } from './url-policy.js';
import { defuseSentinel, learnSecrets, type LineOptions } from './output.js';
import { fastScreenshot } from './screenshot.js';
import { maskSecrets, withMask } from './secret-mask.js';
import { placeLabels } from './label-placement.js';
import { SECRET_RULES, isSecretField, newSnapshotState, reachesSecretField, playwrightRef, redact, redactHtml, redactedContent, redactedFrameContent, secretValues, takeSnapshot, type PageSnapshotState, type SnapshotOptions } from './snapshot.js';

/** The first three of a notice's URLs, each cut at 120 characters (after its `prefix`, a
 * status), and how many more. */
function firstUrls(list: string[], prefix: (i: number) => string = () => ''): string {
  const shown = list.slice(0, 3).map((u, i) => prefix(i) + (u.length > 120 ? `${u.slice(0, 120)}…` : u)).join(', ');
  return list.length > 3 ? `${shown} and ${list.length - 3} more` : shown;
}

/**
 * One stderr line for a call that passed while a page's scripts got no answer (an app served
 * offline whose sign-up popup or widget comes from a CDN): its click did nothing, and the call
 * still passed (trials V11, V13: Ghost's Portal). Undefined when there were none.
 */
export function unansweredScriptsNotice(urls: Iterable<string>): string | undefined {
  const list = [...urls];
  if (!list.length) return undefined;
  return `gstack: ${list.length === 1 ? 'a script' : `${list.length} scripts`} the page asked for got no answer (${firstUrls(list)}): what ${list.length === 1 ? 'it draws' : 'they draw'} (a popup, a widget) is missing, and actions on it do nothing. If the task needs it, serve it with pg.route before goto (the browse reference, "A page whose third-party scripts cannot load").`;
}

/**
 * One stderr line for a call that passed while a server answered a page's scripts with an error
 * (4xx/5xx): an app whose HTML names bundles its server does not have drew nothing, and the call
 * passed with an empty snapshot (trial V28: a registry's web UI, its main bundle 404). Undefined
 * when there were none.
 */
export function failedScriptsNotice(failed: ReadonlyMap<string, number>): string | undefined {
  const list = [...failed];
  if (!list.length) return undefined;
  return `gstack: the server answered ${list.length === 1 ? 'a script' : `${list.length} scripts`} of the page with an error (${firstUrls(list.map(([u]) => u), (i) => `${list[i][1]} `)}): what ${list.length === 1 ? 'it draws' : 'they draw'} is missing (an app may draw nothing at all), and actions on it do nothing. Check the address and the app's server (a build whose HTML names files it does not serve); to go on meanwhile, answer ${list.length === 1 ? 'it' : 'them'} with pg.route before goto (the browse reference, "A page whose third-party scripts cannot load").`;
}

/**
 * `page.screenshot()` takes a plain viewport PNG through one CDP capture when that gives
 * Playwright's image (driver/runtime/screenshot.ts), and is Playwright's own otherwise, with what
 * holds a secret the call has seen masked. An own member of
 * the page, so the script's call still goes through the membrane (its policy, the confinement
 * of `path`, its errors) and the runner's own captures (evidence) take the same path.
 */
function useFastScreenshot(raw: Page): void {
  const playwright = Object.getPrototypeOf(raw).screenshot as Page['screenshot'];
  Object.defineProperty(raw, 'screenshot', {
    configurable: true,
    writable: true,
    enumerable: false,
    // Once the call has seen a secret, what on the page holds one is painted over
    // (driver/runtime/secret-mask.ts): Playwright's capture, which takes a mask. Any hitch of the
    // fast path (a tab closing under it) gets Playwright's answer, and its error.
    value: async (options?: Parameters<Page['screenshot']>[0]) => {
      const masked = await maskSecrets(raw);
      if (masked) {
        try {
          return await playwright.call(raw, withMask(options, masked.locator));
        } finally {
          await masked.unmark();
        }
      }
      return (await fastScreenshot(raw, options).catch(() => undefined)) ?? playwright.call(raw, options);
    },
  });
}

/** The browser's own icon request is not the page's (some browsers make it, headless does not). */
function isBrowserIcon(url: string): boolean {
  return /^https?:\/\/[^/]+\/favicon\.ico(?:$|\?)/.test(url);
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 720 };

const REF_SELECTOR = /^(?:@|ref=|aria-ref=)?((?:f\d+)?e\d+)$/;

/** The length at which Chromium cuts a dialog's message (Blink's limit on alert text). */
const DIALOG_MESSAGE_CAP = 10_240;

/** Locator methods that type their first argument into the element (learnTyped). */
const TYPING = new Set(['fill', 'type', 'pressSequentially']);
/** How long learnTyped waits for the element to say whether it is a secret field: the action
 * itself waits for a missing element, and this must not add its own wait to a slow page. */
const TYPED_CHECK_MS = 1000;

/** Locator methods that act on (or read) the element: a stale ref must fail before these. */
const REF_ACTIONS = new Set([
  'click', 'dblclick', 'fill', 'clear', 'press', 'pressSequentially', 'type', 'check', 'uncheck', 'setChecked',
  'selectOption', 'selectText', 'hover', 'focus', 'blur', 'tap', 'setInputFiles', 'dragTo', 'screenshot',
  'textContent', 'innerText', 'innerHTML', 'inputValue', 'getAttribute', 'evaluate', 'evaluateHandle',
  'boundingBox', 'scrollIntoViewIfNeeded', 'dispatchEvent', 'isChecked', 'isEnabled', 'isDisabled',
  'isEditable', 'ariaSnapshot', 'elementHandle', 'highlight', 'waitFor',
]);

export interface ScriptPage extends Page {
  _sendToTarget(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

interface PageState {
  snapshot: PageSnapshotState;
  cdp?: Promise<import('playwright-core').CDPSession>;
  /** What the runner saw on this page, for the evidence of a failed call (driver/runtime/evidence.ts). */
  consoleErrors: string[];
  networkErrors: NetworkError[];
  /** A dialog the script is handling and has not answered yet. */
  openDialog?: Dialog;
}

export interface TabsOptions {
  pwd: string;
  /** Evidence lines (DIALOG) go where the script's console.log goes (never as the sentinel). */
  onLine: (line: string, opts?: LineOptions) => void;
  /** Notices for stderr: a locator that reaches a field the page marks secret (learnTyped). */
  onNotice?: (line: string) => void;
  allowFileUrls?: boolean;
  /** A listener the script gave Playwright threw (or rejected): the call fails with it. */
  onListenerError?: (err: unknown) => void;
}

/** The tabs of one call: every page that appears in the context during the call (openTab,
 * context.newPage, popups), each seen by the script only through the membrane. */
/** The page an object belongs to, and the frame whose origin's secret fields are cut from its
 * text (snapshot.ts secretValues): a frame's own, an element's owner frame, a locator's frame,
 * every frame's for a locator that enters an iframe (its frame is not known here). */
/**
 * The evidence of a tab whose secret fields could not be read (the page did not answer: busy
 * in its own JavaScript, or out of time): nothing can be cut of them, and the page may have put
 * a field's value in its URL, a console message or a request it made before it hung (pass 22,
 * A22). So only what holds none is kept: the URL's origin, each failed request's origin,
 * status and type, and how many console errors there were.
 */
function withheldUnread(ev: TabEvidence, scriptOrigins: ReadonlySet<string>): void {
  // Only an origin the script gave itself is named: a host the page chose (a redirect, an
  // image it loads) can spell the secret it holds (pass 26, A26).
  const origin = (u: string) => {
    try {
      const url = new URL(u);
      if (url.origin === 'null') return `${url.protocol}…`;
      return scriptOrigins.has(url.origin) ? `${url.origin}/…` : `(an origin the page chose)/…`;
    } catch {
      return '…';
    }
  };
  ev.url = origin(ev.url);
  const n = ev.consoleErrors.length;
  ev.consoleErrors = n ? [`${n} console error${n === 1 ? '' : 's'} not shown: the page did not answer, so its secret fields could not be read to cut them from the messages`] : [];
  ev.networkErrors = ev.networkErrors.map((e) => ({ ...e, url: origin(e.url), ...(e.error !== undefined ? { error: e.error.replace(/[^\w:. -]/g, '') } : {}) }));
}

async function readScope(raw: object, kind: 'Page' | 'Frame' | 'Locator' | 'ElementHandle'): Promise<{ page: Page; scope?: Frame | 'all' }> {
  if (kind === 'Page') return { page: raw as Page };
  if (kind === 'Frame') return { page: (raw as Frame).page(), scope: raw as Frame };
  if (kind === 'Locator') {
    const locator = raw as import('playwright-core').Locator;
    // Playwright keeps the frame a locator was made on as `_frame` (frame.locator(...)) and its
    // selector as `_selector`, where entering an iframe is `internal:control=enter-frame`. If
    // either is not there (another Playwright), every frame's values: the safe side.
    const { _frame: frame, _selector: selector } = locator as unknown as { _frame?: Frame; _selector?: unknown };
    if (typeof selector !== 'string' || /enter-frame/.test(selector) || !frame || typeof frame.page !== 'function') return { page: locator.page(), scope: 'all' };
    return { page: locator.page(), scope: frame };
  }
  const frame = await (raw as import('playwright-core').ElementHandle).ownerFrame();
  if (!frame) throw new AgentError('The element is detached from its page: take a new handle or use a locator.');
  return { page: frame.page(), scope: frame };
}

export class Tabs {
  readonly membrane: Membrane;
  private readonly states = new WeakMap<object, PageState>();
  private readonly refs = new WeakMap<object, { id: string; page: object }>();
  private readonly downloads: Download[] = [];
  /** Scripts a page of this call asked for that got no answer (no DNS, refused, timed out):
   * what they draw is missing even from a call that passes (unansweredScriptsNotice). */
  readonly unansweredScripts = new Set<string>();
  /** Scripts a page of this call asked for that its server answered 4xx/5xx, by URL, with the
   * status (failedScriptsNotice). */
  readonly failedScripts = new Map<string, number>();
  /** Locators already named in a notice of a secret field typed into (learnTyped). */
  private readonly toldSecret = new Set<string>();
  /** Every page of this call (the spare it started with, its tabs, its popups). */
  private readonly pages = new Set<Page>();
  /** The pages the call used (opened, or that appeared during it), in order: the tabs its
   * evidence is about (a host's unused spare tab is not one). */
  private readonly used: Page[] = [];
  private spare: Page[];
  private readonly onPage = (p: Page) => this.adopt(p, true);
  /** A failed call's tab did not answer, so its secret fields were not read (evidence.ts). */
  unreadAtFailure = false;

  constructor(private readonly context: BrowserContext, private readonly opts: TabsOptions) {
    this.membrane = new Membrane({
      files: confinementFor(opts.pwd),
      allowFileUrls: !!opts.allowFileUrls,
      redactedContent: (raw, kind) => (kind === 'Page' ? redactedContent(raw as Page) : redactedFrameContent(raw as Frame)),
      htmlRedactor: async (raw, kind) => {
        const { page, scope } = await readScope(raw, kind);
        const secrets = await secretValues(page, scope);
        return (html) => redactHtml(html, secrets.own);
      },
      ariaRedactor: async (raw, kind) => {
        const { page, scope } = await readScope(raw, kind);
        const secrets = await secretValues(page, scope);
        return (text) => redact(text, secrets);
      },
      pageMember: (raw, prop) => this.pageMember(raw as Page, prop),
      learnSecretFields: async () => void (await this.readOpenTabsSecrets()),
      beforeLocatorAction: (raw, method) => this.checkRef(raw, method),
      beforeLocatorTyping: (raw, method, args) => this.learnTyped(raw, method, args),
      onListenerError: opts.onListenerError,
    });
    // A browser starts with one blank tab (and a session host keeps a fresh one ready): the
    // first openTab() takes it over instead of paying for a new one.
    // One blank tab at most is the spare; any other page at the start of a call is an earlier
    // call's leftover (a popup its page opened as the call ended, a CDP-made target): it is
    // closed before the script runs (leftovers()), never adopted (docs/SECURITY.md, "Each call
    // starts clean").
    const open = context.pages().filter((p) => !p.isClosed());
    this.spare = open.filter((p) => p.url() === 'about:blank').slice(0, 1);
    this.leftover = open.filter((p) => !this.spare.includes(p));
    for (const p of this.spare) this.adopt(p, false);
    context.on('page', this.onPage);
  }

  private readonly leftover: Page[];

  /** Closes what an earlier call left open (see the constructor); the script runs after. */
  async closeLeftovers(): Promise<void> {
    await Promise.all(this.leftover.splice(0).map((p) => p.close({ runBeforeUnload: false }).catch(() => undefined)));
  }

  /** Every page of the call gets the runner's dialog, download and evidence handling once. */
  private adopt(raw: Page, used: boolean): void {
    if (this.states.has(raw)) {
      if (used && !this.used.includes(raw)) this.used.push(raw);
      return;
    }
    const state: PageState = { snapshot: newSnapshotState(), consoleErrors: [], networkErrors: [] };
    this.states.set(raw, state);
    this.pages.add(raw);
    if (used) this.used.push(raw);
    useFastScreenshot(raw);
    raw.on('dialog', (d: Dialog) => this.onDialog(raw, d));
    raw.on('download', (d: Download) => void this.downloads.push(d));
    // The evidence of a failed call: the latest console errors and failed requests, recorded
    // by the runner (the script never sees these listeners).
    raw.on('console', (m) => {
      if (m.type() !== 'error') return;
      // Chrome's message for a failed load names no URL ("Failed to load resource:
      // net::ERR_NAME_NOT_RESOLVED"); the URL is the message's location.
      const url = /^Failed to load resource\b/.test(m.text()) ? m.location()?.url : undefined;
      keepLatest(state.consoleErrors, url ? `${m.text()} (${url})` : m.text());
    });
    raw.on('pageerror', (e) => keepLatest(state.consoleErrors, `uncaught: ${e.name ? `${e.name}: ` : ''}${e.message}`));
    // A request's method when it is not GET: an app's own `HEAD /` status check answered 404 read
    // as if the page itself had failed to load (trial V4, TiddlyWiki).
    const method = (m: string) => (m === 'GET' ? {} : { method: m });
    raw.on('requestfailed', (r) => {
      if (isBrowserIcon(r.url())) return;
      const error = r.failure()?.errorText ?? 'failed';
      keepLatest(state.networkErrors, { url: r.url(), ...method(r.method()), type: r.resourceType(), error });
      if (r.resourceType() === 'script' && gotNoAnswer(error) && this.unansweredScripts.size < 20) this.unansweredScripts.add(r.url());
    });
    raw.on('response', (r) => {
      if (r.status() >= 400 && !isBrowserIcon(r.url())) {
        keepLatest(state.networkErrors, { url: r.url(), ...method(r.request().method()), status: r.status(), type: r.request().resourceType() });
        if (r.request().resourceType() === 'script' && this.failedScripts.size < 20) this.failedScripts.set(r.url(), r.status());
      }
    });
  }

  /** Prints the dialog as evidence; dismisses it (Playwright's default policy) unless the
   * script handles dialogs itself: a listener or a waitForEvent("dialog") on the page or the
   * context besides this one (only the script adds those). */
  private onDialog(raw: Page, d: Dialog): void {
    if (this.membrane.revoked) return void d.dismiss().catch(() => undefined);
    // Chromium cuts a dialog's message at DIALOG_MESSAGE_CAP characters without a mark: a page
    // that pads its message past it hides a changed end, so the line says so, and `flows`
    // counts it as cut (driver/flows/expect.ts; pass 29, A29).
    const message = d.message();
    const cut = message.length >= DIALOG_MESSAGE_CAP ? ` [the browser cut this message at ${DIALOG_MESSAGE_CAP} characters]` : '';
    // A prompt's default value is what a person sees in its box: printed, and so compared by
    // `flows check` (pass 29, A29: "Status: OK" became "Status: DECLINED" unseen).
    const preset = d.type() === 'prompt' && d.defaultValue() ? ` default ${JSON.stringify(d.defaultValue())}` : '';
    this.opts.onLine(`DIALOG ${d.type()} ${JSON.stringify(message)}${preset}${cut}`, { sentinel: false });
    // Playwright's objects are EventEmitters; its typings leave listenerCount out.
    const count = (e: unknown) => (e as { listenerCount(ev: string): number }).listenerCount('dialog');
    if (count(raw) > 1 || count(this.context) > 0) {
      // The script answers it: until it does, it is the page's open dialog (evidence).
      const state = this.states.get(raw)!;
      state.openDialog = d;
      const answered = () => {
        if (state.openDialog === d) state.openDialog = undefined;
      };
      for (const m of ['accept', 'dismiss'] as const) {
        const original = d[m].bind(d);
        (d as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
          answered();
          return (original as (...x: unknown[]) => Promise<void>)(...a);
        };
      }
      return;
    }
    void d.dismiss().catch(() => undefined);
  }

  async open(value?: unknown): Promise<ScriptPage> {
    if (this.membrane.revoked) throw toAgentError(new AgentError('This call has ended.'));
    // Checked as what will be navigated to (url-policy.ts): a String object or toJSON value.
    const url = plainUrl(value);
    if (url !== undefined && typeof url !== 'string') throw new AgentError('openTab(url): url must be a string like "http://127.0.0.1:8080/".');
    const refusal = this.membrane.urlRefusal(url);
    if (refusal) throw refusal;
    const raw = this.spare.shift() ?? (await this.context.newPage().catch((e) => { throw toAgentError(e); }));
    this.adopt(raw, true);
    // Same default viewport as a Playwright launch (1280x720), so screenshots and responsive
    // checks do not depend on how the browser window was sized. (A host's spare tab has it.)
    const size = raw.viewportSize();
    if (size?.width !== DEFAULT_VIEWPORT.width || size?.height !== DEFAULT_VIEWPORT.height) {
      await raw.setViewportSize(DEFAULT_VIEWPORT).catch(() => undefined);
    }
    if (url && url !== 'about:blank') {
      try {
        await raw.goto(url);
      } catch (err) {
        throw toAgentError(err);
      }
    }
    return this.membrane.wrap(raw) as ScriptPage;
  }

  /** The page behind a Page the script holds, or an actionable error. */
  private pageOf(pg: unknown, fn: string): Page {
    const raw = this.membrane.rawOf(pg) as Page | undefined;
    if (!raw || !this.states.has(raw) || typeof (raw as { goto?: unknown }).goto !== 'function') {
      throw new AgentError(`${fn}: that is not a tab of this call. Pass a Page returned by openTab().`);
    }
    return raw;
  }

  async close(pg: unknown): Promise<void> {
    if (this.membrane.revoked) return;
    const raw = this.pageOf(pg, 'closeTab');
    // Closed for the script from now on (its evidence too), whenever the target goes.
    const at = this.used.indexOf(raw);
    if (at >= 0) this.used.splice(at, 1);
    // Not awaited: the tab is already unusable from the script, and waiting for the target to
    // be destroyed would only add a round trip to every call.
    if (!raw.isClosed()) void raw.close().catch(() => undefined);
  }

  snapshot(pg: unknown, opts?: SnapshotOptions) {
    const raw = this.pageOf(pg, 'snapshot');
    return takeSnapshot(raw, this.states.get(raw)!.snapshot, opts ?? {});
  }

  /** `pg.locator(...)` with refs, and `pg._sendToTarget(...)`; undefined for every other member. */
  private pageMember(raw: Page, prop: string): unknown {
    if (prop === 'locator') {
      return (selector: unknown, options?: unknown) => {
        const m = typeof selector === 'string' ? REF_SELECTOR.exec(selector.trim()) : null;
        if (!m) return this.membrane.wrap(raw.locator(selector as string, this.membrane.unwrap(options) as never));
        // Main-frame refs print as eN; Playwright knows them by its per-document name (f2e5).
        const loc = raw.locator(`aria-ref=${playwrightRef(this.states.get(raw)!.snapshot, m[1])}`);
        this.refs.set(loc, { id: m[1], page: raw });
        return this.membrane.wrap(loc);
      };
    }
    if (prop === '_sendToTarget') return (method: unknown, params?: unknown) => this.sendToTarget(raw, method, params);
    return undefined;
  }

  private async sendToTarget(raw: Page, method: unknown, params?: unknown): Promise<unknown> {
    if (this.membrane.revoked) throw new AgentError('This call has ended.');
    // Plain data, the catalog's CDP allow-list, file: URLs and local paths: membrane.ts.
    const safe = await this.membrane.checkedCdp(method, params);
    const state = this.states.get(raw)!;
    // Page.enable first: without it Chromium accepts Page.addScriptToEvaluateOnNewDocument on
    // a fresh session but never runs the script (the cookbook's console hook relies on it).
    state.cdp ??= this.context.newCDPSession(raw).then(async (s) => {
      await s.send('Page.enable').catch(() => undefined);
      return s;
    });
    try {
      // What the browser answers is the page's data (a Runtime.evaluate result): marked (output.ts).
      return defuseSentinel(await (await state.cdp).send(safe.method as never, safe.params as never));
    } catch (err) {
      throw new AgentError(`CDP ${safe.method} failed: ${(err as Error).message.split('\n')[0]}. Check the method name and params against the Chrome DevTools Protocol.`);
    }
  }

  /**
   * A value the script types into a secret field is a seen secret before it is typed: a page
   * can echo it while it is typed (an `input` handler's alert, which prints as a DIALOG line),
   * before any read has seen the field (passes 28-29, A28-A29). The locator's own words first
   * (`getByLabel("API token")`, `#password`, a ref whose snapshot line reads `textbox
   * "Password"`: no round trip); else the element it reaches is asked (a password input, a
   * one-time-code or card `autocomplete`, a CSS mask), within TYPED_CHECK_MS.
   */
  private learnTyped(loc: object, method: string, args: readonly unknown[]): Promise<void> | undefined {
    if (!TYPING.has(method) || typeof args[0] !== 'string' || args[0].length < 3) return undefined;
    const value = args[0];
    const ref = this.refs.get(loc);
    const described = ref ? this.states.get(ref.page)?.snapshot.refs.get(ref.id) : (loc as { _selector?: unknown })._selector;
    if (typeof described === 'string' && isSecretField({ hints: [described] }, SECRET_RULES)) {
      learnSecrets([value]);
      return undefined;
    }
    return reachesSecretField(loc as import('playwright-core').Locator, TYPED_CHECK_MS).then((secret) => {
      if (!secret) return;
      learnSecrets([value]);
      // Nothing in the script said so (trials V5, V6: an account name typed into a field whose
      // placeholder named a card was cut from every later line, and nothing said why).
      const named = ref ? `locator("${ref.id}")` : String(loc).slice(0, 160);
      if (this.toldSecret.has(named)) return;
      this.toldSecret.add(named);
      this.opts.onNotice?.(`gstack: ${named} reaches a field the page marks as secret (by its type, autocomplete, a CSS mask, or a word in its name, id, label or placeholder): what is typed there is cut from this call's output as [redacted].`);
    });
  }

  /** Before a ref locator acts: the ref must come from a snapshot of this page in this call,
   * and its element must still exist (aria-ref resolution answers at once when it is gone). */
  private checkRef(loc: object, method: string): Promise<void> | undefined {
    const ref = this.refs.get(loc);
    if (!ref || !REF_ACTIONS.has(method)) return undefined;
    const state = this.states.get(ref.page)!.snapshot;
    return (async () => {
      const desc = state.refs.get(ref.id);
      if (!desc) {
        throw new AgentError(
          state.snapshots === 0
            ? `Ref ${ref.id} is unknown: this page has no snapshot yet in this script. Take one with snapshot(pg, { interactive: true }) and use a ref from its tree.`
            : `Ref ${ref.id} does not appear in any snapshot of this page. Take a new snapshot and use a ref from its tree.`,
          'STALE_REF',
        );
      }
      const n = await (loc as import('playwright-core').Locator).count().catch(() => 0);
      if (n === 0) throw new AgentError(`Ref ${ref.id} is stale — the element (${desc}) no longer exists. Take a new snapshot.`, 'STALE_REF');
    })();
  }

  /**
   * The evidence of a failed call (driver/runtime/evidence.ts): for each tab the call used that is
   * still open, its URL, title, a screenshot under pwd, the latest console errors and failed
   * requests, and a dialog the script left unanswered (dismissed, so the screenshot can be
   * taken). All tabs at once, within EVIDENCE_BUDGET_MS; a page that does not answer a trivial
   * evaluate in PAGE_ANSWER_MS is hung and gets a note instead of a title and screenshot.
   * Raw pages: it runs after the script's view is revoked. Never throws.
   */
  /** The open tabs' URLs and failed requests, asking the pages nothing: what a failed call
   * without evidence (--no-evidence) still reads its sign-in hint from. */
  whereTabsAre(): Array<Pick<TabEvidence, 'url' | 'networkErrors'>> {
    return this.used.filter((p) => !p.isClosed()).map((raw) => ({ url: raw.url(), networkErrors: [...(this.states.get(raw)?.networkErrors ?? [])] }));
  }

  async collectEvidence(budgetMs = EVIDENCE_BUDGET_MS): Promise<TabEvidence[]> {
    const until = Date.now() + budgetMs;
    const left = () => Math.max(0, until - Date.now());
    const open = this.used.filter((p) => !p.isClosed());
    return Promise.all(
      open.map(async (raw, i): Promise<TabEvidence> => {
        const state = this.states.get(raw)!;
        const ev: TabEvidence = {
          tab: i + 1,
          url: raw.url(),
          title: null,
          screenshot: null,
          consoleErrors: [...state.consoleErrors],
          networkErrors: [...state.networkErrors],
          dialog: null,
        };
        // Learn the page's secret field values first: the evidence is cut of them wherever the
        // page copied one (its title, URL, a console message; output.ts seenSecrets).
        // (This tab's own: each open tab gets its own turn here.)
        const learned = await within(secretValues(raw, undefined, { otherTabs: false }).then(() => true, () => false), Math.min(PAGE_ANSWER_MS, left()), false);
        if (!learned) {
          withheldUnread(ev, this.membrane.scriptOrigins);
          this.unreadAtFailure = true;
        }
        const dialog = state.openDialog;
        if (dialog) {
          ev.dialog = { type: dialog.type(), message: dialog.message() };
          state.openDialog = undefined;
          await within(dialog.dismiss(), Math.min(PAGE_ANSWER_MS, left()), undefined);
        }
        const title = await within(raw.evaluate(() => document.title) as Promise<string | undefined>, Math.min(PAGE_ANSWER_MS, left()), undefined);
        if (title === undefined) {
          ev.skipped = left() === 0 ? OUT_OF_TIME_NOTE : HUNG_NOTE;
          return ev;
        }
        ev.title = title;
        // A name no file of the call has: the script's own file, or an --in file (read-only,
        // the user's), is never replaced by the evidence (pass 30, C30).
        const file = freeName(this.opts.pwd, `evidence-tab-${i + 1}`, '.png');
        // The screenshot and what can be clicked or filled, by role and name (secret values
        // cut, as in any snapshot), side by side in the time left: one taken after the other, a
        // screenshot slow on a loaded machine left no time for the snapshot, the part an agent
        // reads (trial V19: neither came, and the agent spent a call to see the page). A fresh
        // snapshot state: the page's own diffs and refs are the script's.
        // The page's visible alerts too: an app's own words for what went wrong (trial V21: "Too
        // many requests" was only in the screenshot). Page text: only from a tab whose secret
        // fields were read, so a copy of one in it is cut.
        const [shot, snap, alerts] = await Promise.all([
          within(raw.screenshot({ path: file, timeout: Math.max(1, left()) }).then(() => file), left(), null),
          learned ? within(takeSnapshot(raw, newSnapshotState(), { interactive: true }).then((r) => r.tree), left(), null) : Promise.resolve(null),
          learned ? within(raw.evaluate(readAlerts, ALERT_BOUNDS).catch(() => null), left(), null) : Promise.resolve(null),
        ]);
        ev.screenshot = shot;
        if (snap) ev.snapshot = evidenceSnapshot(snap);
        if (alerts?.length) ev.alerts = alerts;
        // No snapshot said nothing (trial V7): the reader looked for one the docs promise.
        if (!shot && !snap) ev.skipped = OUT_OF_TIME_NOTE;
        else if (!learned) ev.skipped = `no snapshot: the page's secret fields could not be read within ${PAGE_ANSWER_MS} ms (a busy or very large page), so nothing that could hold one is shown; take snapshot(pg, { interactive: true }) in the script for one`;
        else if (!snap) ev.skipped = `no snapshot: it did not finish in the time left (evidence is bounded to ${EVIDENCE_BUDGET_MS} ms in all); take snapshot(pg, { interactive: true }) in the script for one`;
        else if (!shot) ev.skipped = `no screenshot: it did not finish in the time left (evidence is bounded to ${EVIDENCE_BUDGET_MS} ms in all); take pg.screenshot() in the script for one`;
        return ev;
      }),
    );
  }

  /**
   * A failed call without evidence (`--no-evidence`) still learns each open tab's secret field
   * values, so the `[error]` line is cut of them (an error may quote an element that holds a
   * copy; pass 23, A23). True when every tab answered within the bound. Never throws.
   */
  async learnSecretsOnFailure(): Promise<boolean> {
    if (!(await this.readOpenTabsSecrets())) this.unreadAtFailure = true;
    return !this.unreadAtFailure;
  }

  /** Reads the secret field values of every open tab the call used (output.ts then cuts them
   * from every later line), each bounded by PAGE_ANSWER_MS; false when a tab did not answer. */
  private async readOpenTabsSecrets(): Promise<boolean> {
    const open = this.used.filter((p) => !p.isClosed());
    const answered = await Promise.all(open.map((raw) => within(secretValues(raw, undefined, { otherTabs: false }).then(() => true, () => false), PAGE_ANSWER_MS, false)));
    return answered.every(Boolean);
  }

  /** The script's calls refuse from now on (a script that outlives its call). */
  revoke(): void {
    this.membrane.revoke();
  }

  /** The end of a call in a browser that outlives it: the call's tabs, popups and downloads
   * are closed, and what it changed on the context is undone. `beforeClose` runs before the
   * tabs close, once a new tab is no longer the call's (a session host opens one there: see
   * driver/hosts/session-browser.ts), and only when a tab of the call is still open (one whose
   * process that tab would hold) and the call left no init script or binding, which a new tab
   * would run before they are undone, and only when every open tab's page answers within
   * PAGE_ANSWER_MS: a page stuck in its own JavaScript (an endless loop) would take the new tab
   * into its renderer process, which then spins on until the host gives up on the browser
   * (seconds of a core, and a browser restart for the next call); closed alone, its tab goes
   * in half a second and the process with it. Never throws. */
  async cleanUp(beforeClose?: () => Promise<void>): Promise<void> {
    this.context.off('page', this.onPage);
    this.membrane.revoke();
    const open = [...this.pages].filter((p) => !p.isClosed());
    if (beforeClose && open.length && !this.membrane.hasDisposables && (await allAnswer(open))) await beforeClose().catch(() => undefined);
    // The tabs close first, then the context's changes are undone: Playwright applies a context
    // setting (offline, extra headers) to every page and, when one of them is closing (a
    // closeTab the script did not wait for), fails and puts the old setting back, so the next
    // call would start offline.
    await Promise.all([
      ...[...this.pages].map((p) => p.close({ runBeforeUnload: false }).catch(() => undefined)),
      ...this.downloads.splice(0).map(async (d) => {
        await d.cancel().catch(() => undefined);
        await d.delete().catch(() => undefined);
      }),
    ]);
    await this.membrane.cleanUp();
  }

  /** A screenshot with the ref label of every interactive element drawn on the page. */
  async annotatedScreenshot(pg: unknown): Promise<{ base64Image: string }> {
    const raw = this.pageOf(pg, 'annotatedScreenshot');
    const state = this.states.get(raw)!.snapshot;
    // Its own snapshot must not become the "previous snapshot" the script's next diff uses.
    const { previousTree, previousModal } = state;
    const snap = await takeSnapshot(raw, state, { interactive: true });
    Object.assign(state, { previousTree, previousModal });
    const refs = [...snap.tree.matchAll(/\[ref=((?:f\d+)?e\d+)\]/g)].map((m) => m[1]).slice(0, 300);
    const boxes = (
      await Promise.all(
        refs.map(async (ref) => {
          const box = await raw.locator(`aria-ref=${playwrightRef(state, ref)}`).boundingBox({ timeout: 1000 }).catch(() => null);
          return box ? { ref, ...box } : null;
        }),
      )
    ).filter((b): b is { ref: string; x: number; y: number; width: number; height: number } => !!b);
    const overlayId = `__gstack_annot_${Math.random().toString(36).slice(2)}`;
    const labels = placeLabels(boxes);
    try {
      await raw.evaluate(
        ({ boxes, labels, overlayId }) => {
          const host = document.createElement('div');
          host.id = overlayId;
          host.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647';
          for (const b of boxes) {
            const frame = document.createElement('div');
            frame.style.cssText = `position:fixed;left:${b.x}px;top:${b.y}px;width:${b.width}px;height:${b.height}px;outline:2px solid #e11d48;box-sizing:border-box`;
            host.append(frame);
          }
          // Labels after every frame, so no frame's outline crosses a label.
          for (const l of labels) {
            const tag = document.createElement('div');
            tag.textContent = l.ref;
            tag.style.cssText = `position:fixed;left:${l.x}px;top:${l.y}px;background:#e11d48;color:#fff;font:bold 11px/14px monospace;padding:0 3px;border-radius:2px;white-space:nowrap`;
            host.append(tag);
          }
          document.documentElement.appendChild(host);
        },
        { boxes, labels, overlayId },
      );
      const png = await raw.screenshot({ type: 'png' });
      return { base64Image: png.toString('base64') };
    } catch (err) {
      throw toAgentError(err);
    } finally {
      await raw.evaluate((id) => document.getElementById(id)?.remove(), overlayId).catch(() => undefined);
    }
  }
}


/** Whether every page answers a trivial evaluate within PAGE_ANSWER_MS. A page that is closing
 * or navigating (the evaluate fails) counts as answering: only a stuck one does not. */
async function allAnswer(pages: Page[]): Promise<boolean> {
  const answers = await Promise.all(pages.map((p) => within(p.evaluate('1').then(() => true, () => true), PAGE_ANSWER_MS, false)));
  return answers.every(Boolean);
}
