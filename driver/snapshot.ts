// `snapshot(pg, opts)`: Playwright's AI-mode aria snapshot (stable [ref=eN] refs that
// `aria-ref=eN` resolves), post-processed for agents: secret values redacted, optional
// interactive/compact/depth filtering, a bounded size, and a diff against this page's
// previous snapshot in this call.
import type { Page, Frame } from 'playwright-core';
import { diffLines } from 'diff';
import { AgentError, toAgentError } from './errors.js';

export interface SnapshotOptions {
  interactive?: boolean;
  compact?: boolean;
  depth?: number;
  selector?: string;
}
export interface SnapshotResult {
  tree: string;
  diff: string;
}

/** Per-page memory of the last snapshot: the tree (for diffs) and what each ref named (for
 * stale-ref messages). */
export interface PageSnapshotState {
  /** The previous snapshot's tree: `diff` is what changed since the previous snapshot of that
   * page (DESIGN section 4, as on Aside), whatever options either used — so take before/after
   * snapshots with the same options for a clean diff. */
  previousTree?: string;
  /** Every ref seen on this page in this call and what it named (newest wins), so a ref whose
   * element is gone can still be described. */
  refs: Map<string, string>;
  snapshots: number;
}
export function newSnapshotState(): PageSnapshotState {
  return { refs: new Map(), snapshots: 0 };
}

export const MAX_TREE_CHARS = 60_000;
export const MAX_DIFF_CHARS = 20_000;
export const BASELINE_DIFF = '[baseline: first snapshot of this page in this call — later snapshots show what changed]';
export const NO_CHANGE_DIFF = '[no changes since the previous snapshot]';

const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem',
]);

const LINE_RE = /^(\s*)- (\/?[\w-]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$/;
const REF_RE = /\[ref=((?:f\d+)?e\d+)\]/;

interface Line {
  indent: number;
  text: string;
  role: string;
  name?: string;
  ref?: string;
}

function parse(tree: string): Line[] {
  return tree.split('\n').filter((l) => l.trim() !== '').map((text) => {
    const m = LINE_RE.exec(text);
    const indent = (/^\s*/.exec(text)?.[0].length ?? 0) / 2;
    return { indent, text, role: m?.[2] ?? '', name: m?.[3], ref: REF_RE.exec(text)?.[1] };
  });
}

function describe(l: Line): string {
  return l.name !== undefined ? `${l.role} "${l.name}"` : l.role;
}

/** Words that make a field secret when one of its hints (name, id, label, aria-label,
 * placeholder) contains them as a whole word — words split at punctuation, spaces, digits and
 * camelCase humps, case-insensitively: `userPassword`, `PASSWORD_CONFIRM`, `api-key`, `otp2`.
 * A word is never matched inside another (`passenger`, `compass`, `pineapple`, `topic`). */
const SECRET_WORDS = [
  'password', 'passwd', 'pwd', 'pass', 'passcode', 'passphrase', 'secret', 'token', 'otp', 'totp', 'hotp',
  'pin', 'cvv', 'cvc', 'csc', 'cvn', 'ssn', 'apikey', 'credential', 'credentials', 'privatekey', 'cardnumber', 'ccnumber', 'ccnum',
  'passwort', 'kennwort', 'contraseña', 'contrasena', 'senha', 'wachtwoord', 'lösenord', 'salasana', 'пароль',
];
/** Runs of words that make a field secret together (neither word alone does). */
const SECRET_PHRASES = [
  'api key', 'private key', 'access key', 'one time code', 'one time password', 'security code', 'verification code',
  'auth code', 'card number', 'cc number', 'cc num', 'mot de passe',
];
/** `autocomplete` tokens of secret fields: passwords, one-time codes, and every `cc-*` (card). */
const SECRET_AUTOCOMPLETE = ['current-password', 'new-password', 'one-time-code'];

export const SECRET_RULES = { words: SECRET_WORDS, phrases: SECRET_PHRASES, autocomplete: SECRET_AUTOCOMPLETE };

/** Whether a form field holds a secret, from its type, autocomplete tokens and hints. Runs in
 * Node (tests) and, as source text, in the page (secretValues): self-contained on purpose. */
export function isSecretField(field: { type?: string; autocomplete?: string; hints: string[] }, rules: typeof SECRET_RULES): boolean {
  if ((field.type ?? '').toLowerCase() === 'password') return true;
  const tokens = (field.autocomplete ?? '').toLowerCase().split(/\s+/);
  if (tokens.some((t) => rules.autocomplete.includes(t) || t.startsWith('cc-'))) return true;
  const words = field.hints
    .join(' ')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2') // userPassword
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2') // APIKey
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, '$1$3 $2$4') // otp2, 2fa
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.some((w) => rules.words.includes(w))) return true;
  const joined = ` ${words.join(' ')} `;
  return rules.phrases.some((p) => joined.includes(` ${p} `));
}

/** The page side of secretValues: every input and textarea that isSecretField calls secret,
 * in the document and its open shadow roots; both its current and its default (attribute)
 * value. Self-contained: it is sent to the page as source text. */
function collectSecretValues(isSecret: typeof isSecretField, rules: Parameters<typeof isSecretField>[1]): string[] {
  const NOT_TEXT = ['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file', 'range', 'color'];
  const out: string[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('input, textarea'))) {
      const i = el as HTMLInputElement;
      if (NOT_TEXT.includes(i.type)) continue;
      const labels = Array.from(i.labels ?? []).map((l) => l.textContent ?? '');
      const hints = [i.name, i.id, i.getAttribute('aria-label') ?? '', i.getAttribute('placeholder') ?? '', ...labels];
      if (!isSecret({ type: i.type, autocomplete: i.getAttribute('autocomplete') ?? '', hints }, rules)) continue;
      for (const v of [i.value, i.defaultValue]) if (v) out.push(v);
    }
    for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
}

/** The expression secretValues evaluates in every frame. A string, not a function, so the
 * classifier travels with it; `__name` is defined because a TypeScript runner (tsx) may wrap
 * named functions in calls to it. */
const SECRET_VALUES_EXPRESSION = `(() => { const __name = (f) => f; return (${collectSecretValues.toString()})(${isSecretField.toString()}, ${JSON.stringify(SECRET_RULES)}); })()`;

/** Values of secret fields (passwords, one-time codes, card numbers, tokens, API keys) in every
 * frame, including open shadow roots, longest first, so they can be cut from what a script is
 * given (snapshot text, pg.content()). */
export async function secretValues(page: Page): Promise<string[]> {
  const collect = (f: Frame) => f.evaluate(SECRET_VALUES_EXPRESSION).then((v) => v as string[], () => [] as string[]);
  const lists = await Promise.all(page.frames().map(collect));
  return [...new Set(lists.flat())].sort((a, b) => b.length - a.length);
}

export function redact(tree: string, secrets: string[]): string {
  if (!secrets.length) return tree;
  return tree
    .split('\n')
    .map((line) => {
      // A textbox line whose value is a secret: `- textbox "Password" [ref=e7]: hunter2`
      const m = /^(\s*- (?:textbox|searchbox|combobox)\b.*?): (.*)$/.exec(line);
      if (m && secrets.includes(m[2].trim())) return `${m[1]}: [redacted]`;
      let out = line;
      for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
      return out;
    })
    .join('\n');
}

/** `pg.content()` without secret values: a prefilled field's `value` attribute (any length)
 * and, like the snapshot, any other occurrence of a secret of 4 characters or more, as the
 * serializer escapes it in attributes and in text. */
export function redactHtml(html: string, secrets: string[]): string {
  let out = html;
  for (const s of secrets) {
    const amp = s.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;');
    const inAttr = amp.replace(/"/g, '&quot;');
    const inText = amp.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    out = out.split(`value="${inAttr}"`).join('value="[redacted]"');
    if (s.length >= 4) for (const form of new Set([s, inAttr, inText])) out = out.split(form).join('[redacted]');
  }
  return out;
}

/** What the script's `pg.content()` returns: Playwright's, with secret values cut. */
export async function redactedContent(page: Page): Promise<string> {
  const [html, secrets] = await Promise.all([page.content(), secretValues(page)]);
  return redactHtml(html, secrets);
}

/** A frame's HTML with the secret values of its page cut. */
export async function redactedFrameContent(frame: Frame): Promise<string> {
  const [html, secrets] = await Promise.all([frame.content(), secretValues(frame.page())]);
  return redactHtml(html, secrets);
}

function filterInteractive(lines: Line[]): Line[] {
  const out: Line[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!INTERACTIVE_ROLES.has(l.role) || !l.ref) continue;
    // children other than /url are dropped, so a trailing "container" colon would mislead
    out.push({ ...l, indent: 0, text: l.text.trimStart().replace(/:$/, '') });
    // keep a link's /url property line, it tells the agent where the link goes
    for (let j = i + 1; j < lines.length && lines[j].indent > l.indent; j++) {
      if (lines[j].indent === l.indent + 1 && lines[j].role === '/url') out.push({ ...lines[j], indent: 1, text: '  ' + lines[j].text.trimStart() });
    }
  }
  return out;
}

/** Drops unnamed `generic` wrappers and lifts their children one level. */
function compact(lines: Line[]): Line[] {
  const out: Line[] = [];
  const lift: number[] = []; // indents of dropped wrappers still open
  for (const l of lines) {
    while (lift.length && l.indent <= lift[lift.length - 1]) lift.pop();
    const isWrapper = l.role === 'generic' && l.name === undefined && /^\s*- generic(?: \[[^\]]*\])*:?\s*$/.test(l.text);
    if (isWrapper) {
      lift.push(l.indent);
      continue;
    }
    const indent = l.indent - lift.length;
    out.push({ ...l, indent, text: '  '.repeat(indent) + l.text.trimStart() });
  }
  return out;
}

function bound(text: string, max: number, what: string): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  const kept = text.slice(0, cut > 0 ? cut : max);
  const total = text.split('\n').length;
  const shown = kept.split('\n').length;
  return `${kept}\n[${what} truncated: showing ${shown} of ${total} lines — narrow it with { interactive: true }, { depth: N } or { selector: "main" }]`;
}

function diffTrees(prev: string | undefined, next: string): string {
  if (prev === undefined) return BASELINE_DIFF;
  if (prev === next) return NO_CHANGE_DIFF;
  const parts = diffLines(prev.endsWith('\n') ? prev : prev + '\n', next.endsWith('\n') ? next : next + '\n');
  const out: string[] = [];
  for (const p of parts) {
    if (!p.added && !p.removed) continue;
    const sign = p.added ? '+' : '-';
    for (const line of p.value.replace(/\n$/, '').split('\n')) out.push(`${sign} ${line}`);
  }
  return bound(out.join('\n') || NO_CHANGE_DIFF, MAX_DIFF_CHARS, 'diff');
}

export async function takeSnapshot(page: Page, state: PageSnapshotState, opts: SnapshotOptions = {}): Promise<SnapshotResult> {
  if (opts === null || typeof opts !== 'object') throw new AgentError('snapshot(pg, opts): opts must be an object like { interactive: true }.');
  if (opts.depth !== undefined && (!Number.isInteger(opts.depth) || opts.depth < 0)) {
    throw new AgentError('snapshot option depth must be a whole number ≥ 0.');
  }
  let raw: string;
  try {
    const [tree, secrets] = await Promise.all([
      opts.selector
        ? page.locator(opts.selector).first().ariaSnapshot({ mode: 'ai', timeout: 5000 } as never)
        : page.ariaSnapshot({ mode: 'ai', timeout: 10_000 } as never),
      secretValues(page),
    ]);
    raw = redact(tree, secrets);
  } catch (err) {
    if (opts.selector && /Timeout|does not match any element/i.test(String((err as Error)?.message))) {
      throw new AgentError(`snapshot: no element matches selector "${opts.selector}" — drop the selector or take a full snapshot to find the right one.`);
    }
    throw toAgentError(err);
  }
  let lines = parse(raw);
  // Remember what every ref named (from the full tree) for stale-ref messages.
  for (const l of lines) if (l.ref) state.refs.set(l.ref, describe(l));
  if (opts.interactive) lines = filterInteractive(lines);
  else if (opts.compact) lines = compact(lines);
  if (opts.depth !== undefined) lines = lines.filter((l) => l.indent <= opts.depth!);
  let tree = lines.map((l) => l.text).join('\n');
  if (opts.interactive && !tree) tree = '[no interactive elements]';
  tree = bound(tree, MAX_TREE_CHARS, 'snapshot');
  const diff = diffTrees(state.previousTree, tree);
  state.previousTree = tree;
  state.snapshots++;
  return { tree, diff };
}
