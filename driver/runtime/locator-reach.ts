// What a failed locator action could not see, asked of the page after it failed, for its error:
// how far a chain that matched nothing got (the step that stopped matching is the one to fix:
// `locator('form') → 1 element; .locator('fieldset') → none`; without it an agent with a chain
// of filters, a data grid's row `filter({ has })`, can only guess which link was wrong), which
// of a hidden element's matches are visible, and what part of the page covers a click.
import type { Frame, Locator } from 'playwright-core';
import { within } from './evidence.js';

/** A probe must not make a failed call much slower: past this, no words are added. */
const REACH_BUDGET_MS = 1_500;

/** Calls `visit(i)` at each index of `text` outside quotes, brackets and parentheses (the
 * parts of a selector that hold names and texts); a visit that returns an index goes on after it. */
function eachTopLevel(text: string, visit: (i: number) => number | void): void {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0) i = visit(i) ?? i;
  }
}

/** Splits a Playwright selector at its top-level ` >> ` (not inside a quoted text or name). */
export function selectorSteps(selector: string): string[] {
  const steps: string[] = [];
  let start = 0;
  eachTopLevel(selector, (i) => {
    if (!selector.startsWith(' >> ', i)) return;
    steps.push(selector.slice(start, i));
    start = i + 4;
    return i + 3;
  });
  steps.push(selector.slice(start));
  return steps;
}

/** Steps that match no elements of their own: entering a frame, a description. */
const NOT_A_MATCH = /^internal:(?:control=enter-frame|describe=)/;

/**
 * The compound selectors a CSS step's combinators join, as prefixes: `#chart > g.node .port`
 * gives `#chart`, `#chart > g.node`. Empty for a step of another engine (`internal:role=…`,
 * `xpath=…`, `text=…`) or with no combinator. A long CSS selector is a chain too (trial V9:
 * `g.node[id='gone'] .button` said only "not found").
 */
export function cssPrefixes(step: string): string[] {
  // `internal:text=/members? match/i` (getByText with a RegExp) is one step: its engine reads what
  // follows the `=` whole, spaces and all (trial V11: it was cut at its first space).
  if (/^[a-z][\w:-]*=|^\/\/|^\.\./i.test(step.trim())) return [];
  const out: string[] = [];
  let list = false;
  eachTopLevel(step, (i) => {
    const c = step[i];
    if (c === ',') list = true;
    else if (/[\s>+~]/.test(c)) {
      const before = step.slice(0, i).trim();
      if (before && !/[>+~]$/.test(before) && !out.includes(before)) out.push(before);
    }
  });
  // A selector list (`a, b`) is not a chain.
  return list ? [] : out;
}

/**
 * "How far it matched: …", counting each prefix of the locator's chain in the page, from the
 * first step to the first that matches nothing; and, when the step that matched nothing is a
 * role with a name, which other role (or plain text) has that name. Undefined when there is
 * nothing to say, for a locator of another Playwright (no `_frame`/`_selector`), or when the page
 * does not answer in time.
 */
export async function howFarItMatched(locator: object): Promise<string | undefined> {
  const { frame, selector } = framed(locator) ?? {};
  if (!frame || selector === undefined) return undefined;
  const steps = selectorSteps(selector);
  // `a.or(b)` widens, it is no step of a chain: each branch is counted on its own (its first
  // branch alone read as the locator's whole reach).
  const orAt = steps.findIndex((s) => s.startsWith(OR_STEP));
  const afterOr = orAt > 0 ? steps.slice(orAt).filter((s) => !s.startsWith(OR_STEP)) : [];
  if (orAt > 0 && afterOr.every((s) => /^nth=-?\d+$/.test(s))) return within(branchesReach(frame, steps, orAt), REACH_BUDGET_MS, undefined);
  // Every prefix of the chain that matches elements, in order: each step, and inside a CSS step
  // each compound its combinators join.
  const prefixes: string[] = [];
  steps.forEach((step, i) => {
    if (NOT_A_MATCH.test(step)) return;
    const head = steps.slice(0, i).join(' >> ');
    for (const part of [...cssPrefixes(step), step]) prefixes.push(head ? `${head} >> ${part}` : part);
  });
  const probe = async () => {
    const reach = prefixes.length >= 2 ? await walk(frame, prefixes) : { said: undefined, lastFailed: true };
    // Only where the last step is the one that found nothing: an earlier step's miss is the one
    // to fix first.
    const other = reach.lastFailed ? await sameNameElsewhere(frame, steps) : undefined;
    return [reach.said, other].filter(Boolean).join(' ') || undefined;
  };
  return within(probe(), REACH_BUDGET_MS, undefined);
}

const OR_STEP = 'internal:or=';

/** "How far it matched" for `a.or(b).or(c)`: each branch's count, and for a branch that names a
 * role with a name, which other role has that name (a "button" that is a link). */
async function branchesReach(frame: Frame, steps: string[], orAt: number): Promise<string | undefined> {
  const branches = [steps.slice(0, orAt).join(' >> ')];
  for (let j = orAt; j < steps.length && steps[j].startsWith(OR_STEP); j++) {
    try {
      branches.push(JSON.parse(steps[j].slice(OR_STEP.length)) as string);
    } catch {
      return undefined;
    }
  }
  const counts = await Promise.all(branches.map((b) => frame.locator(b).count()));
  const said = branches.map((b, i) => `${String(frame.locator(b))} → ${counts[i] === 0 ? 'none' : `${counts[i]} element${counts[i] === 1 ? '' : 's'}`}`);
  const others = counts.every((c) => c === 0) ? await Promise.all(branches.map((b) => sameNameElsewhere(frame, selectorSteps(b)))) : [];
  return [`How far it matched, each branch of the .or(): ${said.join('; ')}.`, ...others.filter(Boolean)].join(' ');
}

/**
 * For a locator whose element stayed hidden: how many elements it matches without its last
 * `.first()`/`.nth(i)`, and how many of those are visible, when some are (a dialog an app keeps
 * closed behind the open one, a menu drawn twice for two layouts; trials V6, V7, V9).
 * Undefined when none is visible or the page does not answer in time.
 */
export async function visibleOthers(locator: object): Promise<string | undefined> {
  const { frame, selector } = framed(locator) ?? {};
  if (!frame || selector === undefined) return undefined;
  const steps = selectorSteps(selector);
  const picked = /^nth=-?\d+$/.test(steps[steps.length - 1]) ? steps.pop() : undefined;
  // The call that picked it, as the script wrote it.
  const pick = picked === 'nth=0' ? '.first()' : picked === 'nth=-1' ? '.last()' : picked ? `.nth(${picked.slice(4)})` : undefined;
  const base = steps.join(' >> ');
  const probe = async () => {
    const [all, shown] = await Promise.all([frame.locator(base).count(), frame.locator(`${base} >> visible=true`).count()]);
    if (!shown) return undefined;
    return `It matches ${all} element${all === 1 ? '' : 's'}${pick ? ` without its ${pick}` : ''}, ${shown} of them visible: take a visible one with .filter({ visible: true })${pick ? ` before ${pick}` : ''} (in a CSS selector, :visible).`;
  };
  return within(probe(), REACH_BUDGET_MS, undefined);
}

/**
 * For a click that another element covered: the part of the page that element belongs to, by
 * role, with its text and its buttons (`It is in alert "Sync error" …, whose buttons are
 * "Close"`). Playwright names the covering element by its markup, often a generated class
 * (`<div class="css-axvwfi">`), and an interactive snapshot does not list the alert or toast
 * around it (trial V19: an app's toasts covered its buttons). Page text, as the markup
 * Playwright quotes is: cut of secrets and marked like the rest of the error line.
 */
export async function whatCovers(locator: object): Promise<string | undefined> {
  const { frame, selector } = framed(locator) ?? {};
  if (!frame || selector === undefined) return undefined;
  const probe = async () => {
    const found = await frame.locator(selector).first().evaluate((target) => {
      const r = target.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      let hit = document.elementFromPoint(x, y);
      for (let inner = hit?.shadowRoot?.elementFromPoint(x, y); hit && inner && inner !== hit; inner = hit.shadowRoot?.elementFromPoint(x, y)) hit = inner;
      if (!hit || target.contains(hit)) return undefined;
      const TAG_ROLES: Record<string, string> = { DIALOG: 'dialog', ASIDE: 'complementary', NAV: 'navigation', HEADER: 'banner', FOOTER: 'contentinfo' };
      const PARTS = /^(alert|alertdialog|dialog|status|tooltip|menu|listbox|log|toolbar|banner|complementary|navigation|contentinfo|region)$/;
      const words = (el: Element) => ((el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.getAttribute('title') || '').replace(/\s+/g, ' ').trim());
      for (let n: Element | null = hit; n && n !== document.body && n !== document.documentElement; n = n.parentElement ?? ((n.getRootNode() as ShadowRoot).host || null)) {
        const role = n.getAttribute('role') || TAG_ROLES[n.tagName];
        if (!role || !PARTS.test(role)) continue;
        const buttons = [...n.querySelectorAll('button, [role=button]')].map(words).filter(Boolean).slice(0, 4);
        return { role, name: words(n).slice(0, 80), buttons: buttons.map((b) => b.slice(0, 40)) };
      }
      return undefined;
    }, undefined, { timeout: REACH_BUDGET_MS });
    if (!found) return undefined;
    const buttons = found.buttons.map((b) => JSON.stringify(b));
    const list = buttons.length > 1 ? `${buttons.slice(0, -1).join(', ')} and ${buttons.at(-1)}` : buttons[0];
    const closer = found.buttons.find((b) => /^(?:close|dismiss|ok|got it|no thanks)\b|^[×✕✖x]$/i.test(b));
    const get = `pg.getByRole(${JSON.stringify(found.role)})`;
    const close = closer ? `; ${get}.getByRole("button", { name: ${JSON.stringify(closer)} }).click() may close it` : '';
    return `It is in ${found.role}${found.name ? ` ${JSON.stringify(found.name)}` : ''}${list ? `, whose button${buttons.length > 1 ? 's are' : ' is'} ${list}` : ''}${close}.`;
  };
  return within(probe().catch(() => undefined), REACH_BUDGET_MS, undefined);
}

/** The frame a locator was made on and its selector, as Playwright keeps them (`_frame`,
 * `_selector`); undefined for a locator of another Playwright. */
function framed(locator: object): { frame: Frame; selector: string } | undefined {
  const { _frame: frame, _selector: selector } = locator as { _frame?: Frame; _selector?: unknown };
  return typeof selector === 'string' && frame && typeof frame.locator === 'function' ? { frame, selector } : undefined;
}

/** The roles of a field a label would name. */
const FIELD_ROLES = ['textbox', 'searchbox', 'combobox', 'spinbutton', 'checkbox', 'radio', 'switch', 'slider', 'listbox'];
/** Roles an agent mistakes for one another: a "button" that is a link, a menu entry, a tab. */
const ROLES_TRIED = ['button', 'link', 'menuitem', 'tab', 'option', 'checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'heading', 'treeitem'];

/**
 * For a last step `getByRole(role, { name })` that found nothing: the other roles whose elements
 * have that name, or else the name as plain text on the page (an element with no role). Trial
 * V13: "Import members" was a link, and the error only said the button was not there.
 */
async function sameNameElsewhere(frame: Frame, steps: string[]): Promise<string | undefined> {
  const last = steps[steps.length - 1];
  // getByLabel("Password") on a field named by its placeholder or title (trials V16, V17:
  // the snapshot read `textbox "Password"`): the roles of a field are tried, as a role's others are.
  const label = /^internal:label=("(?:[^"\\]|\\.)*"[is]?|\/(?:[^/\\]|\\.)*\/[a-z]*)$/.exec(last)?.[1];
  const role = label ? 'label' : /^internal:role=([a-z]+)/.exec(last)?.[1];
  // The name as Playwright wrote it: a quoted text with its case flag, or a RegExp.
  const name = label ?? /\[name=("(?:[^"\\]|\\.)*"[is]?|\/(?:[^/\\]|\\.)*\/[a-z]*)\]/.exec(last)?.[1];
  if (!role || !name) return undefined;
  const head = steps.slice(0, -1).join(' >> ');
  const at = (step: string) => frame.locator(head ? `${head} >> ${step}` : step);
  const tried = label ? FIELD_ROLES : ROLES_TRIED.filter((r) => r !== role);
  const counted = await Promise.all(tried.map(async (r) => ({ r, n: await at(`internal:role=${r}[name=${name}]`).count() })));
  const found = counted.filter((c) => c.n > 0);
  const count = (n: number) => `${n} element${n === 1 ? '' : 's'}`;
  if (found.length) {
    const which = found.map((c) => `${String(at(`internal:role=${c.r}[name=${name}]`))} → ${count(c.n)}`).join('; ');
    if (label) return `No field has that label, but ${found.length === 1 ? `a ${found[0].r} has it as its name` : 'these have it as their name'} (from its placeholder or title, which getByLabel does not read): ${which}.`;
    return `No ${role} has that name, but ${found.length === 1 ? `a ${found[0].r} does` : 'these do'}: ${which}.`;
  }
  const text = at(`internal:text=${name}`);
  const n = await text.count();
  if (!n) return undefined;
  const named = await namedOtherwise(text.first());
  if (named) return `No element with a role has that name, but the text is on the page: ${String(text)} → ${count(n)}, ${n === 1 ? '' : 'the first '}in a ${named.role} whose name is another (${named.line}): act on it by the name it has, getByRole(${JSON.stringify(named.role)}, { name: ${JSON.stringify(named.name)} }), or by that text.`;
  return `No element with a role has that name, but the text is on the page: ${String(text)} → ${count(n)} (an element with no role: act on it by that text).`;
}

/**
 * The control a text is in when that control's name is not its text (`<button
 * aria-label="Apply credentials">Authorize</button>`): getByRole with the text finds nothing,
 * and "an element with no role" sent the agent the wrong way (trial V33 on Swagger UI). The
 * element itself or its nearest ancestor with a role; its line as Playwright's snapshot prints it.
 */
async function namedOtherwise(el: Locator): Promise<{ role: string; name: string; line: string } | undefined> {
  for (const candidate of [el, el.locator('xpath=ancestor::*[@role or self::button or self::a[@href] or self::select or self::summary]').last()]) {
    if (candidate !== el && !(await candidate.count().catch(() => 0))) return undefined;
    const line = (await candidate.ariaSnapshot({ timeout: 1000 }).catch(() => '')).split('\n')[0];
    const m = /^- ([a-z]+) "((?:[^"\\]|\\.)*)"/.exec(line);
    if (m && ROLES_TRIED.includes(m[1])) return { role: m[1], name: JSON.parse(`"${m[2]}"`) as string, line: line.replace(/^- /, '') };
    if (m) return undefined;
  }
  return undefined;
}

async function walk(frame: Frame, prefixes: string[]): Promise<{ said: string; lastFailed: boolean }> {
  const said: string[] = [];
  let before = '';
  for (const selector of prefixes) {
    const prefix: Locator = frame.locator(selector);
    const count = await prefix.count();
    const described = String(prefix);
    const step = before && described.startsWith(before) ? described.slice(before.length) : described;
    before = described;
    said.push(`${step} → ${count === 0 ? 'none' : `${count} element${count === 1 ? '' : 's'}`}`);
    if (count === 0) break;
  }
  const lastFailed = said.length === prefixes.length && said[said.length - 1].endsWith('→ none');
  const whole = said.length === prefixes.length && !lastFailed;
  return { said: `How far it matched: ${said.join('; then ')}${whole ? ' (the whole locator matches now: the page changed after the wait; retry, or wait for it with a larger { timeout })' : ''}.`, lastFailed };
}
