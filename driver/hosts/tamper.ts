// Did a call change what a session host shares between its calls? (docs/ARCHITECTURE.md,
// "Hosts".)
//
// Each call runs in a fresh vm context with fresh globals, and every Playwright object it gets
// is a proxy that refuses changes (membrane.ts). What a script can still reach are the host
// realm's built-in objects behind the values it is given: the prototype of `fs` (Object),
// of arrays and Buffers its calls return, of the promises it awaits, of the functions it
// calls. A script that changes one of those (`Object.getPrototypeOf(fs).x = 1`,
// `Array.prototype.push = ...` through a result) would change them for the next call of the
// same session. So the host takes a fingerprint of those objects when it starts and compares
// after every call; a changed one ends the host after the call has answered, and the next
// call starts in a fresh one. (Other sessions never see it in any case: they have their own
// host process.)
import { Dirent, Stats, statSync } from 'node:fs';

type Snapshot = Map<object, { proto: object | null; extensible: boolean; props: Map<PropertyKey, PropertyDescriptor> }>;

/** The host realm's intrinsics a script's values lead to: every global constructor and
 * namespace object, their prototypes, the hidden ones (iterators, generators, typed arrays,
 * async functions), and the prototypes of what `fs` returns. */
function intrinsics(): object[] {
  const out = new Set<object>();
  const add = (v: unknown) => {
    if (v && (typeof v === 'object' || typeof v === 'function')) out.add(v as object);
  };
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (name === 'globalThis' || name === 'global') continue;
    let v: unknown;
    try {
      v = (globalThis as Record<string, unknown>)[name];
    } catch {
      continue;
    }
    if (typeof v === 'function') {
      add(v);
      add((v as { prototype?: unknown }).prototype);
    } else if (v && typeof v === 'object' && /^[A-Z]/.test(name)) {
      add(v); // JSON, Math, Reflect, Intl, Atomics, WebAssembly, ...
    }
  }
  const protoOf = (v: unknown) => (v ? Object.getPrototypeOf(v) : undefined);
  add(protoOf([][Symbol.iterator]())); // %ArrayIteratorPrototype%
  add(protoOf(protoOf([][Symbol.iterator]()))); // %IteratorPrototype%
  add(protoOf(new Map()[Symbol.iterator]()));
  add(protoOf(new Set()[Symbol.iterator]()));
  add(protoOf(''[Symbol.iterator]()));
  add(protoOf(/x/[Symbol.matchAll]('')));
  add(protoOf(Uint8Array)); // %TypedArray%
  add(protoOf(Uint8Array.prototype));
  const gen = function* () {};
  const asyncGen = async function* () {};
  add(protoOf(async function () {})); // %AsyncFunction.prototype%
  add(protoOf(gen)); // %GeneratorFunction.prototype%
  add(protoOf(protoOf(gen()))); // %GeneratorPrototype%
  add(protoOf(asyncGen)); // %AsyncGeneratorFunction.prototype%
  add(protoOf(protoOf(asyncGen()))); // %AsyncGeneratorPrototype%
  add(protoOf(protoOf(protoOf(asyncGen())))); // %AsyncIteratorPrototype%
  // What the script's `fs` hands back: a stat result and a directory entry are host objects
  // whose prototypes every later call's checks use (a deep merge of page JSON into an
  // `fs.stat()` result set `isDirectory` there, and every later `-f` call of the session
  // failed; pass 22, C22).
  add(Stats.prototype);
  add(protoOf(Stats.prototype)); // StatsBase
  const bigStats = protoOf(statSync('/', { bigint: true }));
  add(bigStats);
  add(protoOf(bigStats));
  add(Dirent.prototype);
  return [...out];
}

function take(objects: object[]): Snapshot {
  const snap: Snapshot = new Map();
  for (const o of objects) {
    const props = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(o)) {
      const d = Reflect.getOwnPropertyDescriptor(o, key);
      if (d) props.set(key, d);
    }
    snap.set(o, { proto: Reflect.getPrototypeOf(o), extensible: Reflect.isExtensible(o), props });
  }
  return snap;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return Object.is(a.value, b.value) && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable && a.configurable === b.configurable;
}

export interface TamperCheck {
  /** What changed since the host started (empty: nothing), e.g. "Array.prototype.push". */
  changes(): string[];
}

export function watchIntrinsics(extra: object[] = []): TamperCheck {
  const objects = [...intrinsics(), ...extra];
  const baseline = take(objects);
  const nameOf = (o: object) => {
    const ctor = (o as { constructor?: { name?: string; prototype?: unknown } }).constructor;
    if (typeof o === 'function') return (o as { name?: string }).name || 'function';
    return ctor?.prototype === o && ctor.name ? `${ctor.name}.prototype` : 'an intrinsic';
  };
  return {
    changes() {
      const out: string[] = [];
      for (const [o, before] of baseline) {
        if (Reflect.getPrototypeOf(o) !== before.proto) out.push(`the prototype of ${nameOf(o)}`);
        if (Reflect.isExtensible(o) !== before.extensible) out.push(`${nameOf(o)} (frozen)`);
        const keys = Reflect.ownKeys(o);
        if (keys.length !== before.props.size) {
          for (const k of keys) if (!before.props.has(k)) out.push(`${nameOf(o)}.${String(k)} (added)`);
          for (const k of before.props.keys()) if (!keys.includes(k as string | symbol)) out.push(`${nameOf(o)}.${String(k)} (deleted)`);
        }
        for (const [k, d] of before.props) {
          const now = Reflect.getOwnPropertyDescriptor(o, k);
          if (now && !sameDescriptor(d, now)) out.push(`${nameOf(o)}.${String(k)}`);
        }
        if (out.length > 20) break;
      }
      return out;
    },
  };
}
