// Failures a flow script started and never awaited (docs/SECURITY.md, "Each call starts clean").
//
// `pg.evaluate(() => window.boom())` without `await` rejects with nobody listening. Node's
// default for such a rejection is to end the process with a stack trace: page-chosen text (and
// escape codes) on stderr, no `[error]` line, and an in-process call's temporary profile left
// behind. Instead, while a call runs, such a rejection fails that call with a normal `[error]`
// line; outside a call (after it ended, or in a session host between calls) it is dropped, as
// everything a finished call left running is (sandbox.ts, membrane.ts).
let current: { record(reason: unknown, p: Promise<unknown>): void; handled(p: Promise<unknown>): void } | undefined;
let installed = false;

export interface StrayWatch {
  /** The first rejection nobody awaited during the call, if any. */
  readonly first: unknown;
  readonly seen: boolean;
  /** Lets rejections already due be reported (Node reports them after the microtask queue). */
  settle(): Promise<void>;
  stop(): void;
}

/** Records the rejections nobody handles from now until stop(). One call at a time per
 * process: a session host runs its calls one after another. */
export function watchStrayRejections(): StrayWatch {
  if (!installed) {
    installed = true;
    process.on('unhandledRejection', (reason, p) => current?.record(reason, p));
    // A script may attach its handler later (const p = pg.evaluate(...); ...; await p): then
    // the rejection is its own after all.
    process.on('rejectionHandled', (p) => current?.handled(p));
  }
  const pending = new Map<Promise<unknown>, unknown>();
  const sink = {
    record: (reason: unknown, p: Promise<unknown>) => void pending.set(p, reason),
    handled: (p: Promise<unknown>) => void pending.delete(p),
  };
  current = sink;
  return {
    get first() {
      return pending.values().next().value;
    },
    get seen() {
      return pending.size > 0;
    },
    settle: () => new Promise<void>((r) => setImmediate(r)),
    stop() {
      if (current === sink) current = undefined;
      pending.clear();
    },
  };
}
