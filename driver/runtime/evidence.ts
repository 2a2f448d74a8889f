// Evidence on failure (docs/ARCHITECTURE.md, "Evidence on failure"): when a call fails, what
// each tab of the call showed at that moment, so an agent does not spend another call to look.
//
// Owns: the shape of one tab's evidence (what `--json` carries as `evidence`), the labelled
// lines it prints as (before the `[error]` line, which stays last), the time bound, and the
// Aside side: a wrapper around the script that collects what Aside allows in the script
// itself and hands it back on one line only the runner can recognise. The Chromium side
// (what the runner records while the call runs, and the collection before the tabs close) is
// tabs.ts's `Tabs`; when evidence is taken is the engines'.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EVIDENCE_HOOK_SOURCE } from '../../cookbook/snippets.js';
import { SENTINEL } from '../catalog.gen.js';
import { cutSeenSecrets, defuseSentinel } from './output.js';

/** What one open tab of a failed call showed. */
export interface TabEvidence {
  /** 1-based, in the order the call opened its tabs. */
  tab: number;
  url: string;
  /** null when the page did not answer (see `skipped`). */
  title: string | null;
  /** The screenshot's path under the call's `pwd` (runScript reports the `--out` copy). */
  screenshot: string | null;
  /** The last console errors and uncaught page errors, oldest first. */
  consoleErrors: string[];
  /** The last failed requests: 4xx/5xx answers and requests that got none. */
  networkErrors: NetworkError[];
  /** A dialog that was open when the call failed (dismissed to take the screenshot). */
  dialog: { type: string; message: string } | null;
  /** The text of the page's visible alerts and status messages (`role=alert`, `status`,
   * `aria-live` regions), outermost first, at most ALERT_BOUNDS: an app's own word for what
   * went wrong ("Too many requests"), which an interactive snapshot leaves out (trial V21).
   * Chromium only, and only from a tab whose secret fields were read. */
  alerts?: string[];
  /** The page's interactive snapshot (what can be clicked or filled, by role and name), at
   * most EVIDENCE_SNAPSHOT_LINES lines, secret values cut: what an agent takes a snapshot for
   * after a locator failed (two trial agents did). Chromium only; null when not taken. */
  snapshot?: string | null;
  /** Why part of the evidence is missing (a hung page, the time bound). */
  skipped?: string;
}

/** `dir/stem.ext`, or `dir/stem-2.ext` and so on when that name is taken: the name of an
 * evidence screenshot, in dir (Tabs.collectEvidence) and in an `--out` folder (run-script.ts). */
export function freeName(dir: string, stem: string, ext: string): string {
  let file = join(dir, stem + ext);
  for (let n = 2; existsSync(file) && n < 100; n++) file = join(dir, `${stem}-${n}${ext}`);
  return file;
}

/** How many of a tab's visible alerts the evidence keeps, and how long each may be. */
export const ALERT_BOUNDS = { count: 5, chars: 300 };

/** The visible alerts and status messages of a page (TabEvidence.alerts), read in the page
 * (`page.evaluate(readAlerts, ALERT_BOUNDS)`): the outermost of each nested set, their rendered
 * text (innerText: what a person sees, no field values), empty and hidden ones left out. */
export function readAlerts(bounds: typeof ALERT_BOUNDS): string[] {
  const sel = '[role=alert], [role=alertdialog], [role=status], [aria-live=assertive], [aria-live=polite]';
  const out: string[] = [];
  for (const el of Array.from(document.querySelectorAll(sel))) {
    if (el.parentElement?.closest(sel)) continue;
    const visible = (el as HTMLElement).checkVisibility?.({ opacityProperty: true, visibilityProperty: true } as never) ?? true;
    const text = ((el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim();
    if (!visible || !text) continue;
    // A live region with no alert or status role that holds a table or a form field is part of
    // the page an app keeps up to date, not a notice (trial V34: Swagger UI's table of an
    // operation's documented responses read as a live "200 OK").
    if (!el.matches('[role=alert], [role=alertdialog], [role=status]') && el.querySelector('table, input, select, textarea')) continue;
    out.push(text.slice(0, bounds.chars));
    if (out.length >= bounds.count) break;
  }
  return out;
}

/** How many lines of a tab's interactive snapshot the evidence keeps. */
export const EVIDENCE_SNAPSHOT_LINES = 40;

/** Lines of an open menu or list of options: they come last on a page, and the step that failed
 * was likely about them (trial V5: the menu item an agent needed was in the part left out).
 * An open dialog is kept whole (DIALOG_LINE). An option without a ref is a closed `<select>`'s
 * chosen one, listed under it on every page: no list is open (trial V34: the cut said "the open
 * dialog's, menu's or list's lines follow" over a select's `- option "application/json"`). */
const OVERLAY_LINE = /^\s*- (?:menuitem|menuitemcheckbox|menuitemradio|listbox)\b|^\s*- option\b.*\[ref=/;
/** An open dialog's own line: its whole subtree is kept with it (trial V24: a dialog's text box
 * was in the part left out, under the dialog's line that was kept). */
const DIALOG_LINE = /^(\s*)- (?:dialog|alertdialog)\b/;

/** The indexes of the lines kept past the cut: each menu item, option or list line, and each
 * open dialog with every line indented under it. */
function overlayLines(lines: string[]): number[] {
  const out: number[] = [];
  let dialogIndent = -1;
  lines.forEach((l, i) => {
    const indent = l.length - l.trimStart().length;
    if (dialogIndent >= 0 && indent <= dialogIndent) dialogIndent = -1;
    const dialog = DIALOG_LINE.exec(l);
    if (dialog && dialogIndent < 0) dialogIndent = dialog[1].length;
    if (dialogIndent >= 0 || OVERLAY_LINE.test(l)) out.push(i);
  });
  return out;
}
/** Of the page's top lines, at least this many stay beside an open menu's. */
const TOP_LINES_KEPT = 10;
/** Of a page with no open menu, its last lines kept after the cut. */
const TAIL_LINES_KEPT = 15;

/**
 * A snapshot tree cut to EVIDENCE_SNAPSHOT_LINES lines (and at most two lines saying what it
 * left out): without the `/url:` lines of links that have a name (a link-heavy page's sidebar took two lines a link,
 * and the evidence is about what can be acted on), and with an open menu's or option list's
 * lines kept past the cut, after the page's first lines; with none, the page's last lines.
 */
export function evidenceSnapshot(tree: string): string {
  // A link's /url line is kept where it is all that tells the link (an icon link with no name;
  // trial V9: Node-RED's sidebar tabs read `link ""`).
  const all = tree.split('\n').filter((l) => l.trim());
  const lines = all.filter((l, i) => !/^\s*- \/url:/.test(l) || /^\s*- link(?: "")?(?: \[|:?$)/.test(all[i - 1] ?? ''));
  if (lines.length <= EVIDENCE_SNAPSHOT_LINES) return lines.join('\n');
  const forAll = `take snapshot(pg, { interactive: true }) for all`;
  const marked = overlayLines(lines);
  // The overlay lines past the page's top lines, whose number shrinks as more are kept.
  let top = EVIDENCE_SNAPSHOT_LINES;
  let overlay: number[] = [];
  for (;;) {
    const next = marked.filter((i) => i >= top).slice(0, EVIDENCE_SNAPSHOT_LINES - 1 - TOP_LINES_KEPT);
    const nextTop = EVIDENCE_SNAPSHOT_LINES - 1 - next.length;
    if (!next.length || nextTop === top) {
      overlay = next;
      break;
    }
    top = nextTop;
  }
  // No open menu: the page's first lines and its last, where an app draws what it opened
  // last (trial V11: Ghost's settings modal, a plain `div` with no dialog role, was all in the
  // part left out, under 60 lines of the page behind it).
  // An open menu or dialog within the first lines, reaching below where the last lines start:
  // those first lines are kept whole, not cut through it.
  const head = EVIDENCE_SNAPSHOT_LINES - TAIL_LINES_KEPT;
  if (!overlay.length && marked.some((i) => i >= head)) {
    return [...lines.slice(0, EVIDENCE_SNAPSHOT_LINES), `[${lines.length - EVIDENCE_SNAPSHOT_LINES} lines left out (${forAll})]`].join('\n');
  }
  if (!overlay.length) {
    return [
      ...lines.slice(0, head),
      `[${lines.length - EVIDENCE_SNAPSHOT_LINES} lines left out (${forAll}); the page's last lines follow, where an app draws a modal or a notice it opened]`,
      ...lines.slice(-TAIL_LINES_KEPT),
    ].join('\n');
  }
  const rest = lines.length - top - overlay.length;
  return [
    ...lines.slice(0, top),
    `[${overlay[0] - top} lines left out (${forAll}); the open dialog's, menu's or list's lines follow]`,
    ...overlay.map((i) => lines[i]),
    ...(rest > overlay[0] - top ? [`[${rest} lines left out in all]`] : []),
  ].join('\n');
}

export interface NetworkError {
  url: string;
  /** A method other than GET. */
  method?: string;
  status?: number;
  type?: string;
  error?: string;
  /** How many more requests to the same origin failed the same way (foldFailures). */
  moreFromSameOrigin?: number;
}

/** Evidence of all tabs together takes at most this long (issue 25: "about 1.5 s in all"):
 * a failed call must still end close to its deadline. */
export const EVIDENCE_BUDGET_MS = 1500;
/** A page that does not evaluate `document.title` in this long is busy in its own JavaScript
 * (an endless loop) or gone: its title and screenshot are skipped with a note. */
export const PAGE_ANSWER_MS = 400;
/** How many of the latest console errors and failed requests a tab's evidence shows. */
export const EVIDENCE_KEEP = 10;
/** How many a tab records before they are folded (foldFailures) and cut to EVIDENCE_KEEP: an
 * offline app's dozen requests to its font and CDN hosts would otherwise push out the one
 * failure that matters. */
export const EVIDENCE_RECORD = 60;

export const HUNG_NOTE = `the page did not answer within ${PAGE_ANSWER_MS} ms (busy in its own JavaScript, e.g. an endless loop, or crashed): no title or screenshot`;
export const OUT_OF_TIME_NOTE = `out of time (evidence is bounded to ${EVIDENCE_BUDGET_MS} ms in all)`;

/** Resolves to `fallback` when `p` has not settled within `ms` (or rejects). */
export function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.catch(() => fallback),
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(fallback), ms);
      timer.unref?.();
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The labelled lines of the evidence, printed just before the `[error]` line. One block per
 * open tab (none when no tab was open); `artifactPath` maps a screenshot under `pwd` to the path the reader can open (its
 * `--out` copy). Page text (title, messages) is folded onto one line or JSON-quoted, so a page
 * cannot start a line of its own.
 */
export function evidenceLines(tabs: TabEvidence[], artifactPath: (p: string) => string = (p) => p): string[] {
  const out: string[] = [];
  for (const t of tabs) {
    out.push(`EVIDENCE_START tab ${t.tab} of ${tabs.length}`);
    out.push(`URL=${oneLineText(t.url)}`);
    if (t.title !== null) out.push(`TITLE=${oneLineText(t.title)}`);
    if (t.screenshot) out.push(`ARTIFACT ${artifactPath(t.screenshot)}`);
    out.push(`CONSOLE_ERRORS=${JSON.stringify(t.consoleErrors)}`);
    out.push(`NETWORK_ERRORS=${JSON.stringify(t.networkErrors)}`);
    if (t.dialog) out.push(`DIALOG ${t.dialog.type} ${JSON.stringify(t.dialog.message)} (open when the call failed; dismissed for the screenshot)`);
    if (t.alerts?.length) out.push(`ALERTS=${JSON.stringify(t.alerts)}`);
    // Each line a snapshot line (`- button "Pay" [ref=e4]`, names JSON-quoted): no page text
    // starts a line of its own.
    if (t.snapshot) out.push('SNAPSHOT_START', ...t.snapshot.split('\n').map((l) => `  ${l}`), 'SNAPSHOT_END');
    if (t.skipped) out.push(`EVIDENCE_SKIPPED ${t.skipped}`);
    out.push('EVIDENCE_END');
  }
  return out;
}

/** What to do next when the evidence shows the page could not load what it needs (a request
 * that got no answer: no network on this machine, a CDN down) or a script of its own broke (a
 * ReferenceError, often from the same cause). Added to the `[error]` line, whose own hint (a
 * snapshot, a locator) would otherwise send the agent after the wrong cause. Empty otherwise. */
export function evidenceHint(tabs: TabEvidence[], error = '', call: { ephemeral?: boolean } = {}): string {
  // An error that says to take a snapshot (a locator that found nothing, or too much): the
  // evidence has one.
  const locatorMissed = LOCATOR_MISSED.test(error);
  const snapshotHint = locatorMissed && tabs.some((t) => t.snapshot) ? ' The evidence above has it: what can be clicked or filled on the page, by role and name, between SNAPSHOT_START and SNAPSHOT_END.' : '';
  // The app asked its own server for the thing and was told it does not exist: an app page for
  // a missing item loads fine (200) and then shows nothing to act on (trial V1, Verdaccio).
  // Named, so that a request every page of the app makes (a check that always 404s; trial V14,
  // Signal K) can be told from the one for what the call looked for.
  const notFound = tabs.flatMap((t) => ownRequestsAnswered(t, [404, 410]));
  const named = [...new Set(notFound.map((n) => `${n.method ?? 'GET'} ${pathOf(n.url)}`))];
  const missingHint = locatorMissed && notFound.length ? ` The page's own request${named.length === 1 ? ' was' : 's were'} answered ${notFound.some((n) => n.status === 410) ? '404/410' : '404'} (${named.slice(0, 2).join(', ')}${named.length > 2 ? ` and ${named.length - 2} more` : ''}): if that is what you looked for, it may not exist. Check the id, name or URL you opened.` : '';
  // Asked to sign in: a page of its own origin answered 401/403, or the tab sits on a sign-in
  // page (trial V6: a saved flow run on a fresh profile failed on a locator, its URL …/login).
  const signIn = signInHint(tabs, error, call);
  const page = pageHint(tabs);
  // Another site's script is worth a word only where the call waited for something that did
  // not come (a locator that missed, any wait that ran out), not on every error of a page that
  // always lacks it offline (trial V11: it trailed even "Ref e999 does not appear").
  const waitedInVain = locatorMissed || /\bwithin [\d.]+ m?s\b/.test(error);
  // The app's own words for what went wrong, when the call waited for what did not come (trial
  // V24: "Category already exists" was in ALERTS=, and the hint spoke only of a slow page).
  const alertsHint = waitedInVain && tabs.some((t) => t.alerts?.length) ? " The page's own messages are in ALERTS= above: they may say why." : '';
  return page.strong + missingHint + signIn + alertsHint + snapshotHint + (waitedInVain ? page.weak : '');
}


/** Asked to sign in: a tab sits on a sign-in page or its own origin answered 401/403, and the
 * call's error is a locator that missed. From the tabs' URLs and failed requests only, so a call
 * without evidence (--no-evidence) says it too. An --ephemeral call starts signed out every
 * time: a login in another call cannot help it (trial V13). */
export function signInHint(tabs: Array<Pick<TabEvidence, 'url' | 'networkErrors'>>, error: string, call: { ephemeral?: boolean } = {}): string {
  if (!LOCATOR_MISSED.test(error) || !tabs.some(signInWall)) return '';
  // A locator for the sign-in form itself is the sign-in under way, not a call that needed one
  // (trials V16, V17: getByLabel('Password') missed, and was told to sign in first).
  const target = /^(?:Element not found for|The element) (.*?) (?:within|exists|is disabled)/.exec(error)?.[1] ?? '';
  if (/pass\s?(?:word|code|phrase)|user\s?name|e-?mail|log\s?in|sign\s?in|one-time|otp/i.test(target)) return '';
  const asked = ' The page asks to sign in (a 401/403 answer, or a sign-in page\'s URL)';
  return call.ephemeral
    ? `${asked}: an --ephemeral call starts signed out every time. Sign in within this call (fill the sign-in form with a test password the user gave you, from params), or run without --ephemeral in a --session that is signed in there.`
    : `${asked}: this session is not signed in there. Sign in first in this session (gstack login URL, or a call that fills the sign-in form with a test password the user gave you, from params), then run this again with the same --session.`;
}

/** An error that says to take a snapshot: a locator that found nothing, or too much. */
const LOCATOR_MISSED = /take a (?:new )?snapshot/i;

/** A URL's origin; undefined for what is no URL. */
function originOf(u: string): string | undefined {
  try {
    return new URL(u).origin;
  } catch {
    return undefined;
  }
}

/** Playwright's resource types of the page's own requests: its document, fetch and XHR. */
const OWN_REQUEST_TYPES = ['document', 'fetch', 'xhr'];
/** The page's own requests (its document, a fetch, an XHR, to its origin) that got one of these statuses. */
function ownRequestsAnswered(t: Pick<TabEvidence, 'url' | 'networkErrors'>, statuses: number[]): NetworkError[] {
  const own = originOf(t.url);
  return own ? t.networkErrors.filter((n) => n.status !== undefined && statuses.includes(n.status) && OWN_REQUEST_TYPES.includes(n.type ?? '') && originOf(n.url) === own) : [];
}

/** A URL's path and query, cut to 80 characters; the URL itself when it is none. */
function pathOf(u: string): string {
  try {
    const url = new URL(u);
    const p = url.pathname + url.search;
    return p.length > 80 ? `${p.slice(0, 80)}…` : p;
  } catch {
    return u.slice(0, 80);
  }
}

/** The tab is on a sign-in page, or its own origin refused it (401/403). */
function signInWall(t: Pick<TabEvidence, 'url' | 'networkErrors'>): boolean {
  // A single-page app's route may sit in the hash (Ghost's admin: /ghost/#/signin/verify).
  const route = (u: URL) => u.pathname + (u.hash.startsWith('#/') ? u.hash.slice(1) : '');
  const onSignInPage = originOf(t.url) !== undefined && /(?:^|\/)(?:log-?in|sign-?in|auth|sso)(?:\/|$)/i.test(route(new URL(t.url)));
  return onSignInPage || ownRequestsAnswered(t, [401, 403]).length > 0;
}

/** A request's failure that means no server answered it: not one the page or a route aborted, a
 * certificate or a blocked response. The one test for "got no answer", in the evidence's hint
 * and in the notice a passing call gives (driver/runtime/tabs.ts). */
export function gotNoAnswer(error: string | undefined): boolean {
  return /ERR_(?:NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED|CONNECTION_(?:REFUSED|RESET|CLOSED|TIMED_OUT|FAILED)|TIMED_OUT|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|NETWORK_CHANGED)\b/.test(error ?? '');
}

function pageHint(tabs: TabEvidence[]): { strong: string; weak: string } {
  // Only a script the page loads: a fetch of data or an image with no answer (an app's default
  // API on the internet) is common and rarely why a locator failed, and the hint sent a trial
  // agent after it. (A request the page itself cancelled, ERR_ABORTED, or a route aborted is
  // no sign of trouble.)
  const unanswered = tabs.flatMap((t) => t.networkErrors.filter((n) => n.status === undefined && n.type === 'script' && gotNoAnswer(n.error)).map((n) => ({ url: n.url, own: originOf(n.url) === originOf(t.url) })));
  const broken = tabs.some((t) => t.consoleErrors.some((m) => /\b(?:ReferenceError|is not defined)\b/.test(m)));
  const route = 'answer its URL with pg.route before goto (the browse reference, "A page whose third-party scripts cannot load")';
  // The page's own script, or a library its code then missed: the page is likely half-built.
  if (broken || unanswered.some((u) => u.own)) {
    return { strong: ` The page itself failed too (${[unanswered.length && 'a script request with no answer in NETWORK_ERRORS=', broken && 'a ReferenceError in CONSOLE_ERRORS='].filter(Boolean).join(', ')} above): a script it needs may not have loaded. If so, ${route}.`, weak: '' };
  }
  if (!unanswered.length) return { strong: '', weak: '' };
  // Only another site's scripts (a widget, an analytics tag, a font loader of an app served
  // offline) and nothing broke: mostly not the cause, so said last and as a condition (trial
  // V10: Ghost's sign-up widget from a CDN was blamed for a typo in a selector).
  const hosts = [...new Set(unanswered.map((u) => hostOf(u.url)))].slice(0, 3).join(', ');
  return { strong: '', weak: ` Also: scripts from ${hosts} got no answer; if what you look for is drawn by one, ${route}.` };
}

/** A URL's host, or the URL itself. */
function hostOf(u: string): string {
  try {
    return new URL(u).host || u;
  } catch {
    return u;
  }
}

const NOT_READ = '(not shown: the page did not answer, so its secret fields could not be read)';

/** An error message without the page's words, for a call with a tab whose secret fields could
 * not be read (nothing of them can be cut, and the page may have copied one anywhere it writes):
 * each piece of page markup it quotes (Playwright quotes an element as
 * `<div id="ov" data-k="…">text</div>`) is reduced to its tag name (pass 23, A23), and the message
 * a page's own code threw inside `evaluate` (`Error: submit failed for <password>`, thrown just
 * before the page hung) is left out (pass 30, A30). The greedy match runs to the last of our own
 * closing words, so a page message that spells them too is still inside what is left out. */
export function withoutPageWords(message: string): string {
  return message
    .replace(/(threw inside the page: )[\s\S]*(\. It runs in the page \(not in the script\))/, `$1… ${NOT_READ}$2`)
    .replace(/<([a-zA-Z][\w-]*)\b[^<>]*>(?:[^<]{0,2000}?<\/\1>)?/g, `<$1 … ${NOT_READ}>`)
    // What covers a click, in the page's words (locator-reach.ts whatCovers).
    .replace(/(It is in [a-z]+)(?:"(?:[^"\\]|\\.)*"|,|whose buttons? (?:are|is)|and|; pg\.getByRole\("[a-z]+"\)\.getByRole\("button", \{ name: "(?:[^"\\]|\\.)*" \}\)\.click\(\) may close it|\s)*\./, `$1 … ${NOT_READ}.`);
}

/** Page text in evidence is cut to this many characters a string: evidence is printed outside
 * the `--max-output` cap, so its size must be its own. */
export const EVIDENCE_TEXT_MAX = 500;

/** Every string of the evidence is the page's (its title, URL, messages): bounded, and the
 * sentinel in it carries the page's mark, as in every other value from the page
 * (docs/SECURITY.md, "forge success"). */
const clip = (s: unknown): string => {
  const t = cutSeenSecrets(defuseSentinel(String(s ?? '')));
  return t.length > EVIDENCE_TEXT_MAX ? `${t.slice(0, EVIDENCE_TEXT_MAX)}… [${t.length - EVIDENCE_TEXT_MAX} more characters]` : t;
};

/** One tab's evidence as the runner reports it, whichever engine took it: every page string
 * bounded, the lists at most EVIDENCE_KEEP long (the Aside wrapper's line is parsed data). */
export function boundEvidence(t: TabEvidence): TabEvidence {
  const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]).slice(-EVIDENCE_KEEP) : []);
  t = foldFailures(t);
  return {
    tab: Number(t.tab) || 0,
    url: clip(t.url),
    title: t.title === null || t.title === undefined ? null : clip(t.title),
    screenshot: typeof t.screenshot === 'string' ? t.screenshot : null,
    consoleErrors: list<unknown>(t.consoleErrors).map(clip),
    networkErrors: list<NetworkError>(t.networkErrors).map((n) => ({
      ...n,
      url: clip(n?.url),
      ...(n?.error !== undefined ? { error: clip(n.error) } : {}),
      ...(n?.type !== undefined ? { type: clip(n.type) } : {}),
    })),
    dialog: t.dialog ? { type: clip(t.dialog.type), message: clip(t.dialog.message) } : null,
    ...(Array.isArray(t.alerts) && t.alerts.length ? { alerts: t.alerts.slice(0, ALERT_BOUNDS.count).map((a) => clip(a).slice(0, ALERT_BOUNDS.chars)) } : {}),
    ...(typeof t.snapshot === 'string' && t.snapshot ? { snapshot: t.snapshot.split('\n').slice(0, EVIDENCE_SNAPSHOT_LINES + 1).map(clip).join('\n') } : {}),
    ...(t.skipped ? { skipped: clip(t.skipped) } : {}),
  };
}

/**
 * Requests that got no answer, folded by origin: the latest of each (origin, resource type,
 * error) stays, with `moreFromSameOrigin` counting the others, and Chrome's console line for each
 * ("Failed to load resource: net::ERR_NAME_NOT_RESOLVED (URL)") likewise. An app served offline
 * asks a dozen font and CDN URLs of two or three hosts; listed one by one they pushed the
 * evidence that mattered out of its ten entries (trial V10, Ghost). An answered request (a 404,
 * a 500) is its own entry: each names a different thing the app asked for.
 */
export function foldFailures(t: TabEvidence): TabEvidence {
  const networkErrors = Array.isArray(t.networkErrors) ? t.networkErrors : [];
  const consoleErrors = Array.isArray(t.consoleErrors) ? t.consoleErrors : [];
  return {
    ...t,
    networkErrors: foldLatest(networkErrors, (n) => (n && n.status === undefined && typeof n.url === 'string' ? `${originOf(n.url) ?? n.url} ${n.type} ${n.error}` : undefined), (n, more) => ({ ...n, moreFromSameOrigin: more + (n.moreFromSameOrigin ?? 0) })),
    consoleErrors: foldLatest(consoleErrors, (m) => {
      const c = typeof m === 'string' ? /^Failed to load resource: (net::\S+) \((.+)\)$/.exec(m) : null;
      return c ? `${originOf(c[2]) ?? c[2]} ${c[1]}` : undefined;
    }, (m, more) => `${m} and ${more} more from ${originOf(/\((.+)\)$/.exec(m)?.[1] ?? '') ?? 'that origin'}`),
  };
}

/** Keeps the latest entry of each key (and every entry without one), in order; `more` marks a
 * kept entry with how many of its key were dropped. */
function foldLatest<T>(list: T[], keyOf: (x: T) => string | undefined, more: (x: T, dropped: number) => T): T[] {
  const count = new Map<string, number>();
  for (const x of list) {
    const k = keyOf(x);
    if (k !== undefined) count.set(k, (count.get(k) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const out: T[] = [];
  for (const x of list) {
    const k = keyOf(x);
    if (k === undefined) {
      out.push(x);
      continue;
    }
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    if (n === count.get(k)) out.push(n > 1 ? more(x, n - 1) : x);
  }
  return out;
}

function oneLineText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** A bounded list that keeps the latest entries. */
export function keepLatest<T>(list: T[], item: T, max = EVIDENCE_RECORD): void {
  // The same failure again (an app that retries a 401) is one entry, moved to the end (trial
  // V8: one request listed three times).
  const key = JSON.stringify(item);
  const same = list.findIndex((x) => JSON.stringify(x) === key);
  if (same >= 0) list.splice(same, 1);
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

// ---------------------------------------------------------------- Aside

/**
 * What the Aside wrapper needs: a marker no page can know (the line that carries the evidence
 * back starts with it) and the wrapped script.
 *
 * Aside runs the script in its own process and closes its tabs when the script ends, and its
 * pages have no lasting events (`pg.on`): so the evidence is collected by the script itself.
 * The wrapper shadows `openTab`/`closeTab` to know the call's tabs and installs the cookbook's
 * evidence hook (console errors, uncaught errors, failed fetch/XHR and element loads, through
 * CDP, as the cookbook does on both engines); when the script throws it takes each open tab's
 * URL, title, screenshot (under Aside's `pwd`) and the hook's lists, within the same time
 * bound, prints them as one marked JSON line, and throws on. Open dialogs are not visible to
 * it (no page events on Aside). A thrown non-Error becomes an Error that says so.
 */
export function wrapForAside(script: string): { script: string; marker: string } {
  const marker = `__GSTACK_EVIDENCE_${randomBytes(12).toString('hex')}`;
  const config = JSON.stringify({ marker, hook: EVIDENCE_HOOK_SOURCE, budgetMs: EVIDENCE_BUDGET_MS, answerMs: PAGE_ANSWER_MS, record: EVIDENCE_RECORD, hungNote: HUNG_NOTE, outOfTimeNote: OUT_OF_TIME_NOTE });
  // The user's script starts on the wrapper's second line (line numbers shift by one).
  const head = `const __gstackEv = __gstackEvidenceRuntime(${config}); try { await (async () => { const openTab = __gstackEv.open, closeTab = __gstackEv.close, console = __gstackEv.console; await (async () => {`;
  const tail = `
})(); })(); } catch (__gstackErr) { throw await __gstackEv.fail(__gstackErr); }
await __gstackEv.ended();
${ASIDE_RUNTIME}`;
  return { script: `${head}\n${script}\n${tail}`, marker };
}

/** Reads the wrapper's marked line; undefined for any other line. */
export function parseAsideEvidence(line: string, marker: string): { tabs: TabEvidence[]; pwd?: string } | undefined {
  if (!line.startsWith(marker + ' ')) return undefined;
  try {
    const v = JSON.parse(line.slice(marker.length + 1)) as { tabs?: TabEvidence[]; pwd?: string };
    return { tabs: Array.isArray(v.tabs) ? v.tabs : [], pwd: typeof v.pwd === 'string' ? v.pwd : undefined };
  } catch {
    return { tabs: [] };
  }
}

/** The wrapper's runtime: plain flow-script JavaScript (catalog globals only), appended after
 * the script; a function declaration is hoisted, so the wrapper's first line can call it. */
const ASIDE_RUNTIME = String.raw`function __gstackEvidenceRuntime(cfg) {
  const realOpen = openTab, realClose = closeTab;
  const tabs = [];
  const bounded = (p, ms, fallback) => Promise.race([Promise.resolve(p).catch(() => fallback), sleep(ms).then(() => fallback)]);
  async function open(url) {
    const pg = await realOpen();
    tabs.push(pg);
    // The hook first, so it sees the page's first script (the cookbook's own hook is the same
    // and installs once).
    try {
      await pg._sendToTarget("Page.enable", {});
      await pg._sendToTarget("Page.addScriptToEvaluateOnNewDocument", { source: cfg.hook });
    } catch (e) {}
    if (url !== undefined && url !== "about:blank") await pg.goto(url);
    return pg;
  }
  async function close(pg) {
    const i = tabs.indexOf(pg);
    if (i >= 0) tabs.splice(i, 1);
    return realClose(pg);
  }
  async function one(pg, n, until) {
    const left = () => until - Date.now();
    const ev = { tab: n, url: "", title: null, screenshot: null, consoleErrors: [], networkErrors: [], dialog: null };
    try { ev.url = pg.url(); } catch (e) {}
    const title = await bounded(pg.evaluate(() => document.title), Math.min(cfg.answerMs, Math.max(0, left())), undefined);
    if (title === undefined) { ev.skipped = left() <= 0 ? cfg.outOfTimeNote : cfg.hungNote; return ev; }
    ev.title = title;
    const lists = await bounded(pg.evaluate(() => [window.__gstackErrors || [], window.__gstackNetErrors || []]), Math.max(0, left()), [[], []]);
    ev.consoleErrors = lists[0].slice(-cfg.record);
    ev.networkErrors = lists[1].slice(-cfg.record);
    const file = path.join(pwd, "evidence-tab-" + n + ".png");
    const shot = await bounded(pg.screenshot({ path: file }).then(() => file), Math.max(0, left()), null);
    ev.screenshot = shot;
    if (!shot) ev.skipped = cfg.outOfTimeNote;
    return ev;
  }
  async function collect() {
    const until = Date.now() + cfg.budgetMs;
    const open = tabs.filter((pg) => { try { return !pg.isClosed(); } catch (e) { return true; } });
    const out = await Promise.all(open.map((pg, i) => one(pg, i + 1, until)));
    console.log(cfg.marker + " " + JSON.stringify({ tabs: out, pwd }));
  }
  async function fail(err) {
    const error = err instanceof Error || (err && typeof err === "object" && "message" in err)
      ? err : new Error("the script threw a non-Error value: " + (typeof err === "string" ? JSON.stringify(err) : String(err)));
    await collect();
    return error;
  }
  // The script's console, watched for the sentinel: a script that ends without it failed too.
  let sawSentinel = false;
  const log = (...a) => {
    if (a.length === 1 && a[0] === ${JSON.stringify(SENTINEL)}) sawSentinel = true;
    console.log(...a);
  };
  const ownConsole = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  async function ended() {
    if (!sawSentinel) await collect();
  }
  return { open, close, fail, ended, console: ownConsole };
}`;
