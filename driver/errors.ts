// Errors, made in one place: GstackError, what ends a command, with the exit code the catalog
// gives its kind; AgentError, what a flow script sees thrown; and rewriteError, which turns any
// error a Page/Locator call throws into a message an agent can act on (what happened, then what
// to do next), so the final `[error]` line is always actionable.
import { EXIT, SENTINEL, type ConfinedFs, type ExitCode, type ExitName } from './catalog.gen.js';

/** A failure that ends a command: a message written for its reader (what happened, then the
 * next step) and the exit code of its kind (catalog "exitCodes"). Every error that sets an exit
 * code is one of these; anything else that ends a command exits 1. */
export class GstackError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, readonly exit: ExitName) {
    super(message);
    this.exitCode = EXIT[exit];
    this.name = new.target.name;
  }
}

/** A bad command line or parameter (exit USAGE). */
export class UsageError extends GstackError {
  constructor(message: string) {
    super(message, 'USAGE');
  }
}

/** The longest delay Node's timers keep (2^31 - 1 ms): a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2_147_483_647;

/** The longest deadline any command takes (24 h), in milliseconds: Node's timers stop at
 * 2^31-1 ms (24.8 days), and no browser call should run for a day. */
export const MAX_TIMEOUT_MS = 86_400_000;

/** What is wrong with a milliseconds flag's value (undefined: nothing). A deadline is a whole
 * number from 1 to MAX_TIMEOUT_MS, checked where the command line is read, so a bad value is a
 * usage error (exit 2) and never reaches a timer or the host's wire format. */
export function millisecondsProblem(name: string, v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_TIMEOUT_MS) return undefined;
  return `--${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (24 h); got ${JSON.stringify(String(v))}.`;
}

/** The exit code an error ends a command with. */
export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof GstackError ? err.exitCode : EXIT.SCRIPT_FAILED;
}

const NODE_GLOBALS = ['process', 'require', 'module', 'exports', '__dirname', '__filename', 'setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'global'];

/** What a script reaching for Node's fs (`fs.writeFileSync`, `fs.promises`, `fs.existsSync`)
 * is told: the script's fs is promise-based, as Aside's is, and has no other members. */
export function fsMemberMissing(member: string): string {
  const async = member.replace(/Sync$/, '');
  const instead =
    member === 'promises' ? 'fs is promise-based already: call fs.writeFile(...), fs.readFile(...) directly'
    : async === 'exists' ? 'ask with await fs.access(path.join(pwd, name)).then(() => true, () => false)'
    : FS_MEMBERS.includes(async) ? `use await fs.${async}(...)`
    : `its members are ${FS_MEMBERS.join(', ')}`;
  return `fs.${member} is not part of a flow script's fs, which is promise-based (as on Aside) and confined to pwd: ${instead}. Paths are under pwd: path.join(pwd, "out.txt").`;
}
/** The script's fs, the catalog's ConfinedFs: tsc fails when a member is added there and not here. */
const FS_MEMBERS = Object.keys({ readFile: 0, writeFile: 0, appendFile: 0, mkdir: 0, readdir: 0, stat: 0, rm: 0, unlink: 0, rename: 0, copyFile: 0, access: 0 } satisfies Record<keyof ConfinedFs, 0>);

const NOT_A_TEST_FILE = 'A flow script is one script, not a Playwright Test file: write its steps at the top level (top-level await works) and print the sentinel at the end.';

/** Names agents write from Playwright Test or a Playwright script, where a flow script has its
 * own way (the script API in the skills). */
const PLAYWRIGHT_NAMES: Record<string, string> = {
  page: 'There is no `page` global: a flow script opens its own tabs. Start with `const page = await openTab(url)` (a Playwright Page).',
  browser: 'There is no `browser` global: the call\'s browser is already running. Open a tab with `await openTab(url)`; its context is `pg.context()`.',
  chromium: 'A flow script does not launch browsers: the call\'s browser is already running. Open a tab with `await openTab(url)`.',
  context: 'There is no `context` global: a tab from `openTab(url)` gives its context with `pg.context()`.',
  expect: '`expect` is Playwright Test\'s, not part of a flow script: wait with `await locator.waitFor()` (visible by default) or `await pg.waitForURL(...)`, read with `await locator.isVisible()`, `textContent()` or `inputValue()`, and `throw new Error(...)` to fail the check.',
  test: NOT_A_TEST_FILE,
  describe: NOT_A_TEST_FILE,
};

/** Marks an error whose message is already written for agents, so it is not rewritten twice. */
export class AgentError extends Error {
  constructor(message: string, readonly code: string = 'AGENT_ERROR') {
    super(message);
    this.name = 'AgentError';
  }
}

/** An error class whose instances a flow script catches: the class and its prototype are frozen,
 * because a session host keeps them between calls and a script reaches them from any error it
 * catches (`Object.getPrototypeOf(err)`). A change there would outlive the call and could flip
 * the next call's verdict (docs/SECURITY.md, "A call's verdict is its own"). */
export function sealScriptFacing(cls: Function): void {
  Object.freeze(cls.prototype);
  Object.freeze(cls);
}
sealScriptFacing(AgentError);

function firstLine(s: string): string {
  return s.split('\n')[0].trim();
}

/** Playwright appends a log ("Call log:", or a "=== logs ===" block for event waits) and ANSI
 * codes; keep the first meaningful line. */
function playwrightHeadline(message: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = message.replace(/\u001b\[[0-9;]*m/g, '');
  const head = clean.split(/\n\s*(?:Call log:|=+ logs =+)/)[0];
  return head.replace(/\s+/g, ' ').trim();
}

/** The locator a timed-out element wait was for, as the call log names it:
 * `waiting for locator('#a')`, `waiting for getByRole('button', { name: 'Save' })`. */
function selectorOf(raw: string): string | undefined {
  return /waiting for ((?:locator|getBy\w+|frameLocator)\(.*?\))(?: to be \w+)?\s*$/m.exec(raw)?.[1];
}

/** The wait a timeout ended, in words an agent can act on (Playwright's own `Timeout 30000ms
 * exceeded` names neither what was awaited nor what to change). */
function timeoutMessage(raw: string, msg: string, reach?: string, url?: string, alsoWaiting?: string): string {
  const ms = Number(/Timeout (\d+)ms exceeded/.exec(msg)?.[1]);
  const within = Number.isFinite(ms) ? ` within ${ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`}` : '';
  const call = /^([\w.$]+):/.exec(msg)?.[1] ?? 'the call';
  const still = alsoWaiting ? ` Another call of the script is still waiting: ${alsoWaiting}. If that is the action meant to cause it, it has not happened: fix that call first.` : '';
  const event = /while waiting for event "([\w-]+)"/.exec(raw)?.[1];
  if (event) {
    const pattern = /waiting for (?:response|request) (".*?")\s*$/m.exec(raw)?.[1];
    if (event === 'response' || event === 'request') {
      return `No ${event}${pattern ? ` matching ${truncate(pattern, 120)}` : ''} came${within} (${call}).${still} Start waiting before the action that sends it (const r = pg.${event === 'response' ? 'waitForResponse' : 'waitForRequest'}(...); await <action>; await r), check the URL pattern against the page's real requests, or raise { timeout }.`;
    }
    const cause =
      event === 'download' ? 'the click or navigation that downloads'
      : event === 'popup' ? 'the click that opens the popup'
      : event === 'filechooser' ? 'the click that opens the file chooser'
      : event === 'dialog' ? 'the action that opens the dialog'
      : 'the action that causes it';
    return `No "${event}" event came${within} (${call}).${still} Start waiting before ${cause} (const e = pg.waitForEvent("${event}"); await <action>; await e), check that the action really causes it, or raise { timeout }.`;
  }
  if (/waitForFunction/.test(msg)) {
    return `The condition passed to ${call} was not true${within}. Check it against the page (pg.evaluate it once to see what it returns), or raise { timeout }.`;
  }
  const now = url ? `; the page is at ${truncate(url, 200)}` : '';
  if (/^(?:page|frame)\.waitForURL:/.test(msg)) {
    const pattern = /waiting for navigation to (".*?") until/.exec(raw)?.[1];
    return `The page did not reach a URL matching ${pattern ? truncate(pattern, 120) : 'the pattern'}${within} (${call})${now}.${still} Check the pattern against that URL (a glob matches the whole URL, its query included: "**/done*" also matches /done?id=1; a RegExp may match a part of it), or wait for what the action shows instead (await pg.getByText("…").waitFor()).`;
  }
  if (/^(?:page|frame)\.waitForNavigation:/.test(msg)) {
    return `No navigation came${within} (${call})${now}.${still} Playwright deprecates waitForNavigation: a navigation that ended before it was called (during the click before it, a single-page app's history.pushState too) is missed. Wait for the result instead: await pg.waitForURL("**/path"), which passes at once when the page is already there, or a locator's waitFor().`;
  }
  if (/page\.goto|navigat|waitForURL|waitForLoadState/i.test(msg)) {
    return `Navigation timed out (${truncate(msg, 180)}). The page may be slow or the URL wrong: check the URL, or wait for a specific element with pg.waitForSelector() and a larger { timeout }.`;
  }
  const sel = selectorOf(raw);
  const what = sel ? ` ${truncate(sel, 120)}` : '';
  if (/element is not visible|resolved to hidden/.test(raw)) {
    return `The element${what} exists but is not visible${within} (${call}).${reach ? ` ${reach}` : ''} Scroll or open the part of the page that shows it, or take a snapshot and pick a visible element's ref.`;
  }
  if (/element is not enabled|element is not editable/.test(raw)) {
    return `The element${what} is disabled${within} (${call}). Complete the required fields first, or take a snapshot to see what enables it.`;
  }
  if (/intercepts pointer events/.test(raw)) {
    // Playwright names the element in the way (`<div class="popover">…</div> intercepts`, or
    // `<span> from <div …> subtree intercepts`): a hit test, which no snapshot shows.
    const m = /- (<.{1,300}?) intercepts pointer events/.exec(raw)?.[1];
    const cover = m ? (/ from (<.*) subtree$/.exec(m)?.[1] ?? m) : undefined;
    const named = cover ? `, ${truncate(cover, 120)},` : '';
    const inside = reach ? ` ${reach}` : '';
    return `Another element${named} covers the target${what} (${call}).${inside} If it is an overlay or a dialog, close it first; if it is a tooltip or popover, move away from it (pg.keyboard.press("Escape"), or hover elsewhere); if it only decorates the target, or a hover opened it over its own target, pass { force: true }. Then retry.`;
  }
  if (/element is outside of the viewport/.test(raw)) {
    // Found and visible, but where no scroll brings it: a closed drawer or menu moved off the
    // page (trial V2: a docs site's sidebar at phone width), which "element missing" misled.
    return `The element${what} is on the page but outside the viewport, where scrolling cannot bring it${within} (${call}): it is likely in a closed menu, drawer or sidebar, or the layout is wider than the window. Open what holds it first (its toggle button), or set a viewport that shows it (pg.setViewportSize).`;
  }
  if (/element is not stable/.test(raw)) {
    return `The element${what} kept moving (an animation)${within} (${call}). Let the page settle and retry, or pass { force: true } if it never stops moving.`;
  }
  const gone = /waiting for .*? to be (hidden|detached)\s*$/m.exec(raw)?.[1];
  if (gone) {
    return `The element${what} was still ${gone === 'hidden' ? 'visible' : 'on the page'}${within} (${call}). Check that the action before it really removes it (take a snapshot), or raise { timeout }.`;
  }
  // No state to blame and the call log never saw the locator match: the element is not there.
  if (/waiting for (?:locator|getBy|frameLocator)/.test(raw) && !/resolved to/.test(raw)) {
    // Where a snapshot names nothing (a canvas editor's nodes and ports, unlabelled icons; trial
    // V3, Node-RED), "act by ref" is a dead end: the page's own class names are the way in.
    // A wait names what to wait for instead; an action, the element to act on (trial V7: a
    // waitForSelector was told to click a ref).
    if (/^(?:page|frame)\.waitForSelector$|^locator\.waitFor$/.test(call)) {
      return `Element not found${what ? ` for${what}` : ''}${within} (${call}).${reach ? ` ${reach}` : ''} Take a snapshot (snapshot(pg, { interactive: true })) to see what the page shows, then wait for that (a role and name, a test id, a text), or raise { timeout } for a page that draws itself late.`;
    }
    return `Element not found${what ? ` for${what}` : ''}${within} (${call}).${reach ? ` ${reach}` : ''} Take a snapshot (snapshot(pg, { interactive: true })) and act on the element by its ref, e.g. pg.locator("e12").click(); where the snapshot names nothing (a canvas or node editor, unlabelled icons), list the page's own classes with pg.evaluate and use a CSS selector.`;
  }
  // Found, then gone from the page again and again while the action waited (trial V6: a row a
  // delete was removing read as "found, but the action could not complete").
  if (/element was detached from the DOM, retrying/.test(raw)) {
    return `The element${what} was found, but the page removed or redrew it while the action waited${within} (${call}): it is being re-rendered (a list updating, a row going away). Wait for what the last step changes before acting; if the element is meant to go, wait for that instead (await locator.waitFor({ state: "detached" })).`;
  }
  // Found, but the action never went through for a reason no rule above knows.
  if (/resolved to/.test(raw)) {
    // Something on top of it when the action gave up (trial V20: typing that missed its field
    // opened an app menu over the button), found by a hit test at its middle (whatCovers).
    const covered = reach ? ` Another element covers it now: ${reach.replace(/^It is/, 'it is')}` : '';
    return `Timed out (${truncate(msg, 200)}): the element${what} was found, but the action could not complete.${covered} Take a snapshot to see its state, then retry, or act on another element.`;
  }
  return `Timed out (${truncate(msg, 200)}). The page may be slow or the element missing: take a snapshot to see the page, then use a ref or a larger { timeout }.`;
}

export interface RewriteContext {
  availableGlobals?: string[];
  /** The Playwright member that threw (`Locator.filter`), for errors no rule below knows: the
   * message then still ends with a next step. */
  call?: string;
  /** How far a not-found locator's chain matched (driver/runtime/locator-reach.ts), said after
   * "Element not found". */
  reach?: string;
  /** Where the page is now, for a navigation wait that timed out (page.url(): no round trip). */
  url?: string;
  /** Another Playwright call of the script still waiting when an event wait timed out
   * (membrane.ts pendingCall): the action meant to cause the event, perhaps. */
  alsoWaiting?: string;
}

/** The message of a Playwright timeout (not one of ours, already told), or undefined: what the
 * element-state tests below read. */
function playwrightTimeout(err: unknown): string | undefined {
  if (err instanceof AgentError) return undefined;
  const e = err as { name?: string; message?: unknown } | undefined;
  const raw = typeof e?.message === 'string' ? e.message : '';
  return e?.name === 'TimeoutError' || /Timeout \d+ms exceeded/i.test(raw) ? raw : undefined;
}

/** A timed-out wait for an element that never matched: the error "Element not found" words. */
export function isElementNotFound(err: unknown): boolean {
  const raw = playwrightTimeout(err);
  return raw !== undefined && timeoutMessage(raw, playwrightHeadline(raw)).startsWith('Element not found');
}

/** A Playwright timeout whose element was found but stayed hidden (our "exists but is not
 * visible"). */
export function isElementHidden(err: unknown): boolean {
  return /element is not visible|resolved to hidden/.test(playwrightTimeout(err) ?? '');
}

/** A Playwright timeout whose element stayed covered by another (our "Another element … covers
 * the target"). */
export function isElementCovered(err: unknown): boolean {
  return /intercepts pointer events/.test(playwrightTimeout(err) ?? '');
}

/** A Playwright timeout of an action whose element was found, for a reason no other rule names
 * (the "found, but the action could not complete" words). */
export function isElementFoundStuck(err: unknown): boolean {
  const raw = playwrightTimeout(err) ?? '';
  return /resolved to/.test(raw) && !/intercepts pointer events|element is not visible|resolved to hidden|element is not (?:enabled|editable)|detached from the DOM|outside of the viewport|element is not stable/.test(raw);
}

/** Playwright quotes the elements a locator matched (`<input type="password" value="hunter2"/>`,
 * `<textarea>sk-live-…</textarea> aka getByText('sk-live-…')`) in strict-mode and actionability
 * errors: what every input, textarea and rich-text field (contenteditable, role=textbox) holds is cut, there and wherever else the message
 * repeats it, so no error line carries what a field holds (docs/SECURITY.md). */
let learnHeldValues: ((values: string[]) => void) | undefined;
/** Where the values an error quoted go, to be cut from the call's later lines too (the output
 * module registers it: this vocabulary module imports no runtime). */
export function onHeldValues(learn: (values: string[]) => void): void {
  learnHeldValues = learn;
}

export function redactElementValues(message: string): string {
  const held: string[] = [];
  let out = message
    // Playwright's `aka getByRole('button', { name: '…' })` hint names an element by its
    // accessible name, which a page can take from a field's value (aria-labelledby pointing at
    // a password input): the hint is left out, the element's own markup stays.
    .replace(/ aka (?:getBy\w+|locator|frameLocator|internal:\w+)\([^\n]*?(?=\n|\s+\d+\) |$)/g, '')
    .replace(/(<(?:input|textarea)\b[^<>]*?\svalue=)("[^"]*"|'[^']*'|[^\s>/]+)/gi, (_m, head: string, v: string) => {
      held.push(v.replace(/^["']|["']$/g, ''));
      return `${head}"[redacted]"`;
    })
    .replace(/(<textarea\b[^<>]*>)([^<]*)(<\/textarea>|…|$)/gi, (_m, open: string, text: string, close: string) => {
      held.push(text);
      return `${open}[redacted]${close}`;
    })
    // A select's options are its possible values: their text is cut too.
    .replace(/(<option\b[^<>]*>)([^<]+)/gi, (_m, open: string, text: string) => {
      held.push(text);
      return `${open}[redacted]`;
    })
    // A rich-text field (contenteditable, role=textbox) holds its value as its text.
    .replace(/(<[a-z][\w-]*\b[^<>]*\s(?:contenteditable\b|role=["']?textbox\b)[^<>]*>)([^<]+)/gi, (_m, open: string, text: string) => {
      held.push(text);
      return `${open}[redacted]`;
    });
  // Each line of a multi-line value (a textarea of recovery codes), and each code-like word of
  // it, is a value of its own: a page can copy
  // one into another element the error also quotes (its title).
  const codeLike = (v: string) => /^\S{6,}$/.test(v) && /[^\p{L}]/u.test(v);
  // (Playwright's element preview shows a line break as ↵.)
  const values = [...new Set(held.flatMap((h) => [h, ...h.split(/\r?\n|\u21B5/), ...h.split(/[\s\u21B5]+/).filter(codeLike)]).map((h) => h.trim()))].filter((h) => h.length >= 3);
  for (const v of values.sort((a, b) => b.length - a.length)) out = out.split(v).join('[redacted]');
  // The call has now seen the code-like ones (any field's words would be too many to cut from
  // every later line): a copy in a title printed next is cut as well.
  const seen = values.filter(codeLike);
  if (seen.length) learnHeldValues?.(seen);
  return out;
}

/** Returns an agent-facing message for any error (never throws). */
export function rewriteError(err: unknown, ctx: RewriteContext = {}): string {
  if (err instanceof AgentError) return err.message;
  const e = err as { name?: string; message?: string; stack?: string } | undefined;
  const name = e?.name ?? 'Error';
  // eslint-disable-next-line no-control-regex
  const raw = redactElementValues((typeof e?.message === 'string' ? e.message : String(err)).replace(/\u001b\[[0-9;]*m/g, ''));
  const msg = playwrightHeadline(raw);
  const available = ctx.availableGlobals?.length ? ` Available globals: ${ctx.availableGlobals.join(', ')}.` : '';

  if (name === 'ReferenceError') {
    const m = /^(\S+) is not defined/.exec(msg);
    if (m && NODE_GLOBALS.includes(m[1])) {
      const extra =
        m[1] === 'require' ? ' Use the globals fs, path and Buffer instead of modules.'
        : m[1].startsWith('set') || m[1].startsWith('clear') ? ' Use `await sleep(ms)` to wait.'
        : m[1] === 'process' ? ` A flow script cannot exit or read the environment: end it by printing ${SENTINEL}, or throw to fail.`
        : '';
      return `${m[1]} is not available in a flow script (no Node globals).${extra}${available}`;
    }
    if (m && Object.hasOwn(PLAYWRIGHT_NAMES, m[1])) return `${m[1]} is not defined. ${PLAYWRIGHT_NAMES[m[1]]}${available}`;
    return `${msg}.${available}`;
  }
  // Aside's fs says so in V8's words (ours throws fsMemberMissing as the member is read).
  const fsMember = name === 'TypeError' ? /^fs\.(\w+) is not a function/.exec(msg)?.[1] : undefined;
  if (fsMember) return fsMemberMissing(fsMember);
  if (/Cannot use import statement|import\(\) is not available|Dynamic import|ERR_VM_DYNAMIC_IMPORT/i.test(raw)) {
    return `import is not available in a flow script: it runs as one self-contained script.${available}`;
  }
  if (/^(page|frame|locator)\.(evaluate|evaluateHandle|waitForFunction|\$eval|\$\$eval)\b/.test(msg) && /\bat (eval|UtilityScript|predicate)\b/.test(msg)) {
    const what = msg.replace(/^[\w.$]+: /, '').replace(/\s+at (eval|predicate|next|UtilityScript|<anonymous>)\b.*$/, '');
    return `The function passed to ${/^[\w.$]+/.exec(msg)![0]} threw inside the page: ${truncate(what, 200)}. It runs in the page (not in the script): check what it reads exists there, and pass script values as its argument.`;
  }
  if (/strict mode violation/i.test(msg)) {
    const count = /resolved to (\d+) elements/.exec(msg)?.[1];
    const locator = /strict mode violation: (.*?) resolved to \d+ elements/.exec(msg)?.[1];
    // Each element Playwright lists, one short line each (trial V5: one element's markup, cut
    // at 200 characters, named neither button).
    const listed = [...raw.matchAll(/^\s*(\d+)\) (.+)$/gm)].slice(0, 5).map(([, n, el]) => `${n}) ${truncate(el.trim(), 120)}`);
    const matched = listed.length ? `: ${listed.join('; ')}${Number(count) > listed.length ? '; …' : ''}` : '';
    // The usual cause: a name or text matches as a substring ("Create" matches "Create a local account").
    const byName = locator && /getBy(?:Role|Text|Label|Placeholder|AltText|Title)\(/.test(locator) && !/exact: true/.test(locator);
    const exact = byName ? ' A name or text matches every element whose name or text contains it, in any case: pass { exact: true } to match it whole (getByRole("button", { name: "Create", exact: true }), getByText("Save", { exact: true })), or' : '';
    return `The locator${locator ? ` ${truncate(locator, 120)}` : ''} matched ${count ?? 'several'} elements, so the action is ambiguous${matched}.${exact || ' To act on one,'} narrow it (.filter({ hasText }), a container's locator, .first()), or act by its ref from snapshot(pg, { interactive: true }): pg.locator("e12").`;
  }
  if (/net::ERR_[A-Z_]+/.test(msg)) {
    const code = /net::ERR_[A-Z_]+/.exec(msg)![0];
    const url = /at (\S+)/.exec(msg)?.[1] ?? /navigating to "([^"]+)"/.exec(msg)?.[1] ?? '';
    const hint =
      /CONNECTION_REFUSED|ADDRESS_UNREACHABLE|CONNECTION_RESET|EMPTY_RESPONSE/.test(code)
        ? 'Nothing answered there: check that the server is running and the host and port are right.'
        : /NAME_NOT_RESOLVED|NAME_RESOLUTION/.test(code)
          ? 'The host name does not resolve: check the URL for typos (this machine may also have no network).'
          : /CERT|SSL/.test(code)
            ? 'The TLS certificate was rejected: check the URL (http vs https).'
            : /ABORTED/.test(code)
              ? 'The navigation was interrupted (often a download or a second navigation): wait for the page with pg.waitForURL() instead.'
              : /UNSAFE_PORT/.test(code)
                ? 'Chromium never loads this port (it is on its list of unsafe ports): serve the site on another port.'
                : 'Check the URL and that the site is reachable from this machine.';
    return `Could not load ${url || 'the page'} (${code}). ${hint}`;
  }
  if (name === 'TimeoutError' || /Timeout \d+ms exceeded/i.test(msg)) return timeoutMessage(raw, msg, ctx.reach, ctx.url, ctx.alsoWaiting);
  if (/Element is not an <input>|not an <input>, <textarea>|Not a checkbox or radio|Element is not a <select>/i.test(msg)) {
    return `${msg.replace(/^[\w.]+: (Error: )?/, '')}. The element is the wrong kind for this action: take a snapshot (snapshot(pg, { interactive: true })) and use the ref of a textbox, checkbox or combobox.`;
  }
  if (/Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected/i.test(msg)) {
    return `The tab or browser closed while the script used it (${truncate(msg, 160)}). Do not use a page after closeTab(), and keep the whole flow in one script.`;
  }
  if (/Element is not attached to the DOM|element was detached/i.test(msg)) {
    return `The element was removed from the page (re-rendered) during the action. Take a new snapshot and use the new ref.`;
  }
  if (/is interrupted by another navigation to/.test(msg)) {
    const m = /Navigation to "([^"]*)" is interrupted by another navigation to "([^"]*)"/.exec(msg);
    return `The navigation${m ? ` to ${truncate(m[1], 120)}` : ''} was cut short by another one${m ? ` (to ${truncate(m[2], 120)})` : ''}. Let the page settle first (await pg.waitForLoadState()), or wait for where it ends up with pg.waitForURL().`;
  }
  if (/Frame locators are not allowed inside composite locators/.test(msg)) {
    return `A locator inside an iframe cannot be the "has", "hasNot", "and" or "or" of a locator outside it (${truncate(firstLine(msg), 200)}). Build the whole locator inside the frame: pg.frameLocator("#frame").getByRole("row").filter({ has: ... }), with the inner locator from the same frameLocator.`;
  }
  if (/must belong to the same frame/.test(msg)) {
    return `${truncate(firstLine(msg), 200)} Build the inner locator from the same page or frame as the outer one (inside an iframe: frame.getByRole(...), not pg.getByRole(...)).`;
  }
  if (name === 'SyntaxError' && !ctx.call) {
    return `SyntaxError in the flow script: ${msg}. Fix the script; it must be plain JavaScript with top-level await.`;
  }
  // Room for a message that wraps another (a cookbook step's wait that quotes the locator error).
  const text = `${name === 'Error' ? '' : name + ': '}${truncate(firstLine(msg) || msg, 1000)}`;
  if (!ctx.call) return text;
  return `${text.replace(/[.\s]+$/, '')} (from ${ctx.call}). Check its arguments against Playwright's documentation of ${ctx.call}, and look at the page with snapshot(pg) before retrying.`;
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

/** The agent's error for any failure. Playwright's own error is not attached as `cause`: its
 * call log quotes what the rewritten message cuts (field values, a request's cookie header), and
 * a script prints `e.cause` as readily as `e.message` (docs/SECURITY.md, "get a secret"). */
export function toAgentError(err: unknown, ctx: RewriteContext = {}): AgentError {
  if (err instanceof AgentError) return err;
  return new AgentError(rewriteError(err, ctx));
}
