// The membrane's policy tables as code (docs/ARCHITECTURE.md, "Playwright fidelity"): which
// Playwright class an object is, what each of its members may do (pass, confine, refuse), and
// which raw CDP messages may pass. The tables themselves are data, `playwright` in
// driver/catalog.json, checked against the installed Playwright's type declarations by
// test/playwright-policy.test.ts; the generated skills and .d.ts list their refusals.
//
// Owns: reading the tables, telling an object's class, the CDP message check (plain data, the
// allow-list, which params are local paths). Not: acting on any of it (driver/runtime/membrane.ts does,
// with the call's files and URLs).
import { loadCatalog, type PlaywrightPolicies } from '../catalog.js';
import { AgentError } from '../errors.js';

export type Policy = { kind: 'pass' } | { kind: 'confine'; note: string } | { kind: 'refuse'; message: string };

const PASS: Policy = { kind: 'pass' };

/** A member name as the tables write it: `[Symbol.asyncDispose]` for that symbol, else the name. */
export function memberKey(prop: string | symbol): string | undefined {
  if (typeof prop === 'string') return prop;
  // Told by identity, not by description: Node 20's own Symbol.asyncDispose reads "nodejs.asyncDispose".
  const wellKnown = Symbol as unknown as Record<string, unknown>;
  const name = Object.getOwnPropertyNames(Symbol).find((k) => wellKnown[k] === prop);
  return name ? `[Symbol.${name}]` : undefined;
}

export class PolicyTable {
  private readonly members = new Map<string, Map<string, Policy>>();
  /** Each class's string members, largest class first: an object is the largest class whose
   * every member it has (an ElementHandle has all of JSHandle's and more). */
  private readonly shapes: Array<{ cls: string; names: string[] }>;
  private readonly byPrototype = new WeakMap<object, string | null>();

  constructor(readonly data: PlaywrightPolicies) {
    for (const [cls, p] of Object.entries(data.classes)) {
      const m = new Map<string, Policy>();
      for (const name of p.pass) m.set(name, PASS);
      for (const [name, note] of Object.entries(p.confine ?? {})) m.set(name, { kind: 'confine', note });
      for (const [name, message] of Object.entries(p.refuse ?? {})) m.set(name, { kind: 'refuse', message });
      this.members.set(cls, m);
    }
    this.shapes = [...this.members]
      .map(([cls, m]) => ({ cls, names: [...m.keys()].filter((n) => !n.startsWith('[')) }))
      .sort((a, b) => b.names.length - a.names.length);
  }

  get classNames(): string[] {
    return [...this.members.keys()];
  }

  /**
   * The Playwright class of `raw`, told by its public members (the tables' own lists), not by
   * Playwright's private fields or its bundled class names; undefined for an object of no class
   * in the tables. Decided once per prototype.
   */
  classOf(raw: object): string | undefined {
    const proto = Object.getPrototypeOf(raw) as object | null;
    const known = proto ? this.byPrototype.get(proto) : undefined;
    if (known !== undefined) return known ?? undefined;
    const cls = this.shapes.find((s) => s.names.length > 0 && s.names.every((n) => n in raw))?.cls;
    if (proto) this.byPrototype.set(proto, cls ?? null);
    return cls;
  }

  /** The policy of `cls.member`; undefined when the table does not list it. */
  policy(cls: string | undefined, member: string): Policy | undefined {
    return cls ? this.members.get(cls)?.get(member) : undefined;
  }

  /** The members of `cls` the tables list (for `in` and own-key listings). */
  has(cls: string | undefined, member: string): boolean {
    return !!cls && !!this.members.get(cls)?.has(member);
  }
}

let shared: PolicyTable | undefined;

/** The tables of the catalog this process runs with (read once). */
export function policies(): PolicyTable {
  return (shared ??= new PolicyTable(loadCatalog().playwright));
}

/**
 * A script's value as the plain data it stands for, evaluated once: JSON's own rules, so String
 * objects become strings, `toJSON` is called and getters are read a single time. What is checked
 * afterwards is exactly what is sent. Throws an AgentError for what JSON cannot carry (cycles,
 * BigInt).
 */
export function plainData(v: unknown, what: string): unknown {
  if (v === undefined) return undefined;
  try {
    const json = JSON.stringify(v);
    return json === undefined ? undefined : JSON.parse(json);
  } catch (err) {
    throw new AgentError(`${what} must be plain JSON data (${(err as Error).message.split('\n')[0]}): pass strings, numbers, arrays and plain objects.`);
  }
}

/** A CDP message after the check: plain data, its method allowed, and the local paths in its
 * params listed (by where they sit) for the caller to confine. */
export interface CheckedCdp {
  method: string;
  params: Record<string, unknown> | undefined;
  /** Params that name local files: [holder, key] pairs the caller replaces with private copies. */
  paths: Array<{ holder: Record<string, unknown> | unknown[]; key: string | number; value: unknown; param: string }>;
  /** A Browser.* (or auto-attach) method: it changes the whole browser. A target made through
   * CDP too: its requests may still be in flight when the call ends (a late Set-Cookie). */
  browserWide: boolean;
}

/** Checks one raw CDP message against the catalog's allow-list (plain data first). */
export function checkCdp(method: unknown, params: unknown, table = policies()): CheckedCdp {
  const m = plainData(method, 'A CDP method name');
  if (typeof m !== 'string' || !/^[A-Z][A-Za-z]*\.[A-Za-z]+$/.test(m)) {
    throw new AgentError(`A CDP method must be a name like "Page.reload" (got ${typeof m === 'string' ? JSON.stringify(m.slice(0, 80)) : typeof m}).`);
  }
  const p = plainData(params ?? undefined, `The params of ${m}`);
  if (p !== undefined && (p === null || typeof p !== 'object' || Array.isArray(p))) throw new AgentError(`The params of ${m} must be an object (or left out).`);
  const cdp = table.data.cdp;
  const refused = cdp.refuse[m];
  if (refused) throw new AgentError(`${m} is not available in a flow script: ${refused}`, 'CDP_REFUSED');
  const domain = m.slice(0, m.indexOf('.'));
  if (!cdp.domains.includes(domain)) {
    throw new AgentError(`The CDP domain ${domain} is not available in a flow script (${m}). Allowed domains: ${cdp.domains.join(', ')}; or use the Playwright API.`, 'CDP_REFUSED');
  }
  const checked: CheckedCdp = { method: m, params: p as Record<string, unknown> | undefined, paths: [], browserWide: domain === 'Browser' || m.startsWith('Target.setAutoAttach') || m === 'Target.createTarget' || m === 'Target.createBrowserContext' };
  for (const dotted of cdp.paths[m] ?? []) collectPaths(checked.params, dotted.split('.'), dotted, checked.paths);
  return checked;
}

/** The values at a dotted param path (arrays on the way are walked), as [holder, key] pairs. */
function collectPaths(at: unknown, keys: string[], param: string, out: CheckedCdp['paths']): void {
  if (!at || typeof at !== 'object') return;
  if (Array.isArray(at)) return at.forEach((x) => collectPaths(x, keys, param, out));
  const [key, ...rest] = keys;
  const v = (at as Record<string, unknown>)[key];
  if (v === undefined) return;
  if (rest.length) return collectPaths(v, rest, param, out);
  if (Array.isArray(v)) v.forEach((x, i) => out.push({ holder: v, key: i, value: x, param }));
  else out.push({ holder: at as Record<string, unknown>, key, value: v, param });
}

/** Every string in a plain value (for the file: URL check of CDP params). */
export function everyString(v: unknown, visit: (s: string) => void): void {
  if (typeof v === 'string') return visit(v);
  if (!v || typeof v !== 'object') return;
  for (const x of Array.isArray(v) ? v : Object.values(v)) everyString(x, visit);
}
